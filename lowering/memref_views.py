"""Views of buffers: the memref ops whose result aliases (part of) their first operand,
and the buffer a chain of them starts from.

Passes that reason about buffers (bufferization's analysis, fusion, outlining, the
parallel loops, the contraction and copy code generators) ask the same two questions:
is this op a view, and which allocation or argument does this value view? They ask
them here, so that a view op added to the set is seen by all of them."""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.ir import SSAValue

VIEW_OPS = (
    memref.SubviewOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.CastOp,
)
"""Ops whose result aliases (part of) their first operand."""


def view_root(value: SSAValue) -> SSAValue:
    """The buffer `value` is (transitively) a view of: itself when it is no view."""
    while isinstance(value.owner, VIEW_OPS):
        value = value.owner.operands[0]
    return value


__all__ = ["VIEW_OPS", "view_root"]
