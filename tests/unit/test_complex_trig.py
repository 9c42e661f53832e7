"""chlo asin, acos, atan, asinh, acosh, atanh on complex<f32> and complex<f64>
(passes/decompose_chlo/complex_trig.py), compiled once in one module.

Accuracy: against mpmath (xla_tools/complex_accuracy.py) on the signed grid of
component magnitudes (zero, subnormals, around 1 to the last bit, huge, the largest
float: both sides of every branch cut) plus log-uniform points, per component in
ulps; the bounds are the measured maxima (docs/math_accuracy.md) rounded up.
Special values and the sides of the cuts: bit for bit the classification (NaN,
signed infinity, signed zero) of C99 Annex G, as the C library's casin & co. give it
through NumPy.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import mpmath
import numpy as np
import pytest

from xla_tools.complex_accuracy import (
    FUNCTIONS,
    TYPES,
    compiled_runner,
    reference,
    sample,
    ulp_error,
)

BOUNDS = {"c64": 0.5, "c128": 3.0}
"""c64 is computed in f64 and rounded once (correctly rounded but for ties);
c128 is Hull et al.'s algorithm in f64 itself (measured 2.3 ulp)."""

NUMPY = {
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
}


def _grid(key: str) -> np.ndarray:
    """Every other (c64) or third (c128) magnitude of the tool's grid, the largest
    kept, with both signs in both components, plus 100 log-uniform points (the full
    grid, in `python -m xla_tools.complex_accuracy`, takes minutes of mpmath)."""
    return sample(TYPES[key][1], 100, seed=1, step=2 if key == "c64" else 3)


N = max(len(_grid(key)) for key in TYPES)


@pytest.fixture(scope="module")
def run() -> Callable[[str, str, np.ndarray], np.ndarray]:
    return compiled_runner(FUNCTIONS, N, fill=0)


@pytest.mark.parametrize("key", list(TYPES))
@pytest.mark.parametrize("fn", FUNCTIONS)
def test_accuracy_against_mpmath(run: Callable[..., np.ndarray], fn: str, key: str) -> None:
    real = TYPES[key][1]
    z = _grid(key)
    got = run(fn, key, z)
    worst: list[tuple[float, complex, complex]] = []
    with mpmath.workprec(160):
        for zi, gi in zip(z, got):
            re, im = reference(fn, complex(zi))
            err = max(ulp_error(float(gi.real), re, real), ulp_error(float(gi.imag), im, real))
            if err > BOUNDS[key]:
                worst.append((err, complex(zi), complex(gi)))
    assert not worst, f"{len(worst)} points above {BOUNDS[key]} ulp, e.g. {sorted(worst)[-5:]}"


SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 1e300, -1e300, np.inf, -np.inf, np.nan]


def _same(got: np.ndarray, want: np.ndarray, sign_free: np.ndarray) -> np.ndarray:
    """Per real component: both NaN, or the same sign bit (unless `sign_free`) and
    the same value to 1e-6 relative (infinities equal)."""
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    same_sign = (np.signbit(got) == np.signbit(want)) | sign_free
    with np.errstate(invalid="ignore"):
        close = np.isclose(np.abs(got), np.abs(want), rtol=1e-6, atol=0.0)
    return (nan_g & nan_w) | (~nan_g & ~nan_w & same_sign & close)


@pytest.mark.parametrize("key", list(TYPES))
@pytest.mark.parametrize("fn", FUNCTIONS)
def test_special_values_and_cut_sides_match_c99(run: Callable[..., np.ndarray], fn: str, key: str) -> None:
    pairs = list(itertools.product(SPECIAL, SPECIAL))
    z = np.array([complex(a, 0.0) for a, _ in pairs])
    z.imag = [b for _, b in pairs]
    if key == "c64":
        z = z.astype(np.complex64).astype(np.complex128)
    got = run(fn, key, z)
    with np.errstate(all="ignore"):
        want = NUMPY[fn](z.astype(TYPES[key][0]))
    # Annex G leaves the sign of an infinite part unspecified where the other part is
    # NaN (e.g. casin(inf + i NaN) = NaN +- i inf).
    sign_free = np.isnan(want.real) | np.isnan(want.imag)
    got, want = got.astype(np.complex128), want.astype(np.complex128)
    ok = _same(got.real, want.real, sign_free) & _same(got.imag, want.imag, sign_free)
    assert ok.all(), list(zip(z[~ok], got[~ok], want[~ok]))[:8]


def test_branch_cut_sides(run: Callable[..., np.ndarray]) -> None:
    """The sign of a zero picks the side of a cut (C99): asin/acos on |x| > 1 of the
    real axis, atan/asinh on |y| > 1 of the imaginary axis, atanh on the real axis."""
    z = np.array([complex(2, 0), complex(2, -0.0), complex(0, 2), complex(-0.0, 2), complex(-2, 0), complex(-2, -0.0)])
    asin = run("asin", "c128", z)
    assert asin[0].imag > 0 and asin[1].imag < 0
    atan = run("atan", "c128", z)
    assert atan[2].real > 0 and atan[3].real < 0
    acosh = run("acosh", "c128", z)
    np.testing.assert_allclose(acosh[4:].imag, [np.pi, -np.pi])
    atanh = run("atanh", "c64", z)
    assert atanh[0].imag > 0 and atanh[1].imag < 0
