"""`linalg-fuse-reductions`: fusion across reductions, on tensors (XLA's input and
multi-output fusion, IREE's dispatch formation by rows).

`linalg-fuse-elementwise` leaves one loop nest per reduction and per element-wise
op that reads a reduction's result, so softmax (max, `exp(x - max)`, sum, divide)
walks its 4 MB input and temporaries four times through memory. This pass makes
two kinds of fusion, both recorded in a `fusion` attribute of the result:

**Sibling (multi-output) fusion** (`fusion = "multi-output"`): two generics of one
block with the same iteration space that read a common input through the same
map, neither depending on the other, become one generic with the outputs of
both (`sum(x)` and `max(x)`, `sum(x)` and `sum(x * x)`): the input is read once.
Contractions (a reduction reading an operand not every loop indexes) are not
merged: each stays the single-output generic the contraction code generator
recognizes.

**Row fusion** (`scf.for ... {fusion = "rows"}`): generics whose outermost loop
is a parallel *row* dimension, every output indexed by it in its first position
and every input either indexed by it in its first position or not at all (a
row vector broadcast to every row) form a group when one reads another's result
row by row. A group runs as one loop over blocks of `B` rows: each member runs
on the block (`tensor.extract_slice` of its inputs, a block-sized init, its own
generic), members read the blocks their predecessors computed, and results used
after the group are written into their place (`tensor.insert_slice` into a
tensor the loop carries). The block's temporaries stay in L1/L2: softmax reads
its input from memory once and writes its result once. `B` is the largest
divisor of the row count with `B * (elements per row) <= tile_elements` (a pass
option, default 1024: 4 KB of f32 per temporary, which measured best for
softmax over 1024-element rows); a group that would be a
single block is left alone. When one row is larger than a tile and every member's
second loop is parallel and indexed right after the rows wherever the rows are
(attention's softmax over `heads x queries x keys`), each row runs an inner
`scf.for` over blocks of `B1` of that second dimension (`fusion = "rows(1xB1):
..."`): the temporaries are `1 x B1 x 256` slices, not whole 256 KB heads.

Groups form in one walk of each block in program order (linear in program
size): a generic joins the open groups whose members produce its row-indexed
inputs (merging them), or opens its own; a group closes as soon as an op outside
it uses one of its results, so moving the members to the last one's place never
moves a use before its definition. Members may not use `linalg.index` of the row
dimension, and every operand must have a static shape. A reduction that reads
an operand without the row dimension (a matmul's right-hand side, a
convolution's kernel) is a contraction and stays whole, for the contraction code
generator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from lowering.codegen.fold_broadcasts import note_fusion

DYNAMIC = (
    -9223372036854775808
)  # MLIR's ShapedType::kDynamic, as tensor slices spell a dynamic offset


# ---------------------------------------------------------------------------
# Loop sizes
# ---------------------------------------------------------------------------


def loop_sizes(op: GenericOp) -> list[int] | None:
    """The trip count of each iteration dimension (read off operand shapes), or
    None when an operand is not a static tensor or a dimension has no range."""
    sizes: list[int | None] = [None] * len(op.iterator_types.data)
    for value, m in zip(op.operands, op.indexing_maps.data):
        t = value.type
        if not isinstance(t, TensorType):
            if m.data.results:
                return None
            continue
        shape = t.get_shape()
        if any(s < 0 for s in shape):
            return None
        for size, e in zip(shape, m.data.results):
            if isinstance(e, AffineDimExpr):
                sizes[e.position] = size
    if any(s is None for s in sizes):
        return None
    return [s for s in sizes if s is not None]


# ---------------------------------------------------------------------------
# Sibling (multi-output) fusion
# ---------------------------------------------------------------------------


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _uses_all_after(op: Operation, later: Operation, order: dict[Operation, int]) -> bool:
    """Whether every use of `op`'s results is in an op of `later`'s block after `later`
    (`order`: each op of that block's position, computed once per block: asking the
    block to walk forward from `later` for every use is quadratic in its length)."""
    block = later.parent_block()
    assert block is not None
    at = order[later]
    for r in op.results:
        for use in r.uses:
            user = _ancestor_in(use.operation, block)
            if user is None or user is later or order[user] <= at:
                return False
    return True


def contraction_like(op: GenericOp) -> bool:
    """Whether `op` reduces and reads an operand that not every loop indexes (a
    matmul, a convolution, a pooling window): the contraction code generator and
    the loop nests it expects stay as they are."""
    if not any(it.data == IteratorType.REDUCTION for it in op.iterator_types.data):
        return False
    n = len(op.iterator_types.data)
    return any(len(m.data.used_dims()) != n for m in op.indexing_maps.data[: len(op.inputs)])


def _mergeable(first: GenericOp, second: GenericOp, order: dict[Operation, int]) -> bool:
    if first.parent_block() is not second.parent_block() or first is second:
        return False
    if contraction_like(first) or contraction_like(second):
        return False
    if first.iterator_types != second.iterator_types or loop_sizes(first) != loop_sizes(second):
        return False
    if any(isinstance(o, IndexOp) for o in (*first.body.walk(), *second.body.walk())):
        return False
    return _uses_all_after(first, second, order)


def merge_siblings(first: GenericOp, second: GenericOp) -> GenericOp:
    """One generic computing `first` and `second` (inputs deduplicated by value and
    map), placed where `second` is; their results are replaced."""
    inputs: list[SSAValue] = []
    maps: list[AffineMap] = []
    arg_types: list[Attribute] = []
    slot: dict[tuple[SSAValue, AffineMap], int] = {}
    arg_of: list[list[int]] = []
    for op in (first, second):
        positions: list[int] = []
        for v, m, a in zip(op.inputs, op.indexing_maps.data, op.body.block.args):
            key = (v, m.data)
            if key not in slot:
                slot[key] = len(inputs)
                inputs.append(v)
                maps.append(m.data)
                arg_types.append(a.type)
            positions.append(slot[key])
        arg_of.append(positions)
    outputs = [*first.outputs, *second.outputs]
    for op in (first, second):
        maps.extend(m.data for m in op.indexing_maps.data[len(op.inputs) :])
    out_args = [a.type for a in first.body.block.args[len(first.inputs) :]]
    out_args += [a.type for a in second.body.block.args[len(second.inputs) :]]
    block = Block(arg_types=[*arg_types, *out_args])
    n_in = len(inputs)
    yielded: list[SSAValue] = []
    out_base = n_in
    for k, op in enumerate((first, second)):
        old = op.body.block
        mapping: dict[SSAValue, SSAValue] = {}
        for j, a in enumerate(old.args[: len(op.inputs)]):
            mapping[a] = block.args[arg_of[k][j]]
        for j, a in enumerate(old.args[len(op.inputs) :]):
            mapping[a] = block.args[out_base + j]
        out_base += len(op.outputs)
        for inner in old.ops:
            if isinstance(inner, YieldOp):
                yielded.extend(mapping.get(v, v) for v in inner.operands)
                continue
            block.add_op(inner.clone(value_mapper=mapping))
    block.add_op(YieldOp(*yielded))
    merged = GenericOp(
        inputs,
        outputs,
        Region(block),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        second.iterator_types,
        [*first.result_types, *second.result_types],
    )
    for op in (first, second):
        for name, attr in op.attributes.items():
            if name not in merged.attributes:
                merged.attributes[name] = attr
    note_fusion(merged, "multi-output")
    parent = second.parent_block()
    assert parent is not None
    parent.insert_op_before(merged, second)
    results = list(merged.results)
    for old, new in zip([*first.results, *second.results], results):
        old.replace_all_uses_with(new)
        if old.name_hint:
            new.name_hint = old.name_hint
    for op in (first, second):
        op.detach()
        op.erase()
    return merged


def fuse_siblings(block: Block) -> int:
    """Merge generics of `block` that read a common input (value and map) and do
    not depend on each other; one pass over the block. Returns how many merges."""
    # readers[(value, map)] = the latest generic of this block reading it
    readers: dict[tuple[SSAValue, AffineMap], GenericOp] = {}
    order = {op: i for i, op in enumerate(block.ops)}
    merges = 0
    for op in list(block.ops):
        if not isinstance(op, GenericOp) or op.parent is None:
            continue
        current: GenericOp = op
        for v, m in list(zip(op.inputs, op.indexing_maps.data)):
            if not isinstance(v.type, TensorType):
                continue
            sibling = readers.get((v, m.data))
            if sibling is not None and sibling.parent is not None and _mergeable(sibling, current, order):
                # The merged generic takes `current`'s place, and its position.
                at = order[current]
                current = merge_siblings(sibling, current)
                order[current] = at
                merges += 1
                break
        for v, m in zip(current.inputs, current.indexing_maps.data):
            if isinstance(v.type, TensorType):
                readers[(v, m.data)] = current
    return merges


# ---------------------------------------------------------------------------
# Row fusion
# ---------------------------------------------------------------------------


def _row_position(m: AffineMap) -> str:
    """'row' if the map reads loop 0 in its first result only, 'none' if it does
    not read loop 0, else 'other'."""
    uses = [i for i, e in enumerate(m.results) if 0 in e.used_dims()]
    if not uses:
        return "none"
    first = m.results[0]
    if uses == [0] and isinstance(first, AffineDimExpr) and first.position == 0:
        return "row"
    return "other"


def row_count(op: Operation) -> int | None:
    """The size of `op`'s row loop if it can be a member of a row group, else None."""
    if not isinstance(op, GenericOp) or not op.iterator_types.data or len(op.outputs) == 0:
        return None
    if op.iterator_types.data[0].data != IteratorType.PARALLEL:
        return None
    if any(isinstance(o, IndexOp) and o.dim.value.data == 0 for o in op.body.walk()):
        return None
    maps = [m.data for m in op.indexing_maps.data]
    if any(_row_position(m) != "row" for m in maps[len(op.inputs) :]):
        return None
    if any(_row_position(m) == "other" for m in maps[: len(op.inputs)]):
        return None
    # A reduction reading a whole operand for every row is a contraction (matmul,
    # convolution): the contraction code generator wants it whole.
    reduces = any(it.data == IteratorType.REDUCTION for it in op.iterator_types.data)
    if reduces and any(_row_position(m) == "none" and m.results for m in maps[: len(op.inputs)]):
        return None
    sizes = loop_sizes(op)
    if sizes is None or any(not isinstance(r.type, TensorType) for r in op.results):
        return None
    return sizes[0]


@dataclass
class RowGroup:
    rows: int
    members: list[GenericOp] = field(default_factory=list[GenericOp])
    edges: int = 0
    closed: bool = False


def _inner_elements(op: GenericOp) -> int:
    sizes = loop_sizes(op)
    assert sizes is not None
    return math.prod(sizes[1:])


def block_rows(rows: int, per_row: int, tile_elements: int) -> int:
    """The largest divisor `B` of `rows` with `B * per_row <= tile_elements` (at least 1)."""
    limit = max(1, tile_elements // max(1, per_row))
    best = 1
    for b in range(1, min(rows, limit) + 1):
        if rows % b == 0:
            best = b
    return best


def find_row_groups(block: Block) -> list[RowGroup]:
    """The row groups of `block` worth fusing, in one walk in program order."""
    group_of: dict[Operation, RowGroup] = {}
    groups: list[RowGroup] = []
    position = _position_key(block)
    for op in block.ops:
        rows = row_count(op)
        joined: list[RowGroup] = []
        bad: set[int] = set()
        if rows is not None:
            assert isinstance(op, GenericOp)
            for v, m in zip(op.inputs, op.indexing_maps.data):
                g = _group(group_of, v)
                if (
                    g is not None
                    and not g.closed
                    and g.rows == rows
                    and _row_position(m.data) == "row"
                ):
                    if g not in joined:
                        joined.append(g)
                elif g is not None:
                    bad.add(id(g))
            for v in op.outputs:
                g = _group(group_of, v)
                if g is not None:
                    bad.add(id(g))
        else:
            for v in op.operands:
                g = _group(group_of, v)
                if g is not None:
                    g.closed = True
        # A use inside a nested op closes the group: the op is not a member.
        for inner in op.walk():
            if inner is op:
                continue
            for v in inner.operands:
                g = _group(group_of, v)
                if g is not None:
                    bad.add(id(g))
                    g.closed = True
        for g in joined:
            if id(g) in bad:
                g.closed = True
        joined = [g for g in joined if not g.closed]
        if rows is None:
            continue
        assert isinstance(op, GenericOp)
        if not joined:
            g = RowGroup(rows)
            groups.append(g)
        else:
            # The largest group absorbs the others (each op changes group O(log n) times).
            g = max(joined, key=lambda j: len(j.members))
            for other in joined:
                if other is g:
                    continue
                for member in other.members:
                    group_of[member] = g
                g.members.extend(other.members)
                g.edges += other.edges
                other.members = []
                other.closed = True
            g.edges += 1
        g.members.append(op)
        group_of[op] = g
    kept = [g for g in groups if g.members and g.edges > 0]
    for g in kept:  # members in program order, sorted once
        g.members.sort(key=position)
    return kept


def _group(group_of: dict[Operation, RowGroup], value: SSAValue) -> RowGroup | None:
    owner = value.owner
    return group_of.get(owner) if isinstance(owner, Operation) else None


def _position_key(block: Block):  # pyright: ignore[reportUnknownParameterType]
    positions = {op: i for i, op in enumerate(block.ops)}
    return lambda op: positions[op]  # pyright: ignore[reportUnknownLambdaType, reportUnknownVariableType]


def _index_constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _slice_props(shape: Sequence[int], lead: Sequence[int]) -> dict[str, DenseArrayBase]:
    """A slice whose leading `len(lead)` dimensions are blocks of `lead` at dynamic
    offsets and whose other dimensions are whole."""
    rank, k = len(shape), len(lead)
    return {
        "static_offsets": DenseArrayBase.from_list(i64, [DYNAMIC] * k + [0] * (rank - k)),
        "static_sizes": DenseArrayBase.from_list(i64, [*lead, *shape[k:]]),
        "static_strides": DenseArrayBase.from_list(i64, [1] * rank),
    }


def _tile_type(t: TensorType, lead: Sequence[int]) -> TensorType:
    shape = t.get_shape()
    return TensorType(t.element_type, [*lead, *shape[len(lead) :]])


def extract_rows(source: SSAValue, offsets: Sequence[SSAValue], lead: Sequence[int]) -> tensor.ExtractSliceOp:
    t = source.type
    assert isinstance(t, TensorType)
    return tensor.ExtractSliceOp.build(
        operands=[source, list(offsets), [], []],
        result_types=[_tile_type(t, lead)],  # pyright: ignore[reportUnknownArgumentType]
        properties=_slice_props(t.get_shape(), lead),  # pyright: ignore[reportUnknownArgumentType]
    )


def insert_rows(
    source: SSAValue, dest: SSAValue, offsets: Sequence[SSAValue], lead: Sequence[int]
) -> tensor.InsertSliceOp:
    t = dest.type
    assert isinstance(t, TensorType)
    return tensor.InsertSliceOp.build(
        operands=[source, dest, list(offsets), [], []],
        result_types=[t],
        properties=_slice_props(t.get_shape(), lead),  # pyright: ignore[reportUnknownArgumentType]
    )


def _tile_init(init: SSAValue, offsets: Sequence[SSAValue], lead: Sequence[int], body: Block) -> SSAValue:
    """A block-sized init inside the loop body, made as `init` is when it is a fill of
    an empty tensor or an empty tensor, else a slice of it."""
    t = init.type
    assert isinstance(t, TensorType)
    tile = _tile_type(t, lead)  # pyright: ignore[reportUnknownArgumentType]
    owner = init.owner
    if isinstance(owner, tensor.EmptyOp):
        empty = tensor.EmptyOp([], tile)
        body.add_op(empty)
        return empty.tensor
    if (
        isinstance(owner, FillOp)
        and len(owner.inputs) == 1
        and isinstance(owner.outputs[0].owner, tensor.EmptyOp)
    ):
        empty = tensor.EmptyOp([], tile)
        fill = FillOp([owner.inputs[0]], [empty.tensor], [tile])
        body.add_ops([empty, fill])
        return fill.results[0]
    sliced = extract_rows(init, offsets, lead)
    body.add_op(sliced)
    return sliced.result


def _erase_dead(value: SSAValue) -> None:
    op = value.owner
    if isinstance(op, (FillOp, tensor.EmptyOp)) and not any(r.uses for r in op.results):
        operands = list(op.operands)
        op.detach()
        op.erase()
        for v in operands:
            _erase_dead(v)


def tile_group(group: RowGroup, lead: Sequence[int], inner_rows: int = 0) -> scf.ForOp:
    """Replace the members of `group` by one `scf.for` over blocks of rows (`lead`
    = `[B]`), or, with `lead = [1, B1]`, a loop over the rows holding one over
    blocks of `B1` of the second dimension (`inner_rows` iterations of it)."""
    members = group.members
    last = members[-1]
    block = last.parent_block()
    assert block is not None
    member_set = set[Operation](members)
    escaping: list[SSAValue] = []
    for m in members:
        for r in m.results:
            if any(use.operation not in member_set for use in r.uses):
                escaping.append(r)
    outside: list[Operation] = []
    inits: list[SSAValue] = []
    for r in escaping:
        empty = tensor.EmptyOp([], r.type)
        outside.append(empty)
        inits.append(empty.tensor)
    bounds = [(_index_constant(0), _index_constant(group.rows), _index_constant(lead[0]))]
    if len(lead) == 2:
        bounds.append((_index_constant(0), _index_constant(inner_rows), _index_constant(lead[1])))
    outside += [c for triple in bounds for c in triple]
    block.insert_ops_before(outside, members[0])

    blocks = [Block(arg_types=[IndexType(), *(v.type for v in inits)]) for _ in bounds]
    body = blocks[-1]
    offsets = [b.args[0] for b in blocks]
    carried = dict(zip(escaping, body.args[1:]))
    tiles: dict[SSAValue, SSAValue] = {}
    slices: dict[SSAValue, SSAValue] = {}
    kinds: list[str] = []
    old_inits: list[SSAValue] = []
    for m in members:
        maps = [a.data for a in m.indexing_maps.data]
        new_inputs: list[SSAValue] = []
        for v, mp in zip(m.inputs, maps):
            if v in tiles:
                new_inputs.append(tiles[v])
            elif _row_position(mp) == "row":
                if v not in slices:
                    sliced = extract_rows(v, offsets, lead)
                    body.add_op(sliced)
                    slices[v] = sliced.result
                new_inputs.append(slices[v])
            else:
                new_inputs.append(v)
        new_outputs = [_tile_init(init, offsets, lead, body) for init in m.outputs]
        old_inits.extend(m.outputs)
        tiled = GenericOp(
            new_inputs,
            new_outputs,
            m.detach_region(m.body),
            m.indexing_maps,
            m.iterator_types,
            [v.type for v in new_outputs],
        )
        for name, attr in m.attributes.items():
            if name not in tiled.attributes:
                tiled.attributes[name] = attr
        body.add_op(tiled)
        kinds.append(
            "reduce"
            if any(it.data == IteratorType.REDUCTION for it in m.iterator_types.data)
            else "map"
        )
        tiles.update(zip(m.results, tiled.results))
    yielded: list[SSAValue] = []
    for r in escaping:
        ins = insert_rows(tiles[r], carried[r], offsets, lead)
        body.add_op(ins)
        yielded.append(ins.result)
    body.add_op(scf.YieldOp(*yielded))
    if len(blocks) == 2:  # the inner loop carries the outer one's tensors
        lb, ub, step = bounds[1]
        inner = scf.ForOp(lb, ub, step, list(blocks[0].args[1:]), body)
        blocks[0].add_ops([inner, scf.YieldOp(*inner.results)])
    lb, ub, step = bounds[0]
    loop = scf.ForOp(lb, ub, step, inits, blocks[0])
    loop.attributes["fusion"] = tensor_fusion_note(kinds, lead)
    block.insert_op_after(loop, last)
    for r, new in zip(escaping, loop.results):
        r.replace_all_uses_with(new)
        if r.name_hint:
            new.name_hint = r.name_hint
    for m in reversed(members):
        m.detach()
        m.erase()
    for v in old_inits:
        _erase_dead(v)
    return loop


def tensor_fusion_note(kinds: Sequence[str], lead: Sequence[int]):  # pyright: ignore[reportUnknownParameterType]
    from xdsl.dialects.builtin import StringAttr

    return StringAttr(f"rows({'x'.join(str(b) for b in lead)}): " + ", ".join(kinds))


def _second_rows(op: GenericOp) -> int | None:
    """The size of `op`'s second loop if it can be blocked inside the row loop: a
    parallel loop that every operand indexing the rows indexes right after them (in
    its second position only), and no other operand indexes."""
    if len(op.iterator_types.data) < 3 or op.iterator_types.data[1].data != IteratorType.PARALLEL:
        return None
    if any(isinstance(o, IndexOp) and o.dim.value.data == 1 for o in op.body.walk()):
        return None
    for m in (a.data for a in op.indexing_maps.data):
        uses = [i for i, e in enumerate(m.results) if 1 in e.used_dims()]
        if _row_position(m) == "row":
            second = m.results[1] if len(m.results) > 1 else None
            if uses != [1] or not (isinstance(second, AffineDimExpr) and second.position == 1):
                return None
        elif uses:
            return None
    sizes = loop_sizes(op)
    return sizes[1] if sizes is not None else None


def block_shape(group: RowGroup, tile_elements: int) -> tuple[list[int], int]:
    """The block of the leading dimensions each iteration computes: `[B]` rows, or,
    when one row is larger than `tile_elements` and every member has the same
    second loop that can be blocked (attention's softmax over heads x queries x
    keys), `[1, B1]`; and the second loop's size (0: not blocked)."""
    per_row = max(_inner_elements(m) for m in group.members)
    b = block_rows(group.rows, per_row, tile_elements)
    if b > 1 or per_row <= tile_elements:
        return [b], 0
    seconds = {_second_rows(m) for m in group.members}
    if len(seconds) != 1:
        return [b], 0
    second = seconds.pop()
    if second is None or second < 2:
        return [b], 0
    return [1, block_rows(second, per_row // second, tile_elements)], second


def fuse_rows(block: Block, tile_elements: int) -> int:
    """Row-fuse the groups of `block`; return how many loops were made."""
    made = 0
    for g in find_row_groups(block):
        lead, second = block_shape(g, tile_elements)
        if lead[0] >= g.rows and (len(lead) == 1 or lead[1] >= second):
            continue
        tile_group(g, lead, second)
        made += 1
    return made


@dataclass(frozen=True)
class LinalgFuseReductionsPass(ModulePass):
    """Multi-output fusion of generics reading a common input, then row-block
    fusion of reductions with their producers and broadcast consumers."""

    name = "linalg-fuse-reductions"

    tile_elements: int = 1024
    """Elements of one row block of a member's iteration space (the block's rows
    are the largest divisor of the row count within it)."""

    multi_output: bool = True
    """Merge generics that read a common input into one with several outputs."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [b for inner in op.walk() for r in inner.regions for b in r.blocks]
        for b in blocks:
            if not any(isinstance(o, GenericOp) for o in b.ops):
                continue
            if self.multi_output:
                fuse_siblings(b)
            fuse_rows(b, self.tile_elements)


__all__ = [
    "LinalgFuseReductionsPass",
    "block_rows",
    "find_row_groups",
    "fuse_rows",
    "fuse_siblings",
    "loop_sizes",
    "merge_siblings",
]
