"""`math-polynomial-approximation`: accuracy measured over the whole f32 range, exact special values.

Each function is compiled once per module through the real pipeline
(`xla_tools.math_accuracy.compile_function`) and run on ~260k points spread over
every binade of both signs, subnormals, thresholds and near-multiples of pi/2
up to 2^127; the max ULP error against float64 NumPy/SciPy must stay within the
bound of `xla_tools.math_accuracy.FUNCTIONS` (also the table in
docs/math_accuracy.md). A subset is checked against mpmath at 50 digits, special
values bit for bit, and f16/bf16 against the f32 result rounded once.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import ml_dtypes
import mpmath
import numpy as np
import pytest

from lowering.math_approximation.builder import native_ldexp_default
from xla_tools.math_accuracy import (
    FUNCTIONS,
    Function,
    compile_function,
    inputs,
    reference,
    ulp_error,
)

N = 1 << 18

Compiled = Callable[..., np.ndarray]


@pytest.fixture(scope="module")
def compiled() -> dict[str, Compiled]:
    return {name: compile_function(f, N) for name, f in FUNCTIONS.items()}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_max_ulp_error(compiled: dict[str, Compiled], name: str) -> None:
    f = FUNCTIONS[name]
    args = inputs(f, N, seed=3)
    errors = ulp_error(compiled[name](*args), reference(f, args))
    worst = int(np.argmax(errors))
    assert errors[worst] <= f.bound, f"{name}{tuple(a[worst] for a in args)}: {errors[worst]} ulp"


MPMATH: dict[str, Callable[..., mpmath.mpf]] = {
    "exp": mpmath.exp, "log": mpmath.log, "tanh": mpmath.tanh, "sin": mpmath.sin, "cos": mpmath.cos,
    "tan": mpmath.tan, "erf": mpmath.erf, "erfc": mpmath.erfc, "expm1": mpmath.expm1, "log1p": mpmath.log1p,
}


@pytest.mark.parametrize("name", list(MPMATH))
def test_against_mpmath(compiled: dict[str, Compiled], name: str) -> None:
    """A spot check of the float64 reference: mpmath at 50 digits on 300 points,
    among them the largest arguments (where sin/cos/tan need the exact reduction)."""
    f = FUNCTIONS[name]
    rng = np.random.default_rng(11)
    args = inputs(f, N, seed=5)[0]
    finite = args[np.isfinite(args)]
    points = np.concatenate([rng.choice(finite, 200), np.sort(np.abs(finite))[-100:]])
    padded = np.resize(points, N).astype(np.float32)
    got = compiled[name](padded)[: points.size]
    with mpmath.workdps(50):
        want = np.array([_mp_eval(MPMATH[name], float(x)) for x in points])
    errors = ulp_error(got, want)
    assert errors.max() <= f.bound, f"{name}({points[np.argmax(errors)]!r})"


def _mp_eval(fn: Callable[..., mpmath.mpf], x: float) -> float:
    try:
        y = fn(mpmath.mpf(x))
    except (ValueError, ZeroDivisionError):
        return math.nan
    return float(y) if isinstance(y, mpmath.mpf) else math.nan


INF, NAN = math.inf, math.nan
SPECIAL: dict[str, list[tuple[tuple[float, ...], float]]] = {
    "exp": [((0.0,), 1.0), ((-0.0,), 1.0), ((INF,), INF), ((-INF,), 0.0), ((NAN,), NAN), ((89.0,), INF),
            ((-104.0,), 0.0), ((-103.0,), float(np.exp(np.float64(-103.0)).astype(np.float32)))],
    "exp2": [((128.0,), INF), ((-149.0,), 2.0**-149), ((-150.0,), 0.0), ((-126.0,), 2.0**-126), ((3.0,), 8.0),
             ((-INF,), 0.0), ((NAN,), NAN)],
    "expm1": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), INF), ((-INF,), -1.0), ((NAN,), NAN), ((-2.0**-149,), -(2.0**-149))],
    "log": [((0.0,), -INF), ((-0.0,), -INF), ((-1.0,), NAN), ((INF,), INF), ((1.0,), 0.0), ((NAN,), NAN), ((-INF,), NAN)],
    "log2": [((2.0**-149,), -149.0), ((8.0,), 3.0), ((0.0,), -INF), ((INF,), INF)],
    "log10": [((1000.0,), 3.0), ((0.0,), -INF), ((-2.0,), NAN)],
    "log1p": [((0.0,), 0.0), ((-0.0,), -0.0), ((-1.0,), -INF), ((-2.0,), NAN), ((INF,), INF), ((2.0**-149,), 2.0**-149)],
    "tanh": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), 1.0), ((-INF,), -1.0), ((NAN,), NAN), ((-(2.0**-149),), -(2.0**-149))],
    "logistic": [((0.0,), 0.5), ((INF,), 1.0), ((-INF,), 0.0), ((NAN,), NAN)],
    "sin": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), NAN), ((-INF,), NAN), ((NAN,), NAN), ((2.0**-149,), 2.0**-149)],
    "cos": [((0.0,), 1.0), ((-0.0,), 1.0), ((INF,), NAN), ((NAN,), NAN)],
    "tan": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), NAN)],
    "atan": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), float(np.float32(math.pi / 2))), ((-INF,), -float(np.float32(math.pi / 2)))],
    "atan2": [((0.0, 0.0), 0.0), ((-0.0, 0.0), -0.0), ((0.0, -0.0), float(np.float32(math.pi))),
              ((-0.0, -0.0), -float(np.float32(math.pi))), ((1.0, 0.0), float(np.float32(math.pi / 2))),
              ((INF, INF), float(np.float32(math.pi / 4))), ((INF, -INF), float(np.float32(3 * math.pi / 4))),
              ((-1.0, INF), -0.0), ((1.0, -INF), float(np.float32(math.pi))), ((NAN, 1.0), NAN)],
    "erf": [((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), 1.0), ((-INF,), -1.0), ((NAN,), NAN), ((4.0,), 1.0)],
    "erfc": [((INF,), 0.0), ((-INF,), 2.0), ((0.0,), 1.0), ((NAN,), NAN), ((11.0,), 0.0)],
    "pow": [((NAN, 0.0), 1.0), ((1.0, NAN), 1.0), ((-1.0, INF), 1.0), ((-2.0, 0.5), NAN), ((-2.0, 3.0), -8.0),
            ((-0.0, -3.0), -INF), ((-0.0, -2.0), INF), ((0.0, -1.0), INF), ((-0.0, 3.0), -0.0), ((-0.0, 0.5), 0.0),
            ((-INF, 3.0), -INF), ((-INF, -3.0), -0.0), ((-INF, 0.5), INF), ((0.5, INF), 0.0), ((2.0, INF), INF),
            ((0.5, -INF), INF), ((2.0, -INF), 0.0), ((INF, -1.0), 0.0), ((2.0, 0.5), float(np.float32(math.sqrt(2)))),
            ((2.0, -149.0), 2.0**-149), ((2.0, 128.0), INF), ((NAN, 1.0), NAN), ((-3.0, 2.0**25), INF)],
    "cbrt": [((27.0,), 3.0), ((-8.0,), -2.0), ((0.0,), 0.0), ((-0.0,), -0.0), ((INF,), INF), ((-INF,), -INF),
             ((NAN,), NAN), ((2.0**-147,), 2.0**-49)],
}


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_values(compiled: dict[str, Compiled], name: str) -> None:
    cases = SPECIAL[name]
    arity = FUNCTIONS[name].arity
    args = [np.resize(np.array([c[0][i] for c in cases], np.float32), N) for i in range(arity)]
    got = compiled[name](*args)[: len(cases)]
    for (inp, want), value in zip(cases, got):
        if math.isnan(want):
            assert np.isnan(value), f"{name}{inp} = {value}, want NaN"
        else:
            assert np.float32(want).tobytes() == np.float32(value).tobytes(), f"{name}{inp} = {value!r}, want {want!r}"


NARROW = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}


@pytest.mark.parametrize("element", list(NARROW))
@pytest.mark.parametrize("name", ["exp", "tanh", "log", "sin", "erf", "expm1"])
def test_narrow_types_round_the_f32_result(compiled: dict[str, Compiled], element: str, name: str) -> None:
    """f16/bf16 compute in f32 and round the f32 result once."""
    dtype = NARROW[element]
    n = 1 << 12
    f: Function = FUNCTIONS[name]
    run = compile_function(f, n, element)
    bits = np.arange(n, dtype=np.uint32) * (65536 // n) + 7
    x = bits.astype(np.uint16).view(dtype)
    wide = compiled[name](np.resize(x.astype(np.float32), N))[:n]
    got = run(x)
    with np.errstate(over="ignore", invalid="ignore"):
        want = wide.astype(dtype)
    same = (got.view(np.uint16) == want.view(np.uint16)) | (np.isnan(got.astype(np.float32)) & np.isnan(wide))
    assert same.all(), f"{name} {element}: {x[~same][:4]} -> {got[~same][:4]}, want {want[~same][:4]}"


LIBM = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh", "sin", "cos", "tan", "atan", "atan2",
    "erf", "erfc", "pow", "cbrt", "sqrt", "sinh", "cosh",
})


def test_no_libm_calls_left() -> None:
    """Every f32 function is inline code: no call stops LLVM's loop vectorizer."""
    from xdsl.dialects import llvm

    from lowering.to_llvm.common import register_llvm_extensions
    from xla_dialect.context import make_context, parse_module
    from xla_tools.math_accuracy import program
    from xla_tools.pipelines import lower_to_llvm

    for f in FUNCTIONS.values():
        ctx = make_context()
        register_llvm_extensions(ctx)
        module = parse_module(program(f, 64), "<test>", ctx)
        lower_to_llvm(module, ctx)
        calls = [op for op in module.walk() if isinstance(op, llvm.CallOp) and op.callee.string_value().rstrip("f") in LIBM]
        intrinsics = {op.properties["intrin"].data for op in module.walk() if isinstance(op, llvm.CallIntrinsicOp)}  # pyright: ignore
        assert not calls, f"{f.name}: {calls[0]}"
        allowed = ("llvm.fma", "llvm.fabs", "llvm.copysign", "llvm.floor", "llvm.roundeven", "llvm.sqrt")
        # llvm.ldexp is vscalefps with AVX-512 and a libm call without: only there (with
        # llvm.lrint, vcvtps2dq, for its exponent).
        allowed += ("llvm.ldexp", "llvm.lrint") if native_ldexp_default() else ()
        assert all(i.startswith(allowed) for i in intrinsics), f"{f.name}: {intrinsics}"


SCALED = ["exp", "exp2", "erf", "erfc", "logistic", "tanh"]
"""The functions that scale by 2^k with `Emitter.ldexp`."""


@pytest.mark.parametrize("name", SCALED)
def test_ldexp_forms_agree_bit_for_bit(compiled: dict[str, Compiled], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`llvm.ldexp` (vscalefps) and the two factors built from bits both round x 2^k once:
    the same bits everywhere, subnormal results, overflow and the thresholds included."""
    from lowering.math_approximation import builder

    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    monkeypatch.setattr(builder, "native_ldexp_default", lambda: not native_ldexp_default())
    other = compile_function(FUNCTIONS[name], N)
    args = inputs(FUNCTIONS[name], N, seed=5)
    ours, theirs = compiled[name](*args), other(*args)
    same = (ours.view(np.uint32) == theirs.view(np.uint32)) | (np.isnan(ours) & np.isnan(theirs))
    assert same.all(), f"{name}({args[0][~same][0]}): {ours[~same][0]} vs {theirs[~same][0]}"


DIVIDING = ["tanh", "logistic", "erfc"]
"""The functions that divide with `Emitter.quotient`."""


@pytest.mark.parametrize("name", DIVIDING)
def test_division_forms_agree_bit_for_bit(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refined reciprocal and its correction step (`Emitter.quotient`, on Intel's
    AVX-512 targets) give the quotient the division gives, in the 512-bit loop, its
    narrower epilogue (`vrcpps`, 12 bits) and the scalar remainder (N + 37 elements),
    special values included, but for quotients within ~2^-47 of a rounding tie, which may
    round the other way: 1 ulp, rare (logistic near x = 1e-7, where 1 + e^-x is 2 - 2^-23
    and 1 / (2 - 2^-23) is 2^-49 above a tie: 210 of 2^18 samples). Both forms are
    compiled (one has `arcp` divisions); their accuracy is `test_max_ulp_error`'s."""
    from collections import OrderedDict

    from lowering.math_approximation import builder
    from xla_tools import compiler

    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    f, n = FUNCTIONS[name], N + 37
    args = inputs(f, n, seed=7)
    results, irs = [], []
    for reciprocal in (False, True):
        monkeypatch.setattr(compiler, "_CACHE", OrderedDict())
        monkeypatch.setattr(builder, "reciprocal_division_default", lambda reciprocal=reciprocal: reciprocal)
        fn = compile_function(f, n)
        results.append(fn(*args))
        irs.append(fn._jit.optimized_ir)  # pyright: ignore[reportFunctionMemberAccess]
    assert "arcp" not in irs[0] and "fdiv ninf arcp contract" in irs[1]
    ours, theirs = results
    same = (ours.view(np.uint32) == theirs.view(np.uint32)) | (np.isnan(ours) & np.isnan(theirs))
    assert np.count_nonzero(~same) <= n // 1000, f"{name}: {np.count_nonzero(~same)} differ, e.g. at {args[0][~same][:4]}"
    steps = np.abs(ours.view(np.int32).astype(np.int64) - theirs.view(np.int32).astype(np.int64))
    assert (steps[~same] <= 1).all(), f"{name}({args[0][~same][0]}): {ours[~same][0]} vs {theirs[~same][0]}"


NAN_BITS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x7FC12345]
"""Quiet and signalling NaNs of both signs, payloads included."""


@pytest.mark.parametrize("name", SCALED)
def test_every_nan_gives_nan(name: str) -> None:
    """Where the target has AVX-512 the NaN goes through the clamps, `llvm.lrint` and
    `llvm.ldexp` with no select for it: any NaN, in the lanes of the vector loop and in
    its scalar remainder (37 elements), must come out NaN."""
    x = np.resize(np.array(NAN_BITS, dtype=np.uint32).view(np.float32), 37).copy()
    x[1::7] = 0.5  # ordinary lanes beside them stay ordinary
    got = compile_function(FUNCTIONS[name], x.size)(x)
    assert np.isnan(got[np.isnan(x)]).all(), f"{name}: {got[np.isnan(x)][~np.isnan(got[np.isnan(x)])][:4]}"
    assert np.isfinite(got[1::7]).all()


@pytest.mark.parametrize(("name", "reciprocal"), [("avx512", True), ("avx512vnni", True), ("avx512bf16", True), ("znver4", False), ("avx2", False), ("sse", False)])
def test_which_targets_divide_by_a_reciprocal(name: str, reciprocal: bool) -> None:
    """Intel's AVX-512 cores divide slowly; Zen 4 keeps `vdivps`, measured faster there."""
    from lowering.codegen.target import NAMED_TARGETS

    assert NAMED_TARGETS[name].reciprocal_division is reciprocal


def test_one_plus_tanh_as_logistic() -> None:
    """`1 + tanh(y)` (tanh-GELU's) is expanded with its add as `2 logistic(2y)`: within
    logistic's bound of the float64 `1 + tanh(y)` everywhere, also for y < 0 where the
    sum cancels (a tanh then an add is thousands of ulp off near y = -5 and 0 for y below
    -9.1, where the true value is ~1e-8), with 2 at +inf, 0 at -inf and NaN for NaN."""
    from xla_tools import compile
    from xla_tools.math_accuracy import sample

    n = N + 37  # the vector loop and its remainder
    t = f"tensor<{n}xf32>"
    fn = compile(
        f"func.func @main(%y: {t}) -> {t} {{\n"
        f"  %t = stablehlo.tanh %y : {t}\n"
        f"  %one = stablehlo.constant dense<1.0> : {t}\n"
        f"  %r = stablehlo.add %one, %t : {t}\n"
        f"  func.return %r : {t}\n}}\n"
    )
    y = sample(n, seed=5, domain=(-12.0, 6.0))[:n]
    got = fn(y)
    with np.errstate(all="ignore"):
        want = 1.0 + np.tanh(y.astype(np.float64))
        # 1 + tanh(y) = 2 e^2y / (1 + e^2y), exact where 1 + tanh(y) cancels in float64 too
        low = y < -4
        want[low] = 2.0 * np.exp(2.0 * y[low].astype(np.float64)) / (1.0 + np.exp(2.0 * y[low].astype(np.float64)))
    err = ulp_error(got, want)
    assert err.max() <= FUNCTIONS["logistic"].bound, f"{err.max():.2f} ulp at y = {y[np.argmax(err)]}"
    assert got[y == np.inf].tolist() == [2.0] and got[y == -np.inf].tolist() == [0.0]
    assert np.isnan(got[np.isnan(y)]).all()


def test_half_one_plus_tanh_is_logistic_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """tanh-GELU's `0.5 (1 + tanh(c u))` expanded as `logistic((2c) u)` (no `y + y`, no
    doubling and halving, exp's argument clamped from below only) gives bitwise the
    results of the full `0.5 (2 logistic(y + y))`, specials and subnormals included."""
    import lowering.math_approximation as approximation
    from lowering.math_approximation import exp_log
    from xla_tools import compile
    from xla_tools.math_accuracy import sample

    n = N + 37
    t = f"tensor<{n}xf32>"

    def program(name: str) -> str:
        return (
            f"func.func @{name}(%u: {t}) -> {t} {{\n"
            f"  %c = stablehlo.constant dense<0.797884583> : {t}\n"
            f"  %one = stablehlo.constant dense<1.0> : {t}\n"
            f"  %half = stablehlo.constant dense<0.5> : {t}\n"
            f"  %y = stablehlo.multiply %u, %c : {t}\n"
            f"  %th = stablehlo.tanh %y : {t}\n"
            f"  %s = stablehlo.add %one, %th : {t}\n"
            f"  %r = stablehlo.multiply %half, %s : {t}\n"
            f"  func.return %r : {t}\n}}\n"
        )

    u = sample(n, seed=11, domain=(-60.0, 60.0))[:n]
    u[:8] = [0.0, -0.0, 1e-45, -1e-45, 1.5e-38, -1.5e-38, 3e38, -3e38]
    fast = compile(program("fast"), "fast")(u)
    monkeypatch.setattr(approximation, "_halved", lambda add: None)
    monkeypatch.setattr(approximation, "_times_constant", lambda value: None)
    monkeypatch.setattr(exp_log, "not_positive", lambda x: False)
    full = compile(program("full"), "full")(u)
    assert np.array_equal(fast.view(np.uint32), full.view(np.uint32))
