"""How accurate a single-path rational tanh is in f32 (a study, not part of the compiler).

    python benchmarks/study_rational_tanh.py [m n ...]

XLA's tanh is `x P(x^2) / Q(x^2)` with |x| clamped, one path and one division: in
GELU tanh's loop it would take 26 AVX-512 instructions instead of the 39 of
`tanh_logistic.tanh` (docs/math_accuracy.md). For each pair of degrees (m, n)
this fits P/Q (P(0) = Q(0) = 1) to tanh(x)/x on [0, CLAMP] in the relative
minimax sense (Loeb's linearization, reweighted as in Lawson's algorithm), rounds
the coefficients to f32 and evaluates `fma(x z, P1(z), x) / Q(z)` with every
operation rounded to f32 (an fma is exact in f64 and rounded once). It prints the
approximation error of the rounded coefficients and the maximum ulp error of the
f32 evaluation on a dense grid, by interval: four roundings of values near 1 (P's
last step, Q's, the numerator, the quotient) each cost up to one ulp of a result
just below a power of two, which is why tanh keeps its two paths.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence

import numpy as np

CLAMP = 9.0
"""|x| is clamped here: tanh(9) rounds to 1 in f32."""
DEGREES = ((4, 4), (5, 3), (5, 4), (6, 3))

f32 = np.float32


def fit(m: int, n: int, points: int = 6000, iterations: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients (lowest degree first, both starting with 1) of P of degree m and Q of
    degree n with tanh(x)/x ~ P(x^2)/Q(x^2), relative minimax on [0, CLAMP]."""
    k = np.arange(points)
    x = np.concatenate([CLAMP / 2 + CLAMP / 2 * np.cos(np.pi * (k + 0.5) / points), np.geomspace(1e-4, 0.05, 400)])
    z, g = x * x, np.tanh(x) / x
    q_prev, lw = np.ones_like(z), np.full(z.size, 1.0 / z.size)
    p = q = np.ones(1)
    for it in range(iterations):
        a = np.concatenate([np.stack([z**i for i in range(1, m + 1)], 1), np.stack([-g * z**i for i in range(1, n + 1)], 1)], 1)
        s = np.sqrt(lw) / (g * q_prev)
        scale = np.abs(a * s[:, None]).max(0)
        c = np.linalg.lstsq(a * s[:, None] / scale, (g - 1) * s, rcond=None)[0] / scale
        p, q = np.r_[1.0, c[:m]], np.r_[1.0, c[m:]]
        q_prev = np.polyval(q[::-1], z)
        if it >= iterations // 2:
            lw = lw * np.abs(np.polyval(p[::-1], z) / q_prev - g) / g
            lw /= lw.sum()
    return p.astype(f32), q.astype(f32)


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(f32)


def _horner(coefficients: np.ndarray, z: np.ndarray) -> np.ndarray:
    acc = np.full_like(z, coefficients[-1])
    for c in coefficients[-2::-1]:
        acc = _fma(acc, z, np.full_like(z, c))
    return acc


def tanh_f32(p: np.ndarray, q: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The rational evaluated as the compiled code would, every operation rounded to f32."""
    ax = np.minimum(np.abs(x), f32(CLAMP))
    z = ax * ax
    num = _fma(ax * z, _horner(p[1:], z), ax)
    return np.copysign(num / _horner(q, z), x)


def ulp_errors(got: np.ndarray, x: np.ndarray) -> np.ndarray:
    """|got - tanh(x)| in ulps of the f32 binade of tanh(x) (float64 reference)."""
    exact = np.tanh(x.astype(np.float64))
    binade = np.exp2(np.floor(np.log2(np.maximum(np.abs(exact), 2.0**-126))))
    return np.abs(got.astype(np.float64) - exact) / (binade * 2.0**-23)


def study(m: int, n: int) -> None:
    p, q = fit(m, n)
    x = np.concatenate([np.linspace(0.0, CLAMP + 0.5, 3_000_001), np.geomspace(1e-30, 1.0, 100_000)]).astype(f32)
    x64 = np.minimum(x.astype(np.float64), CLAMP)
    approx = x64 * np.polyval(p[::-1].astype(np.float64), x64**2) / np.polyval(q[::-1].astype(np.float64), x64**2)
    err = ulp_errors(tanh_f32(p, q, x), x)
    print(f"({m}, {n}): approximation {ulp_errors(approx, x).max():.2f} ulp, f32 evaluation {err.max():.2f} ulp"
          f" at {float(x[np.argmax(err)])!r}")
    edges = [0.0, 0.5, 1.0, 2.0, 4.0, CLAMP + 0.5]
    print("    " + ", ".join(f"[{lo}, {hi}): {err[(x >= lo) & (x < hi)].max():.2f}" for lo, hi in itertools.pairwise(edges)))


def main(args: Sequence[str]) -> None:
    pairs = [(int(args[i]), int(args[i + 1])) for i in range(0, len(args) - 1, 2)] or DEGREES
    for m, n in pairs:
        study(m, n)


if __name__ == "__main__":
    main(sys.argv[1:])
