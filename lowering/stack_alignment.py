"""`llvm-align-vector-stacks`: functions that compute on wide vectors align their frames.

The x86-64 ABI aligns the stack to 16 bytes. LLVM aligns a function's frame further
only when it knows before register allocation that the frame holds wider objects; the
slots in which the register allocator spills 32- or 64-byte vector registers come too
late for that (the frame pointer it would need is no longer free), so they are only
16-byte aligned and reached with unaligned moves. Where the stack lands is up to the
kernel's address-space randomization, and in some processes a slot straddles a cache
line at a bad place: on Zen 3 the exact GELU over 4M floats, whose erf polynomial
spills 56 ymm registers per iteration, ran 20.4 ms instead of 5.5 ms in about one
process in ten (with randomization off, whenever the environment's size put the stack
at one of the offsets that do it), for the whole life of the process, and not on any
other thread. This pass gives such functions LLVM's `alignstack(<bytes>)`
(`passthrough = [["alignstack", "32"]]`): the prologue aligns the frame, every slot
is aligned and moved with aligned instructions, in every process alike.

A function qualifies when it is defined, not `optimize_none` (glue), and holds a vector
wider than 16 bytes (a value of an op, or a block argument) or a loop (more than one
block: LLVM's loop vectorizer makes vectors of the scalar loops the lowering leaves to
it), or calls such a function that LLVM may inline (not `no_inline`: a parallel loop's
wrapper, into which LLVM inlines the body, dropping its attribute). It gets the
alignment of its widest vector, a loop counting as one of the target's vector registers,
at most the target's vector register (`bytes`, default: the target's `vector_bits / 8`).
Runs last, on the llvm dialect.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, VectorType
from xdsl.ir import Attribute
from xdsl.passes import ModulePass

from lowering.codegen.target import get_target
from lowering.glue_functions import has_flag

ABI_STACK_ALIGNMENT = 16
"""What the x86-64 System V ABI guarantees at a call."""


def _bytes(t: Attribute) -> int:
    """The size of a vector type in bytes (0 for any other type; a pointer lane is 8)."""
    if not isinstance(t, VectorType):
        return 0
    bits = getattr(t.element_type, "bitwidth", 64)
    return t.element_count() * bits // 8


def widest_vector(fn: llvm.FuncOp) -> int:
    """The bytes of the widest vector `fn` computes with."""
    widest = 0
    for op in fn.body.walk():
        for result in op.results:
            widest = max(widest, _bytes(result.type))
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    widest = max(widest, _bytes(arg.type))
    for block in fn.body.blocks:
        for arg in block.args:
            widest = max(widest, _bytes(arg.type))
    return widest


def frame_alignment(fn: llvm.FuncOp, register_bytes: int) -> int:
    """The alignment `fn`'s frame should have: a vector register's when it has loops
    (LLVM's vectorizers may make vectors of its scalars), else its widest vector's,
    rounded up to a power of two; at most `register_bytes`; 0 when the ABI's 16 bytes do."""
    widest = register_bytes if len(fn.body.blocks) > 1 else widest_vector(fn)
    if widest <= ABI_STACK_ALIGNMENT:
        return 0
    alignment = min(1 << (widest - 1).bit_length(), register_bytes)
    return alignment if alignment > ABI_STACK_ALIGNMENT else 0


def _inlinable_callees(fn: llvm.FuncOp, defined: dict[str, llvm.FuncOp]) -> list[str]:
    """The functions of the module `fn` calls that LLVM may inline into it."""
    names: list[str] = []
    for op in fn.body.walk():
        if isinstance(op, llvm.CallOp) and op.callee is not None:
            callee = defined.get(op.callee.string_value())
            if callee is not None and not has_flag(callee, "no_inline") and not has_flag(callee, "optimize_none"):
                names.append(callee.sym_name.data)
    return names


def align_vector_stacks(module: ModuleOp, register_bytes: int = 0) -> int:
    """Give the functions of `module` that compute on wide vectors `alignstack`; returns
    how many. `register_bytes`: the target's vector register (0: the current target's).
    A function that calls one LLVM may inline (a parallel loop's wrapper and its body)
    gets that one's alignment too: the inliner does not carry `alignstack` over."""
    register_bytes = register_bytes or get_target().vector_bits // 8
    defined = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, llvm.FuncOp) and op.body.blocks and not has_flag(op, "optimize_none")
    }
    alignment = {name: frame_alignment(fn, register_bytes) for name, fn in defined.items()}
    callees = {name: _inlinable_callees(fn, defined) for name, fn in defined.items()}
    changed = True
    while changed:  # (a few rounds: call chains within a module are short)
        changed = False
        for name, called in callees.items():
            best = max([alignment[name], *(alignment[c] for c in called)])
            if best != alignment[name]:
                alignment[name], changed = best, True
    marked = 0
    for name, fn in defined.items():
        if not alignment[name]:
            continue
        old = fn.properties.get("passthrough") or fn.attributes.get("passthrough")
        entries = [e for e in old.data if not _is_alignstack(e)] if isinstance(old, ArrayAttr) else []
        entries.append(ArrayAttr([StringAttr("alignstack"), StringAttr(str(alignment[name]))]))
        fn.attributes.pop("passthrough", None)
        fn.properties["passthrough"] = ArrayAttr(entries)
        marked += 1
    return marked


def _is_alignstack(entry: Attribute) -> bool:
    return (
        isinstance(entry, ArrayAttr)
        and len(entry.data) == 2
        and isinstance(entry.data[0], StringAttr)
        and entry.data[0].data == "alignstack"
    )


@dataclass(frozen=True)
class AlignVectorStacksPass(ModulePass):
    """Functions computing on vectors wider than 16 bytes → `alignstack` (see the module docstring)."""

    name = "llvm-align-vector-stacks"

    bytes: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        align_vector_stacks(op, self.bytes)


__all__ = [
    "ABI_STACK_ALIGNMENT",
    "AlignVectorStacksPass",
    "align_vector_stacks",
    "frame_alignment",
    "widest_vector",
]
