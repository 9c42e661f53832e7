"""`LocatingParser` builds the op of a line whose form (its text but for value names)
it has read before, with operands of the same types, from what it read then
(`_reuse_line`). Reading with and without that gives the same modules (printed), the
same locations of every op, the same verifier diagnostics (verifying an op like one
verified before once, `_verification_key`, against verifying each) and the same parse errors
on every lit input, example and conformance chunk, and on text made to hit its
edges (types that differ, names defined twice, forward references, two ops on a
line, `loc(...)`)."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import pytest
from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError

from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect import context
from xla_dialect.context import (
    LocatingParser,
    make_context,
    parse_error_diagnostic,
    split_input,
    verify_all,
)

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT.parent / "shared" / "conformance"
if not CONFORMANCE.is_dir():
    CONFORMANCE = Path("/work/shared/conformance")

EDGES = [
    # the same form again: reused
    ("func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.add %a, %b : tensor<2xf32>\n"
        "  %1 = stablehlo.add %0, %b : tensor<2xf32>\n"
        "  %cst = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
        "  %cst_0 = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
        "  %2 = stablehlo.add %1, %cst_0 : tensor<2xf32>\n"
        "  func.return %2 : tensor<2xf32>\n}\n"),
    # the same form with an operand of another type: the parser's error
    ("func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
        "  %1 = stablehlo.add %a, %b : tensor<2xf32>\n"
        "  func.return %1 : tensor<2xf32>\n}\n"),
    # a name defined twice by a reused line
    ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.negate %a : tensor<2xf32>\n"
        "  %0 = stablehlo.negate %a : tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n}\n"),
    # forward references, a self reference
    ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.negate %a : tensor<2xf32>\n"
        "  %1 = stablehlo.negate %2 : tensor<2xf32>\n"
        "  %2 = stablehlo.negate %a : tensor<2xf32>\n"
        "  %3 = stablehlo.negate %3 : tensor<2xf32>\n"
        "  %4 = stablehlo.negate %3 : tensor<2xf32>\n"
        "  func.return %4 : tensor<2xf32>\n}\n"),
    # two ops on a line, locations given, a comment
    ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.abs %a : tensor<2xf32> %1 = stablehlo.abs %0 : tensor<2xf32>\n"
        "  %2 = stablehlo.abs %1 : tensor<2xf32> %3 = stablehlo.abs %2 : tensor<2xf32>\n"
        '  %4 = stablehlo.abs %3 : tensor<2xf32> loc("x.py":3:1)\n'
        '  %5 = stablehlo.abs %4 : tensor<2xf32> loc("x.py":4:1)\n'
        "  %6 = stablehlo.abs %5 : tensor<2xf32> // %5\n"
        "  %7 = stablehlo.abs %6 : tensor<2xf32> // %6\n"
        "  func.return %7 : tensor<2xf32>\n}\n"),
    # results that are not one named value
    ("func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {\n"
        "  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<2xf32>, tensor<2xf32>\n"
        "  %1:2 = stablehlo.optimization_barrier %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>\n"
        "  func.return %1#0, %1#1 : tensor<2xf32>, tensor<2xf32>\n}\n"),
    # reductions: a region of unlocated ops is copied; one of ops read from the line is not
    ("func.func @f(%a: tensor<2x3xf32>) -> tensor<2xf32> {\n"
        "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
        "  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>\n"
        "  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>\n"
        '  %3 = "stablehlo.reduce"(%a, %c) ({ ^bb0(%x: tensor<f32>, %y: tensor<f32>): %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32> "stablehlo.return"(%s) : (tensor<f32>) -> () }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n'
        '  %4 = "stablehlo.reduce"(%a, %c) ({ ^bb0(%x: tensor<f32>, %y: tensor<f32>): %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32> "stablehlo.return"(%s) : (tensor<f32>) -> () }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n'
        "  %5 = stablehlo.add %2, %3 : tensor<2xf32>\n"
        "  %6 = stablehlo.add %5, %4 : tensor<2xf32>\n"
        "  func.return %6 : tensor<2xf32>\n"
        "}\n"),
]


def _corpus() -> list[tuple[str, str]]:
    files = sorted((ROOT / "tests" / "lit").rglob("*.mlir")) + sorted((ROOT / "examples").rglob("*.mlir"))
    if CONFORMANCE.is_dir():
        files += sorted(CONFORMANCE.rglob("*.mlir"))
    chunks: list[tuple[str, str]] = []
    for path in files:
        for i, (chunk, _) in enumerate(split_input(path.read_text())):
            chunks.append((f"{path.relative_to(path.parents[1])}#{i}", chunk))
    return chunks


def _context() -> Context:
    ctx = make_context()
    register_llvm_extensions(ctx)
    return ctx


def _read(ctx: Context, text: str, reuse: bool) -> tuple[str, list[str], list[str], int]:
    """The printed module, its ops' locations, its verifier diagnostics (or the parse
    error) and how many lines were reused."""
    parser = LocatingParser(ctx, text, "t.mlir", reuse_lines=reuse)
    try:
        module = parser.parse_module()
    except ParseError as err:
        return "", [], [parse_error_diagnostic(err).render()], parser.reused_lines
    locations = [f"{op.name} {op.location}" for op in module.walk()]
    diagnostics = [d.render() for d in verify_all(module, text)]
    try:
        printed = str(module)
    except Exception as err:  # noqa: BLE001 - a module that does not verify may not print either
        printed = f"printing failed: {type(err).__name__}: {err}"
    return printed, locations, diagnostics, parser.reused_lines


def _compare(ctx: Context, text: str) -> int:
    fast = _read(ctx, text, True)
    with patch.object(context, "_verification_key", lambda op: None):  # every op verified alone
        slow = _read(ctx, text, False)
    assert slow[3] == 0
    assert fast[:3] == slow[:3]
    return fast[3]


def test_the_corpus_reads_the_same() -> None:
    ctx = _context()
    chunks = _corpus()
    if not CONFORMANCE.is_dir():
        print(f"conformance suite not found at {CONFORMANCE}: lit inputs and examples only")
    reused = 0
    parsed = 0
    for name, chunk in chunks:
        try:
            reused += _compare(ctx, chunk)
        except AssertionError:
            pytest.fail(f"{name} reads differently with reused lines")
        parsed += 1
    assert parsed > 300
    assert reused > 500  # the exported programs repeat their lines (1,055 when written)


@pytest.mark.parametrize("text", EDGES)
def test_edges_read_the_same(text: str) -> None:
    _compare(_context(), text)


def test_repeated_lines_are_reused() -> None:
    parser = LocatingParser(_context(), EDGES[0], "t.mlir")
    module = parser.parse_module()
    assert parser.reused_lines == 3  # %1 and %2 (from %0's line), %cst_0 (from %cst's)
    op: Operation = list(module.walk())[3]
    assert op.name == "xla.add" and str(op.location) == 'loc("t.mlir":3:3)'


def test_reductions_are_reused_with_copies_of_their_regions() -> None:
    parser = LocatingParser(_context(), EDGES[-1], "t.mlir")
    module = parser.parse_module()
    assert parser.reused_lines == 2  # %2 (from %1's line) and %6 (from %5's)
    reductions = [op for op in module.walk() if op.name == "xla.reduce"]
    assert len({id(op.regions[0]) for op in reductions}) == len(reductions) == 5
    assert str(reductions[2].location) == 'loc("t.mlir":5:3)'


def test_reductions_like_one_verified_before_are_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from xla_dialect.ops.reduction import ReduceOp

    calls: list[int] = []
    original = ReduceOp.verify

    def counting(self: ReduceOp, verify_nested_ops: bool = True) -> None:
        calls.append(1)
        original(self, verify_nested_ops)

    monkeypatch.setattr(ReduceOp, "verify", counting)
    module = LocatingParser(_context(), EDGES[-1], "t.mlir").parse_module()
    assert verify_all(module, EDGES[-1]) == []
    assert len(calls) == 2  # %0, %3, %4 share a key (their bodies are alike), %1 and %2 another
    reduce = (
        "  %{0} = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1]"
        " : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>\n"
    )
    wrong = (
        "func.func @f(%a: tensor<2x3xf32>) -> tensor<2xf32> {\n"
        "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
        + "".join(reduce.format(i) for i in range(3))
        + "  func.return %2 : tensor<2xf32>\n}\n"
    )
    module = LocatingParser(_context(), wrong, "t.mlir", reuse_lines=False).parse_module()
    lines = [d.line for d in verify_all(module, wrong)]
    assert lines == [3, 4, 5]  # a failure is not remembered: each reduction reports it
