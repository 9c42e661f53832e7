"""`linalg-fuse-elementwise`: producer-consumer fusion of generics on tensors.

Each `xla` element-wise op lowers to its own generic, so a chain of n ops makes
n loops and n - 1 temporary tensors. This pass inlines a producer generic into
its consumer when that is free of recomputation:

* the producer is all-parallel, has one result, an identity output map, no
  `linalg.index` and does not read its output block argument;
* its result has exactly one use, an `ins` operand of the consumer;
* the consumer reads it through a permutation of all its dimensions that covers
  the producer's rank (so each produced element is consumed exactly once).

The fused generic reads the producer's inputs through `producer_map ∘
consumer_map` and computes the producer's body right before the consumer's.
An input made by `linalg.fill` (splat constants, scalars broadcast by the
spec's implicit broadcasting) is replaced by the fill value in the body.
Neither rewrite happens when the result would leave a loop without a range
(no operand indexing it by a plain dimension).
Repeated to a fixed point, a chain of element-wise ops (and an element-wise
prologue of a reduction) becomes one loop nest. As MLIR's
`linalg-fuse-elementwise-ops`, but on xDSL's linalg.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass


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


def fusable_producer(consumer: GenericOp, operand_index: int) -> GenericOp | None:
    """The producer of input `operand_index` of `consumer` if it can be fused."""
    value = consumer.inputs[operand_index]
    producer = value.owner
    if not isinstance(producer, GenericOp) or len(producer.results) != 1 or len(producer.outputs) != 1:
        return None
    if value.uses.get_length() != 1:
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
    """A generic computing `consumer` with `producer` inlined at input `operand_index`."""
    consumer_maps = [m.data for m in consumer.indexing_maps.data]
    producer_maps = [m.data for m in producer.indexing_maps.data]
    n_in = len(consumer.inputs)
    fused_map = consumer_maps[operand_index]
    new_inputs: list[SSAValue] = []
    new_maps: list[AffineMap] = []
    for i in range(n_in):
        if i == operand_index:
            new_inputs.extend(producer.inputs)
            new_maps.extend(pm.compose(fused_map) for pm in producer_maps[: len(producer.inputs)])
        else:
            new_inputs.append(consumer.inputs[i])
            new_maps.append(consumer_maps[i])
    new_maps.extend(consumer_maps[n_in:])

    c_block, p_block = consumer.body.block, producer.body.block
    arg_types = [a.type for a in c_block.args[:operand_index]]
    arg_types += [a.type for a in p_block.args[: len(producer.inputs)]]
    arg_types += [a.type for a in c_block.args[operand_index + 1 :]]
    block = Block(arg_types=arg_types)
    values: dict[SSAValue, SSAValue] = {}
    k = 0
    for i, arg in enumerate(c_block.args):
        if i == operand_index:
            for p_arg in p_block.args[: len(producer.inputs)]:
                values[p_arg] = block.args[k]
                k += 1
        else:
            values[arg] = block.args[k]
            k += 1
    for op in p_block.ops:
        if isinstance(op, YieldOp):
            values[c_block.args[operand_index]] = values.get(op.operands[0], op.operands[0])
            continue
        block.add_op(op.clone(value_mapper=values))
    for op in c_block.ops:
        block.add_op(op.clone(value_mapper=values))
    return GenericOp(
        new_inputs,
        list(consumer.outputs),
        Region(block),
        ArrayAttr([AffineMapAttr(m) for m in new_maps]),
        consumer.iterator_types,
        consumer.result_types,
    )


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
    return GenericOp(
        inputs, list(consumer.outputs), Region(new_block), ArrayAttr(maps), consumer.iterator_types, consumer.result_types
    )


def _erase_if_dead(op: Operation | None) -> None:
    if op is not None and isinstance(op, (GenericOp, FillOp, tensor.EmptyOp)) and not any(r.uses for r in op.results):
        operands = list(op.operands)
        op.detach()
        op.erase()
        for v in operands:
            _erase_if_dead(v.owner if isinstance(v.owner, Operation) else None)


@dataclass(frozen=True)
class LinalgFuseElementwisePass(ModulePass):
    """Fuse single-use element-wise producers into their consumers, to a fixed point."""

    name = "linalg-fuse-elementwise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = True
        while changed:
            changed = False
            for consumer in list(op.walk()):
                if not isinstance(consumer, GenericOp) or consumer.parent is None:
                    continue
                for i in range(len(consumer.inputs)):
                    producer: Operation | None = consumer.inputs[i].owner  # pyright: ignore
                    fused = fold_fill_input(consumer, i)
                    if fused is None:
                        producer = fusable_producer(consumer, i)
                        if producer is None:
                            continue
                        fused = fuse(consumer, i, producer)
                    if not has_loop_ranges(fused):
                        fused.erase()
                        continue
                    block = consumer.parent_block()
                    assert block is not None
                    block.insert_op_before(fused, consumer)
                    for old, new in zip(consumer.results, fused.results):
                        old.replace_all_uses_with(new)
                        if old.name_hint:
                            new.name_hint = old.name_hint
                    consumer.detach()
                    consumer.erase()
                    _erase_if_dead(producer)
                    changed = True
                    break


__all__ = ["LinalgFuseElementwisePass", "fusable_producer", "fuse", "has_loop_ranges"]
