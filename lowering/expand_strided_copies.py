"""`memref-expand-strided-copies`: copies between strided views become loop nests, early
enough to be outlined as kernels.

A `memref.copy` between contiguous buffers is one `memcpy` (`convert-memref-to-llvm`);
one from or to a strided view (bufferization makes them of a slice of a fused QKV
projection, a concatenation into a view, a transpose's layout change) needs a loop per
dimension. `convert-memref-to-llvm` would build those loops where the copy is, in the
function that calls the kernels, which is then no longer glue: LLVM optimizes it whole
(a small GPT's Adam step: 14 copies of 4 x 32 x 64 elements became 768 `memcpy`s of
rows and inlined allocation checks in a 5,760-instruction entry) instead of compiling it
`optnone` (`llvm-optnone-glue`). Here each such copy becomes

    scf.for %i = 0 to 4 { scf.for %j = 0 to 32 { scf.for %k = 0 to 64 {
      %x = memref.load %src[%i, %j, %k]
      memref.store %x, %dst[%i, %j, %k]
    } } }

which `outline-loop-nests` then makes a kernel of, and `scf-roll-outer-loops` treats as
the data-moving nest it is. Runs after `lower-affine`, before `outline-loop-nests`.
Copies of zero elements and copies of dynamic shape are left to the LLVM lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.to_llvm.common import is_contiguous


def is_strided_copy(op: Operation) -> bool:
    """Whether `op` is a static, non-empty `memref.copy` from or to a non-contiguous view."""
    if not isinstance(op, memref.CopyOp):
        return False
    src, dst = op.source.type, op.destination.type
    if not isinstance(src, MemRefType) or not isinstance(dst, MemRefType):
        return False
    shape = src.get_shape()
    if any(d < 0 for d in shape) or 0 in shape or tuple(dst.get_shape()) != tuple(shape):
        return False
    return not (is_contiguous(src) and is_contiguous(dst))


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def expand_copy(op: memref.CopyOp) -> None:
    """Replace `op` by a loop nest of element loads and stores."""
    shape = op.source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    zero, one = _index(0), _index(1)
    bounds = {size: _index(size) for size in shape}
    Rewriter.insert_op([zero, one, *bounds.values()], InsertPoint.before(op))
    ivs: list[SSAValue] = []
    point = InsertPoint.before(op)
    for size in shape:
        body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(zero.result, bounds[size].result, one.result, [], Region(body))
        Rewriter.insert_op(loop, point)
        ivs.append(body.args[0])
        body.add_op(scf.YieldOp())
        point = InsertPoint.before(body.last_op)  # pyright: ignore[reportArgumentType]
    load = memref.LoadOp.get(op.source, ivs)
    store = memref.StoreOp.get(load.res, op.destination, ivs)
    Rewriter.insert_op([load, store], point)
    Rewriter.erase_op(op)


def expand_strided_copies(module: Operation) -> int:
    """Expand every strided copy of `module`; returns how many."""
    copies = [op for op in module.walk() if is_strided_copy(op)]
    for op in copies:
        expand_copy(op)  # pyright: ignore[reportArgumentType]
    return len(copies)


@dataclass(frozen=True)
class ExpandStridedCopiesPass(ModulePass):
    """`memref.copy` from or to a strided view → an `scf.for` nest (see the module docstring)."""

    name = "memref-expand-strided-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        expand_strided_copies(op)


__all__ = ["ExpandStridedCopiesPass", "expand_copy", "expand_strided_copies", "is_strided_copy"]
