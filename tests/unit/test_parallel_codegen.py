"""Parallel code generation (`runtime/parallel_codegen.py`): a lowered module cut into
parts that LLVM optimizes and compiles on threads of their own, linked in one engine."""

from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from runtime import jit, parallel_codegen
from runtime.jit import PARTS_PHASE
from runtime.parallel_codegen import CodegenPart, plan_parts
from runtime.timing import TimingReport
from xla_dialect.context import make_context, parse_module
from xla_dialect.symbols import referenced_symbols
from xla_tools import compile
from xla_tools.pipelines import lower_to_llvm

ROOT = Path(__file__).resolve().parents[2]
MLP = (ROOT / "examples" / "mlp.mlir").read_text()
INPUTS = dict(np.load(ROOT / "examples" / "mlp_input.npz"))

HOST_CALL = """
func.func @main(%x: tensor<2xf32>, %t: !xla.token) -> (tensor<2xf32>, !xla.token) {
  %0:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<2xf32>, !xla.token)
  %1 = xla.add %0#0, %x : tensor<2xf32>
  func.return %1, %0#1 : tensor<2xf32>, !xla.token
}
"""


def lowered(text: str) -> ModuleOp:
    ctx = make_context()
    module = parse_module(text, ctx=ctx)
    lower_to_llvm(module, ctx)
    return module


@pytest.fixture(scope="module")
def mlp_module() -> ModuleOp:
    return lowered(MLP)


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parts of a few ops, so that the example MLP is cut."""
    monkeypatch.setattr(parallel_codegen, "MIN_PART_OPS", 20)


def defined(module: ModuleOp) -> dict[str, llvm.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, llvm.FuncOp) and op.body.blocks}


def test_parts_keep_each_kernel_whole_and_the_entries_first(mlp_module: ModuleOp, small_parts: None) -> None:
    parts = plan_parts(mlp_module, 4)
    assert parts is not None and len(parts) >= 2
    functions = defined(mlp_module)
    names = [name for part in parts for name in part.functions]
    assert sorted(names) == sorted(functions)  # every function in exactly one part
    part_of = {name: k for k, part in enumerate(parts) for name in part.functions}
    entries = [n for n, f in functions.items() if parallel_codegen._is_entry(f)]  # pyright: ignore[reportPrivateUsage]
    glue = set(entries) | {n for n, f in functions.items() if parallel_codegen._is_glue(f)}  # pyright: ignore[reportPrivateUsage]
    assert entries == ["main"] and part_of["main"] == 0
    called = referenced_symbols(functions["main"]) & set(functions)
    assert {part_of[n] for n in called} - {0}  # what the entry calls is spread over the parts
    for name, f in functions.items():
        for ref in referenced_symbols(f) & set(functions):
            if name not in glue and ref not in glue:
                assert part_of[ref] == part_of[name], (name, ref)  # a kernel's functions stay together
            if part_of[ref] != part_of[name]:
                assert ref in parts[part_of[ref]].exported  # called across parts: exported
    for part in parts:
        assert part.exported <= part.functions


def test_no_parts_when_small_single_threaded_or_calling_the_host(mlp_module: ModuleOp, small_parts: None) -> None:
    assert plan_parts(mlp_module, 1) is None
    assert plan_parts(lowered(HOST_CALL), 4) is None
    parallel_codegen.MIN_PART_OPS = 10**9  # (restored by the fixture)
    assert plan_parts(mlp_module, 4) is None


@pytest.mark.parametrize("workers", [2, 3])
def test_parts_give_the_same_results(workers: int, small_parts: None, monkeypatch: pytest.MonkeyPatch) -> None:
    counts: list[int] = []

    def counted(module: ModuleOp, threads: int) -> list[CodegenPart] | None:
        parts = plan_parts(module, threads)
        counts.append(len(parts) if parts else 1)
        return parts

    monkeypatch.setattr(jit, "plan_parts", counted)
    text = f"// {uuid.uuid4()}\n{MLP}"
    monkeypatch.setenv("XLA_DIALECT_COMPILE_THREADS", "1")
    whole = compile(text)
    monkeypatch.setenv("XLA_DIALECT_COMPILE_THREADS", str(workers))
    report = TimingReport()
    split = compile(text + "// parts", timing=report)
    assert counts == [1, workers]
    assert PARTS_PHASE in report.phases
    assert "LLVM: optimize (O3)" not in report.phases
    args = list(INPUTS.values())
    np.testing.assert_array_equal(np.asarray(split(*args)), np.asarray(whole(*args)))


def test_parts_are_cached_and_loaded(tmp_path: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from xla_tools import compiler

    monkeypatch.setenv("XLA_DIALECT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("XLA_DIALECT_CACHE", raising=False)
    monkeypatch.setenv("XLA_DIALECT_COMPILE_THREADS", "2")
    text = f"// {uuid.uuid4()}\n{MLP}"
    first = compile(text)
    compiler._CACHE.clear()  # pyright: ignore[reportPrivateUsage]
    report = TimingReport()
    second = compile(text, timing=report)
    assert list(report.phases) == ["cache: look up"]
    args = list(INPUTS.values())
    np.testing.assert_array_equal(np.asarray(second(*args)), np.asarray(first(*args)))
