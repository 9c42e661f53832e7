"""The cases of test_scalar_semantics.py: element types, edge values, NumPy/Python
references of XLA's element-wise semantics, and one `Case` per op x element type
(`CASES`), with the kernel each compiles to (`build_kernel`) and the comparison
(`check`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    bf16,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from lowering.scalar import emit_scalar_op, signless_type
from xla_dialect.ops.elementwise import (
    BINARY_OP_CLASSES,
    UNARY_OP_CLASSES,
    BitcastConvertOp,
    ClampOp,
    CompareOp,
    ConvertOp,
    ReducePrecisionOp,
    SelectOp,
)

BF16 = ml_dtypes.bfloat16

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ElemType:
    name: str
    xla: Attribute
    dtype: Any

    @property
    def is_float(self) -> bool:
        return self.name.startswith(("f", "bf"))

    @property
    def is_unsigned(self) -> bool:
        return self.name.startswith("ui")

    @property
    def is_pred(self) -> bool:
        return self.name == "pred"

    @property
    def width(self) -> int:
        return 1 if self.is_pred else np.dtype(self.dtype).itemsize * 8


def _int(width: int, signed: bool) -> IntegerType:
    return IntegerType(width, Signedness.SIGNLESS if signed else Signedness.UNSIGNED)


PRED = ElemType("pred", IntegerType(1), np.bool_)
SIGNED = [ElemType(f"i{w}", _int(w, True), np.dtype(f"int{w}")) for w in (8, 16, 32, 64)]
UNSIGNED = [ElemType(f"ui{w}", _int(w, False), np.dtype(f"uint{w}")) for w in (8, 16, 32, 64)]
INTS = SIGNED + UNSIGNED
FLOATS = [
    ElemType("f16", Float16Type(), np.dtype(np.float16)),
    ElemType("bf16", BFloat16Type(), np.dtype(BF16)),
    ElemType("f32", Float32Type(), np.dtype(np.float32)),
    ElemType("f64", Float64Type(), np.dtype(np.float64)),
]
ALL_TYPES = [PRED, *INTS, *FLOATS]
BY_NAME = {t.name: t for t in ALL_TYPES}


def finfo(t: ElemType) -> Any:
    return ml_dtypes.finfo(t.dtype) if t.name == "bf16" else np.finfo(t.dtype)


# ---------------------------------------------------------------------------
# Edge values
# ---------------------------------------------------------------------------


def float_values(t: ElemType, *, short: bool = False) -> np.ndarray:
    fi = finfo(t)
    tiny, sub, big = float(fi.tiny), float(fi.smallest_subnormal), float(fi.max)
    values = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.7, math.inf, -math.inf, math.nan, big, -sub, 100.25]
    if not short:
        values += [-0.5, 1.5, 2.5, -3.7, -1.5, -0.3, 7.0, -100.25, -big, tiny, sub, -tiny, 1e3, 0.7]
    return np.array(values, dtype=np.float64).astype(t.dtype)


def int_values(t: ElemType, *, short: bool = False) -> np.ndarray:
    info = np.iinfo(t.dtype)
    lo, hi = int(info.min), int(info.max)
    if t.is_unsigned:
        values = [0, 1, 2, 3, 7, 100, hi, hi - 1, hi // 2, hi // 2 + 1]
        if not short:
            values += [8, 5, 13, 255 % (hi + 1)]
    else:
        values = [0, 1, -1, 2, -3, 7, -100, hi, lo, lo + 1, hi - 1]
        if not short:
            values += [3, -2, -8, 100, 13]
    return np.array(sorted({v for v in values if lo <= v <= hi}), dtype=t.dtype)


def values_of(t: ElemType, *, short: bool = False) -> np.ndarray:
    if t.is_pred:
        return np.array([False, True])
    return float_values(t, short=short) if t.is_float else int_values(t, short=short)


def pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of an element of `a` with one of `b`."""
    xs, ys = zip(*product(a.tolist(), b.tolist()), strict=True)
    return np.array(xs, dtype=a.dtype), np.array(ys, dtype=b.dtype)


def wrap(values: Sequence[int], t: ElemType) -> np.ndarray:
    """Python ints reduced modulo 2**width into `t`."""
    mask = (1 << t.width) - 1
    out = []
    for v in values:
        v &= mask
        if not t.is_unsigned and v >= 1 << (t.width - 1):
            v -= 1 << t.width
        out.append(v)
    return np.array(out, dtype=t.dtype)


# ---------------------------------------------------------------------------
# Cases and kernels
# ---------------------------------------------------------------------------

XlaFactory = Callable[[Sequence[SSAValue], int], Operation]


@dataclass
class Case:
    """One kernel: the xla op to emit, its inputs and the expected output."""

    id: str
    factory: XlaFactory
    inputs: list[np.ndarray]
    in_types: list[ElemType]
    out_type: ElemType
    expected: np.ndarray
    ulps: int = 0  # 0: bit-exact (any NaN matches any NaN)
    nan_bits: bool = False  # NaNs too must match bit for bit
    kernel: str = field(default="")


CASES: list[Case] = []


def case(
    id: str,
    factory: XlaFactory,
    inputs: Sequence[np.ndarray],
    in_types: Sequence[ElemType],
    out_type: ElemType,
    expected: np.ndarray,
    ulps: int = 0,
    nan_bits: bool = False,
) -> None:
    assert all(len(x) == len(inputs[0]) for x in inputs), id
    assert len(expected) == len(inputs[0]), id
    CASES.append(
        Case(
            id, factory, list(inputs), list(in_types), out_type,
            np.asarray(expected).astype(out_type.dtype), ulps, nan_bits,
        )
    )


def build_kernel(name: str, c: Case) -> func.FuncOp:
    n = len(c.inputs[0])
    scratch = Block(arg_types=[TensorType(t.xla, [n]) for t in c.in_types])
    xla_op = c.factory(scratch.args, n)
    xla_op.verify()
    out_xla = xla_op.results[0].type
    assert isinstance(out_xla, TensorType)
    assert out_xla.element_type == c.out_type.xla, (c.id, out_xla)
    memref_types = [MemRefType(signless_type(t.xla), [n]) for t in (*c.in_types, c.out_type)]
    body = Block(arg_types=[signless_type(t.xla) for t in (*c.in_types, c.out_type)])

    def emit(op: Operation) -> Operation:
        body.add_op(op)
        return op

    results = emit_scalar_op(emit, xla_op, body.args[: len(c.in_types)])
    body.add_op(YieldOp(*results))
    xla_op.drop_all_references()

    fn_body = Block(arg_types=memref_types)
    identity = AffineMapAttr(AffineMap.identity(1))
    generic = GenericOp(
        list(fn_body.args[:-1]),
        [fn_body.args[-1]],
        Region(body),
        [identity] * len(memref_types),
        [IteratorTypeAttr.parallel()],
    )
    fn_body.add_ops([generic, func.ReturnOp()])
    return func.FuncOp(name, (memref_types, []), Region(fn_body))


PIPELINE = [
    "convert-linalg-to-loops",
    "lower-affine",
    "lower-scf-to-cf",
    "arith-emulate-unsupported-floats",
    "convert-to-llvm",
]


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


def _ordered_keys(x: np.ndarray) -> np.ndarray:
    """Integers whose differences count ulps between floats (±0 → 0)."""
    width = x.dtype.itemsize * 8
    bits = x.view(np.dtype(f"int{width}")).astype(np.int64)
    magnitude = bits & ((1 << (width - 1)) - 1)
    return np.where(bits < 0, -magnitude, magnitude)


def check(c: Case, got: np.ndarray) -> None:
    expected = c.expected
    if not c.out_type.is_float:
        bad = np.nonzero(got != expected)[0]
    else:
        g64, e64 = got.astype(np.float64), expected.astype(np.float64)
        nan_ok = np.isnan(g64) & np.isnan(e64) & (not c.nan_bits)
        if c.ulps == 0:
            width = got.dtype.itemsize * 8
            ubits = np.dtype(f"uint{width}")
            same = got.view(ubits) == expected.view(ubits)
        else:
            both_finite = np.isfinite(g64) & np.isfinite(e64)
            close = np.abs(_ordered_keys(got) - _ordered_keys(expected)) <= c.ulps
            same = np.where(both_finite, close, g64 == e64)
        bad = np.nonzero(~(same | nan_ok))[0]
    if len(bad):
        lines = [
            f"  {[x[i] for x in c.inputs]} -> got {got[i]!r}, expected {expected[i]!r}" for i in bad[:12]
        ]
        pytest.fail(f"{c.id}: {len(bad)} of {len(got)} elements differ:\n" + "\n".join(lines))


# ---------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------


def round_to(values: np.ndarray, t: ElemType) -> np.ndarray:
    """float64 values rounded ONCE to the float type `t` (ml_dtypes rounds f64 →
    bf16 through f32, so bf16 goes through xDSL's exact packing instead)."""
    values = np.asarray(values, dtype=np.float64)
    if t.name != "bf16":
        with np.errstate(all="ignore"):
            return values.astype(t.dtype)
    raw = b"".join(bf16.pack((float(v),)) for v in values)
    return np.frombuffer(raw, dtype=np.uint16).view(BF16).copy()


def f64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x).astype(np.float64)


def ieee_maximum(a: np.ndarray, b: np.ndarray, *, minimum: bool = False) -> np.ndarray:
    """IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0."""
    a, b = f64(a), f64(b)
    pick = (a < b) if minimum else (a > b)
    tie_zero = (a == 0) & (b == 0)
    zero = np.where(np.signbit(a) | np.signbit(b), -0.0, 0.0) if minimum else np.where(
        np.signbit(a) & np.signbit(b), -0.0, 0.0
    )
    out = np.where(pick, a, b)
    out = np.where(tie_zero, zero, out)
    return np.where(np.isnan(a) | np.isnan(b), np.nan, out)


def total_order_key(x: np.ndarray) -> np.ndarray:
    width = x.dtype.itemsize * 8
    bits = x.view(np.dtype(f"int{width}")).astype(np.int64)
    return np.where(bits < 0, bits ^ ((1 << (width - 1)) - 1), bits)


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_divide(t: ElemType, a: np.ndarray, b: np.ndarray, *, remainder: bool) -> np.ndarray:
    out = []
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        if y == 0:
            out.append(x if remainder else (-1 if not t.is_unsigned else (1 << t.width) - 1))
        elif not t.is_unsigned and x == -(1 << (t.width - 1)) and y == -1:
            out.append(0 if remainder else x)
        else:
            q = c_div(x, y)
            out.append(x - q * y if remainder else q)
    return wrap(out, t)


def int_power(t: ElemType, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = []
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        if y >= 0:
            out.append(pow(x, y, 1 << t.width))
        elif x == 1:
            out.append(1)
        elif x == -1:
            out.append(-1 if y % 2 else 1)
        else:
            out.append(0)
    return wrap(out, t)


def shift(t: ElemType, kind: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = []
    mask = (1 << t.width) - 1
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        count = y & mask  # read as unsigned
        if kind == "shift_left":
            out.append(0 if count >= t.width else x << count)
        elif kind == "shift_right_logical":
            out.append(0 if count >= t.width else (x & mask) >> count)
        else:
            signed = x if not t.is_unsigned else (x - (1 << t.width) if x >> (t.width - 1) else x)
            out.append(signed >> min(count, t.width - 1))
    return wrap(out, t)


def float_to_int(t: ElemType, x: np.ndarray) -> np.ndarray:
    info = np.iinfo(t.dtype)
    out = []
    for v in f64(x).tolist():
        if math.isnan(v):
            out.append(0)
        elif v >= info.max:
            out.append(int(info.max))
        elif v <= info.min:
            out.append(int(info.min))
        else:
            out.append(math.trunc(v))
    return np.array(out, dtype=t.dtype)


def reduce_precision(x: np.ndarray, t: ElemType, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """XLA's ReducePrecision: the mantissa is rounded (nearest even) to
    `mantissa_bits` at the bit level, so source denormals are rounded at the
    source's smallest exponent; with fewer exponent bits than the source, results
    beyond the reduced range become ±inf and those below its smallest normal ±0.
    With no mantissa bits a NaN cannot stay one: it becomes ±inf (StableHLO's
    interpreter)."""
    src_exponent_bits = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}[t.name]
    src_min_exponent = 2 - (1 << (src_exponent_bits - 1))
    bias = (1 << (exponent_bits - 1)) - 1
    reduce_range = exponent_bits < src_exponent_bits
    out = []
    for v in f64(x).tolist():
        if math.isnan(v) and mantissa_bits == 0:
            out.append(math.copysign(math.inf, v))
            continue
        if math.isnan(v) or math.isinf(v) or v == 0:
            out.append(v)
            continue
        exponent = max(math.frexp(v)[1] - 1, src_min_exponent)
        quantum = exponent - mantissa_bits
        try:
            r = math.copysign(math.ldexp(round(math.ldexp(v, -quantum)), quantum), v)
        except OverflowError:
            r = math.copysign(math.inf, v)
        if reduce_range and abs(r) >= 2.0 ** (bias + 1):
            r = math.copysign(math.inf, v)
        elif reduce_range and abs(r) < 2.0 ** (1 - bias):
            r = math.copysign(0.0, v)
        out.append(r)
    return np.array(out)


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------


def unary(name: str) -> XlaFactory:
    return lambda args, n: UNARY_OP_CLASSES[name](args[0])


def binary(name: str) -> XlaFactory:
    return lambda args, n: BINARY_OP_CLASSES[name](args[0], args[1])


def float_sign(x: np.ndarray) -> np.ndarray:
    x = f64(x)
    return np.where(np.isnan(x) | (x == 0), x, np.copysign(1.0, x))


EXACT_FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "abs": np.abs,
    "ceil": np.ceil,
    "floor": np.floor,
    "negate": np.negative,
    "round_nearest_even": np.rint,
    "round_nearest_afz": lambda x: np.where(
        np.isfinite(x), np.copysign(np.floor(np.abs(x) + 0.5), x), x
    ),
    "sign": float_sign,
    "sqrt": np.sqrt,
    "real": lambda x: x,
    "imag": lambda x: np.zeros_like(x),
}

TRANSCENDENTAL_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "cbrt": np.cbrt,
    "cosine": np.cos,
    "exponential": np.exp,
    "exponential_minus_one": np.expm1,
    "log": np.log,
    "log_plus_one": np.log1p,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "sine": np.sin,
    "tan": np.tan,
    "tanh": np.tanh,
}


def ulps_for(t: ElemType, name: str) -> int:
    if name == "logistic" and t.name in ("bf16", "f16"):
        return 3  # four roundings: exp, add, divide (each in the type)
    return 1 if t.name in ("bf16", "f16") else 4


def add_float_cases() -> None:
    with np.errstate(all="ignore"):
        for t in FLOATS:
            x = values_of(t)
            for name, ref in EXACT_FLOAT_UNARY.items():
                case(f"{name}-{t.name}", unary(name), [x], [t], t, round_to(ref(f64(x)), t))
            for name, ref in TRANSCENDENTAL_UNARY.items():
                case(f"{name}-{t.name}", unary(name), [x], [t], t, round_to(ref(f64(x)), t), ulps_for(t, name))
            # logistic = select(x < 0, e, 1) / (1 + e), e = exp(-|x|), each step rounded
            # to the type (so f32 gives the denormal e^x at -100, not 0).
            e = round_to(np.exp(-np.abs(f64(x))), t)
            s = round_to(1.0 + f64(e), t)
            num = np.where(f64(x) < 0, f64(e), 1.0)
            case(f"logistic-{t.name}", unary("logistic"), [x], [t], t, round_to(num / f64(s), t), ulps_for(t, "logistic"))
            case(f"is_finite-{t.name}", unary("is_finite"), [x], [t], PRED, np.isfinite(f64(x)))
            a, b = pairs(values_of(t, short=True), values_of(t, short=True))
            A, B = f64(a), f64(b)
            exact = {
                "add": A + B,
                "subtract": A - B,
                "multiply": A * B,
                "divide": A / B,
                "remainder": np.fmod(A, B),
                "maximum": ieee_maximum(A, B),
                "minimum": ieee_maximum(A, B, minimum=True),
            }
            for name, ref in exact.items():
                case(f"{name}-{t.name}", binary(name), [a, b], [t, t], t, round_to(ref, t))
            for name, ref in {"power": np.power(A, B), "atan2": np.arctan2(A, B)}.items():
                case(f"{name}-{t.name}", binary(name), [a, b], [t, t], t, round_to(ref, t), ulps_for(t, name))


def add_int_cases() -> None:
    for t in INTS:
        x = values_of(t)
        X = [int(v) for v in x.tolist()]
        case(f"negate-{t.name}", unary("negate"), [x], [t], t, wrap([-v for v in X], t))
        case(f"not-{t.name}", unary("not"), [x], [t], t, wrap([~v for v in X], t))
        case(
            f"popcnt-{t.name}", unary("popcnt"), [x], [t], t,
            wrap([(v & ((1 << t.width) - 1)).bit_count() for v in X], t),
        )
        case(
            f"count_leading_zeros-{t.name}", unary("count_leading_zeros"), [x], [t], t,
            wrap([t.width - (v & ((1 << t.width) - 1)).bit_length() for v in X], t),
        )
        if not t.is_unsigned:
            case(f"abs-{t.name}", unary("abs"), [x], [t], t, wrap([abs(v) for v in X], t))
            case(f"sign-{t.name}", unary("sign"), [x], [t], t, wrap([(v > 0) - (v < 0) for v in X], t))
        a, b = pairs(values_of(t, short=True), values_of(t, short=True))
        A, B = a.tolist(), b.tolist()
        simple = {
            "add": [p + q for p, q in zip(A, B)],
            "subtract": [p - q for p, q in zip(A, B)],
            "multiply": [p * q for p, q in zip(A, B)],
            "and": [p & q for p, q in zip(A, B)],
            "or": [p | q for p, q in zip(A, B)],
            "xor": [p ^ q for p, q in zip(A, B)],
            "maximum": [max(p, q) for p, q in zip(A, B)],
            "minimum": [min(p, q) for p, q in zip(A, B)],
        }
        for name, ref in simple.items():
            case(f"{name}-{t.name}", binary(name), [a, b], [t, t], t, wrap(ref, t))
        case(f"divide-{t.name}", binary("divide"), [a, b], [t, t], t, int_divide(t, a, b, remainder=False))
        case(f"remainder-{t.name}", binary("remainder"), [a, b], [t, t], t, int_divide(t, a, b, remainder=True))
        w = t.width
        counts = wrap([0, 1, w - 1, w, w + 1, 2 * w, -1, -w, (1 << (w - 1)) - 1, 1 << (w - 1)], t)
        sa, sb = pairs(values_of(t, short=True), counts)
        for kind in ("shift_left", "shift_right_logical", "shift_right_arithmetic"):
            case(f"{kind}-{t.name}", binary(kind), [sa, sb], [t, t], t, shift(t, kind, sa, sb))
        exponents = wrap([0, 1, 2, 3, 7, w - 1, w, w + 1, 2 * w + 1, -1, -2, -3, (1 << (w - 1)) - 1], t)
        bases = wrap([0, 1, -1, 2, -2, 3, -3, 7, 1 << (w - 1), (1 << (w - 1)) - 1], t)
        pa, pb = pairs(np.unique(bases), np.unique(exponents))
        case(f"power-{t.name}", binary("power"), [pa, pb], [t, t], t, int_power(t, pa, pb))


def add_pred_cases() -> None:
    a, b = pairs(values_of(PRED), values_of(PRED))
    refs = {
        "add": a | b, "or": a | b, "maximum": a | b,
        "multiply": a & b, "and": a & b, "minimum": a & b, "xor": a ^ b,
    }
    for name, ref in refs.items():
        case(f"{name}-pred", binary(name), [a, b], [PRED, PRED], PRED, ref)
    case("not-pred", unary("not"), [values_of(PRED)], [PRED], PRED, ~values_of(PRED))


COMPARE_REFS: dict[str, Callable[[Any, Any], Any]] = {
    "EQ": lambda a, b: a == b,
    "NE": lambda a, b: a != b,
    "LT": lambda a, b: a < b,
    "LE": lambda a, b: a <= b,
    "GT": lambda a, b: a > b,
    "GE": lambda a, b: a >= b,
}


def compare(direction: str, compare_type: str | None) -> XlaFactory:
    return lambda args, n: CompareOp(direction, args[0], args[1], compare_type)


def add_compare_cases() -> None:
    for t in [PRED, *INTS, *FLOATS]:
        a, b = pairs(values_of(t, short=True), values_of(t, short=True))
        kinds: list[str | None] = [None]
        if t.is_float:
            kinds = [None, "FLOAT", "TOTALORDER"]
        elif t.is_unsigned:
            kinds = [None, "UNSIGNED"]
        elif not t.is_pred:
            kinds = [None, "SIGNED"]
        for kind in kinds:
            for direction, ref in COMPARE_REFS.items():
                if kind == "TOTALORDER":
                    expected = ref(total_order_key(a), total_order_key(b))
                elif t.is_float:
                    expected = ref(f64(a), f64(b))
                else:
                    expected = ref(a, b)
                case(f"compare-{direction}-{kind or 'default'}-{t.name}", compare(direction, kind),
                     [a, b], [t, t], PRED, expected)
    # -NaN < -inf < -x < -0 < +0 < x < +inf < +NaN, on signed NaNs too.
    t = BY_NAME["f32"]
    special = np.array([-math.nan, -math.inf, -1.0, -0.0, 0.0, 1.0, math.inf, math.nan], dtype=np.float32)
    special[0] = -np.abs(special[0])  # a NaN with the sign bit set
    a, b = pairs(special, special)
    ia, ib = pairs(np.arange(8), np.arange(8))
    case("compare-LT-TOTALORDER-ladder", compare("LT", "TOTALORDER"), [a, b], [t, t], PRED, ia < ib)
    case("compare-EQ-TOTALORDER-ladder", compare("EQ", "TOTALORDER"), [a, b], [t, t], PRED, ia == ib)


def convert(to: ElemType) -> XlaFactory:
    return lambda args, n: ConvertOp(args[0], TensorType(to.xla, [n]))


def convert_reference(src: ElemType, dst: ElemType, x: np.ndarray) -> np.ndarray:
    if dst.is_pred:
        return f64(x) != 0 if src.is_float else x != 0
    if src.is_pred:
        return x.astype(np.int64).astype(dst.dtype) if not dst.is_float else round_to(x.astype(np.float64), dst)
    if dst.is_float:
        if src.is_float:
            return round_to(f64(x), dst)
        if dst.name == "bf16":  # like XLA: to f32 first, then to bf16
            return x.astype(np.float32).astype(BF16)
        return x.astype(dst.dtype)
    if src.is_float:
        return float_to_int(dst, x)
    return x.astype(dst.dtype)


def add_convert_cases() -> None:
    with np.errstate(all="ignore"):
        for src in ALL_TYPES:
            x = values_of(src)
            if src.is_float:
                fi = finfo(src)
                extra = [1e10, -1e10, 255.5, 256.0, -128.5, -129.0, 65535.9, 32767.5, -32768.9,
                         2.0**31, -(2.0**31), 2.0**32, 2.0**63, -(2.0**63), 2.0**64, 4.2e9, -0.99]
                extra = [v for v in extra if abs(v) <= float(fi.max)]
                x = np.concatenate([x, np.array(extra).astype(src.dtype)])
            for dst in ALL_TYPES:
                if dst == src:
                    continue
                case(f"convert-{src.name}-{dst.name}", convert(dst), [x], [src], dst,
                     convert_reference(src, dst, x))
        # f64 → bf16 rounds once (through f32 it would round 1 + 2^-8 + 2^-40 to 1).
        t64, tb = BY_NAME["f64"], BY_NAME["bf16"]
        x = np.array([1 + 2**-8 + 2**-40, -(1 + 2**-8 + 2**-40), 1 + 2**-8, 1 + 3 * 2**-8,
                      3.3961e38, 3.4e38, 1e-41, -1e-45, 2.0**-134, 2.0**-134 * 1.0001])
        case("convert-f64-bf16-single-rounding", convert(tb), [x], [t64], tb, round_to(x, tb))
        # f32 → bf16 on bit patterns: NaNs stay NaN (quiet, sign kept) even when
        # rounding would carry them into inf or zero; ties go to even.
        f32_bits = [0x7F808000, 0xFFFFFFFF, 0x7F800001, 0xFFC00001, 0x7FFFFFFF, 0x3F808000,
                    0x3F818000, 0x7F7FFFFF, 0x00008000, 0x00018000, 0x80018001]
        bf16_bits = [0x7FC0, 0xFFFF, 0x7FC0, 0xFFC0, 0x7FFF, 0x3F80,
                     0x3F82, 0x7F80, 0x0000, 0x0002, 0x8002]
        x = np.array(f32_bits, dtype=np.uint32).view(np.float32)
        expected = np.array(bf16_bits, dtype=np.uint16).view(BF16)
        CASES.append(Case("convert-f32-bf16-bits", convert(tb), [x], [BY_NAME["f32"]], tb, expected,
                          nan_bits=True))
        x = np.array([-math.nan, math.nan, -math.inf], dtype=np.float64)
        x[0] = -np.abs(x[0])
        expected = np.array([0xFFC0, 0x7FC0, 0xFF80], dtype=np.uint16).view(BF16)
        CASES.append(Case("convert-f64-bf16-nan-sign", convert(tb), [x], [t64], tb, expected, nan_bits=True))


def add_misc_cases() -> None:
    for t in [PRED, BY_NAME["i8"], BY_NAME["ui32"], BY_NAME["i64"], *FLOATS]:
        v = values_of(t, short=True)
        a, b = pairs(v, v[::-1].copy())
        p = (np.arange(len(a)) % 3 == 0)
        case(f"select-{t.name}", lambda args, n: SelectOp(args[0], args[1], args[2]),
             [p, a, b], [PRED, t, t], t, np.where(p, a, b))
    for t in [BY_NAME["i8"], BY_NAME["i32"], BY_NAME["ui16"], BY_NAME["ui64"], *FLOATS]:
        x = values_of(t)
        lo = np.full(len(x), 2, dtype=t.dtype) if not t.is_float else np.full(len(x), -1.5, dtype=t.dtype)
        hi = np.full(len(x), 100, dtype=t.dtype)
        if t.is_float:
            expected = round_to(ieee_maximum(ieee_maximum(x, lo), hi, minimum=True), t)
        else:
            expected = np.minimum(np.maximum(x, lo), hi)
        case(f"clamp-{t.name}", lambda args, n: ClampOp(args[0], args[1], args[2]),
             [lo, x, hi], [t, t, t], t, expected)
    # bitcast_convert between equal widths
    for src, dst in [("i32", "f32"), ("f32", "i32"), ("ui32", "f32"), ("f64", "i64"), ("i64", "f64"),
                     ("f64", "ui64"), ("f16", "i16"), ("bf16", "i16"), ("ui16", "bf16"), ("f16", "bf16"),
                     ("bf16", "f16"), ("i8", "ui8"), ("ui32", "i32")]:
        s, d = BY_NAME[src], BY_NAME[dst]
        x = values_of(s)
        case(f"bitcast_convert-{src}-{dst}", lambda args, n, d=d: BitcastConvertOp(args[0], TensorType(d.xla, [n])),
             [x], [s], d, x.view(d.dtype))
    # reduce_precision
    for tname, e, m in [("f32", 5, 10), ("f32", 8, 7), ("f64", 5, 10), ("f64", 8, 23), ("f32", 3, 2),
                        ("f16", 3, 4), ("bf16", 5, 2), ("f32", 8, 0), ("f32", 11, 30)]:
        t = BY_NAME[tname]
        fi = finfo(t)
        x = np.concatenate([values_of(t), np.array(
            [65504.0, 65520.0, 65519.99, 6.1035e-05, 6.1e-05, 3.0e-05, 1.0009765625, 1.00048828125,
             1.000732421875, 1.5 + 2**-11, 240.0, 248.0, 256.0, 0.25, 0.2, 0.0625, 0.05, 1e30])
            .clip(-float(fi.max), float(fi.max)).astype(t.dtype)])
        if (e, m) == (8, 7) and tname == "f32":
            expected = x.astype(BF16).astype(np.float32)  # bf16 exactly, denormals included
        else:
            expected = round_to(reduce_precision(x, t, e, m), t)
        case(f"reduce_precision-{tname}-e{e}m{m}",
             lambda args, n, e=e, m=m: ReducePrecisionOp(args[0], e, m), [x], [t], t, expected)


add_float_cases()
add_int_cases()
add_pred_cases()
add_compare_cases()
add_convert_cases()
add_misc_cases()


