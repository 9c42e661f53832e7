"""`linalg-fold-broadcasts`: index through broadcasts and transposes instead of
materializing them.

`broadcast_in_dim`, `broadcast` and `transpose` lower to *view generics*: one
input, one output, all-parallel, a body that yields its input element, an
identity output map and an input map whose results are loop dimensions or the
constant 0 (a broadcast drops dimensions, a degenerate dimension reads index 0,
a transpose permutes). Such a generic copies memory that its neighbours can
address directly:

* **into consumers**: a generic reading the view's result through map `C` reads
  the view's input through `V ∘ C` instead (`V` the view's input map), so
  `x - broadcast(m)` reads `m` per row and no `1024x1024` temporary is written.
  Every generic consumer is rewritten; the view goes when nobody else uses it.
* **into a producer** (a transpose of a value only it reads): the producer,
  a generic with one result, writes the transposed tensor directly, its output
  map composed with the inverse permutation. For `einsum('hqk,khd->qhd')` JAX
  emits `dot_general -> transpose [2, 0, 1]`: the contraction then writes the
  `qhd` result itself (its output map `(b, n, k, m) -> (m, b, n)`), with no
  temporary and no copy into the out-parameter after bufferization. The
  producer's init (a `linalg.fill` or `tensor.empty` of its own) is rebuilt in
  the transposed shape.

* **index generics into consumers** (an `iota`: no input, a body computing its
  element from `linalg.index` alone): every generic reading it through a map
  of loop dimensions computes the element itself, the producer's body cloned
  at the start of its own with `linalg.index i` renamed to the consumer's
  dimension that map result `i` names (`"iota"`). argmax's index operand, a
  `1024x1024xi32` of column numbers, becomes `linalg.index 1` in the
  reduction's body (which `linalg-vectorize-reductions` turns into a vector
  of positions).

* **unit reshapes into consumers**: a `tensor.expand_shape`/`collapse_shape`, or
  a chain of them, that only adds or drops dimensions of size 1 (the dimensions
  larger than 1 are the same, in the same order: `mean(x, keepdims=True)`
  reshapes `1024` to `1024x1`, attention's `8x256` becomes `2048` then
  `8x256x1`) is read through by its generic consumers: the consumer's map keeps
  its results for those dimensions and reads the source's unit dimensions at 0
  (`"reshape"`). A reshape between two generics would otherwise end
  `linalg-fuse-reductions`'s row group there: layer norm's mean and variance, or
  softmax's max and sum, then cross memory apart.

A rewrite that would leave a loop of the consumer without a range (no operand
indexing it by a plain dimension) is not made. Other reshapes stay: bufferization
turns them into views.
The rewritten ops carry `fusion` attributes naming what was folded
(`"broadcast"`, `"transpose"`), so decisions show in `--print-ir-after-all`.
One walk in program order, each view visited once: linear in program size.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowering.codegen.linalg_fuse_elementwise import has_loop_ranges

FUSION_ATTR = "fusion"
"""The attribute naming what a pass of fusion folded into an op (comma-separated)."""


def note_fusion(op: Operation, what: str) -> None:
    """Add `what` to the op's `fusion` attribute (once)."""
    old = op.attributes.get(FUSION_ATTR)
    items = old.data.split(",") if isinstance(old, StringAttr) else []
    if what not in items:
        items.append(what)
    op.attributes[FUSION_ATTR] = StringAttr(",".join(items))


def is_view_generic(op: Operation) -> bool:
    """Whether `op` only copies its input through a broadcast/permutation map."""
    if (
        not isinstance(op, GenericOp)
        or len(op.inputs) != 1
        or len(op.outputs) != 1
        or len(op.results) != 1
    ):
        return False
    if not isinstance(op.inputs[0].type, TensorType):
        return False
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types.data):
        return False
    in_map, out_map = (m.data for m in op.indexing_maps.data)
    if out_map != AffineMap.identity(out_map.num_dims):
        return False
    if not all(
        isinstance(e, AffineDimExpr) or (isinstance(e, AffineConstantExpr) and e.value == 0)
        for e in in_map.results
    ):
        return False
    ops = list(op.body.block.ops)
    return (
        len(ops) == 1
        and isinstance(ops[0], YieldOp)
        and ops[0].operands[0] is op.body.block.args[0]
        and not any(isinstance(o, IndexOp) for o in ops)
    )


def _kind(view: GenericOp) -> str:
    in_map = view.indexing_maps.data[0].data
    return (
        "transpose"
        if in_map.num_dims == len(in_map.results) and in_map.is_projected_permutation()
        else "broadcast"
    )


def _read_through(consumer: GenericOp, index: int, source: SSAValue, new_map: AffineMap, kind: str) -> int:
    """Let `consumer` read input `index` from `source` through `new_map` instead: kept
    (1) if its loops still have ranges, else restored (0); marks the fusion `kind`."""
    old_value = consumer.operands[index]
    old_maps = consumer.indexing_maps
    maps = list(old_maps.data)
    maps[index] = AffineMapAttr(new_map)
    consumer.indexing_maps = ArrayAttr(maps)
    consumer.operands[index] = source
    if not has_loop_ranges(consumer):
        consumer.operands[index] = old_value
        consumer.indexing_maps = old_maps
        return 0
    note_fusion(consumer, kind)
    return 1


def fold_into_consumers(view: GenericOp) -> int:
    """Make every generic reading `view`'s result read its input instead; return
    how many operands were rewritten."""
    source = view.inputs[0]
    view_map = view.indexing_maps.data[0].data
    kind = _kind(view)
    folded = 0
    for use in list(view.results[0].uses):
        consumer = use.operation
        if not isinstance(consumer, GenericOp) or use.index >= len(consumer.inputs):
            continue
        old_map = consumer.indexing_maps.data[use.index].data
        folded += _read_through(consumer, use.index, source, view_map.compose(old_map), kind)
    return folded


_RESHAPES = (tensor.ExpandShapeOp, tensor.CollapseShapeOp)


def _static_shape(value: SSAValue) -> list[int] | None:
    t = value.type
    if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
        return None
    return list(t.get_shape())


def _non_unit(shape: list[int]) -> list[int]:
    return [d for d in shape if d != 1]


def _contraction_like(op: GenericOp) -> bool:
    """A reduction reading an operand that not every loop indexes (a matmul)."""
    if not any(it.data == IteratorType.REDUCTION for it in op.iterator_types.data):
        return False
    n = len(op.iterator_types.data)
    return any(len(m.data.used_dims()) != n for m in op.indexing_maps.data[: len(op.inputs)])


def unit_reshape_source(op: Operation) -> SSAValue | None:
    """For a reshape (or the last of a chain of reshapes) whose result has the same
    dimensions larger than 1, in the same order, as a value earlier in the chain:
    the earliest such value. Row-major order is kept, so element `i` of each
    non-unit dimension of one is element `i` of the same dimension of the other
    (`8x256 -> 2048 -> 8x256x1` is `8x256` with a unit dimension added)."""
    if not isinstance(op, _RESHAPES):
        return None
    shape = _static_shape(op.results[0])
    if shape is None:
        return None
    target = _non_unit(shape)
    found: SSAValue | None = None
    value: SSAValue = op.src
    while True:
        source_shape = _static_shape(value)
        if source_shape is None:
            break
        if _non_unit(source_shape) == target:
            found = value
        owner = value.owner
        if not isinstance(owner, _RESHAPES):
            break
        value = owner.src
    return found


def fold_unit_reshape(op: Operation) -> int:
    """Make every generic reading the result of `op`, a unit reshape, read its
    source (`unit_reshape_source`) instead; return how many operands were rewritten."""
    source = unit_reshape_source(op)
    if source is None:
        return 0
    source_shape, result_shape = _static_shape(source), _static_shape(op.results[0])
    assert source_shape is not None and result_shape is not None
    result_dims = [k for k, d in enumerate(result_shape) if d != 1]
    folded = 0
    for use in list(op.results[0].uses):
        consumer = use.operation
        if not isinstance(consumer, GenericOp) or use.index >= len(consumer.inputs):
            continue
        if _contraction_like(consumer):  # its code generator matches the maps it has
            continue
        old_map = consumer.indexing_maps.data[use.index].data
        big = iter(result_dims)
        results = tuple(old_map.results[next(big)] if d != 1 else AffineConstantExpr(0) for d in source_shape)
        new_map = AffineMap(old_map.num_dims, old_map.num_symbols, results)
        folded += _read_through(consumer, use.index, source, new_map, "reshape")
    return folded


def is_index_generic(op: Operation) -> bool:
    """Whether `op` computes each element from `linalg.index` and constants alone
    (an iota): no input, one output whose value it does not read, identity map."""
    if not isinstance(op, GenericOp) or op.inputs or len(op.outputs) != 1 or len(op.results) != 1:
        return False
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types.data):
        return False
    out_map = op.indexing_maps.data[0].data
    if out_map != AffineMap.identity(out_map.num_dims) or op.body.block.args[0].uses:
        return False
    return all(not inner.regions and inner.dialect_name() in ("arith", "linalg") for inner in op.body.block.ops)


def fold_index_generic(producer: GenericOp) -> list[GenericOp]:
    """Inline the index generic `producer` into each generic reading it through a map
    of loop dimensions; return the rewritten consumers (one use at a time, so a
    consumer reading it twice is rebuilt twice)."""
    rebuilt_ops: list[GenericOp] = []
    tried: set[tuple[int, int]] = set()
    while True:
        use = next(
            (
                u
                for u in producer.results[0].uses
                if isinstance(u.operation, GenericOp)
                and u.index < len(u.operation.inputs)
                and (id(u.operation), u.index) not in tried
            ),
            None,
        )
        if use is None:
            break
        consumer = use.operation
        assert isinstance(consumer, GenericOp)
        tried.add((id(consumer), use.index))
        consumer_map = consumer.indexing_maps.data[use.index].data
        if not all(isinstance(e, AffineDimExpr) for e in consumer_map.results):
            continue
        maps = [m for k, m in enumerate(consumer.indexing_maps.data) if k != use.index]
        operands = [v for k, v in enumerate(consumer.operands) if k != use.index]
        n_in = len(consumer.inputs) - 1
        trial = GenericOp(
            operands[:n_in], operands[n_in:], Region(Block()), ArrayAttr(maps), consumer.iterator_types, consumer.result_types
        )
        ranged = has_loop_ranges(trial)
        trial.erase()
        if not ranged:
            continue
        block = consumer.body.block
        first = block.first_op
        mapping: dict[SSAValue, SSAValue] = {}
        yielded: SSAValue | None = None
        for inner in producer.body.block.ops:
            if isinstance(inner, YieldOp):
                yielded = mapping.get(inner.operands[0], inner.operands[0])
                break
            clone = inner.clone(value_mapper=mapping)
            if isinstance(clone, IndexOp):
                expr = consumer_map.results[clone.dim.value.data]
                assert isinstance(expr, AffineDimExpr)
                clone.dim = IntegerAttr(expr.position, i64)
            block.insert_op_before(clone, first) if first is not None else block.add_op(clone)
            mapping.update(zip(inner.results, clone.results))
        assert yielded is not None
        arg = block.args[use.index]
        arg.replace_all_uses_with(yielded)
        block.erase_arg(arg)
        rebuilt = GenericOp(
            operands[:n_in],
            operands[n_in:],
            consumer.detach_region(consumer.body),
            ArrayAttr(maps),
            consumer.iterator_types,
            consumer.result_types,
        )
        for name, attr in consumer.attributes.items():
            rebuilt.attributes.setdefault(name, attr)
        Rewriter.replace_op(consumer, rebuilt)
        note_fusion(rebuilt, "iota")
        rebuilt_ops = [r for r in rebuilt_ops if r is not consumer] + [rebuilt]
    return rebuilt_ops


def _rebuilt_init(init: SSAValue, new_type: TensorType) -> SSAValue | None:
    """A fresh init of `new_type` made as `init` is (a fill of an empty tensor, or
    an empty tensor), inserted beside it; None for any other init."""
    owner = init.owner
    if isinstance(owner, tensor.EmptyOp):
        empty = tensor.EmptyOp([], new_type)
        owner.parent_block().insert_op_before(empty, owner)  # pyright: ignore[reportOptionalMemberAccess]
        return empty.tensor
    if (
        isinstance(owner, FillOp)
        and len(owner.inputs) == 1
        and isinstance(owner.outputs[0].owner, tensor.EmptyOp)
    ):
        empty = tensor.EmptyOp([], new_type)
        fill = FillOp([owner.inputs[0]], [empty.tensor], [new_type])
        block = owner.parent_block()
        assert block is not None
        block.insert_ops_before([empty, fill], owner)
        return fill.results[0]
    return None


def fold_into_producer(view: GenericOp) -> GenericOp | None:
    """The producer of a transpose's input, rebuilt to write the transposed tensor;
    None when it does not apply."""
    if _kind(view) != "transpose":
        return None
    value = view.inputs[0]
    producer = value.owner
    if (
        not isinstance(producer, GenericOp)
        or len(producer.results) != 1
        or len(producer.outputs) != 1
    ):
        return None
    if value.uses.get_length() != 1 or producer.parent_block() is not view.parent_block():
        return None
    init = producer.outputs[0]
    if init.uses.get_length() != 1:
        return None
    inverse = view.indexing_maps.data[0].data.inverse_permutation()
    if inverse is None:
        return None
    new_type = view.results[0].type
    assert isinstance(new_type, TensorType)
    new_init = _rebuilt_init(init, new_type)  # pyright: ignore[reportUnknownArgumentType]
    if new_init is None:
        return None
    maps = list(producer.indexing_maps.data)
    maps[-1] = AffineMapAttr(inverse.compose(maps[-1].data))
    new = GenericOp(
        list(producer.inputs),
        [new_init],
        producer.detach_region(producer.body),
        ArrayAttr(maps),
        producer.iterator_types,
        [new_type],
    )
    for name, attr in producer.attributes.items():
        if name not in new.attributes:
            new.attributes[name] = attr
    note_fusion(new, "transpose")
    block = view.parent_block()
    assert block is not None
    block.insert_op_before(new, view)
    view_init = view.outputs[0]
    view.results[0].replace_all_uses_with(new.results[0])
    if view.results[0].name_hint:
        new.results[0].name_hint = view.results[0].name_hint
    view.detach()
    view.erase()
    producer.detach()
    producer.erase()
    _erase_dead(init.owner)
    _erase_dead(view_init.owner)
    return new


def _erase_dead(op: Operation | SSAValue | None) -> None:
    if isinstance(op, (FillOp, tensor.EmptyOp)) and not any(r.uses for r in op.results):
        operands = list(op.operands)
        op.detach()
        op.erase()
        for v in operands:
            _erase_dead(v.owner)  # pyright: ignore[reportArgumentType]


@dataclass(frozen=True)
class LinalgFoldBroadcastsPass(ModulePass):
    """Fold broadcast and transpose generics into the indexing maps of their
    consumers, and transposes into their producer's output map."""

    name = "linalg-fold-broadcasts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        worklist = [inner for inner in op.walk() if is_index_generic(inner)]
        while worklist:  # a consumer left with no input (a convert of an iota) is one too
            iota = worklist.pop()
            assert isinstance(iota, GenericOp)
            if iota.parent is None:
                continue
            worklist += [r for r in fold_index_generic(iota) if is_index_generic(r)]
            if not iota.results[0].uses:
                init = iota.outputs[0]
                iota.detach()
                iota.erase()
                _erase_dead(init.owner)
        reshapes = [inner for inner in op.walk() if isinstance(inner, _RESHAPES)]
        for reshape in reversed(reshapes):  # the last of a chain first: its sources go after it
            fold_unit_reshape(reshape)
            if not reshape.results[0].uses:
                reshape.detach()
                reshape.erase()
        views = [inner for inner in op.walk() if is_view_generic(inner)]
        for view in views:
            assert isinstance(view, GenericOp)
            if view.parent is None:  # erased as the producer of an earlier transpose
                continue
            if fold_into_producer(view) is not None:
                continue
            fold_into_consumers(view)
            if not view.results[0].uses:
                init = view.outputs[0]
                view.detach()
                view.erase()
                _erase_dead(init.owner)


__all__ = [
    "FUSION_ATTR",
    "LinalgFoldBroadcastsPass",
    "fold_index_generic",
    "fold_into_consumers",
    "fold_into_producer",
    "fold_unit_reshape",
    "is_index_generic",
    "is_view_generic",
    "note_fusion",
    "unit_reshape_source",
]
