"""The allocations, frees and calls of a function lowered in one sweep, when
`convert-to-llvm` converts the function itself.

After `outline-loop-nests` a program's entry is glue: one block of `memref.alloc`,
`func.call` and `memref.dealloc` (3,000 of each at 10,000 ops) around the kernels.
Lowered op by op by the greedy walker, each of them is a worklist entry, a
dead-code test, an unrealized cast of its result back to a memref that its users
look through and the reconciliation then removes, and each op it makes is a worklist
entry too. Here, when `FuncLowering` has made the `llvm.func`, the function's
allocations, frees and calls are lowered in order with the patterns' own builders
(`alloc_ops`, `free_op`, the call of `CallLowering`); an allocation's pointer is
handed to the calls and frees that use it without a cast, and the ops made are not
put on the walker's worklist (no pattern matches an llvm op).

The module is the one the patterns make, byte for byte: the walker visits a
function, then its ops in order, so the runtime declarations, checked allocators
and site strings are added to the module in the same order. Hence only functions
whose other ops add nothing to the module (`QUIET`) are taken, and only when every
allocation is one the lowering accepts (else the patterns report the error on the
op that has it).
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.ir import Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.to_llvm.common import call_op, llvm_operand, unrealized_cast
from lowering.to_llvm.memref import alloc_ops, alloc_plan, free_op
from xla_dialect.diagnostics import LoweringError

QUIET = frozenset(
    {
        "func.return",
        "arith.constant",
        "memref.load",
        "memref.store",
        "memref.get_global",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.cast",
        "builtin.unrealized_conversion_cast",
    }
)
"""Ops whose lowering adds nothing to the module (no declaration, global or function)."""

GLUE = (memref.AllocOp, memref.DeallocOp, func.CallOp)


def lower_glue(body: Region, rewriter: PatternRewriter) -> None:
    """Lower the allocations, frees and calls (of at most one result) of a function
    body that the walker has not visited yet, if its other ops are `QUIET`."""
    ops: list[Operation] = []
    plans: dict[memref.AllocOp, tuple[int, int]] = {}
    for block in body.blocks:
        for op in block.ops:
            if isinstance(op, GLUE):
                if isinstance(op, func.CallOp) and len(op.res) > 1:
                    return  # CallLowering reports it
                if isinstance(op, memref.AllocOp):
                    try:
                        plans[op] = alloc_plan(op)
                    except LoweringError:
                        return  # AllocLowering reports it
                ops.append(op)
            elif op.name not in QUIET or op.regions:
                return
    if not plans and not ops:
        return
    pointers: dict[SSAValue, SSAValue] = {}
    allocs: list[tuple[memref.AllocOp, SSAValue, Operation]] = []

    def operand(value: SSAValue, user: Operation) -> SSAValue:
        ptr = pointers.get(value)
        return ptr if ptr is not None else llvm_operand(value, rewriter, user)

    for op in ops:
        if isinstance(op, memref.AllocOp):
            new, ptr = alloc_ops(op, plans[op], rewriter)
            Rewriter.insert_op(new, InsertPoint.before(op))
            pointers[op.memref] = ptr
            allocs.append((op, ptr, new[-1]))
        elif isinstance(op, memref.DeallocOp):
            Rewriter.insert_op(free_op(op, operand(op.memref, op), rewriter), InsertPoint.before(op))
            rewriter.erase(op)
        else:
            assert isinstance(op, func.CallOp)
            if op.res:
                continue  # the patterns lower a call with a result (its result's cast)
            args = [operand(a, op) for a in op.arguments]
            Rewriter.insert_op(call_op(op.callee, *args), InsertPoint.before(op))
            rewriter.erase(op)
    for op, ptr, call in allocs:
        if op.memref.uses:  # users the patterns lower: through a cast, as `replace_with_llvm` makes
            cast = unrealized_cast(ptr, op.memref.type)
            Rewriter.insert_op(cast, InsertPoint.after(call))
            op.memref.replace_all_uses_with(cast.results[0])
        rewriter.erase(op)


__all__ = ["QUIET", "lower_glue"]
