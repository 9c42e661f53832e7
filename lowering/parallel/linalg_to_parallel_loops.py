"""`convert-linalg-to-parallel-loops`: generics whose outer loop is parallel → a loop
nest with an `scf.parallel` outside.

Runs just before xDSL's `convert-linalg-to-loops` and lowers the `linalg.generic`s
(on buffers) it can prove parallel the same way (xDSL's pattern builds the nest:
one `scf.for` per dimension, in the order of the dimensions), then turns the loop
of the outermost dimension that has more than one iteration into an
`scf.parallel`. The generics it leaves alone are lowered by
`convert-linalg-to-loops` as before. Whether a parallel loop is worth running on
several threads is decided later, by `convert-parallel-loops-to-calls`.

A generic qualifies when, with `d` its outermost dimension of extent > 1:

* `d` is a `parallel` iterator (the dimensions before it have one iteration, so
  their kind does not matter);
* every output's indexing map has `d` itself as one of its results, so different
  iterations of `d` write different elements;
* an output buffer that is also read as an input is read through the output's
  own map (an element-wise update in place);
* the body has no side effects of its own (no `memref.store`, no call): it only
  computes the values it yields.

Reduction dimensions inside the parallel loop stay sequential, in their order,
so each result element is computed exactly as before, whatever the number of
threads.

Inputs that are scalars (the value of a fill) qualify like any read-only operand.
A `memref.copy` of at least `MIN_COPY_ELEMENTS` elements between buffers of one
static shape (the padding copy and the copy-out around a convolution, the copies
bufferization makes) is first rewritten as the equivalent element-wise generic,
so it becomes a parallel loop nest too (LLVM turns its contiguous inner loop
back into a `memcpy`).

A generic marked `xla.no_unroll_short` (the contractions' per-part packs) is lowered
here whether or not it is parallel, and the short loops of its nest outside the two
innermost are marked `no_unroll` (`lowering/loop_annotation.py`).

It also makes parallel the loops over blocks of rows that `linalg-fuse-reductions`
builds (`scf.for ... {fusion = "rows(B): ..."}`: softmax, layer norm) when,
after bufferization, their iterations are independent: the loop carries no
values, calls nothing, and every buffer its body writes (generic outputs,
stores, copies) is either allocated in the body or a subview at the loop's index
no taller than its step (the iteration's own block of rows).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    ShapedType,
    StringAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter
from xdsl.transforms.convert_linalg_to_loops import LowerLinalgStructuredOpPattern

from lowering.loop_annotation import NO_UNROLL_SHORT, keep_short_loops
from lowering.memref_views import VIEW_OPS
from lowering.pattern_dispatch import apply_once


def parallel_dimension(op: GenericOp) -> int | None:
    """The dimension of `op` whose loop may run in parallel (see the module
    docstring), or None."""
    if op.res or not all(isinstance(o.type, MemRefType) for o in op.outputs):
        return None
    if any(isinstance(o.type, ShapedType) and not isinstance(o.type, MemRefType) for o in op.inputs):
        return None
    try:
        ranges = op.get_static_loop_ranges()
    except (NotImplementedError, ValueError, IndexError):
        return None
    if any(r < 0 for r in ranges):
        return None  # dynamic extents
    outer = next((d for d, r in enumerate(ranges) if r > 1), None)
    if outer is None:
        return None
    if op.iterator_types.data[outer].data != IteratorType.PARALLEL:
        return None
    maps = [m.data for m in op.indexing_maps.data]
    n_inputs = len(op.inputs)
    for k, output in enumerate(op.outputs):
        out_map = maps[n_inputs + k]
        if not any(isinstance(e, AffineDimExpr) and e.position == outer for e in out_map.results):
            return None
        for i, operand in enumerate(op.inputs):
            if operand == output and maps[i] != out_map:
                return None
    for inner in op.body.walk():
        if isinstance(inner, (memref.StoreOp, func.CallOp)) or inner.name in ("llvm.call", "memref.alloc"):
            return None
    return outer


MIN_COPY_ELEMENTS = 1 << 14
"""Copies of fewer elements stay `memref.copy` (no loop could be worth a thread)."""


class CopyToGeneric(RewritePattern):
    """A large `memref.copy` between buffers of one static shape → the element-wise generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter, /) -> None:
        src, dst = op.source.type, op.destination.type
        if not isinstance(src, MemRefType) or not isinstance(dst, MemRefType):
            return
        shape = src.get_shape()
        if shape != dst.get_shape() or any(d < 0 for d in shape) or src.get_element_type() != dst.get_element_type():
            return
        elements = 1
        for d in shape:
            elements *= d
        if elements < MIN_COPY_ELEMENTS:
            return
        block = Block(arg_types=[src.get_element_type(), dst.get_element_type()])
        block.add_op(YieldOp(block.args[0]))
        identity = AffineMapAttr(AffineMap.identity(len(shape)))
        parallel = [IteratorTypeAttr.parallel()] * len(shape)
        rewriter.replace(op, GenericOp([op.source], [op.destination], Region(block), [identity, identity], parallel), [])


def _to_parallel(loop: scf.ForOp, rewriter: PatternRewriter) -> scf.ParallelOp:
    """The same loop as an `scf.parallel` (it carries no values): its body block moves
    into the new loop, with `scf.reduce` for the terminator."""
    body = loop.body.block
    terminator = body.last_op
    assert isinstance(terminator, scf.YieldOp) and len(body.args) == 1
    loop.body.detach_block(body)
    Rewriter.erase_op(terminator)
    body.add_op(scf.ReduceOp())
    body.args[0].name_hint = None  # printed as a fresh block argument, as a new block's would be
    parallel = scf.ParallelOp([loop.lb], [loop.ub], [loop.step], Region(body))
    rewriter.replace(loop, parallel, [])
    return parallel


class GenericToParallelLoops(RewritePattern):
    def __init__(self) -> None:
        self.lower = LowerLinalgStructuredOpPattern()

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter, /) -> None:
        dim = parallel_dimension(op)
        keep_short = NO_UNROLL_SHORT in op.attributes
        if dim is None and not keep_short:
            return
        extents = op.get_static_loop_ranges() if keep_short else ()
        block = op.parent_block()
        assert block is not None
        before = op.prev_op
        after = op.next_op
        self.lower.match_and_rewrite(op, rewriter)
        new_ops: list[Operation] = []
        cursor = before.next_op if before is not None else block.first_op
        while cursor is not None and cursor is not after:
            new_ops.append(cursor)
            cursor = cursor.next_op
        loop = next((o for o in new_ops if isinstance(o, scf.ForOp)), None)
        if keep_short:
            keep_short_loops(loop, extents, 0 if dim is None else dim + 1)
        if dim is None:
            return
        for _ in range(dim):
            if loop is None:
                return
            loop = next((o for o in loop.body.block.ops if isinstance(o, scf.ForOp)), None)
        if loop is not None:
            _to_parallel(loop, rewriter)


def _own_block(buffer: SSAValue, loop: scf.ForOp) -> bool:
    """Whether `buffer` is private to one iteration of `loop`: allocated in its body,
    or (a view of) a subview at the loop's index, no taller than its step."""
    iv = loop.body.block.args[0]
    step = loop.step.owner
    if not isinstance(step, arith.ConstantOp) or not isinstance(step.value, IntegerAttr):
        return False
    value = buffer
    while True:
        owner = value.owner
        if isinstance(owner, (memref.AllocOp, memref.AllocaOp)):
            return loop.is_ancestor(owner)
        if isinstance(owner, memref.SubviewOp) and iv in owner.offsets:
            dim = _dynamic_dims(owner.static_offsets)[list(owner.offsets).index(iv)]
            size = owner.static_sizes.get_values()[dim]
            return 0 < size <= step.value.value.data
        if not isinstance(owner, VIEW_OPS):
            return False
        value = owner.operands[0]


def _dynamic_dims(static: DenseArrayBase) -> list[int]:
    """The dimensions whose entry in a subview's static offsets is dynamic."""
    return [d for d, v in enumerate(static.get_values()) if v == DYNAMIC_INDEX]


def independent_row_blocks(loop: scf.ForOp) -> bool:
    """Whether the iterations of a row-fusion loop touch disjoint data (see the module docstring)."""
    if loop.iter_args or loop.results:
        return False
    for inner in loop.body.walk():
        if isinstance(inner, func.CallOp) or inner.name == "llvm.call":
            return False
        if isinstance(inner, GenericOp):
            written = list(inner.outputs)
        elif isinstance(inner, memref.StoreOp):
            written = [inner.memref]
        elif isinstance(inner, memref.CopyOp):
            written = [inner.destination]
        else:
            continue
        if not all(_own_block(w, loop) for w in written):
            return False
    return True


class RowBlocksToParallel(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /) -> None:
        fusion = op.attributes.get("fusion")
        if not isinstance(fusion, StringAttr) or not fusion.data.startswith("rows"):
            return
        if not isinstance(op.parent_op(), func.FuncOp) or not independent_row_blocks(op):
            return
        parallel = _to_parallel(op, rewriter)
        parallel.attributes["fusion"] = fusion


@dataclass(frozen=True)
class ConvertLinalgToParallelLoopsPass(ModulePass):
    """The generics with a parallel outer loop → loop nests under an `scf.parallel`."""

    name = "convert-linalg-to-parallel-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # One pattern at a time over the ops present when it starts, as xDSL's walker
        # without `apply_recursively` would apply it, without its worklist of every op.
        apply_once(op, [RowBlocksToParallel()])
        apply_once(op, [CopyToGeneric()])
        apply_once(op, [GenericToParallelLoops()])


__all__ = [
    "MIN_COPY_ELEMENTS",
    "ConvertLinalgToParallelLoopsPass",
    "CopyToGeneric",
    "GenericToParallelLoops",
    "RowBlocksToParallel",
    "independent_row_blocks",
    "parallel_dimension",
]
