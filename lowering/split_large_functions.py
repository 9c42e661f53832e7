"""`llvm-split-large-functions`: a function of one long block becomes a chain of calls
of parts, each a slice of the block, that pass values through a frame on the stack.

After `outline-loop-nests` the entry of a large program is one block of thousands of
calls (allocations, kernels, frees), and every buffer is allocated at its top and freed
at its bottom, so thousands of pointers are live across the whole block. LLVM's code
generator handles one such block in superlinear time (the instruction scheduler's DAG
per block and the register allocator's interference with every call's clobbers grow
with the block and the values live across it): 3 of the 4 s LLVM spent on a 10,000-op
transformer went to that one function. Split into parts of at most `max_ops` ops, each
part is compiled in time proportional to its size and the values a part hands to a
later one live in memory, not registers:

    llvm.func @main(%a: !llvm.ptr) {           llvm.func @main(%a: !llvm.ptr) {
      %b = llvm.call @aligned_alloc(...)         %f = llvm.alloca %n x !llvm.ptr // the frame
      llvm.call @k0(%a, %b)              ->      llvm.store %a, %f[0]
      ...                                        llvm.call @main.part0(%f)
      llvm.call @free(%b)                        llvm.call @main.part1(%f)
      llvm.return                                llvm.return
    }                                          }
                                               llvm.func internal @main.part0(%f) noinline {
                                                 %a = llvm.load %f[0]
                                                 %b = llvm.call @aligned_alloc(...)
                                                 llvm.store %b, %f[8]  ...

Constants (and addresses of globals) are not passed: each part that uses one makes
its own copy. Stack allocations stay in the function (a part's would end with it),
and so do the values the return uses. Only functions of one block whose values
crossing a cut are pointers, integers, floats or vectors of 1 to 64 bytes (a power
of two) are split, and
none using `llvm.intr.stacksave`/`stackrestore` (their pairing spans the parts). The
parts are `noinline`, so LLVM's inliner does not put the block back together; what
each computes, and in which order, is unchanged.

An entry with more pointer parameters than ctypes passes (`lowering/packed_abi.py`; a
JAX MLP of 8,423 ops has 3,372 arrays) is called by the host through its packed entry,
one array of the pointers. The pass defines that entry as the function that calls the
parts: `@__xla_packed.main(%args)` holds the allocas and the frame and calls each part
with `(%args, %frame)`, and a part loads the arguments it uses from `%args` at their
index. The host cannot call `@main` itself (ctypes passes at most
`MAX_CTYPES_ARGUMENTS` arguments), so when nothing in the module refers to it the pass
erases it: its packed entry replaces it (compiling `@main`, which only stored its
3,372 arguments into an array, was half of MCJIT's time on that MLP: 1.49 of 3.0 s).
With `keep_wide=true`, or when the module calls it, `@main` keeps its signature: it
stores its arguments into such an array and calls the packed entry. No call passes thousands of arguments: the runtime's packed
entry, which loaded every pointer and called `@main` with all of them, cost code
generation time quadratic in their number (instruction selection of the call: 0.2 /
0.9 / 4.8 CPU s for 800 / 1,600 / 3,200 pointers; MCJIT on the 8,423-op MLP 8.9 → 2.1 s).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from lowering.packed_abi import MAX_CTYPES_ARGUMENTS, PACKED_PREFIX
from lowering.to_llvm import builders
from xla_dialect.symbols import referenced_symbols

PTR = llvm.LLVMPointerType()

REMATERIALIZED = (
    llvm.ConstantOp,
    llvm.AddressOfOp,
    llvm.ZeroOp,
    llvm.UndefOp,
)
"""Ops each part copies instead of reading their value from the frame."""

FRAME_ALIGNMENT = 64


def _element_bytes(t: Attribute) -> int | None:
    """The bytes LLVM allocates for a value of type `t` (None: not passed through the
    frame): a pointer, an integer of 1 to 64 bits, a float, or a vector of a power of
    two bytes up to 64."""
    if isinstance(t, llvm.LLVMPointerType):
        return 8
    if isinstance(t, IntegerType):
        return {1: 1, 8: 1, 16: 2, 32: 4, 64: 8}.get(t.width.data)
    if isinstance(t, AnyFloat):
        return {16: 2, 32: 4, 64: 8}.get(t.bitwidth)
    if isinstance(t, VectorType):
        element = t.get_element_type()
        bits = element.width.data if isinstance(element, IntegerType) else getattr(element, "bitwidth", None)
        if bits not in (8, 16, 32, 64):
            return None
        size = bits // 8 * t.element_count()
        return size if size in (1, 2, 4, 8, 16, 32, 64) else None
    return None


def _splittable(block: Block) -> bool:
    for op in block.ops:
        if op.regions or op.successors or "stacksave" in op.name or "stackrestore" in op.name:
            return False
        if op.name == "llvm.intr.vastart" or op.name.startswith("llvm.va_"):
            return False
    return isinstance(block.last_op, llvm.ReturnOp)


@dataclass
class _Part:
    ops: list[Operation]
    inputs: list[SSAValue]
    """Values defined elsewhere (not rematerialized) that the part's ops read, in order of use."""


def _gep(frame: SSAValue, offset: int, t: Attribute) -> llvm.GEPOp:
    """The address of the slot at byte `offset` (a multiple of `t`'s size), as an
    element index of type `t` (llvmlite's IR still has typed pointers: an `i8` GEP
    could not be stored through)."""
    size = _element_bytes(t)
    assert size is not None and offset % size == 0
    return builders.gep(frame, [offset // size], t)


def _copy(op: Operation) -> Operation:
    """A copy of a rematerialized op (no operands, regions or successors): `op.clone()`."""
    copy = type(op).create(
        result_types=[r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    for result, original in zip(copy.results, op.results):
        result.name_hint = original.name_hint
    return copy


def split_function(func_op: llvm.FuncOp, max_ops: int, taken: set[str], packed: str | None = None) -> list[llvm.FuncOp]:
    """Split `func_op` (in place) into parts of at most `max_ops` ops; returns the
    parts, or [] when it is small or not splittable.

    `packed` (for a function of pointer parameters and no result): the name of a
    function `(ptr %args)` to define, which takes the arguments as one array of
    pointers and calls the parts; each part then reads the arguments it uses from that
    array, and `func_op` only stores its arguments into one and calls it. The packed
    function comes first in the returned list."""
    if len(func_op.body.blocks) != 1:
        return []
    block = func_op.body.block
    ops = list(block.ops)
    if len(ops) <= max_ops or not _splittable(block):
        return []
    terminator = ops[-1]
    stays = [op for op in ops[:-1] if isinstance(op, llvm.AllocaOp)]
    movable = [op for op in ops[:-1] if not isinstance(op, (llvm.AllocaOp, *REMATERIALIZED))]
    for alloca in stays:
        if not all(isinstance(v.owner, REMATERIALIZED) for v in alloca.operands):
            return []
    chunks = [movable[i : i + max_ops] for i in range(0, len(movable), max_ops)]
    if len(chunks) < 2:
        return []
    part_of: dict[Operation, int] = {op: i for i, chunk in enumerate(chunks) for op in chunk}

    def crosses(value: SSAValue, reader: int) -> bool:
        owner = value.owner
        if isinstance(owner, Operation) and isinstance(owner, REMATERIALIZED):
            return False
        return part_of.get(owner) != reader if isinstance(owner, Operation) else True

    parts: list[_Part] = []
    slots: dict[SSAValue, int] = {}
    frame_size = 0
    for index, chunk in enumerate(chunks):
        inputs: dict[SSAValue, None] = {}
        for op in chunk:
            for value in op.operands:
                if crosses(value, index):
                    inputs.setdefault(value)
        parts.append(_Part(chunk, list(inputs)))
    returned = [v for v in terminator.operands if isinstance(v.owner, Operation) and v.owner in part_of]
    argument_slot: dict[SSAValue, int] = {}
    if packed is not None:
        assert not terminator.operands and all(isinstance(a.type, llvm.LLVMPointerType) for a in block.args)
        argument_slot = {arg: 8 * arg.index for arg in block.args}
    for value in [*(v for p in parts for v in p.inputs), *returned]:
        if value in slots or value in argument_slot:
            continue
        size = _element_bytes(value.type)
        if size is None:
            return []
        slot = max(size, 8)
        frame_size = -(-frame_size // slot) * slot
        slots[value] = frame_size
        frame_size += slot
    # (a value is written by the part defining it, or by the function before the calls)
    # The function's new body: its constants' copies for the allocas, the allocas, the
    # frame, the stores of its own values, the calls, the loads of what it returns.
    base = func_op.sym_name.data
    names: list[str] = []
    for i in range(len(parts)):
        name = f"{base}.part{i}"
        while name in taken:
            name += "_"
        taken.add(name)
        names.append(name)
    for op in ops[:-1]:
        op.detach()
    head: list[Operation] = []
    copies: dict[SSAValue, SSAValue] = {}

    def copy_into(value: SSAValue, out: list[Operation], seen: dict[SSAValue, SSAValue]) -> SSAValue:
        owner = value.owner
        assert isinstance(owner, Operation)
        if value not in seen:
            clone = _copy(owner)
            out.append(clone)
            seen[value] = clone.results[value.index]
        return seen[value]

    for alloca in stays:
        for i, value in enumerate(alloca.operands):
            alloca.operands[i] = copy_into(value, head, copies)  # pyright: ignore[reportIndexIssue]
        head.append(alloca)
    # (an array of pointers: llvmlite gives its address an opaque type, as its slots')
    size = llvm.ConstantOp(IntegerAttr(max(-(-frame_size // 8), 1), i64), i64)
    frame = llvm.AllocaOp(size.result, PTR, alignment=FRAME_ALIGNMENT)
    head += [size, frame]
    for value, offset in slots.items():
        owner = value.owner
        if not isinstance(owner, Operation) or owner not in part_of:  # an argument or an alloca
            gep = _gep(frame.res, offset, value.type)
            head += [gep, builders.store(value, gep.result)]
    packed_function: llvm.FuncOp | None = None
    if packed is not None:
        # The head is the packed function's body: the parts get its array and the frame.
        packed_body = Block(arg_types=[PTR])
        packed_body.add_ops(head)
        packed_body.add_ops([llvm.CallOp(name, packed_body.args[0], frame.res) for name in names])
        packed_body.add_op(llvm.ReturnOp())
        packed_function = llvm.FuncOp(
            packed,
            llvm.LLVMFunctionType([PTR], llvm.LLVMVoidType()),
            linkage=llvm.LinkageAttr("external"),
            body=Region(packed_body),
        )
        count = llvm.ConstantOp(IntegerAttr(max(len(block.args), 1), i64), i64)
        array = llvm.AllocaOp(count.result, PTR, alignment=FRAME_ALIGNMENT)
        head = [count, array]
        for arg in block.args:
            gep = _gep(array.res, argument_slot[arg], PTR)
            head += [gep, builders.store(arg, gep.result)]
        head.append(llvm.CallOp(packed, array.res))
    else:
        for name in names:
            head.append(llvm.CallOp(name, frame.res))
    for value in returned:
        gep = _gep(frame.res, slots[value], value.type)
        load = builders.load(gep.result, value.type)
        head += [gep, load]
        terminator.operands = [load.results[0] if v is value else v for v in terminator.operands]
    for value in terminator.operands:
        if isinstance(value.owner, REMATERIALIZED):
            terminator.operands = [copy_into(value, head, copies) if v is value else v for v in terminator.operands]
    block.insert_ops_before(head, terminator)

    functions: list[llvm.FuncOp] = [] if packed_function is None else [packed_function]
    part_type = llvm.LLVMFunctionType([PTR] if packed is None else [PTR, PTR], llvm.LLVMVoidType())
    for part, name in zip(parts, names):
        body = Block(arg_types=part_type.inputs.data)
        part_frame = body.args[-1]
        part_arguments = body.args[0]
        prologue: list[Operation] = []
        local: dict[SSAValue, SSAValue] = {}
        for value in part.inputs:
            if value in argument_slot:
                gep = _gep(part_arguments, argument_slot[value], PTR)
            else:
                gep = _gep(part_frame, slots[value], value.type)
            load = builders.load(gep.result, value.type)
            prologue += [gep, load]
            local[value] = load.results[0]
        rematerialized: dict[SSAValue, SSAValue] = {}
        for op in part.ops:
            for i, value in enumerate(op.operands):
                if value in local:
                    op.operands[i] = local[value]  # pyright: ignore[reportIndexIssue]
                elif isinstance(value.owner, REMATERIALIZED):
                    op.operands[i] = copy_into(value, prologue, rematerialized)  # pyright: ignore[reportIndexIssue]
        body.add_ops(prologue)
        body.add_ops(part.ops)
        for op in part.ops:
            for result in op.results:
                if result in slots:
                    gep = _gep(part_frame, slots[result], result.type)
                    body.add_ops([gep, builders.store(result, gep.result)])
        body.add_op(llvm.ReturnOp())
        functions.append(
            llvm.FuncOp(
                name,
                part_type,
                linkage=llvm.LinkageAttr("internal"),
                body=Region(body),
                other_props={"no_inline": UnitAttr()},
            )
        )
    return functions


@dataclass(frozen=True)
class SplitLargeFunctionsPass(ModulePass):
    """Functions of one block longer than `max_ops` ops → calls of parts."""

    name = "llvm-split-large-functions"

    max_ops: int = 512
    """The most ops a part holds (not counting its frame loads and stores)."""

    packed_over: int = MAX_CTYPES_ARGUMENTS
    """A public function of more pointer parameters than this (and no result) gets a
    packed entry (`lowering/packed_abi.py`) that calls its parts."""

    keep_wide: bool = False
    """Keep a function of more than `MAX_CTYPES_ARGUMENTS` parameters whose packed entry
    the pass defines even when nothing in the module refers to it (the host calls the
    packed entry: `runtime/executable.py`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        taken = {o.sym_name.data for o in op.ops if isinstance(getattr(o, "sym_name", None), StringAttr)}  # pyright: ignore
        wide: list[llvm.FuncOp] = []
        for func_op in [o for o in op.ops if isinstance(o, llvm.FuncOp)]:
            packed = PACKED_PREFIX + func_op.sym_name.data
            if not _packs(func_op, self.packed_over) or packed in taken:
                packed = None
            parts = split_function(func_op, self.max_ops, taken, packed)
            if parts:
                op.body.block.insert_ops_after(parts, func_op)
                if packed is not None:
                    taken.add(packed)
                    if len(func_op.function_type.inputs.data) > MAX_CTYPES_ARGUMENTS:
                        wide.append(func_op)
        if wide and not self.keep_wide:
            referenced = referenced_symbols(op)
            for func_op in wide:
                if func_op.sym_name.data not in referenced:
                    op.body.block.erase_op(func_op)


def _packs(func_op: llvm.FuncOp, packed_over: int) -> bool:
    """Whether `func_op` is called by the host through a packed entry: public, with
    more than `packed_over` parameters, all pointers, and no result."""
    function_type = func_op.function_type
    inputs = function_type.inputs.data
    return (
        len(inputs) > packed_over
        and func_op.linkage.linkage.data not in ("internal", "private")
        and isinstance(function_type.output, llvm.LLVMVoidType)
        and all(isinstance(t, llvm.LLVMPointerType) for t in inputs)
    )


__all__ = ["SplitLargeFunctionsPass", "split_function"]
