"""The compile-time sweep's programs (`benchmarks/bench_compile_time.py`): each JAX-written
kind exports a module the project reads, and a small CNN training step (convolutions,
pooling and their gradients, an SGD update) computes what XLA computes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_compile_time as bench

from xla_dialect.context import parse_module
from xla_tools import compile


@pytest.mark.parametrize("kind", sorted(bench.BUILDERS))
def test_each_kind_exports_a_module_we_read(kind: str) -> None:
    program = bench.BUILDERS[kind](2)
    assert program.ops > 5 and program.jax_compile is not None
    module = parse_module(program.text, f"<{kind}>")
    assert sum(1 for op in module.walk() if op.name.startswith("xla.")) >= program.ops


def test_a_cnn_training_step_matches_xla() -> None:
    program = bench.jax_cnn_train(1, channels=4, side=8, batch=2)
    assert program.inputs is not None and program.jax_outputs is not None
    ours = compile(program.text)(*program.inputs)
    ours = list(ours) if isinstance(ours, (list, tuple)) else [ours]
    theirs = program.jax_outputs()
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(np.asarray(a), b, rtol=1e-4, atol=1e-5)


def test_the_warm_up_compiles_a_smaller_program_with_both_compilers(capsys: pytest.CaptureFixture[str]) -> None:
    bench.warm_up("mlp", [30], 0)
    line = capsys.readouterr().out
    assert "mlp warm-up (" in line and "not in the table): ours " in line and ", XLA " in line, line


def test_repeats_alternate_the_compilers_and_table_the_median(capsys: pytest.CaptureFixture[str]) -> None:
    runs = bench.run_kind("mlp", [30], 0, 600.0, None, warm=False, repeat=3)
    line = capsys.readouterr().out
    assert len(runs) == 1 and runs[0].jax_cpu is not None and runs[0].jax_s is not None
    pairs = line.split("per repeat: ", 1)[1].rstrip().rstrip(")").split(", ")
    assert len(pairs) == 3, line
    ours = sorted(float(p.split(" / ")[0]) for p in pairs)
    xla = sorted(float(p.split(" / ")[1]) for p in pairs)
    assert f"{runs[0].total_cpu:.2f}" == f"{ours[1]:.2f}"
    assert f"{runs[0].jax_cpu:.2f}" == f"{xla[1]:.2f}"
