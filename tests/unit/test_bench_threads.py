"""`benchmarks/bench_threads.py`: a row on a tiny case (its results bitwise equal at 1
and 2 threads, the warm column filled), and `--fifo`'s `realtime` leaving every thread
back under `SCHED_OTHER`. Needs JAX (the `bench` extra). No timing is asserted."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_threads
import harness


def _tiny() -> harness.Case:
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 64), dtype=np.float32), rng.standard_normal((64, 64), dtype=np.float32)
    return harness.Case("tiny matmul", lambda a, b: jnp.tanh(a @ b), (a, b), flops=2.0 * 64**3)


def _policies() -> set[int]:
    return {os.sched_getscheduler(int(tid)) for tid in os.listdir("/proc/self/task")}


def test_row_has_the_warm_column_and_equal_results() -> None:
    case = _tiny()
    row, same, mins = bench_threads.run_case(case, threads=2, reps=3, seconds=0.1)
    assert same and row.endswith("yes")
    assert len(mins) == 3
    fields = row[len(case.name):].split()
    # 1, N, jax minima; speed-up; ours/jax; three medians; the warm minimum and its speed-up
    assert len(fields) == 11 and fields[-1] == "yes"
    assert all(float(f.rstrip("x")) > 0 for f in fields[:-1])


def test_realtime_zero_changes_nothing() -> None:
    before = _policies()
    with bench_threads.realtime(0):
        assert _policies() == before
    assert _policies() == before


def test_realtime_restores_sched_other() -> None:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except PermissionError:
        pytest.skip("SCHED_FIFO needs root or CAP_SYS_NICE")
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    with bench_threads.realtime(1):
        assert os.sched_getscheduler(0) == os.SCHED_FIFO
    assert _policies() == {os.SCHED_OTHER}
