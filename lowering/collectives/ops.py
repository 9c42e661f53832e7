"""Cross-replica collectives, `replica_id` and `partition_id` → calls into the
collective runtime (`runtime/collectives/`).

What the IR becomes
===================

Each op becomes one `func.call @__xla_rt_<kind>_<n>(operands) -> results` on
tensors, exactly as the host I/O ops do (`xla_to_linalg/io.py`): bufferize
turns it into `(in..., out...) -> ()` on contiguous row-major buffers, and the
site is described as data (`host_abi.new_site` with a `collectives.abi`
action) that the runtime binds to a handler. The handler runs the collective
on the communicator of the device executing it: a rank of an MPI job (one
replica per process, `mpiexec -n N xla-run ...`) or a thread of
`interpreter.run_parallel` (N devices in one process); both implement one
interface, so the semantics are the same.

Reductions (`all_reduce`, `reduce_scatter`, `cross_replica_sum`): a region
that is one `add`, `multiply`, `maximum`, `minimum`, `and`, `or` or `xor` of
its two arguments is MPI's built-in operation where MPI computes what the spec
says (integers, f32/f64/complex sums and products; logical and/or/xor on i1);
any other region (and float max/min, whose NaN rule MPI does not state, and
f16/bf16, which MPI has no type for) is compiled into a function of the
module, `@__xla_combine_<n>(a, b) -> c` on the flattened operand, applied
element by element, which the runtime calls as an MPI user-defined operation
(non-commutative: the group's values are combined in group order).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.collectives.abi import (
    CROSS_PARTITION,
    CROSS_REPLICA,
    CROSS_REPLICA_AND_PARTITION,
    FLATTENED_IDS,
    Collective,
    DeviceId,
    Reduction,
)
from lowering.xla_to_linalg.converter import (
    Converter,
    convert_type,
    empty,
    generic,
    identity_map,
    lowers,
    parallel,
)
from lowering.xla_to_linalg.elementwise import scalar_region_results
from lowering.xla_to_linalg.io import call_results, call_site, enclosing_module
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
    CrossReplicaSumOp,
    PartitionIdOp,
    ReduceScatterOp,
    ReplicaIdOp,
    check_replica_groups,
    sum_computation,
)
from xla_dialect.types import element_type_of, is_complex, is_float, shape_of

# ---------------------------------------------------------------------------
# Groups and modes (StableHLO: cross_replica, cross_partition, ...)
# ---------------------------------------------------------------------------


def _channel(op: Operation) -> int | None:
    handle = op.properties.get("channel_handle")
    return None if handle is None else handle.int_value("handle")  # pyright: ignore[reportAttributeAccessIssue]


def _groups(op: Operation, name: str = "replica_groups") -> tuple[tuple[int, ...], ...]:
    attr = op.properties.get(name)
    if attr is None:
        return ()
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return tuple(tuple(g) for g in check_replica_groups(attr, allow_padding=True, name=name, cover_all=False))


def _reduction_mode(op: Operation) -> str:
    """all_reduce, all_gather, reduce_scatter: by channel_id and use_global_device_ids."""
    channel = _channel(op)
    if "use_global_device_ids" in op.properties:
        return FLATTENED_IDS
    return CROSS_REPLICA_AND_PARTITION if channel is not None and channel > 0 else CROSS_REPLICA


def _partition_mode(op: Operation) -> str:
    """all_to_all, collective_broadcast, collective_permute: by channel_id."""
    channel = _channel(op)
    return CROSS_PARTITION if channel is not None and channel > 0 else CROSS_REPLICA


# ---------------------------------------------------------------------------
# Reductions: MPI built-in operations or a compiled combiner
# ---------------------------------------------------------------------------

_BUILTIN_OF_OP = {
    "xla.add": "sum",
    "xla.multiply": "prod",
    "xla.maximum": "max",
    "xla.minimum": "min",
    "xla.and": "and",
    "xla.or": "or",
    "xla.xor": "xor",
}


def builtin_reduction(region: Region, element: object) -> str | None:
    """The built-in operation the region is, if it is one MPI computes as the spec
    says on `element` (see the module docstring), else None."""
    block = region.block
    ops = list(block.ops)
    if len(ops) != 2 or ops[1].name != "xla.return" or ops[1].operands[0] is not ops[0].results[0]:
        return None
    name = _BUILTIN_OF_OP.get(ops[0].name)
    if name is None or set(ops[0].operands) != set(block.args) or len(ops[0].operands) != 2:
        return None
    if isinstance(element, IntegerType) and element.width.data == 1:
        return name if name in ("and", "or", "xor") else None
    if is_float(element):
        width = getattr(element, "bitwidth", 0)
        return name if name in ("sum", "prod") and width in (32, 64) else None
    if is_complex(element):
        return name if name in ("sum", "prod") else None
    if isinstance(element, IntegerType) and element.width.data in (8, 16, 32, 64):
        return name
    return None


def _combiner(op: Operation, region: Region, operand: SSAValue) -> Reduction:
    """`@__xla_combine_<n>(a, b) -> c`: the region applied element by element to
    two flattened operands, added to the module."""
    t = operand.type
    assert isinstance(t, TensorType)
    size = 1
    for d in shape_of(t):
        size *= d
    flat = convert_type(TensorType(element_type_of(t), [size]), op)
    assert isinstance(flat, TensorType)
    module: ModuleOp = enclosing_module(op)
    names = {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}
    index = 0
    while f"__xla_combine_{index}" in names:
        index += 1
    name = f"__xla_combine_{index}"
    block = Block(arg_types=[flat, flat])
    builder = Builder(InsertPoint.at_end(block))
    (result,) = generic(
        builder,
        list(block.args),
        [identity_map(1)] * 2,
        [empty(builder, flat)],
        [identity_map(1)],
        parallel(1),
        lambda b, args: scalar_region_results(op, list(args[:2]), b, region=region),
    )
    builder.insert(func.ReturnOp(result))
    function = func.FuncOp(name, ((flat, flat), (flat,)), Region(block))
    function.location = op.location
    module.body.block.add_op(function)
    return Reduction(None, name, size)


def _reduction(op: Operation, region: Region, operand: SSAValue) -> Reduction:
    builtin = builtin_reduction(region, element_type_of(operand.type))
    if builtin is not None:
        return Reduction(builtin)
    return _combiner(op, region, operand)


def _tensors(op: Operation, values: Sequence[SSAValue]) -> None:
    for v in values:
        if not isinstance(v.type, TensorType):
            raise LoweringError(f"'{op.name}' on tuples is not compiled: flatten the tuples first", op)


# ---------------------------------------------------------------------------
# The ops
# ---------------------------------------------------------------------------


def _site(cx: Converter, op: Operation, builder: Builder, kind: str, action: object) -> Sequence[SSAValue]:
    return call_results(op, builder, *call_site(cx, op, builder, kind, action))  # pyright: ignore[reportArgumentType]


@lowers(ReplicaIdOp, PartitionIdOp)
def lower_device_id(cx: Converter, op: ReplicaIdOp | PartitionIdOp, builder: Builder) -> Sequence[SSAValue]:
    which = "replica_id" if isinstance(op, ReplicaIdOp) else "partition_id"
    return _site(cx, op, builder, which, DeviceId(which))


@lowers(AllReduceOp)
def lower_all_reduce(cx: Converter, op: AllReduceOp, builder: Builder) -> Sequence[SSAValue]:
    _tensors(op, op.inputs)
    reductions = tuple(_reduction(op, op.computation, v) for v in op.inputs)
    action = Collective("all_reduce", _reduction_mode(op), _groups(op), reductions, channel=_channel(op))
    return _site(cx, op, builder, "all_reduce", action)


@lowers(CrossReplicaSumOp)
def lower_cross_replica_sum(cx: Converter, op: CrossReplicaSumOp, builder: Builder) -> Sequence[SSAValue]:
    element = element_type_of(op.operand.type)
    region = sum_computation(element)
    builtin = builtin_reduction(region, element)
    reduction = Reduction(builtin) if builtin is not None else _combiner(op, region, op.operand)
    action = Collective("all_reduce", CROSS_REPLICA, _groups(op), (reduction,))
    return _site(cx, op, builder, "all_reduce", action)


@lowers(ReduceScatterOp)
def lower_reduce_scatter(cx: Converter, op: ReduceScatterOp, builder: Builder) -> Sequence[SSAValue]:
    reduction = _reduction(op, op.computation, op.operand)
    action = Collective(
        "reduce_scatter",
        _reduction_mode(op),
        _groups(op),
        (reduction,),
        dimension=op.scatter_dimension.value.data,
        channel=_channel(op),
    )
    return _site(cx, op, builder, "reduce_scatter", action)


@lowers(AllGatherOp)
def lower_all_gather(cx: Converter, op: AllGatherOp, builder: Builder) -> Sequence[SSAValue]:
    action = Collective(
        "all_gather", _reduction_mode(op), _groups(op), dimension=op.all_gather_dim.value.data, channel=_channel(op)
    )
    return _site(cx, op, builder, "all_gather", action)


@lowers(AllToAllOp)
def lower_all_to_all(cx: Converter, op: AllToAllOp, builder: Builder) -> Sequence[SSAValue]:
    action = Collective(
        "all_to_all",
        _partition_mode(op),
        _groups(op),
        split_dimension=op.split_dimension.value.data,
        concat_dimension=op.concat_dimension.value.data,
        split_count=op.split_count.value.data,
        channel=_channel(op),
    )
    return _site(cx, op, builder, "all_to_all", action)


@lowers(CollectiveBroadcastOp)
def lower_collective_broadcast(cx: Converter, op: CollectiveBroadcastOp, builder: Builder) -> Sequence[SSAValue]:
    action = Collective("collective_broadcast", _partition_mode(op), _groups(op), channel=_channel(op))
    return _site(cx, op, builder, "collective_broadcast", action)


@lowers(CollectivePermuteOp)
def lower_collective_permute(cx: Converter, op: CollectivePermuteOp, builder: Builder) -> Sequence[SSAValue]:
    attr = op.source_target_pairs
    values = [int(v) for v in attr.get_values()]  # pyright: ignore[reportUnknownArgumentType]
    pairs = tuple((values[i], values[i + 1]) for i in range(0, len(values), 2))
    action = Collective("collective_permute", _partition_mode(op), pairs, channel=_channel(op))
    return _site(cx, op, builder, "collective_permute", action)


__all__ = [
    "builtin_reduction",
    "lower_all_gather",
    "lower_all_reduce",
    "lower_all_to_all",
    "lower_collective_broadcast",
    "lower_collective_permute",
    "lower_cross_replica_sum",
    "lower_device_id",
    "lower_reduce_scatter",
]
