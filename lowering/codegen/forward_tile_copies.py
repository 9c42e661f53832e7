"""`memref-forward-tile-copies`: compute tiles in place, after bufferization.

Row fusion (`linalg-fuse-reductions`) computes a block of a result into a fresh
tensor and inserts it into the result (`tensor.insert_slice`); bufferization makes
that an allocation, the block's ops writing it, a `memref.copy` into a subview of
the result buffer and a dealloc. This pass forwards such copies: when a buffer

* is a `memref.alloc` whose uses, all in its own block, are linalg ops, one
  `memref.copy` of it into a `memref.subview` of the same block and its dealloc,
* and nothing between its first use and the copy touches the subview's
  underlying buffer (through any view of it),

then the subview is moved up to the first use (its offsets are defined by then,
else nothing happens), the linalg ops work on the subview directly, and the
allocation, copy and dealloc go. Softmax then writes its output rows once,
straight into the out-parameter.

A buffer copied whole into another contiguous buffer (the result parameter, or a
buffer it is a reshape of), directly or through one `expand_shape` or
`collapse_shape` of it, is forwarded the same way: its writers (linalg ops, copies
into it) work on the destination, seen through the inverse reshape, provided
nothing between its first writer and the copy touches the destination. A depthwise
convolution's result, computed in a `[.., features, 1]` buffer initialized by a copy
from a zero-filled one, is then filled and computed in the result: two passes fewer.
One forwarding can enable another (the zero buffer is copied into the buffer just
replaced), so the allocations are walked again while one was forwarded.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseArrayBase, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from lowering.memref_views import VIEW_OPS, view_root


def _is_linalg(op: Operation) -> bool:
    return op.name.startswith("linalg.")


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def forward_copy(alloc: memref.AllocOp) -> bool:
    """Make the ops writing `alloc` write the subview it is copied into; return
    whether it was done."""
    block = alloc.parent_block()
    buffer = alloc.memref
    if block is None:
        return False
    users: list[Operation] = []
    copy: memref.CopyOp | None = None
    dealloc: memref.DeallocOp | None = None
    reshape: memref.ExpandShapeOp | memref.CollapseShapeOp | None = None
    for use in buffer.uses:
        user = use.operation
        if user.parent_block() is not block:
            return False
        if isinstance(user, memref.CopyOp) and use.index == 0 and copy is None:
            copy = user
        elif isinstance(user, memref.DeallocOp) and dealloc is None:
            dealloc = user
        elif _is_linalg(user) or (isinstance(user, memref.CopyOp) and use.index == 1):
            users.append(user)
        elif isinstance(user, _RESHAPES) and reshape is None and copy is None:
            reshape = user
            copies = [u.operation for u in user.result.uses]
            if len(copies) != 1 or not isinstance(copies[0], memref.CopyOp) or copies[0].source is not user.result:
                return False
            copy = copies[0]
        else:
            return False
    if copy is None or not users:
        return False
    view = copy.destination.owner
    if not isinstance(view, memref.SubviewOp):
        return _forward_whole(alloc, users, copy, dealloc, reshape)
    if reshape is not None or view.parent_block() is not block:
        return False
    if view.result.uses.get_length() != 1:
        return False
    first = min(users, key=lambda o: block.get_operation_index(o))
    if not all(u.is_before_in_block(copy) for u in users):
        return False
    target = view_root(view.source)
    # The subview's operands must be available at `first`.
    for v in view.operands:
        owner = v.owner
        if (
            isinstance(owner, Operation)
            and owner.parent_block() is block
            and not owner.is_before_in_block(first)
        ):
            return False
    # Nothing between `first` and the copy may touch the target buffer.
    op: Operation | None = first
    while op is not None and op is not copy:
        if op is not view:
            for inner in op.walk():
                if any(view_root(v) is target for v in inner.operands):
                    return False
        op = op.next_op
    view.detach()
    block.insert_op_before(view, first)
    for u in users:
        for i, v in enumerate(u.operands):
            if v is buffer:
                u.operands[i] = view.result
    copy.detach()
    copy.erase()
    if dealloc is not None:
        dealloc.detach()
        dealloc.erase()
    alloc.detach()
    alloc.erase()
    return True


_RESHAPES = (memref.ExpandShapeOp, memref.CollapseShapeOp)


def _available_at(owner: Operation, first: Operation, block: Block) -> bool:
    """Whether `owner`'s result is defined before `first`, or can be moved there: a
    view, in `block`, of values defined before `first`."""
    if owner.parent_block() is not block:
        return owner.parent_block() is not None and _ancestor_in(first, owner.parent_block()) is not None  # pyright: ignore[reportArgumentType]
    if owner.is_before_in_block(first):
        return True
    if not isinstance(owner, VIEW_OPS):
        return False
    for v in owner.operands:
        o = v.owner
        if isinstance(o, Operation) and (o.parent_block() is block and not o.is_before_in_block(first)):
            return False
    return True


def _forward_whole(
    alloc: memref.AllocOp, users: list[Operation], copy: memref.CopyOp, dealloc: memref.DeallocOp | None,
    reshape: memref.ExpandShapeOp | memref.CollapseShapeOp | None,
) -> bool:
    """`alloc`'s buffer, written by `users` and then copied whole (directly or through
    `reshape`) into a contiguous buffer `dest`: the users write `dest` (through the
    inverse reshape) instead. A depthwise convolution's result, computed in a
    `[.., features, 1]` buffer and copied out through a collapse_shape, is then
    computed in the result buffer."""
    block = alloc.parent_block()
    assert block is not None
    dest = copy.destination
    if not isinstance(dest.type, MemRefType) or not isinstance(dest.type.layout, NoneAttr):
        return False
    if dest.type.get_element_type() != alloc.memref.type.get_element_type():
        return False
    if reshape is None and dest.type != alloc.memref.type:
        return False
    first = min(users, key=lambda o: block.get_operation_index(o))
    if not all(u.is_before_in_block(copy) for u in users):
        return False
    owner = dest.owner
    if isinstance(owner, Operation) and not _available_at(owner, first, block):
        return False
    target = view_root(dest)
    if target is view_root(alloc.memref):
        return False
    op: Operation | None = first
    while op is not None and op is not copy:
        if op is owner:
            op = op.next_op
            continue
        for inner in op.walk():
            if any(view_root(v) is target for v in inner.operands):
                return False
        op = op.next_op
    if isinstance(owner, Operation) and owner.parent_block() is block and not owner.is_before_in_block(first):
        owner.detach()
        block.insert_op_before(owner, first)
    replacement = dest
    if reshape is not None:
        buffer_type = alloc.memref.type
        assert isinstance(buffer_type, MemRefType)
        properties = {"reassociation": reshape.reassociation}
        if isinstance(reshape, memref.CollapseShapeOp):
            shape = DenseArrayBase.from_list(i64, list(buffer_type.get_shape()))
            inverse: Operation = memref.ExpandShapeOp.create(
                operands=[dest], result_types=[buffer_type], properties={**properties, "static_output_shape": shape}
            )
        else:
            inverse = memref.CollapseShapeOp.create(operands=[dest], result_types=[buffer_type], properties=properties)
        block.insert_op_before(inverse, first)
        replacement = inverse.results[0]
    for u in users:
        for i, v in enumerate(u.operands):
            if v is alloc.memref:
                u.operands[i] = replacement
    for gone in (copy, reshape, dealloc, alloc):
        if gone is not None:
            gone.detach()
            gone.erase()
    return True


@dataclass(frozen=True)
class MemrefForwardTileCopiesPass(ModulePass):
    """Compute into the subview a fresh buffer is copied into, instead of copying."""

    name = "memref-forward-tile-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # A forwarded copy can make another one forwardable (a buffer copied into the
        # one just replaced): walk again while something changed.
        changed = True
        while changed:
            changed = False
            for alloc in [o for o in op.walk() if isinstance(o, memref.AllocOp)]:
                changed |= forward_copy(alloc)


__all__ = ["MemrefForwardTileCopiesPass", "forward_copy"]
