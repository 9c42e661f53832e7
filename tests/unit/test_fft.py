"""`xla.fft` compiled through `lower-to-llvm`, against `numpy.fft`.

All cases are functions of one module, compiled once: the four FFT types, 1 to 3
transformed axes, batch dimensions, complex64/complex128 (float32/float64 for
RFFT's operand and IRFFT's result), and lengths that exercise both algorithms:
lengths whose prime factors are all <= 13 (mixed-radix Stockham: radix 4, 2, 3,
5, 7, 11, 13 stages, inner loops along the butterfly index or the stride) and
lengths with a larger prime factor (Bluestein), from 1 up to 12288. The error is measured as max |got - want| / max |want| (an FFT's
rounding error is relative to the signal's norm, not to each output).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from xla_tools import compile

COMPLEX = {"c64": ("complex<f32>", np.complex64), "c128": ("complex<f64>", np.complex128)}
REAL = {"c64": ("f32", np.float32), "c128": ("f64", np.float64)}
TOLERANCE = {"c64": 1e-5, "c128": 1e-12}


@dataclass
class Case:
    kind: str  # FFT, IFFT, RFFT, IRFFT
    shape: tuple[int, ...]  # operand shape
    lengths: tuple[int, ...]
    precision: str = "c64"

    @property
    def name(self) -> str:
        dims = "x".join(map(str, self.shape)) or "scalar"
        return f"{self.kind.lower()}_{dims}_len{'_'.join(map(str, self.lengths))}_{self.precision}"

    def element(self, result: bool) -> tuple[str, type]:
        real_side = (self.kind == "RFFT") != result if self.kind in ("RFFT", "IRFFT") else False
        if self.kind == "IRFFT":
            real_side = result
        return REAL[self.precision] if real_side else COMPLEX[self.precision]

    def result_shape(self) -> tuple[int, ...]:
        last = self.lengths[-1]
        if self.kind == "RFFT":
            return (*self.shape[:-1], 0 if last == 0 else last // 2 + 1)
        if self.kind == "IRFFT":
            return (*self.shape[:-1], last)
        return self.shape

    def function(self) -> str:
        def t(shape: tuple[int, ...], element: str) -> str:
            return f"tensor<{''.join(f'{d}x' for d in shape)}{element}>"

        a = t(self.shape, self.element(False)[0])
        r = t(self.result_shape(), self.element(True)[0])
        lengths = ", ".join(map(str, self.lengths))
        return (
            f"func.func @{self.name}(%x: {a}) -> {r} {{\n"
            f"  %0 = xla.fft %x, type = {self.kind}, length = [{lengths}] : ({a}) -> {r}\n"
            f"  func.return %0 : {r}\n}}"
        )

    def input(self, rng: np.random.Generator) -> np.ndarray:
        dtype = self.element(False)[1]
        x = rng.standard_normal(self.shape)
        if np.issubdtype(dtype, np.complexfloating):
            x = x + 1j * rng.standard_normal(self.shape)
        return x.astype(dtype)

    def reference(self, x: np.ndarray) -> np.ndarray:
        axes = tuple(range(len(self.shape) - len(self.lengths), len(self.shape)))
        if 0 in self.result_shape():
            return np.zeros(self.result_shape(), self.element(True)[1])
        x = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
        if self.kind == "FFT":
            return np.fft.fftn(x, axes=axes)
        if self.kind == "IFFT":
            return np.fft.ifftn(x, axes=axes)
        if self.kind == "RFFT":
            return np.fft.rfftn(x, axes=axes)
        return np.fft.irfftn(x, s=self.lengths, axes=axes)


LENGTHS = (1, 2, 3, 5, 8, 12, 17, 64, 100, 127, 1024)
# one stage of each radix, and mixes of them (1001 = 7·11·13, 30030 = 2·3·5·7·11·13)
MIXED = (4, 6, 7, 9, 11, 13, 15, 30, 32, 49, 60, 121, 169, 210, 1000, 1001, 30030)
BOTH = (6, 9, 15, 30, 49, 60, 210, 1000)  # in both precisions; the others alternate

CASES: list[Case] = [
    *(Case("FFT", (n,), (n,), p) for n in LENGTHS for p in ("c64", "c128")),
    *(Case("FFT", (n,), (n,), p) for i, n in enumerate(MIXED) for p in ("c64", "c128") if n in BOTH or p == ("c64", "c128")[i % 2]),
    *(Case("IFFT", (n,), (n,), "c64") for n in (1, 3, 8, 12, 17, 127, 49, 210, 1001)),
    *(Case("IFFT", (n,), (n,), "c128") for n in (2, 5, 64, 100, 1024)),
    *(Case("RFFT", (n,), (n,), p) for n, p in ((1, "c64"), (2, "c128"), (3, "c64"), (8, "c128"), (17, "c64"), (100, "c128"))),
    *(Case("IRFFT", (n // 2 + 1,), (n,), p) for n, p in ((1, "c128"), (2, "c64"), (3, "c128"), (8, "c128"), (17, "c64"), (100, "c64"))),
    # batched: leading dimensions are independent lines
    Case("FFT", (3, 7, 12), (12,)),
    Case("IFFT", (4, 2, 64), (64,), "c128"),
    Case("RFFT", (5, 30), (30,)),
    Case("IRFFT", (3, 9), (16,), "c128"),
    Case("FFT", (5, 1000), (1000,)),
    Case("FFT", (3, 64), (64,), "c128"),
    Case("IFFT", (2, 3, 210), (210,), "c128"),
    Case("RFFT", (4, 1001), (1001,)),
    # a transformed axis with dimensions after it (the innermost loop runs along them)
    Case("FFT", (12, 5), (12, 5)),
    Case("FFT", (2, 30, 9, 4), (30, 9, 4), "c128"),
    Case("IFFT", (64, 3, 15), (64, 3, 15)),
    Case("FFT", (3, 49, 8), (49, 8), "c128"),
    Case("RFFT", (6, 9, 20), (6, 9, 20)),
    Case("IRFFT", (9, 6, 11), (9, 6, 20), "c128"),
    # several axes
    Case("FFT", (4, 6), (4, 6)),
    Case("FFT", (2, 4, 6, 5), (4, 6, 5), "c128"),
    Case("IFFT", (3, 8, 3, 2), (8, 3, 2)),
    Case("RFFT", (2, 6, 4, 10), (6, 4, 10)),
    Case("RFFT", (5, 7), (5, 7), "c128"),
    Case("IRFFT", (2, 6, 4, 6), (6, 4, 10), "c128"),
    Case("IRFFT", (4, 3, 4), (4, 3, 7)),
    # accuracy at the largest sizes (complex64): both algorithms
    Case("FFT", (4096,), (4096,)),
    Case("FFT", (3000,), (3000,)),
    Case("IFFT", (4095,), (4095,)),
    Case("FFT", (4096 * 3,), (4096 * 3,)),
    Case("IFFT", (4096 * 3,), (4096 * 3,), "c128"),
    Case("FFT", (2048,), (2048,), "c128"),
    Case("FFT", (4099,), (4099,), "c128"),
    # nothing to transform
    Case("FFT", (0, 8), (8,)),
    Case("RFFT", (3, 0), (0,)),
    Case("IRFFT", (2, 0), (0,)),
]

MODULE = "\n".join(c.function() for c in CASES)


@pytest.fixture(scope="module")
def functions() -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    return {c.name: compile(MODULE, entry=c.name) for c in CASES}  # pyright: ignore[reportReturnType]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_fft(case: Case, functions: dict[str, Callable[[np.ndarray], np.ndarray]]) -> None:
    rng = np.random.default_rng(len(case.name) * 7919 + sum(case.shape))
    x = case.input(rng)
    got = functions[case.name](x)
    want = case.reference(x)
    assert got.dtype == case.element(True)[1]
    assert got.shape == want.shape == case.result_shape()
    if want.size == 0:
        return
    error = np.abs(got.astype(want.dtype) - want).max() / max(np.abs(want).max(), 1e-300)
    assert error <= TOLERANCE[case.precision], f"relative error {error:.3g}"


def test_irfft_ignores_imaginary_dc_and_nyquist(functions: dict[str, Callable[[np.ndarray], np.ndarray]]) -> None:
    """A c2r transform reads only the real parts of X[0] and X[n/2]."""
    case = next(c for c in CASES if c.name == "irfft_5_len8_c128")
    rng = np.random.default_rng(5)
    x = case.input(rng)
    clean = x.copy()
    clean[0] = clean[0].real
    clean[4] = clean[4].real
    np.testing.assert_allclose(functions[case.name](x), np.fft.irfft(clean, 8), atol=1e-14)
