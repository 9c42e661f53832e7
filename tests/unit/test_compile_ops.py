"""Whole-tensor ops through `lowering.compile`, checked against NumPy references.

Each op family is one MLIR module of many small functions, built here as text
and compiled once per test process (`compile` caches modules by their text; the
module-scoped fixtures compile eagerly so a lowering error shows up as the error
of every test of the family). The tests cover the tensor paths of the lowering
(indexing maps, broadcasting, slicing offsets, reductions, the signedness of
`ui` types, bf16 storage); the scalar semantics of each element-wise op are
tested in `test_scalar_semantics.py`, so here only a representative subset of
element-wise ops runs per element type.

References follow the spec and XLA's CPU backend: float -> int conversion
saturates (NaN -> 0), integer division by zero gives -1 (x % 0 = x), shifts by
counts >= the width give 0, float maximum propagates NaN, dynamic slice starts
are clamped so the slice stays in bounds.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

SINTS = ["i8", "i16", "i32", "i64"]
UINTS = ["ui8", "ui16", "ui32", "ui64"]
INTS = SINTS + UINTS
FLOATS = ["f16", "bf16", "f32", "f64"]
NUMERIC = INTS + FLOATS
ALL = ["i1", *NUMERIC]

DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
FLOAT_FORMAT: dict[str, tuple[int, int]] = {
    "f16": (5, 10),
    "bf16": (8, 7),
    "f32": (8, 23),
    "f64": (11, 52),
}
"""(exponent bits, mantissa bits) of each float type."""


def width(t: str) -> int:
    return 1 if t == "i1" else DTYPES[t].itemsize * 8


def int_range(t: str) -> tuple[int, int]:
    if t == "i1":
        return 0, 1
    w = width(t)
    return (0, 2**w - 1) if t in UINTS else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def bits_dtype(t: str) -> np.dtype:
    """The unsigned integer dtype holding a float type's bit pattern."""
    return np.dtype(f"u{DTYPES[t].itemsize}")


def ttype(t: str, shape: Sequence[int]) -> str:
    """`tensor<2x3xf32>`, `tensor<f32>`."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + t + ">"


def fmt_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


def rng_for(*key: object) -> np.random.Generator:
    """A generator seeded by the test case, the same in every process."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def array(values: Any, t: str) -> np.ndarray:
    """`values` as an array of type `t` (floats through float64; ints wrap)."""
    if t in FLOATS:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(np.asarray(values, dtype=np.float64).astype(DTYPES[t]))
    if t == "i1":
        return np.asarray(values, dtype=np.bool_)
    lo, hi = int_range(t)
    span = hi - lo + 1
    wrapped = [((int(v) - lo) % span) + lo for v in np.ravel(np.asarray(values, dtype=object))]
    return np.array(wrapped, dtype=DTYPES[t]).reshape(np.shape(values))


FLOAT_SPECIALS = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0]


def sample(
    t: str, shape: Sequence[int], *key: object, special: bool = True, small: bool = False
) -> np.ndarray:
    """Random data of type `t`; `special` plants NaN, -NaN, +-inf, +-0 at the
    start (floats) or the extremes at random places (ints); `small` keeps values
    in [-8, 8]."""
    rng = rng_for(t, tuple(shape), *key)
    n = int(np.prod(shape, dtype=np.int64))
    if t == "i1":
        flat = rng.random(n) < 0.5
        return flat.reshape(shape)
    if t in FLOATS:
        if small:
            values = rng.integers(-8, 9, n).astype(np.float64)
        else:
            values = rng.standard_normal(n) * 8
        if special:
            specials = FLOAT_SPECIALS[: n // 2]
            values[: len(specials)] = specials
        return array(values, t).reshape(shape)
    lo, hi = int_range(t)
    if small:
        lo, hi = max(lo, -8), min(hi, 8)
    values_list = [
        int(v)
        for v in rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if hi < 2**63 else np.uint64)
    ]
    if special:
        extremes = [lo, hi, 0, 1, hi - 1, lo + 1][: max(1, n // 2)]
        values_list[: len(extremes)] = extremes[:n]
    out = np.array(values_list, dtype=DTYPES[t]).reshape(shape)
    rng.shuffle(out.reshape(-1))
    return out


def scalar(value: Any, t: str) -> np.ndarray:
    return array(value, t).reshape(())


# ---------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------


def assert_same(actual: Any, expected: np.ndarray, what: str = "") -> None:
    """Equal dtype, shape and values; floats compare bit for bit except that any
    NaN matches any NaN (so -0.0 and +0.0 differ)."""
    assert isinstance(actual, np.ndarray), f"{what}: got {type(actual).__name__}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind == "f" or expected.dtype == DTYPES["bf16"]:
        nan_a = np.isnan(actual.astype(np.float64))
        nan_e = np.isnan(expected.astype(np.float64))
        bits_a = actual.view(f"u{actual.itemsize}")
        bits_e = expected.view(f"u{expected.itemsize}")
        bad = (nan_a != nan_e) | (~nan_e & (bits_a != bits_e))
    else:
        bad = actual != expected
    if np.any(bad):
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise AssertionError(
            f"{what}: {int(np.count_nonzero(bad))} of {bad.size} elements differ; first at {index}: "
            f"got {actual[index]!r}, expected {expected[index]!r}\ngot:\n{actual}\nexpected:\n{expected}"
        )


def assert_close(actual: Any, expected: np.ndarray, rtol: float, what: str = "") -> None:
    """Same dtype and shape; NaN and infinities where expected, else within rtol."""
    assert (
        isinstance(actual, np.ndarray)
        and actual.dtype == expected.dtype
        and actual.shape == expected.shape
    ), (
        f"{what}: got {getattr(actual, 'dtype', None)} {getattr(actual, 'shape', None)}, "
        f"expected {expected.dtype} {expected.shape}"
    )
    np.testing.assert_allclose(
        actual.astype(np.float64),
        expected.astype(np.float64),
        rtol=rtol,
        atol=0,
        equal_nan=True,
        err_msg=what,
    )


# ---------------------------------------------------------------------------
# Modules of kernels
# ---------------------------------------------------------------------------


@dataclass
class Module:
    """Functions collected as MLIR text; compiled as one module."""

    functions: dict[str, str] = field(default_factory=dict)

    def add(
        self,
        name: str,
        params: Sequence[str],
        ops: Sequence[str],
        results: Sequence[tuple[str, str]],
    ) -> str:
        """A function `@name(%a0: params[0], ...)` running `ops` and returning
        `results` ((value, type) pairs)."""
        assert name not in self.functions, name
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
        types = [t for _, t in results]
        lines = [f"func.func @{name}({args}) -> ({', '.join(types)}) {{"]
        lines += [f"  {op}" for op in ops]
        lines.append(f"  func.return {', '.join(v for v, _ in results)} : {', '.join(types)}")
        lines.append("}")
        self.functions[name] = "\n".join(lines)
        return name

    @property
    def text(self) -> str:
        return "\n\n".join(self.functions.values()) + "\n"


class Kernels:
    """The compiled functions of one module, by name."""

    def __init__(self, module: Module):
        self.text = module.text
        compile(self.text, next(iter(module.functions)))

    def __getitem__(self, name: str) -> Callable[..., Any]:
        """The function `name`, checking on each call that it leaves its arguments alone."""
        function = compile(self.text, name)

        def call(*args: np.ndarray) -> Any:
            before = [np.array(a, copy=True) for a in args]
            result = function(*args)
            for i, (a, b) in enumerate(zip(args, before)):
                assert np.asarray(a).tobytes() == b.tobytes(), (
                    f"@{name} wrote into its argument {i}"
                )
            return result

        return call


def ids(cases: Sequence[Any]) -> list[str]:
    return [c.name for c in cases]


# ===========================================================================
# constant, iota
# ===========================================================================

CONSTANTS = Module()
DENSE_CONSTANTS = Module()
"""Non-splat constants (each a global): a module of their own while two globals
of different sizes in one module fail to translate (see test_dense_constant)."""


def literal(values: np.ndarray, t: str) -> str:
    """A `dense<...>` body: nested lists; non-finite floats as bit patterns."""

    def element(v: Any) -> str:
        if t == "i1":
            return "true" if v else "false"
        if t in FLOATS:
            f = float(v)
            if math.isfinite(f):
                text = repr(f)
                return text if "." in text else text.replace("e", ".0e")
            bits = int(np.asarray(v, dtype=DTYPES[t]).view(bits_dtype(t)))
            return f"0x{bits:0{DTYPES[t].itemsize * 2}X}"
        return str(int(v))

    def nest(a: np.ndarray) -> str:
        if a.ndim == 0:
            return element(a[()])
        return "[" + ", ".join(nest(x) for x in a) + "]"

    return nest(values)


def constant_values(t: str, n: int) -> list[Any]:
    """Interesting values of type `t` (extremes; NaN, +-inf, -0.0, denormals)."""
    if t == "i1":
        return [True, False, False, True][:n] + [True] * max(0, n - 4)
    if t in FLOATS:
        finfo = ml_dtypes.finfo(DTYPES[t]) if t == "bf16" else np.finfo(DTYPES[t])
        base = [
            1.5,
            -0.0,
            math.inf,
            math.nan,
            -2.75,
            float(finfo.max),
            -math.inf,
            float(finfo.smallest_subnormal),
            0.0,
            -3.0,
        ]
        return (base * (n // len(base) + 1))[:n]
    lo, hi = int_range(t)
    base = [lo, hi, 0, -1 if lo < 0 else 1, 7, hi - 1]
    return (base * (n // len(base) + 1))[:n]


@dataclass(frozen=True)
class ConstantCase:
    name: str
    t: str
    expected: np.ndarray = field(compare=False)


def _constant_cases() -> list[ConstantCase]:
    cases: list[ConstantCase] = []
    splat_values: dict[str, Any] = {
        "i1": True,
        "i8": -128,
        "i16": 32767,
        "i32": -7,
        "i64": -(2**63),
        "ui8": 255,
        "ui16": 40000,
        "ui32": 2**32 - 1,
        "ui64": 2**64 - 1,
        "f16": -0.0,
        "bf16": 1.5,
        "f32": math.nan,
        "f64": -math.inf,
    }
    for t in ALL:
        for shape in [(), (3,), (2, 1, 3)]:
            value = np.full(shape, array(splat_values[t], t), dtype=DTYPES[t])
            name = f"splat_{t}_r{len(shape)}"
            body = (
                f"%r = xla.constant dense<{literal(value.reshape(-1)[0], t)}> : {ttype(t, shape)}"
            )
            CONSTANTS.add(name, [], [body], [("%r", ttype(t, shape))])
            cases.append(ConstantCase(name, t, value))
        for shape in [(4,), (2, 1, 5)]:
            n = int(np.prod(shape))
            value = array(constant_values(t, n), t).reshape(shape)
            name = f"dense_{t}_r{len(shape)}"
            DENSE_CONSTANTS.add(
                name,
                [],
                [f"%r = xla.constant dense<{literal(value, t)}> : {ttype(t, shape)}"],
                [("%r", ttype(t, shape))],
            )
            cases.append(ConstantCase(name, t, value))
    # A constant with no elements and a zero-extent dimension.
    for t, shape in [("f32", (0,)), ("i32", (2, 0))]:
        name = f"empty_{t}"
        value = np.zeros(shape, DTYPES[t])
        CONSTANTS.add(
            name,
            [],
            [f"%r = xla.constant dense<{literal(value, t)}> : {ttype(t, shape)}"],
            [("%r", ttype(t, shape))],
        )
        cases.append(ConstantCase(name, t, value))
    return cases


CONSTANT_CASES = _constant_cases()


@dataclass(frozen=True)
class IotaCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dim: int


def _iota_cases() -> list[IotaCase]:
    cases: list[IotaCase] = []
    configs: list[tuple[tuple[int, ...], int]] = [
        ((2, 3, 4), 0),
        ((2, 3, 4), 1),
        ((2, 3, 4), 2),
        ((5,), 0),
        ((1, 3), 0),
        ((3, 1), 0),
    ]
    for i, t in enumerate(NUMERIC):
        chosen = configs if t in ("i32", "f32") else [configs[i % 3], configs[3 + i % 3]]
        for shape, dim in chosen:
            cases.append(IotaCase(f"iota_{t}_{'x'.join(map(str, shape))}_d{dim}", t, shape, dim))
    # Long iotas in narrow float types round like a conversion of the index.
    cases += [
        IotaCase("iota_bf16_long", "bf16", (300,), 0),
        IotaCase("iota_f16_long", "f16", (2100,), 0),
    ]
    for c in cases:
        CONSTANTS.add(
            c.name,
            [],
            [f"%r = xla.iota dim = {c.dim} : {ttype(c.t, c.shape)}"],
            [("%r", ttype(c.t, c.shape))],
        )
    return cases


IOTA_CASES = _iota_cases()


@pytest.fixture(scope="module")
def constants() -> Kernels:
    return Kernels(CONSTANTS)


SPLAT_CASES = [c for c in CONSTANT_CASES if c.name in CONSTANTS.functions]
DENSE_CASES = [c for c in CONSTANT_CASES if c.name in DENSE_CONSTANTS.functions]


@pytest.mark.parametrize("case", SPLAT_CASES, ids=ids(SPLAT_CASES))
def test_splat_constant(constants: Kernels, case: ConstantCase) -> None:
    assert_same(constants[case.name](), case.expected, case.name)


@pytest.fixture(scope="module")
def dense_constants() -> Kernels:
    return Kernels(DENSE_CONSTANTS)


@pytest.mark.parametrize("case", DENSE_CASES, ids=ids(DENSE_CASES))
def test_dense_constant(dense_constants: Kernels, case: ConstantCase) -> None:
    """Many globals of different sizes in one module (llvm.memcpy declared once)."""
    assert_same(dense_constants[case.name](), case.expected, case.name)


@pytest.mark.parametrize("case", IOTA_CASES, ids=ids(IOTA_CASES))
def test_iota(constants: Kernels, case: IotaCase) -> None:
    index = np.indices(case.shape)[case.dim] if case.shape else np.zeros((), np.int64)
    expected = (
        index.astype(np.float64).astype(DTYPES[case.t])
        if case.t in FLOATS
        else index.astype(DTYPES[case.t])
    )
    assert_same(constants[case.name](), expected, case.name)


# ===========================================================================
# Element-wise: convert, bitcast_convert, reduce_precision, clamp, select,
# compare, implicit broadcasting, a representative subset per type
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


def ref_convert(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """ConvertElementType: saturating float -> int (NaN -> 0, truncation toward
    zero), wrapping int -> int, rounding to nearest even otherwise; PRED is x != 0."""
    out_dtype = DTYPES[dst]
    if dst == "i1":
        return np.asarray(x.astype(np.float64) != 0) if src in FLOATS else np.asarray(x != 0)
    if src in FLOATS and dst not in FLOATS:
        lo, hi = int_range(dst)
        values: list[int] = []
        for v in x.astype(np.float64).reshape(-1):
            if math.isnan(v):
                values.append(0)
            elif v >= hi + 1:
                values.append(hi)
            elif v <= lo - 1:
                values.append(lo)
            else:
                values.append(int(v))
        return np.array(values, dtype=out_dtype).reshape(x.shape)
    # The edge values are exact in f32 (or round the same through it), so going
    # through f64/f32 here rounds once, like the compiled conversion.
    if src in FLOATS:
        source = x if src == "f64" else x.astype(np.float32)
        with np.errstate(over="ignore"):
            return source.astype(out_dtype)
    if dst in FLOATS:
        wide = np.array([float(int(v)) for v in x.reshape(-1)], dtype=np.float64).reshape(x.shape)
        with np.errstate(over="ignore"):
            return wide.astype(out_dtype)
    return array(x.astype(object) if src != "i1" else x.astype(np.int64), dst)


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


@dataclass(frozen=True)
class TernaryCase:
    name: str
    t: str
    shape: tuple[int, ...]
    scalar_sides: bool  # clamp: scalar bounds; select: scalar predicate


def _clamp_select_cases() -> tuple[list[TernaryCase], list[TernaryCase]]:
    clamps: list[TernaryCase] = []
    selects: list[TernaryCase] = []
    shapes = [(7,), (2, 1, 3), ()]
    for i, t in enumerate(ALL):
        for scalar_sides in (True, False):
            shape = shapes[(i + scalar_sides) % 3] if not scalar_sides else shapes[i % 2]
            kind = "scalar" if scalar_sides else "full"
            if t != "i1":
                c = TernaryCase(f"clamp_{t}_{kind}", t, shape, scalar_sides)
                clamps.append(c)
                x = ttype(t, shape)
                b = ttype(t, () if scalar_sides else shape)
                ELEMENTWISE.add(
                    c.name,
                    [b, x, b],
                    [f"%r = xla.clamp %a0, %a1, %a2 : ({b}, {x}, {b}) -> {x}"],
                    [("%r", x)],
                )
            s = TernaryCase(f"select_{t}_{kind}", t, shape, scalar_sides)
            selects.append(s)
            x = ttype(t, shape)
            p = ttype("i1", () if scalar_sides else shape)
            ELEMENTWISE.add(
                s.name,
                [p, x, x],
                [f"%r = xla.select %a0, %a1, %a2 : ({p}, {x}, {x}) -> {x}"],
                [("%r", x)],
            )
    # Mixed: a scalar lower bound with a full upper bound.
    c = TernaryCase("clamp_f32_mixed", "f32", (2, 3), True)
    x, s = ttype("f32", (2, 3)), ttype("f32", ())
    ELEMENTWISE.add(
        c.name, [s, x, x], [f"%r = xla.clamp %a0, %a1, %a2 : ({s}, {x}, {x}) -> {x}"], [("%r", x)]
    )
    clamps.append(c)
    return clamps, selects


CLAMP_CASES, SELECT_CASES = _clamp_select_cases()

DIRECTIONS = ["EQ", "NE", "LT", "LE", "GT", "GE"]


@dataclass(frozen=True)
class CompareCase:
    name: str
    t: str
    shape: tuple[int, ...]
    total_order: bool


def _compare_cases() -> list[CompareCase]:
    cases: list[CompareCase] = []
    shapes = [(16,), (2, 4, 2), ()]
    for i, t in enumerate(ALL):
        cases.append(CompareCase(f"compare_{t}", t, shapes[i % 3] if i % 3 != 2 else (16,), False))
        if t in FLOATS:
            cases.append(CompareCase(f"compare_{t}_totalorder", t, (18,), True))
    cases.append(CompareCase("compare_f32_scalar", "f32", (), False))
    cases.append(CompareCase("compare_ui16_scalar", "ui16", (), False))
    for c in cases:
        a, p = ttype(c.t, c.shape), ttype("i1", c.shape)
        tail = ", TOTALORDER" if c.total_order else ""
        ops = [f"%r{d} = xla.compare {d}, %a0, %a1{tail} : ({a}, {a}) -> {p}" for d in DIRECTIONS]
        ELEMENTWISE.add(c.name, [a, a], ops, [(f"%r{d}", p) for d in DIRECTIONS])
    return cases


COMPARE_CASES = _compare_cases()


def compare_inputs(c: CompareCase) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs with equal elements, NaNs of both signs and +-0 pairs."""
    a = sample(c.t, c.shape, c.name, "a", special=False, small=True)
    b = sample(c.t, c.shape, c.name, "b", special=False, small=True)
    if c.t in FLOATS and a.size >= 16:
        pairs = [
            (math.nan, 1.0),
            (1.0, math.nan),
            (math.nan, math.nan),
            (-math.nan, math.nan),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-0.0, -0.0),
            (math.inf, math.nan),
            (-math.inf, -math.nan),
            (2.0, 2.0),
            (-math.inf, -3.0),
        ]
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        for k, (x, y) in enumerate(pairs):
            flat_a[k], flat_b[k] = array(x, c.t), array(y, c.t)
    elif c.t not in FLOATS and a.size >= 4:
        lo, hi = int_range(c.t)
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        for k, (x, y) in enumerate([(lo, hi), (hi, lo), (lo, lo), (hi, 0)]):
            flat_a[k], flat_b[k] = array(x, c.t), array(y, c.t)
    return a, b


def total_order_key(x: np.ndarray, t: str) -> np.ndarray:
    """Integers ordered as the floats' total order (-NaN < -inf < -0 < +0 < +NaN)."""
    signed = x.view(f"i{DTYPES[t].itemsize}").astype(np.int64)
    magnitude_mask = (1 << (width(t) - 1)) - 1
    return np.where(signed < 0, signed ^ magnitude_mask, signed)


def ref_compare(
    a: np.ndarray, b: np.ndarray, t: str, direction: str, total_order: bool
) -> np.ndarray:
    if total_order:
        a, b = total_order_key(a, t), total_order_key(b, t)
    elif t in FLOATS:
        a, b = a.astype(np.float64), b.astype(np.float64)
    ops = {
        "EQ": np.equal,
        "NE": np.not_equal,
        "LT": np.less,
        "LE": np.less_equal,
        "GT": np.greater,
        "GE": np.greater_equal,
    }
    return np.asarray(ops[direction](a, b))


@dataclass(frozen=True)
class BroadcastingCase:
    name: str
    op: str
    t: str
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    dims: tuple[int, ...] | None
    result: tuple[int, ...]


def _broadcasting_cases() -> list[BroadcastingCase]:
    cases = [
        BroadcastingCase("bcast_add_scalar_rhs", "add", "f32", (2, 3), (), None, (2, 3)),
        BroadcastingCase(
            "bcast_subtract_scalar_lhs", "subtract", "i32", (), (2, 1, 3), None, (2, 1, 3)
        ),
        BroadcastingCase("bcast_multiply_row", "multiply", "f64", (2, 3), (3,), (1,), (2, 3)),
        BroadcastingCase("bcast_subtract_col", "subtract", "i16", (2, 3), (2,), (0,), (2, 3)),
        BroadcastingCase("bcast_add_degenerate_both", "add", "f32", (2, 1), (1, 3), None, (2, 3)),
        BroadcastingCase(
            "bcast_add_degenerate_rank3", "add", "i64", (4, 1, 3), (1, 5, 1), None, (4, 5, 3)
        ),
        BroadcastingCase(
            "bcast_maximum_rank3_dims02", "maximum", "ui32", (2, 3, 4), (2, 4), (0, 2), (2, 3, 4)
        ),
        BroadcastingCase(
            "bcast_minimum_low_degenerate", "minimum", "ui8", (1, 4), (2, 3, 4), (1, 2), (2, 3, 4)
        ),
        BroadcastingCase(
            "bcast_divide_high_degenerate", "divide", "i8", (2, 1), (3,), (1,), (2, 3)
        ),
        BroadcastingCase("bcast_add_identity_dims", "add", "bf16", (2, 3), (2, 3), (0, 1), (2, 3)),
        BroadcastingCase("bcast_divide_scalar_zero", "divide", "ui16", (5,), (), None, (5,)),
        BroadcastingCase("bcast_compare_row", "compare", "f32", (2, 3), (3,), (1,), (2, 3)),
        BroadcastingCase(
            "bcast_compare_unsigned_degenerate", "compare", "ui64", (3, 1), (1, 4), None, (3, 4)
        ),
        BroadcastingCase("bcast_shift_left_scalar", "shift_left", "i32", (2, 2), (), None, (2, 2)),
        BroadcastingCase("bcast_and_pred", "and", "i1", (3, 1), (4,), (1,), (3, 4)),
    ]
    for c in cases:
        a, b = ttype(c.t, c.lhs), ttype(c.t, c.rhs)
        r = ttype("i1" if c.op == "compare" else c.t, c.result)
        dims = "" if c.dims is None else f", broadcast_dimensions = {fmt_ints(c.dims)}"
        op = "xla.compare LT," if c.op == "compare" else f"xla.{c.op}"
        ELEMENTWISE.add(
            c.name, [a, b], [f"%r = {op} %a0, %a1{dims} : ({a}, {b}) -> {r}"], [("%r", r)]
        )
    return cases


BROADCASTING_CASES = _broadcasting_cases()


def expand_operand(x: np.ndarray, dims: Sequence[int] | None, result: Sequence[int]) -> np.ndarray:
    """An operand broadcast to the result shape as the spec says."""
    if x.ndim == len(result):
        return np.broadcast_to(x, result)
    if x.ndim == 0:
        return np.broadcast_to(x, result)
    assert dims is not None
    shape = [1] * len(result)
    for i, d in enumerate(dims):
        shape[d] = x.shape[i]
    return np.broadcast_to(x.reshape(shape), result)


# -- the representative element-wise subset ----------------------------------


def _int_div(a: int, b: int, t: str, remainder: bool) -> int:
    lo, hi = int_range(t)
    if b == 0:
        return a if remainder else (hi if t in UINTS else -1)
    if a == lo and b == -1 and t in SINTS:
        return 0 if remainder else lo
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return a - q * b if remainder else q


def _float_max_min(a: np.ndarray, b: np.ndarray, take_max: bool) -> np.ndarray:
    """NaN-propagating max/min with -0 < +0 (LLVM's maximum/minimum)."""
    x, y = a.astype(np.float64), b.astype(np.float64)
    out = np.maximum(x, y) if take_max else np.minimum(x, y)
    zeros = (x == 0) & (y == 0)
    both_negative = np.signbit(x) & np.signbit(y)
    any_negative = np.signbit(x) | np.signbit(y)
    zero_result = np.where(both_negative if take_max else any_negative, -0.0, 0.0)
    return np.where(zeros, zero_result, out).astype(a.dtype)


def ref_binary(op: str, a: np.ndarray, b: np.ndarray, t: str) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    if t in FLOATS:
        with np.errstate(all="ignore"):
            x, y = a.astype(np.float64), b.astype(np.float64)
            if op in ("maximum", "minimum"):
                return _float_max_min(a, b, op == "maximum")
            if op == "remainder":
                return np.fmod(x, y).astype(DTYPES[t])
            f: dict[str, Callable[[Any, Any], Any]] = {
                "add": np.add,
                "subtract": np.subtract,
                "multiply": np.multiply,
                "divide": np.divide,
            }
            # f16/bf16/f32 results of one op on exact f64 inputs round once, as the op does.
            return f[op](x, y).astype(DTYPES[t])
    if t == "i1":
        table: dict[str, Callable[[Any, Any], Any]] = {
            "add": np.logical_or,
            "and": np.logical_and,
            "or": np.logical_or,
            "maximum": np.logical_or,
            "minimum": np.logical_and,
            "multiply": np.logical_and,
        }
        return np.asarray(table[op](a, b))
    w = width(t)
    out: list[int] = []
    for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist()):
        if op == "add":
            out.append(x + y)
        elif op == "subtract":
            out.append(x - y)
        elif op == "multiply":
            out.append(x * y)
        elif op in ("divide", "remainder"):
            out.append(_int_div(x, y, t, op == "remainder"))
        elif op == "maximum":
            out.append(max(x, y))
        elif op == "minimum":
            out.append(min(x, y))
        elif op == "and":
            out.append(x & y)
        elif op == "shift_left":
            count = y % (1 << w)  # the count is read as unsigned
            out.append(0 if count >= w else x << count)
        else:
            raise AssertionError(op)
    return array(np.array(out, dtype=object).reshape(a.shape), t)


def ref_unary(op: str, x: np.ndarray, t: str) -> np.ndarray:
    if op == "not":
        return np.logical_not(x) if t == "i1" else np.invert(x)
    if op == "popcnt":
        bits = x.view(f"u{x.itemsize}")
        return np.array([int(v).bit_count() for v in bits.reshape(-1)], dtype=x.dtype).reshape(
            x.shape
        )
    if op == "sign":
        if t in FLOATS:
            f = x.astype(np.float64)
            return np.where(np.isnan(f) | (f == 0), f, np.copysign(1.0, f)).astype(x.dtype)
        return (
            np.asarray(np.sign(x.astype(np.int64))).astype(x.dtype)
            if t in SINTS
            else (x != 0).astype(x.dtype)
        )
    with np.errstate(all="ignore"):
        f = x.astype(np.float64) if t == "f64" else x.astype(np.float32)
        result = {"exponential": np.exp, "sqrt": np.sqrt}[op](f)
        return result.astype(x.dtype)


@dataclass(frozen=True)
class OpCase:
    name: str
    op: str
    t: str
    shape: tuple[int, ...]
    arity: int


UNARY_SUBSET: dict[str, list[str]] = {
    "exponential": FLOATS,
    "sqrt": FLOATS,
    "sign": SINTS + FLOATS,
    "not": ["i1", *INTS],
    "popcnt": INTS,
}
BINARY_SUBSET: dict[str, list[str]] = {
    "add": ALL,
    "divide": NUMERIC,
    "remainder": NUMERIC,
    "maximum": NUMERIC,
    "shift_left": INTS,
}


def _subset_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    shapes = [(24,), (2, 3, 4), (), (3, 1, 8)]
    k = 0
    for table, arity in ((UNARY_SUBSET, 1), (BINARY_SUBSET, 2)):
        for op, types in table.items():
            for t in types:
                shape = shapes[k % len(shapes)]
                k += 1
                c = OpCase(f"{op}_{t}", op, t, shape, arity)
                cases.append(c)
                a = ttype(t, shape)
                operands = ", ".join(f"%a{i}" for i in range(arity))
                ELEMENTWISE.add(
                    c.name, [a] * arity, [f"%r = xla.{op} {operands} : {a}"], [("%r", a)]
                )
    return cases


SUBSET_CASES = _subset_cases()


def subset_inputs(c: OpCase) -> list[np.ndarray]:
    """Operands that hit each op's corners: zero divisors and INT_MIN / -1,
    shift counts past the width (and negative), NaN, +-inf, +-0."""
    a = sample(c.t, c.shape, c.name, "a", special=c.op not in ("exponential",))
    if c.op == "exponential" and c.t in FLOATS and a.size >= 4:
        a.reshape(-1)[:4] = array([math.nan, math.inf, -math.inf, -0.0], c.t)
    if c.arity == 1:
        return [a]
    b = sample(c.t, c.shape, c.name, "b")
    if c.t in FLOATS and b.size > 1:
        # Pair each special value with ordinary ones and with the other specials
        # (NaN against numbers, -0.0 against +0.0), not with itself.
        b = np.roll(b.reshape(-1), 3).reshape(c.shape)
        if b.size >= 6:  # a starts NaN, -NaN, inf, -inf, +0, -0
            b.reshape(-1)[[0, 4, 5]] = array([2.0, -0.0, 0.0], c.t)
    if c.op in ("divide", "remainder") and c.t in INTS and a.size > 1:
        lo, _ = int_range(c.t)
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        flat_b[: a.size // 3] = 0
        if c.t in SINTS:
            flat_a[-1], flat_b[-1] = lo, -1
    if c.op == "shift_left" and a.size > 1:
        w = width(c.t)
        rng = rng_for(c.name, "counts")
        counts = list(rng.integers(0, w, b.size))
        corners = [w - 1, w, w + 1, 2 * w, int_range(c.t)[1], 0]
        if c.t in SINTS:
            corners += [-1, int_range(c.t)[0]]
        counts[: len(corners)] = corners[: b.size]
        b = array(counts, c.t).reshape(c.shape)
    return [a, b]


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


@pytest.mark.parametrize("case", CLAMP_CASES, ids=ids(CLAMP_CASES))
def test_clamp(elementwise: Kernels, case: TernaryCase) -> None:
    f = elementwise[case.name]
    x = sample(case.t, case.shape, case.name, "x")
    lo_shape = () if case.scalar_sides else case.shape
    hi_shape = case.shape if case.name.endswith("mixed") else lo_shape
    if case.t in FLOATS:
        lo = array(-2.5, case.t) + np.zeros(lo_shape, DTYPES[case.t])
        hi = array(3.0, case.t) + np.zeros(hi_shape, DTYPES[case.t])
        if not case.scalar_sides and lo.size > 2:
            lo.reshape(-1)[1] = array(math.nan, case.t)  # a NaN bound gives NaN
            lo.reshape(-1)[2], hi.reshape(-1)[2] = (
                array(4.0, case.t),
                array(1.0, case.t),
            )  # lo > hi gives hi
    elif case.scalar_sides:
        # Unsigned values above the signed maximum would be clamped to `lo` if
        # they were compared as signed.
        lo_v, hi_v = int_range(case.t)
        lo, hi = scalar(lo_v // 3 if lo_v < 0 else 3, case.t), scalar(hi_v // 2, case.t)
    else:
        a = sample(case.t, lo_shape, case.name, "lo", special=False)
        b = sample(case.t, hi_shape, case.name, "hi", special=False)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
    if case.t in FLOATS:
        expected = np.minimum(
            np.maximum(x.astype(np.float64), lo.astype(np.float64)), hi.astype(np.float64)
        ).astype(DTYPES[case.t])
    else:
        expected = np.minimum(np.maximum(x, lo), hi).astype(DTYPES[case.t])
    assert_same(f(lo, x, hi), expected, case.name)


@pytest.mark.parametrize("case", SELECT_CASES, ids=ids(SELECT_CASES))
def test_select(elementwise: Kernels, case: TernaryCase) -> None:
    f = elementwise[case.name]
    a = sample(case.t, case.shape, case.name, "a")
    b = sample(case.t, case.shape, case.name, "b")
    if case.scalar_sides:
        for p in (True, False):
            assert_same(f(np.array(p), a, b), a if p else b, f"{case.name} pred={p}")
    else:
        pred = sample("i1", case.shape, case.name, "p")
        assert_same(f(pred, a, b), np.where(pred, a, b).astype(DTYPES[case.t]), case.name)


@pytest.mark.parametrize("case", COMPARE_CASES, ids=ids(COMPARE_CASES))
def test_compare(elementwise: Kernels, case: CompareCase) -> None:
    a, b = compare_inputs(case)
    results = elementwise[case.name](a, b)
    for direction, actual in zip(DIRECTIONS, results):
        expected = ref_compare(a, b, case.t, direction, case.total_order)
        assert_same(actual, expected, f"{case.name} {direction}")


@pytest.mark.parametrize("case", BROADCASTING_CASES, ids=ids(BROADCASTING_CASES))
def test_implicit_broadcasting(elementwise: Kernels, case: BroadcastingCase) -> None:
    a = sample(case.t, case.lhs, case.name, "a", small=True)
    b = sample(case.t, case.rhs, case.name, "b", small=case.op != "shift_left")
    if case.op == "divide" and b.size:
        b.reshape(-1)[0] = array(0, case.t)
        if case.rhs == ():
            b = scalar(0, case.t)
    ea, eb = (
        expand_operand(a, case.dims if a.ndim < b.ndim else None, case.result),
        expand_operand(b, case.dims if b.ndim < a.ndim else None, case.result),
    )
    if case.op == "compare":
        expected = ref_compare(ea, eb, case.t, "LT", False)
    else:
        expected = ref_binary(case.op, ea, eb, case.t)
    assert_same(elementwise[case.name](a, b), np.array(expected), case.name)


@pytest.mark.parametrize("case", SUBSET_CASES, ids=ids(SUBSET_CASES))
def test_elementwise_subset(elementwise: Kernels, case: OpCase) -> None:
    inputs = subset_inputs(case)
    actual = elementwise[case.name](*inputs)
    if case.arity == 1:
        expected = ref_unary(case.op, inputs[0], case.t)
    else:
        expected = ref_binary(case.op, inputs[0], inputs[1], case.t)
    if case.op == "exponential" and case.t in ("f32", "f64"):
        assert_close(actual, expected, 1e-6 if case.t == "f32" else 1e-14, case.name)
    else:
        assert_same(actual, expected, case.name)


# ===========================================================================
# Shape ops: broadcast, broadcast_in_dim, reshape, collapse, transpose,
# get_dimension_size
# ===========================================================================

SHAPE = Module()


@dataclass(frozen=True)
class ShapeCase:
    """`op` on an operand of `shape`; `params` is the op's attribute(s)."""

    name: str
    op: str
    t: str
    shape: tuple[int, ...]
    out: tuple[int, ...]
    params: tuple[int, ...] | None


SHAPE_CONFIGS: dict[str, list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]]] = {
    # (operand shape, result shape, attribute)
    "broadcast": [
        ((), (2, 3), None),
        ((4,), (2, 3, 4), None),
        ((2, 1), (3, 2, 1), None),
        ((3,), (3,), None),
        ((1, 2), (1, 1, 2), None),
    ],
    "broadcast_in_dim": [
        ((2,), (2, 3), (0,)),
        ((3, 1), (3, 2, 2), (0, 2)),
        ((2, 3), (3, 4, 2), (2, 0)),
        ((), (2, 2), ()),
        ((1,), (4,), (0,)),
        ((1, 1, 1), (2, 3, 4), (0, 1, 2)),
        ((3, 1), (2, 3, 1), (1, 2)),
        ((1, 3), (1, 3), (0, 1)),
    ],
    "reshape": [
        ((6,), (2, 3), None),
        ((2, 3), (3, 2), None),
        ((1, 1), (), None),
        ((), (1, 1, 1), None),
        ((2, 3, 4), (4, 6), None),
        ((2, 1, 3), (3, 2), None),
    ],
    "reshape_dims": [
        ((4, 2, 3), (2, 6, 2), (1, 2, 0)),
        ((2, 3), (6,), (1, 0)),
        ((2, 3, 4), (24,), (2, 0, 1)),
        ((2, 3), (3, 2), (0, 1)),
        ((3, 1, 2), (2, 3), (2, 1, 0)),
    ],
    "collapse": [
        ((4, 2, 3), (24,), (0, 1, 2)),
        ((4, 2, 3), (8, 3), (0, 1)),
        ((4, 2, 3), (4, 6), (1, 2)),
        ((2, 1, 3, 1), (2, 3, 1), (1, 2)),
        ((5,), (5,), (0,)),
    ],
    "transpose": [
        ((2, 3), (3, 2), (1, 0)),
        ((2, 3, 4), (4, 2, 3), (2, 0, 1)),
        ((2, 3, 4), (3, 4, 2), (1, 2, 0)),
        ((2, 3, 4), (2, 4, 3), (0, 2, 1)),
        ((1, 3, 1), (1, 3, 1), (2, 1, 0)),
        ((), (), ()),
        ((5,), (5,), (0,)),
    ],
    "get_dimension_size": [
        ((2, 3, 4), (), (0,)),
        ((2, 3, 4), (), (1,)),
        ((2, 3, 4), (), (2,)),
        ((0, 7), (), (1,)),
    ],
}


def shape_op_text(c: ShapeCase) -> str:
    a, r = ttype(c.t, c.shape), ttype(c.t, c.out)
    p = c.params
    if c.op == "broadcast":
        sizes = c.out[: len(c.out) - len(c.shape)]
        return f"%r = xla.broadcast %a0, sizes = {fmt_ints(sizes)} : ({a}) -> {r}"
    if c.op == "broadcast_in_dim":
        return f"%r = xla.broadcast_in_dim %a0, dims = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "reshape":
        return f"%r = xla.reshape %a0 : ({a}) -> {r}"
    if c.op == "reshape_dims":
        return f"%r = xla.reshape %a0, dimensions = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "collapse":
        return f"%r = xla.collapse %a0, dimensions = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "transpose":
        return f"%r = xla.transpose %a0, dims = {fmt_ints(p or ())} : ({a}) -> {r}"
    assert c.op == "get_dimension_size" and p is not None
    return f"%r = xla.get_dimension_size %a0, dim = {p[0]} : ({a}) -> tensor<i32>"


def _shape_cases() -> list[ShapeCase]:
    """Every configuration in f32 and i8, and every element type in one of them."""
    cases: list[ShapeCase] = []
    for op, configs in SHAPE_CONFIGS.items():
        chosen: list[tuple[str, int]] = [(t, i) for i in range(len(configs)) for t in ("f32", "i8")]
        chosen += [(t, (j + 1) % len(configs)) for j, t in enumerate(ALL) if t not in ("f32", "i8")]
        for t, i in chosen:
            shape, out, params = configs[i]
            c = ShapeCase(f"{op}_{t}_{i}", op, t, shape, out, params)
            cases.append(c)
            r = "tensor<i32>" if op == "get_dimension_size" else ttype(t, out)
            SHAPE.add(c.name, [ttype(t, shape)], [shape_op_text(c)], [("%r", r)])
    return cases


SHAPE_CASES = _shape_cases()


def ref_shape_op(c: ShapeCase, x: np.ndarray) -> np.ndarray:
    p = c.params
    if c.op == "broadcast":
        return np.broadcast_to(x, c.out).copy()
    if c.op == "broadcast_in_dim":
        assert p is not None
        shape = [1] * len(c.out)
        for i, d in enumerate(p):
            shape[d] = x.shape[i]
        # dims need not be increasing: transpose the operand into result order first.
        order = sorted(range(len(p)), key=lambda i: p[i])
        return np.broadcast_to(np.transpose(x, order).reshape(shape), c.out).copy()
    if c.op in ("reshape", "collapse"):
        return x.reshape(c.out)
    if c.op == "reshape_dims":
        return np.transpose(x, p).reshape(c.out)
    if c.op == "transpose":
        return np.transpose(x, p).copy()
    assert p is not None
    return np.array(c.shape[p[0]], dtype=np.int32)


@pytest.fixture(scope="module")
def shape_kernels() -> Kernels:
    return Kernels(SHAPE)


@pytest.mark.parametrize("case", SHAPE_CASES, ids=ids(SHAPE_CASES))
def test_shape_op(shape_kernels: Kernels, case: ShapeCase) -> None:
    x = sample(case.t, case.shape, case.name)
    assert_same(shape_kernels[case.name](x), ref_shape_op(case, x), case.name)


# ===========================================================================
# Slicing: slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse
# ===========================================================================

SLICING = Module()


@dataclass(frozen=True)
class SliceCase:
    name: str
    t: str
    shape: tuple[int, ...]
    starts: tuple[int, ...]
    limits: tuple[int, ...]
    strides: tuple[int, ...]


SLICE_CONFIGS = [
    ((10,), (1,), (9,), (3,)),
    ((3, 6), (0, 2), (3, 6), (2, 3)),
    ((2, 3, 4), (0, 1, 0), (2, 3, 4), (1, 1, 2)),
    ((5,), (3,), (3,), (1,)),
    ((), (), (), ()),
    ((4, 1, 5), (1, 0, 4), (4, 1, 5), (2, 1, 1)),
    ((7, 3), (6, 0), (7, 3), (5, 2)),
]


def _slice_cases() -> list[SliceCase]:
    cases: list[SliceCase] = []
    chosen = [(t, i) for i in range(len(SLICE_CONFIGS)) for t in ("f32",)]
    chosen += [(t, j % len(SLICE_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, starts, limits, strides = SLICE_CONFIGS[i]
        c = SliceCase(f"slice_{t}_{i}", t, shape, starts, limits, strides)
        cases.append(c)
        out = tuple(-(-(hi - lo) // s) for lo, hi, s in zip(starts, limits, strides))
        spec = ", ".join(f"{lo}:{hi}:{s}" for lo, hi, s in zip(starts, limits, strides))
        a, r = ttype(t, shape), ttype(t, out)
        SLICING.add(c.name, [a], [f"%r = xla.slice %a0 [{spec}] : ({a}) -> {r}"], [("%r", r)])
    return cases


SLICE_CASES = _slice_cases()


@dataclass(frozen=True)
class DynamicSliceCase:
    name: str
    t: str
    index_type: str
    shape: tuple[int, ...]
    sizes: tuple[int, ...]
    update: bool


DYNAMIC_CONFIGS = [
    ((5, 6), (2, 3)),
    ((4, 3, 2), (2, 1, 2)),
    ((), ()),
    ((5,), (5,)),
    ((7,), (3,)),
    ((3, 1), (1, 1)),
]
INDEX_TYPES = ["i32", "i64", "ui32", "ui64", "i8", "ui8", "i16", "ui16"]


def _dynamic_slice_cases() -> list[DynamicSliceCase]:
    cases: list[DynamicSliceCase] = []
    for update in (False, True):
        kind = "dus" if update else "ds"
        chosen = [("f32", "i32", i) for i in range(len(DYNAMIC_CONFIGS))]
        chosen += [
            ("i64", it, j % len(DYNAMIC_CONFIGS)) for j, it in enumerate(INDEX_TYPES) if it != "i32"
        ]
        chosen += [
            (t, INDEX_TYPES[j % len(INDEX_TYPES)], j % len(DYNAMIC_CONFIGS))
            for j, t in enumerate(ALL)
            if t not in ("f32", "i64")
        ]
        for t, it, i in chosen:
            shape, sizes = DYNAMIC_CONFIGS[i]
            if not shape and i != 2:
                continue
            c = DynamicSliceCase(f"{kind}_{t}_{it}_{i}", t, it, shape, sizes, update)
            cases.append(c)
            a, u, s = ttype(t, shape), ttype(t, sizes), ttype(it, ())
            starts = "".join(f", %a{k + (2 if update else 1)}" for k in range(len(shape)))
            index_types = "".join(f", {s}" for _ in shape)
            if update:
                op = f"%r = xla.dynamic_update_slice %a0, %a1{starts} : ({a}, {u}{index_types}) -> {a}"
                params = [a, u] + [s] * len(shape)
                SLICING.add(c.name, params, [op], [("%r", a)])
            else:
                op = f"%r = xla.dynamic_slice %a0{starts}, sizes = {fmt_ints(sizes)} : ({a}{index_types}) -> {u}"
                SLICING.add(c.name, [a] + [s] * len(shape), [op], [("%r", u)])
    return cases


DYNAMIC_SLICE_CASES = _dynamic_slice_cases()


def start_choices(c: DynamicSliceCase) -> list[tuple[int, ...]]:
    """Start indices in range, negative, past the end, and the extremes of the
    index type (unsigned ones read as huge positive values)."""
    lo, hi = int_range(c.index_type)
    rank = len(c.shape)
    choices = [
        tuple(1 for _ in range(rank)),
        tuple(0 for _ in range(rank)),
        tuple(d - s for d, s in zip(c.shape, c.sizes)),
        tuple(100 if k % 2 == 0 else 1 for k in range(rank)),
        tuple(hi for _ in range(rank)),
        tuple(lo if k % 2 == 0 else hi for k in range(rank)),
    ]
    if lo < 0:
        choices += [tuple(-1 for _ in range(rank)), tuple(-3 if k % 2 else 2 for k in range(rank))]
    else:
        choices += [tuple(hi - 1 for _ in range(rank))]
    return [tuple(min(max(v, lo), hi) for v in s) for s in choices]


def clamp_starts(starts: Sequence[int], shape: Sequence[int], sizes: Sequence[int]) -> list[int]:
    return [min(max(s, 0), d - n) for s, d, n in zip(starts, shape, sizes)]


@dataclass(frozen=True)
class ConcatCase:
    name: str
    t: str
    shapes: tuple[tuple[int, ...], ...]
    dim: int


def _concat_cases() -> list[ConcatCase]:
    cases: list[ConcatCase] = []
    base = (2, 3, 4)
    parts = [1, 2, 3]
    for dim in range(3):
        shapes = tuple(tuple(p if d == dim else base[d] for d in range(3)) for p in parts)
        for t in ("f32", "i8"):
            cases.append(ConcatCase(f"concat_{t}_d{dim}", t, shapes, dim))
    others = [t for t in ALL if t not in ("f32", "i8")]
    for j, t in enumerate(others):
        if j % 3 == 0:
            cases.append(ConcatCase(f"concat_{t}_1d", t, ((2,), (1,), (3,), (2,)), 0))
        elif j % 3 == 1:
            cases.append(ConcatCase(f"concat_{t}_d1", t, ((2, 1), (2, 3), (2, 2)), 1))
        else:
            cases.append(ConcatCase(f"concat_{t}_empty_part", t, ((3, 2), (0, 2), (1, 2)), 0))
    for c in cases:
        types = [ttype(c.t, s) for s in c.shapes]
        out = list(c.shapes[0])
        out[c.dim] = sum(s[c.dim] for s in c.shapes)
        r = ttype(c.t, out)
        operands = ", ".join(f"%a{i}" for i in range(len(types)))
        SLICING.add(
            c.name,
            types,
            [f"%r = xla.concatenate {operands}, dim = {c.dim} : ({', '.join(types)}) -> {r}"],
            [("%r", r)],
        )
    return cases


CONCAT_CASES = _concat_cases()


@dataclass(frozen=True)
class PadCase:
    name: str
    t: str
    shape: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    interior: tuple[int, ...]

    @property
    def out(self) -> tuple[int, ...]:
        return tuple(
            lo + hi + n + max(n - 1, 0) * i
            for n, lo, hi, i in zip(self.shape, self.low, self.high, self.interior)
        )


PAD_CONFIGS = [
    ((5, 4), (1, -1), (1, -1), (0, 1)),
    ((3,), (0,), (1,), (2,)),
    ((2,), (-1,), (-1,), (0,)),
    ((3, 2), (-2, 2), (3, -3), (0, 1)),
    ((4,), (-3,), (-1,), (2,)),
    ((2, 3, 4), (1, 0, -1), (0, 2, -2), (1, 0, 2)),
    ((), (), (), ()),
    ((2, 3), (0, -2), (0, -1), (0, 0)),
    ((3,), (-5,), (4,), (0,)),
    ((1, 3), (2, 0), (1, 0), (5, 0)),
    ((3,), (-4,), (0,), (1,)),
]


def _pad_cases() -> list[PadCase]:
    cases: list[PadCase] = []
    chosen = [("f32", i) for i in range(len(PAD_CONFIGS))]
    chosen += [(t, j % len(PAD_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, low, high, interior = PAD_CONFIGS[i]
        c = PadCase(f"pad_{t}_{i}", t, shape, low, high, interior)
        cases.append(c)
        a, v, r = ttype(t, shape), ttype(t, ()), ttype(t, c.out)
        op = f"%r = xla.pad %a0, %a1, low = {fmt_ints(low)}, high = {fmt_ints(high)}, interior = {fmt_ints(interior)} : ({a}, {v}) -> {r}"
        SLICING.add(c.name, [a, v], [op], [("%r", r)])
    return cases


PAD_CASES = _pad_cases()


def ref_pad(x: np.ndarray, value: np.ndarray, c: PadCase) -> np.ndarray:
    out = np.full(c.out, value, dtype=x.dtype)
    for index in np.ndindex(*x.shape):
        target = tuple(lo + k * (i + 1) for k, lo, i in zip(index, c.low, c.interior))
        if all(0 <= p < n for p, n in zip(target, c.out)):
            out[target] = x[index]
    return out


@dataclass(frozen=True)
class ReverseCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]


REVERSE_CONFIGS = [
    ((2, 3, 4), (0,)),
    ((2, 3, 4), (1, 2)),
    ((2, 3, 4), (0, 1, 2)),
    ((2, 3, 4), ()),
    ((5,), (0,)),
    ((), ()),
    ((3, 1, 2), (2, 1)),
]


def _reverse_cases() -> list[ReverseCase]:
    cases: list[ReverseCase] = []
    chosen = [("f32", i) for i in range(len(REVERSE_CONFIGS))]
    chosen += [(t, j % len(REVERSE_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, dims = REVERSE_CONFIGS[i]
        c = ReverseCase(f"reverse_{t}_{i}", t, shape, dims)
        cases.append(c)
        a = ttype(t, shape)
        SLICING.add(
            c.name, [a], [f"%r = xla.reverse %a0, dims = {fmt_ints(dims)} : {a}"], [("%r", a)]
        )
    return cases


REVERSE_CASES = _reverse_cases()


@pytest.fixture(scope="module")
def slicing() -> Kernels:
    return Kernels(SLICING)


@pytest.mark.parametrize("case", SLICE_CASES, ids=ids(SLICE_CASES))
def test_slice(slicing: Kernels, case: SliceCase) -> None:
    x = sample(case.t, case.shape, case.name)
    index = tuple(slice(lo, hi, s) for lo, hi, s in zip(case.starts, case.limits, case.strides))
    assert_same(slicing[case.name](x), np.array(x[index]), case.name)


@pytest.mark.parametrize("case", DYNAMIC_SLICE_CASES, ids=ids(DYNAMIC_SLICE_CASES))
def test_dynamic_slice(slicing: Kernels, case: DynamicSliceCase) -> None:
    f = slicing[case.name]
    x = sample(case.t, case.shape, case.name, "x")
    update = sample(case.t, case.sizes, case.name, "u")
    for starts in start_choices(case):
        args = [scalar(s, case.index_type) for s in starts]
        begin = clamp_starts(starts, case.shape, case.sizes)
        index = tuple(slice(b, b + n) for b, n in zip(begin, case.sizes))
        if case.update:
            expected = x.copy()
            expected[index] = update
            assert_same(f(x, update, *args), expected, f"{case.name} starts={starts}")
        else:
            assert_same(f(x, *args), np.array(x[index]), f"{case.name} starts={starts}")


@pytest.mark.parametrize("case", CONCAT_CASES, ids=ids(CONCAT_CASES))
def test_concatenate(slicing: Kernels, case: ConcatCase) -> None:
    parts = [sample(case.t, s, case.name, i) for i, s in enumerate(case.shapes)]
    assert_same(slicing[case.name](*parts), np.concatenate(parts, axis=case.dim), case.name)


@pytest.mark.parametrize("case", PAD_CASES, ids=ids(PAD_CASES))
def test_pad(slicing: Kernels, case: PadCase) -> None:
    x = sample(case.t, case.shape, case.name, special=False)
    value = array(1 if case.t == "i1" else 7, case.t).reshape(())
    if case.t == "i1":
        x = np.zeros(case.shape, np.bool_) | (np.arange(x.size).reshape(case.shape) % 3 == 0)
    assert_same(slicing[case.name](x, value), ref_pad(x, value, case), case.name)


@pytest.mark.parametrize("case", REVERSE_CASES, ids=ids(REVERSE_CASES))
def test_reverse(slicing: Kernels, case: ReverseCase) -> None:
    x = sample(case.t, case.shape, case.name)
    expected = np.flip(x, case.dims).copy() if case.dims else x.copy()
    assert_same(slicing[case.name](x), expected, case.name)


# ===========================================================================
# Contraction: dot, dot_general
# ===========================================================================

CONTRACTION = Module()


@dataclass(frozen=True)
class DotCase:
    """`dot_general` with the given dimension numbers (`dot` when `plain`)."""

    name: str
    lhs_t: str
    rhs_t: str
    out_t: str
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    batch: tuple[tuple[int, ...], tuple[int, ...]]
    contracting: tuple[tuple[int, ...], tuple[int, ...]]
    plain: bool

    @property
    def out(self) -> tuple[int, ...]:
        lb, rb = self.batch
        lc, rc = self.contracting
        lf = [self.lhs[d] for d in range(len(self.lhs)) if d not in lb and d not in lc]
        rf = [self.rhs[d] for d in range(len(self.rhs)) if d not in rb and d not in rc]
        return (*[self.lhs[d] for d in lb], *lf, *rf)


def _dot_cases() -> list[DotCase]:
    cases: list[DotCase] = []
    forms = {
        "vv": ((5,), (5,)),
        "mv": ((3, 5), (5,)),
        "mm": ((3, 5), (5, 4)),
        "mm1": ((1, 3), (3, 1)),
    }
    for t in ["f32", "f64", "i32", "bf16", "i1", "f16", "ui32", "i64", "i8", "ui8"]:
        chosen = forms if t in ("f32", "f64", "i32", "bf16") else {"mm": forms["mm"]}
        for form, (lhs, rhs) in chosen.items():
            c = (len(lhs) - 1,), (0,)
            cases.append(DotCase(f"dot_{t}_{form}", t, t, t, lhs, rhs, ((), ()), c, True))
    # Mixed element types: the result type is the accumulation type.
    cases += [
        DotCase("dot_i8_i32_mm", "i8", "i8", "i32", (3, 4), (4, 2), ((), ()), ((1,), (0,)), True),
        DotCase(
            "dot_general_i8_i32", "i8", "i8", "i32", (4, 3), (4, 2), ((), ()), ((0,), (0,)), False
        ),
        DotCase(
            "dot_general_ui8_ui32",
            "ui8",
            "ui8",
            "ui32",
            (2, 6),
            (6, 3),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_bf16_f32",
            "bf16",
            "bf16",
            "f32",
            (3, 40),
            (40, 2),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_f16_f32",
            "f16",
            "f16",
            "f32",
            (2, 30),
            (30,),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_f32_f64",
            "f32",
            "f32",
            "f64",
            (2, 3),
            (3, 2),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_bf16_long",
            "bf16",
            "bf16",
            "bf16",
            (1, 200),
            (200, 1),
            ((), ()),
            ((1,), (0,)),
            True,
        ),
    ]
    # dot_general: batch dimensions anywhere, several contracting dimensions, not last.
    general = [
        ("batch_front", (2, 3, 4), (2, 4, 5), ((0,), (0,)), ((2,), (1,))),
        ("batch_middle", (3, 2, 4), (4, 2, 5), ((1,), (1,)), ((2,), (0,))),
        ("batch_last", (3, 4, 2), (5, 2, 4), ((2,), (1,)), ((1,), (2,))),
        ("batch_two", (2, 3, 4, 5), (3, 2, 5, 6), ((1, 0), (0, 1)), ((3,), (2,))),
        ("contract_two", (2, 3, 4), (4, 3, 5), ((), ()), ((1, 2), (1, 0))),
        ("contract_first", (4, 3), (4, 5), ((), ()), ((0,), (0,))),
        ("contract_all", (2, 3), (2, 3), ((), ()), ((0, 1), (0, 1))),
        ("outer", (2,), (3,), ((), ()), ((), ())),
        ("batch_only", (2, 3), (2, 4), ((0,), (0,)), ((), ())),
        ("size_one", (1, 3, 1), (1, 1, 2), ((0,), (0,)), ((2,), (1,))),
    ]
    for label, lhs, rhs, batch, contracting in general:
        for t in (
            ("f32", "i32")
            if label in ("batch_middle", "contract_two")
            else ("f64",)
            if label == "batch_two"
            else ("f32",)
        ):
            cases.append(
                DotCase(f"dot_general_{label}_{t}", t, t, t, lhs, rhs, batch, contracting, False)
            )
    for c in cases:
        a, b, r = ttype(c.lhs_t, c.lhs), ttype(c.rhs_t, c.rhs), ttype(c.out_t, c.out)
        if c.plain:
            op = f"%r = xla.dot %a0, %a1 : ({a}, {b}) -> {r}"
        else:
            batch = (
                f"batching_dims = {fmt_ints(c.batch[0])} x {fmt_ints(c.batch[1])}, "
                if c.batch[0]
                else ""
            )
            op = f"%r = xla.dot_general %a0, %a1, {batch}contracting_dims = {fmt_ints(c.contracting[0])} x {fmt_ints(c.contracting[1])} : ({a}, {b}) -> {r}"
        CONTRACTION.add(c.name, [a, b], [op], [("%r", r)])
    return cases


DOT_CASES = _dot_cases()


def ref_dot(c: DotCase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """einsum in float64 (exact for the small integers used) or object ints
    (wrapping to the result type)."""
    letters = iter("abcdefghijklmnop")
    ls = [""] * len(c.lhs)
    rs = [""] * len(c.rhs)
    for lb, rb in zip(*c.batch):
        ls[lb] = rs[rb] = next(letters)
    for lc, rc in zip(*c.contracting):
        ls[lc] = rs[rc] = next(letters)
    for i in range(len(ls)):
        ls[i] = ls[i] or next(letters)
    for i in range(len(rs)):
        rs[i] = rs[i] or next(letters)
    out = [ls[d] for d in c.batch[0]]
    out += [ls[d] for d in range(len(ls)) if d not in c.batch[0] and d not in c.contracting[0]]
    out += [rs[d] for d in range(len(rs)) if d not in c.batch[1] and d not in c.contracting[1]]
    spec = f"{''.join(ls)},{''.join(rs)}->{''.join(out)}"
    if c.out_t == "i1":
        return np.einsum(spec, x.astype(np.int64), y.astype(np.int64)) > 0
    if c.out_t in FLOATS:
        return np.asarray(np.einsum(spec, x.astype(np.float64), y.astype(np.float64))).astype(
            DTYPES[c.out_t]
        )
    result = np.einsum(spec, x.astype(object), y.astype(object))
    return array(np.asarray(result, dtype=object), c.out_t)


@pytest.fixture(scope="module")
def contraction() -> Kernels:
    return Kernels(CONTRACTION)


@pytest.mark.parametrize("case", DOT_CASES, ids=ids(DOT_CASES))
def test_dot(contraction: Kernels, case: DotCase) -> None:
    # Small integers keep float sums exact in any order (bf16 up to 256).
    widening = (
        case.lhs_t in INTS and case.out_t != case.lhs_t
    )  # full-range operands: their signedness shows
    x = sample(case.lhs_t, case.lhs, case.name, "x", special=False, small=not widening)
    y = sample(case.rhs_t, case.rhs, case.name, "y", special=False, small=not widening)
    if case.lhs_t in ("bf16", "f16") and case.out_t == case.lhs_t:
        x, y = (
            array(np.clip(x.astype(np.float64), -3, 3), case.lhs_t),
            array(np.clip(y.astype(np.float64), -3, 3), case.rhs_t),
        )
    if case.lhs_t in INTS and case.out_t == case.lhs_t and case.name.endswith("mm"):
        x.reshape(-1)[0] = array(int_range(case.lhs_t)[1], case.lhs_t)  # wraps in the result type
    assert_same(contraction[case.name](x, y), ref_dot(case, x, y), case.name)


def test_dot_bf16_accumulates_in_f32(contraction: Kernels) -> None:
    """bf16 products accumulate in f32: 40 x 1.0078125 is exact there, and a bf16
    result is rounded once (XLA's CPU backend computes bf16 dots in f32);
    rounding after each addition would give 201 for 200 terms instead of 202."""
    x = array(np.full((3, 40), 1.0078125), "bf16")
    y = array(np.ones((40, 2)), "bf16")
    assert_same(
        contraction["dot_general_bf16_f32"](x, y), np.full((3, 2), 40 * 1.0078125, np.float32)
    )
    a = array(np.full((1, 200), 1.0078125), "bf16")
    b = array(np.ones((200, 1)), "bf16")
    assert_same(contraction["dot_bf16_long"](a, b), array([[202.0]], "bf16"))


# ===========================================================================
# Reduction: reduce (single and variadic), map
# ===========================================================================

REDUCTION = Module()


@dataclass(frozen=True)
class ReduceCase:
    name: str
    reducer: str
    t: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]


INITS: dict[str, Callable[[str], Any]] = {
    "add": lambda t: 0,
    "multiply": lambda t: 1,
    "maximum": lambda t: -math.inf if t in FLOATS else int_range(t)[0],
    "minimum": lambda t: math.inf if t in FLOATS else int_range(t)[1],
    "and": lambda t: True if t == "i1" else -1,
    "or": lambda t: 0,
}


def _reduce_cases() -> list[ReduceCase]:
    cases: list[ReduceCase] = []
    shape = (2, 3, 4)
    for n in range(4):
        for dims in combinations(range(3), n):
            for t in ("f32", "i32"):
                cases.append(
                    ReduceCase(
                        f"reduce_add_{t}_{''.join(map(str, dims)) or 'none'}", "add", t, shape, dims
                    )
                )
    reducers = {
        "add": NUMERIC + ["i1"],
        "maximum": NUMERIC + ["i1"],
        "minimum": NUMERIC,
        "multiply": ["i8", "ui16", "i64", "f64", "f16"],
        "and": ["i1", "i16", "ui32"],
        "or": ["i1", "ui8", "i64"],
    }
    shapes_dims = [((3, 5), (1,)), ((4, 1, 3), (0, 2)), ((6,), (0,)), ((2, 3, 2), (0,)), ((), ())]
    k = 0
    for reducer, types in reducers.items():
        for t in types:
            if reducer == "add" and t in ("f32", "i32"):
                continue
            s, dims = shapes_dims[k % len(shapes_dims)]
            k += 1
            cases.append(ReduceCase(f"reduce_{reducer}_{t}", reducer, t, s, dims))
    for c in cases:
        a, i = ttype(c.t, c.shape), ttype(c.t, ())
        r = ttype(c.t, [d for k2, d in enumerate(c.shape) if k2 not in c.dims])
        op = f"%r = xla.reduce(%a0 init: %a1) applies xla.{c.reducer} across dimensions = {fmt_ints(c.dims)} : ({a}, {i}) -> {r}"
        REDUCTION.add(c.name, [a, i], [op], [("%r", r)])
    return cases


REDUCE_CASES = _reduce_cases()


def ref_reduce(c: ReduceCase, x: np.ndarray, init: np.ndarray) -> np.ndarray:
    """The reducer applied in row-major order over each reduced group, in the
    element type (bf16 in f32, rounded once at the end, as XLA's CPU backend)."""
    t = "f32" if c.t == "bf16" else c.t
    kept = [d for d in range(x.ndim) if d not in c.dims]
    moved = (
        np.transpose(x, kept + list(c.dims))
        .reshape([x.shape[d] for d in kept] + [-1])
        .astype(DTYPES[t])
    )
    acc = np.full(moved.shape[:-1], init, dtype=DTYPES[t])
    for j in range(moved.shape[-1]):
        acc = ref_reducer(c.reducer, acc, moved[..., j], t)
    return acc.astype(x.dtype)


def ref_reducer(reducer: str, acc: np.ndarray, x: np.ndarray, t: str) -> np.ndarray:
    if reducer in ("and", "or"):
        if t == "i1":
            return np.logical_and(acc, x) if reducer == "and" else np.logical_or(acc, x)
        return np.bitwise_and(acc, x) if reducer == "and" else np.bitwise_or(acc, x)
    return (
        np.asarray(ref_binary(reducer, acc, x, t))
        if t in INTS or t == "i1" or reducer in ("maximum", "minimum")
        else _float_step(reducer, acc, x)
    )


def _float_step(reducer: str, acc: np.ndarray, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        f = np.add if reducer == "add" else np.multiply
        return f(acc.astype(np.float64), x.astype(np.float64)).astype(acc.dtype)


@dataclass(frozen=True)
class ArgCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dim: int
    direction: str  # GT: argmax, LT: argmin


def _arg_cases() -> list[ArgCase]:
    cases = [
        ArgCase("argmax_f32_d1", "f32", (3, 5), 1, "GT"),
        ArgCase("argmin_f32_d0", "f32", (4, 3), 0, "LT"),
        ArgCase("argmax_i8_d2", "i8", (2, 3, 6), 2, "GT"),
        ArgCase("argmin_ui16_d1", "ui16", (2, 7, 2), 1, "LT"),
        ArgCase("argmax_bf16_d0", "bf16", (6,), 0, "GT"),
        ArgCase("argmin_i64_d0", "i64", (5, 1), 0, "LT"),
    ]
    for c in cases:
        a, s = ttype(c.t, c.shape), ttype(c.t, ())
        out = [d for k, d in enumerate(c.shape) if k != c.dim]
        r, ri = ttype(c.t, out), ttype("i32", out)
        ai, si = ttype("i32", c.shape), ttype("i32", ())
        ops = [
            f"%idx = xla.iota dim = {c.dim} : {ai}",
            '%r:2 = "xla.reduce"(%a0, %idx, %a1, %a2) ({',
            f"  ^bb0(%av: {s}, %ai: {si}, %xv: {s}, %xi: {si}):",
            f"    %better = xla.compare {c.direction}, %av, %xv : ({s}, {s}) -> tensor<i1>",
            f"    %same = xla.compare EQ, %av, %xv : ({s}, {s}) -> tensor<i1>",
            f"    %first = xla.compare LT, %ai, %xi : ({si}, {si}) -> tensor<i1>",
            "    %tie = xla.and %same, %first : tensor<i1>",
            "    %keep = xla.or %better, %tie : tensor<i1>",
            f"    %v = xla.select %keep, %av, %xv : (tensor<i1>, {s}, {s}) -> {s}",
            f"    %i = xla.select %keep, %ai, %xi : (tensor<i1>, {si}, {si}) -> {si}",
            f"    xla.return %v, %i : {s}, {si}",
            f"  }}) {{dimensions = array<i64: {c.dim}>}} : ({a}, {ai}, {s}, {si}) -> ({r}, {ri})",
        ]
        REDUCTION.add(c.name, [a, s, si], ops, [("%r#0", r), ("%r#1", ri)])
    return cases


ARG_CASES = _arg_cases()


def _bf16_reducers() -> None:
    """bf16 reductions whose per-step bf16 rounding would stall at 256."""
    v, s = ttype("bf16", (1000,)), ttype("bf16", ())
    REDUCTION.add(
        "reduce_bf16_sum_1000",
        [v],
        [
            f"%z = xla.constant dense<0.0> : {s}",
            f"%r = xla.reduce(%a0 init: %z) applies xla.add across dimensions = [0] : ({v}, {s}) -> {s}",
        ],
        [("%r", s)],
    )
    ops = [
        f"%z = xla.constant dense<0.0> : {s}",
        '%r = "xla.reduce"(%a0, %z) ({',
        f"  ^bb0(%acc: {s}, %x: {s}):",
        f"    %half = xla.constant dense<0.5> : {s}",
        f"    %h = xla.multiply %x, %half : {s}",
        f"    %n = xla.add %acc, %h : {s}",
        f"    xla.return %n : {s}",
        f"  }}) {{dimensions = array<i64: 0>}} : ({v}, {s}) -> {s}",
    ]
    REDUCTION.add("reduce_bf16_region_constant", [v], ops, [("%r", s)])
    # A reducer reading bf16 bits cannot be widened: it rounds at each step.
    i16 = ttype("i16", ())
    ops = [
        f"%z = xla.constant dense<0.0> : {s}",
        '%r = "xla.reduce"(%a0, %z) ({',
        f"  ^bb0(%acc: {s}, %x: {s}):",
        f"    %n = xla.add %acc, %x : {s}",
        f"    %bits = xla.bitcast_convert %n : ({s}) -> {i16}",
        f"    %back = xla.bitcast_convert %bits : ({i16}) -> {s}",
        f"    xla.return %back : {s}",
        f"  }}) {{dimensions = array<i64: 0>}} : ({v}, {s}) -> {s}",
    ]
    REDUCTION.add("reduce_bf16_region_bits", [v], ops, [("%r", s)])


_bf16_reducers()


@dataclass(frozen=True)
class MapCase:
    name: str
    t: str
    out_t: str
    shape: tuple[int, ...]
    body: str


def _map_cases() -> list[MapCase]:
    cases = [
        MapCase("map_f32_rank2", "f32", "f32", (3, 4), "float"),
        MapCase("map_f64_rank0", "f64", "f64", (), "float"),
        MapCase("map_i32_rank3", "i32", "i32", (2, 1, 3), "int"),
        MapCase("map_ui8_rank1", "ui8", "ui8", (9,), "int"),
        MapCase("map_bf16_rank1", "bf16", "bf16", (5,), "float"),
        MapCase("map_f32_to_i1", "f32", "i1", (2, 3), "pred"),
        MapCase("map_f32_to_i16", "f32", "i16", (7,), "convert"),
    ]
    for c in cases:
        a, r = ttype(c.t, c.shape), ttype(c.out_t, c.shape)
        s, so = ttype(c.t, ()), ttype(c.out_t, ())
        if c.body == "float":  # sqrt(|x|) + 2 * y
            region = [
                f"%m = xla.abs %x : {s}",
                f"%q = xla.sqrt %m : {s}",
                f"%two = xla.constant dense<2.0> : {s}",
                f"%t = xla.multiply %two, %y : {s}",
                f"%o = xla.add %q, %t : {s}",
            ]
        elif c.body == "int":  # max(x * y + 3, x)
            region = [
                f"%p = xla.multiply %x, %y : {s}",
                f"%three = xla.constant dense<3> : {s}",
                f"%q = xla.add %p, %three : {s}",
                f"%o = xla.maximum %q, %x : {s}",
            ]
        elif c.body == "pred":  # x < y or x is not finite
            region = [
                f"%lt = xla.compare LT, %x, %y : ({s}, {s}) -> {so}",
                f"%fin = xla.is_finite %x : ({s}) -> {so}",
                f"%inf = xla.not %fin : {so}",
                f"%o = xla.or %lt, %inf : {so}",
            ]
        else:  # convert(x - y)
            region = [f"%d = xla.subtract %x, %y : {s}", f"%o = xla.convert %d : ({s}) -> {so}"]
        dims = ", ".join(str(d) for d in range(len(c.shape)))
        ops = [
            f'%r = "xla.map"(%a0, %a1) <{{dimensions = array<i64{": " + dims if dims else ""}>}}> ({{',
            f"  ^bb0(%x: {s}, %y: {s}):",
            *[f"    {line}" for line in region],
            f"    xla.return %o : {so}",
            f"  }}) : ({a}, {a}) -> {r}",
        ]
        REDUCTION.add(c.name, [a, a], ops, [("%r", r)])
    return cases


MAP_CASES = _map_cases()


def ref_map(c: MapCase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if c.body == "float":
        if c.t == "bf16":  # each op rounds to bf16
            q = np.sqrt(np.abs(x).astype(np.float32)).astype(x.dtype)
            t = (np.float32(2) * y.astype(np.float32)).astype(x.dtype)
            return (q.astype(np.float32) + t.astype(np.float32)).astype(x.dtype)
        with np.errstate(invalid="ignore"):
            return (np.sqrt(np.abs(x)) + 2 * y).astype(x.dtype)
    if c.body == "int":
        p = ref_binary("add", ref_binary("multiply", x, y, c.t), np.full(x.shape, 3, x.dtype), c.t)
        return ref_binary("maximum", p, x, c.t)
    if c.body == "pred":
        return np.asarray((x < y) | ~np.isfinite(x))
    with np.errstate(over="ignore"):
        return ref_convert((x - y).astype(np.float32), "f32", c.out_t)


@pytest.fixture(scope="module")
def reduction_kernels() -> Kernels:
    return Kernels(REDUCTION)


@pytest.mark.parametrize("case", REDUCE_CASES, ids=ids(REDUCE_CASES))
def test_reduce(reduction_kernels: Kernels, case: ReduceCase) -> None:
    small = case.reducer in ("add", "multiply") and case.t in FLOATS
    x = sample(
        case.t,
        case.shape,
        case.name,
        special=case.reducer in ("maximum", "minimum", "and", "or") or case.t in INTS,
        small=small,
    )
    if case.reducer == "multiply" and case.t in FLOATS:
        x = array(np.clip(x.astype(np.float64), -2, 2), case.t)
    init = array(INITS[case.reducer](case.t), case.t).reshape(())
    expected = ref_reduce(case, x, init)
    actual = reduction_kernels[case.name](x, init)
    assert_same(actual, expected, case.name)
    if case.reducer == "add" and case.t in INTS and x.size > 1:
        # A non-neutral init is added once per output element.
        seven = array(7, case.t).reshape(())
        assert_same(
            reduction_kernels[case.name](x, seven),
            ref_reduce(case, x, seven),
            f"{case.name} init=7",
        )


@pytest.mark.parametrize("case", ARG_CASES, ids=ids(ARG_CASES))
def test_reduce_argmax_argmin(reduction_kernels: Kernels, case: ArgCase) -> None:
    x = sample(case.t, case.shape, case.name, special=False, small=True)  # small values: ties
    if case.direction == "GT":
        init = -math.inf if case.t in FLOATS else int_range(case.t)[0]
        expected_i = np.argmax(x.astype(np.float64), axis=case.dim)
    else:
        init = math.inf if case.t in FLOATS else int_range(case.t)[1]
        expected_i = np.argmin(x.astype(np.float64), axis=case.dim)
    values, indices = reduction_kernels[case.name](
        x, scalar(init, case.t), scalar(2**31 - 1, "i32")
    )
    assert_same(indices, expected_i.astype(np.int32), f"{case.name} indices")
    expected_v = np.take_along_axis(x, np.expand_dims(expected_i, case.dim), case.dim).squeeze(
        case.dim
    )
    assert_same(values, np.array(expected_v), f"{case.name} values")


def test_reduce_bf16_accumulates_in_f32(reduction_kernels: Kernels) -> None:
    ones = array(np.ones(1000), "bf16")
    assert_same(reduction_kernels["reduce_bf16_sum_1000"](ones), scalar(1000.0, "bf16"))
    assert_same(reduction_kernels["reduce_bf16_region_constant"](ones), scalar(500.0, "bf16"))
    assert_same(reduction_kernels["reduce_bf16_region_bits"](ones), scalar(256.0, "bf16"))


@pytest.mark.parametrize("case", MAP_CASES, ids=ids(MAP_CASES))
def test_map(reduction_kernels: Kernels, case: MapCase) -> None:
    x = sample(case.t, case.shape, case.name, "x", special=case.body == "pred")
    y = sample(case.t, case.shape, case.name, "y", special=False)
    assert_same(reduction_kernels[case.name](x, y), ref_map(case, x, y), case.name)


# ===========================================================================
# Edges: zero-size tensors, and values used again after an op that could
# update them in place (a bufferization hazard)
# ===========================================================================

EDGES = Module()


@dataclass(frozen=True)
class EdgeCase:
    """A function of `params` ((type, shape) pairs) running `ops`; `reference`
    maps the inputs to the expected results."""

    name: str
    params: tuple[tuple[str, tuple[int, ...]], ...]
    ops: tuple[str, ...]
    results: tuple[tuple[str, str, tuple[int, ...]], ...]
    reference: Callable[..., tuple[np.ndarray, ...]] = field(compare=False)
    inputs: Callable[[], list[np.ndarray]] | None = field(default=None, compare=False)


def _e(
    name: str,
    params: Sequence[tuple[str, tuple[int, ...]]],
    ops: Sequence[str],
    results: Sequence[tuple[str, str, tuple[int, ...]]],
    reference: Callable[..., Any],
    inputs: Callable[[], list[np.ndarray]] | None = None,
) -> EdgeCase:
    def ref(*args: np.ndarray) -> tuple[np.ndarray, ...]:
        out = reference(*args)
        return tuple(out) if isinstance(out, tuple) else (out,)

    return EdgeCase(name, tuple(params), tuple(ops), tuple(results), ref, inputs)


F32 = "f32"
T = ttype


def _edge_cases() -> list[EdgeCase]:
    z = np.zeros
    cases = [
        _e(
            "zs_add",
            [(F32, (0, 3)), (F32, (0, 3))],
            [f"%r = xla.add %a0, %a1 : {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a, b: a + b,
        ),
        _e(
            "zs_convert",
            [("i32", (2, 0))],
            [f"%r = xla.convert %a0 : ({T('i32', (2, 0))}) -> {T('f64', (2, 0))}"],
            [("%r", "f64", (2, 0))],
            lambda a: a.astype(np.float64),
        ),
        _e(
            "zs_iota",
            [],
            [f"%r = xla.iota dim = 0 : {T('i32', (0,))}"],
            [("%r", "i32", (0,))],
            lambda: z((0,), np.int32),
        ),
        _e(
            "zs_broadcast_in_dim",
            [(F32, (0,))],
            [f"%r = xla.broadcast_in_dim %a0, dims = [1] : ({T(F32, (0,))}) -> {T(F32, (2, 0))}"],
            [("%r", F32, (2, 0))],
            lambda a: z((2, 0), np.float32),
        ),
        _e(
            "zs_broadcast_to_empty",
            [(F32, (3,))],
            [f"%r = xla.broadcast_in_dim %a0, dims = [1] : ({T(F32, (3,))}) -> {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a: z((0, 3), np.float32),
        ),
        _e(
            "zs_transpose",
            [("i8", (0, 3))],
            [f"%r = xla.transpose %a0, dims = [1, 0] : ({T('i8', (0, 3))}) -> {T('i8', (3, 0))}"],
            [("%r", "i8", (3, 0))],
            lambda a: z((3, 0), np.int8),
        ),
        _e(
            "zs_reshape",
            [(F32, (0, 3))],
            [f"%r = xla.reshape %a0 : ({T(F32, (0, 3))}) -> {T(F32, (3, 0, 1))}"],
            [("%r", F32, (3, 0, 1))],
            lambda a: z((3, 0, 1), np.float32),
        ),
        _e(
            "zs_reverse",
            [(F32, (0, 2))],
            [f"%r = xla.reverse %a0, dims = [0, 1] : {T(F32, (0, 2))}"],
            [("%r", F32, (0, 2))],
            lambda a: a.copy(),
        ),
        _e(
            "zs_slice",
            [(F32, (4, 3))],
            [f"%r = xla.slice %a0 [2:2, 0:3] : ({T(F32, (4, 3))}) -> {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a: z((0, 3), np.float32),
        ),
        _e(
            "zs_pad_all_padding",
            [(F32, (0,)), (F32, ())],
            [
                f"%r = xla.pad %a0, %a1, low = [1], high = [2], interior = [3] : ({T(F32, (0,))}, {T(F32, ())}) -> {T(F32, (3,))}"
            ],
            [("%r", F32, (3,))],
            lambda a, v: np.full((3,), v, np.float32),
        ),
        _e(
            "zs_concatenate",
            [(F32, (2, 0)), (F32, (1, 0)), (F32, (3, 0))],
            [
                f"%r = xla.concatenate %a0, %a1, %a2, dim = 0 : ({T(F32, (2, 0))}, {T(F32, (1, 0))}, {T(F32, (3, 0))}) -> {T(F32, (6, 0))}"
            ],
            [("%r", F32, (6, 0))],
            lambda a, b, c: z((6, 0), np.float32),
        ),
        _e(
            "zs_dynamic_slice",
            [(F32, (0,)), ("i32", ())],
            [
                f"%r = xla.dynamic_slice %a0, %a1, sizes = [0] : ({T(F32, (0,))}, {T('i32', ())}) -> {T(F32, (0,))}"
            ],
            [("%r", F32, (0,))],
            lambda a, i: z((0,), np.float32),
            lambda: [z((0,), np.float32), scalar(5, "i32")],
        ),
        _e(
            "zs_select",
            [("i1", (0, 2)), ("i64", (0, 2)), ("i64", (0, 2))],
            [
                f"%r = xla.select %a0, %a1, %a2 : ({T('i1', (0, 2))}, {T('i64', (0, 2))}, {T('i64', (0, 2))}) -> {T('i64', (0, 2))}"
            ],
            [("%r", "i64", (0, 2))],
            lambda p, a, b: a.copy(),
        ),
        _e(
            "zs_reduce_empty_dim",
            [(F32, (3, 0)), (F32, ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.add across dimensions = [1] : ({T(F32, (3, 0))}, {T(F32, ())}) -> {T(F32, (3,))}"
            ],
            [("%r", F32, (3,))],
            lambda a, i: np.full((3,), i, np.float32),
        ),
        _e(
            "zs_reduce_all",
            [("i32", (0, 4)), ("i32", ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.maximum across dimensions = [0, 1] : ({T('i32', (0, 4))}, {T('i32', ())}) -> {T('i32', ())}"
            ],
            [("%r", "i32", ())],
            lambda a, i: i.copy(),
        ),
        _e(
            "zs_reduce_kept_empty",
            [(F32, (0, 4)), (F32, ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.add across dimensions = [1] : ({T(F32, (0, 4))}, {T(F32, ())}) -> {T(F32, (0,))}"
            ],
            [("%r", F32, (0,))],
            lambda a, i: z((0,), np.float32),
        ),
        _e(
            "zs_dot_k0",
            [(F32, (3, 0)), (F32, (0, 4))],
            [f"%r = xla.dot %a0, %a1 : ({T(F32, (3, 0))}, {T(F32, (0, 4))}) -> {T(F32, (3, 4))}"],
            [("%r", F32, (3, 4))],
            lambda a, b: z((3, 4), np.float32),
        ),
        _e(
            "zs_dot_general_k0_i32",
            [("i32", (2, 0)), ("i32", (0,))],
            [
                f"%r = xla.dot_general %a0, %a1, contracting_dims = [1] x [0] : ({T('i32', (2, 0))}, {T('i32', (0,))}) -> {T('i32', (2,))}"
            ],
            [("%r", "i32", (2,))],
            lambda a, b: z((2,), np.int32),
        ),
        _e(
            "zs_dot_general_batch0",
            [(F32, (0, 2, 3)), (F32, (0, 3, 4))],
            [
                f"%r = xla.dot_general %a0, %a1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({T(F32, (0, 2, 3))}, {T(F32, (0, 3, 4))}) -> {T(F32, (0, 2, 4))}"
            ],
            [("%r", F32, (0, 2, 4))],
            lambda a, b: z((0, 2, 4), np.float32),
        ),
    ]

    # -- values read again after an op that could have updated them in place --
    v5, v2, s = T(F32, (5,)), T(F32, (2,)), T("i32", ())

    def dus(x: np.ndarray, u: np.ndarray, i: int) -> np.ndarray:
        out = x.copy()
        start = min(max(i, 0), x.shape[0] - u.shape[0])
        out[start : start + u.shape[0]] = u
        return out

    def five_two_start() -> list[np.ndarray]:
        return [
            np.arange(5, dtype=np.float32),
            np.array([10.0, 20.0], np.float32),
            scalar(1, "i32"),
        ]

    cases += [
        _e(
            "reuse_dus_argument",
            [(F32, (5,)), (F32, (2,)), ("i32", ())],
            [
                f"%d = xla.dynamic_update_slice %a0, %a1, %a2 : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.add %d, %a0 : {v5}",
            ],
            [("%r", F32, (5,)), ("%d", F32, (5,))],
            lambda x, u, i: (dus(x, u, int(i)) + x, dus(x, u, int(i))),
            five_two_start,
        ),
        _e(
            "reuse_dus_intermediate",
            [(F32, (5,)), (F32, (2,)), ("i32", ())],
            [
                f"%y = xla.add %a0, %a0 : {v5}",
                f"%d = xla.dynamic_update_slice %y, %a1, %a2 : ({v5}, {v2}, {s}) -> {v5}",
                f"%zero = xla.constant dense<0> : {s}",
                f"%e = xla.dynamic_update_slice %y, %a1, %zero : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.subtract %d, %e : {v5}",
            ],
            [("%r", F32, (5,)), ("%y", F32, (5,)), ("%d", F32, (5,))],
            lambda x, u, i: (
                dus(2 * x, u, int(i)) - dus(2 * x, u, 0),
                2 * x,
                dus(2 * x, u, int(i)),
            ),
            five_two_start,
        ),
        _e(
            "reuse_dus_constant",
            [(F32, (2,)), ("i32", ())],
            [
                f"%c = xla.constant dense<1.5> : {v5}",
                f"%d = xla.dynamic_update_slice %c, %a0, %a1 : ({v5}, {v2}, {s}) -> {v5}",
                f"%e = xla.dynamic_update_slice %c, %a0, %a1 : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.add %d, %c : {v5}",
            ],
            [("%r", F32, (5,)), ("%c", F32, (5,)), ("%e", F32, (5,))],
            lambda u, i: (
                dus(np.full(5, 1.5, np.float32), u, int(i)) + 1.5,
                np.full(5, 1.5, np.float32),
                dus(np.full(5, 1.5, np.float32), u, int(i)),
            ),
            lambda: [np.array([10.0, 20.0], np.float32), scalar(3, "i32")],
        ),
        _e(
            "reuse_pad_and_concatenate",
            [(F32, (3,)), (F32, ())],
            [
                f"%p = xla.pad %a0, %a1, low = [1], high = [1], interior = [1] : ({T(F32, (3,))}, {T(F32, ())}) -> {T(F32, (7,))}",
                f"%c = xla.concatenate %a0, %a0, %p, %a0, dim = 0 : ({T(F32, (3,))}, {T(F32, (3,))}, {T(F32, (7,))}, {T(F32, (3,))}) -> {T(F32, (16,))}",
                f"%s = xla.slice %c [3:10] : ({T(F32, (16,))}) -> {T(F32, (7,))}",
                f"%r = xla.add %s, %p : {T(F32, (7,))}",
            ],
            [("%r", F32, (7,)), ("%c", F32, (16,)), ("%p", F32, (7,))],
            lambda x, v: _pad_concat_reference(x, v),
        ),
        _e(
            "reuse_results_twice",
            [("i16", (2, 3))],
            [f"%t = xla.reshape %a0 : ({T('i16', (2, 3))}) -> {T('i16', (2, 3))}"],
            [("%a0", "i16", (2, 3)), ("%t", "i16", (2, 3)), ("%t", "i16", (2, 3))],
            lambda x: (x.copy(), x.copy(), x.copy()),
        ),
        _e(
            "reuse_dot_same_operand",
            [("i32", (3, 3))],
            [
                f"%r = xla.dot %a0, %a0 : ({T('i32', (3, 3))}, {T('i32', (3, 3))}) -> {T('i32', (3, 3))}"
            ],
            [("%r", "i32", (3, 3))],
            lambda x: (x.astype(np.int64) @ x.astype(np.int64)).astype(np.int32),
        ),
        _e(
            "chain_iota_reverse_slice_broadcast_reduce",
            [],
            [
                f"%i = xla.iota dim = 0 : {T('i64', (6,))}",
                f"%v = xla.reverse %i, dims = [0] : {T('i64', (6,))}",
                f"%s = xla.slice %v [1:6:2] : ({T('i64', (6,))}) -> {T('i64', (3,))}",
                f"%b = xla.broadcast_in_dim %s, dims = [1] : ({T('i64', (3,))}) -> {T('i64', (2, 3))}",
                f"%m = xla.multiply %b, %b : {T('i64', (2, 3))}",
                f"%z = xla.constant dense<0> : {T('i64', ())}",
                f"%r = xla.reduce(%m init: %z) applies xla.add across dimensions = [0] : ({T('i64', (2, 3))}, {T('i64', ())}) -> {T('i64', (3,))}",
            ],
            [("%r", "i64", (3,)), ("%s", "i64", (3,))],
            lambda: (2 * np.array([4, 2, 0], np.int64) ** 2, np.array([4, 2, 0], np.int64)),
        ),
    ]
    for c in cases:
        EDGES.add(
            c.name,
            [T(t, shape) for t, shape in c.params],
            list(c.ops),
            [(v, T(t, shape)) for v, t, shape in c.results],
        )
    return cases


def _pad_concat_reference(x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
    p = np.full(7, v, np.float32)
    p[1::2] = x
    c = np.concatenate([x, x, p, x])
    return c[3:10] + p, c, p


EDGE_CASES = _edge_cases()


@pytest.fixture(scope="module")
def edges() -> Kernels:
    return Kernels(EDGES)


@pytest.mark.parametrize("case", EDGE_CASES, ids=ids(EDGE_CASES))
def test_edge(edges: Kernels, case: EdgeCase) -> None:
    args = (
        case.inputs()
        if case.inputs
        else [sample(t, shape, case.name, k) for k, (t, shape) in enumerate(case.params)]
    )
    actual = edges[case.name](*args)
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = case.reference(*args)
    assert len(actual) == len(expected)
    for k, (a, e) in enumerate(zip(actual, expected)):
        assert_same(a, np.asarray(e).astype(DTYPES[case.results[k][1]]), f"{case.name} result {k}")
