"""`memref-hoist-loop-allocations`: a temporary allocated and freed in each iteration
of a sequential loop is allocated once, before the loop, and freed after it.

Row fusion (`linalg-fuse-reductions`) runs softmax or layer norm as an `scf.for`
over blocks of rows whose members each write a block-sized temporary; after
bufferization every temporary is a `memref.alloc` at the top of the body and a
`memref.dealloc` at its end, so a 1024-row layer norm made 6,144 calls to the
allocator. A temporary's contents do not outlive the iteration (it is freed at
its end), so one buffer serves every iteration.

An allocation moves when it is directly in the body of an `scf.for` (or in
either region of an `scf.while`: a `while` carrying a tensor allocated its
compare's i1 and its next counter in every iteration, ~150 ns of a trivial
iteration), has a static shape (no size operands), is freed by a
`memref.dealloc` in the same block, and its buffer is not yielded by the loop
nor used in the other region. Loops are visited innermost
first, so a temporary leaves a nest of `scf.for`s entirely. An `scf.parallel`
body keeps its allocations: its iterations may run at the same time, each with
its own buffer. The pass must therefore run after any pass that turns an
`scf.for` into an `scf.parallel`.

In the body of a row-fusion loop made parallel (`fusion = "rows..."`), a
temporary that meets the same conditions and is small (at most
`SCRATCH_BYTES`, and the body's scratch at most `SCRATCH_BODY_BYTES` in all)
becomes a `memref.alloca`, a scratch buffer: `convert-parallel-loops-to-calls`
makes it once per chunk of iterations (per thread), or once in the function's
entry when the loop stays serial. A layer norm's row loop, parallel since it may
run on several threads, otherwise called `aligned_alloc` and `free` once per row,
a third of its time on one core. Other parallel bodies keep their allocations:
on the stack, `linalg-tile-transposes`'s 8x8 tile becomes registers that LLVM
fills with gathers, ten times slower than through memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass


def _dealloc_in(alloc: memref.AllocOp, body: Operation) -> memref.DeallocOp | None:
    """The `memref.dealloc` of `alloc`'s buffer in the same block, if its only
    other uses are inside the block (not the terminator)."""
    block = alloc.parent_block()
    assert block is not None
    found: memref.DeallocOp | None = None
    for use in alloc.memref.uses:
        user = use.operation
        while user.parent_block() is not block:
            parent = user.parent_op()
            if parent is None or parent is body:
                return None
            user = parent
        if user is block.last_op:
            return None
        if isinstance(use.operation, memref.DeallocOp) and use.operation.parent_block() is block:
            if found is not None:
                return None
            found = use.operation
    return found


def hoist_from(loop: scf.ForOp | scf.WhileOp) -> int:
    """Move the loop's per-iteration temporaries out of it; return how many moved."""
    parent = loop.parent_block()
    if parent is None:
        return 0
    moved = 0
    if isinstance(loop, scf.WhileOp):
        blocks = [loop.before_region.block, loop.after_region.block]
    else:
        blocks = [loop.body.block]
    for op in [op for block in blocks for op in block.ops]:
        if not isinstance(op, memref.AllocOp) or op.dynamic_sizes or op.symbol_operands:
            continue
        dealloc = _dealloc_in(op, loop)
        if dealloc is None:
            continue
        op.detach()
        parent.insert_op_before(op, loop)
        dealloc.detach()
        parent.insert_op_after(dealloc, loop)
        moved += 1
    return moved


SCRATCH_BYTES = 64 * 1024
"""The largest temporary of a parallel body that becomes a scratch `memref.alloca`."""

SCRATCH_BODY_BYTES = 256 * 1024
"""The most stack one parallel body's scratch buffers take together."""


def _static_bytes(alloc: memref.AllocOp) -> int | None:
    t = alloc.memref.type
    if not isinstance(t, MemRefType):
        return None
    shape = t.get_shape()
    width = getattr(t.element_type, "bitwidth", None)
    if any(d < 0 for d in shape) or not isinstance(width, int) or width % 8:
        return None
    size = width // 8
    for d in shape:
        size *= d
    return size


def scratch_in(loop: scf.ParallelOp) -> int:
    """Turn the small per-iteration temporaries of a parallel body into scratch
    `memref.alloca`s; return how many were turned."""
    turned = 0
    budget = SCRATCH_BODY_BYTES
    for op in list(loop.body.block.ops):
        if not isinstance(op, memref.AllocOp) or op.dynamic_sizes or op.symbol_operands:
            continue
        size = _static_bytes(op)
        if size is None or size > SCRATCH_BYTES or size > budget:
            continue
        dealloc = _dealloc_in(op, loop)
        if dealloc is None:
            continue
        alloca = memref.AllocaOp.build(
            operands=[[], []], result_types=[op.memref.type], properties={"alignment": op.alignment}
        )
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(alloca, op)
        op.memref.replace_all_uses_with(alloca.memref)
        dealloc.detach()
        dealloc.erase()
        op.detach()
        op.erase()
        budget -= size
        turned += 1
    return turned


@dataclass(frozen=True)
class HoistLoopAllocationsPass(ModulePass):
    """Per-iteration temporaries of sequential loops (`scf.for`, `scf.while`) → one buffer around the loop."""

    name = "memref-hoist-loop-allocations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [inner for inner in op.walk() if isinstance(inner, scf.ForOp | scf.WhileOp)]
        for loop in reversed(loops):  # inner loops first: a walk lists a loop before its body
            hoist_from(loop)
        for parallel in [inner for inner in op.walk() if isinstance(inner, scf.ParallelOp)]:
            fusion = parallel.attributes.get("fusion")
            if isinstance(fusion, StringAttr) and fusion.data.startswith("rows"):
                scratch_in(parallel)


__all__ = ["SCRATCH_BODY_BYTES", "SCRATCH_BYTES", "HoistLoopAllocationsPass", "hoist_from", "scratch_in"]
