"""Numerics of long rows read as several streams (`linalg-vectorize-reductions`'
`streams`, on rows of at least the L2 cache, and the [P, Q] views of
`linalg-split-reductions` that give full reductions that form) through `compile()`,
against NumPy: sum, mean, max and min of f32, f64 and i32 over sizes that no stream
count divides, NaN propagation and signed zeros of max/min from every segment and
the remainder, the same bits for 1 and 2 threads, and the spec's order with
`reassociate=False`."""

from __future__ import annotations

import numpy as np
import pytest

from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

LONG = 2_000_003  # 8 MB of f32: past any L2; a prime, so no stream count divides it
FULL = 6_000_006  # 24 MB of f32: split into 3 parts of 2_000_002 (MIN_PART_WORK), each read as streams
ROWS = 3  # rows of LONG: too little work to split, each row read as streams

TYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32}
INITS = {
    ("add", "f32"): "-0.0",
    ("add", "f64"): "0.0",
    ("add", "i32"): "5",
    ("maximum", "f32"): "0xFF800000",
    ("minimum", "f32"): "0x7F800000",
    ("maximum", "f64"): "0xFFF0000000000000",
    ("maximum", "i32"): "-2147483648",
}


def _full(op: str, t: str, n: int) -> str:
    return f"""
func.func @main(%x: tensor<{n}x{t}>) -> tensor<{t}> {{
  %init = xla.constant dense<{INITS[op, t]}> : tensor<{t}>
  %r = xla.reduce(%x init: %init) applies xla.{op} across dimensions = [0] : (tensor<{n}x{t}>, tensor<{t}>) -> tensor<{t}>
  func.return %r : tensor<{t}>
}}"""


def _rows(op: str, t: str) -> str:
    return f"""
func.func @main(%x: tensor<{ROWS}x{LONG}x{t}>) -> tensor<{ROWS}x{t}> {{
  %init = xla.constant dense<{INITS[op, t]}> : tensor<{t}>
  %r = xla.reduce(%x init: %init) applies xla.{op} across dimensions = [1] : (tensor<{ROWS}x{LONG}x{t}>, tensor<{t}>) -> tensor<{ROWS}x{t}>
  func.return %r : tensor<{ROWS}x{t}>
}}"""


MEAN = f"""
func.func @main(%x: tensor<{FULL}xf32>) -> tensor<f32> {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [0] : (tensor<{FULL}xf32>, tensor<f32>) -> tensor<f32>
  %n = xla.constant dense<{float(FULL)}> : tensor<f32>
  %m = xla.divide %s, %n : tensor<f32>
  func.return %m : tensor<f32>
}}"""


def _notes(text: str, reassociate: bool = True) -> list[str]:
    """The `vectorized` notes of `text` after `linalg-vectorize-reductions`."""
    module = parse_module(text)
    passes = list(LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-vectorize-reductions") + 1])
    options = {} if reassociate else {
        "linalg-reassociate-reductions": {"reassociate": False},
        "linalg-vectorize-reductions": {"reassociate": False},
        "linalg-split-reductions": {"max_parts": 1},
    }
    run_passes(module, passes, options=options)
    return [o.attributes["vectorized"].data for o in module.walk() if "vectorized" in o.attributes]  # pyright: ignore[reportAttributeAccessIssue]


def _data(t: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if t == "i32":
        return rng.integers(-1000, 1000, shape, dtype=np.int32)
    return rng.random(shape).astype(TYPES[t])


def _check(got: np.ndarray, x: np.ndarray, op: str, t: str, axis: int | None) -> None:
    if op == "add":
        if t == "i32":
            want = (np.sum(x.astype(np.int64), axis=axis) + 5).astype(np.int32)
            np.testing.assert_array_equal(got, want)
        else:
            want = np.sum(x.astype(np.float64), axis=axis)
            np.testing.assert_allclose(got, want, rtol=1e-5 if t == "f32" else 1e-12)
    else:
        want = (np.max if op == "maximum" else np.min)(x, axis=axis)
        np.testing.assert_array_equal(got, want)


CASES = [("add", "f32"), ("add", "f64"), ("add", "i32"), ("maximum", "f32"), ("minimum", "f32"), ("maximum", "f64"), ("maximum", "i32")]


@pytest.mark.parametrize(("op", "t"), CASES)
def test_full_reduction_in_streams(op: str, t: str) -> None:
    text = _full(op, t, FULL)
    assert any("streams" in n for n in _notes(text)), _notes(text)
    x = _data(t, (FULL,), 1)
    one, two = compile(text, threads=1)(x), compile(text, threads=2)(x)
    _check(one, x, op, t, None)
    assert one.tobytes() == two.tobytes()  # the order does not depend on the threads


@pytest.mark.parametrize(("op", "t"), CASES)
def test_long_rows_in_streams(op: str, t: str) -> None:
    text = _rows(op, t)
    assert any("streams" in n for n in _notes(text)), _notes(text)
    x = _data(t, (ROWS, LONG), 2)
    one, two = compile(text, threads=1)(x), compile(text, threads=2)(x)
    _check(one, x, op, t, 1)
    assert one.tobytes() == two.tobytes()


def test_mean() -> None:
    x = _data("f32", (FULL,), 3)
    got = compile(MEAN, threads=1)(x)
    np.testing.assert_allclose(got, np.mean(x.astype(np.float64)), rtol=1e-5)


def test_max_min_nan_and_zeros_from_every_segment() -> None:
    """A NaN in each of the 4 segments of a row, in the scalar remainder (past
    4 segments of LONG // 64 * 16 elements), or nowhere; rows of zeros whose max is
    -0.0 only when every zero is -0.0."""
    mx, mn = compile(_rows("maximum", "f32")), compile(_rows("minimum", "f32"))
    segment = LONG // 64 * 16
    for where in [7, segment + 5, 2 * segment + 17, 3 * segment + 1, LONG - 1]:
        x = _data("f32", (ROWS, LONG), 4)
        x[1, where] = np.nan
        got_max, got_min = mx(x), mn(x)
        assert np.isnan(got_max[1]) and np.isnan(got_min[1]), where
        np.testing.assert_array_equal(got_max[[0, 2]], x[[0, 2]].max(axis=1))
    zeros = np.full((ROWS, LONG), -0.0, np.float32)
    zeros[1, 3 * segment + 9] = 0.0  # one +0.0 in the last segment
    zeros[2, LONG - 2] = 0.0  # one +0.0 in the remainder
    got_max, got_min = mx(zeros), mn(zeros)
    assert got_max[0] == 0 and np.signbit(got_max[0])
    assert not np.signbit(got_max[1]) and not np.signbit(got_max[2])
    assert np.signbit(got_min).all()


def test_reassociate_false_reads_in_order() -> None:
    """No streams (and no split) with reassociate=False: the sum is the spec's
    sequential f32 sum, bit for bit."""
    n = 600_001
    text = _full("add", "f32", n)
    assert not any("streams" in note for note in _notes(text, reassociate=False))
    x = _data("f32", (n,), 5)
    got = compile(text, threads=1, reassociate=False)(x)
    sequential = np.cumsum(np.concatenate([[np.float32(-0.0)], x]), dtype=np.float32)[-1]
    assert got.tobytes() == np.float32(sequential).tobytes()
