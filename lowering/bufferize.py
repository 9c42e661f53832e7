"""`bufferize`: one-shot bufferization of the linalg/tensor/scf/func programs that
`xla-to-linalg` produces: every tensor value becomes a memref buffer.

xDSL 0.74 has no bufferization, so this is our own, simplified version of what
MLIR's one-shot-bufferize with function-boundary bufferization,
buffer-results-to-out-params and buffer deallocation do, for static shapes.

Design
======

Each function is bufferized on its own, in one walk over its ops in program order
(regions are walked when their op is reached). `buffers` maps every tensor SSA
value to the memref value holding its contents. The old tensor ops stay in place
(so the use counts of tensor values stay those of the input program) and are
erased at the end, with the tensor block arguments.

* Function boundary: a tensor argument becomes a memref argument of the same
  shape (identity layout), read-only for the callee. Each tensor result becomes a
  memref out-parameter appended after the inputs, in result order; non-tensor
  results stay results. A `func.call` allocates the result buffers and passes them
  as the trailing arguments; an argument whose buffer has a non-identity layout is
  first copied into a contiguous buffer. Declarations are converted alike.
* Values: `tensor.empty` → `memref.alloc` (alignment 64); dense constants →
  private constant `memref.global`s (`__constant_N`, one per distinct type and
  value) + `memref.get_global`; `tensor.extract` → `memref.load`;
  `tensor.from_elements` → alloc + stores; `tensor.extract_slice` →
  `memref.subview` (a view, of strided layout; a dynamic offset makes the layout
  offset `?`); `collapse_shape`/`expand_shape` → the memref views of
  an identity-layout buffer, else of a contiguous copy; `tensor.cast` (static →
  static, i.e. the same type) → the same buffer.
* Writable tensors: a tensor's buffer may be written in place only if the tensor
  is *owned* — its buffer is a fresh allocation of this function (an alloc, a
  call/if/loop result buffer, or a destination written in place), not a function
  argument, a global or a view — and the tensor has exactly one use (the writer:
  SSA then guarantees nobody reads the old contents; other uses may only be
  `tensor.extract`s in earlier ops of the writer's block, whose loads run before
  the write: a loop's read-modify-write of a carried tensor), and no loop region (any
  region op other than `scf.if`/`scf.index_switch`/`scf.execute_region`) lies
  between the tensor's definition and the writer (otherwise the writer runs many
  times on one definition). Destination-style ops (every linalg op with tensor
  results: the trailing operands are the inits; `tensor.insert`,
  `tensor.insert_slice`) write into the destination's buffer when it is writable,
  else into a fresh buffer, after copying the old contents in unless the op never
  reads them (a linalg op whose body ignores the init's block argument, an
  `insert_slice` covering the whole destination, or a destination made by
  `tensor.empty`).
* Linalg ops are rebuilt generically: the same op class, properties, attributes
  and (moved) regions, tensor operands replaced by buffers and no results.
* `scf.if`/`scf.index_switch`: result buffers are allocated before the op; each
  branch copies its yielded tensors into them. A yielded buffer that is an alloc
  of that same branch block (and is yielded once) is *renamed* to the result
  buffer instead (the branch computes the result in place).
* `scf.for`/`scf.while`: the loops carry no buffers. One buffer per carried tensor
  is allocated before the loop (the init is copied in, or the init's buffer is
  reused when it is writable there); the region arguments and the loop results map
  to those buffers, and each `scf.yield` (and `scf.condition`, into the after
  buffers) copies its values into them at the end of the iteration. A yielded
  value that is already the slot's buffer needs no copy; the copies run in slot
  order, and a value overlapping its own target or the target of an earlier copy
  (e.g. `scf.yield %b, %a` swapping two carried tensors) is first saved into a
  temporary. For `scf.while`, an after-region buffer is the
  before-region buffer of the same position when `scf.condition` forwards that
  before-region argument unchanged, else a separate buffer.
* `func.return` copies each returned buffer into its out-parameter; a returned
  alloc of the entry block (of the out-parameter's type, returned once) is renamed
  to the out-parameter instead. Callers must pass out-parameters that alias no
  input (call sites here always allocate fresh ones).
* Deallocation: every remaining alloc made here is freed in its own block, right
  after the last op of that block using it or any view of it (uses in nested
  regions count for their ancestor op in the block); an alloc nobody uses is
  dropped. Buffers never escape their block except through the copies above, so
  this frees each buffer exactly once on every path.

Unsupported (a `LoweringError` naming the op): dynamic shapes, unranked tensors,
dynamic slice sizes or strides, any other op with tensor operands, results or
region arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator

from xla_dialect.diagnostics import LoweringError

ALIGNMENT = 64
"""Alignment in bytes of every buffer and constant global created here."""

_VIEW_OPS = (
    memref.SubviewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
)
"""Ops whose result aliases (part of) their first operand."""

_NON_REPETITIVE = (scf.IfOp, scf.IndexSwitchOp, scf.ExecuteRegionOp)
"""Region ops whose regions run at most once per execution of the op."""


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


def _is_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType | UnrankedTensorType)


def _has_tensor(values: Sequence[SSAValue] | Sequence[Attribute]) -> bool:
    return any(_is_tensor(v if isinstance(v, Attribute) else v.type) for v in values)


def _error(op: Operation, reason: str) -> LoweringError:
    return LoweringError(f"cannot bufferize '{op.name}': {reason}", op)


def buffer_type(t: Attribute, op: Operation) -> MemRefType:
    """The identity-layout memref type holding a tensor of type `t`."""
    if not isinstance(t, TensorType):
        raise _error(op, f"unranked tensor type {t} is not supported")
    if any(d < 0 for d in t.get_shape()):
        raise _error(op, f"dynamic shape {t} is not supported")
    return MemRefType(t.get_element_type(), t.get_shape())


def _erase(op: Operation) -> None:
    """Detach `op` from its block and erase it (its results must be unused)."""
    if op.parent is not None:
        op.detach()
    op.erase()


def _is_identity(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr)


def _read_before_written(value: SSAValue, writer: Operation) -> bool:
    """Whether `writer` uses `value` once and every other use is a `tensor.extract`
    that runs before it (in an op earlier in the writer's block): the loads they
    become read the old contents before `writer` overwrites them, as in a loop body
    `tensor.extract %t` ... `tensor.insert ... into %t` (read-modify-write)."""
    block = writer.parent_block()
    if block is None:
        return False
    writer_uses = 0
    for use in value.uses:
        user = use.operation
        if user is writer:
            writer_uses += 1
            continue
        if not isinstance(user, tensor.ExtractOp):
            return False
        ancestor = block.find_ancestor_op_in_block(user)
        if ancestor is None or ancestor is writer or not ancestor.is_before_in_block(writer):
            return False
    return writer_uses == 1


def _root(buffer: SSAValue) -> SSAValue:
    """The buffer a view is (transitively) taken of."""
    while isinstance(buffer.owner, _VIEW_OPS):
        buffer = buffer.owner.operands[0]
    return buffer


def _aliases(buffer: SSAValue) -> Iterator[SSAValue]:
    """`buffer` and every view taken (transitively) of it."""
    stack = [buffer]
    while stack:
        value = stack.pop()
        yield value
        for use in value.uses:
            if isinstance(use.operation, _VIEW_OPS) and use.index == 0:
                stack.extend(use.operation.results)


def _subview_type(
    source: MemRefType,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    result_shape: Sequence[int],
    op: Operation,
) -> MemRefType:
    """The strided result type of a subview of `source` (`DYNAMIC_INDEX` marks a
    dynamic offset), dropping the unit dimensions `result_shape` does not have."""
    maybe_strides = source.get_strides()
    if maybe_strides is None or any(s is None for s in maybe_strides):
        raise _error(op, f"the source buffer {source} has no static strides")
    source_strides = [int(s) for s in maybe_strides if s is not None]
    offset = source.get_offset()
    for o, s in zip(offsets, source_strides, strict=True):
        if o == 0 or offset is None:
            continue
        offset = None if o == DYNAMIC_INDEX else offset + o * s
    view_strides = [s * k for s, k in zip(source_strides, strides, strict=True)]
    kept: list[int] = []
    position = 0
    for size, stride in zip(sizes, view_strides, strict=True):
        if position < len(result_shape) and result_shape[position] == size:
            kept.append(stride)
            position += 1
        elif size != 1:
            raise _error(op, f"result shape {list(result_shape)} does not match sizes {list(sizes)}")
    if position != len(result_shape):
        raise _error(op, f"result shape {list(result_shape)} does not match sizes {list(sizes)}")
    return MemRefType(source.get_element_type(), result_shape, StridedLayoutAttr(kept, offset))


# ---------------------------------------------------------------------------
# Module-level state: constant globals
# ---------------------------------------------------------------------------


@dataclass
class _Globals:
    """The private constant globals holding dense tensor constants."""

    module: ModuleOp
    by_value: dict[tuple[Attribute, Attribute], str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    last: Operation | None = None
    counter: int = 0

    def __post_init__(self) -> None:
        for op in self.module.body.block.ops:
            name = op.properties.get("sym_name")
            if isinstance(name, StringAttr):
                self.taken.add(name.data)

    def get(self, value: DenseIntOrFPElementsAttr, t: MemRefType) -> str:
        key = (t, value)
        if key in self.by_value:
            return self.by_value[key]
        while (name := f"__constant_{self.counter}") in self.taken:
            self.counter += 1
        self.taken.add(name)
        glob = memref.GlobalOp.get(
            StringAttr(name),
            t,
            value,
            StringAttr("private"),
            UnitAttr(),
            ALIGNMENT,
        )
        block = self.module.body.block
        if self.last is None:
            if block.first_op is None:
                block.add_op(glob)
            else:
                block.insert_op_before(glob, block.first_op)
        else:
            block.insert_op_after(glob, self.last)
        self.last = glob
        self.by_value[key] = name
        return name


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


def _converted_signature(
    ftype: FunctionType, op: Operation
) -> tuple[list[Attribute], list[Attribute], list[MemRefType]]:
    """(inputs, results, out-parameter types) of the bufferized function type."""
    inputs = [buffer_type(t, op) if _is_tensor(t) else t for t in ftype.inputs]
    outs = [buffer_type(t, op) for t in ftype.outputs if _is_tensor(t)]
    results = [t for t in ftype.outputs if not _is_tensor(t)]
    return [*inputs, *outs], results, outs


def _convert_declaration(f: func.FuncOp) -> None:
    inputs, results, outs = _converted_signature(f.function_type, f)
    _set_signature(f, inputs, results, len(outs))


def _set_signature(f: func.FuncOp, inputs: list[Attribute], results: list[Attribute], n_outs: int) -> None:
    """The bufferized signature. Buffers made from tensors are `llvm.noalias`: the
    callee only reads its input buffers and writes its out-parameters, which are
    fresh allocations of the caller, so no buffer it writes is reachable another way."""
    old_inputs = f.function_type.inputs.data
    old_outputs = f.function_type.outputs.data
    f.function_type = FunctionType.from_lists(inputs, results)
    old_attrs = list(f.arg_attrs.data) if f.arg_attrs is not None else [DictionaryAttr({}) for _ in old_inputs]
    from_tensor = [_is_tensor(t) for t in old_inputs] + [True] * n_outs
    attrs: list[DictionaryAttr] = []
    for i, buffer in enumerate(from_tensor):
        entries = dict(old_attrs[i].data) if i < len(old_attrs) else {}
        if buffer:
            entries["llvm.noalias"] = UnitAttr()
        attrs.append(DictionaryAttr(entries))
    f.arg_attrs = ArrayAttr(attrs) if any(a.data for a in attrs) else f.arg_attrs
    if f.res_attrs is not None and n_outs:
        kept = [a for a, t in zip(f.res_attrs.data, old_outputs, strict=True) if not _is_tensor(t)]
        f.res_attrs = ArrayAttr(kept) if kept else None


def _check_supported(f: func.FuncOp) -> None:
    """Fail on an op this pass does not know that touches tensors, before any change."""
    for op in f.body.walk():
        if op is f or isinstance(op, _HANDLED) or op.name.startswith("linalg."):
            continue
        tensor_args = any(_has_tensor(b.args) for r in op.regions for b in r.blocks)
        if _has_tensor(op.operands) or _has_tensor(op.results) or tensor_args:
            raise _error(op, "unsupported op with tensor operands, results or region arguments")


class _FunctionBufferizer:
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
        for arg in list(entry.args):
            if _is_tensor(arg.type):
                new = entry.insert_arg(buffer_type(arg.type, f), arg.index)
                new.name_hint = arg.name_hint
                self.buffers[arg] = new
                self.erase_args.append(arg)
        for t in outs:
            self.out_params.append(entry.insert_arg(t, len(entry.args)))
        for block in f.body.blocks:
            self.process_block(block)
        for op in reversed(self.erase):
            _erase(op)
        for arg in self.erase_args:
            arg.block.erase_arg(arg)
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
            root = _root(value)
            if root in overwritten or root is _root(target):
                t = value.type
                assert isinstance(t, MemRefType)
                temp = self.alloc(MemRefType(t.get_element_type(), t.get_shape()), before)
                self.copy(value, temp, before)
                value = temp
            sources.append(value)
            overwritten.add(_root(target))
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

    # -- tensor ops --------------------------------------------------------

    def empty(self, op: tensor.EmptyOp) -> None:
        self.set_buffer(op.tensor, self.alloc(buffer_type(op.tensor.type, op), op), owned=True)
        self.erase.append(op)

    def constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise _error(op, f"only dense tensor constants are supported, got {value}")
        t = buffer_type(op.result.type, op)
        get = memref.GetGlobalOp(SymbolRefAttr(self.globals.get(value, t)), t)
        self.insert([get], op)
        self.set_buffer(op.result, get.memref, owned=False)
        self.erase.append(op)

    def extract(self, op: tensor.ExtractOp) -> None:
        load = memref.LoadOp.get(self.buf(op.tensor), op.indices)
        self.insert([load], op)
        op.result.replace_all_uses_with(load.res)
        self.erase.append(op)

    def insert_op(self, op: tensor.InsertOp) -> None:
        dest = self.destination(op.dest, op, reads=True)
        self.insert([memref.StoreOp.get(op.scalar, dest, op.indices)], op)
        self.set_buffer(op.result, dest, owned=True)
        self.erase.append(op)

    def from_elements(self, op: tensor.FromElementsOp) -> None:
        t = buffer_type(op.result.type, op)
        dest = self.alloc(t, op)
        shape = t.get_shape()
        strides = MemRefType.strides_for_shape(shape)
        constants: dict[int, SSAValue] = {}
        for flat, element in enumerate(op.elements):
            indices: list[SSAValue] = []
            for stride, size in zip(strides, shape, strict=True):
                i = (flat // stride) % size
                if i not in constants:
                    constants[i] = self.index(i, op)
                indices.append(constants[i])
            self.insert([memref.StoreOp.get(element, dest, indices)], op)
        self.set_buffer(op.result, dest, owned=True)
        self.erase.append(op)

    def _slice_params(self, op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> tuple[list[int], list[int], list[int]]:
        offsets = list(op.static_offsets.get_values())
        sizes = list(op.static_sizes.get_values())
        strides = list(op.static_strides.get_values())
        if op.sizes or DYNAMIC_INDEX in sizes:
            raise _error(op, "dynamic slice sizes are not supported")
        if op.strides or DYNAMIC_INDEX in strides or any(s < 1 for s in strides):
            raise _error(op, "slice strides must be static and positive")
        return offsets, sizes, strides

    def _subview(
        self,
        op: tensor.ExtractSliceOp | tensor.InsertSliceOp,
        source: SSAValue,
        result_shape: Sequence[int],
    ) -> SSAValue:
        offsets, sizes, strides = self._slice_params(op)
        source_type = source.type
        assert isinstance(source_type, MemRefType)
        result_type = _subview_type(source_type, offsets, sizes, strides, result_shape, op)
        view = memref.SubviewOp(source, op.offsets, [], [], offsets, sizes, strides, result_type)
        self.insert([view], op)
        return view.result

    def extract_slice(self, op: tensor.ExtractSliceOp) -> None:
        t = buffer_type(op.result.type, op)
        view = self._subview(op, self.buf(op.source), t.get_shape())
        self.set_buffer(op.result, view, owned=False)
        self.erase.append(op)

    def insert_slice(self, op: tensor.InsertSliceOp) -> None:
        source_type = buffer_type(op.source.type, op)
        dest_type = buffer_type(op.dest.type, op)
        offsets, sizes, strides = self._slice_params(op)
        whole = not op.offsets and all(o == 0 for o in offsets) and list(sizes) == list(dest_type.get_shape())
        whole = whole and all(s == 1 for s in strides)
        source = self.buf(op.source)
        dest = self.destination(op.dest, op, reads=not whole)
        view = self._subview(op, dest, source_type.get_shape())
        self.copy(source, view, op)
        self.set_buffer(op.result, dest, owned=True)
        self.erase.append(op)

    def reshape(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp) -> None:
        result_type = buffer_type(op.result.type, op)
        source = self.contiguous(self.buf(op.src), op)
        if isinstance(op, tensor.CollapseShapeOp):
            view = memref.CollapseShapeOp.create(
                operands=[source], result_types=[result_type], properties={"reassociation": op.reassociation}
            )
        else:
            if op.dynamic_output_shape:
                raise _error(op, "dynamic output shapes are not supported")
            view = memref.ExpandShapeOp.create(
                operands=[source],
                result_types=[result_type],
                properties={
                    "reassociation": op.reassociation,
                    "static_output_shape": DenseArrayBase.from_list(i64, result_type.get_shape()),
                },
            )
        self.insert([view], op)
        self.set_buffer(op.result, view.results[0], owned=False)
        self.erase.append(op)

    def cast(self, op: tensor.CastOp) -> None:
        """Static → static: the same type (the verifier matches the sizes), so
        the same buffer (an alias: not owned)."""
        if buffer_type(op.source.type, op) != buffer_type(op.dest.type, op):
            raise _error(op, f"cannot cast {op.source.type} to {op.dest.type}")
        self.set_buffer(op.dest, self.buf(op.source), owned=False)
        self.erase.append(op)

    # -- linalg ------------------------------------------------------------

    def linalg(self, op: Operation) -> None:
        """Any destination-style linalg op: its tensor results are the updated
        values of its trailing (init) operands."""
        n_results = len(op.results)
        n_inputs = len(op.operands) - n_results
        if not n_results or not all(_is_tensor(r.type) for r in op.results) or n_inputs < 0:
            raise _error(op, "expected tensor results, one per trailing init operand")
        inits = op.operands[n_inputs:]
        for init, result in zip(inits, op.results, strict=True):
            if init.type != result.type:
                raise _error(op, f"init type {init.type} differs from result type {result.type}")
        body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
        operands: list[SSAValue] = []
        for index, operand in enumerate(op.operands):
            if not _is_tensor(operand.type):
                operands.append(operand)
            elif index < n_inputs:
                operands.append(self.buf(operand))
            else:
                reads = body is None or len(body.args) != len(op.operands) or body.args[index].first_use is not None
                operands.append(self.destination(operand, op, reads=reads))
        new = type(op).create(
            operands=operands,
            result_types=[],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for result, buffer in zip(op.results, operands[n_inputs:], strict=True):
            self.set_buffer(result, buffer, owned=True)
        self.erase.append(op)
        self.process_regions(new, None)

    # -- control flow ------------------------------------------------------

    def terminator(self, op: Operation) -> None:
        """`scf.yield`/`scf.condition`: handled by their parent's handler."""
        block = op.parent_block()
        handler = self.terminators.get(block) if block is not None else None
        if handler is not None:
            handler(op)
        elif _has_tensor(op.operands):
            parent = op.parent_op()
            raise _error(parent or op, "unsupported op with tensor results")

    def _branching(self, op: scf.IfOp | scf.IndexSwitchOp) -> None:
        """`scf.if`/`scf.index_switch`: branches yield into result buffers."""
        if not _has_tensor(op.results):
            self.process_regions(op, None)
            return
        targets = [self.alloc(buffer_type(r.type, op), op) if _is_tensor(r.type) else None for r in op.results]
        new = type(op).create(
            operands=list(op.operands),
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for result, target in zip(op.results, targets, strict=True):
            if target is not None:
                self.set_buffer(result, target, owned=True)
        self.replace_results(op, new)
        self.erase.append(op)
        self.process_regions(new, functools.partial(self._yield_results, targets))

    def _yield_results(self, targets: list[SSAValue | None], op: Operation) -> None:
        block = op.parent_block()
        assert block is not None
        values = [self.buf(v) if t is not None else v for v, t in zip(op.operands, targets, strict=True)]
        for value, target in zip(values, targets, strict=True):
            if target is None:
                continue
            alloc = self.local_alloc(value, block)
            if alloc is not None and value.type == target.type and values.count(value) == 1:
                self.rename(alloc, target)
            else:
                self.copy(value, target, op)
        self._replace_terminator(op, [v for v, t in zip(op.operands, targets, strict=True) if t is None])

    def _replace_terminator(self, op: Operation, operands: Sequence[SSAValue]) -> None:
        new = type(op).create(operands=list(operands), attributes=dict(op.attributes))
        self.insert([new], op)
        self.erase.append(op)

    def for_op(self, op: scf.ForOp) -> None:
        if not _has_tensor(op.results):
            self.process_regions(op, None)
            return
        targets = [self.carried_buffer(init, op) if _is_tensor(init.type) else None for init in op.iter_args]
        new = scf.ForOp.create(
            operands=[op.lb, op.ub, op.step, *(v for v in op.iter_args if not _is_tensor(v.type))],
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        body = new.body.block
        for arg, result, target in zip(body.args[1:], op.results, targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.set_buffer(result, target, owned=True)
                self.erase_args.append(arg)
        self.replace_results(op, new)
        self.erase.append(op)
        self.process_regions(new, functools.partial(self._yield_carried, targets))

    def _yield_carried(self, targets: list[SSAValue | None], op: Operation) -> None:
        """A loop's `scf.yield` (or `scf.condition`, whose first operand is the
        condition): copy the tensors into the carried buffers."""
        first = 1 if isinstance(op, scf.ConditionOp) else 0
        operands = op.operands[first:]
        pairs = [(self.buf(v), t) for v, t in zip(operands, targets, strict=True) if t is not None]
        self.copy_carried([v for v, _ in pairs], [t for _, t in pairs], op)
        kept = [v for v, t in zip(operands, targets, strict=True) if t is None]
        self._replace_terminator(op, [*op.operands[:first], *kept])

    def while_op(self, op: scf.WhileOp) -> None:
        before = op.before_region.blocks[0]
        after = op.after_region.blocks[0]
        if not (_has_tensor(op.arguments) or _has_tensor(op.results)):
            self.process_regions(op, None)
            return
        condition = before.last_op
        if not isinstance(condition, scf.ConditionOp):
            raise _error(op, "expected the before region to end with scf.condition")
        before_targets = [self.carried_buffer(v, op) if _is_tensor(v.type) else None for v in op.arguments]
        after_targets: list[SSAValue | None] = []
        for index, (forwarded, result) in enumerate(zip(condition.args, op.results, strict=True)):
            if not _is_tensor(result.type):
                after_targets.append(None)
            elif (
                index < len(before.args)
                and forwarded is before.args[index]
                and (same := before_targets[index]) is not None
                and same.type == buffer_type(result.type, op)
            ):
                after_targets.append(same)
            else:
                after_targets.append(self.alloc(buffer_type(result.type, op), op))
        new = scf.WhileOp.create(
            operands=[v for v in op.arguments if not _is_tensor(v.type)],
            result_types=[r.type for r in op.results if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=self.move_regions(op),
        )
        self.insert([new], op)
        for arg, target in zip(before.args, before_targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.erase_args.append(arg)
        for arg, result, target in zip(after.args, op.results, after_targets, strict=True):
            if target is not None:
                self.set_buffer(arg, target, owned=True)
                self.set_buffer(result, target, owned=True)
                self.erase_args.append(arg)
        self.replace_results(op, new)
        self.erase.append(op)
        self.terminators[before] = functools.partial(self._yield_carried, after_targets)
        self.process_block(before)
        self.terminators[after] = functools.partial(self._yield_carried, before_targets)
        self.process_block(after)

    # -- functions ---------------------------------------------------------

    def call(self, op: func.CallOp) -> None:
        if not (_has_tensor(op.arguments) or _has_tensor(op.res)):
            return
        arguments = [self.contiguous(self.buf(a), op) if _is_tensor(a.type) else a for a in op.arguments]
        outs: list[SSAValue] = []
        for result in op.res:
            if _is_tensor(result.type):
                out = self.alloc(buffer_type(result.type, op), op)
                self.set_buffer(result, out, owned=True)
                outs.append(out)
        new = func.CallOp.create(
            operands=[*arguments, *outs],
            result_types=[r.type for r in op.res if not _is_tensor(r.type)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        self.insert([new], op)
        self.replace_results(op, new)
        self.erase.append(op)

    def return_op(self, op: func.ReturnOp) -> None:
        if not _has_tensor(op.arguments):
            return
        entry = self.f.body.blocks[0]
        returned = [self.buf(v) for v in op.arguments if _is_tensor(v.type)]
        for value, out in zip(returned, self.out_params, strict=True):
            alloc = self.local_alloc(value, entry) if op.parent_block() is entry else None
            if alloc is not None and value.type == out.type and returned.count(value) == 1:
                self.rename(alloc, out)
            else:
                self.copy(value, out, op)
        self._replace_terminator(op, [v for v in op.arguments if not _is_tensor(v.type)])

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


__all__ = ["ALIGNMENT", "BufferizePass", "buffer_type", "bufferize_module"]
