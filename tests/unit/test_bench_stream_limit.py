"""`benchmarks/bench_stream_limit.py`: its reference loops compute what they stand for (the
negation of their input into an aligned output, the sum of their input), so the bandwidth
they report is that of real work. No timing is asserted; the comparison with XLA needs JAX and is not run here."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_stream_limit as bench


@pytest.mark.parametrize(("nontemporal", "streams"), [(False, 1), (True, 1), (True, 2), (True, 4)])
def test_stream_loops_negate_their_input(nontemporal: bool, streams: int) -> None:
    x = np.random.default_rng(0).standard_normal(64 * 33).astype(np.float32)[1:][: 64 * 32]  # not line-aligned
    y = bench.aligned_like(x)
    assert y.ctypes.data % 64 == 0 and y.shape == x.shape and y.dtype == x.dtype
    y.fill(7)
    bench.stream_loop(nontemporal, streams)(x.ctypes.data, y.ctypes.data, x.size // 16)
    np.testing.assert_array_equal(y, -x)


def test_the_negate_program_negates() -> None:
    x = np.arange(-64, 64, dtype=np.float32)
    np.testing.assert_array_equal(bench.negate_program(x)(x), -x)


def test_the_read_loop_sums_its_input() -> None:
    x = np.random.default_rng(1).integers(-8, 8, 128 * 40).astype(np.float32)[3:][: 128 * 39]  # exact sums
    assert bench.read_loop()(x.ctypes.data, x.size // 16) == x.sum()
