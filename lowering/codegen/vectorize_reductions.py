"""`linalg-vectorize-reductions`: reductions with partial results in vector registers
(MLIR's `vector.multi_reduction` lowered by hand; XLA's row and column reduction
emitters).

Takes a `linalg.generic` on buffers that reduces (at least one `reduction`
iterator) and whose innermost dimension `v` is read contiguously (the minor
dimension, unit stride, of every operand that uses it), and emits loops with
explicit `vector` ops instead of the scalar loop nest `convert-linalg-to-loops`
would make. Its body is cloned on vectors of `lanes` elements: each element-wise
`arith`/`math` op becomes the same op on vectors (scalars defined outside the
generic or in an operand that `v` does not index are broadcast). Two forms:

**Row form** (`v` is a reduction: sum/max over the minor dimension, a full
reduction): `accumulators` independent vectors per output (the latency of the
combining add or max is hidden behind independent chains) start at the
combiner's identity; each iteration loads `accumulators` vectors of each input
and combines them lane-wise. After the loop the vectors are combined lane-wise
into one, reduced horizontally (`vector.reduction`) and combined with the
output's initial value; the elements left over (fewer than `lanes *
accumulators`) run as a scalar loop. The order changes, so each output must be
combined by one op of a known kind:

* exact in any order, always vectorized: `maximumf`/`minimumf` (NaN propagates
  from any lane; `-0.0 < +0.0` is part of their order, so the result does not
  depend on it), integer `add`, `mul`, `and`, `or`, `xor`, `max*`, `min*`
  (two's complement wraps the same in any order);
* float `addf`/`mulf`: only when the combiner carries `reassoc`, which
  `linalg-reassociate-reductions` sets unless `reassociate=false`
  (`compile(..., reassociate=False)`): then such a reduction keeps the spec's
  order. The identity of `addf` is `-0.0`, so a sum of `-0.0`s stays `-0.0`.
  Order: element `j` of the reduced range goes to lane `j mod lanes` of
  accumulator `(j / lanes) mod accumulators`; the accumulators are combined as a
  balanced tree (0 with 1, 2 with 3, ...), then LLVM's horizontal reduction,
  then the output's initial value, then the scalar remainder in order.

A row whose inputs hold at least `stream_bytes` (default: the L2 cache; such a
row comes from L3 or memory) is read as `streams` (4) segments side by side,
when `reassociate` allows: one core keeps more lines in flight reading 4 places
than one, and reads a 64 MiB sum about 10% faster (`bench_stream_limit.py`).
Each stream has `accumulators / streams` accumulators (at least one); with N
elements, `step = lanes * that`, the segments are `[s * L, (s + 1) * L)` with
`L = N // (streams * step) * step`, and accumulator slot `s * (accumulators /
streams) + u` takes the elements `j` of segment `s` with `(j - s * L) / lanes =
u mod (accumulators / streams)`. The slots then combine as above (balanced
tree in slot order, lanes, initial value), and the elements from `streams * L`
on run as the scalar remainder in order. The order depends on the row's length
alone, never on the thread count (threads split the loops outside the row).
Max/min read the same way (exact in any order). With `reassociate=false` every
row is read in order (one stream).

A float `maximumf`/`minimumf` of one output runs without `llvm.maximum` (six
instructions per vector), checked (`checked_extremum`): the ordered
`select(x > acc, x, acc)` (one `vmaxps`) beside the AND of `x ord x` (one masked
`vcmpordps`, which LLVM shares between two vectors). Without a NaN the ordered
result equals the exact one and is it bit for bit unless it is a zero, so only a
row that had a NaN or whose result is a zero is reduced again, exactly
(`fast_extremum`: the last NaN seen and the AND (max) or OR (min) of the
elements' bits, which give the sign of a zero result).

**Selection form** (`v` reduced by a variadic body that picks an element:
argmax's value and index pair, chosen by compares and selects): every output
is `select(p, acc, x)` (either order) of its accumulator and a candidate `x`
computed from the inputs, and one output's candidate is the position along `v`
(`index_cast(linalg.index v)`, which `linalg-fold-broadcasts` makes of an
iota operand; in a vector clone it is the vector `base + [0, 1, ...]`). Each
accumulator starts as the candidates of one of the first vectors and runs the
body lane-wise. Partial results are merged by the body itself with the one
holding the smaller position on the left (two accumulators, then the halves of
the lanes, by `vector.shuffle`), so ties keep the smallest index and, with
JAX's argmax body, the first NaN wins as in the spec's order; then the output's
initial value is combined on the left, as the spec passes it, and the
remainder runs in order. The value output of a tie between `-0.0` and `+0.0`
may be either zero. Skipped with `reassociate=false`.

**Column form** (`v` is parallel and some other dimension is a reduction: a sum
over the rows of a matrix, argmax along a major dimension): each lane is a
different output element, so the reduction order is the spec's for any body,
variadic ones included. Blocks of `column_vectors * lanes` consecutive outputs
(16 vectors of 16 f32 with AVX-512: each row is read 1 KB at a time) are loaded
into vectors, the reduction loops (in their order) run with them carried in
registers, and they are stored; the remaining columns run a vector at a
time, then as scalars. The blocks take the outermost reduced dimension
`column_rows` (4) rows at a time: a panel of blocks (outputs of at most
`column_bytes`, the L1 cache; the panels run in parallel) runs a group of rows
block after block, then the next group, so a matrix is read almost in order
rather than a 1 KB piece of every row per block (one load and store of each
output vector per group; each output still sees the rows in order).

The outer loops (the dimensions other than `v` in the row form, the parallel
ones and the blocks of `v` in the column form) keep their order; the outermost
one is an `scf.parallel` when `convert-linalg-to-parallel-loops` would have made
it one (a parallel iterator with more than one iteration that indexes every
output), so threads still split it. Generics that read an operand not indexed by
every loop while reducing (contractions: the contraction code generator's) are
left alone, as are element types other than f32, f64 and i8 to i64, bodies with
other ops than `arith`/`math` or with `linalg.index`, and dynamic shapes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowering.codegen.emitter import INDEX, Emitter
from lowering.codegen.reduction_forms import (
    COMBINERS,
    ELEMENTS,
    Plan,
    dependents,
    plan,
    row_combiners,
    row_selection,
)
from lowering.codegen.target import get_target

# ---------------------------------------------------------------------------
# Emission
# ---------------------------------------------------------------------------

Index = SSAValue | int
SCALAR = 0
"""`lanes` of a scalar clone (1 is a one-element vector)."""


def _vector_of(t: Attribute, lanes: int) -> VectorType:
    return VectorType(t, [lanes])


class _Position:
    """What `linalg.index v` is bound to in a vector clone: lane `j` is `base + j`."""

    def __init__(self, base: SSAValue):
        self.base = base


class BodyCloner:
    """Clones a generic's body at a point of the iteration space: its block
    arguments bound to values (scalars, or vectors of `lanes` along dimension `v`),
    `linalg.index d` to that point's `dims[d]` (a vector of positions for `v`); an
    op with a vector operand becomes the op on vectors."""

    def __init__(self, op: GenericOp, v: int):
        self.op = op
        self.v = v

    def clone(
        self,
        em: Emitter,
        bindings: dict[SSAValue, SSAValue],
        dims: Sequence[Index],
        lanes: int,
        only: Callable[[Operation], bool] | None = None,
    ) -> dict[SSAValue, SSAValue]:
        """Clone the body's ops (those `only` accepts) with `bindings`; return the map
        from body values to their clones."""
        mapping: dict[SSAValue, SSAValue] = dict(bindings)
        positions: dict[SSAValue, _Position] = {}
        splats: dict[SSAValue, SSAValue] = {}

        def splat(value: SSAValue) -> SSAValue:
            if isinstance(value.type, VectorType):
                return value
            if value not in splats:
                splats[value] = em.value(vector.BroadcastOp(value, _vector_of(value.type, lanes)))
            return splats[value]

        for inner in self.op.body.block.ops:
            if isinstance(inner, YieldOp) or (only is not None and not only(inner)):
                continue
            if all(r in mapping for r in inner.results):
                continue
            if isinstance(inner, IndexOp):
                d = inner.dim.value.data
                value = em.materialize(dims[d])
                if d == self.v and lanes != SCALAR:
                    positions[inner.result] = _Position(value)
                else:
                    mapping[inner.result] = value
                continue
            if isinstance(inner, arith.IndexCastOp) and inner.input in positions:
                base = em.value(arith.IndexCastOp(positions[inner.input].base, inner.result.type))
                ramp = em.value(vector.BroadcastOp(base, _vector_of(base.type, lanes)))
                if lanes > 1:
                    t = _vector_of(base.type, lanes)
                    steps = em.value(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, list(range(lanes)))))
                    ramp = em.value(arith.AddiOp(ramp, steps))
                mapping[inner.result] = ramp
                continue
            operands = [mapping.get(x, x) for x in inner.operands]
            if lanes != SCALAR and any(isinstance(x.type, VectorType) for x in operands):
                operands = [splat(x) for x in operands]
                result_types = [_vector_of(r.type, lanes) for r in inner.results]
            else:
                result_types = [r.type for r in inner.results]
            new = type(inner).create(
                operands=operands,
                result_types=result_types,
                properties=dict(inner.properties),
                attributes=dict(inner.attributes),
            )
            em.add(new)
            mapping.update(zip(inner.results, new.results))
        return mapping

    def emit(self, em: Emitter, args: Sequence[SSAValue], dims: Sequence[Index], lanes: int) -> list[SSAValue]:
        """The yielded values of the whole body on `args`."""
        block = self.op.body.block
        mapping = self.clone(em, dict(zip(block.args, args)), dims, lanes)
        yield_op = block.last_op
        assert isinstance(yield_op, YieldOp)
        return [mapping.get(x, x) for x in yield_op.operands]


def reduction(value: SSAValue, kind: CombiningKindFlag, combiner: Operation | None = None) -> vector.ReductionOp:
    """`vector.reduction <kind>` of `value` to its element type, with the combiner's
    fast-math flags (xDSL's builder would give it the vector's type)."""
    t = value.type
    assert isinstance(t, VectorType)
    properties: dict[str, Attribute] = {"kind": CombiningKindAttr(kind)}
    fastmath = getattr(combiner, "fastmath", None) if combiner is not None else None
    if isinstance(fastmath, arith.FastMathFlagsAttr) and fastmath.data:
        properties["fastmath"] = fastmath
    return vector.ReductionOp.create(operands=[value], result_types=[t.element_type], properties=properties)


def _constant(em: Emitter, value: float, t: Attribute) -> SSAValue:
    if isinstance(t, AnyFloat):
        return em.value(arith.ConstantOp(FloatAttr(float(value), t)))
    assert isinstance(t, IntegerType)
    bits = t.width.data
    v = int(value) & ((1 << bits) - 1)
    if v >= 1 << (bits - 1):
        v -= 1 << bits
    return em.value(arith.ConstantOp(IntegerAttr(v, t)))


def _clone_combiner(em: Emitter, combiner: Operation, acc_first: bool, a: SSAValue, b: SSAValue) -> SSAValue:
    """`combiner` applied to accumulator `a` and value `b`, operands in its order."""
    operands = [a, b] if acc_first else [b, a]
    new = type(combiner).create(
        operands=operands,
        result_types=[a.type],
        properties=dict(combiner.properties),
        attributes=dict(combiner.attributes),
    )
    return em.value(new)


def _tree(groups: list[list[SSAValue]], merge: Callable[[list[SSAValue], list[SSAValue]], list[SSAValue]]):
    """Combine `groups` pairwise (0 with 1, 2 with 3, ...) until one is left."""
    while len(groups) > 1:
        paired = [merge(groups[g], groups[g + 1]) for g in range(0, len(groups) - 1, 2)]
        if len(groups) % 2:
            paired.append(groups[-1])
        groups = paired
    return groups[0]


def _rank_one(em: Emitter, buffer: SSAValue, indices: list[SSAValue]) -> tuple[SSAValue, list[SSAValue]]:
    """A rank-0 buffer as a `memref<1xT>` view and its index: MLIR's `vector.load` and
    `vector.store` need a memref of at least the vector's rank."""
    t = buffer.type
    if not isinstance(t, MemRefType) or t.get_shape():
        return buffer, indices
    view = memref.ExpandShapeOp.create(
        operands=[buffer],
        result_types=[MemRefType(t.get_element_type(), [1])],
        properties={"reassociation": ArrayAttr([]), "static_output_shape": DenseArrayBase.from_list(i64, [1])},
    )
    return em.value(view), [em.index(0)]


@dataclass(frozen=True)
class RowLayout:
    """The vector loop of a row form: `iv` from 0 to `upper` by `step`, reading the
    vectors at `iv + offsets[u]` into accumulator slot `u`; it covers the first
    `covered` elements of the row (the rest run as the scalar remainder). One
    stream: `offsets` are `u * lanes`, `upper` = `covered`. `streams` S: segment
    `s` is `[s * upper, (s + 1) * upper)` and slot `s * accumulators + u` reads
    offset `s * upper + u * lanes`."""

    upper: int
    step: int
    offsets: list[int]
    covered: int


class Vectorizer:
    """Emits the loops of one planned generic before it, then erases it."""

    def __init__(self, op: GenericOp, p: Plan):
        self.op = op
        self.p = p
        self.maps = [m.data for m in op.indexing_maps.data]
        self.n_in = len(op.inputs)
        self.v = len(p.sizes) - 1
        self.body = BodyCloner(op, self.v)

    # -- operand access -------------------------------------------------------

    def _indices(self, em: Emitter, k: int, dims: Sequence[Index]) -> list[SSAValue]:
        return [em.materialize(em.affine(e, dims)) for e in self.maps[k].results]

    def load(self, em: Emitter, k: int, dims: Sequence[Index], lanes: int) -> SSAValue:
        """Operand `k` at `dims`: a vector of `lanes` along v if it uses v (and
        `lanes` is not SCALAR), else a scalar."""
        value = self.op.operands[k]
        t = value.type
        assert isinstance(t, MemRefType)
        indices = self._indices(em, k, dims)
        if lanes != SCALAR and AffineDimExpr(self.v) in self.maps[k].results:
            return em.value(vector.LoadOp(value, indices, _vector_of(t.get_element_type(), lanes)))
        if lanes != SCALAR and k >= self.n_in:  # an output, read as a vector of one
            value, indices = _rank_one(em, value, indices)
            return em.value(vector.LoadOp(value, indices, _vector_of(t.get_element_type(), lanes)))
        return em.value(memref.LoadOp.get(value, indices))

    def store(self, em: Emitter, value: SSAValue, k: int, dims: Sequence[Index]) -> None:
        target = self.op.operands[k]
        indices = self._indices(em, k, dims)
        if isinstance(value.type, VectorType):
            target, indices = _rank_one(em, target, indices)
            em.add(vector.StoreOp(value, target, indices))
        else:
            em.add(memref.StoreOp.get(value, target, indices))

    def inputs_at(self, em: Emitter, dims: Sequence[Index], lanes: int) -> list[SSAValue]:
        return [self.load(em, k, dims, lanes) for k in range(self.n_in)]

    def body_at(self, em: Emitter, dims: Sequence[Index], lanes: int, accs: Sequence[SSAValue]) -> list[SSAValue]:
        """The body's yields at `dims` with accumulators `accs`."""
        return self.body.emit(em, [*self.inputs_at(em, dims, lanes), *accs], dims, lanes)

    # -- loops ----------------------------------------------------------------

    def nest(
        self,
        em: Emitter,
        loops: Sequence[tuple[int, Index, Index, int]],
        dims: dict[int, Index],
        body: Callable[[Emitter, dict[int, Index]], None],
        parallel: bool = True,
    ) -> None:
        """Loops (dimension, lower, upper, step) around `body`, without carried values;
        the one over `parallel_outer` is an `scf.parallel` (if `parallel`)."""
        if not loops:
            body(em, dims)
            return
        (d, lower, upper, step), rest = loops[0], loops[1:]
        if parallel and d == self.p.parallel_outer:
            block = Block(arg_types=[INDEX])
            inner = Emitter(block=block)
            self.nest(inner, rest, {**dims, d: block.args[0]}, body, parallel)
            block.add_op(scf.ReduceOp())
            em.add(
                scf.ParallelOp(
                    [em.materialize(lower)], [em.materialize(upper)], [em.index(step)], Region(block)
                )
            )
            return

        def loop_body(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
            self.nest(inner, rest, {**dims, d: iv}, body, parallel)
            return []

        em.loop(lower, upper, step, loop_body)

    def emit(self) -> None:
        em = Emitter()
        {"row": self.emit_row, "select": self.emit_row, "column": self.emit_column}[self.p.form](em)
        first = next(o for o in em.ops if isinstance(o, (scf.ForOp, scf.ParallelOp)))
        shape = f"{self.p.lanes}x{self.p.accumulators}"
        if self.p.rows:
            shape += f", {self.p.rows} rows x {self.p.panel}"
        if self.p.streams > 1:
            shape += f", {self.p.streams} streams"
        first.attributes["vectorized"] = StringAttr(f"{self.p.form}({shape})")
        Rewriter().replace_op(self.op, em.ops, [])

    # -- row forms ------------------------------------------------------------

    def emit_row(self, em: Emitter) -> None:
        p = self.p
        outer = [(d, 0, p.sizes[d], 1) for d in range(len(p.sizes)) if d != self.v]
        self.nest(em, outer, {}, self.row_body if p.form == "row" else self.select_body)

    def _vector_step(
        self, dims: dict[int, Index], lanes: int, offsets: Sequence[int], n_out: int
    ) -> Callable[[Emitter, SSAValue, Sequence[SSAValue]], Sequence[SSAValue]]:
        """One step of the vector loop: the body on the vectors of `lanes` elements at
        `iv + offsets[u]`, each with its own `n_out` partial results."""

        def step(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
            out: list[SSAValue] = []
            for u, offset in enumerate(offsets):
                at = self._at(dims, inner.addi(iv, offset))
                out += self.body_at(inner, at, lanes, carried[u * n_out : (u + 1) * n_out])
            return out

        return step

    def row_layout(self) -> RowLayout:
        """Where the row form's vector loop reads (see `RowLayout`)."""
        p = self.p
        n = p.sizes[self.v]
        step = p.lanes * p.accumulators
        if p.streams > 1:
            segment = n // (p.streams * step) * step
            offsets = [s * segment + u * p.lanes for s in range(p.streams) for u in range(p.accumulators)]
            return RowLayout(segment, step, offsets, p.streams * segment)
        main = n - n % step
        return RowLayout(main, step, [u * p.lanes for u in range(p.accumulators)], main)

    def _at(self, dims: dict[int, Index], j: Index) -> list[Index]:
        return [j if d == self.v else dims.get(d, 0) for d in range(len(self.p.sizes))]

    def row_body(self, em: Emitter, dims: dict[int, Index]) -> None:
        p = self.p
        combiners = row_combiners(self.op)
        assert combiners is not None
        accs = self.op.body.block.args[self.n_in :]
        acc_first = [c.operands[0] is a for c, a in zip(combiners, accs)]
        kinds = [COMBINERS[type(c)] for c in combiners]
        n_out = len(accs)
        layout = self.row_layout()
        main = layout.covered
        fast = _fast_extremum(combiners[0]) if n_out == 1 and main else None
        if fast:
            reduced = [self.checked_extremum(em, dims, layout, fast)]
        else:  # the vector loop, the accumulators' tree, the reduction across lanes
            identities: list[SSAValue] = []
            for c, a in zip(kinds, accs):
                scalar = _constant(em, c.identity(a.type), a.type)
                identities.append(em.value(vector.BroadcastOp(scalar, _vector_of(a.type, p.lanes))))
            slots = len(layout.offsets)
            vector_step = self._vector_step(dims, p.lanes, layout.offsets, n_out)
            partial = list(em.loop(0, layout.upper, layout.step, vector_step, identities * slots))
            groups = [partial[u * n_out : (u + 1) * n_out] for u in range(slots)]
            merged = _tree(
                groups,
                lambda a, b: [_clone_combiner(em, combiners[j], acc_first[j], a[j], b[j]) for j in range(n_out)],
            )
            reduced = [em.value(reduction(merged[j], kinds[j].kind, combiners[j])) for j in range(n_out)]
        results: list[SSAValue] = []
        out_dims = self._at(dims, 0)
        for j in range(n_out):
            initial = self.load(em, self.n_in + j, out_dims, SCALAR)
            results.append(_clone_combiner(em, combiners[j], acc_first[j], initial, reduced[j]))
        if main < p.sizes[self.v]:

            def scalar_step(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
                return self.body_at(inner, self._at(dims, iv), SCALAR, carried)

            results = list(em.loop(main, p.sizes[self.v], 1, scalar_step, results))
        for j, r in enumerate(results):
            self.store(em, r, self.n_in + j, out_dims)

    def _extremum_combiner(self) -> tuple[Operation, AnyFloat]:
        """The max/min combiner of the single output and its float type."""
        acc_arg = self.op.body.block.args[self.n_in]
        combiner = next(iter(acc_arg.uses)).operation
        t = acc_arg.type
        assert isinstance(t, AnyFloat)
        return combiner, t

    def _extremum_operand(self, em: Emitter, dims: dict[int, Index], j: Index) -> SSAValue:
        """The vector of values the max/min combines at position `j` of the row: the
        body cloned on `lanes` elements, without the combiner and what uses the accumulator."""
        block = self.op.body.block
        acc_arg = block.args[self.n_in]
        combiner = next(iter(acc_arg.uses)).operation
        value = combiner.operands[1] if combiner.operands[0] is acc_arg else combiner.operands[0]
        from_acc = dependents(block, [acc_arg])
        at = self._at(dims, j)
        bindings = dict(zip(block.args, self.inputs_at(em, at, self.p.lanes)))
        mapping = self.body.clone(
            em, bindings, at, self.p.lanes, only=lambda o: not any(r in from_acc for r in o.results)
        )
        return mapping[value]

    def checked_extremum(self, em: Emitter, dims: dict[int, Index], layout: RowLayout, predicate: str) -> SSAValue:
        """max/min of one output, two vector ops per vector: per accumulator the ordered
        `select(x > acc, x, acc)` (one `vmaxps`, which skips NaNs) and the AND of `x ord x`
        (one masked `vcmpordps`: no NaN so far). Without a NaN the ordered result equals the
        exact one, and is the exact one unless it is a zero (+0 and -0 compare equal); so
        only a row with a NaN or a zero result is reduced again, exactly (`fast_extremum`),
        under an `scf.if`."""
        p = self.p
        combiner, t = self._extremum_combiner()
        vt = _vector_of(t, p.lanes)
        vmask = _vector_of(IntegerType(1), p.lanes)
        start = em.value(vector.BroadcastOp(_constant(em, COMBINERS[type(combiner)].identity(t), t), vt))
        ordered0 = em.value(vector.BroadcastOp(_constant(em, 1, IntegerType(1)), vmask))

        def pick(e: Emitter, acc: SSAValue, x: SSAValue) -> SSAValue:
            return _pick(e, acc, x, predicate)

        def step_body(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
            out: list[SSAValue] = []
            for u, offset in enumerate(layout.offsets):
                x = self._extremum_operand(inner, dims, inner.addi(iv, offset))
                acc, ordered = carried[2 * u : 2 * u + 2]
                is_number = inner.value(_vector_cmpf(x, x, "ord", vt))
                out += [pick(inner, acc, x), inner.value(arith.AndIOp(ordered, is_number))]
            return out

        slots = len(layout.offsets)
        carried = list(em.loop(0, layout.upper, layout.step, step_body, [start, ordered0] * slots))
        groups = [carried[2 * u : 2 * u + 2] for u in range(slots)]
        acc, ordered = _tree(groups, lambda a, b: [pick(em, a[0], b[0]), em.value(arith.AndIOp(a[1], b[1]))])
        lanes = p.lanes
        while lanes > 1:  # halve the lanes: [0, w/2) against [w/2, w)
            half = lanes // 2
            lo, hi = (
                em.value(vector.ShuffleOp(acc, acc, DenseArrayBase.from_list(i64, m), result_type=_vector_of(t, half)))
                for m in (list(range(half)), list(range(half, lanes)))
            )
            acc = pick(em, lo, hi)
            lanes = half
        kind = CombiningKindFlag.MAXIMUMF if predicate == "ogt" else CombiningKindFlag.MINIMUMF
        result = em.value(reduction(acc, kind, combiner))  # one lane: its element
        no_nan = em.value(reduction(ordered, CombiningKindFlag.AND))
        nonzero = em.value(arith.CmpfOp(result, _constant(em, 0.0, t), "one"))
        exact = em.value(arith.AndIOp(no_nan, nonzero))
        return em.if_(
            exact, lambda e: [result], lambda e: [self.fast_extremum(e, dims, layout, predicate)], [t]
        )[0]

    def fast_extremum(self, em: Emitter, dims: dict[int, Index], layout: RowLayout, predicate: str) -> SSAValue:
        """max/min of one output in one pass without `llvm.maximum` (six instructions
        per vector on AVX-512, and as many per step of the reduction across lanes):
        per accumulator, `select(x > acc, x, acc)` (one `vmaxps`), the last NaN seen
        `select(x uno x, x, nan)` and the AND (max) or OR (min) of the elements' bits;
        the accumulators and then the lanes (halves by `vector.shuffle`) are combined
        the same way. The result is then made exact once: a zero takes the sign the
        bits give (a max of zeros is -0.0 only when every element had its sign bit
        set; a min is -0.0 when one had), and a NaN seen replaces it. Run for the
        rows `checked_extremum` cannot settle (a NaN, a zero result)."""
        p = self.p
        combiner, t = self._extremum_combiner()
        width = t.bitwidth
        vt = _vector_of(t, p.lanes)
        it = IntegerType(width)
        vit = _vector_of(it, p.lanes)
        is_max = predicate == "ogt"
        merge_bits = arith.AndIOp if is_max else arith.OrIOp
        start = em.value(vector.BroadcastOp(_constant(em, COMBINERS[type(combiner)].identity(t), t), vt))
        no_nan = em.value(vector.BroadcastOp(_constant(em, 0.0, t), vt))
        bits0 = em.value(vector.BroadcastOp(_constant(em, -1 if is_max else 0, it), vit))

        def pick(e: Emitter, acc: SSAValue, x: SSAValue) -> SSAValue:
            return _pick(e, acc, x, predicate)

        def pick_nan(e: Emitter, nan: SSAValue, x: SSAValue) -> SSAValue:
            v = nan.type
            assert isinstance(v, VectorType)
            return e.value(arith.SelectOp(e.value(_vector_cmpf(x, x, "uno", v)), x, nan))

        def fast_step(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
            out: list[SSAValue] = []
            for u, offset in enumerate(layout.offsets):
                x = self._extremum_operand(inner, dims, inner.addi(iv, offset))
                acc, nan, bits = carried[3 * u : 3 * u + 3]
                x_bits = inner.value(vector.BitcastOp(x, vit))
                out += [pick(inner, acc, x), pick_nan(inner, nan, x), inner.value(merge_bits(bits, x_bits))]
            return out

        slots = len(layout.offsets)
        carried = list(em.loop(0, layout.upper, layout.step, fast_step, [start, no_nan, bits0] * slots))
        groups = [carried[3 * u : 3 * u + 3] for u in range(slots)]
        acc, nan, bits = _tree(
            groups, lambda a, b: [pick(em, a[0], b[0]), pick_nan(em, a[1], b[1]), em.value(merge_bits(a[2], b[2]))]
        )
        lanes = p.lanes
        while lanes > 1:  # halve the lanes: [0, w/2) against [w/2, w)
            half = lanes // 2
            lo_mask = DenseArrayBase.from_list(i64, list(range(half)))
            hi_mask = DenseArrayBase.from_list(i64, list(range(half, lanes)))
            halves = [
                [em.value(vector.ShuffleOp(v, v, mask, result_type=_vector_of(t, half))) for mask in (lo_mask, hi_mask)]
                for v in (acc, nan)
            ]
            acc, nan = pick(em, *halves[0]), pick_nan(em, *halves[1])
            lanes = half
        kind = CombiningKindFlag.MAXIMUMF if is_max else CombiningKindFlag.MINIMUMF
        result = em.value(reduction(acc, kind, combiner))  # one lane: its element
        nan_seen = em.value(reduction(nan, kind, combiner))
        all_bits = em.value(reduction(bits, CombiningKindFlag.AND if is_max else CombiningKindFlag.OR))
        sign = _constant(em, -(1 << (width - 1)), it)
        signed_zero = em.value(arith.BitcastOp(em.value(arith.AndIOp(all_bits, sign)), t))
        is_zero = em.value(arith.CmpfOp(result, _constant(em, 0.0, t), "oeq"))
        exact = em.value(arith.SelectOp(is_zero, signed_zero, result))
        has_nan = em.value(arith.CmpfOp(nan_seen, nan_seen, "uno"))
        return em.value(arith.SelectOp(has_nan, nan_seen, exact))

    def select_body(self, em: Emitter, dims: dict[int, Index]) -> None:
        """Argmax-like: the accumulators start as the first `accumulators` vectors'
        candidates; partial results merge with the body, the one at the smaller
        position on the left (where the spec's order would have put it)."""
        p = self.p
        block = self.op.body.block
        selection = row_selection(self.op, self.v)
        assert selection is not None
        accs = list(block.args[self.n_in :])
        n_out = len(accs)
        from_acc = dependents(block, accs)
        from_inputs = dependents(
            block, [*block.args[: self.n_in], *(o.results[0] for o in block.ops if isinstance(o, IndexOp))]
        )
        step = p.lanes * p.accumulators
        main = p.sizes[self.v] - p.sizes[self.v] % step

        def candidates(e: Emitter, at: Sequence[Index], lanes: int) -> list[SSAValue]:
            bindings = dict(zip(block.args, self.inputs_at(e, at, lanes)))
            mapping = self.body.clone(e, bindings, at, lanes, only=lambda o: not any(r in from_acc for r in o.results))
            return [mapping[x] for x in selection.values]

        def merge(e: Emitter, at: Sequence[Index], lanes: int, left: list[SSAValue], right: list[SSAValue]):
            bindings = {**dict(zip(accs, left)), **dict(zip(selection.values, right))}
            mapping = self.body.clone(
                e, bindings, at, lanes, only=lambda o: not any(r in from_inputs and r not in from_acc for r in o.results)
            )
            yield_op = block.last_op
            assert isinstance(yield_op, YieldOp)
            return [mapping[x] for x in yield_op.operands]

        def ordered_merge(e: Emitter, lanes: int, a: list[SSAValue], b: list[SSAValue]) -> list[SSAValue]:
            k = selection.position
            swap = e.value(arith.CmpiOp(b[k], a[k], "slt"))
            left = [e.value(arith.SelectOp(swap, y, x)) for x, y in zip(a, b)]
            right = [e.value(arith.SelectOp(swap, x, y)) for x, y in zip(a, b)]
            return merge(e, self._at(dims, 0), lanes, left, right)

        init: list[SSAValue] = []
        for u in range(p.accumulators):
            init += candidates(em, self._at(dims, u * p.lanes), p.lanes)

        vector_step = self._vector_step(dims, p.lanes, [u * p.lanes for u in range(p.accumulators)], n_out)

        partial = list(em.loop(step, main, step, vector_step, init))
        groups = [partial[u * n_out : (u + 1) * n_out] for u in range(p.accumulators)]
        merged = _tree(groups, lambda a, b: ordered_merge(em, p.lanes, a, b))
        width = p.lanes
        while width > 1:  # halve the lanes: lanes [0, w/2) against [w/2, w)
            half = width // 2
            lo_mask = DenseArrayBase.from_list(i64, list(range(half)))
            hi_mask = DenseArrayBase.from_list(i64, list(range(half, width)))
            lo = [em.value(vector.ShuffleOp(x, x, lo_mask, result_type=_vector_of(_elem(x), half))) for x in merged]
            hi = [em.value(vector.ShuffleOp(x, x, hi_mask, result_type=_vector_of(_elem(x), half))) for x in merged]
            merged = ordered_merge(em, half, lo, hi)
            width = half
        out_dims = self._at(dims, 0)
        initial = [self.load(em, self.n_in + j, out_dims, 1) for j in range(n_out)]
        results = merge(em, out_dims, 1, initial, merged)  # the initial value on the left, as the spec says
        if main < p.sizes[self.v]:

            def tail_step(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
                return self.body_at(inner, self._at(dims, iv), 1, carried)

            results = list(em.loop(main, p.sizes[self.v], 1, tail_step, results))
        for j, r in enumerate(results):
            self.store(em, r, self.n_in + j, out_dims)

    # -- column form ----------------------------------------------------------

    def emit_column(self, em: Emitter) -> None:
        p = self.p
        iterators = [it.data for it in self.op.iterator_types.data]
        parallel = [d for d in range(len(p.sizes)) if iterators[d] == IteratorType.PARALLEL and d != self.v]
        width = p.lanes * p.accumulators
        main = p.sizes[self.v] - p.sizes[self.v] % width
        outer = [(d, 0, p.sizes[d], 1) for d in parallel]
        if main and p.rows:
            self.nest(em, [*outer, (self.v, 0, main, p.panel)], {}, self.column_panel(main))
        elif main:
            self.nest(em, [*outer, (self.v, 0, main, width)], {}, self.column_block(p.accumulators, p.lanes))
        # The last columns on this thread: whole vectors, then one by one.
        vectors = main + (p.sizes[self.v] - main) // p.lanes * p.lanes
        if main < vectors:
            tail = [*outer, (self.v, main, vectors, p.lanes)]
            self.nest(em, tail, {}, self.column_block(1, p.lanes), parallel=False)
        if vectors < p.sizes[self.v]:
            tail = [*outer, (self.v, vectors, p.sizes[self.v], 1)]
            self.nest(em, tail, {}, self.column_block(1, SCALAR), parallel=False)

    def column_panel(self, main: int) -> Callable[[Emitter, dict[int, Index]], None]:
        """The panel of outputs starting at `dims[v]` (up to `main`): for each group of
        `rows` of the outermost reduced dimension, its blocks one after another, each
        loading its outputs, running those rows (and the inner reduced dimensions)
        in registers and storing them. Every output still sees the rows in order."""
        p = self.p
        iterators = [it.data for it in self.op.iterator_types.data]
        first = next(d for d in range(len(p.sizes)) if iterators[d] == IteratorType.REDUCTION)
        width = p.lanes * p.accumulators
        size, rows = p.sizes[first], p.rows
        full = size - size % rows

        def body(em: Emitter, dims: dict[int, Index]) -> None:
            start = dims[self.v]
            end = em.minui(em.addi(start, p.panel), main) if main % p.panel else em.addi(start, p.panel)

            def row_block(e: Emitter, lower: Index, upper: Index) -> None:
                def column(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
                    self.column_block(p.accumulators, p.lanes, (lower, upper))(inner, {**dims, self.v: iv})
                    return []

                e.loop(start, end, width, column)

            def step(inner: Emitter, iv: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
                row_block(inner, iv, inner.addi(iv, rows))
                return []

            if full:
                em.loop(0, full, rows, step)
            if full < size:
                row_block(em, full, size)

        return body

    def column_block(
        self, accumulators: int, lanes: int, first_range: tuple[Index, Index] | None = None
    ) -> Callable[[Emitter, dict[int, Index]], None]:
        p = self.p
        iterators = [it.data for it in self.op.iterator_types.data]
        reductions = [d for d in range(len(p.sizes)) if iterators[d] == IteratorType.REDUCTION]
        n_out = len(self.op.outputs)
        width = max(lanes, 1)

        def block(em: Emitter, dims: dict[int, Index]) -> None:
            def at(u: int, inner_dims: dict[int, Index], e: Emitter) -> list[Index]:
                full = {**inner_dims, self.v: e.addi(inner_dims[self.v], u * width)}
                return [full.get(d, 0) for d in range(len(p.sizes))]

            accs = [self.load(em, self.n_in + j, at(u, dims, em), lanes) for u in range(accumulators) for j in range(n_out)]

            def level(e: Emitter, depth: int, inner_dims: dict[int, Index], carried: Sequence[SSAValue]):
                if depth == len(reductions):
                    out: list[SSAValue] = []
                    for u in range(accumulators):
                        out += self.body_at(e, at(u, inner_dims, e), lanes, carried[u * n_out : (u + 1) * n_out])
                    return out
                d = reductions[depth]

                def step(inner: Emitter, iv: SSAValue, values: Sequence[SSAValue]) -> Sequence[SSAValue]:
                    return level(inner, depth + 1, {**inner_dims, d: iv}, values)

                lower, upper = first_range if first_range is not None and depth == 0 else (0, p.sizes[d])
                return list(e.loop(lower, upper, 1, step, carried))

            results = level(em, 0, dims, accs)
            for u in range(accumulators):
                for j in range(n_out):
                    self.store(em, results[u * n_out + j], self.n_in + j, at(u, dims, em))

        return block


def _pick(em: Emitter, acc: SSAValue, x: SSAValue, predicate: str) -> SSAValue:
    """`select(x > acc, x, acc)` (`ogt`; `olt` for min) on vectors: one `vmaxps`/`vminps`."""
    v = acc.type
    assert isinstance(v, VectorType)
    return em.value(arith.SelectOp(em.value(_vector_cmpf(x, acc, predicate, v)), x, acc))


def _fast_extremum(combiner: Operation) -> str | None:
    """The comparison of the fast path for a float max/min combiner, else None."""
    if not isinstance(combiner.results[0].type, AnyFloat):
        return None
    return {arith.MaximumfOp: "ogt", arith.MinimumfOp: "olt"}.get(type(combiner))


def _vector_cmpf(x: SSAValue, y: SSAValue, predicate: str, vt: VectorType) -> arith.CmpfOp:
    """`arith.cmpf` of two vectors, typed `vector<N x i1>` (xDSL's builder types it `i1`)."""
    template = arith.CmpfOp(x, y, predicate)
    typed = arith.CmpfOp.create(
        operands=[x, y], result_types=[VectorType(IntegerType(1), vt.get_shape())], properties=dict(template.properties)
    )
    template.drop_all_references()
    return typed


def _elem(value: SSAValue) -> Attribute:
    t = value.type
    assert isinstance(t, VectorType)
    return t.element_type


# ---------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------


def vectorize_reduction(
    op: GenericOp,
    lanes: int,
    accumulators: int,
    reassociate: bool = True,
    column_vectors: int = 16,
    column_rows: int = 0,
    column_bytes: int = 0,
    streams: int = 1,
    stream_bytes: int = 0,
) -> str | None:
    """Vectorize `op` in place if it qualifies; return its form or None."""
    if lanes < 2:
        return None
    p = plan(op, lanes, accumulators, reassociate, column_vectors, column_rows, column_bytes, streams, stream_bytes)
    if p is None:
        return None
    Vectorizer(op, p).emit()
    return p.form


def _lanes_for(op: GenericOp, vector_bits: int) -> int:
    widths = [
        t.width.data if isinstance(t, IntegerType) else t.bitwidth
        for t in (a.type for a in op.body.block.args)
        if isinstance(t, (IntegerType, *ELEMENTS))
    ]
    return max(1, vector_bits // max(widths, default=32))


@dataclass(frozen=True)
class LinalgVectorizeReductionsPass(ModulePass):
    """Row and column reductions on buffers → loops of `vector` ops with partial
    results in registers (the reduction is reordered only where exact or allowed)."""

    name = "linalg-vectorize-reductions"

    vector_bits: int = 0
    """Width of a vector (0: the target's, `lowering/codegen/target.py`); a vector
    holds `vector_bits` / (widest element of the body) lanes."""

    accumulators: int = 4
    """Independent vector accumulators per output in the row forms."""

    column_vectors: int = 0
    """Vectors of outputs a block of the column form keeps in registers (0: half
    the target's vector registers: 16 with AVX-512, 8 with AVX2). The wider the
    block, the longer the contiguous piece of each row it reads (16 vectors of
    f32: 1 KB), which is what a column reduction's speed depends on."""

    column_rows: int = 4
    """Column form: rows of the outermost reduced dimension a block of outputs
    takes in registers before the next block of the panel runs (0: a block walks
    the whole reduction, reading a piece of each row, 1 KB of 4 KB rows for a
    1024-column f32 sum, on a page the prefetcher restarts on; 4: the matrix is
    read 4 rows at a time, almost in order, for one load and store of each output
    vector per 4 rows: sum over the columns of 1024x1024 f32 0.101 -> 0.068 ms)."""

    column_bytes: int = 0
    """Column form with rows: the outputs of a panel, in bytes (0: the target's L1
    data cache), kept in cache between groups of rows; threads split panels."""

    streams: int = 4
    """Row form over rows of at least `stream_bytes`: segments of the row read side
    by side (the `accumulators` shared among them; 1: in order, one stream)."""

    stream_bytes: int = 0
    """The least bytes a row's inputs hold for `streams` (0: the target's L2 cache:
    such a row comes from L3 or memory). One core reads a 64 MiB f32 sum's memory
    about 10% faster as 4 segments side by side than in order (more lines in flight:
    `benchmarks/bench_stream_limit.py`)."""

    reassociate: bool = True
    """False: selection reductions (argmax) over the minor dimension keep the spec's
    order (float add/mul follow `linalg-reassociate-reductions`' marks), and no row
    is read as several streams."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = get_target()
        bits = self.vector_bits or target.vector_bits
        column_vectors = self.column_vectors or max(1, target.vector_registers // 2)
        column_bytes = self.column_bytes or target.l1
        stream_bytes = self.stream_bytes or target.l2
        for inner in list(op.walk()):
            if isinstance(inner, GenericOp) and inner.parent is not None:
                lanes = _lanes_for(inner, bits)
                vectorize_reduction(
                    inner, lanes, self.accumulators, self.reassociate, column_vectors, self.column_rows, column_bytes,
                    self.streams, stream_bytes,
                )


__all__ = [
    "COMBINERS",
    "BodyCloner",
    "LinalgVectorizeReductionsPass",
    "Plan",
    "Vectorizer",
    "plan",
    "row_combiners",
    "row_selection",
    "vectorize_reduction",
]
