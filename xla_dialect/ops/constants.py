"""Ops that create arrays from nothing: literal constants and iota.

`xla.constant` holds a `dense<...>` literal whose type is the result type;
`xla.iota` counts 0, 1, 2, ... along one dimension of its (declared) result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure

from xla_dialect.diagnostics import require
from xla_dialect.ops.base import XlaOp, check_element_class, check_tensor
from xla_dialect.syntax import build, parse_attr_dict, print_attr_dict
from xla_dialect.types import format_type, is_dynamic, is_tensor, rank_of, shape_of, tensor


@irdl_op_definition
class ConstantOp(XlaOp):
    """A literal array, `xla.constant dense<[1, 2]> : tensor<2xi64>`, typed by its literal
    (spec: none of its own; the `ConstantLiteral` the sections' examples build on)."""

    name = "xla.constant"
    SPEC_SECTION: ClassVar[str] = "StableHLO"
    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    @staticmethod
    def from_list(
        values: Sequence[int] | Sequence[float], result_type: TensorType[Attribute]
    ) -> ConstantOp:
        """A constant of `result_type` holding `values` (flat, row-major) or one splat value."""
        return ConstantOp(
            DenseIntOrFPElementsAttr.from_list(result_type, list(values))  # pyright: ignore
        )

    def verify_(self) -> None:
        value_type = self.value.type
        if not is_tensor(value_type):
            require(False, f"value must have a tensor type, got {format_type(value_type)}")
        check_tensor("value", value_type)
        if self.output.type != value_type:
            require(
                False,
                f"result type {format_type(self.output.type)} differs from the value's type "
                f"{format_type(value_type)}",
            )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attrs = parse_attr_dict(parser)
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense<...> : tensor<...> literal", pos, parser.pos)
        attrs["value"] = value
        return build(cls, [], [value.type], attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self, ["value"])
        printer.print_string(" ")
        printer.print_attribute(self.value)


@irdl_op_definition
class IotaOp(XlaOp):
    """`xla.iota dim = 0 : tensor<4xi32>`: values 0, 1, ... along `iota_dimension`, built
    on device instead of transferred from the host (spec: Iota)."""

    name = "xla.iota"
    SPEC_SECTION: ClassVar[str] = "Iota"
    iota_dimension = prop_def(IntegerAttr[IntegerType])
    output = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, result_type: Attribute, iota_dimension: int = 0):
        super().__init__(
            properties={"iota_dimension": IntegerAttr(iota_dimension, i64)},
            result_types=[result_type],
        )

    @property
    def dimension(self) -> int:
        return self.iota_dimension.value.data

    def verify_(self) -> None:
        t = self.output.type
        check_tensor("result", t)
        rank = rank_of(t)
        require(rank >= 1, f"result must have rank at least 1, got {format_type(t)}")
        require(
            0 <= self.dimension < rank,
            f"iota_dimension {self.dimension} is out of range [0, {rank}) of the result rank",
        )
        check_element_class("result", t, "numeric")
        require(
            all(not is_dynamic(d) for d in shape_of(t)),
            f"result must have a static shape, got {format_type(t)}",
        )

    @classmethod
    def parse(cls, parser: Parser) -> IotaOp:
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        attrs = parse_attr_dict(parser)
        attrs["iota_dimension"] = IntegerAttr(dim, i64)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        return build(cls, [], [result_type], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim = {self.dimension}")
        print_attr_dict(printer, self, ["iota_dimension"])
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)


def iota(element_type: Attribute, size: int) -> IotaOp:
    """The spec's `Iota(type, size)`: a rank-1 array `[0, 1, ..., size - 1]`."""
    return IotaOp(tensor([size], element_type), 0)


OPS: tuple[type[Operation], ...] = (ConstantOp, IotaOp)
