"""The passes rewritten for compile time give xDSL's results: on JAX exports lowered
to the step before each, the project's `lower-affine` prints the same module as xDSL's
`lower-affine`, and `apply_once` the same as xDSL's walker without `apply_recursively`;
`convert-to-llvm` (one round of the greedy walker, the casts reconciled on their own)
the module of xDSL's walker and reconciliation, and with the entry's allocations, frees and
calls lowered in one sweep the module of the patterns; `outline-loop-nests` calling the kernel made before for a nest that would be identical
to it gives, after `merge-identical-functions`, the module of outlining every nest; `verify_all`
verifies an `xla` op like one verified before only once, and still reports every op that
fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker
from xdsl.transforms.lower_affine import LowerAffinePass as XdslLowerAffinePass

from lowering.lower_affine import LowerAffinePass
from lowering.parallel.linalg_to_parallel_loops import GenericToParallelLoops
from lowering.pattern_dispatch import apply_once
from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect.context import make_context, parse_module, verify_all
from xla_dialect.ops.elementwise import AddOp
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

HERE = Path(__file__).resolve().parents[2] / "examples" / "jax_exports"
PROGRAMS = ["conv_block", "rng", "linalg_f32"]


def _lowered_to(name: str, step: str, skip: tuple[str, ...] = ()) -> tuple[ModuleOp, Context]:
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module((HERE / f"{name}.mlir").read_text(), f"{name}.mlir", ctx)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index(step)] if p not in skip], ctx)
    return module, ctx


@pytest.mark.parametrize("name", PROGRAMS)
def test_lower_affine_prints_what_xdsls_prints(name: str) -> None:
    module, ctx = _lowered_to(name, "lower-affine")
    theirs = module.clone()
    assert "affine." in str(module)
    LowerAffinePass().apply(ctx, module)
    XdslLowerAffinePass().apply(ctx, theirs)
    assert "affine.load" not in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize("name", PROGRAMS)
def test_apply_once_is_one_walker_pass(name: str) -> None:
    module, _ = _lowered_to(name, "convert-linalg-to-parallel-loops")
    theirs = module.clone()
    assert apply_once(module, [GenericToParallelLoops()])
    PatternRewriteWalker(GenericToParallelLoops(), apply_recursively=False).rewrite_module(theirs)
    assert "scf.parallel" in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize(("name", "repeats"), [("gpt_forward", True), ("mlp", True), ("conv_block", False), ("vmapped", False)])
def test_outline_reusing_kernels_then_merge_prints_what_outlining_each_prints(name: str, repeats: bool) -> None:
    # (without `outline-linalg-kernels`, which would have outlined and merged the repeats before)
    module, ctx = _lowered_to(name, "outline-loop-nests", ("outline-linalg-kernels",))
    theirs = module.clone()
    run_passes(module, ["outline-loop-nests"], ctx)
    reused = str(module).count("func.func private")
    run_passes(module, ["merge-identical-functions"], ctx)
    run_passes(theirs, ["outline-loop-nests"], ctx, options={"outline-loop-nests": {"merge_identical": False}})
    each = str(theirs).count("func.func private")
    run_passes(theirs, ["merge-identical-functions"], ctx)
    assert (reused < each) == repeats  # kernels of repeated layers were reused, not made
    assert str(module) == str(theirs)


_REPEATED_OPS = """func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  %0 = xla.add %a, %a : tensor<4xf32>
  %1 = xla.add %0, %a : tensor<4xf32>
  %2 = xla.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %3 = xla.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %4 = xla.add %1, %a : tensor<4xf32>
  func.return %4 : tensor<4xf32>
}"""


def test_verify_all_verifies_a_repeated_op_once_and_reports_each_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    module = parse_module(_REPEATED_OPS, "t.mlir", verify=False)
    verified: list[str] = []
    original = AddOp.verify

    def counting(self: AddOp, verify_nested_ops: bool = True) -> None:
        verified.append(str(self.results[0].name_hint))
        original(self, verify_nested_ops)

    monkeypatch.setattr(AddOp, "verify", counting)
    diagnostics = verify_all(module, _REPEATED_OPS)
    # %1 and %4 have the key of %0; %3 fails as %2 did, and a failure is not remembered
    assert [d.render().splitlines()[0] for d in diagnostics] == [
        f"t.mlir:{line}:3: error: 'xla.add' op rhs element type i32 differs from lhs element type f32" for line in (4, 5)
    ]
    assert len(verified) == 3


@pytest.mark.parametrize("name", [*PROGRAMS, "gpt_forward", "mlp"])
def test_convert_to_llvm_one_round_prints_what_xdsls_walker_prints(name: str) -> None:
    """`convert-to-llvm` with `OneRoundWalker` and the casts-only reconciliation gives
    the module of xDSL's walker (confirming rounds included) and xDSL's
    `reconcile_unrealized_casts`."""
    from xdsl.transforms.reconcile_unrealized_casts import (
        reconcile_unrealized_casts as xdsl_reconcile,
    )

    from lowering.pattern_dispatch import TypeDispatchingApplier
    from lowering.to_llvm import ConvertToLLVMPass, all_patterns
    from lowering.to_llvm.common import convert_all_block_arguments

    module, ctx = _lowered_to(name, "convert-to-llvm")
    theirs = module.clone()
    ConvertToLLVMPass().apply(ctx, module)
    PatternRewriteWalker(TypeDispatchingApplier(all_patterns()), apply_recursively=True).rewrite_module(theirs)
    convert_all_block_arguments(theirs)
    xdsl_reconcile(theirs, warn_on_failure=False)
    assert "unrealized_conversion_cast" not in str(module)
    assert "llvm.call" in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize("name", ["gpt_forward", "mlp_grad", "linalg_f32"])
def test_type_dispatch_converts_what_the_greedy_applier_converts(name: str) -> None:
    """`TypeDispatchingApplier` tries on each op only the patterns its type can match
    (from `@op_type_rewrite_pattern` or a table pattern's `op_types`): the module it
    converts is the one xDSL's applier, trying every pattern on every op, converts."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier

    from lowering.pattern_dispatch import TypeDispatchingApplier, matched_types
    from lowering.to_llvm import all_patterns

    patterns = all_patterns()
    assert sum(matched_types(p) is None for p in patterns) <= 1  # only the successors' block arguments
    module, _ = _lowered_to(name, "convert-to-llvm")
    theirs = module.clone()
    PatternRewriteWalker(TypeDispatchingApplier(list(patterns)), apply_recursively=True).rewrite_module(module)
    PatternRewriteWalker(GreedyRewritePatternApplier(list(patterns)), apply_recursively=True).rewrite_module(theirs)
    assert "arith." not in str(module) and "memref." not in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize("name", ["gpt_forward", "mlp", "mlp_grad", "linalg_f32", "rng"])
def test_convert_to_llvm_glue_sweep_prints_what_the_patterns_print(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`convert-to-llvm` lowering the entry's allocations, frees and calls in one sweep
    (`lowering/to_llvm/glue.py`) gives the module the patterns give op by op."""
    from lowering.to_llvm import ConvertToLLVMPass, glue

    module, ctx = _lowered_to(name, "convert-to-llvm")
    theirs = module.clone()
    swept: list[bool] = []
    sweep = glue.lower_glue

    def spy(body: Region, rewriter: PatternRewriter) -> None:
        before = sum(isinstance(op, memref.AllocOp) for op in body.walk())
        sweep(body, rewriter)
        swept.append(before > 0 and not any(isinstance(op, memref.AllocOp) for op in body.walk()))

    monkeypatch.setattr(glue, "lower_glue", spy)
    ConvertToLLVMPass().apply(ctx, module)
    assert any(swept)
    monkeypatch.setattr(glue, "lower_glue", lambda body, rewriter: None)
    ConvertToLLVMPass().apply(ctx, theirs)
    assert str(module) == str(theirs)


def test_call_op_makes_the_op_xdsls_builder_makes() -> None:
    """`call_op` reuses the properties of the first call of a callee, argument count and
    return type; every call equals the one xDSL's builder makes, and owns its properties."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import SymbolRefAttr, i64
    from xdsl.ir import Block

    from lowering.to_llvm.common import PTR, call_op

    block = Block(arg_types=[PTR, PTR, i64])
    a, b, n = block.args
    cases = [("free", (a,), None), ("free", (b,), None), (SymbolRefAttr("k"), (a, b, n), None), ("alloc", (n, n), PTR)]
    for callee, args, return_type in cases * 2:
        ours = call_op(callee, *args, return_type=return_type)
        theirs = llvm.CallOp(callee, *args, return_type=return_type)
        assert ours.properties == theirs.properties and ours.attributes == theirs.attributes
        assert list(ours.properties) == list(theirs.properties)  # same order: prints the same
        assert list(ours.operands) == list(args) and [r.type for r in ours.results] == [r.type for r in theirs.results]
        assert str(ours) == str(theirs)
    first, second = call_op("free", a), call_op("free", b)
    first.properties["fastmathFlags"] = llvm.FastMathAttr("fast")
    assert second.properties["fastmathFlags"] == llvm.FastMathAttr("none")
