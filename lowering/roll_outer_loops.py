"""`scf-roll-outer-loops`: outer loops of arithmetic nests stay loops in LLVM.

LLVM's O3 unrolls completely every loop whose trip count is a constant and whose
unrolled body stays under its threshold, innermost loops first; an outer loop whose
inner loops have gone is then unrolled too. After vectorization, a loop over 64 or
128 elements is two or four iterations of vectors, so on small static shapes (a small
GPT's training step: rows of 64, blocks of 8 and 16 rows) whole row blocks of fused
kernels become straight code: 16 copies of a layer norm's three row loops, 8 of a
log-softmax's. That multiplies LLVM's work (optimization and code generation grow with
the code) and the rows gain nothing: each row's loop is already a vector loop.

This pass annotates (`lowering/loop_annotation.py`) each `scf.for` that

* has a static trip count above `max_unrolled` (a convolution's 3x3 window unrolled
  around its channel vector keeps its accumulator in registers: that is worth it),
* carries no loop annotation yet (a choice made earlier wins), and
* computes: its loops do arithmetic other than on indices. A nest that only moves data
  (the contractions' packs: loads, stores, extensions, selects and index arithmetic) is
  left to LLVM, which turns its unrolled inner loops into wide shuffles and moves; the
  i8 and bf16 packs run slower rolled. Except when LLVM would unroll it into a long
  straight run of loads and stores: a loop of such a nest that holds a loop, has at
  most `max_move_trips` (64) iterations and heads a nest moving more than `min_moved`
  (128) elements stays rolled too. The small GPT's attention packs its 4 x 32 x 16
  operands per head ([4, 6, 16, 6] and [4, 2, 16, 16] elements): unrolled, 2,928 scalar
  loads and 5,285 address computations in one kernel.

A loop that holds another loop gets `no_unroll`; an innermost one, which LLVM
vectorizes, gets `vectorized_no_unroll` (LLVM may still unroll it before vectorizing, a
loop of a few elements, but not the vector loop it makes of it), and `no_unroll` too
when it is a reduction of 16 to 64 iterations (`min_reduction`, `max_reduction`), or a
map of as many inside a loop over more than `max_unrolled` rows that it writes apart,
which LLVM would otherwise unroll and then vectorize across the rows around it, with
gathers.

Runs after `convert-parallel-loops-to-calls` (the loops are final) and before
`lower-scf-to-cf`, which carries the annotation to the loop's latch.

Measured (LLVM's optimized instructions, Cascade Lake): a 2-layer GPT's Adam step (1,664
ops, d = 64) 46,281 -> 31,050, its O3 phase 8.8 -> 6.3 s (code generation unchanged);
the MLP training step 10,612 -> 9,063; the benchmarks' run times unchanged in in-process
A/B; the packs, conv 3x3, the depthwise convolution and the streaming kernels get the
same IR as without the pass. The data-moving nests (Zen 3, AVX2): the same GPT step
59,239 -> 37,732 instructions, O3 7.7 -> 4.1 s, code generation 19.2 -> 11.5 s, its
run time unchanged (A/B 0.98); the contraction and memory suites unchanged in A/B
(matmul 512 f64, whose 512-row pack loop LLVM unrolls by parts, is why loops of more
than 64 iterations are left alone). The small reductions: that GPT step 37,732 -> 33,985
instructions (its softmax backward's kernel 4,319 -> 2,431), its compile 23.9 -> 21.9 CPU
s, run time unchanged (0.995; sums reassociated, as their `reassoc` flag allows), the
memory, transcendental and contraction suites unchanged (the depthwise convolution,
whose inner loop is not a reduction, 0.97). The maps over rows (Zen 3): that GPT step's
optimized instructions 28,694 -> 26,015 (its softmax backward's kernel 2,410 -> 1,129),
LLVM's share of its compile ~0.8 CPU s shorter; run time unchanged in A/B (the GPT step
0.98-0.99, the 273- and 1,001-op transformers 1.00; the three suites 1.000, the same
bits). Around a reduction loop (a small matrix product's `k`, whose steps all write
one row) the inner loop is still unrolled: the 1,001-op transformer ran 1.54x slower
with those rolled.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from lowering.loop_annotation import LOOP_ANNOTATION, set_no_unroll, set_vectorized_no_unroll

MAX_UNROLLED = 4
"""Loops of at most this many iterations are left to LLVM (`max_unrolled`)."""


def _reduces(loop: scf.ForOp) -> bool:
    """Whether `loop` accumulates: it carries values, or stores to an element whose
    indices do not involve its induction variable (a reduction through memory)."""
    if loop.iter_args:
        return True
    iv = loop.body.block.args[0]
    for op in loop.body.block.ops:
        if isinstance(op, memref.StoreOp) and iv not in op.indices:
            return True
    return False


def _maps_rows(loop: scf.ForOp, max_unrolled: int) -> bool:
    """Whether the loop around `loop` maps over more than `max_unrolled` rows: each store
    of `loop` writes where the outer loop's induction variable says (its indices or its
    view depend on it). Unrolled completely, `loop` would leave the outer loop innermost,
    and LLVM vectorizes that one across the rows, with gathers and scatters of elements a
    row apart. Around a loop that accumulates (a matrix product's row of the result, the
    same for every step of the outer loop) the unrolled copies keep their sums in
    registers instead, and that is left to LLVM."""
    outer = _enclosing_loop(loop)
    if not isinstance(outer, scf.ForOp):
        return False
    trips = static_trip_count(outer)
    if trips is None or trips <= max_unrolled:
        return False
    stores = [op for op in loop.body.block.ops if isinstance(op, (memref.StoreOp, vector.StoreOp))]
    if not stores:
        return False
    dependent: set[SSAValue] = {outer.body.block.args[0]}
    for op in outer.body.walk():
        if any(operand in dependent for operand in op.operands):
            dependent.update(op.results)
    return all(
        (store.memref if isinstance(store, memref.StoreOp) else store.base) in dependent
        or any(index in dependent for index in store.indices)
        for store in stores
    )


MIN_REDUCTION = 16
MAX_REDUCTION = 64
"""An innermost reduction of `min_reduction` to `max_reduction` iterations is not
unrolled either (it keeps its vectorized-loop hint too): LLVM would unroll it
completely first, then vectorize the loop around it, across the rows, with a gather
of eight scalar loads per vector (the small GPT's softmax backward over rows of 32:
a block of 1,913 instructions). Longer rows are never unrolled completely, and the
hint would cost them LLVM's interleaving (a layer norm's 1,024-wide rows: 1.26x).
Nor is a map of as many iterations inside a loop over rows (`_maps_rows`), for the
same reason: the small GPT's softmax backward again, its last step over rows of 32
(1,392 instructions of gathers and scatters in one block)."""

MIN_MOVED = 128
"""A data-moving nest's loops stay rolled when it moves more elements than this (`min_moved`).
256 until session 16; at 128 a small CNN's first convolution keeps its 32-row loop of 6
elements an im2col row rolled (unrolled, LLVM made 3,241 instructions of 10-wide vector
gathers of it, 0.7 CPU s of code generation): the CNN step's optimized instructions
22,731 -> 20,275 and its compile ~4% shorter, the GPT step's 25,552 -> 24,501; run time
unchanged in A/B (the contraction suite 1.001, the GPT, CNN and transformer steps
1.000 / 0.985 / 1.006, the same bits)."""

MAX_MOVE_TRIPS = 64
"""...and only its loops of at most this many iterations (`max_move_trips`): LLVM unrolls
a longer loop partially, not completely, and a pack runs faster for it."""

_MOVES: tuple[type[Operation], ...] = (
    memref.LoadOp,
    memref.StoreOp,
    memref.SubviewOp,
    vector.LoadOp,
    vector.StoreOp,
    vector.BroadcastOp,
    vector.MaskedLoadOp,
    vector.MaskedStoreOp,
    vector.ShuffleOp,
    vector.ExtractOp,
    vector.InsertOp,
    arith.ConstantOp,
    arith.SelectOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.ExtFOp,
    arith.TruncIOp,
    arith.TruncFOp,
    arith.BitcastOp,
    arith.IndexCastOp,
    scf.YieldOp,
)
"""Ops that move or convert data (a pack's body), whatever their operand types."""


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def static_trip_count(loop: scf.ForOp) -> int | None:
    """The iterations of `loop` when its bounds and step are constants."""
    lb, ub, step = _constant(loop.lb), _constant(loop.ub), _constant(loop.step)
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _is_index(t: Attribute) -> bool:
    return isinstance(t, IndexType) or (isinstance(t, VectorType) and isinstance(t.element_type, IndexType))


def _on_indices(op: Operation) -> bool:
    """Address arithmetic: every operand an index (a comparison of indices included)."""
    return bool(op.operands) and all(_is_index(o.type) for o in op.operands) or all(_is_index(r.type) for r in op.results)


def computes(loop: scf.ForOp) -> bool:
    """Whether the loops innermost in `loop` do arithmetic beyond moving data."""
    for op in loop.body.walk():
        if isinstance(op, (scf.ForOp, scf.ParallelOp, scf.WhileOp, scf.IfOp, *_MOVES)):
            continue
        if op.name.startswith("arith.") and _on_indices(op):
            continue
        if op.name.startswith(("arith.", "math.", "vector.", "llvm.", "complex.")):
            return True
    return False


def nest_iterations(loop: scf.ForOp) -> int | None:
    """How many times the innermost body runs along `loop`'s deepest path: its trip count
    times the largest of its directly nested loops' (None if any is not static)."""
    trips = static_trip_count(loop)
    if trips is None:
        return None
    inner = 1
    for op in loop.body.walk():
        if isinstance(op, scf.WhileOp):
            return None
        if isinstance(op, scf.ForOp) and _enclosing_loop(op) is loop:
            count = nest_iterations(op)
            if count is None:
                return None
            inner = max(inner, count)
    return trips * inner


def _enclosing_loop(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    return parent


def _rolls_moves(loop: scf.ForOp, trips: int, min_moved: int, max_trips: int) -> bool:
    """Whether a loop of a data-moving nest stays rolled: it holds a loop, LLVM could
    unroll it completely (`trips` <= `max_trips`), and the nest it heads moves more than
    `min_moved` elements (straight code of that many loads and stores)."""
    if trips > max_trips or not any(isinstance(op, scf.ForOp) for op in loop.body.walk()):
        return False
    moved = nest_iterations(loop)
    return moved is not None and moved > min_moved


def roll_outer_loops(
    module: Operation,
    max_unrolled: int = MAX_UNROLLED,
    min_moved: int = MIN_MOVED,
    max_move_trips: int = MAX_MOVE_TRIPS,
    min_reduction: int = MIN_REDUCTION,
    max_reduction: int = MAX_REDUCTION,
) -> int:
    """Annotate the static loops of `module` that stay rolled (see the module
    docstring); returns how many."""
    marked = 0
    for op in module.walk():
        if not isinstance(op, scf.ForOp) or LOOP_ANNOTATION in op.attributes:
            continue
        trips = static_trip_count(op)
        if trips is None or trips <= max_unrolled:
            continue
        if not computes(op):
            if _rolls_moves(op, trips, min_moved, max_move_trips):
                set_no_unroll(op)
                marked += 1
            continue
        if any(isinstance(inner, (scf.ForOp, scf.WhileOp)) for inner in op.body.walk()):
            set_no_unroll(op)
        else:
            set_vectorized_no_unroll(op)
            if min_reduction <= trips <= max_reduction and (_reduces(op) or _maps_rows(op, max_unrolled)):
                set_no_unroll(op)
        marked += 1
    return marked


@dataclass(frozen=True)
class RollOuterLoopsPass(ModulePass):
    """Keep the static outer loops of arithmetic nests rolled (see the module docstring)."""

    name = "scf-roll-outer-loops"

    max_unrolled: int = MAX_UNROLLED
    min_moved: int = MIN_MOVED
    max_move_trips: int = MAX_MOVE_TRIPS
    min_reduction: int = MIN_REDUCTION
    max_reduction: int = MAX_REDUCTION

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        roll_outer_loops(
            op, self.max_unrolled, self.min_moved, self.max_move_trips, self.min_reduction, self.max_reduction
        )


__all__ = [
    "MAX_MOVE_TRIPS",
    "MAX_REDUCTION",
    "MAX_UNROLLED",
    "MIN_MOVED",
    "MIN_REDUCTION",
    "RollOuterLoopsPass",
    "computes",
    "nest_iterations",
    "roll_outer_loops",
    "static_trip_count",
]
