"""What bufferization knows of types, aliasing, constant globals and function
signatures (see the package docstring)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from lowering.memref_views import VIEW_OPS
from xla_dialect.diagnostics import LoweringError

ALIGNMENT = 64
"""Alignment in bytes of every buffer and constant global created here."""

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


_BUFFER_TYPES: dict[Attribute, MemRefType] = {}
"""`buffer_type`'s answers (a program has few distinct tensor types; building a
memref type verifies its parameters, which costs more than the look-up)."""


def buffer_type(t: Attribute, op: Operation) -> MemRefType:
    """The identity-layout memref type holding a tensor of type `t`."""
    known = _BUFFER_TYPES.get(t)
    if known is not None:
        return known
    if len(_BUFFER_TYPES) >= 4096:
        _BUFFER_TYPES.clear()
    if not isinstance(t, TensorType):
        raise _error(op, f"unranked tensor type {t} is not supported")
    if any(d < 0 for d in t.get_shape()):
        raise _error(op, f"dynamic shape {t} is not supported")
    _BUFFER_TYPES[t] = result = MemRefType(t.get_element_type(), t.get_shape())
    return result


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


def _aliases(buffer: SSAValue) -> Iterator[SSAValue]:
    """`buffer` and every view taken (transitively) of it."""
    stack = [buffer]
    while stack:
        value = stack.pop()
        yield value
        for use in value.uses:
            if isinstance(use.operation, VIEW_OPS) and use.index == 0:
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
