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
  i8 and bf16 packs run slower rolled.

A loop that holds another loop gets `no_unroll`; an innermost one, which LLVM
vectorizes, gets `vectorized_no_unroll` (LLVM may still unroll it before vectorizing, a
loop of a few elements, but not the vector loop it makes of it).

Runs after `convert-parallel-loops-to-calls` (the loops are final) and before
`lower-scf-to-cf`, which carries the annotation to the loop's latch.

Measured (LLVM's optimized instructions, Cascade Lake): a 2-layer GPT's Adam step (1,664
ops, d = 64) 46,281 -> 31,050, its O3 phase 8.8 -> 6.3 s (code generation unchanged);
the MLP training step 10,612 -> 9,063; the benchmarks' run times unchanged in in-process
A/B; the packs, conv 3x3, the depthwise convolution and the streaming kernels get the
same IR as without the pass.
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


def roll_outer_loops(module: Operation, max_unrolled: int = MAX_UNROLLED) -> int:
    """Annotate the static loops of arithmetic nests in `module` (see the module
    docstring); returns how many."""
    marked = 0
    for op in module.walk():
        if not isinstance(op, scf.ForOp) or LOOP_ANNOTATION in op.attributes:
            continue
        trips = static_trip_count(op)
        if trips is None or trips <= max_unrolled or not computes(op):
            continue
        if any(isinstance(inner, (scf.ForOp, scf.WhileOp)) for inner in op.body.walk()):
            set_no_unroll(op)
        else:
            set_vectorized_no_unroll(op)
        marked += 1
    return marked


@dataclass(frozen=True)
class RollOuterLoopsPass(ModulePass):
    """Keep the static outer loops of arithmetic nests rolled (see the module docstring)."""

    name = "scf-roll-outer-loops"

    max_unrolled: int = MAX_UNROLLED

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        roll_outer_loops(op, self.max_unrolled)


__all__ = ["MAX_UNROLLED", "RollOuterLoopsPass", "computes", "roll_outer_loops", "static_trip_count"]
