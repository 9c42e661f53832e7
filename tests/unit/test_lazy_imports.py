"""Start-up cost: a program loads only the machinery its ops need.

The first `compile()` of a process and every `xla-opt` run pay for the modules they
import (each lit test runs `xla-opt` once or more). Collectives, chlo, LAPACK, FFT,
sort, RNG, ... are imported on first use (`DEFERRED_LOWERINGS`, the passes' own
checks, `runtime/__init__.py`'s lazy names, the llvm dialect of `xla-opt`). These
tests run fresh processes and look at `sys.modules`, so an eager import that creeps
back in fails here rather than only in the start-up figures."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lowering.xla_to_linalg import LOWERINGS
from lowering.xla_to_linalg.converter import DEFERRED_LOWERINGS

ROOT = Path(__file__).resolve().parents[2]

LIGHT_PROGRAM = """
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %d = xla.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  %bb = xla.broadcast_in_dim %b, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
  %s = xla.add %d, %bb : tensor<16x64xf32>
  %z = xla.constant dense<0.0> : tensor<16x64xf32>
  %r = xla.maximum %s, %z : tensor<16x64xf32>
  func.return %r : tensor<16x64xf32>
}
"""
"""A dense layer with ReLU, as the JAX-exported MLPs of the compile-time benchmark."""

HEAVY_FOR_COMPILE = [
    "lowering.collectives.ops",
    "lowering.collectives.run_parallel",
    "runtime.collectives",
    "mpi4py",
    "xla_dialect.chlo",
    "passes.decompose_chlo.rewrite",
    "passes.lapack.decompose",
    "lowering.math_approximation.chlo_erf",
    "lowering.scalar.complex",
    "lowering.complex_expansion",
    "lowering.to_llvm.complex",
    "xdsl.dialects.complex",
    *sorted({home for home in DEFERRED_LOWERINGS.values()}),
]
"""Modules a program without collectives, chlo, LAPACK calls, complex numbers, FFTs,
sorts, RNG, gathers, convolutions or linear algebra ops must not load."""

HEAVY_FOR_XLA_OPT = [
    *HEAVY_FOR_COMPILE,
    "llvmlite",
    "runtime.jit",
    "runtime.executable",
    "runtime.host_io",
    "xdsl.dialects.llvm",
    "lowering.to_llvm.common",
    "lowering.xla_to_linalg",
]
"""What `xla-opt` must not load to read and print an `xla`-only file."""


def _loaded_after(script: str) -> set[str]:
    """The modules loaded at the end of `script`, run in a fresh interpreter."""
    code = script + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _heavy(loaded: set[str], heavy: list[str]) -> list[str]:
    return sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy))


def test_a_light_program_compiles_without_the_heavy_modules(tmp_path: Path) -> None:
    source = tmp_path / "light.mlir"
    source.write_text(LIGHT_PROGRAM)
    script = f"""
import numpy as np
from xla_tools import compile
f = compile(open({str(source)!r}).read())
x, w, b = np.ones((16, 64), np.float32), np.full((64, 64), 0.5, np.float32), -np.arange(64, dtype=np.float32)
y = f(x, w, b)
assert np.array_equal(y, np.maximum(x @ w + b, 0)), y
"""
    assert _heavy(_loaded_after(script), HEAVY_FOR_COMPILE) == []


def test_xla_opt_on_an_xla_file_loads_neither_the_lowering_nor_the_jit(tmp_path: Path) -> None:
    source = tmp_path / "light.mlir"
    source.write_text(LIGHT_PROGRAM)
    script = f"""
import contextlib, io
from xla_tools.xla_opt import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    assert main([{str(source)!r}]) == 0
assert "xla.dot_general" in out.getvalue()
"""
    assert _heavy(_loaded_after(script), HEAVY_FOR_XLA_OPT) == []


def test_a_deferred_lowering_loads_when_its_op_is_met(tmp_path: Path) -> None:
    """A sort and a replica id: their lowerings, the collectives' runtime handlers
    (registered on import) and the results are there without importing anything else."""
    source = tmp_path / "sort.mlir"
    source.write_text(
        """
func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<ui32>) {
  %s = "xla.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  %r = xla.replica_id : tensor<ui32>
  func.return %s, %r : tensor<5xf32>, tensor<ui32>
}
"""
    )
    script = f"""
import numpy as np
from xla_tools import compile
s, r = compile(open({str(source)!r}).read())(np.array([3, 1, 2, 5, 4], np.float32))
assert s.tolist() == [1, 2, 3, 4, 5] and int(r) == 0, (s, r)
"""
    loaded = _loaded_after(script)
    assert {"lowering.xla_to_linalg.sort", "lowering.collectives.ops", "runtime.collectives"} <= loaded
    assert "lowering.xla_to_linalg.fft" not in loaded


def test_the_deferred_table_names_every_lowering_of_its_modules() -> None:
    """`DEFERRED_LOWERINGS` says, for each op, the module registering its lowering."""
    for home in set(DEFERRED_LOWERINGS.values()):
        importlib.import_module(home)
    registered = {cls.name: fn.__module__ for cls, fn in LOWERINGS.items()}
    deferred_homes = set(DEFERRED_LOWERINGS.values())
    assert {name: home for name, home in registered.items() if home in deferred_homes} == DEFERRED_LOWERINGS


def test_runtime_names_resolve_on_first_use() -> None:
    import runtime
    from runtime import executable

    assert runtime.load is executable.load
    assert runtime.collectives is importlib.import_module("runtime.collectives")
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        runtime.no_such_name  # noqa: B018
