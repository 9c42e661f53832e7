"""Slicing ops: static and dynamic slices, dynamic update, concatenation, padding and
reversal (spec: Slice, DynamicSlice, DynamicUpdateSlice, Concatenate, Pad,
"Rev (reverse)").

Each op follows StableHLO's property names (`start_indices`, `slice_sizes`,
`edge_padding_low`, ...) in the generic form and StableHLO's pretty syntax
(`xla.slice %x [0:3:2, 2:6]`, `xla.pad %x, %v, low = [..], high = [..], interior = [..]`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import (
    XlaOp,
    check_dims_in_range,
    check_same_element_type,
    check_tensor,
)
from xla_dialect.syntax import (
    build,
    i64_array,
    ints_of,
    parse_attr_dict,
    parse_int_list,
    parse_operand_list,
    parse_same_or_function_type,
    print_attr_dict,
    print_attrs_and_function_type,
    print_same_or_function_type,
    resolve,
)
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_dynamic,
    is_integer,
    is_tensor,
    rank_of,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------


def check_length(name: str, values: Sequence[int], rank: int, what: str = "operand rank") -> None:
    """A per-dimension list has one entry per dimension."""
    require(
        len(values) == rank,
        f"{name} {fmt_list(values)} has {len(values)} entries but the {what} is {rank}",
    )


def check_scalar_start_indices(start_indices: Sequence[SSAValue], rank: int) -> None:
    """One scalar integer start index per operand dimension, all of one type."""
    require(
        len(start_indices) == rank,
        f"expected {rank} start indices (one per operand dimension) but got {len(start_indices)}",
    )
    for i, index in enumerate(start_indices):
        t = index.type
        require(
            is_tensor(t) and rank_of(t) == 0 and is_integer(element_type_of(t)),
            f"start index #{i} must be a 0-d tensor of integers, got {format_type(t)}",
        )
    if start_indices:
        first = start_indices[0].type
        for i, index in enumerate(start_indices[1:], 1):
            require(
                index.type == first,
                f"start index #{i} type {format_type(index.type)} differs from start index #0 "
                f"type {format_type(first)}",
            )


def _int_prop(value: int) -> IntegerAttr[IntegerType]:
    return IntegerAttr(value, i64)


def _parse_keyword_list(parser: Parser, keyword: str) -> list[int]:
    parser.parse_punctuation(",")
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parse_int_list(parser)


# ---------------------------------------------------------------------------
# Slice
# ---------------------------------------------------------------------------


@irdl_op_definition
class SliceOp(XlaOp):
    """`xla.slice %x [0:3:2, 2:6] : (tensor<3x6xi64>) -> tensor<2x4xi64>` (spec: Slice):
    the strided box `[start, limit)` of each dimension."""

    name = "xla.slice"
    SPEC_SECTION: ClassVar[str] = "Slice"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    start_indices = prop_def(DenseArrayBase)
    limit_indices = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        start_indices: Sequence[int],
        limit_indices: Sequence[int],
        strides: Sequence[int] | None = None,
    ):
        if strides is None:
            strides = [1] * len(start_indices)
        super().__init__(
            operands=[operand],
            result_types=[self.infer_result_type(operand.type, start_indices, limit_indices, strides)],
            properties={
                "start_indices": i64_array(start_indices),
                "limit_indices": i64_array(limit_indices),
                "strides": i64_array(strides),
            },
        )

    @staticmethod
    def infer_result_type(
        operand: Attribute,
        start_indices: Sequence[int],
        limit_indices: Sequence[int],
        strides: Sequence[int],
    ) -> Attribute:
        check_tensor("operand", operand)
        shape = shape_of(operand)
        rank = len(shape)
        check_length("start_indices", start_indices, rank)
        check_length("limit_indices", limit_indices, rank)
        check_length("strides", strides, rank)
        out: list[int] = []
        for d, (start, limit, stride, size) in enumerate(
            zip(start_indices, limit_indices, strides, shape)
        ):
            require(start >= 0, f"start_indices {fmt_list(start_indices)} has {start} < 0 in dimension {d}")
            require(
                limit >= start,
                f"limit_indices {fmt_list(limit_indices)} has {limit} in dimension {d}, less "
                f"than the start index {start}",
            )
            require(
                is_dynamic(size) or limit <= size,
                f"limit_indices {fmt_list(limit_indices)} has {limit} in dimension {d}, beyond "
                f"the operand size {size}",
            )
            require(stride >= 1, f"strides {fmt_list(strides)} has {stride} in dimension {d}; strides must be >= 1")
            out.append((limit - start + stride - 1) // stride)
        return tensor(out, element_type_of(operand))

    def verify_(self) -> None:
        self.check_result_types(
            [
                self.infer_result_type(
                    self.operand.type,
                    ints_of(self.start_indices),
                    ints_of(self.limit_indices),
                    ints_of(self.strides),
                )
            ]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        starts: list[int] = []
        limits: list[int] = []
        strides: list[int] = []

        def parse_range() -> None:
            starts.append(parser.parse_integer())
            parser.parse_punctuation(":")
            limits.append(parser.parse_integer())
            if parser.parse_optional_punctuation(":") is not None:
                strides.append(parser.parse_integer())
            else:
                strides.append(1)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)
        attrs = parse_attr_dict(parser)
        attrs["start_indices"] = i64_array(starts)
        attrs["limit_indices"] = i64_array(limits)
        attrs["strides"] = i64_array(strides)
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        ranges: list[str] = []
        for start, limit, stride in zip(
            ints_of(self.start_indices), ints_of(self.limit_indices), ints_of(self.strides)
        ):
            ranges.append(f"{start}:{limit}" if stride == 1 else f"{start}:{limit}:{stride}")
        printer.print_string(" [" + ", ".join(ranges) + "]")
        print_attrs_and_function_type(printer, self, ["start_indices", "limit_indices", "strides"])


# ---------------------------------------------------------------------------
# DynamicSlice / DynamicUpdateSlice
# ---------------------------------------------------------------------------


@irdl_op_definition
class DynamicSliceOp(XlaOp):
    """`xla.dynamic_slice %x, %i, %j, sizes = [2, 2] : (...) -> ...` (spec: DynamicSlice):
    a `slice_sizes` box at run-time start indices, clamped to stay in bounds."""

    name = "xla.dynamic_slice"
    SPEC_SECTION: ClassVar[str] = "DynamicSlice"
    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self, operand: SSAValue, start_indices: Sequence[SSAValue], slice_sizes: Sequence[int]
    ):
        super().__init__(
            operands=[operand, list(start_indices)],
            result_types=[self.infer_result_type(operand.type, start_indices, slice_sizes)],
            properties={"slice_sizes": i64_array(slice_sizes)},
        )

    @staticmethod
    def infer_result_type(
        operand: Attribute, start_indices: Sequence[SSAValue], slice_sizes: Sequence[int]
    ) -> Attribute:
        check_tensor("operand", operand)
        shape = shape_of(operand)
        check_scalar_start_indices(start_indices, len(shape))
        check_length("slice_sizes", slice_sizes, len(shape))
        for d, (size, dim) in enumerate(zip(slice_sizes, shape)):
            require(size >= 0, f"slice_sizes {fmt_list(slice_sizes)} has {size} < 0 in dimension {d}")
            require(
                is_dynamic(dim) or size <= dim,
                f"slice_sizes {fmt_list(slice_sizes)} has {size} in dimension {d}, beyond the "
                f"operand size {dim}",
            )
        return tensor(slice_sizes, element_type_of(operand))

    def verify_(self) -> None:
        self.check_result_types(
            [
                self.infer_result_type(
                    self.operand.type, list(self.start_indices), ints_of(self.slice_sizes)
                )
            ]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        sizes = _parse_keyword_list(parser, "sizes")
        attrs = parse_attr_dict(parser)
        attrs["slice_sizes"] = i64_array(sizes)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        values = resolve(parser, operands, ins, pos)
        if not values:
            parser.raise_error("expected an operand", pos, parser.pos)
        return build(cls, [values[0], values[1:]], outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(", sizes = " + fmt_list(ints_of(self.slice_sizes)))
        print_attrs_and_function_type(printer, self, ["slice_sizes"])


@irdl_op_definition
class DynamicUpdateSliceOp(XlaOp):
    """`xla.dynamic_update_slice %x, %upd, %i, %j : (...) -> ...` (spec: DynamicUpdateSlice):
    `operand` with `update` written at run-time start indices, clamped to stay in bounds."""

    name = "xla.dynamic_update_slice"
    SPEC_SECTION: ClassVar[str] = "DynamicUpdateSlice"
    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, update: SSAValue, start_indices: Sequence[SSAValue]):
        super().__init__(
            operands=[operand, update, list(start_indices)],
            result_types=[self.infer_result_type(operand.type, update.type, start_indices)],
        )

    @staticmethod
    def infer_result_type(
        operand: Attribute, update: Attribute, start_indices: Sequence[SSAValue]
    ) -> Attribute:
        check_tensor("operand", operand)
        check_tensor("update", update)
        check_same_element_type(["operand", "update"], [operand, update])
        shape, upd = shape_of(operand), shape_of(update)
        require(
            len(upd) == len(shape),
            f"update rank {len(upd)} differs from operand rank {len(shape)}",
        )
        for d, (u, s) in enumerate(zip(upd, shape)):
            require(
                is_dynamic(u) or is_dynamic(s) or u <= s,
                f"update shape {fmt_list(upd)} exceeds operand shape {fmt_list(shape)} in "
                f"dimension {d}",
            )
        check_scalar_start_indices(start_indices, len(shape))
        return operand

    def verify_(self) -> None:
        self.check_result_types(
            [self.infer_result_type(self.operand.type, self.update.type, list(self.start_indices))]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        values = resolve(parser, operands, ins, pos)
        if len(values) < 2:
            parser.raise_error("expected an operand and an update", pos, parser.pos)
        return build(cls, [values[0], values[1], values[2:]], outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attrs_and_function_type(printer, self)


# ---------------------------------------------------------------------------
# Concatenate
# ---------------------------------------------------------------------------


@irdl_op_definition
class ConcatenateOp(XlaOp):
    """`xla.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>`
    (spec: Concatenate): the operands in order along `dimension`."""

    name = "xla.concatenate"
    SPEC_SECTION: ClassVar[str] = "Concatenate"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue], dimension: int):
        super().__init__(
            operands=[list(inputs)],
            result_types=[self.infer_result_type([v.type for v in inputs], dimension)],
            properties={"dimension": _int_prop(dimension)},
        )

    @staticmethod
    def infer_result_type(inputs: Sequence[Attribute], dimension: int) -> Attribute:
        require(len(inputs) >= 1, "concatenate needs at least one operand")
        names = [f"operand #{i}" for i in range(len(inputs))]
        for name, t in zip(names, inputs):
            check_tensor(name, t)
        check_same_element_type(names, inputs)
        first = shape_of(inputs[0])
        rank = len(first)
        require(rank >= 1, "operands must have rank >= 1 (a scalar has no dimension to concatenate)")
        for name, t in zip(names[1:], inputs[1:]):
            require(
                rank_of(t) == rank,
                f"{name} rank {rank_of(t)} differs from operand #0 rank {rank}",
            )
        require(
            0 <= dimension < rank,
            f"dimension {dimension} is out of range [0, {rank})",
        )
        out = list(first)
        for name, t in zip(names[1:], inputs[1:]):
            shape = shape_of(t)
            for d in range(rank):
                if d == dimension:
                    continue
                a, b = first[d], shape[d]
                require(
                    a == b or is_dynamic(a) or is_dynamic(b),
                    f"{name} shape {fmt_list(shape)} differs from operand #0 shape "
                    f"{fmt_list(first)} in dimension {d}, which is not the concatenated dimension",
                )
                if is_dynamic(out[d]):
                    out[d] = b
            if is_dynamic(out[dimension]) or is_dynamic(shape[dimension]):
                out[dimension] = DYNAMIC_INDEX
            else:
                out[dimension] += shape[dimension]
        return tensor(out, element_type_of(inputs[0]))

    def verify_(self) -> None:
        self.check_result_types(
            [self.infer_result_type(list(self.operand_types), self.dimension.value.data)]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        attrs = parse_attr_dict(parser)
        attrs["dimension"] = _int_prop(dim)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        return build(cls, [resolve(parser, operands, ins, pos)], outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attrs_and_function_type(printer, self, ["dimension"])


# ---------------------------------------------------------------------------
# Pad
# ---------------------------------------------------------------------------


@irdl_op_definition
class PadOp(XlaOp):
    """`xla.pad %x, %v, low = [1], high = [-1], interior = [2] : (...) -> ...` (spec: Pad):
    edge padding (negative removes elements) and interior padding with a scalar value."""

    name = "xla.pad"
    SPEC_SECTION: ClassVar[str] = "Pad"
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    result = result_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase)
    edge_padding_high = prop_def(DenseArrayBase)
    interior_padding = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        padding_value: SSAValue,
        edge_padding_low: Sequence[int],
        edge_padding_high: Sequence[int],
        interior_padding: Sequence[int] | None = None,
    ):
        if interior_padding is None:
            interior_padding = [0] * len(edge_padding_low)
        super().__init__(
            operands=[operand, padding_value],
            result_types=[
                self.infer_result_type(
                    operand.type, padding_value.type, edge_padding_low, edge_padding_high, interior_padding
                )
            ],
            properties={
                "edge_padding_low": i64_array(edge_padding_low),
                "edge_padding_high": i64_array(edge_padding_high),
                "interior_padding": i64_array(interior_padding),
            },
        )

    @staticmethod
    def infer_result_type(
        operand: Attribute,
        padding_value: Attribute,
        low: Sequence[int],
        high: Sequence[int],
        interior: Sequence[int],
    ) -> Attribute:
        check_tensor("operand", operand)
        check_tensor("padding_value", padding_value)
        require(
            rank_of(padding_value) == 0,
            f"padding_value must be a 0-d tensor, got {format_type(padding_value)}",
        )
        check_same_element_type(["operand", "padding_value"], [operand, padding_value])
        shape = shape_of(operand)
        check_length("edge_padding_low", low, len(shape))
        check_length("edge_padding_high", high, len(shape))
        check_length("interior_padding", interior, len(shape))
        out: list[int] = []
        for d, (lo, hi, inner, size) in enumerate(zip(low, high, interior, shape)):
            require(
                inner >= 0,
                f"interior_padding {fmt_list(interior)} has {inner} < 0 in dimension {d}",
            )
            if is_dynamic(size):
                out.append(DYNAMIC_INDEX)
                continue
            padded = lo + hi + size + max(size - 1, 0) * inner
            require(
                padded >= 0,
                f"padding removes more than the operand has in dimension {d}: "
                f"{lo} + {hi} + {size} + {max(size - 1, 0)} * {inner} = {padded} < 0",
            )
            out.append(padded)
        return tensor(out, element_type_of(operand))

    def verify_(self) -> None:
        self.check_result_types(
            [
                self.infer_result_type(
                    self.operand.type,
                    self.padding_value.type,
                    ints_of(self.edge_padding_low),
                    ints_of(self.edge_padding_high),
                    ints_of(self.interior_padding),
                )
            ]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        low = _parse_keyword_list(parser, "low")
        high = _parse_keyword_list(parser, "high")
        interior = _parse_keyword_list(parser, "interior")
        attrs = parse_attr_dict(parser)
        attrs["edge_padding_low"] = i64_array(low)
        attrs["edge_padding_high"] = i64_array(high)
        attrs["interior_padding"] = i64_array(interior)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        return build(cls, resolve(parser, operands, ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(
            f", low = {fmt_list(ints_of(self.edge_padding_low))}"
            f", high = {fmt_list(ints_of(self.edge_padding_high))}"
            f", interior = {fmt_list(ints_of(self.interior_padding))}"
        )
        print_attrs_and_function_type(printer, self, ["edge_padding_low", "edge_padding_high", "interior_padding"])


# ---------------------------------------------------------------------------
# Reverse
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReverseOp(XlaOp):
    """`xla.reverse %x, dims = [0] : tensor<3x2xf32>` (spec: Rev (reverse)): reverses the
    order of elements along each of `dimensions`."""

    name = "xla.reverse"
    SPEC_SECTION: ClassVar[str] = "Rev (reverse)"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, dimensions: Sequence[int]):
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={"dimensions": i64_array(dimensions)},
        )

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_dims_in_range("dimensions", ints_of(self.dimensions), rank_of(self.operand.type))
        self.check_result_types([self.operand.type])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        dims = _parse_keyword_list(parser, "dims")
        attrs = parse_attr_dict(parser)
        attrs["dimensions"] = i64_array(dims)
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", dims = " + fmt_list(ints_of(self.dimensions)))
        print_attr_dict(printer, self, ["dimensions"])
        print_same_or_function_type(printer, self)


OPS: tuple[type[Operation], ...] = (
    SliceOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    ConcatenateOp,
    PadOp,
    ReverseOp,
)
