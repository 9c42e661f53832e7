"""Measure the accuracy of the compiled complex inverse trigonometric and hyperbolic
functions (`chlo.asin/acos/atan/asinh/acosh/atanh` on `complex<f32>`/`complex<f64>`).

    python -m xla_tools.complex_accuracy [--random N] [name ...]
    python -m xla_tools.complex_accuracy --expm1-curve N

The sample is a grid over the whole complex plane: every pair of signed component
magnitudes from `magnitudes` (zero, subnormals, tiny, around 1 to the last bit,
the branch points, huge, the largest float), so it covers the branch cuts from
both sides (signed zeros), plus `--random` points log-uniform in both components.
The reference is mpmath at 160 bits: `f(z)` itself off the axes; on an axis, where
mpmath ignores the sign of a zero, the limit from the closed first quadrant (|Re|,
|Im| of mpmath's value there) carried to the point's quadrant by the function's
symmetries (asin, asinh, atan, atanh odd; acos(-z) = pi - acos(z); all conjugate
symmetric; acosh(z) = (|Im acos z|, sign(Im z) Re acos z)), which is C99 Annex G's
convention. The error is per component, in ulps of the binade of the exact value
(the subnormal ulp below the smallest normal), so a correctly rounded component
scores at most 0.5; the reported figure is the larger of the two.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FUNCTIONS = ("asin", "acos", "atan", "asinh", "acosh", "atanh")
ELEMENTWISE = {
    "exp": "exponential", "expm1": "exponential_minus_one", "log": "log", "log1p": "log_plus_one",
    "sqrt": "sqrt", "rsqrt": "rsqrt", "sin": "sine", "cos": "cosine", "tan": "tan", "tanh": "tanh",
}
"""The `xla` element-wise ops on complex values (name → op), measured the same way; on
the axes (where mpmath ignores the sign of a zero) their parts are compared by
magnitude, which the side of the cut of log, log1p, sqrt and rsqrt does not change."""
TYPES = {"c64": (np.complex64, np.float32, "complex<f32>"), "c128": (np.complex128, np.float64, "complex<f64>")}
ODD = frozenset({"asin", "asinh", "atan", "atanh"})


@dataclass(frozen=True)
class Result:
    function: str
    type: str
    max_ulp: float
    worst: complex
    points: int


def magnitudes(real: type[np.floating]) -> np.ndarray:
    """Non-negative component magnitudes that exercise every region of the algorithms."""
    info = np.finfo(real)
    eps = float(info.eps)
    values = [
        0.0, float(info.smallest_subnormal), float(info.smallest_normal) * 0.75, float(info.smallest_normal),
        1e-30, 1e-20, 1e-10, eps / 4, eps, 1e-4, 0.1, 0.5, 0.7, 0.9, 0.99, 1 - eps / 2, 1.0, 1 + eps,
        1.01, 1.1, 1.5, 2.0, 3.0, 10.0, 1e4, 1e8, 1e20, 1e30,
        math.sqrt(float(info.max)) / 8, float(info.max) / 4, float(info.max),
    ]
    if real == np.float64:
        values += [1e-310, 1e-300, 1e-200, 1e-100, 1e100, 1e200, 1e300]
    return np.unique(np.array(values, dtype=real))


def sample(real: type[np.floating], random: int, seed: int = 0, step: int = 1) -> np.ndarray:
    """The signed grid of `magnitudes` (every `step`-th, the last kept) and `random`
    log-uniform points, as complex128."""
    m = magnitudes(real)
    m = np.unique(np.concatenate([m[::step], m[-1:]]))
    signed = np.concatenate([m, -m[m > 0], [-0.0]]).astype(real)
    re, im = np.meshgrid(signed, signed)
    rng = np.random.default_rng(seed)
    info = np.finfo(real)
    lo, hi = math.log2(float(info.smallest_normal)), math.log2(float(info.max))
    rand = np.exp2(rng.uniform(lo, hi, (2, random))) * rng.choice([-1.0, 1.0], (2, random))
    rand = rand.astype(real)
    parts_re = np.concatenate([re.ravel(), rand[0]]).astype(np.float64)
    parts_im = np.concatenate([im.ravel(), rand[1]]).astype(np.float64)
    return parts_re + 1j * parts_im


def expm1_curve(real: type[np.floating], n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """`n` points near the curve `e^a cos b = 1`, where `Re expm1(a + bi) = e^a cos b - 1`
    cancels: a uniform in (0, 1] or log-uniform in [1e-12, 40] (alternately), b =
    ±(arccos e^-a + 2 pi m), m mostly 0 and up to 10^5, moved by a relative 2^-u (either
    sign, u uniform in [20, p - 1], p the precision) or, every third point (u = inf),
    rounded to the nearest float. Returns the points (complex128) and u."""
    import mpmath

    rng = np.random.default_rng(seed)
    p = np.finfo(real).nmant + 1
    points, offsets = [], []
    with mpmath.workprec(200):
        for i in range(n):
            a = rng.uniform(0, 1) if i % 2 == 0 else math.exp(rng.uniform(math.log(1e-12), math.log(40)))
            a = float(real(a))
            m = int(rng.choice([0, 0, 0, 1, 10, 1000, 100000]))
            u = math.inf if i % 3 == 0 else rng.uniform(20, p - 1)
            b = mpmath.acos(mpmath.exp(-mpmath.mpf(a))) + 2 * mpmath.pi * m
            if u != math.inf:
                b *= 1 + int(rng.choice([-1, 1])) * mpmath.mpf(2) ** -u
            b = float(real(float(b)))  # f64's rounding, then the type's (exact, or f32's)
            points.append(complex(a, b * int(rng.choice([-1, 1]))))
            offsets.append(u)
    return np.array(points), np.array(offsets)


@dataclass(frozen=True)
class CurveResult:
    type: str
    nearest_points: int
    nearest_max: float
    nearest_p90: float
    nearest_over_2: float
    moved_points: int
    moved_max: float
    worst: complex


def measure_expm1_curve(n: int = 3000, seed: int = 0) -> list[CurveResult]:
    """expm1 on `expm1_curve` for each type: the floats nearest to the curve and the
    points moved off it, separately (the former cancel by up to ~2^60)."""
    import mpmath

    samples = {key: expm1_curve(real, n, seed) for key, (_, real, _) in TYPES.items()}
    run = compiled_runner(("expm1",), n)
    results: list[CurveResult] = []
    with mpmath.workprec(160):
        for key, (z, u) in samples.items():
            err = errors("expm1", key, z, run("expm1", key, z))
            near, moved = err[np.isinf(u)], err[~np.isinf(u)]
            results.append(
                CurveResult(
                    key, len(near), float(near.max()), float(np.percentile(near, 90)), float(np.mean(near > 2)),
                    len(moved), float(moved.max()), complex(z[int(np.argmax(err))]),
                )
            )
    return results


def _mp(fn: str, x: float, y: float):
    """mpmath's fn(x + iy). Its formulas cancel by up to the exponents' size: it works
    with that many more bits (doubling them changes no result)."""
    import mpmath

    spread = abs(math.frexp(x)[1]) + abs(math.frexp(y)[1])
    with mpmath.workprec(160 + 2 * spread):
        v = getattr(mpmath, fn)(mpmath.mpc(x, y))
    return +v


def _mp_quadrant(fn: str, x: float, y: float):
    """mpmath's f at |x| + i|y|, with the signs of the closed first quadrant."""
    v = _mp(fn, abs(x), abs(y))
    re, im = abs(v.real), abs(v.imag)
    return re, (-im if fn == "acos" else im)


def reference(fn: str, z: complex):
    """The exact value of fn(z) as an mpmath (real, imag) pair (C99's signed-zero sides)."""
    import mpmath

    x, y = z.real, z.imag
    if fn in ELEMENTWISE:
        v = _mp("sqrt", x, y) ** -1 if fn == "rsqrt" else _mp(fn, x, y)
        if x == 0 or y == 0:
            return abs(v.real), abs(v.imag)
        return v.real, v.imag
    if x != 0 and y != 0 and math.isfinite(x) and math.isfinite(y):
        v = _mp(fn, x, y)
        return v.real, v.imag
    sx, sy = math.copysign(1.0, x), math.copysign(1.0, y)
    if fn in ODD:
        re, im = _mp_quadrant(fn, x, y)
        return sx * re, sy * im
    re, im = _mp_quadrant("acos", x, y)  # acos in the first quadrant: im <= 0
    acos_re = re if sx > 0 else mpmath.pi - re
    acos_im = -sy * abs(im)
    if fn == "acos":
        return acos_re, acos_im
    return abs(acos_im), sy * acos_re  # acosh


def ulp_error(got: float, exact, real: type[np.floating]) -> float:
    """|got - exact| in ulps of exact's binade in `real` (inf if got is NaN or on the
    wrong side of the overflow threshold)."""
    import mpmath

    info = np.finfo(real)
    if math.isnan(got):
        return math.inf
    exact_f = float(exact)
    if abs(exact_f) >= float(info.max) * (1 + float(info.eps) / 4):
        return 0.0 if got == math.copysign(math.inf, exact_f) else math.inf
    if math.isinf(got):
        return math.inf
    p = info.nmant + 1
    e = max(int(mpmath.floor(mpmath.log(abs(exact), 2))) if exact != 0 else info.minexp, info.minexp)
    ulp = mpmath.ldexp(1, e - p + 1)
    return float(abs(mpmath.mpf(got) - exact) / ulp)


def program(functions: tuple[str, ...], n: int) -> str:
    lines = []
    for fn in functions:
        for key, (_, _, ty) in TYPES.items():
            t = f"tensor<{n}x{ty}>"
            op = f"xla.{ELEMENTWISE[fn]} %x : {t}" if fn in ELEMENTWISE else f"chlo.{fn} %x : {t} -> {t}"
            lines.append(f"func.func @{fn}_{key}(%x: {t}) -> {t} {{\n  %r = {op}\n  func.return %r : {t}\n}}")
    return "\n".join(lines)


def errors(fn: str, key: str, z: np.ndarray, got: np.ndarray) -> np.ndarray:
    """The per-point error (the larger component's, in ulps) of `got = fn(z)`. For the
    element-wise ops, points whose exact value mpmath cannot give (poles) and parts
    on the axes are compared by magnitude."""
    import mpmath

    real = TYPES[key][1]
    out = np.zeros(len(z))
    for i, (zi, gi) in enumerate(zip(z, got)):
        try:
            re, im = reference(fn, complex(zi))
        except (ZeroDivisionError, ValueError):
            continue
        if fn in ELEMENTWISE and not (mpmath.isfinite(re) and mpmath.isfinite(im)):
            continue  # a pole (log 0, rsqrt 0, log1p -1): tested by its special value
        g_re, g_im = float(gi.real), float(gi.imag)
        if fn in ELEMENTWISE and (zi.real == 0 or zi.imag == 0):
            g_re, g_im = abs(g_re), abs(g_im)
        out[i] = max(ulp_error(g_re, re, real), ulp_error(g_im, im, real))
    return out


def measure(
    functions: tuple[str, ...] = FUNCTIONS, random: int = 2000, seed: int = 0
) -> list[Result]:
    """Compile all functions once (one module) and measure each on each type."""
    import mpmath

    samples = {key: sample(real, random, seed) for key, (_, real, _) in TYPES.items()}
    run = compiled_runner(functions, max(len(s) for s in samples.values()))
    results: list[Result] = []
    with mpmath.workprec(160):
        for fn in functions:
            for key in TYPES:
                z = samples[key]
                got = run(fn, key, z)
                err = errors(fn, key, z, got)
                worst = int(np.argmax(err))
                results.append(Result(fn, key, float(err[worst]), complex(z[worst]), len(z)))
    return results


def compiled_runner(
    functions: tuple[str, ...], n: int, fill: complex = 0
) -> Callable[[str, str, np.ndarray], np.ndarray]:
    """Compile `program(functions, n)` once; the call it returns runs `fn` on the complex
    array `z` (of `TYPES[key]`, at most `n` long, padded with `fill`)."""
    from xla_tools import compile

    module = program(functions, n)

    def run(fn: str, key: str, z: np.ndarray) -> np.ndarray:
        padded = np.full(n, fill, np.complex128)
        padded[: len(z)] = z
        return compile(module, f"{fn}_{key}")(padded.astype(TYPES[key][0]))[: len(z)]

    return run


def run_compiled(fn: str, key: str, z: np.ndarray) -> np.ndarray:
    """fn on the complex array z (of TYPES[key]), compiled alone."""
    from xla_tools import compile

    return compile(program((fn,), len(z)), f"{fn}_{key}")(z.astype(TYPES[key][0]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--random", type=int, default=2000)
    parser.add_argument("--expm1-curve", type=int, default=0, metavar="N",
                        help="instead: expm1 on N points near the curve e^a cos b = 1")
    parser.add_argument("names", nargs="*", default=[*FUNCTIONS, *ELEMENTWISE])
    args = parser.parse_args(argv)
    if args.expm1_curve:
        print("| type | nearest floats | max ulp | 90th percentile | share > 2 ulp | moved off | max ulp | worst at |")
        print("|---|---|---|---|---|---|---|---|")
        for c in measure_expm1_curve(args.expm1_curve):
            print(f"| {c.type} | {c.nearest_points} | {c.nearest_max:.2f} | {c.nearest_p90:.2f} | "
                  f"{c.nearest_over_2:.1%} | {c.moved_points} | {c.moved_max:.2f} | {c.worst!r} |")
        return
    print("| function | type | max ulp (per component) | points | worst at |")
    print("|---|---|---|---|---|")
    for r in measure(tuple(args.names), args.random):
        print(f"| {r.function} | {r.type} | {r.max_ulp:.2f} | {r.points} | {r.worst!r} |")



if __name__ == "__main__":
    main()
