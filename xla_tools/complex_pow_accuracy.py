"""Measure the accuracy of the compiled complex power `xla.power %z, %w` (complex<f32> and
complex<f64>): the normwise error `|got - exact|` in ulps of `|exact|`, against mpmath.

    python -m xla_tools.complex_pow_accuracy [--random N]

The lowering (`convert-complex-to-standard`) computes `exp(w log z)`. The absolute error
of `t = w log z` becomes the relative error of the result, so computed in the working
precision the error grows with `K = |w log z|` (the condition number in w; a 1-ulp change
of z moves z^w by |w| ulps): ~1.5 K ulps. complex<f64> therefore recomputes t and its
exponential in double words beyond K ~ 0.5, complex<f32> computes in f64 (and in double
words beyond K ~ 2^20); the figures are given per bucket of K, to show that the error no
longer grows with it. The error is normwise, not per component: where `arg(z^w)` is near
a multiple of pi/2, a component is tiny beside the modulus and carries the absolute error
of the angle (in f64, millions of its own ulps, e.g. z = 1 - 3e-8i, w = 2 - i).

The sample: bases from `complex_accuracy.magnitudes` (nonzero, finite, both signs of
each part), each raised to a list of exponents (integers, halves, thirds, negative,
imaginary and complex ones); `--random` pairs log-uniform in all four parts; and
`--random`/4 pairs of large K: random bases z with w = t / log z for t of real part in
[-40, 40] and imaginary part log-uniform up to `LARGE_K` (rounded to the type, which moves
t). Points whose exact modulus is beyond the largest float or below the smallest normal
are left out.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from xla_tools.complex_accuracy import TYPES, magnitudes

EXPONENTS = (2, 3, -1, -2, 0.5, -0.5, 1 / 3, 2.5, 10, 1j, 0.5 + 0.5j, 2 - 1j, -1 + 2j, -0.25 - 3j)
"""The exponents each base of the grid is raised to."""
BUCKETS = ((0.0, 1.0), (1.0, 10.0), (10.0, 100.0), (100.0, 1e4), (1e4, 2.0**45))
"""Ranges (lo, hi] of K = |w log z| for the reported maxima."""
LARGE_K = 2.0**44
"""The largest |Im(w log z)| of the sample's large-K pairs."""


@dataclass(frozen=True)
class Bucket:
    type: str
    k_min: float
    k_max: float
    max_ulp: float
    worst: tuple[complex, complex]
    points: int


def sample(real: type[np.floating], random: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(bases, exponents) of the measurement, as complex128 arrays of one length."""
    mags = [m for m in magnitudes(real) if 0 < m < float(np.finfo(real).max) / 8][::2]
    bases = [complex(sx * x, sy * y) for x in mags for y in [0.0, *mags] for sx in (1, -1) for sy in (1, -1)]
    z = np.array([b for b in bases for _ in EXPONENTS], np.complex128)
    w = np.array([complex(e) for _ in bases for e in EXPONENTS], np.complex128)
    rng = np.random.default_rng(seed)
    parts = rng.choice([-1.0, 1.0], (4, random)) * np.exp(rng.uniform(math.log(1e-3), math.log(1e3), (4, random)))
    # Large K: w = t / log z for a target t = w log z whose real part keeps z^w in range and
    # whose imaginary part is log-uniform up to LARGE_K (z as the random ones).
    n = random // 4
    log_z = np.log(parts[0, :n] + 1j * parts[1, :n])
    t = rng.uniform(-40, 40, n) + 1j * rng.choice([-1.0, 1.0], n) * np.exp(rng.uniform(0, math.log(LARGE_K), n))
    z = np.concatenate([z, parts[0] + 1j * parts[1], parts[0, :n] + 1j * parts[1, :n]])
    w = np.concatenate([w, (parts[2] + 1j * parts[3]) / 10, t / log_z])
    cplx = TYPES_COMPLEX[real]
    return z.astype(cplx).astype(np.complex128), w.astype(cplx).astype(np.complex128)


TYPES_COMPLEX = {real: cplx for cplx, real, _ in TYPES.values()}


def program(n: int) -> str:
    lines = []
    for key, (_, _, ty) in TYPES.items():
        t = f"tensor<{n}x{ty}>"
        lines.append(
            f"func.func @pow_{key}(%z: {t}, %w: {t}) -> {t} {{\n"
            f"  %r = xla.power %z, %w : {t}\n  func.return %r : {t}\n}}"
        )
    return "\n".join(lines)


def _reference(z: complex, w: complex):
    """(Re, Im) of z^w = exp(w log z) and K = |w log z|, in mpmath. On the cut (Im z a
    signed zero, Re z < 0) arg z is +-pi by the zero's sign, as C99 and the lowering's
    atan2 take it (mpmath has no signed zero)."""
    import mpmath

    spread = abs(math.frexp(abs(z))[1]) + abs(math.frexp(abs(w))[1])
    with mpmath.workprec(160 + 2 * spread):
        x, y = mpmath.mpf(z.real), mpmath.mpf(z.imag)
        theta = mpmath.atan2(y, x) if z.imag != 0 or z.real > 0 else math.copysign(1.0, z.imag) * mpmath.pi
        log_z = mpmath.mpc(mpmath.log(mpmath.hypot(x, y)), theta)
        t = mpmath.mpc(w.real, w.imag) * log_z
        v = mpmath.exp(t)
    return +v.real, +v.imag, float(abs(t))


def normwise_ulps(got: complex, re, im, real: type[np.floating]) -> float:
    """|got - exact| in ulps of |exact|'s binade (inf for a NaN or infinite result)."""
    import mpmath

    if not (math.isfinite(got.real) and math.isfinite(got.imag)):
        return math.inf
    exact = mpmath.mpc(re, im)
    p = np.finfo(real).nmant + 1
    ulp = mpmath.ldexp(1, int(mpmath.floor(mpmath.log(abs(exact), 2))) - p + 1)
    return float(abs(mpmath.mpc(got.real, got.imag) - exact) / ulp)


def errors(key: str, z: np.ndarray, w: np.ndarray, got: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per point: the normwise error in ulps (NaN: left out) and K = |w log z|. Left out:
    results whose modulus is beyond the largest float or below the smallest normal one
    (their rounding is not the algorithm's), and points mpmath cannot evaluate."""
    import mpmath

    real = TYPES[key][1]
    info = np.finfo(real)
    err = np.full(len(z), np.nan)
    cond = np.full(len(z), np.nan)
    with mpmath.workprec(160):
        for i, (zi, wi, gi) in enumerate(zip(z, w, got)):
            re, im, k = _reference(complex(zi), complex(wi))
            if not (mpmath.isfinite(re) and mpmath.isfinite(im)):
                continue
            modulus = abs(mpmath.mpc(re, im))
            if not float(info.smallest_normal) <= modulus <= float(info.max):
                continue
            err[i] = normwise_ulps(complex(gi), re, im, real)
            cond[i] = k
    return err, cond


def measure(random: int = 2000, seed: int = 0, run: Callable[..., np.ndarray] | None = None) -> list[Bucket]:
    """Compile `xla.power` once for both types and measure it on `sample`."""
    from xla_tools import compile

    samples = {key: sample(real, random, seed) for key, (_, real, _) in TYPES.items()}
    n = max(len(z) for z, _ in samples.values())
    module = program(n)
    out: list[Bucket] = []
    for key, (z, w) in samples.items():
        cplx = TYPES[key][0]
        pz, pw = np.ones(n, np.complex128), np.ones(n, np.complex128)
        pz[: len(z)], pw[: len(w)] = z, w
        got = (run or compile(module, f"pow_{key}"))(pz.astype(cplx), pw.astype(cplx))[: len(z)]
        err, cond = errors(key, z, w, got)
        for k_min, k_max in BUCKETS:
            mask = ~np.isnan(err) & (cond > k_min) & (cond <= k_max)
            if not mask.any():
                continue
            idx = np.flatnonzero(mask)[int(np.argmax(err[mask]))]
            worst = (complex(z[idx]), complex(w[idx]))
            out.append(Bucket(key, k_min, k_max, float(err[idx]), worst, int(mask.sum())))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=2000)
    args = parser.parse_args(argv)
    print("| type | K = abs(w log z) in | max ulp (normwise) | points | worst at (z, w) |")
    print("|---|---|---|---|---|")
    for b in measure(args.random):
        print(f"| {TYPES[b.type][2]} | ({b.k_min:g}, {b.k_max:g}] | {b.max_ulp:.2f} | {b.points} | {b.worst!r} |")


if __name__ == "__main__":
    main()
