"""Measure the accuracy of the compiled complex power `xla.power %z, %w` (complex<f32> and
complex<f64>): the normwise error `|got - exact|` in ulps of `|exact|`, against mpmath.

    python -m xla_tools.complex_pow_accuracy [--random N]

The lowering (`convert-complex-to-standard`) computes `exp(w log z)`: `log|z|` without
overflow, `arg z` by atan2, then the modulus `exp(c log|z| - d arg z)` and the angle
`d log|z| + c arg z` of the result, each rounded in the working precision. The absolute
error of that exponent becomes the relative error of the result, so the error grows with
the size of `w log z` (the problem's own condition: a 1-ulp change of z moves z^w by
|w| ulps). The figures are therefore given per bucket of `K = |w log z|`. The error is
normwise, not per component: where `arg(z^w)` is near a multiple of pi/2, a component is
tiny beside the modulus and carries the cancellation of the angle `d log|z| + c arg z`
(millions of its own ulps, e.g. z = 1 - 3e-8i, w = 2 - i), which no implementation of
working precision avoids.

The sample: bases from `complex_accuracy.magnitudes` (nonzero, finite, both signs of
each part), each raised to a list of exponents (integers, halves, thirds, negative,
imaginary and complex ones), plus `--random` pairs log-uniform in all four parts. Points
whose exact modulus is beyond the largest float or below the smallest normal are left out.
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
BUCKETS = (1.0, 10.0, 100.0, math.inf)
"""Upper bounds of K = |w log z| for the reported maxima."""


@dataclass(frozen=True)
class Bucket:
    type: str
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
    z = np.concatenate([z, parts[0] + 1j * parts[1]]).astype(TYPES_COMPLEX[real]).astype(np.complex128)
    w = np.concatenate([w, (parts[2] + 1j * parts[3]) / 10]).astype(TYPES_COMPLEX[real]).astype(np.complex128)
    return z, w


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
        for k_max in BUCKETS:
            mask = ~np.isnan(err) & (cond <= k_max)
            if not mask.any():
                continue
            idx = np.flatnonzero(mask)[int(np.argmax(err[mask]))]
            out.append(Bucket(key, k_max, float(err[idx]), (complex(z[idx]), complex(w[idx])), int(mask.sum())))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=2000)
    args = parser.parse_args(argv)
    print("| type | K = abs(w log z) up to | max ulp (normwise) | points | worst at (z, w) |")
    print("|---|---|---|---|---|")
    for b in measure(args.random):
        print(f"| {TYPES[b.type][2]} | {b.k_max:g} | {b.max_ulp:.2f} | {b.points} | {b.worst!r} |")


if __name__ == "__main__":
    main()
