"""`reduce`, `reduce_window` and `map` → generics whose body is the op's region
made scalar.

`reduce` iterates the whole operand with the reduced dimensions as reduction
iterators, in the operand's order (a row reduction runs along contiguous memory);
the outputs start filled with the init values and the reducer region receives
`(accumulators..., elements...)` as StableHLO's does.

`reduce_window` first pads and base-dilates each input with its init value
(the spec's padding elements; `pad_tensor`, shared with `pad`), then runs one
generic over `[output dims..., window dims...]`, the window dims reduction
iterators, reading input `i` at `out * stride + win * window_dilation`. Window
dimensions of size 1 get no iterator (their offset is 0), so an NHWC pool
iterates `(n, h, w, c, kh, kw)` and `linalg-interchange` can stream along `c`.
As in MLIR's pooling ops, an unread operand of the window's shape gives the
window loops their ranges.

bf16 reductions (`reduce` and `reduce_window`) accumulate in f32 and round once
at the end, as XLA's CPU backend computes them (it normalizes bf16 reduces,
reducer included, to f32):
the reducer is rebuilt with f32 in place of bf16 before it is made scalar. A
reducer that looks at bf16 bits (`bitcast_convert`, `reduce_precision`) keeps
bf16 and rounds after each step.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    TensorType,
    f32,
    i8,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    empty,
    extract_scalar,
    filled,
    generic,
    identity_map,
    lowers,
    parallel,
    reduction,
    result_tensor_type,
    round_floats,
)
from lowering.xla_to_linalg.elementwise import captured_scalars, scalar_region_results
from lowering.xla_to_linalg.slicing import pad_tensor
from xla_dialect.literals import to_numpy
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.conversions import ConvertOp
from xla_dialect.ops.elementwise import BitcastConvertOp, ReducePrecisionOp
from xla_dialect.ops.reduction import MapOp, ReduceOp, ReduceWindowOp, narrower_reducer_operands
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, shape_of


def _bf16_to_f32(t: Attribute) -> Attribute:
    if isinstance(t, TensorType) and isinstance(t.element_type, BFloat16Type):
        return TensorType(f32, t.get_shape())
    return t


def f32_reducer(region: Region) -> Region | None:
    """A copy of the reducer computing in f32 where it computes in bf16, or None
    when an op of it depends on the bf16 encoding."""
    old_block = region.block
    block = Block(arg_types=[_bf16_to_f32(a.type) for a in old_block.args])
    values: dict[SSAValue, SSAValue] = dict(zip(old_block.args, block.args))
    for inner in old_block.ops:
        types = [v.type for v in (*inner.operands, *inner.results)]
        if any(v not in values and _is_bf16_tensor(v.type) for v in inner.operands):
            return None  # a bf16 value captured from above: keep the bf16 region
        if isinstance(inner, (BitcastConvertOp, ReducePrecisionOp)) and any(map(_is_bf16_tensor, types)):
            return None
        properties = dict(inner.properties)
        if isinstance(inner, ConstantOp) and _is_bf16_tensor(inner.output.type):
            wide = _bf16_to_f32(inner.output.type)
            assert isinstance(wide, TensorType)
            flat = [float(v) for v in to_numpy(inner.value).reshape(-1)]
            properties["value"] = DenseIntOrFPElementsAttr.from_list(wide, flat)  # pyright: ignore[reportArgumentType]
        new = inner.create(
            operands=[values.get(v, v) for v in inner.operands],
            result_types=[_bf16_to_f32(r.type) for r in inner.results],
            properties=properties,
            attributes=dict(inner.attributes),
        )
        block.add_op(new)
        values.update(zip(inner.results, new.results))
    return Region(block)


def _is_bf16_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, BFloat16Type)


def _accumulation(op: ReduceOp | ReduceWindowOp) -> tuple[Region, list[bool]]:
    """The reducer to inline and which inputs it takes widened to f32: bf16
    reductions accumulate in f32 and round once (as XLA's CPU backend), unless
    the reducer reads bf16 bits, where it keeps the bf16 region."""
    widened = [_is_bf16_tensor(v.type) for v in op.inputs]
    if any(widened):
        region = f32_reducer(op.body)
        if region is not None:
            return region, widened
    return op.body, [False] * len(op.inputs)


@lowers(ReduceOp)
def lower_reduce(cx: Converter, op: ReduceOp, builder: Builder) -> Sequence[SSAValue]:
    n = len(op.inputs)
    in_shape = shape_of(op.inputs[0].type)
    rank = len(in_shape)
    reduced = set(ints_of(op.dimensions))
    kept = [d for d in range(rank) if d not in reduced]
    region, widened = _accumulation(op)
    outputs: list[SSAValue] = []
    for i in range(n):
        result_type = result_tensor_type(op, i)
        init = extract_scalar(builder, cx.get(op.init_values[i]))
        if widened[i]:
            result_type = TensorType(f32, result_type.get_shape())
            init = builder.insert(arith.ExtFOp(init, f32)).result
        outputs.append(filled(builder, init, result_type))
    iterators = [reduction() if d in reduced else parallel(1)[0] for d in range(rank)]
    captured = captured_scalars(cx, op, builder)

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        elements = [b.insert(arith.ExtFOp(x, f32)).result if w else x for x, w in zip(args[:n], widened)]
        return scalar_region_results(op, [*args[n:], *elements], b, region=region, captured=captured)

    results = list(
        generic(builder, cx.get_all(op.inputs), [identity_map(rank)] * n, outputs, [dims_map(rank, kept)] * n, iterators, body)
    )
    return [round_floats(builder, r, result_tensor_type(op, i)) if widened[i] else r for i, r in enumerate(results)]


def _window_param(attr: DenseArrayBase | None, rank: int) -> tuple[int, ...]:
    """An optional window attribute's values; absent means 1 in every dimension."""
    return (1,) * rank if attr is None else ints_of(attr)


def _window_padding(op: ReduceWindowOp, rank: int) -> list[tuple[int, int]]:
    """The (low, high) padding of each dimension (absent: none)."""
    if op.padding is None:
        return [(0, 0)] * rank
    flat = ints_of(op.padding)
    return [(flat[2 * d], flat[2 * d + 1]) for d in range(rank)]


@lowers(ReduceWindowOp)
def lower_reduce_window(cx: Converter, op: ReduceWindowOp, builder: Builder) -> Sequence[SSAValue]:
    n = len(op.inputs)
    in_shape = shape_of(op.inputs[0].type)
    rank = len(in_shape)
    window = ints_of(op.window_dimensions)
    strides = _window_param(op.window_strides, rank)
    base = _window_param(op.base_dilations, rank)
    dilations = _window_param(op.window_dilations, rank)
    pads = _window_padding(op, rank)
    region, widened = _accumulation(op)
    inits = [extract_scalar(builder, v) for v in cx.get_all(op.init_values)]
    if 0 in result_tensor_type(op).get_shape():
        # No window fits: nothing to compute (and a window map could reach below 0).
        return [
            filled(builder, init, t)
            for init, t in ((inits[i], result_tensor_type(op, i)) for i in range(n))
        ]
    inputs = cx.get_all(op.inputs)
    if any(p != (0, 0) for p in pads) or any(b != 1 for b in base):
        # The spec's padding (and dilation holes) hold the init value.
        shape = [
            max(0, (0 if size == 0 else (size - 1) * b + 1) + lo + hi)
            for size, b, (lo, hi) in zip(in_shape, base, pads)
        ]
        lows, interiors = [lo for lo, _ in pads], [b - 1 for b in base]
        inputs = [
            pad_tensor(builder, x, init, lows, interiors, TensorType(element_type_of(x.type), shape))
            for x, init in zip(inputs, inits)
        ]
    outputs: list[SSAValue] = []
    for i in range(n):
        result_type = result_tensor_type(op, i)
        init = inits[i]
        if widened[i]:
            result_type = TensorType(f32, result_type.get_shape())
            init = builder.insert(arith.ExtFOp(init, f32)).result
        outputs.append(filled(builder, init, result_type))
    # Iteration dims: the output's, then one per window dimension wider than 1.
    windowed = [d for d in range(rank) if window[d] > 1]
    loop_rank = rank + len(windowed)
    exprs: list[AffineExpr | int] = []
    for d in range(rank):
        e = AffineExpr.dimension(d) * strides[d]
        if d in windowed:
            e = e + AffineExpr.dimension(rank + windowed.index(d)) * dilations[d]
        exprs.append(e)
    iterators = [*parallel(rank), *[reduction()] * len(windowed)]
    maps = [dims_map(loop_rank, exprs)] * n
    shape_inputs: list[SSAValue] = []
    if windowed:
        # As MLIR's pooling ops do: an operand of the window's shape, never read,
        # gives the window loops their ranges (a generic's loop ranges are read
        # off operand dimensions indexed by a lone loop dimension).
        window_type = TensorType(i8, [window[d] for d in windowed])
        shape_inputs.append(empty(builder, window_type))
        maps.append(dims_map(loop_rank, list(range(rank, loop_rank))))
    captured = captured_scalars(cx, op, builder)

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        elements = [b.insert(arith.ExtFOp(x, f32)).result if w else x for x, w in zip(args[:n], widened)]
        accumulators = args[n + len(shape_inputs) :]
        return scalar_region_results(op, [*accumulators, *elements], b, region=region, captured=captured)

    results = list(
        generic(
            builder,
            [*inputs, *shape_inputs],
            maps,
            outputs,
            [dims_map(loop_rank, list(range(rank)))] * n,
            iterators,
            body,
        )
    )
    return [round_floats(builder, r, result_tensor_type(op, i)) if widened[i] else r for i, r in enumerate(results)]


@lowers(MapOp)
def lower_map(cx: Converter, op: MapOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    rank = result_type.get_num_dims()
    n = len(op.inputs)
    captured = captured_scalars(cx, op, builder)
    return generic(
        builder,
        cx.get_all(op.inputs),
        [identity_map(rank)] * n,
        [empty(builder, result_type)],
        [identity_map(rank)],
        parallel(rank),
        lambda b, args: scalar_region_results(op, list(args[:n]), b, captured=captured),
    )


__all__ = ["f32_reducer", "lower_map", "lower_reduce", "lower_reduce_window"]



def widen_reducer_operands(module: Operation) -> None:
    """Convert the operands of every `reduce`/`reduce_window` whose reducer computes in
    a wider element type (StableHLO allows a promotable accumulator: bf16 summed in
    f32) to the reducer's type, so the lowerings see one element type per input."""
    for op in list(module.walk()):
        for index, t in narrower_reducer_operands(op):
            widened = ConvertOp(op.operands[index], t)
            Rewriter.insert_op(widened, InsertPoint.before(op))
            op.operands[index] = widened.result
