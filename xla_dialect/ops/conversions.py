"""Conversions of the element-wise family (spec: ConvertElementType,
BitcastConvertType, ReducePrecision): `xla.convert`, `xla.bitcast_convert`,
`xla.reduce_precision`. `elementwise.py` re-exports them and lists them in the
family's `OPS`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
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
    check_element_class,
    check_tensor,
)
from xla_dialect.syntax import (
    build,
    parse_attr_dict,
    parse_operand_list,
    parse_same_or_function_type,
    print_attr_dict,
    print_attrs_and_function_type,
    print_same_or_function_type,
    resolve,
)
from xla_dialect.types import (
    bit_width,
    element_type_of,
    format_type,
    shape_of,
)

# ---------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------


class ConversionOp(XlaOp):
    """`xla.<op> %x : (tensor<...xT>) -> tensor<...xU>`: the result type is given."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        return build(cls, resolve(parser, operands, ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attrs_and_function_type(printer, self)


@irdl_op_definition
class ConvertOp(ConversionOp):
    """Element-type conversion, like a C++ `static_cast` (spec: ConvertElementType).
    Complex to real keeps the real part; the shape is unchanged."""

    name = "xla.convert"
    SPEC_SECTION: ClassVar[str] = "ConvertElementType"

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_tensor("result", self.result.type)
        require(
            shape_of(self.operand.type) == shape_of(self.result.type),
            f"result shape {fmt_list(shape_of(self.result.type))} differs from operand shape "
            f"{fmt_list(shape_of(self.operand.type))}",
        )


@irdl_op_definition
class BitcastConvertOp(ConversionOp):
    """Reinterprets bits (spec: BitcastConvertType). With different widths the minor
    dimension grows or shrinks by the ratio of the widths; PRED counts as one bit,
    as in StableHLO (an f64 becomes 64 PREDs, least significant bit first)."""

    name = "xla.bitcast_convert"
    SPEC_SECTION: ClassVar[str] = "BitcastConvertType"

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_tensor("result", self.result.type)
        src, dst = element_type_of(self.operand.type), element_type_of(self.result.type)
        in_shape, out_shape = shape_of(self.operand.type), shape_of(self.result.type)
        wi, wo = bit_width(src), bit_width(dst)
        if wi == wo:
            require(
                in_shape == out_shape,
                f"result shape {fmt_list(out_shape)} must equal operand shape "
                f"{fmt_list(in_shape)} when the element widths are equal",
            )
        elif wi > wo:
            require(
                wi % wo == 0 and out_shape == (*in_shape, wi // wo),
                f"result shape {fmt_list(out_shape)} must be the operand shape "
                f"{fmt_list(in_shape)} with a minor dimension of {wi // wo} "
                f"({format_type(src)} to {format_type(dst)})",
            )
        else:
            require(
                wo % wi == 0
                and len(in_shape) >= 1
                and in_shape[-1] == wo // wi
                and out_shape == in_shape[:-1],
                f"operand shape {fmt_list(in_shape)} must end in a dimension of {wo // wi} that "
                f"the result shape {fmt_list(out_shape)} drops ({format_type(src)} to "
                f"{format_type(dst)})",
            )


@irdl_op_definition
class ReducePrecisionOp(XlaOp):
    """`xla.reduce_precision %x, format = e5m10 : tensor<...>` (spec: ReducePrecision):
    rounds floats to a format with fewer exponent and mantissa bits."""

    name = "xla.reduce_precision"
    SPEC_SECTION: ClassVar[str] = "ReducePrecision"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr[IntegerType])
    mantissa_bits = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, exponent_bits: int, mantissa_bits: int):
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={
                "exponent_bits": IntegerAttr(exponent_bits, i32),
                "mantissa_bits": IntegerAttr(mantissa_bits, i32),
            },
        )

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_element_class("operand", self.operand.type, "float")
        require(
            self.exponent_bits.value.data >= 1,
            f"exponent_bits must be at least 1, got {self.exponent_bits.value.data}",
        )
        require(
            self.mantissa_bits.value.data >= 0,
            f"mantissa_bits must be non-negative, got {self.mantissa_bits.value.data}",
        )
        self.check_result_types([self.operand.type])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("format")
        parser.parse_punctuation("=")
        fmt_pos = parser.pos
        text = parser.parse_identifier()
        import re

        match = re.fullmatch(r"e(\d+)m(\d+)", text)
        if match is None:
            parser.raise_error(f"expected a format like 'e5m10', got '{text}'", fmt_pos)
        attrs = parse_attr_dict(parser)
        attrs["exponent_bits"] = IntegerAttr(int(match.group(1)), i32)
        attrs["mantissa_bits"] = IntegerAttr(int(match.group(2)), i32)
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(
            f", format = e{self.exponent_bits.value.data}m{self.mantissa_bits.value.data}"
        )
        print_attr_dict(printer, self, ["exponent_bits", "mantissa_bits"])
        print_same_or_function_type(printer, self)

__all__ = ["BitcastConvertOp", "ConversionOp", "ConvertOp", "ReducePrecisionOp"]
