"""`select_and_scatter` → two `linalg.generic`s: select, then gather the scatter.

XLA's semantics (its evaluator and CPU emitter, which the spec describes): for
each source element, the window it belongs to is walked in index order over
the operand elements inside the operand (a padding position is never selected);
the first one starts as the selection and a later candidate replaces it when
`select(selected, candidate)` is false. The output starts as `init_value` and
gets `output[selected] = scatter(output[selected], source)`, source elements in
row-major order; a window lying entirely in the padding scatters nothing.

1. *Select*: a generic over `[source dims..., window dims...]` (window dims of
   size 1 get no iterator; the window dims are reduction iterators, so every
   window is walked in order, as `reduce_window` does) reads the operand, padded
   like `reduce_window`'s when there is padding, at `s * stride + w` and keeps
   two accumulators per source element: the selected value and the selected
   operand element as a row-major linear index (`i64`, -1 while nothing is
   selected). Positions in the positive padding are masked out with
   `linalg.index` arithmetic; the select region (made scalar by
   `scalar_region_results`) decides the rest.
2. *Scatter*, written as a gather so that it is a generic too (no read-modify-
   write of a tensor in a loop): for each output element `o`, the source
   elements whose window can contain it form a box of at most
   `ceil(window / stride)` positions per dimension, starting at
   `ceil((o + pad_low - window + 1) / stride)`. A generic over `[output dims...,
   box dims...]` (box dims wider than 1 are reduction iterators, walked in
   increasing source order, which is the order XLA scatters in) reads the
   selection and the source element with `tensor.extract` and folds
   `scatter(acc, source)` into the output element where the source position is
   valid and selected exactly this `o`; the fold starts from `init_value`.

Both steps cost `O(source elements × window)` like XLA's loops, stream their
outputs, and a max-pool gradient with `stride == window` becomes a pure parallel
generic in step 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IntegerAttr, TensorType, i8, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Region, SSAValue
from xdsl.ir.affine import AffineExpr

from lowering.scalar import convert_element
from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    empty,
    extract_scalar,
    filled,
    generic,
    index_constant,
    lowers,
    parallel,
    reduction,
    result_tensor_type,
    static_shape,
)
from lowering.xla_to_linalg.elementwise import captured_scalars, scalar_region_results
from lowering.xla_to_linalg.slicing import pad_tensor
from xla_dialect.ops.reduction import SelectAndScatterOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of


def _params(op: SelectAndScatterOp, rank: int) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int]]]:
    """Window dimensions, strides and (low, high) padding (absent: 1, 1, 0)."""
    window = ints_of(op.window_dimensions) if op.window_dimensions is not None else (1,) * rank
    strides = ints_of(op.window_strides) if op.window_strides is not None else (1,) * rank
    if op.padding is None:
        pads = [(0, 0)] * rank
    else:
        flat = ints_of(op.padding)
        pads = [(flat[2 * d], flat[2 * d + 1]) for d in range(rank)]
    return window, strides, pads


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides


def _i64(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, i64))).result


def _all(b: Builder, flags: Sequence[SSAValue]) -> SSAValue | None:
    result: SSAValue | None = None
    for f in flags:
        result = f if result is None else b.insert(arith.AndIOp(result, f)).result
    return result


def _linear(b: Builder, coords: Sequence[SSAValue], strides: Sequence[int]) -> SSAValue:
    """The row-major linear index (i64) of index-typed `coords`."""
    total: SSAValue | None = None
    for c, s in zip(coords, strides):
        term = c if s == 1 else b.insert(arith.MuliOp(c, index_constant(b, s))).result
        total = term if total is None else b.insert(arith.AddiOp(total, term)).result
    assert total is not None
    return b.insert(arith.IndexCastOp(total, i64)).result


def _select(
    op: SelectAndScatterOp,
    operand: SSAValue,
    init: SSAValue,
    source_shape: Sequence[int],
    b: Builder,
    captured: dict[SSAValue, SSAValue],
) -> SSAValue:
    """Step 1: the linear operand index each source element selects (-1: none)."""
    shape = static_shape(operand)
    rank = len(shape)
    window, strides, pads = _params(op, rank)
    element = element_type_of(operand.type)
    if any(p != (0, 0) for p in pads):
        padded_shape = [n + lo + hi for n, (lo, hi) in zip(shape, pads)]
        operand = pad_tensor(b, operand, init, [lo for lo, _ in pads], [0] * rank, TensorType(element, padded_shape))
    windowed = [d for d in range(rank) if window[d] > 1]
    loop_rank = rank + len(windowed)
    exprs: list[AffineExpr | int] = []
    for d in range(rank):
        e = AffineExpr.dimension(d) * strides[d]
        if d in windowed:
            e = e + AffineExpr.dimension(rank + windowed.index(d))
        exprs.append(e)
    inputs = [operand]
    maps = [dims_map(loop_rank, exprs)]
    if windowed:
        # An unread operand of the window's shape gives the window loops their ranges.
        inputs.append(empty(b, TensorType(i8, [window[d] for d in windowed])))
        maps.append(dims_map(loop_rank, list(range(rank, loop_rank))))
    out_map = dims_map(loop_rank, list(range(rank)))
    current = filled(b, init, TensorType(element, source_shape))
    selected = filled(b, _i64(b, -1), TensorType(i64, source_shape))
    operand_strides = _row_major_strides(shape)

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        candidate, cur, sel = args[0], args[len(inputs)], args[len(inputs) + 1]
        coords: list[SSAValue] = []
        inside: list[SSAValue] = []
        for d in range(rank):
            q = bb.insert(arith.MuliOp(bb.insert(IndexOp(d)).result, index_constant(bb, strides[d]))).result
            if d in windowed:
                q = bb.insert(arith.AddiOp(q, bb.insert(IndexOp(rank + windowed.index(d))).result)).result
            lo, hi = pads[d]
            if lo > 0:
                inside.append(bb.insert(arith.CmpiOp(q, index_constant(bb, lo), "uge")).result)
            if hi > 0:
                inside.append(bb.insert(arith.CmpiOp(q, index_constant(bb, lo + shape[d]), "slt")).result)
            coords.append(q if lo == 0 else bb.insert(arith.SubiOp(q, index_constant(bb, lo))).result)
        (keep,) = scalar_region_results(op, [cur, candidate], bb, region=op.select, captured=captured)
        true = bb.insert(arith.ConstantOp(IntegerAttr(1, 1))).result
        replace = bb.insert(arith.XOrIOp(keep, true)).result
        nothing_yet = bb.insert(arith.CmpiOp(sel, _i64(bb, 0), "slt")).result
        take = bb.insert(arith.OrIOp(nothing_yet, replace)).result
        take = _all(bb, [*inside, take])
        assert take is not None
        linear = _linear(bb, coords, operand_strides)
        return [
            bb.insert(arith.SelectOp(take, candidate, cur)).result,
            bb.insert(arith.SelectOp(take, linear, sel)).result,
        ]

    iterators = [*parallel(rank), *[reduction()] * len(windowed)]
    _, selection = generic(b, inputs, maps, [current, selected], [out_map, out_map], iterators, body)
    return selection


@lowers(SelectAndScatterOp)
def lower_select_and_scatter(cx: Converter, op: SelectAndScatterOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    shape = tuple(result_type.get_shape())
    rank = len(shape)
    init = extract_scalar(builder, cx.get(op.init_value))
    source = cx.get(op.source)
    source_shape = static_shape(source)
    # A promoted `scatter` computes in the result's wider element type: the output
    # starts as init_value converted, and each source element is converted (exact).
    narrow, wide = element_type_of(op.operand.type), element_type_of(op.result.type)

    def widen(b: Builder, x: SSAValue) -> SSAValue:
        return x if narrow == wide else convert_element(b.insert, op, x, narrow, wide)

    output = filled(builder, widen(builder, init), result_type)
    if 0 in shape or 0 in source_shape:
        return [output]
    window, strides, pads = _params(op, rank)
    captured = captured_scalars(cx, op, builder)
    selection = _select(op, cx.get(op.operand), init, source_shape, builder, captured)

    # Step 2: per output element, the box of source positions whose windows may hold it.
    box = [-(-w // s) for w, s in zip(window, strides)]
    boxed = [d for d in range(rank) if box[d] > 1]
    loop_rank = rank + len(boxed)
    inputs: list[SSAValue] = []
    maps = []
    if boxed:
        inputs.append(empty(builder, TensorType(i8, [box[d] for d in boxed])))
        maps.append(dims_map(loop_rank, list(range(rank, loop_rank))))
    element = element_type_of(source.type)
    output_strides = _row_major_strides(shape)
    scatter_region: Region = op.scatter

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        acc = args[len(inputs)]
        coords = [b.insert(IndexOp(d)).result for d in range(rank)]
        positions: list[SSAValue] = []
        valid: list[SSAValue] = []
        zero = index_constant(b, 0)
        for d in range(rank):
            # The first source position whose window reaches x = o + pad_low is
            # ceil((x - window + 1) / stride) = floor((o + offset) / stride).
            offset = pads[d][0] + strides[d] - window[d]
            start = coords[d] if offset == 0 else b.insert(arith.AddiOp(coords[d], index_constant(b, offset))).result
            if strides[d] != 1:
                divide = arith.DivUIOp if offset >= 0 else arith.FloorDivSIOp  # o + offset >= 0: plain division
                start = b.insert(divide(start, index_constant(b, strides[d]))).result
            s = start
            if d in boxed:
                s = b.insert(arith.AddiOp(s, b.insert(IndexOp(rank + boxed.index(d))).result)).result
            # Only reads need guarding: whether the window of s holds o at all is
            # implied by `selection[s] == o`. Statically true bounds are not
            # checked: s >= 0 when even o = 0 starts at a source position >= 0,
            # s < S when even the last o ends before S.
            if offset < 0:
                valid.append(b.insert(arith.CmpiOp(s, zero, "sge")).result)
            if (shape[d] - 1 + offset) // strides[d] + box[d] - 1 >= source_shape[d]:
                valid.append(b.insert(arith.CmpiOp(s, index_constant(b, source_shape[d]), "slt")).result)
            positions.append(s)
        ok = _all(b, valid)
        safe = positions if ok is None else [b.insert(arith.SelectOp(ok, p, zero)).result for p in positions]
        chosen = b.insert(tensor.ExtractOp(selection, safe, i64)).result
        mine = b.insert(arith.CmpiOp(chosen, _linear(b, coords, output_strides), "eq")).result
        hit = mine if ok is None else b.insert(arith.AndIOp(ok, mine)).result
        value = widen(b, b.insert(tensor.ExtractOp(source, safe, element)).result)
        (combined,) = scalar_region_results(op, [acc, value], b, region=scatter_region, captured=captured)
        return [b.insert(arith.SelectOp(hit, combined, acc)).result]

    iterators = [*parallel(rank), *[reduction()] * len(boxed)]
    out_map = dims_map(loop_rank, list(range(rank)))
    (result,) = generic(builder, inputs, maps, [output], [out_map], iterators, body)
    return [result]


__all__ = ["lower_select_and_scatter"]
