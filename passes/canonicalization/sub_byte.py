"""Folding on constants of the sub-byte integer types (i2, i4, ui2, ui4).

ml_dtypes holds them, but NumPy's kinds do not tell them apart from other types, so
the general folders (`elementwise.py`, `conversions.py`) leave them. Here the values
are read as Python-sized integers (int64) and every result is wrapped to the type's
width, as the spec's integer semantics (two's complement) say: `7 + 1 : i4` is `-8`.
What the spec leaves implementation-defined stays to run time exactly as for wider
integers: division and remainder by zero, `INT_MIN / -1` (`-8 / -1 : i4`), shifts by
the bit width or more; `power`, and converting from floats, are not folded.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, Signedness
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from passes.canonicalization.common import (
    foldable_type,
    pattern,
    producer,
    replace_with_constant,
    tensor_dtype,
)
from passes.canonicalization.elementwise import COMPARISONS, direction_of, same_shapes
from xla_dialect.literals import to_numpy
from xla_dialect.types import element_type_of, is_tensor

Array = np.ndarray


def sub_byte_format(t: Attribute) -> tuple[int, bool] | None:
    """(width, signed) of a tensor type of i2/i4/ui2/ui4 elements, else None."""
    if not is_tensor(t):
        return None
    element = element_type_of(t)
    if not isinstance(element, IntegerType) or element.width.data not in (2, 4):
        return None
    return element.width.data, element.signedness.data != Signedness.UNSIGNED


def sub_byte_value(value: SSAValue) -> Array | None:
    """The values (int64) of a constant of a sub-byte integer type."""
    owner = producer(value, "xla.constant", "arith.constant")
    if owner is None or sub_byte_format(value.type) is None:
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    return np.asarray(to_numpy(attr)).astype(np.int64)


def wrap(values: Array, width: int, signed: bool) -> Array:
    """`values` modulo 2^width, in the type's range (two's complement when signed)."""
    unsigned = np.mod(values, 1 << width)
    return unsigned - (1 << width) * (unsigned >= (1 << (width - 1))) if signed else unsigned


def _undefined(a: Array, b: Array, low: int | None) -> bool:
    """Division by zero, or INT_MIN / -1 (`low` is INT_MIN; None when unsigned)."""
    return bool(np.any(b == 0)) or (low is not None and bool(np.any((a == low) & (b == -1))))


def _divide(a: Array, b: Array, low: int | None) -> Array | None:
    if _undefined(a, b, low):
        return None  # implementation-defined: left to run time
    return np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))


def _remainder(a: Array, b: Array, low: int | None) -> Array | None:
    if _undefined(a, b, low):
        return None
    return np.sign(a) * (np.abs(a) % np.abs(b))


def _shift(kind: str) -> Callable[[Array, Array, int, bool], Array | None]:
    def fold(a: Array, b: Array, width: int, signed: bool) -> Array | None:
        if bool(np.any((b < 0) | (b >= width))):
            return None  # the spec's result for such amounts is left to run time
        if kind == "left":
            return a << b
        if kind == "logical":
            return np.mod(a, 1 << width) >> b
        return wrap(a, width, True) >> b  # the bits read as signed, shifted in sign bits

    return fold


_RING: dict[str, Callable[[Array, Array], Array]] = {
    "xla.add": np.add,
    "xla.subtract": np.subtract,
    "xla.multiply": np.multiply,
    "xla.and": np.bitwise_and,
    "xla.or": np.bitwise_or,
    "xla.xor": np.bitwise_xor,
    "xla.maximum": np.maximum,
    "xla.minimum": np.minimum,
}
"""Binary ops exact on any integers and then wrapped to the width."""

_SHIFTS = {
    "xla.shift_left": _shift("left"),
    "xla.shift_right_logical": _shift("logical"),
    "xla.shift_right_arithmetic": _shift("arithmetic"),
}

_UNARY: dict[str, Callable[[Array, int], Array]] = {
    "xla.negate": lambda a, _w: -a,
    "xla.abs": lambda a, _w: np.abs(a),
    "xla.not": lambda a, _w: ~a,
    "xla.sign": lambda a, _w: np.sign(a),
    "xla.popcnt": lambda a, w: _bits(a, w, int.bit_count),
    "xla.count_leading_zeros": lambda a, w: w - _bits(a, w, int.bit_length),
}


def _bits(a: Array, width: int, count: Callable[[int], int]) -> Array:
    """`count` of the bits of each element (as `width` unsigned bits)."""
    unsigned = np.mod(a, 1 << width)
    return np.array([count(int(v)) for v in unsigned.reshape(-1)], dtype=np.int64).reshape(a.shape)


def _binary(op: Operation, a: Array, b: Array, width: int, signed: bool) -> Array | None:
    low = -(1 << (width - 1)) if signed else None
    if op.name in _RING:
        return _RING[op.name](a, b)
    if op.name == "xla.divide":
        return _divide(a, b, low)
    if op.name == "xla.remainder":
        return _remainder(a, b, low)
    return _SHIFTS[op.name](a, b, width, signed)


@pattern(*_RING, *_SHIFTS, "xla.divide", "xla.remainder", *_UNARY)
def fold_sub_byte_arithmetic(op: Operation, rewriter: PatternRewriter) -> None:
    """An element-wise op of sub-byte integer constants is a constant, wrapped."""
    form = sub_byte_format(op.results[0].type)
    if form is None or not foldable_type(op.results[0].type) or not same_shapes(op):
        return
    values = [sub_byte_value(v) for v in op.operands]
    if any(v is None for v in values):
        return
    width, signed = form
    if op.name in _UNARY:
        result = _UNARY[op.name](values[0], width)  # type: ignore[arg-type]
    else:
        result = _binary(op, values[0], values[1], width, signed)  # type: ignore[arg-type]
    if result is not None:
        replace_with_constant(rewriter, op, wrap(np.asarray(result), width, signed))


@pattern("xla.compare")
def fold_sub_byte_compare(op: Operation, rewriter: PatternRewriter) -> None:
    """A comparison of sub-byte integer constants is a PRED constant."""
    if sub_byte_format(op.operands[0].type) is None or not foldable_type(op.results[0].type):
        return
    a, b = (sub_byte_value(v) for v in op.operands)
    if a is not None and b is not None and a.shape == b.shape:
        replace_with_constant(rewriter, op, COMPARISONS[direction_of(op)](a, b))


@pattern("xla.convert")
def fold_sub_byte_convert(op: Operation, rewriter: PatternRewriter) -> None:
    """Converting an integer constant to a sub-byte type wraps it to the width; a
    sub-byte constant converts to another integer type (wrapping into an unsigned
    one), to PRED (`!= 0`), and to a float type where the value is exact in it."""
    source, target = op.operands[0], op.results[0].type
    if not foldable_type(target):
        return
    target_form = sub_byte_format(target)
    if sub_byte_format(source.type) is not None:
        values = sub_byte_value(source)
    elif target_form is not None:
        values = _integer_constant(source)
    else:
        return
    if values is None:
        return
    if target_form is not None:
        replace_with_constant(rewriter, op, wrap(values, *target_form))
        return
    element = element_type_of(target)
    if isinstance(element, IntegerType) and element.width.data == 1:
        replace_with_constant(rewriter, op, values != 0)
        return
    dtype = tensor_dtype(target)
    if dtype is None or dtype.kind == "c":
        return
    with np.errstate(all="ignore"):
        converted = values.astype(dtype)  # integers wrap (two's complement)
    if isinstance(element, IntegerType) or bool(np.all(converted.astype(np.float64) == values)):
        replace_with_constant(rewriter, op, converted)  # floats: only where exact


def _integer_constant(value: SSAValue) -> Array | None:
    """The values of a constant of a (wider) integer type, as int64 with their sign."""
    owner = producer(value, "xla.constant", "arith.constant")
    element = element_type_of(value.type) if is_tensor(value.type) else None
    if owner is None or not isinstance(element, IntegerType) or element.width.data == 1:
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    try:
        array = np.asarray(to_numpy(attr))
    except ValueError:
        return None
    if array.dtype == np.uint64:
        array = np.mod(array, 1 << 8)  # only the low bits survive the wrap
    return array.astype(np.int64)
