"""The left operand's pack fused into the parallel parts of a packed contraction.

`linalg-pack-contractions` packs A whole before the contraction: for a 3x3
convolution that is the im2col copy, a packed A nine times the input (7.2 MB for
56x56x64), written past L2 to L3 and DRAM and read back by the micro-kernel, and
one parallel loop of its own before the contraction's. As BLIS packs A inside its
ic loop, `linalg-vectorize-contractions` instead moves the pack into each parallel
part, restricted to the part's rows, into a per-thread buffer (a `memref.alloca`
first in the part's body): each thread packs the rows it then multiplies, and
they stay in L2 (64 rows of a K = 576 convolution: 147 KiB).

A pack is fused when packing per part does no more work than packing once: each
part covers all of C's columns (one part per block of rows), so every packed row
is written once, as before. The pack must be a generic (any body: an im2col,
a widening, bf16 pairs) whose only output is a subview of a buffer used by
nothing but the pack, the contraction and its deallocation, with no op between
the pack and the contraction writing a buffer the pack reads, and the contraction
not writing one either. The part's copy of
the generic has the batch loop and the part's rows as its extents (the batch
index and the row-panel index of its body offset by the part's), so each packed
element is computed by the same ops from the same source element as before:
results do not change, whatever the thread count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import MemRefType, UnitAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.codegen.emitter import Emitter
from lowering.loop_annotation import NO_UNROLL_SHORT
from lowering.memref_views import VIEW_OPS, view_root

MAX_PART_BYTES = 1 << 18
"""The largest per-thread packed A (on the thread's stack): at most a quarter of a
1 MiB L2, so the packed rows stay there while the micro-kernel reads them."""


@dataclass(frozen=True)
class FusablePack:
    """An operand's pack, the subview it writes, and the whole buffer behind it."""

    pack: GenericOp
    view: memref.SubviewOp
    buffer: memref.AllocOp

    @property
    def view_type(self) -> MemRefType:
        t = self.view.result.type
        assert isinstance(t, MemRefType)
        return t

    @property
    def buffer_type(self) -> MemRefType:
        t = self.buffer.memref.type
        assert isinstance(t, MemRefType)
        return t


def _reads(op: GenericOp) -> set[SSAValue]:
    """The buffers (roots of views) `op` reads: its inputs and what its body loads."""
    read = {view_root(v) for v in op.inputs if isinstance(v.type, MemRefType)}
    for inner in op.body.walk():
        read |= {view_root(v) for v in inner.operands if isinstance(v.type, MemRefType)}
    return read


def _writes(op: Operation) -> set[SSAValue] | None:
    """The buffers (roots) `op` may write, or None when that is not known."""
    if isinstance(op, (arith.ConstantOp, memref.AllocOp, memref.AllocaOp, *VIEW_OPS)):
        return set()
    if isinstance(op, GenericOp):
        if any(isinstance(o, memref.StoreOp) for o in op.body.walk()):
            return None
        return {view_root(v) for v in op.outputs}
    if isinstance(op, memref.CopyOp):
        return {view_root(op.destination)}
    return None


def fusable_pack(contraction: GenericOp, packed: SSAValue) -> FusablePack | None:
    """The pack of `packed` (A4 or B4), when it can move into the contraction's parts
    (module docstring)."""
    view = packed.owner
    if not isinstance(view, memref.SubviewOp) or not isinstance(view.source.owner, memref.AllocOp):
        return None
    buffer = view.source.owner
    if any(not isinstance(u.operation, memref.DeallocOp) and u.operation is not view for u in buffer.memref.uses):
        return None
    users = [u.operation for u in view.result.uses]
    packs = [u for u in users if u is not contraction]
    if len(packs) != 1 or not isinstance(pack := packs[0], GenericOp) or list(pack.outputs) != [view.result]:
        return None
    if contraction.parent_block() is not pack.parent_block() or any(v is view.result for v in pack.inputs):
        return None
    if len(view.result.type.get_shape()) < 4 or pack.res:  # pyright: ignore[reportAttributeAccessIssue]
        return None
    read = _reads(pack)
    if any(view_root(v) in read for v in contraction.outputs):
        return None  # A's rows would be packed after other parts wrote C
    current = pack.next_op
    while current is not None and current is not contraction:
        written = _writes(current)
        if written is None or written & read:
            return None
        current = current.next_op
    return FusablePack(pack, view, buffer) if current is contraction else None


def part_bytes(fusable: FusablePack, rows: int) -> int:
    """The bytes of a part's packed operand of `rows` panels."""
    shape = fusable.buffer_type.get_shape()
    element = fusable.buffer_type.get_element_type()
    return rows * math.prod(shape[2:]) * element.bitwidth // 8  # pyright: ignore[reportAttributeAccessIssue]


def part_buffer(e: Emitter, fusable: FusablePack, panels: int) -> SSAValue:
    """The per-thread packed operand of one part, `[1, panels, kp, tile(, 2)]` (an alloca)."""
    t = fusable.buffer_type
    shape = [1, panels, *t.get_shape()[2:]]
    return e.value(memref.AllocaOp.get(t.get_element_type(), 64, shape))


def panel_dimension(pack: GenericOp) -> int:
    """The loop of `pack` that indexes its output's panels (dimension 1): the second
    (A's pack, pair packs) or the third (B's, whose k loop goes outside the panels)."""
    out_map = pack.indexing_maps.data[-1].data
    panel = out_map.results[1]
    assert isinstance(panel, AffineDimExpr)
    return panel.position


def pack_part(e: Emitter, fusable: FusablePack, local: SSAValue, b: SSAValue, panel0: SSAValue | int, panels: int) -> None:
    """Pack the panels `panel0 .. panel0 + panels` of batch `b` (rows of A, or columns
    of B) into `local`: the pack generic with the part's extents, its batch and panel
    indices offset. Its short loops stay rolled (`NO_UNROLL_SHORT`)."""
    sizes = [1, panels, *fusable.view_type.get_shape()[2:]]
    origin, unit = [0] * len(sizes), [1] * len(sizes)
    local_type = local.type
    assert isinstance(local_type, MemRefType)
    sub_type = memref.SubviewOp.infer_result_type(local_type, origin, sizes, unit)
    sub = e.value(memref.SubviewOp.get(local, origin, sizes, unit, sub_type))
    offset = e.materialize(panel0)
    pack = fusable.pack.clone()
    pack.operands = [*pack.inputs, sub]
    panel_dim = panel_dimension(fusable.pack)
    for index in [o for o in pack.body.walk() if isinstance(o, IndexOp)]:
        dim = index.dim.value.data
        if dim == 0:
            index.result.replace_all_uses_with(b)
            Rewriter.erase_op(index)
        elif dim == panel_dim:
            shifted = arith.AddiOp(index.result, offset)
            Rewriter.insert_op(shifted, InsertPoint.after(index))
            for use in list(index.result.uses):
                if use.operation is not shifted:
                    use.operation.operands[use.index] = shifted.result
    pack.attributes[NO_UNROLL_SHORT] = UnitAttr()
    e.add(pack)


def erase_whole_pack(fusable: FusablePack) -> None:
    """Drop the pack before the contraction, its subview, and the whole buffer."""
    Rewriter.erase_op(fusable.pack)
    Rewriter.erase_op(fusable.view)
    for use in list(fusable.buffer.memref.uses):
        Rewriter.erase_op(use.operation)
    Rewriter.erase_op(fusable.buffer)


__all__ = [
    "MAX_PART_BYTES", "FusablePack", "erase_whole_pack", "fusable_pack", "pack_part", "panel_dimension", "part_buffer",
    "part_bytes",
]
