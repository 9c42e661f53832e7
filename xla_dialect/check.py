"""The `check` dialect: expectations a test program states about its own values.

These are the ops of the StableHLO interpreter's test suite (`check.expect_eq`,
`expect_eq_const`, `expect_almost_eq`, `expect_almost_eq_const`, `expect_close`,
`expect_serialized_eq`), with its syntax:

    check.expect_eq %a, %b : tensor<3xi64>
    check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi64>
    check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<f64>
    check.expect_almost_eq_const %a, dense<5.1> : tensor<f64> {tolerance = 0.1 : f64}
    check.expect_close %a, %b, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
    check.expect_serialized_eq %a, probe_id = "probe0", iter = 1 : tensor<3xf32>

The ops only state what must hold; `passes/expose_checks.py` turns them into
results of their function, so the values are computed by the compiled program
and the expectations are evaluated on them afterwards
(`xla_tools/conformance.py`). The verifiers check what can be checked before
running: matching types and a constant of the operand's type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xla_dialect.types import format_type

DEFAULT_TOLERANCE = 1e-4
"""`expect_almost_eq*`'s absolute tolerance when none is given (StableHLO's)."""

DEFAULT_MAX_ULP_DIFFERENCE = 3
"""`expect_close`'s bound when none is given (StableHLO's)."""


def _same_type(a: Attribute, b: Attribute, what: str) -> None:
    if a != b:
        raise VerifyException(f"{what} must have the same type, got {format_type(a)} and {format_type(b)}")


def _check_constant(value: Attribute, operand_type: Attribute) -> None:
    value_type = getattr(value, "type", None)  # dense int/float and complex literals
    if value_type is None:
        raise VerifyException("the expected value must be a dense elements attribute")
    if value_type != operand_type:
        raise VerifyException(
            f"the expected value has type {format_type(value_type)}, "
            f"but the operand has type {format_type(operand_type)}"
        )


class _CheckOp(IRDLOperation):
    """Shared printing pieces of the check ops."""

    KEYWORDS: ClassVar[tuple[str, ...]] = ()
    """Optional `, key = value` properties of the pretty form, in order."""

    def _print_keywords(self, printer: Printer) -> None:
        for key in self.KEYWORDS:
            value = self.properties.get(key)
            if value is None:
                continue
            printer.print_string(f", {key} = ")
            if isinstance(value, FloatAttr):
                printer.print_string(repr(float(value.value.data)))
            elif isinstance(value, IntegerAttr):
                printer.print_string(str(value.value.data))
            else:
                printer.print_attribute(value)

    @classmethod
    def _parse_keywords(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "tolerance":
                props[key] = FloatAttr(parser.parse_float(), f64)
            elif key in ("min_ulp_difference", "max_ulp_difference", "iter"):
                props[key] = IntegerAttr(parser.parse_integer(), i64)
            elif key == "probe_id":
                props[key] = StringAttr(parser.parse_str_literal())
            else:
                parser.raise_error(f"unknown keyword '{key}' for {cls.name}")
        return props


def _parse_attr_dict_into(cls: type[_CheckOp], parser: Parser, props: dict[str, Attribute]) -> dict[str, Attribute]:
    """The attribute dictionary; entries naming a property of `cls` (StableHLO writes
    `{tolerance = 0.1 : f64}`) become that property, the rest stay attributes."""
    attrs = parser.parse_optional_attr_dict()
    properties = cls.get_irdl_definition().properties
    rest: dict[str, Attribute] = {}
    for key, value in attrs.items():
        if key in properties:
            props[key] = FloatAttr(float(value.value.data), f64) if isinstance(value, FloatAttr) else value
        else:
            rest[key] = value
    return rest


class _PairCheckOp(_CheckOp):
    """`%a, %b (, key = value)* {attrs}? : t` (`: ta, tb` when TWO_TYPES): an
    expectation comparing two values of one type."""

    TWO_TYPES: ClassVar[bool] = False

    def verify_(self) -> None:
        a, b = self.operands
        _same_type(a.type, b.type, f"{self.name.removeprefix('check.')}'s operands")

    @classmethod
    def parse(cls, parser: Parser) -> _CheckOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        props = cls._parse_keywords(parser)
        attrs = _parse_attr_dict_into(cls, parser, props)
        parser.parse_punctuation(":")
        ta = tb = parser.parse_type()
        if cls.TWO_TYPES:
            parser.parse_punctuation(",")
            tb = parser.parse_type()
        op = cls.create(operands=parser.resolve_operands([a, b], [ta, tb], parser.pos), properties=props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        a, b = self.operands
        printer.print_string(" ")
        printer.print_operand(a)
        printer.print_string(", ")
        printer.print_operand(b)
        self._print_keywords(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(a.type)
        if self.TWO_TYPES:
            printer.print_string(", ")
            printer.print_attribute(b.type)


@irdl_op_definition
class ExpectEqOp(_PairCheckOp):
    """`lhs` and `rhs` are equal element for element (bitwise for floats, NaN == NaN)."""

    name = "check.expect_eq"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)


@irdl_op_definition
class ExpectAlmostEqOp(_PairCheckOp):
    """`|lhs - rhs| <= tolerance` element for element (complex by parts; NaN equals
    NaN; infinities must match exactly)."""

    name = "check.expect_almost_eq"
    KEYWORDS: ClassVar[tuple[str, ...]] = ("tolerance",)
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    tolerance = opt_prop_def(FloatAttr)


def _parse_const_form(cls: type[_CheckOp], parser: Parser) -> _CheckOp:
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    value = parser.parse_attribute()
    props: dict[str, Attribute] = {"value": value}
    attrs = _parse_attr_dict_into(cls, parser, props)
    value_type = getattr(value, "type", None)
    if not isinstance(value_type, TensorType):
        parser.raise_error("expected a dense constant of tensor type")
    (resolved,) = parser.resolve_operands([operand], [value_type], parser.pos)
    op = cls.create(operands=[resolved], properties=props)
    op.attributes.update(attrs)
    return op


def _print_const_form(op: _CheckOp, printer: Printer, value: Attribute) -> None:
    printer.print_string(" ")
    printer.print_operand(op.operands[0])
    printer.print_string(", ")
    printer.print_attribute(value)
    extra = dict(op.attributes)
    tolerance = op.properties.get("tolerance")
    if tolerance is not None:
        extra["tolerance"] = tolerance
    printer.print_op_attributes(extra)


class _ConstCheckOp(_CheckOp):
    """The `%operand, dense<...> : type {attrs}` form: an operand and the constant it
    is compared with."""

    operand = operand_def(TensorType)
    value = prop_def(Attribute)

    def verify_(self) -> None:
        _check_constant(self.value, self.operand.type)

    @classmethod
    def parse(cls, parser: Parser) -> _CheckOp:
        return _parse_const_form(cls, parser)

    def print(self, printer: Printer) -> None:
        _print_const_form(self, printer, self.value)


@irdl_op_definition
class ExpectEqConstOp(_ConstCheckOp):
    """`operand` equals the constant `value` element for element."""

    name = "check.expect_eq_const"


@irdl_op_definition
class ExpectAlmostEqConstOp(_ConstCheckOp):
    """`|operand - value| <= tolerance` element for element (as expect_almost_eq)."""

    name = "check.expect_almost_eq_const"
    tolerance = opt_prop_def(FloatAttr)


@irdl_op_definition
class ExpectCloseOp(_PairCheckOp):
    """The ULP distance between `actual` and `expected` (floats of one type) lies in
    `[min_ulp_difference, max_ulp_difference]` element for element."""

    name = "check.expect_close"
    KEYWORDS: ClassVar[tuple[str, ...]] = ("min_ulp_difference", "max_ulp_difference")
    TWO_TYPES: ClassVar[bool] = True
    actual = operand_def(TensorType)
    expected = operand_def(TensorType)
    min_ulp_difference = opt_prop_def(IntegerAttr)
    max_ulp_difference = opt_prop_def(IntegerAttr)


@irdl_op_definition
class ExpectSerializedEqOp(_CheckOp):
    """`operand` equals the value the interpreter's `probe` op serialized under
    `probe_id` (at iteration `iter`)."""

    name = "check.expect_serialized_eq"
    KEYWORDS: ClassVar[tuple[str, ...]] = ("probe_id", "iter")
    operand = operand_def(TensorType)
    probe_id = prop_def(StringAttr)
    iter = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> ExpectSerializedEqOp:
        operand = parser.parse_unresolved_operand()
        props = cls._parse_keywords(parser)
        if "probe_id" not in props:
            parser.raise_error("expected 'probe_id = \"...\"'")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        (resolved,) = parser.resolve_operands([operand], [t], parser.pos)
        op = cls.create(operands=[resolved], properties=props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        self._print_keywords(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


CHECK_OPS: tuple[type[_CheckOp], ...] = (
    ExpectEqOp,
    ExpectEqConstOp,
    ExpectAlmostEqOp,
    ExpectAlmostEqConstOp,
    ExpectCloseOp,
    ExpectSerializedEqOp,
)

CHECK = Dialect("check", list(CHECK_OPS), [])

__all__ = [
    "CHECK",
    "CHECK_OPS",
    "DEFAULT_MAX_ULP_DIFFERENCE",
    "DEFAULT_TOLERANCE",
    "ExpectAlmostEqConstOp",
    "ExpectAlmostEqOp",
    "ExpectCloseOp",
    "ExpectEqConstOp",
    "ExpectEqOp",
    "ExpectSerializedEqOp",
]
