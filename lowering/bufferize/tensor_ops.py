"""Bufferization of `tensor` ops (see the package docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    MemRefType,
    SymbolRefAttr,
    i64,
)
from xdsl.ir import SSAValue

from lowering.bufferize.analysis import (
    _error,
    _subview_type,
    buffer_type,
)


class TensorOps:
    """How tensor ops become memref ops (a part of `driver._FunctionBufferizer`)."""

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
