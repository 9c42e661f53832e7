"""Shape ops: broadcasts and transposes are generics that only move elements
(their indexing maps say where from); reshapes are a collapse to rank 1 and an
expand to the new shape, which bufferization turns into views.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, i64
from xdsl.ir import SSAValue

from lowering.xla_to_linalg.converter import (
    Converter,
    broadcast_map,
    dims_map,
    empty,
    filled,
    generic,
    identity_map,
    lowers,
    parallel,
    result_tensor_type,
)
from xla_dialect.ops.shape import (
    BroadcastInDimOp,
    BroadcastOp,
    CollapseOp,
    GetDimensionSizeOp,
    ReshapeOp,
    TransposeOp,
)
from xla_dialect.syntax import ints_of
from xla_dialect.types import shape_of


def copy_with_map(builder: Builder, operand: SSAValue, operand_map: object, result_type: TensorType) -> SSAValue:
    """A generic that writes `operand[map(i)]` to each index `i` of the result."""
    rank = result_type.get_num_dims()
    (result,) = generic(
        builder,
        [operand],
        [operand_map],  # pyright: ignore[reportArgumentType]
        [empty(builder, result_type)],
        [identity_map(rank)],
        parallel(rank),
        lambda b, args: [args[0]],
    )
    return result


@lowers(BroadcastInDimOp)
def lower_broadcast_in_dim(cx: Converter, op: BroadcastInDimOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    in_map = broadcast_map(shape_of(op.operand.type), result_type.get_shape(), ints_of(op.broadcast_dimensions))
    return [copy_with_map(builder, cx.get(op.operand), in_map, result_type)]


@lowers(BroadcastOp)
def lower_broadcast(cx: Converter, op: BroadcastOp, builder: Builder) -> Sequence[SSAValue]:
    """The old `Broadcast`: new dimensions are prepended."""
    result_type = result_tensor_type(op)
    rank, operand_rank = result_type.get_num_dims(), len(shape_of(op.operand.type))
    dims = tuple(range(rank - operand_rank, rank))
    in_map = broadcast_map(shape_of(op.operand.type), result_type.get_shape(), dims)
    return [copy_with_map(builder, cx.get(op.operand), in_map, result_type)]


def transpose(builder: Builder, operand: SSAValue, permutation: Sequence[int], result_type: TensorType) -> SSAValue:
    """result[i_0, ..., i_n] = operand[j] with j[permutation[k]] = i_k."""
    rank = len(permutation)
    inverse = [0] * rank
    for k, p in enumerate(permutation):
        inverse[p] = k
    return copy_with_map(builder, operand, dims_map(rank, inverse), result_type)


@lowers(TransposeOp)
def lower_transpose(cx: Converter, op: TransposeOp, builder: Builder) -> Sequence[SSAValue]:
    return [transpose(builder, cx.get(op.operand), ints_of(op.permutation), result_tensor_type(op))]


def reshape(builder: Builder, operand: SSAValue, result_type: TensorType) -> SSAValue:
    """Row-major reshape: collapse to rank 1 (or 0), then expand."""
    in_shape = tuple(shape_of(operand.type))
    out_shape = tuple(result_type.get_shape())
    if in_shape == out_shape:
        return operand
    element = result_type.element_type
    size = 1
    for d in out_shape:
        size *= d
    flat = TensorType(element, [size])
    value = operand
    if not in_shape:
        value = builder.insert(tensor.ExpandShapeOp(operand, [], ArrayAttr([]), [1], flat)).result
    elif len(in_shape) > 1:
        value = _collapse(builder, operand, [list(range(len(in_shape)))], flat)
    if len(out_shape) != 1:
        if not out_shape:
            return _collapse(builder, value, [], result_type)
        reassociation = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in range(len(out_shape))])])
        value = builder.insert(tensor.ExpandShapeOp(value, [], reassociation, out_shape, result_type)).result
    return value


def _collapse(builder: Builder, value: SSAValue, groups: Sequence[Sequence[int]], result_type: TensorType) -> SSAValue:
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    op = tensor.CollapseShapeOp.create(operands=[value], result_types=[result_type], properties={"reassociation": reassociation})
    return builder.insert(op).results[0]


@lowers(ReshapeOp)
def lower_reshape(cx: Converter, op: ReshapeOp, builder: Builder) -> Sequence[SSAValue]:
    """`dimensions` (the older form) transposes the operand first."""
    operand = cx.get(op.operand)
    if op.dimensions is not None:
        perm = ints_of(op.dimensions)
        if list(perm) != list(range(len(perm))):
            in_t = operand.type
            assert isinstance(in_t, TensorType)
            shape = [in_t.get_shape()[p] for p in perm]
            operand = transpose(builder, operand, perm, TensorType(in_t.element_type, shape))
    return [reshape(builder, operand, result_tensor_type(op))]


@lowers(CollapseOp)
def lower_collapse(cx: Converter, op: CollapseOp, builder: Builder) -> Sequence[SSAValue]:
    return [reshape(builder, cx.get(op.operand), result_tensor_type(op))]


@lowers(GetDimensionSizeOp)
def lower_get_dimension_size(cx: Converter, op: GetDimensionSizeOp, builder: Builder) -> Sequence[SSAValue]:
    """Shapes are static, so the size is a constant."""
    size = shape_of(op.operand.type)[op.dimension.value.data]
    result_type = result_tensor_type(op)
    scalar = builder.insert(arith.ConstantOp(IntegerAttr(size, result_type.element_type))).result  # pyright: ignore
    return [filled(builder, scalar, result_type)]


__all__ = ["copy_with_map", "reshape", "transpose"]
