"""`func-optsize-small-kernels`: kernels with little work are optimized for size.

A program's small arrays (a layer norm over 16 x 32 activations, the bias of a small
dense layer, an attention's scale on 16 x 16 scores) make kernels that run in
nanoseconds but cost LLVM's O3 as much as any other: it unrolls their constant loops
completely, then vectorizes the straight code across rows with gathers and the SLP
vectorizer searches it. A 16 x 32 normalization `(x - mean) / std` became 805
instructions and 0.1 s of O3; the 273-op transformer block of
`benchmarks/bench_compile_time.py` spends 0.79 CPU s in LLVM, 0.33 s with 19 of its
kernels marked `optsize` (2,688 instructions instead of 5,704), and runs as fast (A/B
0.998); the 255-op MLP's LLVM time goes 0.086 -> 0.062 s.

A function gets `llvm.optsize` (LLVM's `optsize`: no complete unrolling beyond what
shrinks the code, no interleaving; the loop vectorizer still vectorizes loops whose trip
count the vector width divides) when its static work is at most `max_work`: the sum,
over its ops, of the iterations of the loops around the op times the lanes of the op's
widest vector (1 for a scalar), counting every op, address arithmetic included. A
function with a loop whose trip count is not a constant, a `while`, a call, or several
blocks (branches, which may loop) is never small (its work is unknown), nor is a function with no loop at all (glue, which
`llvm-optnone-glue` handles). In the benchmarks' large programs only epilogues are this
small (a convolution's padded borders, a split sum's combination of partials): their
run times did not move (in-process A/B).

Runs after `scf-roll-outer-loops` (the loops are final); `convert-func-to-llvm` makes
the attribute the function's `passthrough = ["optsize"]`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, UnitAttr, VectorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from lowering.roll_outer_loops import static_trip_count

OPTSIZE = "llvm.optsize"
"""The function attribute `convert-func-to-llvm` turns into LLVM's `optsize`."""

MAX_WORK = 16384
"""The most static work (iterations x lanes, summed over a function's ops) of a small kernel."""


def _lanes(op: Operation) -> int:
    """The elements one execution of `op` handles: its widest vector operand or result."""
    return max((v.type.element_count() for v in (*op.results, *op.operands) if isinstance(v.type, VectorType)), default=1)


def static_work(fn: func.FuncOp, limit: int | None = None) -> int | None:
    """The static work of `fn` (see the module docstring), or None when it is unknown
    (a dynamic loop, a `while`, a call, no loop) or exceeds `limit`."""
    if len(fn.body.blocks) != 1:
        return None  # (branches between blocks may loop: the work is unknown)
    total = 0
    loops = 0
    stack: list[tuple[Operation, int]] = [(op, 1) for op in fn.body.block.ops]
    while stack:
        op, trips = stack.pop()
        if isinstance(op, (scf.WhileOp, scf.ParallelOp, func.CallOp)):
            return None
        if isinstance(op, scf.ForOp):
            count = static_trip_count(op)
            if count is None:
                return None
            loops += 1
            stack.extend((inner, trips * count) for inner in op.body.block.ops)
            continue
        total += trips * _lanes(op)
        if limit is not None and total > limit:
            return None
        for region in op.regions:
            for block in region.blocks:
                stack.extend((inner, trips) for inner in block.ops)
    return total if loops else None


def mark_small_kernels(module: ModuleOp, max_work: int = MAX_WORK) -> int:
    """Mark the functions of `module` whose static work is at most `max_work`
    `llvm.optsize`; returns how many."""
    marked = 0
    for op in module.ops:
        if not isinstance(op, func.FuncOp) or not op.body.blocks or OPTSIZE in op.attributes:
            continue
        if static_work(op, max_work) is not None:
            op.attributes[OPTSIZE] = UnitAttr()
            marked += 1
    return marked


@dataclass(frozen=True)
class OptsizeSmallKernelsPass(ModulePass):
    """Functions of little static work → `llvm.optsize` (see the module docstring)."""

    name = "func-optsize-small-kernels"

    max_work: int = MAX_WORK

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mark_small_kernels(op, self.max_work)


__all__ = ["MAX_WORK", "OPTSIZE", "OptsizeSmallKernelsPass", "mark_small_kernels", "static_work"]
