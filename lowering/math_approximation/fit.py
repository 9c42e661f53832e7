"""Fit the minimax polynomials of `math-polynomial-approximation` (a tool, not imported by the pass).

    python -m lowering.math_approximation.fit [name ...]

Each fit approximates `g(t) ~ sum_i c_i t^e_i` on an interval in the weighted
minimax sense by Lawson's algorithm (iteratively reweighted least squares on a
dense Chebyshev grid), with the reference computed by mpmath at 40 digits.
The weight makes the error relative to the function the expansion computes
(e.g. `exp(r) = 1 + r + r^2/2 + r^3 Q(r)` fits Q with weight `r^3 / expm1(r)`).
Coefficients are printed as f32 (or f64) literals and pasted into the family
modules; the printed error is that of the rounded coefficients, in units of
2^-24 (f32) or 2^-53 (f64) of the weighted quantity.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath
import numpy as np

mpmath.mp.dps = 40


@dataclass(frozen=True)
class Fit:
    """g ~ sum c_i t^exponents[i] on [lo, hi]; error weighted by weight(t)."""

    g: Callable[[mpmath.mpf], mpmath.mpf]
    exponents: Sequence[int]
    lo: float
    hi: float
    weight: Callable[[mpmath.mpf], mpmath.mpf]
    dtype: type = np.float32


def _grid(lo: float, hi: float, n: int) -> np.ndarray:
    k = np.arange(n)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / n)[::-1]


def _lawson(a: np.ndarray, g: np.ndarray, w: np.ndarray, iterations: int) -> np.ndarray:
    """Weighted minimax coefficients of the columns of `a` for `g` (Lawson's algorithm)."""
    n = g.size
    lw = np.full(n, 1.0 / n)
    c = np.zeros(a.shape[1])
    for _ in range(iterations):
        s = np.sqrt(lw) * w
        scale = np.abs(a * s[:, None]).max(axis=0)
        c = np.linalg.lstsq(a * s[:, None] / scale, g * s, rcond=None)[0] / scale
        err = np.abs((a @ c - g) * w)
        lw = lw * err
        lw /= lw.sum()
    return c


def fit(spec: Fit, n: int = 3000, iterations: int = 60) -> tuple[np.ndarray, float]:
    """Coefficients (rounded to spec.dtype) and their max weighted error. The
    coefficients are rounded one at a time from the highest degree down, the
    lower ones refitted after each, so that they absorb the rounding."""
    t = _grid(spec.lo, spec.hi, n)
    g = np.array([float(spec.g(mpmath.mpf(x))) for x in t])
    w = np.array([float(spec.weight(mpmath.mpf(x))) for x in t])
    a = np.stack([t**e for e in spec.exponents], axis=1)
    rounded = np.zeros(a.shape[1])
    for k in range(a.shape[1] - 1, -1, -1):
        c = _lawson(a[:, : k + 1], g - a[:, k + 1 :] @ rounded[k + 1 :], w, iterations)
        rounded[k] = float(spec.dtype(c[k]))
    err = np.abs((a @ rounded - g) * w).max()
    return rounded, float(err)


def _safe(f: Callable[[mpmath.mpf], mpmath.mpf], at0: float) -> Callable[[mpmath.mpf], mpmath.mpf]:
    return lambda x: mpmath.mpf(at0) if x == 0 else f(x)


LN2_HALF = 0.34657359027997264


def _erfcx(x: mpmath.mpf) -> mpmath.mpf:
    return mpmath.erfc(x) * mpmath.exp(x * x)

SQRT_HALF = 0.7071067811865476


def _erfinv_ratio(w: mpmath.mpf) -> mpmath.mpf:
    """erfinv(x) / x at x = sqrt(1 - e^-w) (Giles' variable w = -log(1 - x^2))."""
    x = mpmath.sqrt(-mpmath.expm1(-w))
    return mpmath.erfinv(x) / x if w > 0 else mpmath.sqrt(mpmath.pi) / 2


FITS: dict[str, Fit] = {
    # expm1(r) = r + r^2/2 + r^3 Q(r): expm1 (relative to expm1(r) near 0).
    "expm1": Fit(
        _safe(lambda r: (mpmath.expm1(r) - r - r * r / 2) / r**3, 1 / 6), range(5), -LN2_HALF, LN2_HALF,
        _safe(lambda r: r**3 / mpmath.expm1(r), 0.0),
    ),
    # The same, Q of degree 3, the error relative to exp(r): exp, exp2 (one Horner chain), tanh, erf, erfc (`t + t p`).
    "exp": Fit(
        _safe(lambda r: (mpmath.expm1(r) - r - r * r / 2) / r**3, 1 / 6), range(4), -LN2_HALF, LN2_HALF,
        lambda r: r**3 / mpmath.exp(r),
    ),
    # tanh(x) = x + x^3 T(x^2), |x| <= 0.55.
    "tanh": Fit(
        _safe(lambda z: (mpmath.tanh(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, -1 / 3), range(4), 0.0, 0.55**2,
        _safe(lambda z: z * mpmath.sqrt(z) / mpmath.tanh(mpmath.sqrt(z)), 0.0),
    ),
    # log(1+f) = f - f^2/2 + f^3 P(f), f in [sqrt(1/2)-1, sqrt(2)-1].
    "log": Fit(
        _safe(lambda f: (mpmath.log1p(f) - f + f * f / 2) / f**3, 1 / 3), range(8), SQRT_HALF - 1, 2 * SQRT_HALF - 1,
        _safe(lambda f: f**3 / mpmath.log1p(f), 0.0),
    ),
    # sin(r) = r + r^3 S(r^2), cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4 (fit in z = r^2).
    "sin": Fit(
        _safe(lambda z: (mpmath.sin(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, -1 / 6), range(4), 0.0, (np.pi / 4) ** 2,
        _safe(lambda z: z * mpmath.sqrt(z) / mpmath.sin(mpmath.sqrt(z)), 0.0),
    ),
    "cos": Fit(
        _safe(lambda z: (mpmath.cos(mpmath.sqrt(z)) - 1 + z / 2) / z**2, 1 / 24), range(4), 0.0, (np.pi / 4) ** 2,
        lambda z: z**2 / mpmath.cos(mpmath.sqrt(z)),
    ),
    # tan(r) = r + r^3 T(r^2), |r| <= pi/4.
    "tan": Fit(
        _safe(lambda z: (mpmath.tan(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, 1 / 3), range(7), 0.0, (np.pi / 4) ** 2,
        _safe(lambda z: z * mpmath.sqrt(z) / mpmath.tan(mpmath.sqrt(z)), 0.0),
    ),
    # atan(t) = t + t^3 A(t^2), |t| <= tan(pi/8).
    "atan": Fit(
        _safe(lambda z: (mpmath.atan(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, -1 / 3), range(5), 0.0,
        (np.sqrt(2) - 1) ** 2, _safe(lambda z: z * mpmath.sqrt(z) / mpmath.atan(mpmath.sqrt(z)), 0.0),
    ),
    # erf(x) = x (2/sqrt(pi) + x^2 P(x^2)), |x| <= 1 (2/sqrt(pi) split hi + lo in the expansion).
    "erf": Fit(
        _safe(lambda z: (mpmath.erf(mpmath.sqrt(z)) / mpmath.sqrt(z) - 2 / mpmath.sqrt(mpmath.pi)) / z, -2 / (3 * mpmath.sqrt(mpmath.pi))),
        range(7), 0.0, 1.0, _safe(lambda z: z * mpmath.sqrt(z) / mpmath.erf(mpmath.sqrt(z)), 0.0),
    ),
    # erfc(x) = exp(-x^2) R(x): R(x) = N(x - 1) on [0, 2], R(x) = F(1/x^2) / x on [2, 10.06]
    # (erfc underflows beyond); the variables keep Horner's terms from cancelling.
    "erfc_near": Fit(lambda s: _erfcx(s + 1), range(13), -1.0, 1.0, lambda s: 1 / _erfcx(s + 1)),
    # erf(x) = 1 - exp(-x^2) M(x - 3/2), x in [1, 3.92] (erf rounds to 1 beyond): erf only needs
    # erfc to an absolute 2^-24, so the weight is exp(-x^2) (the error in ulps of erf's binade).
    "erf_tail": Fit(lambda s: _erfcx(s + 1.5), range(8), -0.5, 2.42, lambda s: mpmath.exp(-((s + 1.5) ** 2))),
    "erfc_far": Fit(
        lambda v: _erfcx(1 / mpmath.sqrt(v)) * mpmath.sqrt(v) ** -1, range(8), 1 / 10.06**2, 0.25,
        lambda v: mpmath.sqrt(v) / _erfcx(1 / mpmath.sqrt(v)),
    ),
    # erf_inv(x) = x P(w), w = -log(1 - x^2) (Giles' form, refitted in f32): P(w - 5/2) on
    # [0, 5], P(sqrt(w) - 3) on [5, 16] (|x| < 1 in f32 keeps w below 16).
    "erfinv_near": Fit(
        lambda s: _erfinv_ratio(s + mpmath.mpf(2.5)), range(11), -2.5, 2.5,
        lambda s: 1 / _erfinv_ratio(s + mpmath.mpf(2.5)),
    ),
    "erfinv_far": Fit(
        lambda u: _erfinv_ratio((u + 3) ** 2), range(10), float(np.sqrt(5.0)) - 3, 1.0,
        lambda u: 1 / _erfinv_ratio((u + 3) ** 2),
    ),
    # f64 for sin/cos/tan (reduced in f64, rounded to f32 once): |r| <= pi/4, z = r^2.
    "sin_f64": Fit(
        _safe(lambda z: (mpmath.sin(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, -1 / 6), range(4), 0.0, (np.pi / 4) ** 2,
        _safe(lambda z: z * mpmath.sqrt(z) / mpmath.sin(mpmath.sqrt(z)), 0.0), np.float64,
    ),
    "cos_f64": Fit(
        _safe(lambda z: (mpmath.cos(mpmath.sqrt(z)) - 1 + z / 2) / z**2, 1 / 24), range(4), 0.0, (np.pi / 4) ** 2,
        lambda z: z**2 / mpmath.cos(mpmath.sqrt(z)), np.float64,
    ),
    # f64 for atan/atan2: atan(t) = t + t^3 A(t^2), |t| <= tan(pi/8).
    "atan_f64": Fit(
        _safe(lambda z: (mpmath.atan(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, -1 / 3), range(7), 0.0,
        (np.sqrt(2) - 1) ** 2, _safe(lambda z: z * mpmath.sqrt(z) / mpmath.atan(mpmath.sqrt(z)), 0.0), np.float64,
    ),
    # f64 for powf: log(1+f) = 2 atanh(s), s = f/(2+f): atanh(s)/s = 1 + z L(z), z = s^2.
    "log_f64": Fit(
        _safe(lambda z: (mpmath.atanh(mpmath.sqrt(z)) / mpmath.sqrt(z) - 1) / z, 1 / 3), range(6), 0.0,
        ((2 * SQRT_HALF - 1) / (1 + 2 * SQRT_HALF)) ** 2, lambda z: z, np.float64,
    ),
    # f64 for powf: 2^r = 1 + r E(r), |r| <= 1/2.
    "exp2_f64": Fit(
        _safe(lambda r: (mpmath.power(2, r) - 1) / r, mpmath.log(2)), range(9), -0.5, 0.5,
        _safe(lambda r: r / mpmath.power(2, r), 0.0), np.float64,
    ),
}


def main(names: Sequence[str]) -> None:
    for name in names or FITS:
        spec = FITS[name]
        coefficients, err = fit(spec)
        unit = 2.0**-53 if spec.dtype is np.float64 else 2.0**-24
        print(f"{name}: max weighted error {err:.3e} = {err / unit:.4f} units")
        fmt = "{!r}" if spec.dtype is np.float64 else "{}"
        values = [float(np.float32(c)) if spec.dtype is np.float32 else float(c) for c in coefficients]
        print("    (" + ", ".join(fmt.format(v) if spec.dtype is np.float64 else repr(v) for v in values) + ")")


if __name__ == "__main__":
    main(sys.argv[1:])
