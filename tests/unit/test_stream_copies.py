"""Numerics of `linalg-stream-copies` through `compile()`: concatenations and a slice
streamed with non-temporal vector stores (the threshold lowered so that small
arrays qualify) equal NumPy's bit for bit, whatever the alignment of the output
array (the scalar peel before the aligned stores differs per row when a row is not
a whole number of vectors), for f32 (NaN, -0.0), f64 and i8."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lowering.codegen import stream_copies
from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

PROGRAM = """
func.func @cat_f32(%x: tensor<37x101xf32>, %y: tensor<37x76xf32>) -> tensor<37x177xf32> {
  %r = xla.concatenate %x, %y, dim = 1 : (tensor<37x101xf32>, tensor<37x76xf32>) -> tensor<37x177xf32>
  func.return %r : tensor<37x177xf32>
}
func.func @cat_f64(%x: tensor<5x3x19xf64>, %y: tensor<5x3x40xf64>) -> tensor<5x3x59xf64> {
  %r = xla.concatenate %x, %y, dim = 2 : (tensor<5x3x19xf64>, tensor<5x3x40xf64>) -> tensor<5x3x59xf64>
  func.return %r : tensor<5x3x59xf64>
}
func.func @cat_i8(%x: tensor<9x130xi8>, %y: tensor<9x3xi8>) -> tensor<9x133xi8> {
  %r = xla.concatenate %x, %y, dim = 1 : (tensor<9x130xi8>, tensor<9x3xi8>) -> tensor<9x133xi8>
  func.return %r : tensor<9x133xi8>
}
func.func @rows_f32(%x: tensor<40x70xf32>) -> tensor<30x70xf32> {
  %r = xla.slice %x [5:35, 0:70] : (tensor<40x70xf32>) -> tensor<30x70xf32>
  func.return %r : tensor<30x70xf32>
}
"""
NAMES = ("cat_f32", "cat_f64", "cat_i8", "rows_f32")
RNG = np.random.default_rng(3)


@pytest.fixture(scope="module")
def small_threshold():
    """Every copy into a buffer of 64 bytes or more is streamed."""
    original = stream_copies.get_target

    def target(name: str | None = None):
        return dataclasses.replace(original(name), l3=256)

    stream_copies.get_target = target
    yield
    stream_copies.get_target = original


@pytest.fixture(scope="module")
def fns(small_threshold):
    return {name: compile(PROGRAM, entry=name) for name in NAMES}


def test_copies_are_streamed(small_threshold) -> None:
    module = parse_module(PROGRAM)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-stream-copies") + 1] if p != "outline-linalg-kernels"])
    text = str(module)
    for name in NAMES:
        body = text.split(f"@{name}(")[1].split("func.func")[0]
        assert "{nontemporal = true}" in body, name
        assert "memref.copy" not in body, name


def _outputs(shape: tuple[int, ...], dtype: type) -> list[np.ndarray]:
    """Output arrays starting at every element offset within a 64-byte line."""
    size = int(np.prod(shape))
    itemsize = np.dtype(dtype).itemsize
    buf = np.empty(size + 2 * (64 // itemsize), dtype)
    first = (-buf.ctypes.data % 64) // itemsize
    return [buf[first + k : first + k + size].reshape(shape) for k in range(64 // itemsize)]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def test_concatenate_f32_at_every_alignment(fns) -> None:
    x = RNG.standard_normal((37, 101)).astype(np.float32)
    y = RNG.standard_normal((37, 76)).astype(np.float32)
    x[3, 100] = np.nan
    y[0, 0] = -0.0
    y[36, 75] = -np.inf
    expected = np.concatenate([x, y], axis=1)
    for out in _outputs((37, 177), np.float32):
        out[:] = 7.0
        fns["cat_f32"](x, y, out=[out])
        assert _same_bits(out, expected), out.ctypes.data % 64
    assert _same_bits(fns["cat_f32"](x, y), expected)


def test_concatenate_f64_and_i8(fns) -> None:
    x = RNG.standard_normal((5, 3, 19))
    y = RNG.standard_normal((5, 3, 40))
    y[4, 2, 39] = -0.0
    for out in _outputs((5, 3, 59), np.float64):
        fns["cat_f64"](x, y, out=[out])
        assert _same_bits(out, np.concatenate([x, y], axis=2))
    a = RNG.integers(-128, 128, (9, 130), dtype=np.int8)
    b = RNG.integers(-128, 128, (9, 3), dtype=np.int8)
    for out in _outputs((9, 133), np.int8)[::7]:
        fns["cat_i8"](a, b, out=[out])
        assert _same_bits(out, np.concatenate([a, b], axis=1))


def test_slice_of_rows(fns) -> None:
    x = RNG.standard_normal((40, 70)).astype(np.float32)
    for out in _outputs((30, 70), np.float32)[::5]:
        fns["rows_f32"](x, out=[out])
        assert _same_bits(out, x[5:35])
