"""Types of the `xla` dialect and the element-type rules of the spec.

XLA's primitive types map onto MLIR's builtin types as StableHLO maps them:
PRED is `i1`, S<n> is signless `i<n>`, U<n> is `ui<n>`, F16/BF16/F32/F64 and the
f8 variants are the builtin floats, C64/C128 are `complex<f32>`/`complex<f64>`.
Arrays are ranked tensors, tuples are builtin `tuple<...>`, and the token is
`!xla.token`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ReducedPrecisionFloatType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!xla.token`: orders side-effecting ops (infeed, outfeed, send, recv)."""

    name = "xla.token"


INTEGER_WIDTHS = (2, 4, 8, 16, 32, 64)
"""Widths of the spec's S<n>/U<n> types (2 and 4 bits as StableHLO has them)."""

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type, ReducedPrecisionFloatType)


# ---------------------------------------------------------------------------
# Element-type predicates
# ---------------------------------------------------------------------------


def is_pred(t: Attribute) -> bool:
    """PRED: `i1`."""
    return isinstance(t, IntegerType) and t.width.data == 1 and t.signedness.data != Signedness.SIGNED


def is_integer(t: Attribute) -> TypeGuard[IntegerType]:
    """S<n> or U<n> (not PRED)."""
    return (
        isinstance(t, IntegerType)
        and t.width.data in INTEGER_WIDTHS
        and t.signedness.data != Signedness.SIGNED
    )


def is_signed_integer(t: Attribute) -> TypeGuard[IntegerType]:
    """S<n>: signless `i<n>`, n > 1."""
    return is_integer(t) and t.signedness.data == Signedness.SIGNLESS


def is_unsigned_integer(t: Attribute) -> TypeGuard[IntegerType]:
    """U<n>: `ui<n>`."""
    return is_integer(t) and t.signedness.data == Signedness.UNSIGNED


def is_float(t: Attribute) -> TypeGuard[AnyFloat]:
    return isinstance(t, FLOAT_TYPES)


def is_complex(t: Attribute) -> TypeGuard[ComplexType]:
    return isinstance(t, ComplexType) and isinstance(t.element_type, Float32Type | Float64Type)


def is_element_type(t: Attribute) -> bool:
    """One of the spec's primitive types."""
    return is_pred(t) or is_integer(t) or is_float(t) or is_complex(t)


def is_int_or_pred(t: Attribute) -> bool:
    return is_pred(t) or is_integer(t)


def is_float_or_complex(t: Attribute) -> bool:
    return is_float(t) or is_complex(t)


def is_numeric(t: Attribute) -> bool:
    """Integers, floats and complex: everything that arithmetic accepts."""
    return is_integer(t) or is_float(t) or is_complex(t)


def is_signed_numeric(t: Attribute) -> bool:
    """Types with a sign: signed integers, floats, complex."""
    return is_signed_integer(t) or is_float(t) or is_complex(t)


def bit_width(t: Attribute) -> int:
    """Storage width in bits of a primitive type."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, ComplexType):
        return 2 * bit_width(t.element_type)
    if is_float(t):
        return t.bitwidth
    raise ValueError(f"{t} has no bit width")




ELEMENT_TYPE_CLASSES: dict[str, tuple[str, object]] = {
    # Named element-type classes used by verifier messages and op tables.
    "pred": ("boolean", is_pred),
    "integer": ("integer", is_integer),
    "int_or_pred": ("integer or boolean", is_int_or_pred),
    "float": ("floating-point", is_float),
    "complex": ("complex", is_complex),
    "float_or_complex": ("floating-point or complex", is_float_or_complex),
    "numeric": ("integer, floating-point or complex", is_numeric),
    "signed_numeric": ("signed integer, floating-point or complex", is_signed_numeric),
    "any": ("primitive", is_element_type),
}


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def is_tensor(t: Attribute) -> TypeGuard[TensorType[Attribute]]:
    return isinstance(t, TensorType)


_TENSOR_TYPES: dict[tuple[tuple[int, ...], Attribute], TensorType[Attribute]] = {}
"""The tensor types `tensor` made, by shape and element type: types are values, and the
verifiers and type inference ask for the same few thousands of times (building one was
5 % of reading a JAX export)."""


def tensor(shape: Sequence[int], element_type: Attribute) -> TensorType[Attribute]:
    """`tensor<shape x element_type>`."""
    key = (tuple(shape), element_type)
    try:
        known = _TENSOR_TYPES.get(key)
    except TypeError:  # an element type that cannot be hashed
        return TensorType(element_type, list(shape))
    if known is None:
        known = TensorType(element_type, list(shape))
        if len(_TENSOR_TYPES) >= 1 << 14:
            _TENSOR_TYPES.clear()
        _TENSOR_TYPES[key] = known
    return known


def shape_of(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType), t
    return tuple(t.get_shape())


def element_type_of(t: Attribute) -> Attribute:
    assert isinstance(t, TensorType), t
    return t.element_type


def rank_of(t: Attribute) -> int:
    return len(shape_of(t))


def is_dynamic(d: int) -> bool:
    return d == DYNAMIC_INDEX or d < 0


def dims_compatible(a: int, b: int) -> bool:
    """Two dimension sizes agree, a dynamic size agreeing with any."""
    return a == b or is_dynamic(a) or is_dynamic(b)


def shapes_compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b))


def format_shape(shape: Sequence[int]) -> str:
    return "[" + ", ".join("?" if is_dynamic(d) else str(d) for d in shape) + "]"


def format_type(t: Attribute) -> str:
    """A type as MLIR prints it, for diagnostics."""
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


def flatten_tuple_types(t: Attribute) -> list[Attribute]:
    """Leaves of a (nested) tuple type, depth first."""
    if isinstance(t, TupleType):
        return [leaf for member in t.types.data for leaf in flatten_tuple_types(member)]
    return [t]
