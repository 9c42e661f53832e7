"""`sort` → a bottom-up merge sort of each row, written as `scf.for` loops over
tensors.

Every row (all indices but the sorted `dimension`; one `scf.for` per other
dimension wider than 1, outermost) is sorted on its own while it is in cache.
A row of `n` elements takes `P = ceil(log2 n)` passes; pass `p` merges
neighbouring sorted runs of width `2^(p-1)` from a source into a destination.
All operands move together: the comparator region (made scalar by
`scalar_region_results`) is called with `(right_0, left_0, right_1, left_1,
...)`, and the right element is taken only when it compares strictly before the
left one, so equal elements keep their order — the sort is always stable, which
satisfies `is_stable` either way. The merge is branch-free and bidirectional:
each iteration of a merge loop writes the next element from the front (the
smaller head; ties take the left run) and the next from the back (the larger
tail; ties take the right run), two independent chains of compare and select
for the CPU to overlap; with an odd total, one last front step writes the
middle element. The two ends take disjoint elements that cover both runs
exactly when the front stops right before the back, which holds for any
strict weak order; otherwise (e.g. LT on NaNs) the run pair is merged again
from the front alone, so the result is a permutation whatever the comparator. The heads and tails of both runs and their elements are loop
values, so the loads of the next ones (clamped into their run, so a used-up
run is never read out of bounds) are off the critical path; elements are
picked for every operand with `arith.select`. Everything is O(n log n).

The passes ping-pong between the result tensors `A` and scratch tensors `B`:
the first pass reads the operands and writes `A` when `P` is odd, `B`
otherwise, so that the last pass ends in `A`; then (an even `P` needs one
single pass `B → A`) an `scf.for` runs pairs of passes `A → B`, `B → A`.

The shape of the loops follows what `bufferize` can do in place: a tensor is
written in place only through its single use. So each loop nest of a pass
carries both its destination (written by `tensor.insert`) and its source (only
read, and yielded unchanged), and every carried tensor is used exactly once
per level (as the next loop's init) except in the innermost body (the first
heads of a merge are read through a one-trip loop for that reason). Each
carried tensor then keeps one buffer for the whole sort: no copies, no
allocation inside the loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.xla_to_linalg.converter import Converter, empty, index_constant, lowers, static_shape
from lowering.xla_to_linalg.elementwise import captured_scalars, scalar_region_results
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.reduction import SortOp
from xla_dialect.types import element_type_of

LoopBody = Callable[[Builder, SSAValue, Sequence[SSAValue]], Sequence[SSAValue]]


def for_loop(
    builder: Builder,
    lower: SSAValue,
    upper: SSAValue,
    step: SSAValue,
    carried: Sequence[SSAValue],
    body: LoopBody,
) -> Sequence[SSAValue]:
    """An `scf.for` whose body is built by `body(builder, iv, carried_args)`,
    which returns the values to yield; returns the loop's results."""
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    yielded = body(Builder(InsertPoint.at_end(block)), block.args[0], block.args[1:])
    block.add_op(scf.YieldOp(*yielded))
    return builder.insert(scf.ForOp(lower, upper, step, list(carried), Region(block))).results


def _zero(b: Builder, t: Attribute) -> SSAValue:
    """A zero of the scalar type `t` (a placeholder loop value)."""
    attr = FloatAttr(0.0, t) if isinstance(t, AnyFloat) else IntegerAttr(0, t)  # pyright: ignore[reportArgumentType]
    return b.insert(arith.ConstantOp(attr)).result


def _sort_dimension(op: SortOp, rank: int) -> int:
    dim = -1 if op.dimension is None else op.dimension.value.data
    return dim + rank if dim < 0 else dim


@dataclass(frozen=True)
class _Runs:
    """The two neighbouring runs `[lo, mid)` and `[mid, hi)` of one merge."""

    lo: SSAValue
    mid: SSAValue
    hi: SSAValue
    left_last: SSAValue
    right_last: SSAValue
    right_first: SSAValue


class _RowSort:
    """Builds the merge passes of one row, whose other indices are `row`."""

    def __init__(
        self, op: SortOp, dim: int, n: int, row: dict[int, SSAValue], rank: int, captured: dict[SSAValue, SSAValue]
    ):
        self.op = op
        self.captured = captured
        self.dim = dim
        self.n = n
        self.row = row
        self.rank = rank

    def indices(self, position: SSAValue) -> list[SSAValue]:
        return [position if d == self.dim else self.row[d] for d in range(self.rank)]

    def merge_pass(
        self,
        b: Builder,
        sources: Sequence[SSAValue],
        destinations: Sequence[SSAValue],
        width: SSAValue,
        carry_sources: bool,
    ) -> tuple[list[SSAValue], list[SSAValue]]:
        """Merge runs of `width` of `sources` into `destinations`; returns the new
        destinations and (when carried: they are loop values) the sources."""
        k = len(destinations)
        zero, one, n = index_constant(b, 0), index_constant(b, 1), index_constant(b, self.n)
        double = b.insert(arith.AddiOp(width, width)).result
        carried = [*destinations, *(sources if carry_sources else [])]

        def pair(bb: Builder, lo: SSAValue, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
            mid = bb.insert(arith.MinUIOp(bb.insert(arith.AddiOp(lo, width)).result, n)).result
            hi = bb.insert(arith.MinUIOp(bb.insert(arith.AddiOp(lo, double)).result, n)).result
            run = _Runs(
                lo,
                mid,
                hi,
                bb.insert(arith.SubiOp(mid, one)).result,
                bb.insert(arith.SubiOp(hi, one)).result,
                # Where the right run's reads are clamped: mid, or hi - 1 when it is empty.
                bb.insert(arith.MinUIOp(mid, bb.insert(arith.SubiOp(hi, one)).result)).result,
            )
            starts = [run.lo, run.right_first, run.left_last, run.right_last]
            if carry_sources:
                # The first heads are read inside a one-trip loop that passes the
                # sources through, so that each source keeps a single use here
                # (what `bufferize` needs to carry it without a copy).
                def read_heads(b2: Builder, _: SSAValue, a2: Sequence[SSAValue]) -> Sequence[SSAValue]:
                    srcs = a2[k : 2 * k]
                    return [*a2[: 2 * k], *(self.extract(b2, x, at) for at in starts for x in srcs)]

                placeholders = [_zero(bb, element_type_of(x.type)) for _ in starts for x in args[k:]]
                loaded = for_loop(bb, zero, one, one, [*args, *placeholders], read_heads)
                loop_args, heads = list(loaded[: 2 * k]), list(loaded[2 * k :])
            else:
                loop_args = list(args)
                heads = [self.extract(bb, x, at) for at in starts for x in sources]
            # Half the elements from the front, half from the back: two independent
            # chains of dependent loads and compares per iteration.
            steps = bb.insert(arith.ShRUIOp(bb.insert(arith.SubiOp(hi, lo)).result, one)).result
            pointers = [lo, mid, run.left_last, run.right_last]
            results = for_loop(
                bb,
                zero,
                steps,
                one,
                [*pointers, *heads, *loop_args],
                lambda b3, t, a3: self.merge_step(b3, t, a3, sources, carry_sources, k, run),
            )
            # With an odd total, one more step from the front writes the middle
            # element (a loop of one trip, else none).
            i, j, ib, jb = results[:4]
            lefts, rights = results[4 : 4 + k], results[4 + k : 4 + 2 * k]
            take, i_next, j_next = self.front_choice(bb, i, j, lefts, rights, run)
            total = bb.insert(arith.SubiOp(hi, lo)).result
            odd_bit = bb.insert(arith.AndIOp(total, one)).result
            middle = bb.insert(arith.AddiOp(lo, steps)).result

            def middle_step(b2: Builder, position: SSAValue, a2: Sequence[SSAValue]) -> Sequence[SSAValue]:
                return [
                    b2.insert(tensor.InsertOp(b2.insert(arith.SelectOp(take, r, lf)).result, d, self.indices(position))).result
                    for d, lf, r in zip(a2, lefts, rights)
                ]

            dsts = for_loop(
                bb, middle, bb.insert(arith.AddiOp(middle, odd_bit)).result, one, results[4 + 4 * k : 4 + 5 * k], middle_step
            )
            # Both ends took disjoint elements covering both runs when the front
            # stopped right before the back: always, unless the comparator is not
            # a strict weak order (e.g. LT on NaNs). Then the run pair is merged
            # again from the front alone (a loop of no trips otherwise), so the
            # result is always a permutation.
            i_end = bb.insert(arith.SelectOp(take, i, i_next)).result
            j_end = bb.insert(arith.SelectOp(take, j_next, j)).result
            odd = bb.insert(arith.CmpiOp(odd_bit, zero, "ne")).result
            i_met = bb.insert(arith.SelectOp(odd, i_end, i)).result
            j_met = bb.insert(arith.SelectOp(odd, j_end, j)).result
            met = bb.insert(
                arith.AndIOp(
                    bb.insert(arith.CmpiOp(i_met, bb.insert(arith.AddiOp(ib, one)).result, "eq")).result,
                    bb.insert(arith.CmpiOp(j_met, bb.insert(arith.AddiOp(jb, one)).result, "eq")).result,
                )
            ).result
            redo_end = bb.insert(arith.SelectOp(met, lo, hi)).result
            redone = for_loop(
                bb,
                lo,
                redo_end,
                one,
                [lo, mid, *dsts, *results[4 + 5 * k :]],
                lambda b3, position, a3: self.simple_step(b3, position, a3, sources, carry_sources, k, run),
            )
            return list(redone[2:])

        results = for_loop(b, zero, n, double, carried, pair)
        new_destinations = list(results[:k])
        return new_destinations, (list(results[k:]) if carry_sources else list(sources))

    def front_choice(
        self,
        b: Builder,
        i: SSAValue,
        j: SSAValue,
        lefts: Sequence[SSAValue],
        rights: Sequence[SSAValue],
        run: _Runs,
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        """Whether the front takes the right head (it compares strictly before the
        left one, or the left run is used up); also `i + 1` and `j + 1`."""
        comparator_args = [v for pair in zip(rights, lefts) for v in pair]
        (before,) = scalar_region_results(self.op, comparator_args, b, captured=self.captured)
        left_done = b.insert(arith.CmpiOp(i, run.mid, "uge")).result
        right_open = b.insert(arith.CmpiOp(j, run.hi, "ult")).result
        wants_right = b.insert(arith.OrIOp(left_done, before)).result
        one = index_constant(b, 1)
        return (
            b.insert(arith.AndIOp(right_open, wants_right)).result,
            b.insert(arith.AddiOp(i, one)).result,
            b.insert(arith.AddiOp(j, one)).result,
        )

    def simple_step(
        self,
        b: Builder,
        position: SSAValue,
        args: Sequence[SSAValue],
        outer_sources: Sequence[SSAValue],
        carry_sources: bool,
        k: int,
        run: _Runs,
    ) -> Sequence[SSAValue]:
        """Output element `position` of a front-only merge; the loop values are
        `(i, j, destinations..., [sources...])` and the heads are read each step."""
        i, j = args[0], args[1]
        destinations = args[2 : 2 + k]
        sources = args[2 + k :] if carry_sources else outer_sources
        left_at = b.insert(arith.MinUIOp(i, run.left_last)).result
        right_at = b.insert(arith.MinUIOp(j, run.right_last)).result
        lefts = [self.extract(b, x, left_at) for x in sources]
        rights = [self.extract(b, x, right_at) for x in sources]
        take, i_next, j_next = self.front_choice(b, i, j, lefts, rights, run)
        new_destinations = [
            b.insert(tensor.InsertOp(b.insert(arith.SelectOp(take, r, lf)).result, d, self.indices(position))).result
            for d, lf, r in zip(destinations, lefts, rights)
        ]
        return [
            b.insert(arith.SelectOp(take, i, i_next)).result,
            b.insert(arith.SelectOp(take, j_next, j)).result,
            *new_destinations,
            *(sources if carry_sources else []),
        ]

    def merge_step(
        self,
        b: Builder,
        t: SSAValue,
        args: Sequence[SSAValue],
        outer_sources: Sequence[SSAValue],
        carry_sources: bool,
        k: int,
        run: _Runs,
    ) -> Sequence[SSAValue]:
        """Output element `lo + t` from the front and `hi - 1 - t` from the back.
        The loop values are `(i, j, ib, jb, front lefts..., front rights..., back
        lefts..., back rights..., destinations..., [sources...])`: the heads of
        both runs seen from each end and their elements, kept in registers so
        that the loads of the next heads (clamped into their runs) are off the
        critical path."""
        i, j, ib, jb = args[:4]
        lefts, rights = args[4 : 4 + k], args[4 + k : 4 + 2 * k]
        back_lefts, back_rights = args[4 + 2 * k : 4 + 3 * k], args[4 + 3 * k : 4 + 4 * k]
        destinations = args[4 + 4 * k : 4 + 5 * k]
        sources = args[4 + 5 * k :] if carry_sources else outer_sources
        one = index_constant(b, 1)

        def select(c: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
            return b.insert(arith.SelectOp(c, x, y)).result

        # Front: the smallest remaining element; ties take the left one.
        take, i_next, j_next = self.front_choice(b, i, j, lefts, rights, run)
        front_at = self.indices(b.insert(arith.AddiOp(run.lo, t)).result)
        left_at = b.insert(arith.MinUIOp(i_next, run.left_last)).result
        right_at = b.insert(arith.MinUIOp(j_next, run.right_last)).result
        # Back: the largest remaining element; ties take the right one. Signed
        # compares: ib runs down to lo - 1, which is -1 for the first run.
        back_args = [v for pair in zip(back_rights, back_lefts) for v in pair]
        (right_before,) = scalar_region_results(self.op, back_args, b, captured=self.captured)
        left_open = b.insert(arith.CmpiOp(ib, run.lo, "sge")).result
        right_done = b.insert(arith.CmpiOp(jb, run.mid, "slt")).result
        wants_left = b.insert(arith.OrIOp(right_done, right_before)).result
        back_take = b.insert(arith.AndIOp(left_open, wants_left)).result
        ib_next = b.insert(arith.SubiOp(ib, one)).result
        jb_next = b.insert(arith.SubiOp(jb, one)).result
        back_left_at = b.insert(arith.MaxSIOp(ib_next, run.lo)).result
        back_right_at = b.insert(arith.MaxSIOp(jb_next, run.right_first)).result
        back_at = self.indices(b.insert(arith.SubiOp(run.right_last, t)).result)

        new_destinations = []
        for dest, lf, r, bl, br in zip(destinations, lefts, rights, back_lefts, back_rights):
            dest = b.insert(tensor.InsertOp(select(take, r, lf), dest, front_at)).result
            dest = b.insert(tensor.InsertOp(select(back_take, bl, br), dest, back_at)).result
            new_destinations.append(dest)
        new_lefts = [select(take, lf, self.extract(b, x, left_at)) for x, lf in zip(sources, lefts)]
        new_rights = [select(take, self.extract(b, x, right_at), r) for x, r in zip(sources, rights)]
        new_back_lefts = [select(back_take, self.extract(b, x, back_left_at), bl) for x, bl in zip(sources, back_lefts)]
        new_back_rights = [select(back_take, br, self.extract(b, x, back_right_at)) for x, br in zip(sources, back_rights)]
        pointers = [
            select(take, i, i_next),
            select(take, j_next, j),
            select(back_take, ib_next, ib),
            select(back_take, jb, jb_next),
        ]
        return [
            *pointers,
            *new_lefts,
            *new_rights,
            *new_back_lefts,
            *new_back_rights,
            *new_destinations,
            *(sources if carry_sources else []),
        ]

    def extract(self, b: Builder, source: SSAValue, position: SSAValue) -> SSAValue:
        return b.insert(tensor.ExtractOp(source, self.indices(position), element_type_of(source.type))).result

    def sort(self, b: Builder, inputs: Sequence[SSAValue], a: Sequence[SSAValue], s: Sequence[SSAValue]) -> list[SSAValue]:
        """All passes of the row: `inputs` → ... → `a` (using scratch `s`);
        returns the new `a` then the new `s`."""
        passes = (self.n - 1).bit_length()
        k = len(inputs)
        width = index_constant(b, 1)
        if passes % 2:
            a, _ = self.merge_pass(b, inputs, a, width, carry_sources=False)
        else:
            s, _ = self.merge_pass(b, inputs, s, width, carry_sources=False)
            a, s = self.merge_pass(b, s, a, index_constant(b, 2), carry_sources=True)
        done = 1 if passes % 2 else 2
        pairs = (passes - done) // 2
        if pairs == 0:
            return [*a, *s]
        first_width = index_constant(b, 1 << done)

        def two_passes(bb: Builder, _: SSAValue, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
            w, aa, ss = args[0], args[1 : 1 + k], args[1 + k :]
            ss, aa = self.merge_pass(bb, aa, ss, w, carry_sources=True)
            w2 = bb.insert(arith.AddiOp(w, w)).result
            aa, ss = self.merge_pass(bb, ss, aa, w2, carry_sources=True)
            return [bb.insert(arith.AddiOp(w2, w2)).result, *aa, *ss]

        results = for_loop(
            b, index_constant(b, 0), index_constant(b, pairs), index_constant(b, 1), [first_width, *a, *s], two_passes
        )
        return list(results[1:])


@lowers(SortOp)
def lower_sort(cx: Converter, op: SortOp, builder: Builder) -> Sequence[SSAValue]:
    inputs = cx.get_all(op.inputs)
    shape = static_shape(inputs[0])
    rank = len(shape)
    if rank == 0:
        raise LoweringError("sort needs an operand of rank >= 1", op)
    dim = _sort_dimension(op, rank)
    n = shape[dim]
    if n <= 1 or 0 in shape:
        return inputs  # nothing to reorder
    k = len(inputs)
    results = [empty(builder, v.type) for v in inputs]  # pyright: ignore[reportArgumentType]
    scratch = [empty(builder, v.type) for v in inputs]  # pyright: ignore[reportArgumentType]
    row_dims = [d for d in range(rank) if d != dim]
    zero = index_constant(builder, 0)
    captured = captured_scalars(cx, op, builder)

    def rows(b: Builder, depth: int, row: dict[int, SSAValue], carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        """Loop over the row dimensions from `depth` on, then sort the row."""
        if depth == len(row_dims):
            sorter = _RowSort(op, dim, n, row, rank, captured)
            return sorter.sort(b, inputs, carried[:k], carried[k:])
        d = row_dims[depth]
        if shape[d] == 1:
            return rows(b, depth + 1, {**row, d: zero}, carried)
        return for_loop(
            b,
            index_constant(b, 0),
            index_constant(b, shape[d]),
            index_constant(b, 1),
            carried,
            lambda bb, iv, args: rows(bb, depth + 1, {**row, d: iv}, args),
        )

    sorted_values = rows(builder, 0, {}, [*results, *scratch])
    return list(sorted_values[:k])


__all__ = ["for_loop", "lower_sort"]
