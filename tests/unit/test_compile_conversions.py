"""`xla.convert`, `xla.bitcast_convert` and `xla.reduce_precision` on every pair of element types, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
from compile_ops_support import (
    ALL,
    DTYPES,
    FLOAT_FORMAT,
    FLOATS,
    Kernels,
    Module,
    array,
    assert_same,
    bits_dtype,
    ids,
    int_range,
    ref_convert,
    rng_for,
    sample,
    ttype,
    width,
)

# ===========================================================================
# Conversions: convert, bitcast_convert, reduce_precision
# ===========================================================================

ELEMENTWISE = Module()


def unary(name: str, op: str, t_in: str, t_out: str, shape: Sequence[int], tail: str = "") -> str:
    """A function applying `op` (printed as `op %a0{tail} : (in) -> out`)."""
    a, r = ttype(t_in, shape), ttype(t_out, shape)
    return ELEMENTWISE.add(name, [a], [f"%r = {op} %a0{tail} : ({a}) -> {r}"], [("%r", r)])


def convert_inputs(t: str) -> np.ndarray:
    """Edge values of a source type: extremes, +-0.5 steps around the integer
    limits, NaN, +-inf, -0.0, denormals."""
    if t == "i1":
        return np.array([False, True, True, False])
    if t in FLOATS:
        values = [
            math.nan,
            -math.nan,
            math.inf,
            -math.inf,
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.99,
            -0.99,
            1.0,
            -1.75,
            2.5,
            127.0,
            127.5,
            128.0,
            -128.0,
            -128.5,
            -129.0,
            255.5,
            256.0,
            -1.0,
            32767.0,
            32768.0,
            -32768.0,
            -32769.0,
            65535.0,
            65536.0,
            2.0**31,
            -(2.0**31),
            2.0**31 + 2.0**9,
            2.0**32,
            -(2.0**32),
            2.0**63,
            -(2.0**63),
            2.0**64,
            1.0e30,
            -1.0e30,
            1.0e-40,
            3.0e38,
            1.0e300,
            -1.0e300,
            5.0e-324,
        ]
        return array(values, t)
    lo, hi = int_range(t)
    candidates = [
        lo,
        lo + 1,
        -(2**31) - 1,
        -(2**31),
        -32769,
        -32768,
        -129,
        -128,
        -1,
        0,
        1,
        2,
        100,
        127,
        128,
        255,
        256,
        2049,
        32767,
        32768,
        65535,
        65536,
        2**24 + 1,
        2**31 - 1,
        2**31,
        2**32 - 1,
        2**53 + 1,
        hi - 1,
        hi,
    ]
    return np.array([v for v in candidates if lo <= v <= hi], dtype=DTYPES[t])


@dataclass(frozen=True)
class ConvertCase:
    name: str
    src: str
    dst: str
    shape: tuple[int, ...] | None  # None: the edge values of `src`


def _convert_cases() -> list[ConvertCase]:
    cases: list[ConvertCase] = []
    for src in ALL:
        n = len(convert_inputs(src))
        for dst in ALL:
            cases.append(ConvertCase(f"convert_{src}_{dst}", src, dst, None))
            unary(f"convert_{src}_{dst}", "xla.convert", src, dst, (n,))
    for src, dst, shape in [
        ("f32", "i32", ()),
        ("f64", "ui8", (2, 1, 3)),
        ("i8", "bf16", (2, 3, 1)),
        ("i1", "f16", ()),
    ]:
        name = f"convert_{src}_{dst}_r{len(shape)}"
        cases.append(ConvertCase(name, src, dst, shape))
        unary(name, "xla.convert", src, dst, shape)
    return cases


CONVERT_CASES = _convert_cases()


@dataclass(frozen=True)
class BitcastCase:
    name: str
    src: str
    dst: str
    shape: tuple[int, ...]
    out_shape: tuple[int, ...]


def _bitcast_cases() -> list[BitcastCase]:
    same = [
        ("i32", "f32"),
        ("f32", "ui32"),
        ("ui16", "bf16"),
        ("bf16", "f16"),
        ("f16", "i16"),
        ("f64", "i64"),
        ("ui64", "f64"),
        ("i8", "ui8"),
        ("ui8", "i8"),
        ("bf16", "ui16"),
        ("i16", "bf16"),
        ("f32", "i32"),
    ]
    cases: list[BitcastCase] = []
    shapes = [(), (5,), (2, 1, 3)]
    for i, (src, dst) in enumerate(same):
        shape = shapes[i % 3]
        cases.append(BitcastCase(f"bitcast_{src}_{dst}_r{len(shape)}", src, dst, shape, shape))
    narrowing = [
        ("f32", "ui8", (2, 3)),
        ("i64", "i32", (3,)),
        ("f64", "ui16", ()),
        ("bf16", "i8", (2, 2)),
        ("i64", "ui8", (2,)),
        ("f64", "f32", (2, 1, 2)),
        ("ui32", "f16", (3, 1)),
        ("f32", "i1", ()),
    ]
    for src, dst, shape in narrowing:
        if dst == "i1":
            continue
        k = width(src) // width(dst)
        cases.append(BitcastCase(f"bitcast_{src}_{dst}_split", src, dst, shape, (*shape, k)))
        cases.append(BitcastCase(f"bitcast_{dst}_{src}_pack", dst, src, (*shape, k), shape))
    for c in cases:
        a, r = ttype(c.src, c.shape), ttype(c.dst, c.out_shape)
        ELEMENTWISE.add(c.name, [a], [f"%r = xla.bitcast_convert %a0 : ({a}) -> {r}"], [("%r", r)])
    return cases


BITCAST_CASES = _bitcast_cases()


def ref_reduce_precision(
    x: np.ndarray, t: str, exponent_bits: int, mantissa_bits: int
) -> np.ndarray:
    """XLA's ReducePrecision on bit patterns: round the mantissa to nearest even,
    then values beyond the reduced exponent range become +-inf and values at or
    below its smallest normal exponent +-0; NaN stays NaN, except with no mantissa
    bits, where it becomes the infinity of its sign (as StableHLO's interpreter)."""
    src_e, src_m = FLOAT_FORMAT[t]
    n = 1 + src_e + src_m
    out: list[int] = []
    for v, bits in zip(x.astype(np.float64).reshape(-1), x.view(bits_dtype(t)).reshape(-1)):
        b = int(bits)
        if math.isnan(v):
            sign = b & (1 << (n - 1))
            out.append(b if mantissa_bits > 0 else sign | (((1 << src_e) - 1) << src_m))
            continue
        if mantissa_bits < src_m:
            shift = src_m - mantissa_bits
            kept_lsb = (b >> shift) & 1
            b = (b + (1 << (shift - 1)) - 1 + kept_lsb) & ~((1 << shift) - 1) & ((1 << n) - 1)
        if exponent_bits < src_e:
            bias, reduced_bias = 2 ** (src_e - 1) - 1, 2 ** (exponent_bits - 1) - 1
            exponent = (b >> src_m) & ((1 << src_e) - 1)
            sign = b & (1 << (n - 1))
            if exponent > bias + reduced_bias:
                b = sign | (((1 << src_e) - 1) << src_m)
            elif exponent <= bias - reduced_bias:
                b = sign
        out.append(b)
    return np.array(out, dtype=bits_dtype(t)).view(DTYPES[t]).reshape(x.shape)


@dataclass(frozen=True)
class ReducePrecisionCase:
    name: str
    t: str
    exponent_bits: int
    mantissa_bits: int
    shape: tuple[int, ...]


def _reduce_precision_cases() -> list[ReducePrecisionCase]:
    configs = [
        ("f32", 5, 10, (4, 8)),
        ("f32", 8, 7, (33,)),
        ("f32", 4, 3, (2, 3, 5)),
        ("f64", 8, 23, (40,)),
        ("f64", 11, 52, (6,)),
        ("f16", 5, 2, (30,)),
        ("bf16", 5, 3, (30,)),
        ("f32", 8, 23, ()),
        # No mantissa bits; formats wider than the type (no-ops); a tiny exponent.
        ("f32", 5, 0, (20,)),
        ("bf16", 8, 0, (12,)),
        ("f16", 8, 12, (10,)),
        ("f32", 3, 1, (25,)),
        ("f64", 5, 10, (30,)),
    ]
    cases: list[ReducePrecisionCase] = []
    for t, e, m, shape in configs:
        c = ReducePrecisionCase(f"reduce_precision_{t}_e{e}m{m}", t, e, m, shape)
        cases.append(c)
        a = ttype(t, shape)
        ELEMENTWISE.add(
            c.name,
            [a],
            [
                f'%r = "xla.reduce_precision"(%a0) <{{exponent_bits = {e} : i32, mantissa_bits = {m} : i32}}> : ({a}) -> {a}'
            ],
            [("%r", a)],
        )
    return cases


REDUCE_PRECISION_CASES = _reduce_precision_cases()


def reduce_precision_input(c: ReducePrecisionCase) -> np.ndarray:
    """Random magnitudes over the reduced format's whole range, plus ties,
    overflow, NaN, +-inf, +-0."""
    rng = rng_for(c.name)
    n = int(np.prod(c.shape, dtype=np.int64))
    scale = 2.0 ** rng.integers(
        -(2 ** (c.exponent_bits - 1)) - 3, 2 ** (c.exponent_bits - 1) + 2, n
    ).clip(-1000, 1000)
    values = rng.uniform(1, 2, n) * scale * rng.choice([-1.0, 1.0], n)
    specials = [
        math.nan,
        math.inf,
        -math.inf,
        0.0,
        -0.0,
        1.0 + 2.0**-c.mantissa_bits / 2,
        1.0 + 3 * 2.0**-c.mantissa_bits / 2,
    ]
    values[: min(n, len(specials))] = specials[: min(n, len(specials))]
    return array(values, c.t).reshape(c.shape)


@pytest.fixture(scope="module")
def elementwise() -> Kernels:
    return Kernels(ELEMENTWISE)


@pytest.mark.parametrize("case", CONVERT_CASES, ids=ids(CONVERT_CASES))
def test_convert(elementwise: Kernels, case: ConvertCase) -> None:
    if case.shape is None:
        x = convert_inputs(case.src)
    else:
        x = sample(case.src, case.shape, case.name)
    assert_same(elementwise[case.name](x), ref_convert(x, case.src, case.dst), case.name)


@pytest.mark.parametrize("case", BITCAST_CASES, ids=ids(BITCAST_CASES))
def test_bitcast_convert(elementwise: Kernels, case: BitcastCase) -> None:
    x = sample(case.src, case.shape, case.name)
    if case.src in FLOATS:  # NaN payloads and denormals must travel unchanged
        flat = x.reshape(-1)
        patterns = {
            16: [0x7E01, 0xFC42, 0x0001],
            32: [0x7FC00123, 0xFF812345, 0x00000001],
            64: [0x7FF8000000000123, 0xFFF0000000000001, 1],
        }
        chosen = patterns[width(case.src)][: flat.size]
        flat.view(bits_dtype(case.src))[: len(chosen)] = chosen
    expected = x.reshape(-1).view(DTYPES[case.dst]).reshape(case.out_shape)
    actual = elementwise[case.name](x)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    assert np.array_equal(
        actual.view(f"u{actual.itemsize}"), expected.view(f"u{expected.itemsize}")
    ), f"{case.name}: bits differ\n{actual}\n{expected}"


@pytest.mark.parametrize("case", REDUCE_PRECISION_CASES, ids=ids(REDUCE_PRECISION_CASES))
def test_reduce_precision(elementwise: Kernels, case: ReducePrecisionCase) -> None:
    x = reduce_precision_input(case)
    expected = ref_reduce_precision(x, case.t, case.exponent_bits, case.mantissa_bits)
    assert_same(elementwise[case.name](x), expected, case.name)


def test_reduce_precision_reference_matches_ml_dtypes() -> None:
    """The reference agrees with real narrow formats where they coincide (normal
    range; the reduced formats flush denormals)."""
    x = array(np.random.default_rng(0).standard_normal(200) * 300, "f32")
    assert_same(
        ref_reduce_precision(x, "f32", 8, 7), x.astype(ml_dtypes.bfloat16).astype(np.float32)
    )
    with np.errstate(over="ignore"):
        halves = x.astype(np.float16).astype(np.float32)
    normal = np.abs(x) >= 2.0**-14
    assert_same(ref_reduce_precision(x, "f32", 5, 10)[normal], halves[normal])
