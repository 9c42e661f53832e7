"""The bufferization of a module: each function's body op by op, then the
deallocations (see the package docstring)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from lowering.bufferize.analysis import (
    _NON_REPETITIVE,
    ALIGNMENT,
    _aliases,
    _convert_declaration,
    _converted_signature,
    _erase,
    _error,
    _Globals,
    _has_tensor,
    _is_identity,
    _is_tensor,
    _read_before_written,
    _set_signature,
    buffer_type,
)
from lowering.bufferize.control_flow import ControlFlowOps
from lowering.bufferize.tensor_ops import TensorOps
from lowering.memref_views import view_root
from xla_dialect.block_args import erase_block_args, insert_block_args


def _check_supported(f: func.FuncOp) -> None:
    """Fail on an op this pass does not know that touches tensors, before any change."""
    for op in f.body.walk():
        if op is f or isinstance(op, _HANDLED) or op.name.startswith("linalg."):
            continue
        tensor_args = any(_has_tensor(b.args) for r in op.regions for b in r.blocks)
        if _has_tensor(op.operands) or _has_tensor(op.results) or tensor_args:
            raise _error(op, "unsupported op with tensor operands, results or region arguments")


class _FunctionBufferizer(TensorOps, ControlFlowOps):
    """Bufferizes the body of one function (see the module docstring)."""

    def __init__(self, f: func.FuncOp, globals_: _Globals):
        self.f = f
        self.globals = globals_
        self.buffers: dict[SSAValue, SSAValue] = {}
        self.owned: set[SSAValue] = set()
        """Tensor values whose buffer is a fresh buffer of this function."""
        self.allocs: dict[memref.AllocOp, None] = {}
        """The allocs made here (an ordered set), each to be freed in its block."""
        self.erase: list[Operation] = []
        self.erase_args: list[BlockArgument] = []
        self.terminators: dict[Block, Callable[[Operation], None]] = {}
        self.out_params: list[BlockArgument] = []

    # -- driver ------------------------------------------------------------

    def run(self) -> None:
        f = self.f
        inputs, results, outs = _converted_signature(f.function_type, f)
        entry = f.body.blocks[0]
        tensors = [arg for arg in entry.args if _is_tensor(arg.type)]
        arity = len(entry.args)
        new_args = insert_block_args(
            entry, [(arg.index, buffer_type(arg.type, f)) for arg in tensors] + [(arity, t) for t in outs]
        )
        for arg, new in zip(tensors, new_args, strict=False):
            new.name_hint = arg.name_hint
            self.buffers[arg] = new
            self.erase_args.append(arg)
        self.out_params.extend(new_args[len(tensors) :])
        for block in f.body.blocks:
            self.process_block(block)
        for op in reversed(self.erase):
            _erase(op)
        erase_block_args(self.erase_args)
        _set_signature(f, inputs, results, len(outs))
        self.insert_deallocs()

    def process_block(self, block: Block) -> None:
        for op in list(block.ops):
            self.process(op)

    def process(self, op: Operation) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op)
        elif op.name.startswith("linalg.") and (_has_tensor(op.operands) or _has_tensor(op.results)):
            self.linalg(op)
        elif isinstance(op, arith.ConstantOp) and _is_tensor(op.result.type):
            self.constant(op)
        else:
            if _has_tensor(op.operands) or _has_tensor(op.results):
                raise _error(op, "unsupported op with tensor operands or results")
            for region in op.regions:
                for block in region.blocks:
                    self.process_block(block)

    # -- helpers -----------------------------------------------------------

    def buf(self, value: SSAValue) -> SSAValue:
        try:
            return self.buffers[value]
        except KeyError:
            owner = value.owner
            op = owner if isinstance(owner, Operation) else self.f
            raise _error(op, f"no buffer for the tensor value %{value.name_hint or '?'}") from None

    def insert(self, ops: Sequence[Operation], before: Operation) -> None:
        block = before.parent_block()
        assert block is not None
        block.insert_ops_before(ops, before)

    def alloc(self, t: MemRefType, before: Operation) -> SSAValue:
        op = memref.AllocOp([], [], t, IntegerAttr(ALIGNMENT, i64))
        op.location = before.location  # a failed allocation names the op it is for
        self.insert([op], before)
        self.allocs[op] = None
        return op.memref

    def copy(self, source: SSAValue, dest: SSAValue, before: Operation) -> None:
        if source is not dest:
            self.insert([memref.CopyOp(source, dest)], before)

    def index(self, value: int, before: Operation) -> SSAValue:
        c = arith.ConstantOp(IntegerAttr(value, IndexType()))
        self.insert([c], before)
        return c.result

    def replace_results(self, old: Operation, new: Operation) -> None:
        """Map the tensor results of `old` (set by the caller) and replace its
        other results by those of `new`, in order."""
        scalars = iter(new.results)
        for result in old.results:
            if not _is_tensor(result.type):
                result.replace_all_uses_with(next(scalars))

    def set_buffer(self, value: SSAValue, buffer: SSAValue, owned: bool) -> None:
        self.buffers[value] = buffer
        if owned:
            self.owned.add(value)

    def writable_in_place(self, value: SSAValue, writer: Operation) -> bool:
        """Whether `writer` may overwrite the buffer of `value` (module docstring)."""
        if value not in self.owned or not (value.has_one_use() or _read_before_written(value, writer)):
            return False
        home = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
        block = writer.parent_block()
        while block is not home:
            parent = block.parent_op() if block is not None else None
            if not isinstance(parent, _NON_REPETITIVE):
                return False
            block = parent.parent_block()
        return True

    def destination(self, value: SSAValue, writer: Operation, *, reads: bool) -> SSAValue:
        """The buffer `writer` writes the new contents of tensor `value` into."""
        buffer = self.buf(value)
        if self.writable_in_place(value, writer):
            return buffer
        fresh = self.alloc(buffer_type(value.type, writer), writer)
        if reads and not isinstance(value.owner, tensor.EmptyOp):
            self.copy(buffer, fresh, writer)
        return fresh

    def contiguous(self, buffer: SSAValue, before: Operation) -> SSAValue:
        """`buffer`, or a copy of it with the identity layout."""
        t = buffer.type
        assert isinstance(t, MemRefType)
        if _is_identity(t):
            return buffer
        fresh = self.alloc(MemRefType(t.get_element_type(), t.get_shape()), before)
        self.copy(buffer, fresh, before)
        return fresh

    def copy_carried(self, values: Sequence[SSAValue], targets: Sequence[SSAValue], before: Operation) -> None:
        """Copy each value into its target buffer, all "at once". The copies run in
        order; a value that overlaps its own target, or the target of an earlier
        copy (e.g. in a swap), is saved into a temporary before any copy."""
        overwritten: set[SSAValue] = set()
        sources: list[SSAValue] = []
        for value, target in zip(values, targets, strict=True):
            if value is target:
                sources.append(value)
                continue
            root = view_root(value)
            if root in overwritten or root is view_root(target):
                t = value.type
                assert isinstance(t, MemRefType)
                temp = self.alloc(MemRefType(t.get_element_type(), t.get_shape()), before)
                self.copy(value, temp, before)
                value = temp
            sources.append(value)
            overwritten.add(view_root(target))
        for value, target in zip(sources, targets, strict=True):
            self.copy(value, target, before)

    def carried_buffer(self, init: SSAValue, loop: Operation) -> SSAValue:
        """The buffer carrying a loop value initialized by tensor `init`."""
        buffer = self.buf(init)
        if self.writable_in_place(init, loop) and _is_identity(buffer.type):
            return buffer
        fresh = self.alloc(buffer_type(init.type, loop), loop)
        if not isinstance(init.owner, tensor.EmptyOp):
            self.copy(buffer, fresh, loop)
        return fresh

    def local_alloc(self, buffer: SSAValue, block: Block) -> memref.AllocOp | None:
        """The alloc of this pass in `block` that `buffer` is, if any."""
        owner = buffer.owner
        if isinstance(owner, memref.AllocOp) and owner in self.allocs and owner.parent_block() is block:
            return owner
        return None

    def rename(self, alloc: memref.AllocOp, buffer: SSAValue) -> None:
        """Make everything written into `alloc` be written into `buffer` instead."""
        for tensor_value, b in self.buffers.items():
            if b is alloc.memref:
                self.buffers[tensor_value] = buffer
        alloc.memref.replace_all_uses_with(buffer)
        del self.allocs[alloc]
        _erase(alloc)

    def move_regions(self, old: Operation) -> list[Region]:
        """Detach all regions of `old`, for its replacement (their ops are kept)."""
        return [old.detach_region(0) for _ in range(len(old.regions))]

    def process_regions(self, op: Operation, terminator: Callable[[Operation], None] | None) -> None:
        for region in op.regions:
            for block in region.blocks:
                if terminator is not None:
                    self.terminators[block] = terminator
                self.process_block(block)

    # -- deallocation ------------------------------------------------------

    def insert_deallocs(self) -> None:
        """Free each alloc after the last op of its block using it or a view of it
        (uses nested in regions count for their ancestor in the block); drop the
        unused ones."""
        positions: dict[Block, dict[Operation, int]] = {}
        for alloc in list(self.allocs):
            block = alloc.parent_block()
            assert block is not None
            if block not in positions:
                positions[block] = {o: i for i, o in enumerate(block.ops)}
            order = positions[block]
            last: Operation = alloc
            for value in _aliases(alloc.memref):
                for use in value.uses:
                    user = block.find_ancestor_op_in_block(use.operation)
                    assert user is not None, "a buffer escaped its block"
                    if order[user] > order[last]:
                        last = user
            if last is alloc:
                _erase(alloc)
                continue
            if last.has_trait(IsTerminator):
                raise _error(last, "internal error: a buffer is used by a terminator")
            block.insert_op_after(memref.DeallocOp.get(alloc.memref), last)


_HANDLERS: dict[type[Operation], Callable[..., None]] = {
    tensor.EmptyOp: _FunctionBufferizer.empty,
    tensor.ExtractOp: _FunctionBufferizer.extract,
    tensor.InsertOp: _FunctionBufferizer.insert_op,
    tensor.ExtractSliceOp: _FunctionBufferizer.extract_slice,
    tensor.InsertSliceOp: _FunctionBufferizer.insert_slice,
    tensor.CollapseShapeOp: _FunctionBufferizer.reshape,
    tensor.ExpandShapeOp: _FunctionBufferizer.reshape,
    tensor.FromElementsOp: _FunctionBufferizer.from_elements,
    tensor.CastOp: _FunctionBufferizer.cast,
    scf.IfOp: _FunctionBufferizer._branching,
    scf.IndexSwitchOp: _FunctionBufferizer._branching,
    scf.ForOp: _FunctionBufferizer.for_op,
    scf.WhileOp: _FunctionBufferizer.while_op,
    scf.YieldOp: _FunctionBufferizer.terminator,
    scf.ConditionOp: _FunctionBufferizer.terminator,
    func.CallOp: _FunctionBufferizer.call,
    func.ReturnOp: _FunctionBufferizer.return_op,
}
"""The handler of each op kind (besides any `linalg.*` op and tensor constants)."""

_HANDLED: tuple[type[Operation], ...] = (*_HANDLERS, arith.ConstantOp)
"""The op kinds this pass knows (linalg ops aside); any other touching tensors fails."""


# ---------------------------------------------------------------------------
# Pass
# ---------------------------------------------------------------------------


def bufferize_module(module: ModuleOp) -> None:
    """Bufferize every function of `module` in place (see the module docstring)."""
    functions = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    for f in functions:
        _check_supported(f)
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp):
            for inner in op.walk():
                if _has_tensor(inner.operands) or _has_tensor(inner.results):
                    raise _error(inner, "tensors outside functions are not supported")
    globals_ = _Globals(module)
    for f in functions:
        if f.is_declaration:
            _convert_declaration(f)
        else:
            _FunctionBufferizer(f, globals_).run()


@dataclass(frozen=True)
class BufferizePass(ModulePass):
    """Tensors → memrefs: one-shot bufferization with function-boundary
    bufferization, results as out-parameters and deallocation."""

    name = "bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bufferize_module(op)


__all__ = ["BufferizePass", "bufferize_module"]
