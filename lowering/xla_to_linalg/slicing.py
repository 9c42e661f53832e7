"""Slicing ops → `tensor.extract_slice` / `tensor.insert_slice` (views and
copies after bufferization), `reverse` → a generic reading `n - 1 - i`.

Dynamic starts are clamped to `[0, dim - size]` as the spec says, so a slice
always stays in bounds. `pad` fills the result with the padding value and
inserts the operand with stride `interior + 1`, after cropping what negative
edge padding removes; with edge padding only (none negative) it inserts the
operand and fills just the border.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, TensorType, i64
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    empty,
    extract_scalar,
    filled,
    index_constant,
    lowers,
    result_tensor_type,
)
from lowering.xla_to_linalg.shape import copy_with_map
from xla_dialect.ops.slicing import (
    ConcatenateOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    PadOp,
    ReverseOp,
    SliceOp,
)
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, shape_of


def extract_slice(
    builder: Builder,
    source: SSAValue,
    offsets: Sequence[SSAValue | int],
    sizes: Sequence[int],
    strides: Sequence[int],
) -> SSAValue:
    source_type = source.type
    assert isinstance(source_type, TensorType)
    result_type = TensorType(source_type.element_type, sizes)
    return builder.insert(tensor.ExtractSliceOp(source, offsets, sizes, strides, result_type)).result


def insert_slice(
    builder: Builder,
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[SSAValue | int],
    strides: Sequence[int] | None = None,
) -> SSAValue:
    sizes = list(shape_of(source.type))
    static_offsets = [o if isinstance(o, int) else -(2**63) for o in offsets]
    dynamic = [o for o in offsets if not isinstance(o, int)]
    op = tensor.InsertSliceOp.get(
        source,
        dest,
        static_sizes=sizes,
        static_offsets=static_offsets,
        static_strides=list(strides) if strides is not None else [1] * len(sizes),
        offsets=dynamic,
        result_type=dest.type,
    )
    return builder.insert(op).result


@lowers(SliceOp)
def lower_slice(cx: Converter, op: SliceOp, builder: Builder) -> Sequence[SSAValue]:
    sizes = result_tensor_type(op).get_shape()
    return [extract_slice(builder, cx.get(op.operand), ints_of(op.start_indices), sizes, ints_of(op.strides))]


def clamped_starts(
    builder: Builder, starts: Sequence[SSAValue], xla_starts: Sequence[SSAValue], operand_shape: Sequence[int], sizes: Sequence[int]
) -> list[SSAValue]:
    """Each start index as an `index`, clamped to `[0, dim - size]`."""
    out: list[SSAValue] = []
    for value, xla_value, dim, size in zip(starts, xla_starts, operand_shape, sizes):
        scalar = extract_scalar(builder, value)
        element = element_type_of(xla_value.type)
        assert isinstance(element, IntegerType)
        if element.signedness.data == Signedness.UNSIGNED and element.width.data < 64:
            scalar = builder.insert(arith.ExtUIOp(scalar, i64)).result
        index = builder.insert(arith.IndexCastOp(scalar, IndexType())).result
        if element.signedness.data == Signedness.UNSIGNED and element.width.data == 64:
            # Huge unsigned starts read as negative indices; clamp them to the top.
            zero = index_constant(builder, 0)
            neg = builder.insert(arith.CmpiOp(index, zero, "slt")).result
            index = builder.insert(arith.SelectOp(neg, index_constant(builder, dim - size), index)).result
        index = builder.insert(arith.MaxSIOp(index, index_constant(builder, 0))).result
        index = builder.insert(arith.MinSIOp(index, index_constant(builder, dim - size))).result
        out.append(index)
    return out


@lowers(DynamicSliceOp)
def lower_dynamic_slice(cx: Converter, op: DynamicSliceOp, builder: Builder) -> Sequence[SSAValue]:
    sizes = ints_of(op.slice_sizes)
    starts = clamped_starts(
        builder, cx.get_all(op.start_indices), list(op.start_indices), shape_of(op.operand.type), sizes
    )
    return [extract_slice(builder, cx.get(op.operand), starts, sizes, [1] * len(sizes))]


@lowers(DynamicUpdateSliceOp)
def lower_dynamic_update_slice(cx: Converter, op: DynamicUpdateSliceOp, builder: Builder) -> Sequence[SSAValue]:
    sizes = shape_of(op.update.type)
    starts = clamped_starts(
        builder, cx.get_all(op.start_indices), list(op.start_indices), shape_of(op.operand.type), sizes
    )
    return [insert_slice(builder, cx.get(op.update), cx.get(op.operand), starts)]


@lowers(ConcatenateOp)
def lower_concatenate(cx: Converter, op: ConcatenateOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    dim = op.dimension.value.data
    result = empty(builder, result_type)
    offset = 0
    for old, new in zip(op.inputs, cx.get_all(op.inputs)):
        shape = shape_of(old.type)
        if shape[dim] == 0:
            continue
        offsets = [0] * len(shape)
        offsets[dim] = offset
        result = insert_slice(builder, new, result, offsets)
        offset += shape[dim]
    return [result]


@lowers(PadOp)
def lower_pad(cx: Converter, op: PadOp, builder: Builder) -> Sequence[SSAValue]:
    value = extract_scalar(builder, cx.get(op.padding_value))
    lows, interiors = ints_of(op.edge_padding_low), ints_of(op.interior_padding)
    return [pad_tensor(builder, cx.get(op.operand), value, lows, interiors, result_tensor_type(op))]


def pad_tensor(
    builder: Builder,
    operand: SSAValue,
    value: SSAValue,
    lows: Sequence[int],
    interiors: Sequence[int],
    result_type: TensorType,
) -> SSAValue:
    """`operand` padded to `result_type` with the scalar `value`: `lows` before each
    dimension (negative: cropped) and `interiors` between its elements, the high
    padding being what the result's shape leaves (shared by `pad` and the
    padded, base-dilated operand of `reduce_window`)."""
    in_shape = shape_of(operand.type)
    out_shape = result_type.get_shape()
    highs = [out - lo - n for n, out, lo in zip(in_shape, out_shape, lows)]
    if not any(interiors) and min((*lows, *highs), default=0) >= 0 and 0 not in in_shape:
        return _pad_border(builder, operand, value, lows, highs, result_type)
    result = filled(builder, value, result_type)
    first: list[int] = []
    counts: list[int] = []
    for n, out, lo, interior in zip(in_shape, out_shape, lows, interiors):
        step = interior + 1
        k_min = 0 if lo >= 0 else (-lo + step - 1) // step  # first k with lo + k*step >= 0
        k_max = min(n - 1, (out - 1 - lo) // step) if out > 0 else -1
        if k_max < k_min:
            return result  # the operand is padded away entirely
        first.append(k_min)
        counts.append(k_max - k_min + 1)
    if list(first) != [0] * len(first) or list(counts) != list(in_shape):
        operand = extract_slice(builder, operand, first, counts, [1] * len(counts))
    offsets = [lo + k * (i + 1) for lo, k, i in zip(lows, first, interiors)]
    return insert_slice(builder, operand, result, offsets, [i + 1 for i in interiors])


def _pad_border(
    builder: Builder,
    operand: SSAValue,
    value: SSAValue,
    lows: Sequence[int],
    highs: Sequence[int],
    result_type: TensorType,
) -> SSAValue:
    """Edge padding only: `value` filled into the border alone, then the operand
    inserted at `lows` (last, so that what reads the padded tensor follows its
    largest writer, which `scf-fuse-parallel-loops` may join). The border is filled
    as slabs (along dimension `d`: the operand's extent before `d`, the
    low or high edge in `d`, the whole result after `d`), so no element is written
    twice (filling the whole result first wrote the interior once more, a pass over
    the padded input of a convolution)."""
    in_shape = shape_of(operand.type)
    out_shape = result_type.get_shape()
    result = empty(builder, result_type)
    for d, (lo, hi) in enumerate(zip(lows, highs)):
        for start, size in ((0, lo), (lo + in_shape[d], hi)):
            if size == 0:
                continue
            shape = [*in_shape[:d], size, *out_shape[d + 1 :]]
            offsets = [*lows[:d], start, *([0] * (len(out_shape) - d - 1))]
            slab = filled(builder, value, TensorType(result_type.element_type, shape))
            result = insert_slice(builder, slab, result, offsets)
    return insert_slice(builder, operand, result, list(lows))


@lowers(ReverseOp)
def lower_reverse(cx: Converter, op: ReverseOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    shape = result_type.get_shape()
    rank = len(shape)
    reversed_dims = set(ints_of(op.dimensions))
    exprs: list[AffineExpr | int] = [
        AffineExpr.constant(shape[d] - 1) - AffineExpr.dimension(d) if d in reversed_dims else d for d in range(rank)
    ]
    return [copy_with_map(builder, cx.get(op.operand), dims_map(rank, exprs), result_type)]


__all__ = ["clamped_starts", "extract_slice", "insert_slice", "pad_tensor"]
