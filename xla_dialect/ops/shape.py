"""Ops that change an array's shape but not its elements: broadcast, broadcast_in_dim,
reshape, collapse, transpose, and the dynamic-size pair get/set_dimension_size
(spec: Broadcast, BroadcastInDim, Reshape, Collapse, Transpose, GetDimensionSize,
SetDimensionSize).

All print StableHLO's pretty form `xla.op %x, keyword = [...] : (t) -> u`; the
result types the spec determines are inferred by the builders.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import (
    XlaOp,
    check_dims_in_range,
    check_permutation,
    check_same_element_type,
    check_tensor,
)
from xla_dialect.syntax import (
    build,
    i64_array,
    ints_of,
    parse_attr_dict,
    parse_keyword_ints,
    parse_operand_list,
    parse_optional_keyword_ints,
    parse_same_or_function_type,
    print_attrs_and_function_type,
    resolve,
)
from xla_dialect.types import (
    dims_compatible,
    element_type_of,
    format_shape,
    format_type,
    is_dynamic,
    rank_of,
    shape_of,
    tensor,
)


def _product(sizes: Sequence[int]) -> int:
    """The element count of a shape, DYNAMIC_INDEX when any size is dynamic."""
    if any(is_dynamic(d) for d in sizes):
        return DYNAMIC_INDEX
    return prod(sizes)


def _fmt_size(d: int) -> str:
    return "?" if is_dynamic(d) else str(d)


def _parse_keyword_int(parser: Parser, keyword: str) -> int:
    """`, keyword = 3`."""
    parser.parse_punctuation(",")
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parser.parse_integer()


class _UnaryShapeOp(XlaOp):
    """One array operand and one array result of the same element type."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def _check_operand_and_result(self) -> None:
        check_tensor("operand", self.operand.type)
        check_tensor("result", self.result.type)
        check_same_element_type(["operand", "result"], [self.operand.type, self.result.type])


class _KeywordIntsShapeOp(_UnaryShapeOp):
    """`xla.<op> %x, <keyword> = [..] : (tensor<..>) -> tensor<..>`: a shape op whose one
    integer-list property is spelled by a keyword (`dims`, `sizes`, `dimensions`)."""

    INTS_PROPERTY: ClassVar[str] = ""
    INTS_KEYWORD: ClassVar[str] = ""

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        values = parse_keyword_ints(parser, cls.INTS_KEYWORD)
        attrs: dict[str, Attribute] = {cls.INTS_PROPERTY: i64_array(values)}
        attrs.update(parse_attr_dict(parser))
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        values = ints_of(self.properties[self.INTS_PROPERTY])
        printer.print_string(f", {self.INTS_KEYWORD} = {fmt_list(values)}")
        print_attrs_and_function_type(printer, self, [self.INTS_PROPERTY])


class _InferredIntsShapeOp(_KeywordIntsShapeOp):
    """A keyword-list shape op whose result type follows from the operand and the
    list: one builder `Op(operand, values)` and one verifier for all of them."""

    @staticmethod
    def infer_result_type(operand: Attribute, values: Sequence[int]) -> Attribute:
        raise NotImplementedError

    def __init__(self, operand: SSAValue, values: Sequence[int]):
        super().__init__(
            operands=[operand],
            result_types=[self.infer_result_type(operand.type, values)],
            properties={self.INTS_PROPERTY: i64_array(values)},
        )

    def check_values(self, values: Sequence[int]) -> None:
        """Rules on the list that inferring the result type does not check."""

    def verify_(self) -> None:
        self._check_operand_and_result()
        values = ints_of(self.properties[self.INTS_PROPERTY])
        self.check_values(values)
        self.check_result_types([self.infer_result_type(self.operand.type, values)])


# ---------------------------------------------------------------------------
# Broadcast / BroadcastInDim
# ---------------------------------------------------------------------------


@irdl_op_definition
class BroadcastOp(_InferredIntsShapeOp):
    """`xla.broadcast %x, sizes = [2, 3] : (tensor<4xf32>) -> tensor<2x3x4xf32>`: copies the
    operand into new leading dimensions of the given sizes (spec: Broadcast)."""

    name = "xla.broadcast"
    SPEC_SECTION: ClassVar[str] = "Broadcast"
    INTS_PROPERTY: ClassVar[str] = "broadcast_sizes"
    INTS_KEYWORD: ClassVar[str] = "sizes"
    broadcast_sizes = prop_def(DenseArrayBase)

    @staticmethod
    def infer_result_type(operand: Attribute, values: Sequence[int]) -> Attribute:
        return tensor([*values, *shape_of(operand)], element_type_of(operand))

    def check_values(self, values: Sequence[int]) -> None:
        for v in values:
            require(v >= 0, f"broadcast_sizes {fmt_list(values)} has {v}; sizes must be non-negative")


@irdl_op_definition
class BroadcastInDimOp(_KeywordIntsShapeOp):
    """`xla.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>`: operand
    dimension i becomes result dimension `broadcast_dimensions[i]`, size-1 dimensions
    are expanded (spec: BroadcastInDim)."""

    name = "xla.broadcast_in_dim"
    SPEC_SECTION: ClassVar[str] = "BroadcastInDim"
    INTS_PROPERTY: ClassVar[str] = "broadcast_dimensions"
    INTS_KEYWORD: ClassVar[str] = "dims"
    broadcast_dimensions = prop_def(DenseArrayBase)

    def __init__(
        self, operand: SSAValue, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int]
    ):
        """The spec's `BroadcastInDim(operand, out_dim_size, broadcast_dimensions)`."""
        super().__init__(
            operands=[operand],
            result_types=[tensor(out_dim_size, element_type_of(operand.type))],
            properties={"broadcast_dimensions": i64_array(broadcast_dimensions)},
        )

    def verify_(self) -> None:
        self._check_operand_and_result()
        dims = ints_of(self.broadcast_dimensions)
        in_shape, out_shape = shape_of(self.operand.type), shape_of(self.result.type)
        require(
            len(dims) == len(in_shape),
            f"broadcast_dimensions {fmt_list(dims)} must have one entry per operand "
            f"dimension (operand rank {len(in_shape)})",
        )
        require(
            len(out_shape) >= len(in_shape),
            f"result rank {len(out_shape)} is less than operand rank {len(in_shape)}",
        )
        check_dims_in_range("broadcast_dimensions", dims, len(out_shape))
        for i, d in enumerate(dims):
            size, target = in_shape[i], out_shape[d]
            require(
                size == 1 or dims_compatible(size, target),
                f"operand dimension {i} has size {_fmt_size(size)}, which is neither 1 nor "
                f"the size {_fmt_size(target)} of result dimension {d}",
            )


# ---------------------------------------------------------------------------
# Reshape / Collapse / Transpose
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReshapeOp(_UnaryShapeOp):
    """`xla.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>`: the same elements in row-major
    order under a new shape; the optional `dimensions` permutation gives the order in
    which the operand is flattened first (spec: Reshape)."""

    name = "xla.reshape"
    SPEC_SECTION: ClassVar[str] = "Reshape"
    dimensions = opt_prop_def(DenseArrayBase)

    def __init__(
        self,
        operand: SSAValue,
        new_sizes: Sequence[int],
        dimensions: Sequence[int] | None = None,
    ):
        """The spec's `Reshape(operand, new_sizes)` and `Reshape(operand, dimensions,
        new_sizes)` (here with `dimensions` last, as it is optional)."""
        props: dict[str, Attribute] = {}
        if dimensions is not None:
            props["dimensions"] = i64_array(dimensions)
        super().__init__(
            operands=[operand],
            result_types=[tensor(new_sizes, element_type_of(operand.type))],
            properties=props,
        )

    def verify_(self) -> None:
        self._check_operand_and_result()
        in_shape, out_shape = shape_of(self.operand.type), shape_of(self.result.type)
        if self.dimensions is not None:
            check_permutation("dimensions", ints_of(self.dimensions), len(in_shape))
        n_in, n_out = _product(in_shape), _product(out_shape)
        require(
            is_dynamic(n_in) or is_dynamic(n_out) or n_in == n_out,
            f"result shape {format_shape(out_shape)} has {n_out} elements but operand shape "
            f"{format_shape(in_shape)} has {n_in}",
        )

    @classmethod
    def parse(cls, parser: Parser) -> ReshapeOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        attrs: dict[str, Attribute] = {}
        dims = parse_optional_keyword_ints(parser, "dimensions")
        if dims is not None:
            attrs["dimensions"] = i64_array(dims)
        attrs.update(parse_attr_dict(parser))
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        if self.dimensions is not None:
            printer.print_string(f", dimensions = {fmt_list(ints_of(self.dimensions))}")
        print_attrs_and_function_type(printer, self, ["dimensions"])


@irdl_op_definition
class CollapseOp(_InferredIntsShapeOp):
    """`xla.collapse %x, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>`:
    replaces consecutive dimensions by one whose size is their product (spec: Collapse)."""

    name = "xla.collapse"
    SPEC_SECTION: ClassVar[str] = "Collapse"
    INTS_PROPERTY: ClassVar[str] = "dimensions"
    INTS_KEYWORD: ClassVar[str] = "dimensions"
    dimensions = prop_def(DenseArrayBase)

    @staticmethod
    def infer_result_type(operand: Attribute, values: Sequence[int]) -> Attribute:
        shape = shape_of(operand)
        dims = list(values)
        require(len(dims) >= 1, "dimensions must name at least one dimension to collapse")
        check_dims_in_range("dimensions", dims, len(shape))
        require(
            all(b == a + 1 for a, b in itertools.pairwise(dims)),
            f"dimensions {fmt_list(dims)} must be consecutive and in increasing order",
        )
        first, last = dims[0], dims[-1]
        collapsed = _product(shape[first : last + 1])
        return tensor([*shape[:first], collapsed, *shape[last + 1 :]], element_type_of(operand))


@irdl_op_definition
class TransposeOp(_InferredIntsShapeOp):
    """`xla.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>`: result
    dimension i is operand dimension `permutation[i]` (spec: Transpose)."""

    name = "xla.transpose"
    SPEC_SECTION: ClassVar[str] = "Transpose"
    INTS_PROPERTY: ClassVar[str] = "permutation"
    INTS_KEYWORD: ClassVar[str] = "dims"
    permutation = prop_def(DenseArrayBase)

    @staticmethod
    def infer_result_type(operand: Attribute, values: Sequence[int]) -> Attribute:
        shape = shape_of(operand)
        check_permutation("permutation", values, len(shape))
        return tensor([shape[p] for p in values], element_type_of(operand))


# ---------------------------------------------------------------------------
# Dynamic dimension sizes
# ---------------------------------------------------------------------------


def _check_dimension(dimension: int, operand: Attribute) -> None:
    rank = rank_of(operand)
    require(
        0 <= dimension < rank,
        f"dimension {dimension} is out of range [0, {rank}) of the operand rank",
    )


@irdl_op_definition
class GetDimensionSizeOp(XlaOp):
    """`xla.get_dimension_size %x, dim = 0 : (tensor<4xf32>) -> tensor<i32>`: the (runtime)
    size of one dimension as a scalar S32 (spec: GetDimensionSize)."""

    name = "xla.get_dimension_size"
    SPEC_SECTION: ClassVar[str] = "GetDimensionSize"
    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, dimension: int):
        super().__init__(
            operands=[operand],
            result_types=[tensor([], i32)],
            properties={"dimension": IntegerAttr(dimension, i64)},
        )

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        _check_dimension(self.dimension.value.data, self.operand.type)
        self.check_result_types([tensor([], i32)])

    @classmethod
    def parse(cls, parser: Parser) -> GetDimensionSizeOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        attrs: dict[str, Attribute] = {
            "dimension": IntegerAttr(_parse_keyword_int(parser, "dim"), i64)
        }
        attrs.update(parse_attr_dict(parser))
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attrs_and_function_type(printer, self, ["dimension"])


@irdl_op_definition
class SetDimensionSizeOp(XlaOp):
    """`xla.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32>`:
    the operand with one dimension made dynamic, of runtime size `%n` bounded by the
    operand's size (spec: SetDimensionSize)."""

    name = "xla.set_dimension_size"
    SPEC_SECTION: ClassVar[str] = "SetDimensionSize"
    operand = operand_def(TensorType)
    size = operand_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, size: SSAValue, dimension: int):
        super().__init__(
            operands=[operand, size],
            result_types=[self.infer_result_type(operand.type, dimension)],
            properties={"dimension": IntegerAttr(dimension, i64)},
        )

    @staticmethod
    def infer_result_type(operand: Attribute, dimension: int) -> Attribute:
        _check_dimension(dimension, operand)
        shape = list(shape_of(operand))
        shape[dimension] = DYNAMIC_INDEX
        return tensor(shape, element_type_of(operand))

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        require(
            self.size.type == tensor([], i32),
            f"size must be a scalar tensor<i32>, got {format_type(self.size.type)}",
        )
        dimension = self.dimension.value.data
        inferred = self.infer_result_type(self.operand.type, dimension)
        self.check_result_types([inferred])
        out_shape = shape_of(self.result.type)
        require(
            is_dynamic(out_shape[dimension]),
            f"result dimension {dimension} must be dynamic ('?'), got {_fmt_size(out_shape[dimension])}",
        )
        in_shape = shape_of(self.operand.type)
        require(
            out_shape[:dimension] + out_shape[dimension + 1 :]
            == in_shape[:dimension] + in_shape[dimension + 1 :],
            f"result shape {format_shape(out_shape)} must equal operand shape "
            f"{format_shape(in_shape)} outside dimension {dimension}",
        )

    @classmethod
    def parse(cls, parser: Parser) -> SetDimensionSizeOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs: dict[str, Attribute] = {
            "dimension": IntegerAttr(_parse_keyword_int(parser, "dim"), i64)
        }
        attrs.update(parse_attr_dict(parser))
        ins, outs = parse_same_or_function_type(parser, len(operands))
        return build(cls, resolve(parser, operands, ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", ")
        printer.print_operand(self.size)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attrs_and_function_type(printer, self, ["dimension"])


OPS: tuple[type[Operation], ...] = (
    BroadcastOp,
    BroadcastInDimOp,
    ReshapeOp,
    CollapseOp,
    TransposeOp,
    GetDimensionSizeOp,
    SetDimensionSizeOp,
)
