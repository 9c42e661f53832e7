"""`linalg-fuse-elementwise`: producer-consumer fusion of generics on tensors.

Each `xla` element-wise op lowers to its own generic, so a chain of n ops makes
n loops and n - 1 temporary tensors. This pass inlines a producer generic into
its consumer when that is free of recomputation:

* the producer is all-parallel, has one result, an identity output map, no
  `linalg.index` and does not read its output block argument;
* its result has exactly one use, an `ins` operand of the consumer; or it is
  cheap (`recomputable`: at most two `arith` adds, subtracts, multiplies,
  min/max, compares or selects, at most two inputs), has at most four uses and
  every use can fuse it,
  and then each consumer gets its own copy (log-softmax's and layer norm's
  `x - m` feed a reduction and the result: recomputed in both rather than
  written and read back, as XLA's fusion duplicates cheap ops);
* the consumer reads it through a permutation of all its dimensions that covers
  the producer's rank (so each produced element is consumed exactly once).

The fused generic reads the producer's inputs through `producer_map ∘
consumer_map` and computes the producer's body right before the consumer's.
An input made by `linalg.fill` (splat constants, scalars broadcast by the
spec's implicit broadcasting) is replaced by the fill value in the body.
Neither rewrite happens when the result would leave a loop without a range
(no operand indexing it by a plain dimension).
A worklist makes it linear in program size: each generic is visited once,
consumers before their producers (reverse program order), and a fused generic
goes back on the list (its new inputs may fuse too); the walk never restarts. Fusing moves the producer's body into the
consumer's region (nothing is cloned), so a chain of n ops costs O(n), not the
O(n^2) of rebuilding an ever larger body. A chain of element-wise ops (and an
element-wise prologue of a reduction) becomes one loop nest; the fused generic
keeps the consumer's attributes and notes `fusion = "elementwise"`. As MLIR's
`linalg-fuse-elementwise-ops`, but on xDSL's linalg.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, StringAttr
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue, Use
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from xla_dialect.fusion_weights import MATH_OP_WEIGHT, MAX_BODY_WEIGHT


def _is_permutation(m: AffineMap) -> bool:
    return m.num_dims == len(m.results) and m.is_projected_permutation()


def has_loop_ranges(op: GenericOp) -> bool:
    """Whether every loop of `op` is some operand's plain dimension, which is how
    linalg finds the loop ranges of static shapes (the concatenated maps must be
    invertible). Dropping a fill operand (a splat kernel of a conv, say) can remove
    the only operand that gave the window loops their sizes."""
    seen: set[int] = set()
    for m in op.indexing_maps.data:
        seen.update(e.position for e in m.data.results if isinstance(e, AffineDimExpr))
    return len(seen) == len(op.iterator_types.data)


CHEAP_OPS = (
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.NegfOp, arith.MaximumfOp, arith.MinimumfOp,
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.SelectOp, arith.CmpfOp, arith.CmpiOp,
)  # fmt: skip
"""Ops a producer may consist of to be recomputed in each consumer (as XLA's fusion
duplicates cheap element-wise ops rather than materialize them)."""

RECOMPUTE_MAX_OPS = 2
"""At most this many ops (besides the yield) in a recomputed producer's body, and
at most this many inputs: each consumer reads the producer's inputs instead."""

RECOMPUTE_MAX_USES = 4
"""At most this many uses of a recomputed producer: each consumer's visit checks
them all, which must stay linear in program size (and the copies few)."""


def _chain_link(producer: GenericOp, index: int) -> bool:
    """Whether input `index` of `producer` is read whole (through a permutation) from an
    all-parallel generic: a link of an element-wise chain, which may still grow by
    fusing its own producers."""
    owner = producer.inputs[index].owner
    return (
        isinstance(owner, GenericOp)
        and all(it.data == IteratorType.PARALLEL for it in owner.iterator_types.data)
        and _is_permutation(producer.indexing_maps.data[index].data)
    )


def recomputable(producer: GenericOp) -> bool:
    """Whether `producer` is cheap enough to compute again in each of its consumers.

    It must be the head of any element-wise chain it is in: no input read whole from an
    element-wise generic. Otherwise each copy of a link takes copies of the links
    before it, up to `RECOMPUTE_MAX_USES` times at each step, and the program grows
    geometrically along a chain of cheap ops (a 3,000-op transformer block doubled its
    text and took twice as long to fuse). Inputs read through a broadcast (a row's mean)
    may be element-wise results: log-softmax's and layer norm's `x - m` is recomputed."""
    ops = list(producer.body.block.ops)[:-1]
    return (
        len(ops) <= RECOMPUTE_MAX_OPS
        and len(producer.inputs) <= RECOMPUTE_MAX_OPS
        and all(isinstance(o, CHEAP_OPS) for o in ops)
        and not any(_chain_link(producer, i) for i in range(len(producer.inputs)))
    )


def _fusable_use(producer: GenericOp, use: Use) -> bool:
    consumer = use.operation
    if not isinstance(consumer, GenericOp) or use.index >= len(consumer.inputs):
        return False
    if consumer.parent_block() is not producer.parent_block():
        return False
    m = consumer.indexing_maps.data[use.index].data
    return _is_permutation(m) and len(m.results) == producer.indexing_maps.data[-1].data.num_dims


def fusable_producer(consumer: GenericOp, operand_index: int) -> GenericOp | None:
    """The producer of input `operand_index` of `consumer` if it can be fused: its
    only use, or one of several when it is `recomputable` and every use is a
    consumer it can fuse into (so it is not materialized as well)."""
    value = consumer.inputs[operand_index]
    producer = value.owner
    if not isinstance(producer, GenericOp) or len(producer.results) != 1 or len(producer.outputs) != 1:
        return None
    uses = value.uses.get_length()
    if uses != 1 and not (
        uses <= RECOMPUTE_MAX_USES and recomputable(producer) and all(_fusable_use(producer, u) for u in value.uses)
    ):
        return None
    if any(it.data != IteratorType.PARALLEL for it in producer.iterator_types.data):
        return None
    out_map = producer.indexing_maps.data[-1].data
    if out_map != AffineMap.identity(out_map.num_dims):
        return None
    if producer.body.block.args[-1].uses:
        return None
    if any(isinstance(op, IndexOp) for op in producer.body.walk()):
        return None
    consumer_map = consumer.indexing_maps.data[operand_index].data
    if not _is_permutation(consumer_map) or len(consumer_map.results) != out_map.num_dims:
        return None
    if producer.parent_block() is not consumer.parent_block():
        return None
    return producer


def fuse(consumer: GenericOp, operand_index: int, producer: GenericOp) -> GenericOp:
    """A generic computing `consumer` with `producer` inlined at input `operand_index`.

    The new generic takes over the consumer's region and the producer's body ops
    are moved into it, so `consumer` and `producer` are left with empty bodies:
    the caller erases both (or discards the result and erases nothing only if it
    did not build it: see `has_loop_ranges`, checked by `fused_maps` first)."""
    new_inputs, new_maps = fused_operands(consumer, operand_index, producer)
    c_block, p_block = consumer.body.block, producer.body.block
    n_p = len(producer.inputs)
    region = consumer.detach_region(consumer.body)
    block = region.block
    old_arg = block.args[operand_index]
    new_args = [block.insert_arg(a.type, operand_index + 1 + k) for k, a in enumerate(p_block.args[:n_p])]
    for p_arg, n_arg in zip(p_block.args[:n_p], new_args):
        p_arg.replace_all_uses_with(n_arg)
    first = block.first_op
    yielded: SSAValue | None = None
    for op in list(p_block.ops):
        op.detach()
        if isinstance(op, YieldOp):
            yielded = op.operands[0]
            op.erase()
            continue
        if first is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, first)
    assert yielded is not None
    old_arg.replace_all_uses_with(yielded)
    block.erase_arg(old_arg)
    fused = GenericOp(
        new_inputs,
        list(consumer.outputs),
        region,
        ArrayAttr([AffineMapAttr(m) for m in new_maps]),
        consumer.iterator_types,
        consumer.result_types,
    )
    for name, attr in consumer.attributes.items():
        if name not in fused.attributes:
            fused.attributes[name] = attr
    _note_elementwise(fused)
    del c_block
    return dedup_inputs(fused, fresh=set(range(operand_index, operand_index + n_p)))


def dedup_inputs(op: GenericOp, fresh: set[int] | frozenset[int] = frozenset()) -> GenericOp:
    """`op` with inputs read twice through the same map merged into one operand
    (a chain `x + a`, `* a`, `- a` ... fused reads `a` once, and the fused op's
    operand list stays short: fusing the chain stays linear); `op` itself when
    nothing repeats, else a new op that took over its region (`op` is erased).
    Of repeated inputs, one not in `fresh` (the just inlined producer's) is kept,
    so only the producer's few uses are redirected."""
    groups: dict[tuple[SSAValue, AffineMap], list[int]] = {}
    block = op.body.block
    maps = [m.data for m in op.indexing_maps.data]
    for i, (v, m) in enumerate(zip(op.inputs, maps)):
        groups.setdefault((v, m), []).append(i)
    if all(len(g) == 1 for g in groups.values()):
        return op
    dropped: list[int] = []
    for g in groups.values():
        keeper = next((i for i in g if i not in fresh), g[0])
        for i in g:
            if i != keeper:
                block.args[i].replace_all_uses_with(block.args[keeper])
                dropped.append(i)
    for i in sorted(dropped, reverse=True):
        block.erase_arg(block.args[i])
    keep = [i for i in range(len(op.inputs)) if i not in set(dropped)]
    n_in = len(op.inputs)
    new = GenericOp(
        [op.inputs[i] for i in keep],
        list(op.outputs),
        op.detach_region(op.body),
        ArrayAttr([AffineMapAttr(maps[i]) for i in keep] + [AffineMapAttr(m) for m in maps[n_in:]]),
        op.iterator_types,
        op.result_types,
    )
    new.attributes.update(op.attributes)
    op.erase()
    return new


def fused_operands(consumer: GenericOp, operand_index: int, producer: GenericOp) -> tuple[list[SSAValue], list[AffineMap]]:
    """The inputs and indexing maps (inputs' then outputs') of `consumer` with
    `producer` inlined at input `operand_index`."""
    consumer_maps = [m.data for m in consumer.indexing_maps.data]
    producer_maps = [m.data for m in producer.indexing_maps.data]
    fused_map = consumer_maps[operand_index]
    new_inputs: list[SSAValue] = []
    new_maps: list[AffineMap] = []
    for i in range(len(consumer.inputs)):
        if i == operand_index:
            new_inputs.extend(producer.inputs)
            new_maps.extend(pm.compose(fused_map) for pm in producer_maps[: len(producer.inputs)])
        else:
            new_inputs.append(consumer.inputs[i])
            new_maps.append(consumer_maps[i])
    new_maps.extend(consumer_maps[len(consumer.inputs) :])
    return new_inputs, new_maps


def _loop_ranges_of(maps: list[AffineMap], n_loops: int) -> bool:
    seen: set[int] = set()
    for m in maps:
        seen.update(e.position for e in m.results if isinstance(e, AffineDimExpr))
    return len(seen) == n_loops


def _note_elementwise(op: GenericOp) -> None:
    old = op.attributes.get("fusion")
    items = old.data.split(",") if isinstance(old, StringAttr) else []
    if "elementwise" not in items:
        items.append("elementwise")
    op.attributes["fusion"] = StringAttr(",".join(items))


def fold_fill_input(consumer: GenericOp, operand_index: int) -> GenericOp | None:
    """`consumer` reading the fill value directly instead of input `operand_index`,
    when that input is a `linalg.fill` result (a splat constant or an init value)."""
    fill = consumer.inputs[operand_index].owner
    if not isinstance(fill, FillOp) or len(fill.inputs) != 1:
        return None
    scalar = fill.inputs[0]
    block = consumer.body.block
    maps = list(consumer.indexing_maps.data)
    del maps[operand_index]
    inputs = list(consumer.inputs)
    del inputs[operand_index]
    new_block = Block(arg_types=[a.type for i, a in enumerate(block.args) if i != operand_index])
    values: dict[SSAValue, SSAValue] = {block.args[operand_index]: scalar}
    it = iter(new_block.args)
    for i, arg in enumerate(block.args):
        if i != operand_index:
            values[arg] = next(it)
    for op in block.ops:
        new_block.add_op(op.clone(value_mapper=values))
    folded = GenericOp(
        inputs, list(consumer.outputs), Region(new_block), ArrayAttr(maps), consumer.iterator_types, consumer.result_types
    )
    for name, attr in consumer.attributes.items():
        if name not in folded.attributes:
            folded.attributes[name] = attr
    return folded


def _erase_if_dead(op: Operation | None) -> None:
    if op is not None and isinstance(op, (GenericOp, FillOp, tensor.EmptyOp)) and not any(r.uses for r in op.results):
        operands = list(op.operands)
        op.detach()
        op.erase()
        for v in operands:
            _erase_if_dead(v.owner if isinstance(v.owner, Operation) else None)


def body_weight(op: GenericOp) -> int:
    """The estimated size of `op`'s body after expansion (`MATH_OP_WEIGHT` a math op)."""
    return sum(
        MATH_OP_WEIGHT if inner.dialect_name() == "math" else 1
        for inner in op.body.walk()
        if not isinstance(inner, YieldOp)
    )


@dataclass(frozen=True)
class LinalgFuseElementwisePass(ModulePass):
    """Fuse single-use element-wise producers into their consumers, to a fixed point."""

    name = "linalg-fuse-elementwise"

    max_body_weight: int = MAX_BODY_WEIGHT
    """A producer fuses only while the fused body weighs at most this (`body_weight`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        worklist = [inner for inner in op.walk() if isinstance(inner, GenericOp)]
        weights: dict[GenericOp, int] = {}
        # Popped last op first: a consumer absorbs its producers one by one, each
        # producer still an original op whose few body ops move, so fusing a chain
        # costs O(chain), where program order would move an ever larger fused body.
        while worklist:
            consumer = worklist.pop()
            if consumer.parent is None:
                continue
            fused = _fuse_one(consumer, weights, self.max_body_weight)
            if fused is not None:
                worklist.append(fused)


def _weight(op: GenericOp, weights: dict[GenericOp, int]) -> int:
    weight = weights.get(op)
    if weight is None:
        weight = weights[op] = body_weight(op)
    return weight


def _fuse_one(consumer: GenericOp, weights: dict[GenericOp, int], max_weight: int) -> GenericOp | None:
    """Fuse one input of `consumer` (a fill or an element-wise producer) while the fused
    body weighs at most `max_weight` (`weights` remembers what each generic weighs, so
    a long chain is not walked again at every step); return the new generic, which
    replaced `consumer`, or None when no input fuses."""
    for i in range(len(consumer.inputs)):
        producer: Operation | None = consumer.inputs[i].owner  # pyright: ignore
        fused = fold_fill_input(consumer, i)
        if fused is not None:
            if not has_loop_ranges(fused):
                fused.erase()
                continue
        else:
            producer = fusable_producer(consumer, i)
            if producer is None or _weight(consumer, weights) + _weight(producer, weights) > max_weight:
                continue
            _, maps = fused_operands(consumer, i, producer)
            if not _loop_ranges_of(maps, len(consumer.iterator_types.data)):
                continue
            if producer.results[0].uses.get_length() > 1:
                # Recomputed: a copy fuses into this consumer, the others keep the original.
                copy = producer.clone()
                block = producer.parent_block()
                assert block is not None
                block.insert_op_before(copy, producer)
                consumer.operands[i] = copy.results[0]
                producer = copy
            fused = fuse(consumer, i, producer)
        block = consumer.parent_block()
        assert block is not None
        block.insert_op_before(fused, consumer)
        for old, new in zip(consumer.results, fused.results):
            old.replace_all_uses_with(new)
            if old.name_hint:
                new.name_hint = old.name_hint
        weights[fused] = _weight(consumer, weights) + (_weight(producer, weights) if isinstance(producer, GenericOp) else 0)
        consumer.detach()
        consumer.erase()
        _erase_if_dead(producer)
        return fused
    return None


__all__ = ["MAX_BODY_WEIGHT", "LinalgFuseElementwisePass", "body_weight", "fusable_producer", "fuse", "fused_operands", "has_loop_ranges"]
