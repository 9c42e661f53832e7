"""Tuples: building one from values and reading a member back
(spec: Tuple, GetTupleElement).

Members may be arrays, tuples or tokens; the tuple's type is the builtin
`tuple<...>` of its members' types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, TupleType, i32
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

from xla_dialect.diagnostics import require
from xla_dialect.ops.base import XlaOp
from xla_dialect.syntax import (
    build,
    parse_attr_dict,
    parse_function_type,
    parse_operand_list,
    parse_same_or_function_type,
    print_attr_dict,
    print_attrs_and_function_type,
    print_operands,
    resolve,
)
from xla_dialect.types import TokenType, element_type_of, format_type, is_element_type, is_tensor


def check_tuple_member(name: str, t: Attribute) -> None:
    """A tuple holds arrays of primitive types, tokens and (nested) tuples."""
    if isinstance(t, TupleType):
        for i, member in enumerate(t.types.data):
            check_tuple_member(f"{name} member {i}", member)
        return
    require(
        isinstance(t, TokenType) or (is_tensor(t) and is_element_type(element_type_of(t))),
        f"{name} must be a tensor of a primitive type, a token or a tuple, got {format_type(t)}",
    )


@irdl_op_definition
class TupleOp(XlaOp):
    """`xla.tuple %a, %b : tuple<tensor<f32>, tensor<i32>>`: groups values of different
    shapes into one (spec: Tuple)."""

    name = "xla.tuple"
    SPEC_SECTION: ClassVar[str] = "Tuple"
    val = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(
            operands=[list(values)],
            result_types=[self.infer_result_type([v.type for v in values])],
        )

    @staticmethod
    def infer_result_type(types: Sequence[Attribute]) -> TupleType:
        return TupleType(ArrayAttr(list(types)))

    def verify_(self) -> None:
        for i, v in enumerate(self.val):
            check_tuple_member(f"operand #{i}", v.type)
        self.check_result_types([self.infer_result_type([v.type for v in self.val])])

    @classmethod
    def parse(cls, parser: Parser) -> TupleOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        type_pos = parser.pos
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            ins, outs = parse_function_type(parser)
            if len(outs) != 1:
                parser.raise_error("expected one result type", type_pos, parser.pos)
            result_type = outs[0]
        else:
            result_type = parser.parse_type()
            if not isinstance(result_type, TupleType):
                parser.raise_error("expected a tuple<...> type", type_pos, parser.pos)
            ins = list(result_type.types.data)
        return build(cls, [resolve(parser, operands, ins, pos)], [result_type], attrs)

    def print(self, printer: Printer) -> None:
        if self.val:
            printer.print_string(" ")
            print_operands(printer, self.val)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class GetTupleElementOp(XlaOp):
    """`xla.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>`:
    member `index` of a tuple, chosen at compile time so its type is known
    (spec: GetTupleElement)."""

    name = "xla.get_tuple_element"
    SPEC_SECTION: ClassVar[str] = "GetTupleElement"
    operand = operand_def(TupleType)
    index = prop_def(IntegerAttr[IntegerType])
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, index: int):
        super().__init__(
            operands=[operand],
            result_types=[self.infer_result_type(operand.type, index)],
            properties={"index": IntegerAttr(index, i32)},
        )

    @staticmethod
    def infer_result_type(operand: Attribute, index: int) -> Attribute:
        assert isinstance(operand, TupleType)
        members = operand.types.data
        require(
            0 <= index < len(members),
            f"index {index} is out of range [0, {len(members)}) of the operand's "
            f"{len(members)} tuple members",
        )
        return members[index]

    def verify_(self) -> None:
        self.check_result_types(
            [self.infer_result_type(self.operand.type, self.index.value.data)]
        )

    @classmethod
    def parse(cls, parser: Parser) -> GetTupleElementOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer()
        parser.parse_punctuation("]")
        attrs = parse_attr_dict(parser)
        attrs["index"] = IntegerAttr(index, i32)
        ins, outs = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [operand], ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{self.index.value.data}]")
        print_attrs_and_function_type(printer, self, ["index"])


OPS: tuple[type[Operation], ...] = (TupleOp, GetTupleElementOp)
