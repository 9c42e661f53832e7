"""The f8/f6/f4 float types through `lower-to-llvm`, bit for bit against ml_dtypes.

Every case is one function of a single module, compiled once. The compiled
code stores these types as bytes and computes in f32, rounding after each op
(`arith-emulate-unsupported-floats`), so every result is compared with
ml_dtypes' conversion of the f32 result, bit pattern by bit pattern:

* narrow -> f32 over all 256 (64, 16) bit patterns (NaNs: the same sign and a
  NaN; ml_dtypes gives the canonical quiet NaN);
* f32 -> narrow over every f32 bit pattern that matters: each narrow value, the
  midpoints between neighbours and one f32 ulp either side of them (the
  rounding ties), values beyond the largest finite one, infinities, NaNs of both
  signs, f32 subnormals and random values over the whole range; f64 -> narrow
  likewise (through f32, as ml_dtypes rounds: values one f64 ulp off a tie
  round twice there, and here);
* narrow -> narrow between formats;
* add, multiply, maximum and a dot product, against the f32 results rounded;
* dense (non-splat) constants and splats, read back byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

TYPES: dict[str, type] = {
    "f8E3M4": ml_dtypes.float8_e3m4,
    "f8E4M3": ml_dtypes.float8_e4m3,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f6E2M3FN": ml_dtypes.float6_e2m3fn,
    "f6E3M2FN": ml_dtypes.float6_e3m2fn,
    "f4E2M1FN": ml_dtypes.float4_e2m1fn,
}
WIDTH = {name: 8 if name.startswith("f8") else int(name[1]) for name in TYPES}
N = 64  # elements of the element-wise cases


def all_values(name: str) -> np.ndarray:
    """Every bit pattern of the type, as an array of it."""
    return np.arange(1 << WIDTH[name], dtype=np.uint8).view(TYPES[name])


def rounding_probes(name: str, dtype: np.dtype) -> np.ndarray:
    """Values of `dtype` (f32/f64) around every rounding decision of the type."""
    values = all_values(name).astype(np.float64)
    finite = np.unique(values[np.isfinite(values)])
    mids = (finite[:-1] + finite[1:]) / 2
    big = float(ml_dtypes.finfo(TYPES[name]).max)
    extra = np.array([big * 1.0625, big * 1.125, big * 1.5, big * 4, 1e30, np.inf, -np.inf, 0.0, -0.0])
    base = np.concatenate([finite, mids, -mids, extra, -extra]).astype(dtype)
    up = np.nextafter(base, np.array(np.inf, dtype))
    down = np.nextafter(base, np.array(-np.inf, dtype))
    info = np.finfo(dtype)
    special = np.array([np.nan, -np.nan, info.smallest_subnormal, -info.smallest_subnormal, info.max], dtype)
    bits_t = np.uint32 if dtype == np.float32 else np.uint64
    top = bits_t(1) << bits_t(8 * dtype.itemsize - 1)
    exponent_all = np.array(np.inf, dtype).view(bits_t)
    payload_nans = np.array([exponent_all | bits_t(1), exponent_all | bits_t(3) | top], bits_t).view(dtype)
    random = np.random.default_rng(7).standard_normal(256) * np.exp2(
        np.random.default_rng(8).integers(-20, 20, 256)
    )
    probes = np.concatenate([base, up, down, special, payload_nans, random.astype(dtype)])
    return probes.astype(dtype)


def rounded(x: np.ndarray, dt: type) -> np.ndarray:
    """ml_dtypes' conversion of `x` to `dt` (its NaN/overflow casts are intended)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(x).astype(dt)


def same_bits(actual: np.ndarray, expected: np.ndarray) -> None:
    a = np.asarray(actual).view(np.uint8)
    e = np.asarray(expected).view(np.uint8)
    bad = np.nonzero(a != e)[0]
    assert bad.size == 0, f"{bad.size} mismatches, first at {bad[:5]}: got {a[bad[:5]]}, want {e[bad[:5]]}"


def same_results(actual: np.ndarray, expected: np.ndarray) -> None:
    """`same_bits`, except that a NaN result matches any NaN: IEEE 754 leaves a NaN
    result's sign unspecified, x86 returns its first operand's NaN, and LLVM may swap
    the operands of an addition or a product (it did on Zen 3, to fold a load), so
    NaN + NaN of opposite signs has either sign."""
    a, e = np.asarray(actual), np.asarray(expected)
    both_nan = np.isnan(a.astype(np.float32)) & np.isnan(e.astype(np.float32))
    same_bits(np.where(both_nan, e, a), e)


def same_f32(actual: np.ndarray, expected: np.ndarray) -> None:
    """Equal f32 bit patterns, except that any NaN matches a NaN of its sign."""
    a, e = np.asarray(actual, np.float32), np.asarray(expected, np.float32)
    nan = np.isnan(e)
    assert np.array_equal(np.isnan(a), nan)
    assert np.array_equal(np.signbit(a[nan]), np.signbit(e[nan]))
    assert np.array_equal(a[~nan].view(np.uint32), e[~nan].view(np.uint32))


@dataclass
class Case:
    name: str
    text: str  # the function
    inputs: Callable[[], list[np.ndarray]]
    check: Callable[[list[np.ndarray], np.ndarray], None]


def _tensor(t: str, shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def _func(name: str, params: list[str], body: list[str], result: str) -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
    lines = "\n    ".join(body)
    return f"  func.func @{name}({args}) -> {result} {{\n    {lines}\n    func.return %r : {result}\n  }}"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for name, dt in TYPES.items():
        count = 1 << WIDTH[name]
        narrow = _tensor(name, (count,))
        f32t = _tensor("f32", (count,))
        cases.append(
            Case(
                f"{name}_to_f32",
                _func(f"{name}_to_f32", [narrow], [f"%r = xla.convert %a0 : ({narrow}) -> {f32t}"], f32t),
                lambda name=name: [all_values(name)],
                lambda args, got: same_f32(got, args[0].astype(np.float32)),
            )
        )
        for wide, wide_np in (("f32", np.float32), ("f64", np.float64)):
            probes = rounding_probes(name, np.dtype(wide_np))
            src, dst = _tensor(wide, probes.shape), _tensor(name, probes.shape)
            fn = f"{wide}_to_{name}"
            cases.append(
                Case(
                    fn,
                    _func(fn, [src], [f"%r = xla.convert %a0 : ({src}) -> {dst}"], dst),
                    lambda probes=probes: [probes],
                    lambda args, got, dt=dt: same_bits(got, rounded(args[0], dt)),
                )
            )
        t = _tensor(name, (N,))
        for op, ref in (("add", np.add), ("multiply", np.multiply), ("maximum", np.maximum)):
            fn = f"{op}_{name}"

            def inputs(width: int = WIDTH[name], dt: type = dt) -> list[np.ndarray]:
                rng = np.random.default_rng(width)
                bits = rng.integers(0, 1 << width, (2, N)).astype(np.uint8)
                return [bits[0].view(dt), bits[1].view(dt)]

            def check(args: list[np.ndarray], got: np.ndarray, ref=ref, dt=dt) -> None:
                exact = ref(args[0].astype(np.float32), args[1].astype(np.float32))
                same_results(got, exact.astype(dt))

            cases.append(Case(fn, _func(fn, [t, t], [f"%r = xla.{op} %a0, %a1 : {t}"], t), inputs, check))
        # a dot product: the products and the running sum each rounded to the type
        vec = _tensor(name, (6,))
        scalar = _tensor(name, ())
        fn = f"dot_{name}"

        def dot_inputs(dt: type = dt) -> list[np.ndarray]:
            return [
                np.array([0.5, 1.0, -1.5, 2.0, 0.25, 0.75], np.float32).astype(dt),
                np.array([1.0, 1.5, 0.5, -0.5, 2.0, 1.0], np.float32).astype(dt),
            ]

        def dot_check(args: list[np.ndarray], got: np.ndarray, dt: type = dt) -> None:
            acc = np.array(0.0, np.float32).astype(dt)
            for x, y in zip(args[0], args[1], strict=True):
                product = (np.float32(x) * np.float32(y)).astype(dt)
                acc = (np.float32(acc) + np.float32(product)).astype(dt)
            same_bits(np.asarray(got).reshape(1), np.asarray(acc).reshape(1))

        cases.append(
            Case(
                fn,
                _func(
                    fn,
                    [vec, vec],
                    [f"%r = xla.dot_general %a0, %a1, contracting_dims = [0] x [0] : ({vec}, {vec}) -> {scalar}"],
                    scalar,
                ),
                dot_inputs,
                dot_check,
            )
        )
        # constants: a dense literal and a splat, bit for bit
        values = all_values(name)
        finite = values[np.isfinite(values.astype(np.float32))][:8]
        literal = ", ".join(repr(float(v)) for v in finite.astype(np.float64))
        ct = _tensor(name, (len(finite),))
        fn = f"constant_{name}"
        cases.append(
            Case(
                fn,
                _func(
                    fn,
                    [ct],
                    [
                        f"%c = xla.constant dense<[{literal}]> : {ct}",
                        f"%one = xla.constant dense<1.0> : {ct}",
                        f"%s = xla.multiply %c, %one : {ct}",
                        f"%r = xla.add %s, %a0 : {ct}",
                    ],
                    ct,
                ),
                lambda finite=finite, dt=dt: [np.zeros(finite.size, np.float32).astype(dt)],
                lambda args, got, finite=finite, dt=dt: same_bits(
                    got, (finite.astype(np.float32) + np.float32(0)).astype(dt)
                ),
            )
        )
    # between formats: every pattern of one through f32 into the other
    for src, dst in (("f8E5M2", "f8E4M3FN"), ("f8E4M3FN", "f8E5M2"), ("f6E3M2FN", "f8E4M3FNUZ"), ("f8E3M4", "f4E2M1FN")):
        count = 1 << WIDTH[src]
        a, b = _tensor(src, (count,)), _tensor(dst, (count,))
        fn = f"{src}_to_{dst}"
        cases.append(
            Case(
                fn,
                _func(fn, [a], [f"%r = xla.convert %a0 : ({a}) -> {b}"], b),
                lambda src=src: [all_values(src)],
                lambda args, got, dst=dst: same_bits(got, args[0].astype(np.float32).astype(TYPES[dst])),
            )
        )
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def module_text() -> str:
    return "builtin.module {\n" + "\n".join(c.text for c in CASES) + "\n}\n"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_narrow_float(case: Case, module_text: str) -> None:
    f = compile(module_text, entry=case.name)
    args = case.inputs()
    case.check(args, f(*args))
