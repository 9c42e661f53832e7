"""Measure the accuracy of the compiled f32 elementary functions (`math-polynomial-approximation`).

    python -m xla_tools.math_accuracy [--points N] [--markdown docs/math_accuracy.md] [name ...]

Each function is compiled once through the real pipeline (an `xla` program of
one element-wise op; the functions without an `xla` op of their own, such as
exp2, log2, log10 and atan, compile `xla.exponential` with its `math.exp`
replaced by the wanted op just before the approximation pass), run on a dense
sample over the whole f32 range (`sample`: log-uniform in every binade of both
signs, subnormals, zeros, infinities, NaN, the overflow and underflow
thresholds, floats next to multiples of pi/2 up to 2^127) and compared with a
float64 reference (NumPy/SciPy; correctly rounded to f32 but for rare ties)
and, on a subset, with mpmath at 50 digits. Prints the maximum ULP error per
function. `--markdown FILE` updates the f32 table of FILE between the lines
`TABLE_BEGIN` and `TABLE_END` (`update_table`): the measured and asserted
columns of the functions measured, other rows, their method column and all the
prose around the table are kept.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

N_DEFAULT = 1 << 20


@dataclass(frozen=True)
class Function:
    """A function under test: how to build it, and its float64 reference."""

    name: str
    xla_op: str
    reference: Callable[..., np.ndarray]
    bound: float
    """Max ULP error asserted by tests/unit/test_math_approximation.py."""
    math_op: str | None = None
    """The math op that replaces math.exp (for functions without an xla op)."""
    arity: int = 1
    domain: tuple[float, float] | None = None
    """Where the sample is dense (besides the whole range)."""
    method: str = "polynomial"


def _ref_erf(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return erf(x)


def _ref_erfc(x: np.ndarray) -> np.ndarray:
    from scipy.special import erfc

    return erfc(x)


def _logistic(x: np.ndarray) -> np.ndarray:
    from scipy.special import expit

    return expit(x)


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("exp", "xla.exponential", np.exp, 0.95, domain=(-104, 89)),
    Function("exp2", "xla.exponential", np.exp2, 0.95, "math.exp2", domain=(-151, 129)),
    Function("expm1", "xla.exponential_minus_one", np.expm1, 1.5, domain=(-18, 89)),
    Function("log", "xla.log", np.log, 1.0),
    Function("log2", "xla.exponential", np.log2, 1.0, "math.log2"),
    Function("log10", "xla.exponential", np.log10, 1.0, "math.log10"),
    Function("log1p", "xla.log_plus_one", np.log1p, 1.0),
    Function("tanh", "xla.tanh", np.tanh, 2.0, domain=(-10, 10)),
    Function("logistic", "xla.logistic", _logistic, 2.5, domain=(-110, 90)),
    Function("sin", "xla.sine", np.sin, 1.0, method="polynomial in f64, rounded once"),
    Function("cos", "xla.cosine", np.cos, 1.0, method="polynomial in f64, rounded once"),
    Function("tan", "xla.tan", np.tan, 1.0, method="polynomial in f64, rounded once"),
    Function("atan", "xla.exponential", np.arctan, 1.0, "math.atan", method="polynomial in f64, rounded once"),
    Function("atan2", "xla.atan2", np.arctan2, 1.0, arity=2, method="polynomial in f64, rounded once"),
    Function("erf", "chlo.erf", _ref_erf, 2.0, domain=(-5, 5)),
    Function("erfc", "chlo.erfc", _ref_erfc, 3.5, domain=(-5, 11)),
    Function("pow", "xla.power", np.power, 1.0, arity=2, method="polynomial in f64, rounded once"),
    Function("cbrt", "xla.cbrt", np.cbrt, 1.0, method="bit estimate + 2 Halley steps in f64"),
    Function("rsqrt", "xla.rsqrt", lambda x: 1 / np.sqrt(x), 2.0, method="1 / sqrt (f32)"),
]}


def program(f: Function, n: int, element: str = "f32") -> str:
    t = f"tensor<{n}x{element}>"
    args = ", ".join(f"%a{i}: {t}" for i in range(f.arity))
    operands = ", ".join(f"%a{i}" for i in range(f.arity))
    if f.xla_op.startswith("chlo."):
        body = f"%0 = {f.xla_op} {operands} : {t} -> {t}"
    else:
        body = f"%0 = {f.xla_op} {operands} : {t}"
    return f"func.func @main({args}) -> {t} {{\n  {body}\n  func.return %0 : {t}\n}}\n"


def compile_function(f: Function, n: int, element: str = "f32") -> Callable[..., np.ndarray]:
    """The compiled function on `n` elements of `element` (f32, f16, bf16)."""
    if f.math_op is None:
        from xla_tools.compiler import compile

        return compile(program(f, n, element))  # pyright: ignore[reportReturnType]
    from xdsl.dialects import math

    from lowering.to_llvm.common import register_llvm_extensions
    from runtime.executable import load, xla_signatures
    from xla_dialect.context import make_context, parse_module
    from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(program(f, n, element), "<math_accuracy>", ctx)
    signatures = xla_signatures(module)
    split = LOWER_TO_LLVM.index("math-polynomial-approximation")
    run_passes(module, LOWER_TO_LLVM[:split], ctx)
    cls = {op.name: op for op in vars(math).values() if isinstance(op, type) and hasattr(op, "name")}[f.math_op]
    for op in list(module.walk()):
        if isinstance(op, math.ExpOp):
            new = cls.create(operands=list(op.operands), result_types=[r.type for r in op.results])
            op.parent_block().insert_op_before(new, op)  # pyright: ignore[reportOptionalMemberAccess]
            op.results[0].replace_all_uses_with(new.results[0])
            op.detach()
            op.erase()
    run_passes(module, LOWER_TO_LLVM[split:], ctx)
    return load(module, signatures).executable("main")  # pyright: ignore[reportReturnType]


# ---------------------------------------------------------------------------
# Samples and ULP errors
# ---------------------------------------------------------------------------


def sample(n: int, seed: int = 0, domain: tuple[float, float] | None = None) -> np.ndarray:
    """About n f32 values covering the whole range: every binade of both signs
    (log-uniform), subnormals, specials, and (half of them) the `domain`; at least
    the ~12,400 fixed ones (specials, thresholds, neighbours of multiples of pi/2)."""
    rng = np.random.default_rng(seed)
    special = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0**-149, -(2.0**-149), 2.0**-126, 2.0**-127,
         np.float32(3.4028235e38), -np.float32(3.4028235e38)], np.float32
    )
    thresholds = np.array([88.72283, 88.72284, -103.97207, -103.972084, -87.33655, -87.33654, 128.0, -149.0,
                           -150.0, -149.5, 127.99999, 9.01, -17.3, 0.5, 0.75, 2.0, 10.05, 10.06], np.float32)
    near = np.concatenate([np.nextafter(thresholds, np.float32(np.inf)), np.nextafter(thresholds, -np.float32(np.inf))])
    # Floats next to multiples of pi/2 over the whole range.
    k = np.round(np.exp(rng.uniform(0, np.log(2.0**127), 4096)))
    mult = (k * (np.pi / 2)).astype(np.float32)
    pio2 = np.concatenate([mult, np.nextafter(mult, np.float32(np.inf)), np.nextafter(mult, np.float32(0))])
    m = max(n - special.size - near.size - thresholds.size - pio2.size, 0)  # the fixed points alone for a small n
    bits = rng.integers(0, 2**31, m // 2, dtype=np.uint32)  # uniform bit patterns: log-uniform per binade
    signs = rng.integers(0, 2, m // 2, dtype=np.uint32) << 31
    everywhere = (bits | signs).view(np.float32)
    lo, hi = domain if domain is not None else (-8.0, 8.0)
    dense = rng.uniform(lo, hi, m - m // 2).astype(np.float32)
    return np.concatenate([special, thresholds, near, pio2, everywhere, dense]).astype(np.float32)


def ulp_error(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of the f32 ulp at want (the subnormal ulp below 2^-126;
    at overflow, the ulp of FLT_MAX). 0 where both are NaN or equal; inf where one
    is NaN and the other not."""
    with np.errstate(over="ignore", invalid="ignore"):
        got64 = got.astype(np.float64)
        want32 = want.astype(np.float32)
    a = np.abs(want)
    exponent = np.floor(np.log2(np.maximum(a, 2.0**-126), where=np.isfinite(a), out=np.zeros_like(a)))
    ulp = np.where(np.isfinite(a), 2.0 ** (np.maximum(exponent, -126) - 23), 2.0 ** (127 - 23))
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(got64 - want) / ulp
    both_nan = np.isnan(got64) & np.isnan(want)
    same = (got64 == want) | (np.isinf(want32) & (got == want32))
    err = np.where(both_nan | same, 0.0, err)
    err = np.where(np.isnan(got64) != np.isnan(want), np.inf, err)
    infinite = np.isinf(got64) | np.isinf(want32)
    err = np.where(infinite & (got64 != want32) & ~np.isnan(got64), np.inf, err)
    return np.nan_to_num(err, nan=np.inf)


def inputs(f: Function, n: int, seed: int = 0) -> list[np.ndarray]:
    if f.arity == 1:
        return [sample(n, seed, f.domain)]
    rng = np.random.default_rng(seed + 1)
    x, y = sample(n, seed, f.domain), sample(n, seed + 7, f.domain)
    if f.name == "pow":  # bases near 1 and exponents that keep results finite, and integers
        base = rng.uniform(0.0, 4.0, n // 4).astype(np.float32)
        x[: n // 4] = np.where(rng.random(n // 4) < 0.5, base, -base)
        y[: n // 4] = rng.uniform(-60, 60, n // 4).astype(np.float32)
        y[n // 4: n // 2] = np.round(rng.uniform(-50, 50, n // 2 - n // 4)).astype(np.float32)
        x[n // 4: n // 2] = rng.uniform(-3, 3, n // 4).astype(np.float32)
    return [x, y]


def reference(f: Function, args: list[np.ndarray]) -> np.ndarray:
    with np.errstate(all="ignore"):
        return f.reference(*[a.astype(np.float64) for a in args])


def measure(f: Function, n: int = N_DEFAULT, seed: int = 0, run: Callable[..., np.ndarray] | None = None) -> tuple[float, np.ndarray, list[np.ndarray]]:
    """(max ulp error, errors, inputs) over the sample."""
    args = inputs(f, n, seed)
    if run is None:
        run = compile_function(f, args[0].size)
    got = run(*args)
    errors = ulp_error(got, reference(f, args))
    return float(errors.max()), errors, args


def _mp_reference(name: str):
    """The mpmath function behind `name` (f64 measurement)."""
    import mpmath

    table = {
        "exp2": lambda x: mpmath.power(2, x), "log2": lambda x: mpmath.log(x, 2), "log10": mpmath.log10,
        "logistic": lambda x: 1 / (1 + mpmath.exp(-x)), "pow": mpmath.power, "rsqrt": lambda x: 1 / mpmath.sqrt(x),
        "cbrt": lambda x: mpmath.cbrt(x) if x >= 0 else -mpmath.cbrt(-x), "atan2": mpmath.atan2,
    }
    return table.get(name) or getattr(mpmath, name)


def measure_f64(f: Function, n: int = 4000, seed: int = 0) -> tuple[float, tuple[float, ...]]:
    """(max ulp error, worst input) of the f64 function (libm, or CHLO's f64 expansion)
    against mpmath at 160 bits, on the f32 sample widened plus uniform f64 bit patterns;
    where NumPy's float64 value is NaN, an input is not finite or zero (signed zeros:
    atan2(-0, -0) = -pi), that value is the reference (NaN must stay NaN)."""
    import mpmath

    from xla_tools.complex_accuracy import ulp_error as mp_ulp_error

    rng = np.random.default_rng(seed)
    args32 = inputs(f, n // 2, seed)
    args = []
    for a in args32:
        bits = rng.integers(0, 2**64, max(n - a.size, 0), dtype=np.uint64).view(np.float64)
        bits = np.where(np.isnan(bits), 1.0, bits)
        with np.errstate(invalid="ignore"):
            args.append(np.concatenate([a.astype(np.float64), bits]))
    n = args[0].size
    got = compile_function(f, n, "f64")(*args)
    with np.errstate(all="ignore"):
        approx = f.reference(*args)
    fn = _mp_reference(f.name)
    worst, where = 0.0, tuple(float(a[0]) for a in args)
    with mpmath.workprec(160):
        for i in range(n):
            xs = [float(a[i]) for a in args]
            g = float(got[i])
            if np.isnan(approx[i]) or not all(np.isfinite(xs)):
                ok = (np.isnan(g) and np.isnan(approx[i])) or g == approx[i]
                err = 0.0 if ok else np.inf
            else:
                try:
                    exact = fn(*[mpmath.mpf(x) for x in xs])
                except (ZeroDivisionError, ValueError, OverflowError):
                    exact = mpmath.mpf(float(approx[i]))  # mpmath's erfc(1e300): NumPy's 0
                if 0.0 in xs:  # signed zeros (atan2(-0, -0) = -pi): NumPy's exact constant
                    exact = mpmath.mpf(float(approx[i]))
                if isinstance(exact, mpmath.mpc) or not mpmath.isfinite(exact):
                    err = 0.0 if g == approx[i] else np.inf
                else:
                    err = mp_ulp_error(g, exact, np.float64)
            if err > worst:
                worst, where = err, tuple(xs)
    return worst, where


# ---------------------------------------------------------------------------
# The table in docs/math_accuracy.md
# ---------------------------------------------------------------------------

TABLE_BEGIN = "<!-- math_accuracy f32 table: begin -->"
TABLE_END = "<!-- math_accuracy f32 table: end -->"
TABLE_HEADER = ("| function | type | max ulp measured | bound asserted | method |", "|---|---|---|---|---|")


def _cells(line: str) -> list[str]:
    """The first four cells of a table row, stripped, and the rest of the row as written
    (a method may hold `|` in code)."""
    parts = line.strip().removeprefix("|").split("|", 4)
    return [c.strip() for c in parts[:4]] + parts[4:]


def update_table(text: str, rows: list[tuple[str, float, Function]]) -> str:
    """`text` with the f32 rows of the measured functions updated in the table
    between `TABLE_BEGIN` and `TABLE_END` (measured maximum and asserted bound; the
    method cell as written by hand). A function with no f32 row yet gets one at
    the end of the table. Everything else is kept. ValueError without the markers."""
    lines = text.split("\n")
    try:
        begin = lines.index(TABLE_BEGIN)
        end = lines.index(TABLE_END, begin + 1)
    except ValueError:
        raise ValueError(f"no table between the lines '{TABLE_BEGIN}' and '{TABLE_END}'") from None
    table = lines[begin + 1 : end]
    if not any(line.startswith("|") for line in table):
        table = [*TABLE_HEADER]
    measured = {name: (worst, f) for name, worst, f in rows}
    seen: set[str] = set()
    for i, line in enumerate(table):
        cells = _cells(line) if line.startswith("|") else []
        if len(cells) >= 5 and cells[1] == "f32" and cells[0] in measured:
            worst, f = measured[cells[0]]
            table[i] = f"| {cells[0]} | f32 | {worst:.2f} | {f.bound} |{cells[4]}"
            seen.add(cells[0])
    rows_at = [i for i, line in enumerate(table) if line.startswith("|")]
    f32_at = [i for i in rows_at if len(_cells(table[i])) >= 2 and _cells(table[i])[1] == "f32"]
    last = (f32_at or rows_at)[-1]
    added = [f"| {n} | f32 | {w:.2f} | {f.bound} | {f.method} |" for n, (w, f) in measured.items() if n not in seen]
    table[last + 1 : last + 1] = added
    return "\n".join([*lines[: begin + 1], *table, *lines[end:]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--points", type=int, default=N_DEFAULT)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--f64", type=int, metavar="N", help="measure the f64 functions on N points instead")
    options = parser.parse_args()
    unknown = [name for name in options.names if name not in FUNCTIONS]
    if unknown:
        raise SystemExit(f"math_accuracy: unknown function(s) {', '.join(unknown)}; known: {', '.join(FUNCTIONS)}")
    if options.f64:
        for name in options.names or FUNCTIONS:
            worst, at = measure_f64(FUNCTIONS[name], options.f64)
            print(f"{name:9s} f64 max {worst:6.3f} ulp at {at}", flush=True)
        return
    if options.markdown:  # before minutes of measuring: the file must hold the table's markers
        try:
            update_table(options.markdown.read_text(), [])
        except (OSError, ValueError) as err:
            raise SystemExit(f"math_accuracy: --markdown {options.markdown}: {err}") from None
    rows = []
    for name in options.names or FUNCTIONS:
        f = FUNCTIONS[name]
        worst, errors, args = measure(f, options.points)
        where = int(np.argmax(errors))
        at = ", ".join(f"{a[where]!r}" for a in args)
        print(f"{name:9s} max {worst:6.3f} ulp (bound {f.bound}) at ({at})", flush=True)
        rows.append((name, worst, f))
    if options.markdown:
        try:
            options.markdown.write_text(update_table(options.markdown.read_text(), rows))
        except (OSError, ValueError) as err:
            raise SystemExit(f"math_accuracy: --markdown {options.markdown}: {err}") from None


if __name__ == "__main__":
    main()
