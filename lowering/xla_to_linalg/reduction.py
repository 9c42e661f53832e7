"""`reduce` and `map` → generics whose body is the op's region made scalar.

`reduce` iterates the whole operand with the reduced dimensions as reduction
iterators, in the operand's order (a row reduction runs along contiguous memory);
the outputs start filled with the init values and the reducer region receives
`(accumulators..., elements...)` as StableHLO's does.

bf16 reductions accumulate in f32 and round once at the end, as XLA's CPU
backend computes them (it normalizes bf16 reduces, reducer included, to f32):
the reducer is rebuilt with f32 in place of bf16 before it is made scalar. A
reducer that looks at bf16 bits (`bitcast_convert`, `reduce_precision`) keeps
bf16 and rounds after each step.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, DenseIntOrFPElementsAttr, TensorType, f32
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Attribute, Block, Region, SSAValue

from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    empty,
    extract_scalar,
    generic,
    identity_map,
    lowers,
    parallel,
    reduction,
    result_tensor_type,
    round_floats,
)
from lowering.xla_to_linalg.elementwise import scalar_region_results
from xla_dialect.literals import to_numpy
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.elementwise import BitcastConvertOp, ReducePrecisionOp
from xla_dialect.ops.reduction import MapOp, ReduceOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import shape_of


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
        if isinstance(inner, (BitcastConvertOp, ReducePrecisionOp)) and any(map(_is_bf16_tensor, types)):
            return None
        properties = dict(inner.properties)
        if isinstance(inner, ConstantOp) and _is_bf16_tensor(inner.output.type):
            wide = _bf16_to_f32(inner.output.type)
            assert isinstance(wide, TensorType)
            flat = [float(v) for v in to_numpy(inner.value).reshape(-1)]
            properties["value"] = DenseIntOrFPElementsAttr.from_list(wide, flat)  # pyright: ignore[reportArgumentType]
        new = inner.create(
            operands=[values[v] for v in inner.operands],
            result_types=[_bf16_to_f32(r.type) for r in inner.results],
            properties=properties,
            attributes=dict(inner.attributes),
        )
        block.add_op(new)
        values.update(zip(inner.results, new.results))
    return Region(block)


def _is_bf16_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, BFloat16Type)


@lowers(ReduceOp)
def lower_reduce(cx: Converter, op: ReduceOp, builder: Builder) -> Sequence[SSAValue]:
    n = len(op.inputs)
    in_shape = shape_of(op.inputs[0].type)
    rank = len(in_shape)
    reduced = set(ints_of(op.dimensions))
    kept = [d for d in range(rank) if d not in reduced]
    region = op.body
    widened = [_is_bf16_tensor(v.type) for v in op.inputs]
    if any(widened):
        region = f32_reducer(op.body) or region
        if region is op.body:
            widened = [False] * n
    outputs: list[SSAValue] = []
    for i in range(n):
        result_type = result_tensor_type(op, i)
        init = extract_scalar(builder, cx.get(op.init_values[i]))
        if widened[i]:
            result_type = TensorType(f32, result_type.get_shape())
            init = builder.insert(arith.ExtFOp(init, f32)).result
        outputs.append(builder.insert(FillOp((init,), (empty(builder, result_type),), (result_type,))).results[0])
    iterators = [reduction() if d in reduced else parallel(1)[0] for d in range(rank)]

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        elements = [b.insert(arith.ExtFOp(x, f32)).result if w else x for x, w in zip(args[:n], widened)]
        return scalar_region_results(op, [*args[n:], *elements], b, region=region)

    results = list(
        generic(builder, cx.get_all(op.inputs), [identity_map(rank)] * n, outputs, [dims_map(rank, kept)] * n, iterators, body)
    )
    return [round_floats(builder, r, result_tensor_type(op, i)) if widened[i] else r for i, r in enumerate(results)]


@lowers(MapOp)
def lower_map(cx: Converter, op: MapOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    rank = result_type.get_num_dims()
    n = len(op.inputs)
    return generic(
        builder,
        cx.get_all(op.inputs),
        [identity_map(rank)] * n,
        [empty(builder, result_type)],
        [identity_map(rank)],
        parallel(rank),
        lambda b, args: scalar_region_results(op, list(args[:n]), b),
    )


__all__ = ["f32_reducer", "lower_map", "lower_reduce"]
