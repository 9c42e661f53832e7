"""`linalg-reassociate-reductions`: let LLVM vectorize float reductions.

LLVM keeps a float reduction in source order unless the combining operation
carries the `reassoc` fast-math flag, so `sum(x)` runs one add at a time. The
spec leaves the order of a reduction unspecified (XLA itself reduces in tree
and vector order), so for every generic whose innermost iterator (the
innermost loop `convert-linalg-to-loops` makes) is a reduction, this pass marks
each `arith.addf`/`mulf`/`maximumf`/`minimumf` that combines an output block
argument (the accumulator) with `reassoc`. Nothing else changes: other float
ops keep exact IEEE semantics.

A generic whose innermost loop is parallel (the i-k-j matmul, a conv streaming
output features) already vectorizes along that loop, one accumulator per lane,
in source order; `reassoc` there only lets LLVM unroll a short parallel loop
and vectorize the reduction with gathers instead (a 3×3 conv with 16 output
features ran 7× slower), so such generics are left alone.

The order is deterministic for a given program and CPU: LLVM's vectorizer keeps
one partial result per vector lane (and per unrolled copy), element `j` going to
partial `j mod (lanes * unroll)`, and combines the partials in a fixed tree at
the loop's end. `reassociate=false` (`-p linalg-reassociate-reductions{reassociate=false}`,
`compile(..., reassociate=False)`) turns it off: every reduction then runs in
the spec's iteration order, bitwise reproducible across CPUs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.passes import ModulePass

_ASSOCIATIVE = (arith.AddfOp, arith.MulfOp, arith.MaximumfOp, arith.MinimumfOp)


def mark_reduction_combiners(op: GenericOp) -> int:
    """Add `reassoc` to the ops combining an accumulator; return how many."""
    iterators = op.iterator_types.data
    if not iterators or iterators[-1].data != IteratorType.REDUCTION:
        return 0
    block = op.body.block
    accumulators = set(block.args[len(op.inputs) :])
    marked = 0
    for inner in block.ops:
        if isinstance(inner, _ASSOCIATIVE) and any(v in accumulators for v in inner.operands):
            flags = set(inner.fastmath.data) | {FastMathFlag.REASSOC}
            inner.fastmath = arith.FastMathFlagsAttr(flags)
            marked += 1
    return marked


@dataclass(frozen=True)
class LinalgReassociateReductionsPass(ModulePass):
    """Mark float reduction combiners `reassoc` where the reduction is the innermost
    loop (the spec's order is unspecified)."""

    name = "linalg-reassociate-reductions"

    reassociate: bool = True
    """False: reductions keep the source order (each combiner loses `reassoc`, so
    LLVM may not reorder it): results are bitwise those of the sequential loop,
    `compile(..., reassociate=False)`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, GenericOp):
                if self.reassociate:
                    mark_reduction_combiners(inner)
                else:
                    unmark_reduction_combiners(inner)


def unmark_reduction_combiners(op: GenericOp) -> int:
    """Take `reassoc` off the ops combining an accumulator; return how many."""
    block = op.body.block
    accumulators = set(block.args[len(op.inputs) :])
    cleared = 0
    for inner in block.ops:
        if isinstance(inner, _ASSOCIATIVE) and any(v in accumulators for v in inner.operands):
            flags = set(inner.fastmath.data) - {FastMathFlag.REASSOC}
            if len(flags) != len(inner.fastmath.data):
                inner.fastmath = arith.FastMathFlagsAttr(flags)
                cleared += 1
    return cleared


__all__ = ["LinalgReassociateReductionsPass", "mark_reduction_combiners", "unmark_reduction_combiners"]
