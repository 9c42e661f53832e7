"""`linalg-interchange`: order a generic's loops so the innermost one streams.

`convert-linalg-to-loops` nests the loops in iteration-dimension order. When
that order ends in a reduction (a matmul's `(m, n, k)`), the innermost loop
walks one operand with a large stride and keeps a single output element live:
LLVM cannot vectorize it. This pass permutes the iteration dimensions of every
`linalg.generic` whose innermost dimension is a reduction, moving the parallel
dimension that indexes the output's minor (contiguous) dimension innermost;
`(m, n, k)` becomes `(m, k, n)`, the i-k-j order, whose inner loop is a
contiguous axpy; it does so only when the new inner loop walks fewer operands
with a stride than the old one. The op's semantics do not change (only the order of
independent iterations; each reduction still accumulates in the same order).
Run it after `linalg-generalize-named-ops` so that named ops profit too.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, ModuleOp, i64
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.passes import ModulePass


def strided_accesses(op: GenericOp, dim: int) -> int:
    """How many operands an innermost loop over `dim` would walk with a stride
    (the dimension indexes one of their non-minor dimensions)."""
    count = 0
    for m in op.indexing_maps.data:
        results = m.data.results
        if any(dim in e.used_dims() for e in results[:-1]):
            count += 1
    return count


def innermost_streaming_order(op: GenericOp) -> list[int] | None:
    """The new order of the iteration dimensions (old positions), or None to keep it.

    Only when the innermost dimension is a reduction and the output's minor
    dimension, moved innermost, walks fewer operands with a stride (so a row
    reduction, which reads contiguously already, keeps its order)."""
    iterators = [it.data for it in op.iterator_types.data]
    n = len(iterators)
    if n < 2 or iterators[-1] != IteratorType.REDUCTION or len(op.outputs) == 0:
        return None
    out_map = op.indexing_maps.data[-1].data
    if not out_map.results:
        return None
    minor = out_map.results[-1]
    if not isinstance(minor, AffineDimExpr) or iterators[minor.position] != IteratorType.PARALLEL:
        return None
    d = minor.position
    if strided_accesses(op, d) >= strided_accesses(op, n - 1):
        return None
    return [i for i in range(n) if i != d] + [d]


def permute(op: GenericOp, order: list[int]) -> None:
    """Renumber the iteration dimensions: new position `j` runs old dimension `order[j]`."""
    n = len(order)
    new_position = {old: new for new, old in enumerate(order)}
    replacements = [AffineExpr.dimension(new_position[i]) for i in range(n)]
    op.indexing_maps = ArrayAttr(
        [AffineMapAttr(m.data.replace_dims_and_symbols(replacements, [], n, 0)) for m in op.indexing_maps.data]
    )
    op.iterator_types = ArrayAttr([op.iterator_types.data[old] for old in order])
    for inner in op.body.walk():
        if isinstance(inner, IndexOp):
            inner.dim = IntegerAttr(new_position[inner.dim.value.data], i64)


@dataclass(frozen=True)
class LinalgInterchangePass(ModulePass):
    """Move a contiguous parallel dimension innermost when a reduction is innermost."""

    name = "linalg-interchange"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, GenericOp):
                order = innermost_streaming_order(inner)
                if order is not None:
                    permute(inner, order)


__all__ = ["LinalgInterchangePass", "innermost_streaming_order", "permute"]
