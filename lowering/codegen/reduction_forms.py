"""Which reductions `linalg-vectorize-reductions` (`vectorize_reductions.py`)
vectorizes, and in which form: the combining ops it may reorder (`COMBINERS`,
`row_combiners`), the structure of a selection reduction such as argmax
(`row_selection`), and the `Plan` of a generic (`plan`). Analysis only: nothing
here changes the IR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerType,
    MemRefType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.dialects.vector import CombiningKindFlag
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

from lowering.codegen.fuse_reductions import contraction_like
from lowering.to_llvm.common import memref_strides

# ---------------------------------------------------------------------------
# Combiners of the row form
# ---------------------------------------------------------------------------

_INF = float("inf")


@dataclass(frozen=True)
class Combiner:
    kind: CombiningKindFlag
    identity: Callable[[Attribute], float | int]
    """The neutral element for an element type."""
    needs_reassoc: bool = False


def _int_bits(t: Attribute) -> int:
    assert isinstance(t, IntegerType)
    return t.width.data


COMBINERS: dict[type[Operation], Combiner] = {
    arith.AddfOp: Combiner(CombiningKindFlag.ADD, lambda t: -0.0, needs_reassoc=True),
    arith.MulfOp: Combiner(CombiningKindFlag.MUL, lambda t: 1.0, needs_reassoc=True),
    arith.MaximumfOp: Combiner(CombiningKindFlag.MAXIMUMF, lambda t: -_INF),
    arith.MinimumfOp: Combiner(CombiningKindFlag.MINIMUMF, lambda t: _INF),
    arith.AddiOp: Combiner(CombiningKindFlag.ADD, lambda t: 0),
    arith.MuliOp: Combiner(CombiningKindFlag.MUL, lambda t: 1),
    arith.AndIOp: Combiner(CombiningKindFlag.AND, lambda t: -1),
    arith.OrIOp: Combiner(CombiningKindFlag.OR, lambda t: 0),
    arith.XOrIOp: Combiner(CombiningKindFlag.XOR, lambda t: 0),
    arith.MaxSIOp: Combiner(CombiningKindFlag.MAXSI, lambda t: -(1 << (_int_bits(t) - 1))),
    arith.MinSIOp: Combiner(CombiningKindFlag.MINSI, lambda t: (1 << (_int_bits(t) - 1)) - 1),
    arith.MaxUIOp: Combiner(CombiningKindFlag.MAXUI, lambda t: 0),
    arith.MinUIOp: Combiner(CombiningKindFlag.MINUI, lambda t: -1),
}
"""The combining ops the row form reorders, with their `vector.reduction` kind."""


def row_combiners(op: GenericOp) -> list[Operation] | None:
    """For each output, the op combining its accumulator with a value computed from
    the inputs alone, or None when an output has no such reorderable combiner."""
    block = op.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, YieldOp)
    accumulators = block.args[len(op.inputs) :]
    depends: set[SSAValue] = set(accumulators)
    for inner in block.ops:
        if any(v in depends for v in inner.operands):
            depends.update(inner.results)
    combiners: list[Operation] = []
    for k, acc in enumerate(accumulators):
        uses = list(acc.uses)
        if len(uses) != 1:
            return None
        user = uses[0].operation
        combiner = COMBINERS.get(type(user))
        if combiner is None or yield_op.operands[k] is not user.results[0]:
            return None
        other = user.operands[1 - uses[0].index]
        if other in depends or len(list(user.results[0].uses)) != 1:
            return None
        if combiner.needs_reassoc:
            flags = getattr(user, "fastmath", None)
            if flags is None or FastMathFlag.REASSOC not in flags.data:
                return None
        combiners.append(user)
    return combiners


# ---------------------------------------------------------------------------
# Selection reductions of the row form (argmax: a value and its position)
# ---------------------------------------------------------------------------


def dependents(block: Block, roots: Sequence[SSAValue]) -> set[SSAValue]:
    """The values of `block` computed (transitively) from `roots`, roots included."""
    found: set[SSAValue] = set(roots)
    for inner in block.ops:
        if any(v in found for v in inner.operands):
            found.update(inner.results)
    return found


def _is_position(value: SSAValue, v: int) -> bool:
    """Whether `value` is `arith.index_cast (linalg.index v)`."""
    owner = value.owner
    if not isinstance(owner, arith.IndexCastOp):
        return False
    source = owner.input.owner
    return isinstance(source, IndexOp) and source.dim.value.data == v


@dataclass(frozen=True)
class Selection:
    """Each output `k` is `select(p_k, acc_k, x_k)` (or with `x_k` first): the body
    picks an element, and output `position` is the element's index along `v`."""

    values: tuple[SSAValue, ...]
    """`x_k`, the candidate of each output, computed from the inputs alone."""
    position: int


def row_selection(op: GenericOp, v: int) -> Selection | None:
    """The selection structure of `op`'s body, or None."""
    block = op.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, YieldOp)
    accumulators = list(block.args[len(op.inputs) :])
    from_acc = dependents(block, accumulators)
    index_ops = [o.results[0] for o in block.ops if isinstance(o, IndexOp)]
    from_inputs = dependents(block, [*block.args[: len(op.inputs)], *index_ops])
    values: list[SSAValue] = []
    for k, acc in enumerate(accumulators):
        select = yield_op.operands[k].owner
        if not isinstance(select, arith.SelectOp):
            return None
        pair = [select.lhs, select.rhs]
        if acc not in pair:
            return None
        x = pair[1 - pair.index(acc)]
        if x in from_acc:
            return None
        values.append(x)
    positions = [k for k, x in enumerate(values) if _is_position(x, v)]
    if len(positions) != 1:
        return None
    # A merge of two partial results runs the ops that read an accumulator with the
    # candidates replaced: every other value they read must be a candidate.
    for inner in block.ops:
        if isinstance(inner, YieldOp) or not any(r in from_acc for r in inner.results):
            continue
        for operand in inner.operands:
            if operand in from_inputs and operand not in from_acc and operand not in values:
                return None
    return Selection(tuple(values), positions[0])


# ---------------------------------------------------------------------------
# Which generics, in which form
# ---------------------------------------------------------------------------

ELEMENTS = (Float32Type, Float64Type)


def _element_ok(t: Attribute) -> bool:
    if isinstance(t, ELEMENTS):
        return True
    return isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64)


def _body_ok(op: GenericOp, v: int) -> bool:
    """Element-wise `arith`/`math` ops on supported types, and `linalg.index`; the
    index along `v` only converted to an integer (it becomes a vector of positions)."""
    for inner in op.body.block.ops:
        if isinstance(inner, YieldOp):
            continue
        if isinstance(inner, IndexOp):
            if inner.dim.value.data == v and not all(
                isinstance(u.operation, arith.IndexCastOp) and _element_ok(u.operation.result.type)
                for u in inner.result.uses
            ):
                return False
            continue
        if inner.dialect_name() not in ("arith", "math") or inner.regions:
            return False
        for r in inner.results:
            t = r.type
            if not (_element_ok(t) or (isinstance(t, IntegerType) and t.width.data == 1)):
                return False
    return True


@dataclass(frozen=True)
class Plan:
    """How one generic is vectorized."""

    form: str
    """'row' (the innermost dimension is reduced by reorderable combiners),
    'select' (it is reduced by a selection: argmax) or 'column' (it is parallel)."""
    sizes: tuple[int, ...]
    """The extent of each iteration dimension."""
    lanes: int
    accumulators: int
    parallel_outer: int | None
    """The dimension whose loop becomes an `scf.parallel`, if any."""
    rows: int = 0
    """Column form: iterations of the outermost reduced dimension per block of
    outputs held in registers (0: all of them, one block after another)."""
    panel: int = 0
    """Column form with `rows`: the outputs (along `v`) whose blocks take turns
    within each group of `rows`, a whole number of blocks."""
    streams: int = 1
    """Row form: contiguous segments of the reduced range read side by side, each
    with `accumulators` vectors per output (1: one stream, the range in order)."""


def plan(
    op: GenericOp,
    lanes: int,
    accumulators: int,
    reassociate: bool = True,
    column_vectors: int = 16,
    column_rows: int = 0,
    column_bytes: int = 0,
    streams: int = 1,
    stream_bytes: int = 0,
) -> Plan | None:
    """The plan for `op` (see the module docstring), or None to leave it alone.
    `accumulators` per output in the row forms; `column_vectors` vectors (shared by
    the outputs) per block of the column form; `column_rows` rows per block and a
    panel of outputs of at most `column_bytes` (at least one block) in the column
    form (`Plan.rows`, `Plan.panel`; 0: blocks walk the whole reduction). A row form
    whose inputs give a row of at least `stream_bytes` (> 0) is read as `streams`
    segments side by side (`Plan.streams`; the `accumulators` shared among them,
    at least one each) when `reassociate` allows and every stream gets a step."""
    iterators = [it.data for it in op.iterator_types.data]
    if op.res or not iterators or IteratorType.REDUCTION not in iterators or not op.outputs:
        return None
    n = len(iterators)
    v = n - 1
    if contraction_like(op) or not _body_ok(op, v) or any(o in op.inputs for o in op.outputs):
        return None  # (an output read as an input would be read stale from memory)
    maps = [m.data for m in op.indexing_maps.data]
    if any(not all(isinstance(e, AffineDimExpr) for e in m.results) for m in maps):
        return None
    sizes: list[int] = [-1] * n
    for value, m in zip(op.operands, maps):
        t = value.type
        if not isinstance(t, MemRefType) or not _element_ok(t.get_element_type()):
            return None
        shape = t.get_shape()
        if any(s < 0 for s in shape):
            return None
        try:
            strides = memref_strides(t)
        except ValueError:
            return None
        for position, (e, s) in enumerate(zip(m.results, shape)):
            assert isinstance(e, AffineDimExpr)
            sizes[e.position] = s
            if e.position == v and (position != len(m.results) - 1 or strides[-1] != 1):
                return None  # not read contiguously along v
    if any(s < 1 for s in sizes):
        return None
    out_maps = maps[len(op.inputs) :]
    if iterators[v] == IteratorType.REDUCTION:
        if row_combiners(op) is not None:
            form = "row"
        elif reassociate and row_selection(op, v) is not None:
            form = "select"
        else:
            return None
    else:
        form = "column"
        if any(not m.results or m.results[-1] != AffineDimExpr(v) for m in out_maps):
            return None
    if sizes[v] < lanes:
        return None
    per_block = max(1, column_vectors // len(op.outputs)) if form == "column" else accumulators
    k = max(1, min(per_block, sizes[v] // lanes))
    if form == "column":  # the loops outside the reduction: parallel dimensions, then blocks of v
        order = [d for d in range(n) if iterators[d] == IteratorType.PARALLEL and d != v] + [v]
    else:
        order = [d for d in range(n) if d != v]
    outer = next((d for d in order if sizes[d] > 1), None)
    parallel_outer = None
    if (
        outer is not None
        and iterators[outer] == IteratorType.PARALLEL
        and all(AffineDimExpr(outer) in m.results for m in out_maps)
    ):
        parallel_outer = outer
    rows = panel = 0
    if form == "column" and column_rows > 0:
        first = next(d for d in range(n) if iterators[d] == IteratorType.REDUCTION)
        width = lanes * k
        per_column = sum(_element_bytes(o) for o in op.outputs)
        rows = min(column_rows, sizes[first])
        panel = max(width, min(sizes[v] // width * width, column_bytes // per_column // width * width))
    n_streams = 1
    if form == "row" and reassociate and streams > 1 and stream_bytes > 0:
        row_bytes = sizes[v] * sum(_element_bytes(x) for x, m in zip(op.inputs, maps) if AffineDimExpr(v) in m.results)
        per_stream = max(1, k // streams)
        if row_bytes >= stream_bytes and sizes[v] >= streams * lanes * per_stream:
            n_streams, k = streams, per_stream
    return Plan(form, tuple(sizes), lanes, k, parallel_outer, rows, panel, n_streams)


def _element_bytes(value: SSAValue) -> int:
    t = value.type
    assert isinstance(t, MemRefType)
    e = t.get_element_type()
    return (e.width.data if isinstance(e, IntegerType) else e.bitwidth) // 8


__all__ = ["COMBINERS", "ELEMENTS", "Combiner", "Plan", "Selection", "dependents", "plan", "row_combiners", "row_selection"]
