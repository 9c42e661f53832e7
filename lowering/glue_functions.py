"""`llvm-optnone-glue`: functions that only glue kernels together are compiled without
optimization.

After `outline-loop-nests` and `llvm-split-large-functions` the entry of a large
program is a chain of parts, each a block of calls (allocations, kernels, frees) and
the loads, stores and address computations that hand pointers between them:

    llvm.func internal @main.part3(%f: !llvm.ptr) attributes {no_inline} {
      %p = llvm.getelementptr inbounds %f[7] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
      %a = llvm.load %p : !llvm.ptr -> !llvm.ptr
      %b = llvm.call @aligned_alloc.checked(%c64, %c4096, %site) : ...
      llvm.call @main__kernel12(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
      ...

O3 has nothing to gain there (no loops, no arithmetic: each call runs once per call
of the program) but spent half of LLVM's time on them: at 10,010 transformer ops the
19 parts took 1.1 of the 1.7 CPU s of optimization and 1.0 of the 1.9 s of code
generation. Such a function gets `optimize_none` (LLVM's `optnone`, with the
`noinline` it requires): the optimizer skips it and the code generator uses its fast
instruction selection. The kernels it calls are compiled as before.

A function qualifies when its body is one block of only calls, loads, stores, address
computations (`getelementptr`, `alloca`, `addressof`, `inttoptr`, `ptrtoint`),
constants and the return, and when it is `no_inline` already (the parts) or not
internal (an entry: nothing in the module would inline it for speed). A function
computing anything else keeps every optimization.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

GLUE_OPS: tuple[type[Operation], ...] = (
    llvm.CallOp,
    llvm.LoadOp,
    llvm.StoreOp,
    llvm.GEPOp,
    llvm.AllocaOp,
    llvm.AddressOfOp,
    llvm.IntToPtrOp,
    llvm.PtrToIntOp,
    llvm.ConstantOp,
    llvm.ZeroOp,
    llvm.UndefOp,
    llvm.ReturnOp,
)
"""The ops a glue function may hold."""


def has_flag(fn: llvm.FuncOp, name: str) -> bool:
    """Whether `fn` has the unit flag `name`: a property, or an attribute as read from
    text."""
    return name in fn.properties or name in fn.attributes


def is_glue(fn: llvm.FuncOp) -> bool:
    """Whether `fn` is defined by one block of `GLUE_OPS` only, and is `no_inline` or
    not internal."""
    if len(fn.body.blocks) != 1:
        return False
    internal = fn.linkage.linkage.data in ("internal", "private")
    if internal and not has_flag(fn, "no_inline"):
        return False
    return all(isinstance(op, GLUE_OPS) for op in fn.body.block.ops)


def mark_glue_functions(module: ModuleOp) -> int:
    """Mark the glue functions of `module` `optimize_none` (and `no_inline`); how many."""
    marked = 0
    for op in module.ops:
        if isinstance(op, llvm.FuncOp) and not has_flag(op, "optimize_none") and is_glue(op):
            if not has_flag(op, "no_inline"):
                op.no_inline = UnitAttr()
            op.optimize_none = UnitAttr()
            marked += 1
    return marked


@dataclass(frozen=True)
class OptnoneGluePass(ModulePass):
    """Functions of calls, loads, stores and addresses only → `optimize_none`."""

    name = "llvm-optnone-glue"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mark_glue_functions(op)


__all__ = ["GLUE_OPS", "OptnoneGluePass", "has_flag", "is_glue", "mark_glue_functions"]
