"""Numerics of `linalg-stream-elementwise` through `compile()`: element-wise programs
streamed with non-temporal vector stores (the threshold lowered so that small arrays
qualify) equal, bit for bit, the same programs compiled as LLVM's vectorized loops,
whatever the alignment of the output and of the inputs (the masked peel differs with
the output's address; NumPy slices start anywhere) and for sizes that are not a whole
number of vectors (the masked rest); with NaN, infinities and -0.0 among the inputs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lowering.codegen import stream_elementwise
from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

PROGRAM = """
func.func @tanh_mul(%x: tensor<37x41xf32>, %y: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %t = xla.tanh %x : tensor<37x41xf32>
  %r = xla.multiply %t, %y : tensor<37x41xf32>
  func.return %r : tensor<37x41xf32>
}
func.func @gelu_erf(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %c = xla.constant dense<0.707106769> : tensor<1000xf32>
  %h = xla.constant dense<0.5> : tensor<1000xf32>
  %one = xla.constant dense<1.0> : tensor<1000xf32>
  %s = xla.multiply %x, %c : tensor<1000xf32>
  %e = chlo.erf %s : tensor<1000xf32> -> tensor<1000xf32>
  %p = xla.add %e, %one : tensor<1000xf32>
  %q = xla.multiply %p, %h : tensor<1000xf32>
  %r = xla.multiply %x, %q : tensor<1000xf32>
  func.return %r : tensor<1000xf32>
}
func.func @exp_f64(%x: tensor<333xf64>, %y: tensor<333xf64>) -> tensor<333xf64> {
  %e = xla.exponential %x : tensor<333xf64>
  %r = xla.subtract %e, %y : tensor<333xf64>
  func.return %r : tensor<333xf64>
}
"""
NAMES = ("tanh_mul", "gelu_erf", "exp_f64")
RNG = np.random.default_rng(5)


def _reference_program() -> str:
    """The same functions under other names: compiled without streaming (the default
    threshold, a quarter of the L3, is far above these sizes), cached apart."""
    return PROGRAM.replace("@", "@ref_")


@pytest.fixture(scope="module")
def fns():
    """Streamed (threshold 64 bytes) and reference executables of each function."""
    original = stream_elementwise.get_target
    reference = {name: compile(_reference_program(), entry=f"ref_{name}") for name in NAMES}

    def target(name: str | None = None):
        return dataclasses.replace(original(name), streaming_store_bytes=64)

    stream_elementwise.get_target = target
    try:
        streamed = {name: compile(PROGRAM, entry=name) for name in NAMES}
    finally:
        stream_elementwise.get_target = original
    return streamed, reference


def test_loops_are_streamed() -> None:
    original = stream_elementwise.get_target
    stream_elementwise.get_target = lambda name=None: dataclasses.replace(original(name), streaming_store_bytes=64)
    try:
        module = parse_module(PROGRAM)
        run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-stream-elementwise") + 1] if p != "outline-linalg-kernels"])
    finally:
        stream_elementwise.get_target = original
    text = str(module)
    for name in NAMES:
        body = text.split(f"@{name}(")[1].split("func.func")[0]
        assert "{nontemporal = true}" in body, name
        assert "vector.maskedstore" in body, name
        assert "linalg.generic" not in body, name


def _at_offsets(shape: tuple[int, ...], dtype: type) -> list[np.ndarray]:
    """Arrays of `shape` starting at every element offset within a 64-byte line."""
    size = int(np.prod(shape))
    itemsize = np.dtype(dtype).itemsize
    buf = np.empty(size + 2 * (64 // itemsize), dtype)
    first = (-buf.ctypes.data % 64) // itemsize
    return [buf[first + k : first + k + size].reshape(shape) for k in range(64 // itemsize)]


def _misaligned(a: np.ndarray) -> np.ndarray:
    """A copy of `a` one element past an aligned start (`np.empty(n + 1)[1:]`)."""
    buf = np.empty(a.size + 1, a.dtype)
    view = buf[1:].reshape(a.shape)
    view[...] = a
    return view


def _specials(a: np.ndarray) -> np.ndarray:
    flat = a.reshape(-1)
    flat[:4] = [np.nan, -0.0, np.inf, -np.inf]
    flat[-3:] = [0.0, np.nan, 1e30]
    return a


def _check(streamed, reference, args: list[np.ndarray], shape: tuple[int, ...], dtype: type) -> None:
    expected = reference(*args)
    for out in _at_offsets(shape, dtype):
        out[...] = 7
        streamed(*args, out=[out])
        assert out.tobytes() == expected.tobytes(), out.ctypes.data % 64
    for k in range(len(args)):  # each input in turn at an odd address
        moved = [_misaligned(a) if i == k else a for i, a in enumerate(args)]
        assert streamed(*moved).tobytes() == expected.tobytes()


def test_tanh_mul_f32(fns) -> None:
    streamed, reference = fns
    x = _specials(RNG.standard_normal((37, 41)).astype(np.float32) * 4)
    y = RNG.standard_normal((37, 41)).astype(np.float32)
    _check(streamed["tanh_mul"], reference["tanh_mul"], [x, y], (37, 41), np.float32)


def test_gelu_erf_f32(fns) -> None:
    streamed, reference = fns
    x = _specials(RNG.standard_normal(1000).astype(np.float32) * 3)
    _check(streamed["gelu_erf"], reference["gelu_erf"], [x], (1000,), np.float32)


def test_exp_f64(fns) -> None:
    streamed, reference = fns
    x = _specials(RNG.standard_normal(333) * 20)
    y = RNG.standard_normal(333)
    _check(streamed["exp_f64"], reference["exp_f64"], [x, y], (333,), np.float64)
