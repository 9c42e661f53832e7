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

import math
from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from passes.canonicalization.common import (
    constant_value,
    foldable_type,
    is_constant,
    is_splat_of,
    pattern,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    tensor_dtype,
)
from xla_dialect.types import is_tensor, shape_of

Array = np.ndarray

def same_shapes(op: Operation) -> bool:
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
    "chlo.erf": _float_math(np.vectorize(math.erf, otypes=[np.float64])),
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

def direction_of(op: Operation) -> str:
    return str(op.properties["comparison_direction"].data.value)  # pyright: ignore

def compare_type_of(op: Operation) -> str | None:
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
    if compare_type_of(op) == "TOTALORDER" and lhs.dtype.kind != "b":
        if lhs.dtype.kind in "iu":
            return
        lhs, rhs = _total_order_key(lhs), _total_order_key(rhs)
    replace_with_constant(rewriter, op, COMPARISONS[direction_of(op)](lhs, rhs))

@pattern("xla.compare")
def compare_same_operands(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare(x, x)` of integers is known: true for EQ/LE/GE, false for NE/LT/GT."""
    if op.operands[0] is not op.operands[1] or not foldable_type(op.results[0].type):
        return
    dtype = tensor_dtype(op.operands[0].type)
    if dtype is None or dtype.kind not in "iub":
        return
    replace_with_constant(rewriter, op, np.array(direction_of(op) in ("EQ", "LE", "GE")))

@pattern("xla.compare")
def compare_of_predicates(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare EQ, p, true` and `compare NE, p, false` on PRED are `p`."""
    dtype = tensor_dtype(op.operands[0].type)
    if dtype != np.bool_ or not same_shapes(op):
        return
    direction = direction_of(op)
    if (direction == "EQ" and is_splat_of(op.operands[1], True)) or (
        direction == "NE" and is_splat_of(op.operands[1], False)
    ):
        replace_with_values(rewriter, op, [op.operands[0]])

@pattern("xla.compare")
def compare_constant_to_right(op: Operation, rewriter: PatternRewriter) -> None:
    """A constant moves to the right of `compare`, the direction mirrored."""
    lhs, rhs = op.operands
    if not is_constant(lhs) or is_constant(rhs) or not same_shapes(op):
        return
    from xla_dialect.attributes import ComparisonDirection, ComparisonDirectionAttr

    flipped = ComparisonDirectionAttr(ComparisonDirection(SWAPPED_DIRECTION[direction_of(op)]))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[rhs, lhs], properties={"comparison_direction": flipped})
    )


# Helpers the other element-wise modules share


def keeps_type(op: Operation) -> bool:
    return op.operands[0].type == op.results[0].type and same_shapes(op)


def _distinct_elements(array: np.ndarray) -> np.ndarray:
    """`array`, or its one element when it is a broadcast view (what `to_numpy` gives for
    a splat literal): the tests below then look at one element, not at millions (a 4M
    splat of 0 widened to f64 took 5 ms, 14 times in a chain of 10 functions)."""
    if array.size and array.ndim and all(stride == 0 for stride in array.strides):
        return np.asarray(array[(0,) * array.ndim]).reshape(1)
    return array


def all_ones(value: SSAValue) -> bool:
    array = constant_value(value)
    if array is not None:
        array = _distinct_elements(array)
    if array is None or array.size == 0 or array.dtype.kind not in "iub":
        return False
    if array.dtype == np.bool_:
        return bool(np.all(array))
    return bool(np.all(array == np.invert(np.zeros_like(array))))


def is_zero(value: SSAValue, *, negative_zero_only: bool = False) -> bool:
    """Whether `value` is a constant of zeros; for floats `negative_zero_only` asks
    for -0.0 (the identity of float addition: `x + -0.0` is `x`, `x + 0.0` is not)."""
    array = constant_value(value)
    if array is None or array.size == 0:
        return False
    array = _distinct_elements(array)
    if array.dtype.kind in "iub":
        return not bool(np.any(array))
    if array.dtype.kind == "c":
        return False
    with np.errstate(invalid="ignore"):  # a signalling NaN sets the invalid flag when widened
        wide = array.astype(np.float64)
    if negative_zero_only:
        return bool(np.all((wide == 0) & np.signbit(wide)))
    return bool(np.all(wide == 0))


def positive_zero(value: SSAValue) -> bool:
    array = constant_value(value)
    return array is not None and not bool(np.any(np.signbit(_distinct_elements(array).astype(np.float64))))
