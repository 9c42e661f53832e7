"""The Shardy (`sdy`) ops JAX exports, read and kept as written.

    sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {...}}
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<4xf32>
    %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xf32>

A mesh names the devices' axes; a constraint or reshard says how a value is laid
out over them and is the identity on the value. The project keeps each body (the
text between `<` and `>`) verbatim, prints it back unchanged, and reads a mesh's
axis sizes to know how many devices it spans: on one device (`xla-drop-shardings`)
meshes are dropped and constraints are their operand. Shardy's attributes
(`#sdy.sharding<...>`, `#sdy.op_sharding_rule<...>`) are kept as opaque attributes
(`xla_dialect/stablehlo.py`).
"""

from __future__ import annotations

import re
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

_AXIS = re.compile(r'"([^"\\]*)"\s*=\s*(\d+)')


def _parse_body(parser: Parser) -> str:
    if parser._current_token.text != "<":  # pyright: ignore[reportPrivateUsage]
        parser.raise_error("expected '<'")
    return parser._parse_dialect_symbol_body()  # pyright: ignore[reportPrivateUsage]


@irdl_op_definition
class MeshOp(IRDLOperation):
    """`sdy.mesh @name = <axes>`: the named axes of the devices."""

    name = "sdy.mesh"
    sym_name = prop_def(StringAttr)
    mesh = prop_def(StringAttr)

    def axis_sizes(self) -> dict[str, int]:
        return {name: int(size) for name, size in _AXIS.findall(self.mesh.data)}

    def device_count(self) -> int:
        count = 1
        for size in self.axis_sizes().values():
            count *= size
        return count

    def verify_(self) -> None:
        if not self.mesh.data.strip().startswith("["):
            raise VerifyException(f"mesh must list its axes in [...], got <{self.mesh.data}>")

    @classmethod
    def parse(cls, parser: Parser) -> MeshOp:
        name = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        body = _parse_body(parser)
        op = cls.create(properties={"sym_name": name, "mesh": StringAttr(body)})
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" = <{self.mesh.data}>")
        printer.print_op_attributes(self.attributes)


class _LayoutOp(IRDLOperation):
    """`sdy.X %value <sharding> : type`, the identity on the value."""

    input = operand_def()
    result = result_def()
    sharding = prop_def(StringAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException("result type must be the operand's type")

    @classmethod
    def parse(cls, parser: Parser) -> _LayoutOp:
        unresolved = parser.parse_unresolved_operand()
        body = _parse_body(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t: Attribute = parser.parse_type()
        value: SSAValue = parser.resolve_operand(unresolved, t)
        op = cls.create(operands=[value], result_types=[t], properties={"sharding": StringAttr(body)})
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" <{self.sharding.data}>")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ShardingConstraintOp(_LayoutOp):
    name = "sdy.sharding_constraint"
    SUMMARY: ClassVar[str] = "the value, laid out as the sharding says"


@irdl_op_definition
class ReshardOp(_LayoutOp):
    name = "sdy.reshard"
    SUMMARY: ClassVar[str] = "the value, moved to the sharding"


SDY = Dialect("sdy", [MeshOp, ShardingConstraintOp, ReshardOp], [])

__all__ = ["SDY", "MeshOp", "ReshardOp", "ShardingConstraintOp"]
