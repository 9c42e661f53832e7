"""`constant` and `iota`.

A splat constant becomes `linalg.fill` of a fresh tensor (no data in the
binary); any other constant an `arith.constant` of a signless dense tensor,
which bufferization turns into a read-only global. A complex splat fills with
a `complex.constant`; other complex literals stay dense (re, im pairs). `iota` is a generic that
converts its `linalg.index` to the element type (a complex iota: to the real
part, with a zero imaginary part).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, SSAValue

from lowering.scalar import complex_constant, signless_type
from lowering.to_llvm.common import normalize_int
from lowering.xla_to_linalg.converter import (
    Converter,
    empty,
    filled,
    generic,
    identity_map,
    lowers,
    parallel,
    result_tensor_type,
)
from xla_dialect.literals import splat_element, to_numpy
from xla_dialect.ops.constants import ConstantOp, IotaOp
from xla_dialect.types import element_type_of


def scalar_attr(value: object, element: Attribute) -> Attribute:
    """The `arith.constant` value attribute of one element (signless type)."""
    t = signless_type(element)
    if isinstance(t, IntegerType):
        return IntegerAttr(normalize_int(int(value), t.width.data), t)  # pyright: ignore[reportArgumentType]
    assert isinstance(t, AnyFloat)
    return FloatAttr(float(value), t)  # pyright: ignore[reportArgumentType]


def scalar_constant(builder: Builder, value: object, element: Attribute) -> SSAValue:
    """One element as a scalar `arith.constant`. A NaN narrower than f64 is built from
    its bits (`arith.constant` of the integer, `arith.bitcast`): a float attribute holds
    a Python float, and widening a signalling NaN to it sets the quiet bit, so the
    constant would change value (`0x7F800001` would run as `0x7FC00001`)."""
    t = signless_type(element)
    raw = np.asarray(value)
    with np.errstate(invalid="ignore"):  # testing a signalling NaN sets the invalid flag
        is_nan = isinstance(t, AnyFloat) and raw.dtype.kind not in "iub" and bool(np.isnan(raw))
    if is_nan and t.bitwidth < 64:
        bits = int(raw.view(f"u{raw.dtype.itemsize}"))
        integer = builder.insert(arith.ConstantOp(IntegerAttr(normalize_int(bits, t.bitwidth), IntegerType(t.bitwidth))))
        return builder.insert(arith.BitcastOp(integer.result, t)).result
    return builder.insert(arith.ConstantOp(scalar_attr(value, element))).result  # pyright: ignore


def _splat_value(attr: DenseIntOrFPElementsAttr) -> object | None:
    splat = splat_element(to_numpy(attr))  # a splat literal is one stored element
    return None if splat is None else splat[()]


def constant_scalar(builder: Builder, op: ConstantOp) -> SSAValue:
    """The single element of a constant as a scalar `arith.constant`."""
    element = element_type_of(op.output.type)
    value = to_numpy(op.value).flat[0]
    if isinstance(element, ComplexType):
        return complex_constant(builder.insert, value.real, value.imag, element)
    return scalar_constant(builder, value, element)


@lowers(ConstantOp)
def lower_constant(cx: Converter, op: ConstantOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    splat = _splat_value(op.value)
    element = element_type_of(op.output.type)
    if splat is not None and isinstance(element, ComplexType):
        scalar = complex_constant(builder.insert, splat.real, splat.imag, element)  # pyright: ignore
        return [filled(builder, scalar, result_type)]
    if splat is not None:
        scalar = scalar_constant(builder, splat, element)
        return [filled(builder, scalar, result_type)]
    value = DenseIntOrFPElementsAttr(result_type, op.value.data)
    return [builder.insert(arith.ConstantOp(value, result_type)).result]


@lowers(IotaOp)
def lower_iota(cx: Converter, op: IotaOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    rank = result_type.get_num_dims()
    dim = op.iota_dimension.value.data
    element = result_type.element_type

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        index = b.insert(IndexOp(dim)).result
        if isinstance(element, IntegerType):
            return [b.insert(arith.IndexCastOp(index, element)).result]
        wide = b.insert(arith.IndexCastOp(index, i64)).result
        if isinstance(element, ComplexType):  # the index as the real part, 0i
            from xdsl.dialects import complex  # loaded with the first complex program

            part = element.element_type
            re = b.insert(arith.SIToFPOp(wide, part)).result  # pyright: ignore[reportArgumentType]
            zero = b.insert(arith.ConstantOp(FloatAttr(0.0, part))).result  # pyright: ignore
            return [b.insert(complex.CreateOp(re, zero, element)).results[0]]
        return [b.insert(arith.SIToFPOp(wide, element)).result]

    return generic(builder, [], [], [empty(builder, result_type)], [identity_map(rank)], parallel(rank), body)


__all__ = ["constant_scalar", "lower_constant", "lower_iota", "scalar_attr", "scalar_constant"]
