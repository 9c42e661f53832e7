"""`outline-linalg-kernels`: each group of adjacent computations on buffers becomes a
function of its own, made once for all identical groups.

A program of repeated layers (a transformer's blocks, an MLP's dense layers) holds,
after bufferization, many copies of the same computations on buffers of the same
types. `outline-loop-nests` and `merge-identical-functions` keep one kernel per
distinct copy, but only after the codegen passes between `bufferize` and them
(packing, vectorization, loop generation, `lower-affine`) have lowered every copy:
14 of the 40 CPU s of compiling 10,010 transformer ops. This pass, run right
after bufferization, outlines the computations first, so those passes see each
distinct one once:

    %t = memref.alloc() : memref<16xf32>           %t = memref.alloc() : memref<16xf32>
    linalg.fill ins(%z : f32) outs(%t : ...)        func.call @main__linalg0(%a, %t)
    linalg.generic ... ins(%a) outs(%t)     ->      %u = memref.alloc() : memref<16xf32>
    %u = memref.alloc() : memref<16xf32>            func.call @main__linalg0(%b, %u)
    linalg.fill ins(%z : f32) outs(%u : ...)        ...
    linalg.generic ... ins(%b) outs(%u)             func.func private @main__linalg0(%a: ..., %t: ...) {
                                                      %z = arith.constant 0.0 : f32
                                                      linalg.fill ...; linalg.generic ...
                                                    }

A group is a maximal run of computations (`linalg` ops, `memref.copy`, `scf.for` and
`scf.parallel` without results) in a function's body block with nothing between them
but constants and views. The later passes that combine several ops only combine such
neighbours (`scf-fuse-parallel-loops` fuses loops with only constants and views
between them; packing and splitting keep their scratch in the function of the op
they lower), so a group holds every op any of them could combine with one of its
own: each group is lowered as it would have been in place. An allocation, a free,
a call or any other op ends a group. A group none of whose ops becomes a loop (a
fill of a rank-0 buffer, a small copy) stays in place.

The function is made as `outline-loop-nests` makes a kernel: it takes the buffers
and scalars the group uses (constants and views re-created inside), its buffers are
`llvm.noalias` when each is a distinct object (an allocation or a `noalias`
parameter), it is private, internal and `noinline`, named `<function>__linalg<N>`
and marked `xla.kernel_group`; a group whose function would be identical to one
made before (the same key `merge-identical-functions` computes) calls that one.
`outline-loop-nests` outlines the function's nests as any function's (the kernels
it would have made of the nests in place) and then inlines what is left of it, when that has no
loop (calls of the kernels, the arguments they are given), back into its callers:
the module is then the one made without this pass, up to the kernels' names and
the place of constants and scratch allocations (the llvm dialect modules of the
compile-time benchmark's 4- and 17-block transformers are equal up to the kernels'
names).

A group using a value that cannot be passed (a buffer of dynamic shape or another
layout, a value of another type) or defining a value used after it stays in place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from lowering.outline_loop_nests import (
    GROUP,
    RECREATED_CONSTANTS,
    RECREATED_VIEWS,
    KernelOutliner,
    captures_of,
)
from lowering.parallel.linalg_to_parallel_loops import MIN_COPY_ELEMENTS


def _computes(op: Operation) -> bool:
    if op.results:
        return False
    return op.name.startswith("linalg.") or isinstance(op, (memref.CopyOp, scf.ForOp, scf.ParallelOp))


def _loops(op: Operation) -> bool:
    """Whether `op` becomes a loop: a loop, a `linalg` op on a buffer of rank 1 or more
    (one on scalars and rank-0 buffers is straight-line code), a copy large enough to
    become one (`convert-linalg-to-parallel-loops`)."""
    if isinstance(op, (scf.ForOp, scf.ParallelOp)):
        return True
    if isinstance(op, memref.CopyOp):
        t = op.source.type
        return isinstance(t, MemRefType) and t.get_num_dims() > 0 and math.prod(t.get_shape()) >= MIN_COPY_ELEMENTS
    return any(isinstance(v.type, MemRefType) and v.type.get_num_dims() > 0 for v in op.operands)


def _between(op: Operation) -> bool:
    """Whether `op` may sit between two computations of a group (it does not end it)."""
    return (isinstance(op, RECREATED_CONSTANTS) and not op.operands) or isinstance(op, RECREATED_VIEWS)


def kernel_groups(fn: func.FuncOp) -> list[list[Operation]]:
    """The groups of `fn`'s body block, in order (see the module's docstring)."""
    groups: list[list[Operation]] = []
    current: list[Operation] = []
    for op in fn.body.block.ops:
        if _computes(op):
            current.append(op)
        elif not _between(op):
            if current:
                groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def outline_linalg_kernels(module: ModuleOp, merge_identical: bool = True) -> None:
    """Outline every group of every function of `module` (with `merge_identical`,
    identical groups share one function)."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp) and len(op.body.blocks) == 1]
    outliner = KernelOutliner(
        module, {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}, merge_identical
    )
    for fn in functions:
        anchor: Operation = fn
        for group in kernel_groups(fn):
            if not any(_loops(op) for op in group):
                continue
            captures = captures_of(group)
            if captures is None:
                continue
            made = outliner.outline(fn, captures, anchor, "__linalg")
            if made is not anchor:  # (a new function, not a call of one made before)
                made.attributes[GROUP] = UnitAttr()
            anchor = made


@dataclass(frozen=True)
class OutlineLinalgKernelsPass(ModulePass):
    """Each run of adjacent computations on buffers → a private function, once per
    distinct run, and a call."""

    name = "outline-linalg-kernels"

    merge_identical: bool = True
    """A group whose function would be identical to one made before calls that one."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_linalg_kernels(op, self.merge_identical)


__all__ = ["OutlineLinalgKernelsPass", "kernel_groups", "outline_linalg_kernels"]
