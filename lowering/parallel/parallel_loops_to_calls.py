"""`convert-parallel-loops-to-calls`: the outermost `scf.parallel` of each loop nest
→ a call that runs its iterations on the runtime's thread pool.

Runs after the `scf` loops are final (after `math-polynomial-approximation`) and
before `lower-scf-to-cf`; afterwards no `scf.parallel` is left. For each
`scf.parallel` of a function that no other `scf.parallel` contains:

* Nested `scf.parallel`s become `scf.for` nests (one level of parallelism: the
  outermost one has the most work per iteration), as does the loop itself when it
  is not worth a thread (below) or cannot be outlined (it calls host I/O, whose
  order is part of the program's meaning, or captures a value that does not fit
  the context). A loop with several induction variables runs its first one in
  parallel and the others as an `scf.for` nest inside.
* Cost model. The work of one iteration is the number of operations of its body
  (a vector operation counts its lanes; a nested loop multiplies its body by its
  trip count: the static one, else a bound of it (a tile loop `lb to min(lb + c,
  x)` runs at most `c / step` times), else 16). A loop whose static trip count times
  that work is below `min_work` stays serial: no call, no overhead, so nothing
  small gets slower. The call's `grain` (the fewest iterations a thread gets) is
  `min_chunk_work` divided by the work of an iteration; the runtime also runs
  serially when `n < 2 * grain` or with one thread.
* Outlining. The body becomes `@<fn>__parallel<k>_body(captures..., %lo: index,
  %hi: index)` (internal) running an `scf.for` over the iterations [lo, hi) of
  the original loop (a static `memref.alloca` in the loop's body, a scratch
  buffer, is made once per chunk, before that loop: each thread has its own; in a
  loop that stays serial it moves to the function's entry); memref captures whose buffers are `llvm.noalias` arguments
  or allocations of the function, and distinct from each other, keep
  `llvm.noalias`, so LLVM optimizes the body as it did the loop. Constants are
  re-created in the body rather than captured. A trampoline `@<fn>__parallel<k>(%ctx:
  !llvm.ptr, %lo: i64, %hi: i64)` loads the captures from the context's 8-byte
  slots and calls the body (LLVM inlines it). The loop becomes: an `llvm.alloca` of
  the slots (in the function's entry block), one `llvm.store` per capture, and
  `func.call @__xla_parallel_for(addressof @<fn>__parallel<k>, %ctx, %n, %grain)`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.host_abi import SYMBOL_PREFIX
from lowering.loop_annotation import copy_loop_annotation
from lowering.memref_views import view_root
from lowering.parallel import PARALLEL_FOR_SYMBOL
from lowering.to_llvm.common import PTR, bitwidth, convert_type
from xla_dialect.diagnostics import LoweringError

MIN_PARALLEL_WORK = 1 << 19
"""Loops with less estimated work (operations) stay serial. Measured on the
development machine: an operation of vectorized f32 code takes ~0.02 ns (8 lanes,
several per cycle), of scalar code up to ~0.3 ns, a memory access counts
`MEMORY_WEIGHT`, so this is at least ~10 us of work; a region of the native pool
costs ~3-10 us (two chunks, `benchmarks/bench_parallel_overhead.py`), so a loop that
goes parallel gains. (The Python pool, ~30-45 us a region, multiplies the grain by
`runtime.threads.PYTHON_GRAIN_FACTOR`.)"""

MIN_CHUNK_WORK = 1 << 18
"""The least work worth a thread of its own (sets the grain of the call)."""

MEMORY_WEIGHT = 4
"""What a load or a store of one element counts: copies, fills and the passes of
memory-bound loops stream memory at ~0.1 ns an element, several times an
arithmetic lane's cost."""

UNKNOWN_TRIP_COUNT = 16
"""What the cost model assumes for a loop whose trip count is not static."""

_CONSTANT_OPS = (arith.ConstantOp, llvm.ConstantOp, llvm.AddressOfOp, llvm.ZeroOp, llvm.UndefOp, memref.GetGlobalOp)
_MEMORY_OPS = (memref.LoadOp, memref.StoreOp, vector.LoadOp, vector.StoreOp, vector.MaskedLoadOp, vector.MaskedStoreOp, llvm.LoadOp, llvm.StoreOp)


# ---------------------------------------------------------------------------
# Cost model
# ---------------------------------------------------------------------------


def static_index(value: SSAValue) -> int | None:
    """The value of an index constant, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip_count(lower: SSAValue, upper: SSAValue, step: SSAValue) -> int | None:
    lb, ub, st = static_index(lower), static_index(upper), static_index(step)
    if lb is None or ub is None or st is None or st <= 0:
        return None
    return max(0, -(-(ub - lb) // st))


def _induction_loop(value: SSAValue) -> scf.ForOp | None:
    if isinstance(value, BlockArgument) and value.index == 0:
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp):
            return parent
    return None


def _upper(value: SSAValue, depth: int = 0) -> int | None:
    """A static upper bound of an index value, if one is evident."""
    if depth > 8:
        return None
    static = static_index(value)
    if static is not None:
        return static
    loop = _induction_loop(value)
    if loop is not None:
        hi = _upper(loop.ub, depth + 1)
        return None if hi is None else hi - 1
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        a, b = _upper(owner.lhs, depth + 1), _upper(owner.rhs, depth + 1)
        return None if a is None or b is None else a + b
    if isinstance(owner, (arith.MinUIOp, arith.MinSIOp)):
        known = [u for u in (_upper(owner.lhs, depth + 1), _upper(owner.rhs, depth + 1)) if u is not None]
        return min(known) if known else None
    return None


def _lower(value: SSAValue, depth: int = 0) -> int | None:
    """A static lower bound of an index value, if one is evident."""
    if depth > 8:
        return None
    static = static_index(value)
    if static is not None:
        return static
    loop = _induction_loop(value)
    if loop is not None:
        return _lower(loop.lb, depth + 1)
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        a, b = _lower(owner.lhs, depth + 1), _lower(owner.rhs, depth + 1)
        return None if a is None or b is None else a + b
    if isinstance(owner, (arith.MinUIOp, arith.MinSIOp)):
        a, b = _lower(owner.lhs, depth + 1), _lower(owner.rhs, depth + 1)
        return None if a is None or b is None else min(a, b)
    return None


def estimated_trip_count(lower: SSAValue, upper: SSAValue, step: SSAValue) -> int | None:
    """The trip count when static, else a bound of it when evident: a tile loop
    `lb to lb + c` or `lb to min(lb + c, x)` runs at most `c / step` times, and bounds derived from
    enclosing loops and constants bound the others."""
    exact = trip_count(lower, upper, step)
    if exact is not None:
        return exact
    st = static_index(step)
    if st is None or st <= 0:
        return None
    owner = upper.owner
    if isinstance(owner, arith.AddiOp) and lower in owner.operands:  # lb to lb + c
        c = static_index(owner.rhs if owner.lhs is lower else owner.lhs)
        if c is not None:
            return max(0, -(-c // st))
    if isinstance(owner, (arith.MinUIOp, arith.MinSIOp)):
        for operand in owner.operands:
            add = operand.owner
            if isinstance(add, arith.AddiOp) and lower in add.operands:
                other = add.rhs if add.lhs is lower else add.lhs
                c = static_index(other)
                if c is not None:
                    return max(0, -(-c // st))
    hi, lo = _upper(upper), _lower(lower)
    if hi is None or lo is None:
        return None
    return max(0, -(-(hi - lo) // st))


def _lanes(op: Operation) -> int:
    lanes = 1
    for value in (*op.results, *op.operands):
        if isinstance(value.type, VectorType):
            lanes = max(lanes, math.prod(value.type.get_shape()))
    return lanes


def op_work(op: Operation) -> float:
    """The estimated work of one execution of `op` (its regions included)."""
    if isinstance(op, (*_CONSTANT_OPS, scf.YieldOp, scf.ReduceOp, UnrealizedConversionCastOp)):
        return 0.0
    if isinstance(op, scf.ForOp):
        trips = estimated_trip_count(op.lb, op.ub, op.step)
        return 1.0 + (UNKNOWN_TRIP_COUNT if trips is None else trips) * block_work(op.body.block)
    if isinstance(op, scf.ParallelOp):
        trips = 1
        for lb, ub, st in zip(op.lowerBound, op.upperBound, op.step):
            t = estimated_trip_count(lb, ub, st)
            trips *= UNKNOWN_TRIP_COUNT if t is None else t
        return 1.0 + trips * block_work(op.body.block)
    if isinstance(op, scf.WhileOp):
        return UNKNOWN_TRIP_COUNT * sum(block_work(b) for r in op.regions for b in r.blocks)
    if op.regions:  # scf.if, scf.index_switch, ...: the most expensive branch
        return 1.0 + max((sum(block_work(b) for b in r.blocks) for r in op.regions), default=0.0)
    if isinstance(op, memref.CopyOp):
        source = op.source.type
        elements = math.prod(source.get_shape()) if isinstance(source, MemRefType) else 1
        return float(2 * MEMORY_WEIGHT * max(1, elements))
    if isinstance(op, _MEMORY_OPS):
        return float(MEMORY_WEIGHT * _lanes(op))
    return float(_lanes(op))


def block_work(block: Block) -> float:
    return sum(op_work(op) for op in block.ops)


# ---------------------------------------------------------------------------
# scf.parallel → scf.for
# ---------------------------------------------------------------------------


def _move_body(source: Block, target: Block, ivs: Sequence[SSAValue]) -> None:
    """Move the ops of `source` but its terminator to the end of `target`,
    its arguments replaced by `ivs`."""
    for arg, iv in zip(source.args, ivs):
        arg.replace_all_uses_with(iv)
    terminator = source.last_op
    for op in list(source.ops):
        if op is terminator:
            continue
        op.detach()
        target.add_op(op)


def _for_nest(
    lowers: Sequence[SSAValue], uppers: Sequence[SSAValue], steps: Sequence[SSAValue], body: Block,
    annotated: Operation | None = None,
) -> tuple[Operation, Block]:
    """An `scf.for` nest over the given dimensions with `body`'s ops inside;
    returns the outer loop and the innermost block. The innermost loop takes
    `annotated`'s loop annotation (`lowering.loop_annotation`)."""
    outer: Operation | None = None
    parent: Block | None = None
    ivs: list[SSAValue] = []
    loop: Operation | None = None
    for lb, ub, st in zip(lowers, uppers, steps):
        block = Block(arg_types=[IndexType()])
        loop = scf.ForOp(lb, ub, st, [], Region(block))
        if parent is None:
            outer = loop
        else:
            parent.add_op(loop)
            parent.add_op(scf.YieldOp())
        parent = block
        ivs.append(block.args[0])
    assert outer is not None and parent is not None and loop is not None
    if annotated is not None:
        copy_loop_annotation(annotated, loop)
    _move_body(body, parent, ivs)
    parent.add_op(scf.YieldOp())
    return outer, parent


def _check_no_reductions(op: scf.ParallelOp) -> None:
    if op.initVals:
        raise LoweringError("scf.parallel with reductions is not supported by convert-parallel-loops-to-calls", op)


def serialize(op: scf.ParallelOp) -> Operation:
    """Replace `op` by the equivalent `scf.for` nest; its per-iteration scratch buffers
    (static `memref.alloca`s) move out of the loop (`hoist_scratch`)."""
    _check_no_reductions(op)
    outer, _ = _for_nest(list(op.lowerBound), list(op.upperBound), list(op.step), op.body.block, op)
    Rewriter.replace_op(op, outer, [])
    hoist_scratch(outer)
    return outer


def hoist_scratch(op: Operation) -> None:
    """Move each static `memref.alloca` inside `op` to the start of the nearest
    enclosing `scf.parallel` body or function: an alloca in a loop would take
    stack space on every iteration, and a parallel body's is its thread's own."""
    for alloca in [o for o in op.walk() if isinstance(o, memref.AllocaOp) and not o.operands]:
        block = alloca.parent_block()
        while block is not None:
            parent = block.parent_op()
            if parent is None or isinstance(parent, (scf.ParallelOp, func.FuncOp)):
                break
            block = parent.parent_block()
        if block is None or alloca.parent_block() is block:
            continue
        alloca.detach()
        first = block.first_op
        assert first is not None  # the block holds the op `alloca` was nested in
        block.insert_op_before(alloca, first)


def _single_dimension(op: scf.ParallelOp) -> scf.ParallelOp:
    """`op` with its first dimension parallel and the others an `scf.for` nest inside."""
    if len(op.lowerBound) == 1:
        return op
    block = Block(arg_types=[IndexType()])
    old = op.body.block
    inner_block = Block(arg_types=[IndexType()] * (len(op.lowerBound) - 1))
    old.args[0].replace_all_uses_with(block.args[0])
    for arg, new in zip(old.args[1:], inner_block.args):
        arg.replace_all_uses_with(new)
    terminator = old.last_op
    for inner in list(old.ops):
        if inner is not terminator:
            inner.detach()
            inner_block.add_op(inner)
    inner_block.add_op(scf.ReduceOp())
    nest, _ = _for_nest(list(op.lowerBound[1:]), list(op.upperBound[1:]), list(op.step[1:]), inner_block, op)
    block.add_op(nest)
    block.add_op(scf.ReduceOp())
    new = scf.ParallelOp([op.lowerBound[0]], [op.upperBound[0]], [op.step[0]], Region(block))
    Rewriter.replace_op(op, new, [])
    return new


# ---------------------------------------------------------------------------
# Outlining
# ---------------------------------------------------------------------------


def slot_count(t: Attribute) -> int | None:
    """How many 8-byte context slots a value of type `t` takes (None: cannot be passed)."""
    if isinstance(t, (MemRefType, IndexType, llvm.LLVMPointerType)):
        return 1
    if isinstance(t, (IntegerType, AnyFloat)):
        return 1 if bitwidth(t) <= 64 else None
    if isinstance(t, ComplexType):
        return -(-2 * bitwidth(t.element_type) // 64)
    if isinstance(t, VectorType) and isinstance(t.element_type, (IntegerType, AnyFloat, IndexType)):
        return max(1, -(-math.prod(t.get_shape()) * bitwidth(t.element_type) // 64))
    return None


def defined_in(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined inside `op` (by an op or a block of its regions)."""
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        return parent is not None and (parent is op or op.is_ancestor(parent))
    return op.is_ancestor(owner)


def _calls_host(op: Operation) -> bool:
    for inner in op.walk():
        if isinstance(inner, func.CallOp) and inner.callee.root_reference.data.startswith(SYMBOL_PREFIX):
            return True
        if isinstance(inner, llvm.CallOp) and inner.callee is not None and inner.callee.root_reference.data.startswith(SYMBOL_PREFIX):
            return True
    return False


def _noalias_root(value: SSAValue, fn: func.FuncOp) -> bool:
    owner = value.owner
    if isinstance(owner, (memref.AllocOp, memref.AllocaOp)):
        return True
    if isinstance(value, BlockArgument) and owner is fn.body.blocks.first and fn.arg_attrs is not None:
        attrs = fn.arg_attrs.data[value.index].data
        return "llvm.noalias" in attrs
    return False


def _noalias_flags(captures: Sequence[SSAValue], fn: func.FuncOp) -> list[bool]:
    if any(isinstance(c.type, llvm.LLVMPointerType) for c in captures):
        return [False] * len(captures)
    roots = [view_root(c) if isinstance(c.type, MemRefType) else None for c in captures]
    flags: list[bool] = []
    for c, root in zip(captures, roots):
        flags.append(
            root is not None and _noalias_root(root, fn) and sum(1 for r in roots if r is root) == 1
        )
    return flags


@dataclass
class _Outliner:
    module: ModuleOp
    fn: func.FuncOp
    names: set[str]

    def fresh_name(self, base: str) -> str:
        k = 0
        while f"{base}{k}" in self.names:
            k += 1
        name = f"{base}{k}"
        self.names.add(name)
        return name

    def outline(self, op: scf.ParallelOp, grain: int, captures: list[SSAValue], constants: list[Operation]) -> None:
        lb, ub, step = op.lowerBound[0], op.upperBound[0], op.step[0]
        name = self.fresh_name(f"{self.fn.sym_name.data}__parallel")
        body_fn = self._body_function(f"{name}_body", op, captures, constants)
        trampoline = self._trampoline(name, body_fn, captures)
        self.module.body.block.insert_op_after(body_fn, self.fn)
        self.module.body.block.insert_op_after(trampoline, self.fn)
        self._declare_runtime()

        # The call site: the context, filled with the captures, and the call.
        slots = sum(slot_count(c.type) or 0 for c in captures)
        entry = self.fn.body.blocks.first
        assert entry is not None
        size = arith.ConstantOp(IntegerAttr(max(1, slots), i64))
        ctx = llvm.AllocaOp(size, i64, alignment=8)
        Rewriter.insert_op([size, ctx], InsertPoint.at_start(entry))
        site: list[Operation] = []
        offset = 0
        for capture in captures:
            value = capture
            llvm_type = convert_type(capture.type)
            if llvm_type != capture.type:
                cast = UnrealizedConversionCastOp.get([capture], [llvm_type])
                site.append(cast)
                value = cast.results[0]
            if isinstance(llvm_type, llvm.LLVMPointerType):
                as_int = llvm.PtrToIntOp(value)  # pointers travel as i64
                site.append(as_int)
                value = as_int.results[0]
            pointer: SSAValue = ctx.res
            if offset:
                gep = llvm.GEPOp(ctx.res, [offset], i64)
                site.append(gep)
                pointer = gep.result
            site.append(llvm.StoreOp(value, pointer, alignment=8))
            offset += slot_count(capture.type) or 0
        address = llvm.AddressOfOp(name, PTR)
        site.append(address)
        n = self._trip_count(lb, ub, step, site)
        grain_op = arith.ConstantOp(IntegerAttr(grain, i64))
        site.append(grain_op)
        site.append(func.CallOp(PARALLEL_FOR_SYMBOL, [address.result, ctx.res, n, grain_op.result], []))
        Rewriter.insert_op(site, InsertPoint.before(op))
        Rewriter.erase_op(op)

    def _trip_count(self, lb: SSAValue, ub: SSAValue, step: SSAValue, site: list[Operation]) -> SSAValue:
        static = trip_count(lb, ub, step)
        if static is not None:
            const = arith.ConstantOp(IntegerAttr(static, i64))
            site.append(const)
            return const.result
        span = arith.SubiOp(ub, lb)
        count = arith.CeilDivSIOp(span, step)
        zero = arith.ConstantOp(IntegerAttr.from_index_int_value(0))
        clamped = arith.MaxSIOp(count, zero)
        as_i64 = arith.IndexCastOp(clamped, i64)
        site.extend([span, count, zero, clamped, as_i64])
        return as_i64.result

    def _body_function(
        self, name: str, op: scf.ParallelOp, captures: list[SSAValue], constants: list[Operation]
    ) -> func.FuncOp:
        index = IndexType()
        block = Block(arg_types=[*(c.type for c in captures), index, index])
        lo, hi = block.args[-2], block.args[-1]
        lo.name_hint, hi.name_hint = "lo", "hi"
        for capture, arg in zip(captures, block.args):
            arg.name_hint = capture.name_hint
        mapping: dict[SSAValue, SSAValue] = dict(zip(captures, block.args))
        for const in constants:
            clone = const.clone()
            block.add_op(clone)
            for old, new in zip(const.results, clone.results):
                mapping[old] = new

        def value(v: SSAValue) -> SSAValue:
            return mapping.get(v, v)

        lb, step = value(op.lowerBound[0]), value(op.step[0])
        if static_index(lb) == 0 and static_index(step) == 1:
            start, stop = lo, hi
        else:
            first = arith.MuliOp(lo, step)
            start_op = arith.AddiOp(lb, first)
            last = arith.MuliOp(hi, step)
            stop_op = arith.AddiOp(lb, last)
            block.add_ops([first, start_op, last, stop_op])
            start, stop = start_op.result, stop_op.result
        loop_block = Block(arg_types=[index])
        loop = scf.ForOp(start, stop, step, [], Region(loop_block))
        copy_loop_annotation(op, loop)
        block.add_op(loop)
        block.add_op(func.ReturnOp())
        _move_body(op.body.block, loop_block, [loop_block.args[0]])
        loop_block.add_op(scf.YieldOp())
        for inner in [o for o in loop.walk() if isinstance(o, memref.AllocaOp) and not o.operands]:
            inner.detach()  # scratch buffers: one per chunk (per thread), not per iteration
            block.insert_op_before(inner, loop)
        for inner in loop.walk():
            if any(o in mapping for o in inner.operands):
                inner.operands = [value(o) for o in inner.operands]

        noalias = _noalias_flags(captures, self.fn)
        arg_attrs = ArrayAttr(
            [DictionaryAttr({"llvm.noalias": UnitAttr()} if flag else {}) for flag in noalias]
            + [DictionaryAttr({}), DictionaryAttr({})]
        )
        body_fn = func.FuncOp(
            name,
            FunctionType.from_lists([*(c.type for c in captures), index, index], []),
            Region(block),
            visibility="private",
            arg_attrs=arg_attrs,
        )
        body_fn.attributes["llvm.linkage"] = StringAttr("internal")
        return body_fn

    def _trampoline(self, name: str, body_fn: func.FuncOp, captures: list[SSAValue]) -> func.FuncOp:
        block = Block(arg_types=[PTR, i64, i64])
        ctx, lo, hi = block.args
        ctx.name_hint, lo.name_hint, hi.name_hint = "ctx", "lo", "hi"
        args: list[SSAValue] = []
        offset = 0
        for capture in captures:
            pointer: SSAValue = ctx
            if offset:
                gep = llvm.GEPOp(ctx, [offset], i64)
                block.add_op(gep)
                pointer = gep.result
            llvm_type = convert_type(capture.type)
            is_pointer = isinstance(llvm_type, llvm.LLVMPointerType)
            load = llvm.LoadOp(pointer, i64 if is_pointer else llvm_type, alignment=8)
            block.add_op(load)
            loaded: SSAValue = load.dereferenced_value
            if is_pointer:
                as_pointer = llvm.IntToPtrOp(loaded)
                block.add_op(as_pointer)
                loaded = as_pointer.results[0]
            if llvm_type != capture.type:
                cast = UnrealizedConversionCastOp.get([loaded], [capture.type])
                block.add_op(cast)
                loaded = cast.results[0]
            args.append(loaded)
            offset += slot_count(capture.type) or 0
        bounds = [UnrealizedConversionCastOp.get([v], [IndexType()]) for v in (lo, hi)]
        block.add_ops(bounds)
        block.add_op(func.CallOp(body_fn.sym_name.data, [*args, *(b.results[0] for b in bounds)], []))
        block.add_op(func.ReturnOp())
        trampoline = func.FuncOp(name, FunctionType.from_lists([PTR, i64, i64], []), Region(block), visibility="private")
        trampoline.attributes["llvm.linkage"] = StringAttr("internal")
        return trampoline

    def _declare_runtime(self) -> None:
        if PARALLEL_FOR_SYMBOL in self.names:
            return
        self.names.add(PARALLEL_FOR_SYMBOL)
        self.module.body.block.add_op(func.FuncOp.external(PARALLEL_FOR_SYMBOL, [PTR, PTR, i64, i64], []))


def _captures(op: scf.ParallelOp) -> tuple[list[SSAValue], list[Operation]]:
    """The values the loop's body uses from outside it, and the constants among
    them (re-created in the body rather than captured)."""
    captures: list[SSAValue] = []
    constants: list[Operation] = []
    seen: set[SSAValue] = set()
    used = [v for inner in op.body.walk() for v in inner.operands]
    used += [op.lowerBound[0], op.step[0]]
    for v in used:
        if v in seen or defined_in(v, op):
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, _CONSTANT_OPS) and not owner.operands:
            if owner not in constants:
                constants.append(owner)
        else:
            captures.append(v)
    return captures, constants


def outermost_parallel_loops(fn: func.FuncOp) -> list[scf.ParallelOp]:
    found: list[scf.ParallelOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isinstance(inner, scf.ParallelOp):
                        found.append(inner)
                    else:
                        visit(inner)

    visit(fn)
    return found


@dataclass(frozen=True)
class ConvertParallelLoopsToCallsPass(ModulePass):
    """Outermost `scf.parallel` loops → `__xla_parallel_for` calls (or `scf.for`)."""

    name = "convert-parallel-loops-to-calls"

    min_work: int = MIN_PARALLEL_WORK
    """Loops with less estimated work (static trip count × work per iteration) stay serial."""

    min_chunk_work: int = MIN_CHUNK_WORK
    """The least work a thread gets (sets the call's grain)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        names = {o.sym_name.data for o in op.ops if isinstance(o, func.FuncOp)}
        for fn in [o for o in op.ops if isinstance(o, func.FuncOp) and o.body.blocks]:
            outliner = _Outliner(op, fn, names)
            for loop in outermost_parallel_loops(fn):
                self._convert(loop, outliner)

    def _convert(self, loop: scf.ParallelOp, outliner: _Outliner) -> None:
        _check_no_reductions(loop)
        nested = [inner for inner in loop.body.walk() if isinstance(inner, scf.ParallelOp)]
        for inner in reversed(nested):  # innermost first
            serialize(inner)
        loop = _single_dimension(loop)
        lb, ub, step = loop.lowerBound[0], loop.upperBound[0], loop.step[0]
        trips = trip_count(lb, ub, step)
        per_iteration = max(1.0, block_work(loop.body.block))
        grain = max(1, math.ceil(self.min_chunk_work / per_iteration))
        captures, constants = _captures(loop)
        worth_it = trips is None or (trips >= 2 and trips >= 2 * grain and trips * per_iteration >= self.min_work)
        if not worth_it or _calls_host(loop) or any(slot_count(c.type) is None for c in captures):
            serialize(loop)
            return
        outliner.outline(loop, grain, captures, constants)


__all__ = [
    "MEMORY_WEIGHT",
    "MIN_CHUNK_WORK",
    "MIN_PARALLEL_WORK",
    "ConvertParallelLoopsToCallsPass",
    "block_work",
    "defined_in",
    "estimated_trip_count",
    "hoist_scratch",
    "op_work",
    "outermost_parallel_loops",
    "serialize",
    "slot_count",
    "trip_count",
]
