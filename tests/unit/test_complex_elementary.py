"""xla exp, expm1, log, log1p, sqrt, rsqrt, sin, cos, tan, tanh on complex<f32> and
complex<f64> (lowering/complex_to_standard.py) against mpmath over the whole plane
(xla_tools/complex_accuracy.py's grid: zero, subnormals, around 1, huge, the
largest float, both signs in both components), per component in ulps. The bounds
are the measured maxima (docs/math_accuracy.md) rounded up. expm1's real part
`expm1(a) cos b - (1 - cos b)` cancels where `e^a cos b` is near 1: complex<f32> computes
it in f64, complex<f64> in double words (lowering/double_word.py), tested on points near
that curve too.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np
import pytest

from xla_tools.complex_accuracy import (
    ELEMENTWISE,
    TYPES,
    compiled_runner,
    errors,
    expm1_curve,
    sample,
)

BOUNDS = {
    "exp": 2.0, "expm1": 2.0, "log": 1.5, "log1p": 2.5, "sqrt": 2.0, "rsqrt": 4.0,
    "sin": 2.5, "cos": 2.5, "tan": 4.0, "tanh": 4.0,
}
C128_BOUNDS = {**BOUNDS, "expm1": 2.5}
"""complex<f64> expm1: 2.09 ulp on the full grid of `python -m xla_tools.complex_accuracy`
(at 0.5 + 4.5e307i: |b| > 2^20 keeps the f64 formula, with libm's sin and cos of b);
1.58 for |b| <= 2^20, where the cancelling real part is double-word (10.4 ulp before)."""
NAMES = tuple(ELEMENTWISE)


def _grid(key: str) -> np.ndarray:
    z = sample(TYPES[key][1], 60, seed=2, step=3)
    return z[np.isfinite(z.real) & np.isfinite(z.imag)]


N = max(len(_grid(key)) for key in TYPES)


@pytest.fixture(scope="module")
def run() -> Callable[[str, str, np.ndarray], np.ndarray]:
    return compiled_runner(NAMES, N, fill=1)


@pytest.mark.parametrize("key", list(TYPES))
@pytest.mark.parametrize("fn", NAMES)
def test_accuracy_against_mpmath(run: Callable[..., np.ndarray], fn: str, key: str) -> None:
    z = _grid(key)
    with np.errstate(all="ignore"), mpmath.workprec(160):
        err = errors(fn, key, z, run(fn, key, z))
    bound = (BOUNDS if key == "c64" else C128_BOUNDS)[fn]
    bad = np.flatnonzero(err > bound)
    assert bad.size == 0, [(complex(z[i]), float(err[i])) for i in bad[:6]]


def test_huge_and_zero_parts(run: Callable[..., np.ndarray]) -> None:
    """|z| beyond the largest float (log, sqrt, rsqrt once overflowed to inf or 0) and
    sin/cos of `0 + iy` with an infinite sinh (once 0 * inf = NaN)."""
    big = np.finfo(np.float64).max
    z = np.array([complex(big, big), complex(-big, big / 4), complex(0.0, 1e4), complex(-0.0, -1e4)])
    log = run("log", "c128", z)
    np.testing.assert_allclose(log[:2].real, [np.log(big) + np.log(2) / 2, np.log(big) + np.log1p(1 / 16) / 2])
    sqrt = run("sqrt", "c128", z)
    assert np.isfinite(sqrt[:2]).all()
    np.testing.assert_allclose(sqrt[:2], np.sqrt(z[:2] / 4) * 2, rtol=1e-15)
    rsqrt = run("rsqrt", "c128", z[:2])
    np.testing.assert_allclose(rsqrt, 1 / (np.sqrt(z[:2] / 4) * 2), rtol=1e-15)
    sin = run("sin", "c128", z[2:])
    assert (sin.real == 0).all() and np.signbit(sin[1].real) and list(sin.imag) == [np.inf, -np.inf]
    cos = run("cos", "c64", z[2:])
    assert list(cos.real) == [np.inf, np.inf] and (cos.imag == 0).all()


def test_expm1_c128_cancellation(run: Callable[..., np.ndarray]) -> None:
    """The worst point of the full grid before double words (10.4 ulp, now 0.44): at
    0.5 + 0.9i, `expm1(a) cos b` (0.40) and `1 - cos b` (0.38) cancel to 0.025, which
    amplified the roundings of libm's expm1, cos, sin and the products about 16 times."""
    z = np.array([complex(0.5, 0.9), complex(-0.5, 0.9), complex(0.5, -0.9)])
    with np.errstate(all="ignore"), mpmath.workprec(160):
        err = errors("expm1", "c128", z, run("expm1", "c128", z))
    assert err.max() <= 1.0, list(err)


@pytest.mark.parametrize("key", list(TYPES))
def test_expm1_near_cancellation_curve(run: Callable[..., np.ndarray], key: str) -> None:
    """Points near `e^a cos b = 1` (`expm1_curve`; before double words, complex<f64> lost
    the whole real part there): within the bound, except that on the float nearest to
    the curve the real part cancels by up to ~2^60, beyond any double-word result's
    ulps; there the error beyond the final rounding is asserted against the size of the
    cancelling terms, 2^-103 (|expm1(a) cos b| + |1 - cos b|)."""
    z, u = expm1_curve(TYPES[key][1], 240, seed=1)
    got = run("expm1", key, z)
    with np.errstate(all="ignore"), mpmath.workprec(160):
        err = errors("expm1", key, z, got)
    bound = (BOUNDS if key == "c64" else C128_BOUNDS)["expm1"]
    beyond = err > bound
    assert not (beyond & ~np.isinf(u)).any(), [(complex(z[i]), float(err[i])) for i in np.flatnonzero(beyond)[:6]]
    if key == "c64":
        assert not beyond.any()
        return
    with mpmath.workprec(300):
        for zi, gi in zip(z[beyond], got[beyond]):
            a, b = mpmath.mpf(zi.real), mpmath.mpf(zi.imag)
            terms = abs(mpmath.expm1(a) * mpmath.cos(b)) + abs(1 - mpmath.cos(b))
            exact = mpmath.exp(a) * mpmath.cos(b) - 1
            limit = mpmath.ldexp(abs(exact), -53) + mpmath.ldexp(terms, -103)
            assert abs(mpmath.mpf(gi.real) - exact) <= limit, complex(zi)
