"""Canonicalization of the element-wise family: folding on constants with the
spec's element semantics, operand order, and algebraic identities.

Folding computes with NumPy (ml_dtypes for bf16 and the f8 types) where it agrees
with the spec: integers wrap around, floats follow IEEE (NaN, signed zero), `maximum`
and `minimum` propagate NaN. Where the spec leaves a result implementation-defined
(integer division or remainder by zero, `INT_MIN / -1`, shifts by the bit width or
more, converting a non-finite or out-of-range float to an integer) the op is left to
run time, so the folded program computes what the compiled one would. Float math
is folded only when every result is finite (as StableHLO does: `log(0)` stays).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    constant_value,
    foldable_type,
    is_constant,
    is_splat_of,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    splat_value,
    tensor_dtype,
)
from xla_dialect.types import element_type_of, is_tensor, shape_of

Array = np.ndarray


def _same_shapes(op: Operation) -> bool:
    """No implicit broadcasting: every operand has the result's shape."""
    if "broadcast_dimensions" in op.properties:
        return False
    result = op.results[0].type
    return all(is_tensor(v.type) and shape_of(v.type) == shape_of(result) for v in op.operands)


def _float_math(fn: Callable[[Array], Array]) -> Callable[[Array], Array | None]:
    """A float function computed at least in f32 (narrower types are rounded from
    it once), folded only when every result is finite."""

    def fold(a: Array) -> Array | None:
        if a.dtype.kind != "f" and a.dtype.kind != "V" and "float" not in a.dtype.name:
            return None
        wide = a.astype(np.float64 if a.dtype == np.float64 else np.float32)
        with np.errstate(all="ignore"):
            result = np.asarray(fn(wide))
        if not bool(np.all(np.isfinite(result))):
            return None
        return result.astype(a.dtype)

    return fold


def _round_afz(a: Array) -> Array:
    return np.where(np.abs(a - np.trunc(a)) == 0.5, np.trunc(a) + np.sign(a), np.rint(a))


def _integer_or_bool(
    fn_int: Callable[[Array], Array], fn_bool: Callable[[Array], Array] | None = None
):
    def fold(a: Array) -> Array | None:
        if a.dtype == np.bool_:
            return None if fn_bool is None else fn_bool(a)
        if a.dtype.kind in "iu":
            return fn_int(a)
        return None

    return fold


def _exact(fn: Callable[[Array], Array], kinds: str = "iuf") -> Callable[[Array], Array | None]:
    """An op NumPy computes exactly as the spec does, on the element kinds given."""

    def fold(a: Array) -> Array | None:
        kind = "f" if "float" in a.dtype.name else a.dtype.kind
        if kind not in kinds:
            return None
        with np.errstate(all="ignore"):
            return np.asarray(fn(a)).astype(a.dtype)

    return fold


def _popcnt(a: Array) -> Array:
    bits = np.unpackbits(a.view(np.uint8).reshape(a.size, -1), axis=1)
    return bits.sum(axis=1).reshape(a.shape).astype(a.dtype)


def _clz(a: Array) -> Array:
    width = a.dtype.itemsize * 8
    unsigned = a.astype(f"u{a.dtype.itemsize}").astype(object)
    out = [width - int(v).bit_length() for v in unsigned.reshape(-1)]
    return np.array(out, dtype=a.dtype).reshape(a.shape)


def _sign(a: Array) -> Array | None:
    if a.dtype.kind in "iu":
        return np.sign(a).astype(a.dtype)
    if bool(np.any(np.isnan(a.astype(np.float64)))):
        return None  # sign(NaN) stays (StableHLO leaves it)
    return np.sign(a).astype(a.dtype)


UNARY_FOLDERS: dict[str, Callable[[Array], Array | None]] = {
    "xla.negate": _exact(np.negative),
    "xla.abs": _exact(np.abs),
    "xla.sign": _sign,
    "xla.not": _integer_or_bool(np.invert, np.logical_not),
    "xla.popcnt": _integer_or_bool(_popcnt),
    "xla.count_leading_zeros": _integer_or_bool(_clz),
    "xla.floor": _exact(np.floor, "f"),
    "xla.ceil": _exact(np.ceil, "f"),
    "xla.round_nearest_even": _exact(np.rint, "f"),
    "xla.round_nearest_afz": _exact(_round_afz, "f"),
    "xla.exponential": _float_math(np.exp),
    "xla.exponential_minus_one": _float_math(np.expm1),
    "xla.log": _float_math(np.log),
    "xla.log_plus_one": _float_math(np.log1p),
    "xla.logistic": _float_math(lambda x: 1 / (1 + np.exp(-x))),
    "xla.cosine": _float_math(np.cos),
    "xla.sine": _float_math(np.sin),
    "xla.tan": _float_math(np.tan),
    "xla.tanh": _float_math(np.tanh),
    "xla.sqrt": _float_math(np.sqrt),
    "xla.rsqrt": _float_math(lambda x: 1 / np.sqrt(x)),
    "xla.cbrt": _float_math(np.cbrt),
}
"""Element-wise unary ops folded on constants: op name → fold (None: leave the op)."""


@pattern(*UNARY_FOLDERS)
def fold_unary(op: Operation, rewriter: PatternRewriter) -> None:
    """A unary element-wise op of a constant is a constant."""
    value = constant_value(op.operands[0])
    if value is None or not foldable_type(op.results[0].type) or value.dtype.kind == "c":
        return
    if value.dtype != tensor_dtype(op.results[0].type):
        return
    result = UNARY_FOLDERS[op.name](value)
    if result is not None:
        replace_with_constant(rewriter, op, result)


@pattern("xla.is_finite")
def fold_is_finite(op: Operation, rewriter: PatternRewriter) -> None:
    value = constant_value(op.operands[0])
    if value is not None and value.dtype.kind != "c" and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.isfinite(value.astype(np.float64)))


# ---------------------------------------------------------------------------
# Binary folding
# ---------------------------------------------------------------------------


def _int_info(dtype: np.dtype) -> tuple[int, int, int]:
    info = np.iinfo(dtype)
    return int(info.min), int(info.max), dtype.itemsize * 8


def _divide(a: Array, b: Array) -> Array | None:
    if a.dtype.kind not in "iu":
        return np.divide(a, b)
    low, _, _ = _int_info(a.dtype)
    if bool(np.any(b == 0)) or (low < 0 and bool(np.any((a == low) & (b == -1)))):
        return None  # implementation-defined: left to run time
    x, y = a.astype(object), b.astype(object)
    q = np.array(
        [abs(p) // abs(r) * (1 if (p < 0) == (r < 0) else -1) for p, r in zip(x.flat, y.flat)],
        dtype=object,
    )
    return q.reshape(a.shape).astype(a.dtype)


def _remainder(a: Array, b: Array) -> Array | None:
    if a.dtype.kind not in "iu":
        return np.fmod(a, b)
    low, _, _ = _int_info(a.dtype)
    if bool(np.any(b == 0)) or (low < 0 and bool(np.any((a == low) & (b == -1)))):
        return None
    x, y = a.astype(object), b.astype(object)
    r = np.array(
        [abs(p) % abs(q) * (1 if p >= 0 else -1) for p, q in zip(x.flat, y.flat)], dtype=object
    )
    return r.reshape(a.shape).astype(a.dtype)


def _shift(kind: str) -> Callable[[Array, Array], Array | None]:
    def fold(a: Array, b: Array) -> Array | None:
        if a.dtype.kind not in "iu":
            return None
        _, _, width = _int_info(a.dtype)
        if bool(np.any((b < 0) | (b >= width))):
            return None  # the spec's result for such amounts is left to run time
        unsigned = a.view(f"u{a.dtype.itemsize}")
        amount = b.astype(unsigned.dtype)
        if kind == "left":
            return (unsigned << amount).view(a.dtype)
        if kind == "logical":
            return (unsigned >> amount).view(a.dtype)
        signed = a.view(f"i{a.dtype.itemsize}")
        return (signed >> amount.astype(signed.dtype)).view(a.dtype)

    return fold


def _power(a: Array, b: Array) -> Array | None:
    if a.dtype.kind == "f" or "float" in a.dtype.name:
        return np.power(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)
    if a.dtype.kind not in "iu" or bool(np.any(b < 0)):
        return None
    _, _, width = _int_info(a.dtype)
    modulus = 1 << width
    out = [pow(int(p), int(q), modulus) for p, q in zip(a.flat, b.flat)]
    return (
        np.array(out, dtype=object)
        .astype(np.uint64 if width == 64 else np.int64)
        .astype(a.dtype)
        .reshape(a.shape)
    )


def _logical(int_fn: Callable[[Array, Array], Array], bool_fn: Callable[[Array, Array], Array]):
    return lambda a, b: bool_fn(a, b) if a.dtype == np.bool_ else int_fn(a, b)


def _float_only(fn: Callable[[Array, Array], Array]) -> Callable[[Array, Array], Array | None]:
    return lambda a, b: fn(a, b) if a.dtype.kind == "f" or "float" in a.dtype.name else None


def _ieee_extreme(fn: Callable[[Array, Array], Array], negative_wins: bool):
    """IEEE 754-2019 maximum/minimum: NaN propagates and -0 < +0 (NumPy's
    `maximum(0.0, -0.0)` may answer -0.0)."""

    def fold(a: Array, b: Array) -> Array:
        result = fn(a, b)
        if a.dtype.kind in "iub":
            return result
        wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
        zeros = (wide_a == 0) & (wide_b == 0)
        if not bool(np.any(zeros)):
            return result
        sa, sb = np.signbit(wide_a), np.signbit(wide_b)
        negative = (sa | sb) if negative_wins else (sa & sb)
        return np.where(zeros, np.where(negative, -0.0, 0.0).astype(a.dtype), result)

    return fold


BINARY_FOLDERS: dict[str, Callable[[Array, Array], Array | None]] = {
    "xla.add": _logical(np.add, np.logical_or),
    "xla.subtract": np.subtract,
    "xla.multiply": _logical(np.multiply, np.logical_and),
    "xla.divide": _divide,
    "xla.remainder": _remainder,
    "xla.maximum": _ieee_extreme(np.maximum, negative_wins=False),
    "xla.minimum": _ieee_extreme(np.minimum, negative_wins=True),
    "xla.power": _power,
    "xla.atan2": _float_only(np.arctan2),
    "xla.and": _logical(np.bitwise_and, np.logical_and),
    "xla.or": _logical(np.bitwise_or, np.logical_or),
    "xla.xor": _logical(np.bitwise_xor, np.logical_xor),
    "xla.shift_left": _shift("left"),
    "xla.shift_right_logical": _shift("logical"),
    "xla.shift_right_arithmetic": _shift("arithmetic"),
}
"""Element-wise binary ops folded on constants: op name → fold (None: leave the op)."""


def _operands_for_folding(op: Operation) -> tuple[Array, Array] | None:
    if not foldable_type(op.results[0].type) or "broadcast_dimensions" in op.properties:
        return None
    lhs, rhs = constant_value(op.operands[0]), constant_value(op.operands[1])
    if lhs is None or rhs is None or lhs.dtype.kind == "c" or lhs.dtype != rhs.dtype:
        return None
    shape = shape_of(op.results[0].type)
    return np.broadcast_to(lhs, shape), np.broadcast_to(rhs, shape)


@pattern(*BINARY_FOLDERS)
def fold_binary(op: Operation, rewriter: PatternRewriter) -> None:
    """A binary element-wise op of two constants is a constant."""
    operands = _operands_for_folding(op)
    if operands is None:
        return
    lhs, rhs = operands
    with np.errstate(all="ignore"):
        result = BINARY_FOLDERS[op.name](lhs, rhs)
    if result is not None:
        replace_with_constant(rewriter, op, np.asarray(result).astype(lhs.dtype))


COMPARISONS: dict[str, Callable[[Array, Array], Array]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}

SWAPPED_DIRECTION = {"EQ": "EQ", "NE": "NE", "LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}


def _direction(op: Operation) -> str:
    return str(op.properties["comparison_direction"].data.value)  # pyright: ignore


def _compare_type(op: Operation) -> str | None:
    attr = op.properties.get("compare_type")
    return None if attr is None else str(attr.data.value)  # pyright: ignore


def _total_order_key(a: Array) -> Array:
    """The spec's total order on floats as signed integers (-NaN < -inf < ... < -0 < +0 < ... < NaN)."""
    bits = a.view(f"i{a.dtype.itemsize}").astype(np.int64)
    return np.where(bits < 0, np.int64(-(2 ** (a.dtype.itemsize * 8 - 1))) - bits - 1, bits)


@pattern("xla.compare")
def fold_compare(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare` of two constants is a constant (TOTALORDER by the spec's total order)."""
    operands = _operands_for_folding(op)
    if operands is None:
        return
    lhs, rhs = operands
    if _compare_type(op) == "TOTALORDER" and lhs.dtype.kind != "b":
        if lhs.dtype.kind in "iu":
            return
        lhs, rhs = _total_order_key(lhs), _total_order_key(rhs)
    replace_with_constant(rewriter, op, COMPARISONS[_direction(op)](lhs, rhs))


@pattern("xla.compare")
def compare_same_operands(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare(x, x)` of integers is known: true for EQ/LE/GE, false for NE/LT/GT."""
    if op.operands[0] is not op.operands[1] or not foldable_type(op.results[0].type):
        return
    dtype = tensor_dtype(op.operands[0].type)
    if dtype is None or dtype.kind not in "iub":
        return
    replace_with_constant(rewriter, op, np.array(_direction(op) in ("EQ", "LE", "GE")))


@pattern("xla.compare")
def compare_of_predicates(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare EQ, p, true` and `compare NE, p, false` on PRED are `p`."""
    dtype = tensor_dtype(op.operands[0].type)
    if dtype != np.bool_ or not _same_shapes(op):
        return
    direction = _direction(op)
    if (direction == "EQ" and is_splat_of(op.operands[1], True)) or (
        direction == "NE" and is_splat_of(op.operands[1], False)
    ):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.compare")
def compare_constant_to_right(op: Operation, rewriter: PatternRewriter) -> None:
    """A constant moves to the right of `compare`, the direction mirrored."""
    lhs, rhs = op.operands
    if not is_constant(lhs) or is_constant(rhs) or not _same_shapes(op):
        return
    from xla_dialect.attributes import ComparisonDirection, ComparisonDirectionAttr

    flipped = ComparisonDirectionAttr(ComparisonDirection(SWAPPED_DIRECTION[_direction(op)]))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[rhs, lhs], properties={"comparison_direction": flipped})
    )


# ---------------------------------------------------------------------------
# Operand order and identities of binary ops
# ---------------------------------------------------------------------------

COMMUTATIVE = (
    "xla.add",
    "xla.multiply",
    "xla.maximum",
    "xla.minimum",
    "xla.and",
    "xla.or",
    "xla.xor",
)


@pattern(*COMMUTATIVE)
def constant_to_right(op: Operation, rewriter: PatternRewriter) -> None:
    """A commutative op takes its constant operand on the right (so the identities
    below need look only there)."""
    lhs, rhs = op.operands
    if is_constant(lhs) and not is_constant(rhs) and _same_shapes(op):
        replace_with_op(rewriter, op, rebuild(op, operands=[rhs, lhs]))


def _keeps_type(op: Operation) -> bool:
    return op.operands[0].type == op.results[0].type and _same_shapes(op)


def _all_ones(value: SSAValue) -> bool:
    array = constant_value(value)
    if array is None or array.size == 0 or array.dtype.kind not in "iub":
        return False
    if array.dtype == np.bool_:
        return bool(np.all(array))
    return bool(np.all(array == np.invert(np.zeros_like(array))))


def _is_zero(value: SSAValue, *, negative_zero_only: bool = False) -> bool:
    """Whether `value` is a constant of zeros; for floats `negative_zero_only` asks
    for -0.0 (the identity of float addition: `x + -0.0` is `x`, `x + 0.0` is not)."""
    array = constant_value(value)
    if array is None or array.size == 0:
        return False
    if array.dtype.kind in "iub":
        return not bool(np.any(array))
    if array.dtype.kind == "c":
        return False
    wide = array.astype(np.float64)
    if negative_zero_only:
        return bool(np.all((wide == 0) & np.signbit(wide)))
    return bool(np.all(wide == 0))


@pattern(
    "xla.add",
    "xla.or",
    "xla.xor",
    "xla.subtract",
    "xla.shift_left",
    "xla.shift_right_logical",
    "xla.shift_right_arithmetic",
)
def zero_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`x + 0`, `x | 0`, `x ^ 0`, `x << 0`, `x >> 0` on integers; `x - 0.0` and
    `x + -0.0` on floats are `x` (`x + 0.0` is not: `-0.0 + 0.0` is `+0.0`)."""
    if not _keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or dtype.kind == "c":
        return
    floats = dtype.kind not in "iub"
    rhs = op.operands[1]
    if (
        (not floats and _is_zero(rhs))
        or (
            floats
            and op.name == "xla.subtract"
            and _is_zero(rhs)
            and is_splat_of(rhs, 0)
            and _positive_zero(rhs)
        )
        or (floats and op.name == "xla.add" and _is_zero(rhs, negative_zero_only=True))
    ):
        replace_with_values(rewriter, op, [op.operands[0]])


def _positive_zero(value: SSAValue) -> bool:
    array = constant_value(value)
    return array is not None and not bool(np.any(np.signbit(array.astype(np.float64))))


@pattern("xla.multiply", "xla.divide", "xla.power")
def one_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * 1`, `x / 1`, `x ^ 1` are `x` (exact for floats too: NaN stays NaN)."""
    if _keeps_type(op) and is_splat_of(op.operands[1], 1):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.and", "xla.multiply")
def and_all_ones(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & all-ones` is `x`; `x & 0` is 0 (integers and PRED; `multiply` of PRED is `and`)."""
    if not _keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if (
        dtype is None
        or (op.name == "xla.multiply" and dtype != np.bool_)
        or dtype.kind not in "iub"
    ):
        return
    rhs = op.operands[1]
    if _all_ones(rhs):
        replace_with_values(rewriter, op, [op.operands[0]])
    elif _is_zero(rhs):
        replace_with_values(rewriter, op, [rhs])


@pattern("xla.or", "xla.add")
def or_all_ones(op: Operation, rewriter: PatternRewriter) -> None:
    """`x | all-ones` is all-ones (integers and PRED; `add` of PRED is `or`)."""
    if not _keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or (op.name == "xla.add" and dtype != np.bool_) or dtype.kind not in "iub":
        return
    if _all_ones(op.operands[1]):
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.multiply")
def multiply_integer_zero(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * 0` is 0 on integers (not on floats: `inf * 0` is NaN, `-1 * 0` is `-0`)."""
    dtype = tensor_dtype(op.results[0].type)
    if _keeps_type(op) and dtype is not None and dtype.kind in "iu" and _is_zero(op.operands[1]):
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.subtract", "xla.xor")
def self_cancels(op: Operation, rewriter: PatternRewriter) -> None:
    """`x - x` and `x ^ x` are 0 on integers and PRED (not `x - x` on floats: inf, NaN)."""
    dtype = tensor_dtype(op.results[0].type)
    if op.operands[0] is not op.operands[1] or dtype is None or dtype.kind not in "iub":
        return
    if foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.zeros((), dtype=dtype))


@pattern("xla.and", "xla.or", "xla.maximum", "xla.minimum")
def idempotent(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & x`, `x | x`, `max(x, x)`, `min(x, x)` are `x`."""
    if op.operands[0] is op.operands[1] and _keeps_type(op):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.negate", "xla.not")
def involution(op: Operation, rewriter: PatternRewriter) -> None:
    """`-(-x)` and `not(not x)` are `x`."""
    inner = producer(op.operands[0], op.name)
    if inner is not None:
        replace_with_values(rewriter, op, [inner.operands[0]])


@pattern("xla.add")
def add_negated(op: Operation, rewriter: PatternRewriter) -> None:
    """`x + (-y)` is `x - y` (exact in IEEE arithmetic as in integers)."""
    neg = producer(op.operands[1], "xla.negate")
    if neg is not None and _keeps_type(op):
        replace_with_op(
            rewriter,
            op,
            rebuild(op, operands=[op.operands[0], neg.operands[0]], name="xla.subtract"),
        )


@pattern("xla.subtract")
def subtract_negated(op: Operation, rewriter: PatternRewriter) -> None:
    """`x - (-y)` is `x + y`."""
    neg = producer(op.operands[1], "xla.negate")
    if neg is not None and _keeps_type(op):
        replace_with_op(
            rewriter, op, rebuild(op, operands=[op.operands[0], neg.operands[0]], name="xla.add")
        )


@pattern("xla.abs")
def abs_idempotent(op: Operation, rewriter: PatternRewriter) -> None:
    """`abs(abs(x))` is `abs(x)`; `abs(-x)` is `abs(x)` (on real types)."""
    inner = producer(op.operands[0], "xla.abs", "xla.negate")
    if inner is None or op.results[0].type != op.operands[0].type:
        return
    if inner.name == "xla.abs":
        replace_with_values(rewriter, op, [op.operands[0]])
    else:
        replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0]]))


@pattern("xla.divide")
def divide_float_by_constant(op: Operation, rewriter: PatternRewriter) -> None:
    """`x / c` is `x * (1/c)` where `1/c` is exact (c a power of two, normal): XLA's
    algebraic simplifier's strength reduction of division."""
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind != "f" or not _keeps_type(op):
        return
    c = float(value)
    if c == 0 or not np.isfinite(c) or c == 1:
        return
    mantissa, _ = np.frexp(c)
    reciprocal = np.asarray(1.0 / c, dtype=dtype)
    if abs(mantissa) != 0.5 or float(reciprocal) * c != 1.0 or not np.isfinite(reciprocal):
        return
    if np.finfo(dtype).tiny > abs(float(reciprocal)):
        return
    from passes.canonicalization.common import constant_op

    const = constant_op(reciprocal, op.operands[1].type)
    rewriter.insert(const, InsertPoint.before(op))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[op.operands[0], const.results[0]], name="xla.multiply")
    )


# ---------------------------------------------------------------------------
# select, clamp, complex
# ---------------------------------------------------------------------------


@pattern("xla.select")
def select_same_branches(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, a, a)` is `a`."""
    if op.operands[1] is op.operands[2] and op.operands[1].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.select")
def select_constant_predicate(op: Operation, rewriter: PatternRewriter) -> None:
    """`select` by a constant predicate: a splat picks a branch; otherwise, with
    constant branches, the result is a constant."""
    pred = constant_value(op.operands[0])
    if pred is None or pred.size == 0:
        return
    on_true, on_false = op.operands[1], op.operands[2]
    if bool(np.all(pred)) and on_true.type == op.results[0].type:
        replace_with_values(rewriter, op, [on_true])
        return
    if not bool(np.any(pred)) and on_false.type == op.results[0].type:
        replace_with_values(rewriter, op, [on_false])
        return
    a, b = constant_value(on_true), constant_value(on_false)
    if a is not None and b is not None and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.where(pred, a, b))


@pattern("xla.select")
def select_inverted_predicate(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(not p, a, b)` is `select(p, b, a)` (also through a broadcast or reshape
    of `not p`)."""
    pred = op.operands[0]
    inverted = producer(pred, "xla.not")
    if inverted is not None:
        replace_with_op(
            rewriter,
            op,
            rebuild(op, operands=[inverted.operands[0], op.operands[2], op.operands[1]]),
        )
        return
    shaped = producer(pred, "xla.broadcast_in_dim", "xla.reshape")
    inverted = producer(shaped.operands[0], "xla.not") if shaped is not None else None
    if shaped is None or inverted is None:
        return
    reshaped = rebuild(shaped, operands=[inverted.operands[0]])
    rewriter.insert(reshaped, InsertPoint.before(op))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[reshaped.results[0], op.operands[2], op.operands[1]])
    )


@pattern("xla.select")
def select_of_comparison(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(a > b, a, b)` is `max(a, b)` and `select(a < b, a, b)` is `min(a, b)`,
    on integers (on floats NaN and signed zero make them differ)."""
    cmp = producer(op.operands[0], "xla.compare")
    dtype = tensor_dtype(op.results[0].type)
    if cmp is None or dtype is None or dtype.kind not in "iu" or not _same_shapes(cmp):
        return
    a, b = cmp.operands
    direction = _direction(cmp)
    on_true, on_false = op.operands[1], op.operands[2]
    if (on_true, on_false) == (b, a):
        direction = SWAPPED_DIRECTION[direction]
    elif (on_true, on_false) != (a, b):
        return
    if shape_of(op.operands[0].type) != shape_of(op.results[0].type):
        return
    name = {"GT": "xla.maximum", "GE": "xla.maximum", "LT": "xla.minimum", "LE": "xla.minimum"}.get(
        direction
    )
    if name is not None:
        replace_with_op(
            rewriter, op, rebuild(op, operands=[on_true, on_false], name=name, properties={})
        )


@pattern("xla.clamp")
def fold_clamp(op: Operation, rewriter: PatternRewriter) -> None:
    """`clamp` of constants is a constant: `min(max(x, lo), hi)`, NaN-propagating."""
    values = [constant_value(v) for v in op.operands]
    if any(v is None for v in values) or not foldable_type(op.results[0].type):
        return
    lo, x, hi = values
    assert lo is not None and x is not None and hi is not None
    if x.dtype.kind == "c":
        return
    shape = shape_of(op.results[0].type)
    lo, x, hi = (np.broadcast_to(v, shape) for v in (lo, x, hi))
    raised = BINARY_FOLDERS["xla.maximum"](x, lo)
    assert raised is not None
    result = BINARY_FOLDERS["xla.minimum"](np.asarray(raised), hi)
    assert result is not None
    replace_with_constant(rewriter, op, np.asarray(result))


@pattern("xla.real", "xla.imag")
def part_of_complex(op: Operation, rewriter: PatternRewriter) -> None:
    """`real(complex(a, b))` is `a`, `imag(complex(a, b))` is `b`."""
    pair = producer(op.operands[0], "xla.complex")
    if pair is not None and "broadcast_dimensions" not in pair.properties:
        part = pair.operands[0 if op.name == "xla.real" else 1]
        if part.type == op.results[0].type:
            replace_with_values(rewriter, op, [part])


@pattern("xla.complex")
def complex_of_parts(op: Operation, rewriter: PatternRewriter) -> None:
    """`complex(real(z), imag(z))` is `z`."""
    re, im = producer(op.operands[0], "xla.real"), producer(op.operands[1], "xla.imag")
    same = re is not None and im is not None and re.operands[0] is im.operands[0]
    if same and re.operands[0].type == op.results[0].type:  # pyright: ignore
        replace_with_values(rewriter, op, [re.operands[0]])  # pyright: ignore


@pattern("xla.real", "xla.imag", "xla.complex")
def fold_complex_parts(op: Operation, rewriter: PatternRewriter) -> None:
    """`real`, `imag` and `complex` of constants are constants."""
    values = [constant_value(v) for v in op.operands]
    if any(v is None for v in values) or not foldable_type(op.results[0].type):
        return
    if op.name == "xla.complex":
        re, im = values
        assert re is not None and im is not None
        dtype = tensor_dtype(op.results[0].type)
        replace_with_constant(
            rewriter, op, (re.astype(np.float64) + 1j * im.astype(np.float64)).astype(dtype)
        )
        return
    (z,) = values
    assert z is not None
    if z.dtype.kind != "c":
        part = z if op.name == "xla.real" else np.zeros_like(z)
    else:
        part = z.real if op.name == "xla.real" else z.imag
    replace_with_constant(rewriter, op, part)


__all__ = ["BINARY_FOLDERS", "COMMUTATIVE", "COMPARISONS", "UNARY_FOLDERS"]


@pattern("xla.maximum", "xla.minimum")
def extreme_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`max(x, lowest)` and `min(x, highest)` are `x` (`-inf`/`+inf` for floats, NaN
    still propagating; the type's bounds for integers)."""
    if not _keeps_type(op):
        return
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind == "c":
        return
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bound = info.min if op.name == "xla.maximum" else info.max
        matches = int(value) == int(bound)
    elif dtype == np.bool_:
        matches = bool(value) == (op.name == "xla.minimum")
    else:
        matches = float(value) == (-np.inf if op.name == "xla.maximum" else np.inf)
    if matches:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.subtract")
def integer_zero_minus(op: Operation, rewriter: PatternRewriter) -> None:
    """`0 - x` is `-x` on integers (on floats `0 - 0` is `+0`, `-0` is `-0`)."""
    dtype = tensor_dtype(op.results[0].type)
    if dtype is not None and dtype.kind in "iu" and _keeps_type(op) and _is_zero(op.operands[0]):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[1]], name="xla.negate", properties={}))


@pattern("xla.multiply")
def integer_times_minus_one(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * -1` is `-x` on signed integers (wrapping alike)."""
    dtype = tensor_dtype(op.results[0].type)
    if dtype is not None and dtype.kind == "i" and _keeps_type(op) and is_splat_of(op.operands[1], -1):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.negate", properties={}))


INVERTED_DIRECTION = {"EQ": "NE", "NE": "EQ", "LT": "GE", "GE": "LT", "GT": "LE", "LE": "GT"}


@pattern("xla.not")
def not_of_integer_comparison(op: Operation, rewriter: PatternRewriter) -> None:
    """`not(a < b)` is `a >= b` on integers (not on floats: NaN compares false both ways)."""
    cmp = producer(op.operands[0], "xla.compare")
    dtype = tensor_dtype(cmp.operands[0].type) if cmp is not None else None
    if cmp is None or dtype is None or dtype.kind not in "iub" or _compare_type(cmp) == "TOTALORDER":
        return
    from xla_dialect.attributes import ComparisonDirection, ComparisonDirectionAttr

    direction = ComparisonDirectionAttr(ComparisonDirection(INVERTED_DIRECTION[_direction(cmp)]))
    new = rebuild(cmp, properties={"comparison_direction": direction})
    new.attributes.update(op.attributes)
    rewriter.replace(op, new)


@pattern("xla.real")
def real_of_real(op: Operation, rewriter: PatternRewriter) -> None:
    """`real(x)` of a real-typed `x` is `x`."""
    if op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.reduce_precision")
def reduce_precision_to_own(op: Operation, rewriter: PatternRewriter) -> None:
    """`reduce_precision` to at least the type's own exponent and mantissa bits does nothing."""
    import ml_dtypes

    dtype = tensor_dtype(op.operands[0].type)
    if dtype is None or dtype.kind in "iubc":
        return
    try:
        info = ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return
    exponent_bits = int(np.log2(info.maxexp)) + 1
    e = op.properties["exponent_bits"].value.data  # pyright: ignore
    m = op.properties["mantissa_bits"].value.data  # pyright: ignore
    if e >= exponent_bits and m >= info.nmant:
        replace_with_values(rewriter, op, [op.operands[0]])


SINKABLE = ("xla.add", "xla.subtract", "xla.multiply", "xla.divide", "xla.maximum", "xla.minimum",
            "xla.and", "xla.or", "xla.xor", "xla.remainder", "xla.power", "xla.atan2")


@pattern(*SINKABLE)
def sink_shape_op(op: Operation, rewriter: PatternRewriter) -> None:
    """`f(transpose(a, p), transpose(b, p))` is `transpose(f(a, b), p)`, and likewise
    for `reshape`s of one type (XLA's algebraic simplifier sinks them past the
    element-wise op: one shape op instead of two)."""
    lhs = producer(op.operands[0], "xla.transpose", "xla.reshape")
    rhs = producer(op.operands[1], "xla.transpose", "xla.reshape")
    if lhs is None or rhs is None or lhs.name != rhs.name or "broadcast_dimensions" in op.properties:
        return
    if lhs.operands[0].type != rhs.operands[0].type or dict(lhs.properties) != dict(rhs.properties):
        return
    if "dimensions" in lhs.properties or not _same_shapes(op):
        return
    from xla_dialect.types import tensor

    inner_shape = shape_of(lhs.operands[0].type)
    inner = rebuild(op, operands=[lhs.operands[0], rhs.operands[0]],
                    result_types=[tensor(inner_shape, element_type_of(op.results[0].type))])
    inner.attributes.clear()
    rewriter.insert(inner, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(lhs, operands=[inner.results[0]], result_types=[op.results[0].type]))


@pattern("xla.select")
def select_of_booleans(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, true, false)` is `p`; `select(p, false, true)` is `not p`."""
    if op.operands[0].type != op.results[0].type or tensor_dtype(op.results[0].type) != np.bool_:
        return
    on_true, on_false = op.operands[1], op.operands[2]
    if is_splat_of(on_true, True) and is_splat_of(on_false, False):
        replace_with_values(rewriter, op, [op.operands[0]])
    elif is_splat_of(on_true, False) and is_splat_of(on_false, True):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.not", properties={}))


@pattern("xla.select")
def select_of_select(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, select(p, a, b), c)` is `select(p, a, c)`; `select(p, a, select(p, b, c))`
    is `select(p, a, c)`."""
    pred, on_true, on_false = op.operands
    inner = producer(on_true, "xla.select")
    if inner is not None and inner.operands[0] is pred:
        replace_with_op(rewriter, op, rebuild(op, operands=[pred, inner.operands[1], on_false]))
        return
    inner = producer(on_false, "xla.select")
    if inner is not None and inner.operands[0] is pred:
        replace_with_op(rewriter, op, rebuild(op, operands=[pred, on_true, inner.operands[2]]))


@pattern("xla.and", "xla.or", "xla.xor")
def with_own_complement(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & ~x` is 0; `x | ~x` and `x ^ ~x` are all ones (integers and PRED)."""
    lhs, rhs = op.operands
    inverted = producer(rhs, "xla.not")
    if inverted is None or inverted.operands[0] is not lhs or not _keeps_type(op):
        inverted = producer(lhs, "xla.not")
        if inverted is None or inverted.operands[0] is not rhs or not _keeps_type(op):
            return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or not foldable_type(op.results[0].type):
        return
    zero = np.zeros((), dtype=dtype)
    replace_with_constant(rewriter, op, zero if op.name == "xla.and" else np.invert(zero))


@pattern("xla.negate")
def negate_of_integer_difference(op: Operation, rewriter: PatternRewriter) -> None:
    """`-(a - b)` is `b - a` on integers (on floats `-(a - a)` is `-0`, `a - a` is `+0`)."""
    diff = producer(op.operands[0], "xla.subtract")
    dtype = tensor_dtype(op.results[0].type)
    if diff is None or dtype is None or dtype.kind not in "iu" or not _same_shapes(diff):
        return
    replace_with_op(rewriter, op, rebuild(diff, operands=[diff.operands[1], diff.operands[0]]))


@pattern("xla.power")
def power_of_small_integer(op: Operation, rewriter: PatternRewriter) -> None:
    """`x ^ 2` is `x * x`, `x ^ 0` is 1 (NaN ^ 0 too, as IEEE's pow), `x ^ -1` is `1 / x`
    on floats (XLA's algebraic simplifier)."""
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind == "c" or not _keeps_type(op):
        return
    exponent = float(value)
    x = op.operands[0]
    if exponent == 2:
        replace_with_op(rewriter, op, rebuild(op, operands=[x, x], name="xla.multiply"))
    elif exponent == 0 and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.ones((), dtype=dtype))
    elif exponent == -1 and dtype.kind not in "iub" and foldable_type(op.results[0].type):
        from passes.canonicalization.common import constant_op

        one = constant_op(np.ones((), dtype=dtype), op.results[0].type)
        rewriter.insert(one, InsertPoint.before(op))
        replace_with_op(rewriter, op, rebuild(op, operands=[one.results[0], x], name="xla.divide"))


IDEMPOTENT_UNARY = ("xla.floor", "xla.ceil", "xla.round_nearest_even", "xla.round_nearest_afz", "xla.sign")


@pattern(*IDEMPOTENT_UNARY)
def rounding_of_integral(op: Operation, rewriter: PatternRewriter) -> None:
    """Rounding (or `sign`) of a value already rounded (or a sign) is that value:
    `floor(ceil(x))` is `ceil(x)`, `sign(sign(x))` is `sign(x)`."""
    inner = producer(op.operands[0], *IDEMPOTENT_UNARY)
    if inner is None or op.operands[0].type != op.results[0].type:
        return
    if (inner.name == "xla.sign") == (op.name == "xla.sign"):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.imag")
def imag_of_real(op: Operation, rewriter: PatternRewriter) -> None:
    """`imag(x)` of a real-typed `x` is zero."""
    if op.operands[0].type == op.results[0].type and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.zeros((), dtype=tensor_dtype(op.results[0].type)))


REASSOCIATIVE = ("xla.add", "xla.multiply", "xla.and", "xla.or", "xla.xor", "xla.maximum", "xla.minimum")


@pattern(*REASSOCIATIVE)
def combine_constants(op: Operation, rewriter: PatternRewriter) -> None:
    """`(x op c1) op c2` is `x op (c1 op c2)`: exact for integers, PRED, and for
    `maximum`/`minimum` of floats (XLA's algebraic simplifier)."""
    inner = producer(op.operands[0], op.name)
    dtype = tensor_dtype(op.results[0].type)
    if inner is None or dtype is None or not _keeps_type(op) or not _keeps_type(inner):
        return
    if dtype.kind not in "iub" and op.name not in ("xla.maximum", "xla.minimum"):
        return
    c1, c2 = constant_value(inner.operands[1]), constant_value(op.operands[1])
    if c1 is None or c2 is None or c1.dtype.kind == "c" or sum(1 for _ in op.operands[0].uses) != 1:
        return
    with np.errstate(all="ignore"):
        combined = BINARY_FOLDERS[op.name](c1, c2)
    if combined is None:
        return
    from passes.canonicalization.common import constant_op

    const = constant_op(np.asarray(combined).astype(dtype), op.results[0].type)
    rewriter.insert(const, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0], const.results[0]]))


@pattern("xla.minimum", "xla.maximum")
def absorption(op: Operation, rewriter: PatternRewriter) -> None:
    """`min(x, max(x, y))` and `max(x, min(x, y))` are `x` on integers (on floats a
    NaN `y` would propagate)."""
    other = "xla.maximum" if op.name == "xla.minimum" else "xla.minimum"
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or dtype.kind not in "iub" or not _keeps_type(op):
        return
    x, rhs = op.operands
    inner = producer(rhs, other)
    if inner is not None and x in inner.operands and _keeps_type(inner):
        replace_with_values(rewriter, op, [x])


@pattern("xla.remainder")
def integer_remainder_by_one(op: Operation, rewriter: PatternRewriter) -> None:
    """`x % 1` is 0 on integers."""
    dtype = tensor_dtype(op.results[0].type)
    integer = dtype is not None and dtype.kind in "iu" and foldable_type(op.results[0].type)
    if integer and _keeps_type(op) and is_splat_of(op.operands[1], 1):
        replace_with_constant(rewriter, op, np.zeros((), dtype=dtype))


@pattern("xla.clamp")
def clamp_of_clamp(op: Operation, rewriter: PatternRewriter) -> None:
    """`clamp(lo, clamp(lo, x, hi), hi)` is the inner `clamp`."""
    inner = producer(op.operands[1], "xla.clamp")
    same_bounds = inner is not None and inner.operands[0] is op.operands[0] and inner.operands[2] is op.operands[2]
    if same_bounds and inner.results[0].type == op.results[0].type:  # pyright: ignore
        replace_with_values(rewriter, op, [inner.results[0]])  # pyright: ignore


@pattern("xla.xor")
def xor_of_complements(op: Operation, rewriter: PatternRewriter) -> None:
    """`~x ^ ~y` is `x ^ y`."""
    a, b = producer(op.operands[0], "xla.not"), producer(op.operands[1], "xla.not")
    if a is not None and b is not None and _keeps_type(op):
        replace_with_op(rewriter, op, rebuild(op, operands=[a.operands[0], b.operands[0]]))


@pattern("xla.compare")
def compare_predicate_to_its_negation(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare EQ, p, false` and `compare NE, p, true` on PRED are `not p`."""
    if tensor_dtype(op.operands[0].type) != np.bool_ or not _same_shapes(op):
        return
    direction = _direction(op)
    if (direction == "EQ" and is_splat_of(op.operands[1], False)) or (
        direction == "NE" and is_splat_of(op.operands[1], True)
    ):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.not", properties={}))
