"""Collectives across replicas and partitions: `replica_id`, `partition_id`,
`all_reduce`, `all_gather`, `all_to_all`, `collective_permute`,
`collective_broadcast`, `reduce_scatter` and `cross_replica_sum` (spec: ReplicaId,
AllReduce, AllGather, AllToAll, CollectivePermute, CrossReplicaSum).

Properties follow StableHLO: `replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>`
(an empty tensor means one group of all replicas; ragged groups pad with -1 where
the op allows it), `channel_handle = #xla.channel_handle<...>` and the unit
`use_global_device_ids`. As in StableHLO the ops with a region, or none, print
generically. Collectives synchronise devices, so none is `Pure`; the ids are.

The group size a result shape depends on is known when the groups are not empty
and the op runs `cross_replica` (no channel, or handle <= 0) or on flattened ids
(`use_global_device_ids`); in `cross_replica_and_partition` mode each group also
spans every partition, so a shape need only be a multiple of the group size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    OpTraits,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure

from xla_dialect.attributes import ChannelHandleAttr
from xla_dialect.diagnostics import require
from xla_dialect.ops.base import XlaOp, check_element_class, check_tensor
from xla_dialect.ops.gather_scatter import is_promotable
from xla_dialect.syntax import build, parse_attr_dict, print_attr_dict
from xla_dialect.types import (
    element_type_of,
    format_shape,
    format_type,
    is_dynamic,
    is_tensor,
    rank_of,
    shape_of,
    tensor,
)

ui32 = IntegerType(32, Signedness.UNSIGNED)



def _collective_traits() -> OpTraits:
    """Collectives synchronise with other devices: read and write effects, not Pure."""
    return traits_def(MemoryReadEffect(), MemoryWriteEffect())


# ---------------------------------------------------------------------------
# Shared attribute helpers
# ---------------------------------------------------------------------------


def group_properties(
    replica_groups: Sequence[Sequence[int]],
    channel_handle: ChannelHandleAttr | None,
    use_global_device_ids: bool,
) -> dict[str, Attribute]:
    """The properties every replica-group collective's builder sets."""
    props: dict[str, Attribute] = {"replica_groups": replica_groups_attr(replica_groups)}
    if channel_handle is not None:
        props["channel_handle"] = channel_handle
    if use_global_device_ids:
        props["use_global_device_ids"] = UnitAttr()
    return props


def replica_groups_attr(groups: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`; ragged groups are padded with -1."""
    width = max((len(g) for g in groups), default=0)
    flat = [v for g in groups for v in [*g, *([-1] * (width - len(g)))]]
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(groups), width]), flat  # pyright: ignore
    )


def pairs_attr(pairs: Sequence[tuple[int, int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>` for `source_target_pairs`."""
    return DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [len(pairs), 2]), [v for p in pairs for v in p]  # pyright: ignore
    )


def _int64(value: int) -> IntegerAttr[IntegerType]:
    return IntegerAttr(value, i64)


def _matrix(name: str, attr: DenseIntOrFPElementsAttr) -> list[list[int]]:
    """The rows of a rank-2 integer `dense<...>` attribute."""
    t = attr.type
    require(
        isinstance(t, TensorType)
        and len(t.get_shape()) == 2
        and isinstance(t.element_type, IntegerType),
        f"{name} must be a rank-2 integer tensor, got {format_type(t)}",
    )
    assert isinstance(t, TensorType)
    rows, cols = t.get_shape()
    values = [int(v) for v in attr.get_values()]  # pyright: ignore
    if rows * cols == 0:
        return []
    return [values[r * cols : (r + 1) * cols] for r in range(rows)]


def check_replica_groups(
    attr: DenseIntOrFPElementsAttr,
    allow_padding: bool,
    name: str = "replica_groups",
    cover_all: bool = True,
) -> list[list[int]]:
    """The groups, each id once, ids covering `[0, N)` when `cover_all`; -1 pads ragged
    groups only where `allow_padding`. Returns the groups without padding ([] for one
    group of all)."""
    rows = _matrix(name, attr)
    seen: set[int] = set()
    groups: list[list[int]] = []
    for row in rows:
        group: list[int] = []
        for v in row:
            if v == -1:
                require(allow_padding, f"{name} may not hold -1: all groups must be the same size")
                continue
            require(v >= 0, f"{name} holds {v}; replica ids must be non-negative")
            require(v not in seen, f"{name} holds replica id {v} more than once")
            seen.add(v)
            group.append(v)
        groups.append(group)
    for expected in range(len(seen) if cover_all else 0):
        require(
            expected in seen,
            f"{name} must hold each replica id of [0, {len(seen)}) but lacks {expected}",
        )
    return groups if seen else []


class CollectiveOp(XlaOp):
    """Shared checks of the ops with `replica_groups`, `channel_handle` and
    `use_global_device_ids`."""

    ALLOW_PADDING: ClassVar[bool] = False
    COVER_ALL: ClassVar[bool] = True

    def _groups(self) -> list[list[int]]:
        attr = self.properties.get("replica_groups")
        if attr is None:
            return []
        assert isinstance(attr, DenseIntOrFPElementsAttr)
        return check_replica_groups(attr, self.ALLOW_PADDING, cover_all=self.COVER_ALL)

    def _channel_id(self) -> int | None:
        handle = self.properties.get("channel_handle")
        if handle is None:
            return None
        assert isinstance(handle, ChannelHandleAttr)
        return handle.int_value("handle")

    def _use_global_ids(self) -> bool:
        return "use_global_device_ids" in self.properties

    def _check_mode(self) -> None:
        if self._use_global_ids():
            channel = self._channel_id()
            require(
                channel is not None and channel > 0,
                "use_global_device_ids requires a channel_handle with handle > 0",
            )

    def _group_size(self, groups: list[list[int]]) -> int | None:
        """How many devices each group spans, when the attributes determine it."""
        if not groups:
            return None
        channel = self._channel_id()
        if self._use_global_ids() or channel is None or channel <= 0:
            return len(groups[0])
        return None

    def _group_factor(self, groups: list[list[int]]) -> int:
        """A number the group size is a multiple of (1 when nothing is known)."""
        return len(groups[0]) if groups else 1


def _check_dim(name: str, value: int, rank: int, what: str) -> None:
    require(0 <= value < rank, f"{name} {value} is out of range [0, {rank}) of the {what} rank")


def _check_same_type(result: Attribute, operand: Attribute, index: int | None = None) -> None:
    suffix = "" if index is None else f" #{index}"
    require(
        result == operand,
        f"result{suffix} type {format_type(result)} differs from operand{suffix} type "
        f"{format_type(operand)}",
    )


def _leaves(name: str, t: Attribute) -> list[Attribute]:
    """An array, or the arrays of a non-empty tuple of arrays."""
    if isinstance(t, TupleType):
        members = list(t.types.data)
        require(members != [], f"{name} must be an array or a non-empty tuple of arrays")
        for i, m in enumerate(members):
            check_tensor(f"{name} tuple element #{i}", m)
        return members
    check_tensor(name, t)
    return [t]


def check_reduction_region(region: Region, element: Attribute, op_name: str = "computation") -> None:
    """The region is `(tensor<E>, tensor<E>) -> tensor<E>`: two scalar arguments of the
    operands' element type and one scalar of it returned."""
    scalar = tensor([], element)
    blocks = list(region.blocks)
    require(len(blocks) == 1, f"{op_name} must have exactly one block, got {len(blocks)}")
    block = blocks[0]
    arg_types = [a.type for a in block.args]
    require(
        arg_types == [scalar, scalar],
        f"{op_name} must take two {format_type(scalar)} arguments, got "
        f"({', '.join(format_type(t) for t in arg_types)})",
    )
    terminator = block.last_op
    require(
        terminator is not None and terminator.name == "xla.return",
        f"{op_name} must end with xla.return",
    )
    assert terminator is not None
    returned = [v.type for v in terminator.operands]
    require(
        returned == [scalar],
        f"{op_name} must return one {format_type(scalar)}, got "
        f"({', '.join(format_type(t) for t in returned)})",
    )


def _check_promotable(name: str, element: Attribute, accumulator: Attribute) -> None:
    require(
        is_promotable(element, accumulator),
        f"{name} element type {format_type(element)} differs from the computation's "
        f"{format_type(accumulator)}, which must be the same kind, at least as wide",
    )


def _check_result_holds(result: Attribute, operand: Attribute, element: Attribute, index: int) -> None:
    """Result #index has operand #index's shape (each leaf's, for a tuple) and `element`."""
    if isinstance(operand, TupleType):
        expected: Attribute = TupleType(ArrayAttr([tensor(shape_of(m), element) for m in operand.types.data]))
    else:
        expected = tensor(shape_of(operand), element)
    if expected == operand:
        _check_same_type(result, operand, index)
        return
    require(
        result == expected,
        f"result #{index} type {format_type(result)} must be {format_type(expected)}: operand "
        f"#{index}'s shape and the computation's element type {format_type(element)}",
    )


def _region_element(region: Region) -> Attribute | None:
    """The element type of the region's first argument, if it is a tensor."""
    block = region.blocks.first
    if block is None or not block.args or not is_tensor(block.args[0].type):
        return None
    return element_type_of(block.args[0].type)


# ---------------------------------------------------------------------------
# Ids
# ---------------------------------------------------------------------------


class IdOp(XlaOp):
    """`xla.replica_id : tensor<ui32>`: a U32 scalar id of the running device."""

    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[tensor([], ui32)])

    def verify_(self) -> None:
        self.check_result_types([tensor([], ui32)])

    @classmethod
    def parse(cls, parser: Parser) -> IdOp:
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        return build(cls, [], [parser.parse_type()], attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ReplicaIdOp(IdOp):
    """The id, in `[0, N)`, of the replica running the program (spec: ReplicaId)."""

    name = "xla.replica_id"
    SPEC_SECTION: ClassVar[str] = "ReplicaId"


@irdl_op_definition
class PartitionIdOp(IdOp):
    """The id of the partition running the program; StableHLO's companion of
    ReplicaId for SPMD partitions (spec: ReplicaId)."""

    name = "xla.partition_id"
    SPEC_SECTION: ClassVar[str] = "StableHLO"


# ---------------------------------------------------------------------------
# all_reduce / cross_replica_sum / reduce_scatter
# ---------------------------------------------------------------------------


@irdl_op_definition
class AllReduceOp(CollectiveOp):
    """Reduces each operand element-wise across the replicas of each group with the
    `computation` region; results have the operands' types (spec: AllReduce)."""

    name = "xla.all_reduce"
    SPEC_SECTION: ClassVar[str] = "AllReduce"
    ALLOW_PADDING: ClassVar[bool] = True
    inputs = var_operand_def(TensorType | TupleType)
    outputs = var_result_def(TensorType | TupleType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def()
    traits = _collective_traits()

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        computation: Region,
        replica_groups: Sequence[Sequence[int]] = (),
        channel_handle: ChannelHandleAttr | None = None,
        use_global_device_ids: bool = False,
    ):
        props = group_properties(replica_groups, channel_handle, use_global_device_ids)
        super().__init__(
            operands=[list(inputs)],
            result_types=[[v.type for v in inputs]],
            properties=props,
            regions=[computation],
        )

    def verify_(self) -> None:
        require(len(self.inputs) >= 1, "all_reduce needs at least one operand")
        leaves = [
            leaf for i, v in enumerate(self.inputs) for leaf in _leaves(f"operand #{i}", v.type)
        ]
        require(
            len(self.outputs) == len(self.inputs),
            f"expected {len(self.inputs)} results, one per operand, got {len(self.outputs)}",
        )
        element = _region_element(self.computation)
        if element is None or any(element_type_of(leaf) == element for leaf in leaves):
            for i, (r, v) in enumerate(zip(self.outputs, self.inputs)):
                _check_same_type(r.type, v.type, i)
        self._groups()
        self._check_mode()
        require(element is not None, "computation must take two scalar tensor arguments")
        assert element is not None
        for i, leaf in enumerate(leaves):
            _check_promotable(f"operand array #{i}", element_type_of(leaf), element)
        # As StableHLO: the computation may work in a wider type of the same kind (a
        # promotable accumulator), which the results then hold.
        for i, (r, v) in enumerate(zip(self.outputs, self.inputs)):
            _check_result_holds(r.type, v.type, element, i)
        check_reduction_region(self.computation, element)


@irdl_op_definition
class CrossReplicaSumOp(CollectiveOp):
    """AllReduce with a sum and no region: the element-wise sum of the operand over the
    replicas of each group (spec: CrossReplicaSum)."""

    name = "xla.cross_replica_sum"
    SPEC_SECTION: ClassVar[str] = "CrossReplicaSum"
    ALLOW_PADDING: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    replica_groups = opt_prop_def(DenseIntOrFPElementsAttr)
    traits = _collective_traits()

    def __init__(self, operand: SSAValue, replica_groups: Sequence[Sequence[int]] = ()):
        props: dict[str, Attribute] = {}
        if replica_groups:
            props["replica_groups"] = replica_groups_attr(replica_groups)
        super().__init__(operands=[operand], result_types=[operand.type], properties=props)

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_element_class("operand", self.operand.type, "numeric")
        _check_same_type(self.result.type, self.operand.type)
        self._groups()


@irdl_op_definition
class ReduceScatterOp(CollectiveOp):
    """Reduces the operand across each group with `computation`, then splits the sum
    along `scatter_dimension` and keeps the block of the running device (StableHLO's
    reduce_scatter; spec: AllReduce)."""

    name = "xla.reduce_scatter"
    SPEC_SECTION: ClassVar[str] = "StableHLO"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr[IntegerType])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def()
    traits = _collective_traits()

    def __init__(
        self,
        operand: SSAValue,
        computation: Region,
        scatter_dimension: int,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: ChannelHandleAttr | None = None,
        use_global_device_ids: bool = False,
        result_type: Attribute | None = None,
    ):
        props = {"scatter_dimension": _int64(scatter_dimension), **group_properties(replica_groups, channel_handle, use_global_device_ids)}
        if result_type is None:
            if not replica_groups:
                raise ValueError("reduce_scatter: give result_type when replica_groups is empty")
            shape = list(shape_of(operand.type))
            shape[scatter_dimension] //= len(replica_groups[0])
            result_type = tensor(shape, element_type_of(operand.type))
        super().__init__(
            operands=[operand], result_types=[result_type], properties=props, regions=[computation]
        )

    def verify_(self) -> None:
        t, r = self.operand.type, self.result.type
        check_tensor("operand", t)
        check_tensor("result", r)
        rank = rank_of(t)
        dim = self.scatter_dimension.value.data
        _check_dim("scatter_dimension", dim, rank, "operand")
        groups = self._groups()
        self._check_mode()
        accumulator = _region_element(self.computation) or element_type_of(t)
        _check_promotable("operand", element_type_of(t), accumulator)
        require(
            element_type_of(r) == accumulator,
            f"result element type {format_type(element_type_of(r))} differs from "
            + (
                f"operand element type {format_type(element_type_of(t))}"
                if accumulator == element_type_of(t)
                else f"the computation's element type {format_type(accumulator)}"
            ),
        )
        require(rank_of(r) == rank, f"result rank {rank_of(r)} differs from operand rank {rank}")
        ts, rs = shape_of(t), shape_of(r)
        for d in range(rank):
            if d != dim:
                require(
                    is_dynamic(ts[d]) or is_dynamic(rs[d]) or ts[d] == rs[d],
                    f"result shape {format_shape(rs)} differs from operand shape "
                    f"{format_shape(ts)} in dimension {d}",
                )
        if not is_dynamic(ts[dim]) and not is_dynamic(rs[dim]):
            size = self._group_size(groups)
            if size is not None:
                require(
                    ts[dim] == rs[dim] * size,
                    f"operand dimension {dim} (size {ts[dim]}) must be the result's "
                    f"({rs[dim]}) times the group size {size}",
                )
            else:
                factor = self._group_factor(groups)
                require(
                    (rs[dim] == 0 and ts[dim] == 0)
                    or (rs[dim] > 0 and ts[dim] % (rs[dim] * factor) == 0),
                    f"operand dimension {dim} (size {ts[dim]}) must be a multiple of the "
                    f"result's ({rs[dim]}) times {factor}",
                )
        check_reduction_region(self.computation, accumulator)


# ---------------------------------------------------------------------------
# all_gather / all_to_all
# ---------------------------------------------------------------------------


@irdl_op_definition
class AllGatherOp(CollectiveOp):
    """Concatenates each operand across the replicas of each group along
    `all_gather_dim` (spec: AllGather)."""

    name = "xla.all_gather"
    SPEC_SECTION: ClassVar[str] = "AllGather"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr[IntegerType])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    traits = _collective_traits()

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        all_gather_dim: int,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: ChannelHandleAttr | None = None,
        use_global_device_ids: bool = False,
        result_types: Sequence[Attribute] | None = None,
    ):
        props = {"all_gather_dim": _int64(all_gather_dim), **group_properties(replica_groups, channel_handle, use_global_device_ids)}
        if result_types is None:
            if not replica_groups:
                raise ValueError("all_gather: give result_types when replica_groups is empty")
            result_types = []
            for v in inputs:
                shape = list(shape_of(v.type))
                shape[all_gather_dim] *= len(replica_groups[0])
                result_types.append(tensor(shape, element_type_of(v.type)))
        super().__init__(
            operands=[list(inputs)], result_types=[list(result_types)], properties=props
        )

    def verify_(self) -> None:
        require(len(self.inputs) >= 1, "all_gather needs at least one operand")
        require(
            len(self.outputs) == len(self.inputs),
            f"expected {len(self.inputs)} results, one per operand, got {len(self.outputs)}",
        )
        groups = self._groups()
        self._check_mode()
        dim = self.all_gather_dim.value.data
        size = self._group_size(groups)
        factor = self._group_factor(groups)
        for i, (v, r) in enumerate(zip(self.inputs, self.outputs)):
            t, rt = v.type, r.type
            check_tensor(f"operand #{i}", t)
            check_tensor(f"result #{i}", rt)
            rank = rank_of(t)
            _check_dim("all_gather_dim", dim, rank, f"operand #{i}")
            require(
                element_type_of(rt) == element_type_of(t),
                f"result #{i} element type {format_type(element_type_of(rt))} differs from "
                f"operand #{i} element type {format_type(element_type_of(t))}",
            )
            require(
                rank_of(rt) == rank,
                f"result #{i} rank {rank_of(rt)} differs from operand #{i} rank {rank}",
            )
            ts, rs = shape_of(t), shape_of(rt)
            for d in range(rank):
                if d != dim:
                    require(
                        is_dynamic(ts[d]) or is_dynamic(rs[d]) or ts[d] == rs[d],
                        f"result #{i} shape {format_shape(rs)} differs from operand #{i} shape "
                        f"{format_shape(ts)} in dimension {d}",
                    )
            if is_dynamic(ts[dim]) or is_dynamic(rs[dim]):
                continue
            if size is not None:
                require(
                    rs[dim] == ts[dim] * size,
                    f"result #{i} dimension {dim} (size {rs[dim]}) must be operand #{i}'s "
                    f"({ts[dim]}) times the group size {size}",
                )
            else:
                require(
                    (ts[dim] == 0 and rs[dim] == 0)
                    or (ts[dim] > 0 and rs[dim] % (ts[dim] * factor) == 0),
                    f"result #{i} dimension {dim} (size {rs[dim]}) must be a multiple of "
                    f"operand #{i}'s ({ts[dim]}) times {factor}",
                )


@irdl_op_definition
class AllToAllOp(CollectiveOp):
    """Splits each operand into `split_count` blocks along `split_dimension`, sends
    block i to the i-th device of the group and concatenates the received blocks
    along `concat_dimension` (spec: AllToAll)."""

    name = "xla.all_to_all"
    SPEC_SECTION: ClassVar[str] = "AllToAll"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    split_dimension = prop_def(IntegerAttr[IntegerType])
    concat_dimension = prop_def(IntegerAttr[IntegerType])
    split_count = prop_def(IntegerAttr[IntegerType])
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    traits = _collective_traits()

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        split_dimension: int,
        concat_dimension: int,
        split_count: int,
        replica_groups: Sequence[Sequence[int]] = (),
        channel_handle: ChannelHandleAttr | None = None,
    ):
        props: dict[str, Attribute] = {
            "split_dimension": _int64(split_dimension),
            "concat_dimension": _int64(concat_dimension),
            "split_count": _int64(split_count),
            "replica_groups": replica_groups_attr(replica_groups),
        }
        if channel_handle is not None:
            props["channel_handle"] = channel_handle
        super().__init__(
            operands=[list(inputs)],
            result_types=[
                [
                    self.infer_result_type(v.type, split_dimension, concat_dimension, split_count)
                    for v in inputs
                ]
            ],
            properties=props,
        )

    @staticmethod
    def infer_result_type(t: Attribute, split: int, concat: int, count: int) -> Attribute:
        shape = list(shape_of(t))
        if not is_dynamic(shape[split]):
            shape[split] //= count
        if not is_dynamic(shape[concat]):
            shape[concat] *= count
        return tensor(shape, element_type_of(t))

    def verify_(self) -> None:
        require(len(self.inputs) >= 1, "all_to_all needs at least one operand")
        require(
            len(self.outputs) == len(self.inputs),
            f"expected {len(self.inputs)} results, one per operand, got {len(self.outputs)}",
        )
        split = self.split_dimension.value.data
        concat = self.concat_dimension.value.data
        count = self.split_count.value.data
        require(count > 0, f"split_count {count} must be positive")
        self._groups()  # checks the ids
        shape = self.replica_groups.get_shape()
        require(  # StableHLO: dim(replica_groups, 1) = split_count, so never empty groups
            len(shape) == 2 and shape[1] == count,
            f"split_count {count} must equal the size {shape[1] if len(shape) == 2 else 0} "
            f"of each replica group",
        )
        for i, v in enumerate(self.inputs):
            t = v.type
            check_tensor(f"operand #{i}", t)
            rank = rank_of(t)
            _check_dim("split_dimension", split, rank, f"operand #{i}")
            _check_dim("concat_dimension", concat, rank, f"operand #{i}")
            size = shape_of(t)[split]
            require(
                is_dynamic(size) or size % count == 0,
                f"operand #{i} dimension {split} (size {size}) is not divisible by "
                f"split_count {count}",
            )
        self.check_result_types(
            [self.infer_result_type(v.type, split, concat, count) for v in self.inputs]
        )


# ---------------------------------------------------------------------------
# collective_permute / collective_broadcast
# ---------------------------------------------------------------------------


@irdl_op_definition
class CollectivePermuteOp(CollectiveOp):
    """Sends the operand from each source replica to its target replica; replicas that
    are no target get zeros (spec: CollectivePermute)."""

    name = "xla.collective_permute"
    SPEC_SECTION: ClassVar[str] = "CollectivePermute"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    traits = _collective_traits()

    def __init__(
        self,
        operand: SSAValue,
        source_target_pairs: Sequence[tuple[int, int]],
        channel_handle: ChannelHandleAttr | None = None,
    ):
        props: dict[str, Attribute] = {"source_target_pairs": pairs_attr(source_target_pairs)}
        if channel_handle is not None:
            props["channel_handle"] = channel_handle
        super().__init__(operands=[operand], result_types=[operand.type], properties=props)

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        _check_same_type(self.result.type, self.operand.type)
        attr = self.source_target_pairs
        t = attr.type
        require(
            isinstance(t, TensorType) and len(t.get_shape()) == 2 and t.get_shape()[1] == 2,
            f"source_target_pairs must have shape [N, 2], got {format_type(t)}",
        )
        pairs = _matrix("source_target_pairs", attr)
        sources: set[int] = set()
        targets: set[int] = set()
        for source, target in pairs:
            require(
                source >= 0 and target >= 0,
                f"source_target_pairs has ({source}, {target}); replica ids must be non-negative",
            )
            require(source not in sources, f"source_target_pairs has source {source} more than once")
            require(target not in targets, f"source_target_pairs has target {target} more than once")
            sources.add(source)
            targets.add(target)


@irdl_op_definition
class CollectiveBroadcastOp(CollectiveOp):
    """Sends the operand of the first device of each group to every device of the
    group (StableHLO's collective_broadcast; spec: CollectivePermute)."""

    name = "xla.collective_broadcast"
    SPEC_SECTION: ClassVar[str] = "StableHLO"
    ALLOW_PADDING: ClassVar[bool] = True
    COVER_ALL: ClassVar[bool] = False  # devices outside every group keep their operand
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)
    traits = _collective_traits()

    def __init__(
        self,
        operand: SSAValue,
        replica_groups: Sequence[Sequence[int]],
        channel_handle: ChannelHandleAttr | None = None,
    ):
        props: dict[str, Attribute] = {"replica_groups": replica_groups_attr(replica_groups)}
        if channel_handle is not None:
            props["channel_handle"] = channel_handle
        super().__init__(operands=[operand], result_types=[operand.type], properties=props)

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        _check_same_type(self.result.type, self.operand.type)
        self._groups()


def sum_computation(element: Attribute) -> Region:
    """A `computation` region adding two scalars of `element`, for all_reduce and
    reduce_scatter; needs the `xla.add` and `xla.return` ops."""
    from xla_dialect.ops.control_flow import ReturnOp
    from xla_dialect.ops.elementwise import AddOp

    scalar = tensor([], element)
    block = Block(arg_types=[scalar, scalar])
    add = AddOp(block.args[0], block.args[1])
    block.add_ops([add, ReturnOp([add.result])])
    return Region(block)


OPS: tuple[type[Operation], ...] = (
    ReplicaIdOp,
    PartitionIdOp,
    AllReduceOp,
    AllGatherOp,
    AllToAllOp,
    CollectivePermuteOp,
    CollectiveBroadcastOp,
    ReduceScatterOp,
    CrossReplicaSumOp,
)
