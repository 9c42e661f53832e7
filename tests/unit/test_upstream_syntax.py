"""What the project prints for other tools is what upstream MLIR reads:
`-t stablehlo` / `-t mlir-upstream` (func.call, explicit broadcasts, MLIR's
spellings of memref.alloc and llvm's fast-math flags), the project's llvm.switch
in MLIR's syntax; `iree-opt` (optional: `pip install iree-base-compiler`) reads
every stage of a JAX export."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import ModuleOp, f32

from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.upstream_check import check_files
from xla_tools.upstream_syntax import UpstreamPrinter
from xla_tools.xla_opt import main as xla_opt

BROADCASTING = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %c: tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %0 = xla.add %a, %b, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.multiply %0, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = xla.subtract %1, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %3 = xla.compare LT, %2, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %4 = xla.call @g(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4, %3 : tensor<2x3xf32>, tensor<2x3xi1>
}
func.func @g(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
"""


def _xla_opt(text: str, *args: str, tmp_path: Path) -> str:
    source, result = tmp_path / "in.mlir", tmp_path / "out.mlir"
    source.write_text(text)
    assert xla_opt([str(source), *args, "-o", str(result)]) == 0
    return result.read_text()


def test_stablehlo_makes_broadcasts_explicit_and_calls_func_call(tmp_path: Path) -> None:
    printed = _xla_opt(BROADCASTING, "-t", "stablehlo", tmp_path=tmp_path)
    assert "broadcast_dimensions" not in printed
    assert "stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>" in printed
    assert "stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>" in printed
    assert "stablehlo.broadcast_in_dim %c, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>" in printed
    assert "func.call @g(" in printed and "stablehlo.call" not in printed
    args = [np.arange(6, dtype=np.float32).reshape(2, 3), np.float32([1, 2, 3]), np.float32(0.5), np.float32([[3, 0, 1]])]
    for got, want in zip(compile(printed, entry="f")(*args), compile(BROADCASTING, entry="f")(*args), strict=True):
        np.testing.assert_array_equal(got, want)


def test_upstream_printer_spells_alloc_and_fastmath_as_mlir() -> None:
    module = ModuleOp([])
    alloc = memref.AllocOp.get(f32, 64, [4])
    plain = memref.AllocaOp.get(f32, None, [2])
    block = module.body.block
    block.add_ops([alloc, plain])
    out = io.StringIO()
    UpstreamPrinter(stream=out).print_op(module)
    text = out.getvalue()
    assert "memref.alloc() alignment = 64 : memref<4xf32>" in text
    assert "memref.alloca() : memref<2xf32>" in text


def test_upstream_printer_fastmath() -> None:
    text = """func.func @f(%a: f32, %b: f32) -> f32 {
  %0 = llvm.fadd %a, %b {fastmathFlags = #llvm.fastmath<reassoc>} : f32
  %1 = llvm.fmul %0, %b : f32
  %2 = llvm.fneg %1 {fastmathFlags = #llvm.fastmath<fast>} : f32
  return %2 : f32
}"""
    module = parse_module(text)
    assert any(isinstance(op, llvm.FAddOp) for op in module.walk())
    out = io.StringIO()
    UpstreamPrinter(stream=out).print_op(module)
    printed = out.getvalue()
    assert "llvm.fadd %a, %b fastmath<reassoc> : f32" in printed
    assert "llvm.fmul %0, %b : f32" in printed
    assert "llvm.fneg %1 fastmath<fast> : f32" in printed
    assert "fastmathFlags" not in printed


IREE_OPT = shutil.which("iree-opt")


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt absent (pip install iree-base-compiler)")
def test_iree_opt_reads_every_stage_of_a_jax_export() -> None:
    assert IREE_OPT is not None
    export = Path(__file__).resolve().parents[2] / "examples" / "jax_exports" / "sorting.mlir"
    verdicts = check_files([export], IREE_OPT)
    rejected = [f"{v.stage}: {v.error}" for v in verdicts if not v.accepted]
    assert len(verdicts) > 20 and not rejected
