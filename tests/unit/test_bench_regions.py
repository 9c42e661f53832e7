"""`benchmarks/bench_regions.py`: on a one-region program it finds the region the native
pool runs (its trip count and grain, as the compiled call passes them) at 1 and 2 threads,
and the time outside it. Run in a subprocess: the script rebinds `__xla_parallel_for` for
the modules its process compiles. Needs JAX (the `bench` extra). No timing is asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from runtime import native_pool

pytest.importorskip("jax")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_regions.py"


@pytest.mark.skipif(not native_pool.available(), reason="the native pool is Linux on x86-64 or AArch64")
def test_one_region_of_an_elementwise_program() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--suite", "transcendental", "--filter", "logistic", "--reps", "2"],
        check=False, capture_output=True, text=True, timeout=600,
        env={**os.environ, "XLA_DIALECT_POOL": "native", "XLA_DIALECT_CACHE": "0"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("logistic 4M: ") and " at 2 (" in lines[0]
    rows = [line.split() for line in lines[2:] if line.split() and line.split()[0].isdigit()]
    assert len(rows) == 1  # one element-wise loop: one region
    index, n, grain, one, two, ratio = rows[0]
    # 4M floats read as 4 segments side by side, a 16-float vector of each an iteration:
    # (4M - 15) // 16 // 4 = 65535 iterations, 47 fewer so that the segments start a
    # quarter page apart modulo a page (linalg-stream-elementwise; the alignment peel
    # and the rest stay serial)
    assert int(index) == 0 and int(n) == 65535 - 47 and int(grain) >= 1
    assert float(one) > 0 and float(two) > 0 and ratio.endswith("x")
    assert any(line.split()[0] == "sum" for line in lines) and any(line.split()[0] == "outside" for line in lines)
