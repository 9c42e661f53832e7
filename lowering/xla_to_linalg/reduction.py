"""`reduce` and `map` → generics whose body is the op's region made scalar.

`reduce` iterates the whole operand with the reduced dimensions as reduction
iterators, in the operand's order (a row reduction runs along contiguous memory);
the outputs start filled with the init values and the reducer region receives
`(accumulators..., elements...)` as StableHLO's does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import linalg
from xdsl.ir import SSAValue

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
)
from lowering.xla_to_linalg.elementwise import scalar_region_results
from xla_dialect.ops.reduction import MapOp, ReduceOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import shape_of


@lowers(ReduceOp)
def lower_reduce(cx: Converter, op: ReduceOp, builder: Builder) -> Sequence[SSAValue]:
    n = len(op.inputs)
    in_shape = shape_of(op.inputs[0].type)
    rank = len(in_shape)
    reduced = set(ints_of(op.dimensions))
    kept = [d for d in range(rank) if d not in reduced]
    outputs: list[SSAValue] = []
    for i in range(n):
        result_type = result_tensor_type(op, i)
        init = extract_scalar(builder, cx.get(op.init_values[i]))
        outputs.append(builder.insert(linalg.FillOp((init,), (empty(builder, result_type),), (result_type,))).results[0])
    iterators = [reduction() if d in reduced else parallel(1)[0] for d in range(rank)]

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        elements, accumulators = list(args[:n]), list(args[n:])
        return scalar_region_results(op, [*accumulators, *elements], b)

    return generic(
        builder,
        cx.get_all(op.inputs),
        [identity_map(rank)] * n,
        outputs,
        [dims_map(rank, kept)] * n,
        iterators,
        body,
    )


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


__all__ = ["lower_map", "lower_reduce"]
