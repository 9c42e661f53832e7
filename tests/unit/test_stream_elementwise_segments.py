"""Numerics of `linalg-stream-elementwise`'s segments (its `streams`: the flat row read
as S contiguous segments side by side, one body on the S parts joined) through
`compile()`: the same bits as the one-stream kernel and as LLVM's loop, and NumPy's
values to rounding, for S = 1..4 (3: an uneven join), sizes that no S divides (primes),
rows too short for S segments (fewer taken), outputs at every offset within a line,
inputs at odd addresses, f32, f64, i16 and bf16 (computed in f32 by a later pass, so
not streamed: the same bits all the same), and 1 and 2 threads."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import ml_dtypes
import numpy as np
import pytest

from lowering.codegen import stream_elementwise
from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

RNG = np.random.default_rng(13)
BF16 = np.dtype(ml_dtypes.bfloat16)


def _logistic(n: int, t: str) -> str:
    return f"""
func.func @main(%x: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %r = xla.logistic %x : tensor<{n}x{t}>
  func.return %r : tensor<{n}x{t}>
}}"""


def _tanh_mul(n: int, t: str) -> str:
    return f"""
func.func @main(%x: tensor<{n}x{t}>, %y: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %a = xla.tanh %x : tensor<{n}x{t}>
  %r = xla.multiply %a, %y : tensor<{n}x{t}>
  func.return %r : tensor<{n}x{t}>
}}"""


def _chain(n: int, t: str) -> str:
    """max(a * b + c, 0) * a: bench_memory's element-wise chain."""
    return f"""
func.func @main(%a: tensor<{n}x{t}>, %b: tensor<{n}x{t}>, %c: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %m = xla.multiply %a, %b : tensor<{n}x{t}>
  %s = xla.add %m, %c : tensor<{n}x{t}>
  %z = xla.constant dense<0> : tensor<{n}x{t}>
  %p = xla.maximum %s, %z : tensor<{n}x{t}>
  %r = xla.multiply %p, %a : tensor<{n}x{t}>
  func.return %r : tensor<{n}x{t}>
}}"""


def _numpy(kind: str, args: list[np.ndarray]) -> np.ndarray:
    x = [a.astype(np.float64) if a.dtype.kind == "f" or a.dtype == BF16 else a for a in args]
    with np.errstate(over="ignore", invalid="ignore"):
        if kind == "logistic":
            return 1 / (1 + np.exp(-x[0]))
        if kind == "tanh_mul":
            return np.tanh(x[0]) * x[1]
    a, b, c = x

    def rounded(v: np.ndarray) -> np.ndarray:  # each op rounds to the type (bf16's too)
        return v.astype(args[0].dtype).astype(v.dtype)

    with np.errstate(invalid="ignore"):
        return rounded(np.maximum(rounded(rounded(a * b) + c), 0) * a)


PROGRAMS: dict[str, Callable[[int, str], str]] = {"logistic": _logistic, "tanh_mul": _tanh_mul, "chain": _chain}
INPUTS = {"logistic": 1, "tanh_mul": 2, "chain": 3}
DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64), "i16": np.dtype(np.int16), "bf16": BF16}


@contextmanager
def _streaming(streams: int | None, target: str | None = None) -> Iterator[None]:
    """The pass takes buffers of 64 bytes and more, with `streams` segments (None: its
    own choice), for `target` (None: the pass's own, the host unless set)."""
    original_target, original_segments = stream_elementwise.get_target, stream_elementwise.segments
    stream_elementwise.get_target = lambda name=None: dataclasses.replace(original_target(target or name), streaming_store_bytes=64)
    if streams is not None:
        stream_elementwise.segments = lambda arrays, s, m: streams
    try:
        yield
    finally:
        stream_elementwise.get_target, stream_elementwise.segments = original_target, original_segments


def _program(kind: str, n: int, t: str, tag: str) -> str:
    """The program, its function named after `tag` (compiled variants cached apart)."""
    return PROGRAMS[kind](n, t).replace("@main", f"@{kind}_{t}_{n}_{tag}")


def _compiled(kind: str, n: int, t: str, streams: int | None, threads: int = 1):
    tag = f"s{streams}" if streams is not None else "auto"
    text = _program(kind, n, t, tag)
    entry = f"{kind}_{t}_{n}_{tag}"
    if streams == 0:  # the reference: LLVM's loop (the default threshold, far above these sizes)
        return compile(text, entry=entry, threads=threads)
    with _streaming(streams):
        return compile(text, entry=entry, threads=threads)


def _notes(kind: str, n: int, t: str, streams: int | None) -> list[str]:
    """The `streamed` notes of the program after `linalg-stream-elementwise`, for the
    `avx512` target (16 f32 lanes) whatever this CPU is."""
    module = parse_module(_program(kind, n, t, "notes"))
    passes = [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-stream-elementwise") + 1] if p != "outline-linalg-kernels"]
    with _streaming(streams, "avx512"):
        run_passes(module, passes)
    return [o.attributes["streamed"].data for o in module.walk() if "streamed" in o.attributes]  # pyright: ignore[reportAttributeAccessIssue]


def _data(dtype: np.dtype, n: int) -> np.ndarray:
    if dtype.kind == "i":
        return RNG.integers(-100, 100, n).astype(dtype)
    x = (RNG.standard_normal(n) * 4).astype(dtype)
    if n > 8:
        x[:4] = [np.nan, -0.0, np.inf, -np.inf]
        x[-2:] = [0.0, np.nan]
    return x


def _at_offsets(n: int, dtype: np.dtype) -> list[np.ndarray]:
    """Output arrays of `n` elements starting at every element offset within a line."""
    per_line = 64 // dtype.itemsize
    buf = np.empty(n + 2 * per_line, dtype)
    first = (-buf.ctypes.data % 64) // dtype.itemsize
    return [buf[first + k : first + k + n] for k in range(per_line)]


def _odd(a: np.ndarray) -> np.ndarray:
    """A copy of `a` one element past an aligned start."""
    buf = np.empty(a.size + 1 + 64 // a.itemsize, a.dtype)
    first = (-buf.ctypes.data % 64) // a.itemsize
    view = buf[first + 1 : first + 1 + a.size]
    view[...] = a
    return view


@pytest.mark.parametrize("kind", ["logistic", "tanh_mul", "chain"])
def test_segments_are_taken(kind: str) -> None:
    """S = 4 for one input, 2 for two or three (8 streams at most); forced S kept;
    a row too short for S segments gets fewer."""
    auto = {"logistic": 4, "tanh_mul": 2, "chain": 2}[kind]
    assert _notes(kind, 4099, "f32", None) == [f"{64 // auto}x32 non-temporal, {auto} streams"]
    assert _notes(kind, 4099, "f32", 3) == ["16x32 non-temporal, 3 streams"]
    assert _notes(kind, 4099, "f32", 1) == ["64x32 non-temporal"]
    assert _notes(kind, 257, "f32", 16) == ["16x32 non-temporal, 8 streams"]  # (257 - 15) // 16 = 15 lines
    assert _notes(kind, 4099, "f64", 4) == ["8x64 non-temporal, 4 streams"]
    if kind == "chain":
        assert _notes(kind, 4099, "i16", 4) == ["32x16 non-temporal, 4 streams"]


@pytest.mark.parametrize("kind", ["logistic", "tanh_mul", "chain"])
@pytest.mark.parametrize("t", ["f32", "f64", "i16", "bf16"])
@pytest.mark.parametrize("n", [257, 1517, 4099])
def test_same_bits_as_one_stream(kind: str, t: str, n: int) -> None:
    if kind != "chain" and t == "i16":
        pytest.skip("tanh and logistic are float ops")
    dtype = DTYPES[t]
    args = [_data(dtype, n) for _ in range(INPUTS[kind])]
    reference = _compiled(kind, n, t, 0)(*args)
    if dtype.kind == "f" or dtype == BF16:
        expected = _numpy(kind, args)
        tol = {"f32": 1e-6, "f64": 1e-14, "bf16": 1e-2}[t]
        np.testing.assert_allclose(reference.astype(np.float64), expected, rtol=tol, atol=tol)
    else:
        assert reference.tobytes() == _numpy(kind, args).astype(dtype).tobytes()
    for streams in (1, 2, 3, 4, None):
        fn = _compiled(kind, n, t, streams)
        for out in _at_offsets(n, dtype):
            out[...] = 7
            fn(*args, out=[out])
            assert out.tobytes() == reference.tobytes(), (streams, out.ctypes.data % 64)
        for k in range(len(args)):  # each input in turn at an odd address
            moved = [_odd(a) if i == k else a for i, a in enumerate(args)]
            assert fn(*moved).tobytes() == reference.tobytes(), (streams, k)


@pytest.mark.parametrize("kind", ["logistic", "chain"])
def test_threads(kind: str) -> None:
    """A prime size large enough for the pool to split the loop: 1 and 2 threads give
    the bits of the one-stream kernel."""
    n = 1_000_003
    args = [_data(DTYPES["f32"], n) for _ in range(INPUTS[kind])]
    reference = _compiled(kind, n, "f32", 1)(*args)
    assert re.search(r"\d streams", _notes(kind, n, "f32", None)[0])
    for threads in (1, 2):
        got = _compiled(kind, n, "f32", None, threads=threads)(_odd(args[0]), *args[1:])
        assert got.tobytes() == reference.tobytes(), threads
