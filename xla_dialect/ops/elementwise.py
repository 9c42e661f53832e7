"""Element-wise ops: unary functions, binary arithmetic, comparison, select, clamp,
conversions (spec: "Element-wise unary functions", "Element-wise binary arithmetic
operations", "Element-wise comparison operations", Select, Clamp,
ConvertElementType, BitcastConvertType, ReducePrecision).

Unary and binary ops are generated from tables: one row per op gives its name,
the element types it accepts and how its result type follows. Binary and
comparison ops accept the spec's implicit-broadcast forms: a scalar operand, a
degenerate (size 1) dimension, and `broadcast_dimensions` for operands of
different ranks. The conversions are in `conversions.py`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar

from xdsl.dialects.builtin import (
    ComplexType,
    DenseArrayBase,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, SSAValue
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

from xla_dialect.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    ResultAccuracyAttr,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import (
    XlaOp,
    check_element_class,
    check_same_element_type,
    check_tensor,
)
from xla_dialect.ops.conversions import BitcastConvertOp, ConversionOp, ConvertOp, ReducePrecisionOp
from xla_dialect.syntax import (
    build,
    check_operand_count,
    i64_array,
    ints_of,
    parse_attr_dict,
    parse_operand_list,
    parse_optional_keyword_ints,
    parse_same_or_function_type,
    print_attr_dict,
    print_attrs_and_function_type,
    print_function_type,
    print_same_or_function_type,
    resolve,
)
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_complex,
    is_float,
    is_integer,
    is_pred,
    is_signed_integer,
    is_tensor,
    is_unsigned_integer,
    rank_of,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Broadcasting (spec: broadcasting.md, as the binary-op sections use it)
# ---------------------------------------------------------------------------


def broadcast_shapes(
    lhs: Sequence[int], rhs: Sequence[int], broadcast_dimensions: Sequence[int] | None
) -> tuple[int, ...]:
    """The shape of a binary op's result under the spec's implicit broadcasting."""
    lhs, rhs = tuple(lhs), tuple(rhs)
    if broadcast_dimensions is not None:
        require(
            len(lhs) != len(rhs)
            or not broadcast_dimensions
            or tuple(broadcast_dimensions) == tuple(range(len(lhs))),
            f"broadcast_dimensions {fmt_list(broadcast_dimensions)} must be the identity "
            "when the operands' ranks are equal",
        )
        low, high = (lhs, rhs) if len(lhs) < len(rhs) else (rhs, lhs)
        if len(lhs) != len(rhs):
            dims = tuple(broadcast_dimensions)
            require(
                len(dims) == len(low),
                f"broadcast_dimensions {fmt_list(dims)} must have one entry per dimension "
                f"of the lower-rank operand (rank {len(low)})",
            )
            for d in dims:
                require(
                    0 <= d < len(high),
                    f"broadcast_dimensions {fmt_list(dims)} has {d}, out of range "
                    f"[0, {len(high)}) of the higher-rank operand",
                )
            require(
                all(a < b for a, b in pairwise(dims)),
                f"broadcast_dimensions {fmt_list(dims)} must be strictly increasing",
            )
            expanded = [1] * len(high)
            for i, d in enumerate(dims):
                require(
                    low[i] == high[d] or low[i] == 1 or high[d] == 1,
                    f"broadcast_dimensions maps dimension {i} (size {low[i]}) of the "
                    f"lower-rank operand to dimension {d} (size {high[d]}), which differs",
                )
                expanded[d] = low[i]
            low = tuple(expanded)
            lhs, rhs = (low, high) if len(lhs) < len(rhs) else (high, low)
    if len(lhs) != len(rhs):
        require(
            len(lhs) == 0 or len(rhs) == 0,
            f"operand shapes {fmt_list(lhs)} and {fmt_list(rhs)} have different ranks; "
            "one must be a scalar or broadcast_dimensions must be given",
        )
        return rhs if len(lhs) == 0 else lhs
    out: list[int] = []
    for i, (a, b) in enumerate(zip(lhs, rhs)):
        require(
            a == b or a == 1 or b == 1,
            f"operand shapes {fmt_list(lhs)} and {fmt_list(rhs)} are not compatible "
            f"in dimension {i}",
        )
        out.append(b if a == 1 else a)
    return tuple(out)


# ---------------------------------------------------------------------------
# Unary
# ---------------------------------------------------------------------------


class UnaryElementwiseOp(XlaOp):
    """`xla.<op> %x : tensor<...>`; one row of `UNARY_OPS` per op."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    result_accuracy = opt_prop_def(ResultAccuracyAttr)
    traits = traits_def(Pure())

    OPERAND_TYPES: ClassVar[str] = "any"
    RESULT_RULE: ClassVar[str] = "same"

    def __init__(self, operand: SSAValue, attributes: dict[str, Attribute] | None = None):
        super().__init__(
            operands=[operand],
            result_types=[self.infer_result_type(operand.type)],
            attributes=attributes,
        )

    @classmethod
    def infer_result_type(cls, operand: Attribute) -> Attribute:
        element = element_type_of(operand)
        if cls.RESULT_RULE == "pred":
            element = i1
        elif cls.RESULT_RULE == "part" and isinstance(element, ComplexType):
            element = element.element_type
        elif cls.RESULT_RULE == "i32":
            element = i32
        return tensor(shape_of(operand), element)

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_element_class("operand", self.operand.type, self.OPERAND_TYPES)
        self.check_result_types([self.infer_result_type(self.operand.type)])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        check_operand_count(parser, cls, operands, pos)
        attrs = parse_attr_dict(parser)
        in_types, out_types = parse_same_or_function_type(
            parser, len(operands), infer=lambda ins: [cls.infer_result_type(ins[0])]
        )
        return build(cls, resolve(parser, operands, in_types, pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self)
        print_same_or_function_type(printer, self)


@dataclass(frozen=True)
class Row:
    """One op of a table: names, accepted element types, result rule, spec section."""

    name: str
    class_name: str
    operand_types: str
    result_rule: str
    spec: str
    doc: str


def _make(base: type[XlaOp], row: Row) -> type[XlaOp]:
    cls = type(
        row.class_name,
        (base,),
        {
            "name": f"xla.{row.name}",
            "__doc__": f"{row.doc} (spec: {row.spec}).",
            "__module__": __name__,
            "__qualname__": row.class_name,
            "OPERAND_TYPES": row.operand_types,
            "RESULT_RULE": row.result_rule,
            "SPEC_SECTION": row.spec,
            "__annotations__": {
                "OPERAND_TYPES": ClassVar[str],
                "RESULT_RULE": ClassVar[str],
                "SPEC_SECTION": ClassVar[str],
            },
        },
    )
    return irdl_op_definition(cls)


_UNARY = "Element-wise unary functions"

UNARY_OPS: tuple[Row, ...] = (
    Row("abs", "AbsOp", "signed_numeric", "part", _UNARY, "`|x|`; the modulus of a complex"),
    Row("cbrt", "CbrtOp", "float_or_complex", "same", _UNARY, "Cube root"),
    Row("ceil", "CeilOp", "float", "same", _UNARY, "Round toward +inf"),
    Row("count_leading_zeros", "ClzOp", "integer", "same", _UNARY, "Leading zero bits (Clz)"),
    Row("cosine", "CosineOp", "float_or_complex", "same", _UNARY, "Cosine"),
    Row("exponential", "ExpOp", "float_or_complex", "same", _UNARY, "`e^x`"),
    Row("exponential_minus_one", "Expm1Op", "float_or_complex", "same", _UNARY, "`e^x - 1`"),
    Row("floor", "FloorOp", "float", "same", _UNARY, "Round toward -inf"),
    Row("imag", "ImagOp", "float_or_complex", "part", _UNARY, "Imaginary part; 0 for floats"),
    Row("is_finite", "IsFiniteOp", "float", "pred", _UNARY, "Neither infinite nor NaN"),
    Row("log", "LogOp", "float_or_complex", "same", _UNARY, "Natural logarithm"),
    Row("log_plus_one", "Log1pOp", "float_or_complex", "same", _UNARY, "`ln(1 + x)`"),
    Row("logistic", "LogisticOp", "float_or_complex", "same", _UNARY, "`1 / (1 + e^-x)`"),
    Row("not", "NotOp", "int_or_pred", "same", _UNARY, "Logical not of PRED, bitwise of integers"),
    Row("negate", "NegOp", "numeric", "same", _UNARY, "`-x`"),
    Row("popcnt", "PopcntOp", "integer", "same", _UNARY, "Set bits (PopulationCount)"),
    Row("real", "RealOp", "float_or_complex", "part", _UNARY, "Real part; x for floats"),
    Row("round_nearest_afz", "RoundOp", "float", "same", _UNARY, "Round half away from zero"),
    Row("round_nearest_even", "RoundEvenOp", "float", "same", _UNARY, "Round half to even"),
    Row("rsqrt", "RsqrtOp", "float_or_complex", "same", _UNARY, "`1 / sqrt(x)`"),
    Row("sign", "SignOp", "signed_numeric", "same", _UNARY, "Sign: -1, -0, NaN, +0 or 1"),
    Row("sine", "SineOp", "float_or_complex", "same", _UNARY, "Sine"),
    Row("sqrt", "SqrtOp", "float_or_complex", "same", _UNARY, "Square root"),
    Row("tan", "TanOp", "float_or_complex", "same", _UNARY, "Tangent"),
    Row("tanh", "TanhOp", "float_or_complex", "same", _UNARY, "Hyperbolic tangent"),
)

UNARY_OP_CLASSES: dict[str, type[XlaOp]] = {
    row.name: _make(UnaryElementwiseOp, row) for row in UNARY_OPS
}

AbsOp = UNARY_OP_CLASSES["abs"]
CbrtOp = UNARY_OP_CLASSES["cbrt"]
CeilOp = UNARY_OP_CLASSES["ceil"]
ClzOp = UNARY_OP_CLASSES["count_leading_zeros"]
CosineOp = UNARY_OP_CLASSES["cosine"]
ExpOp = UNARY_OP_CLASSES["exponential"]
Expm1Op = UNARY_OP_CLASSES["exponential_minus_one"]
FloorOp = UNARY_OP_CLASSES["floor"]
ImagOp = UNARY_OP_CLASSES["imag"]
IsFiniteOp = UNARY_OP_CLASSES["is_finite"]
LogOp = UNARY_OP_CLASSES["log"]
Log1pOp = UNARY_OP_CLASSES["log_plus_one"]
LogisticOp = UNARY_OP_CLASSES["logistic"]
NotOp = UNARY_OP_CLASSES["not"]
NegOp = UNARY_OP_CLASSES["negate"]
PopcntOp = UNARY_OP_CLASSES["popcnt"]
RealOp = UNARY_OP_CLASSES["real"]
RoundOp = UNARY_OP_CLASSES["round_nearest_afz"]
RoundEvenOp = UNARY_OP_CLASSES["round_nearest_even"]
RsqrtOp = UNARY_OP_CLASSES["rsqrt"]
SignOp = UNARY_OP_CLASSES["sign"]
SineOp = UNARY_OP_CLASSES["sine"]
SqrtOp = UNARY_OP_CLASSES["sqrt"]
TanOp = UNARY_OP_CLASSES["tan"]
TanhOp = UNARY_OP_CLASSES["tanh"]


# ---------------------------------------------------------------------------
# Binary (and compare, which shares the broadcasting forms)
# ---------------------------------------------------------------------------


class BroadcastingBinaryOp(XlaOp):
    """Two operands of one element type, broadcast as the spec allows."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    OPERAND_TYPES: ClassVar[str] = "any"
    RESULT_RULE: ClassVar[str] = "same"

    @classmethod
    def infer_element_type(cls, element: Attribute) -> Attribute:
        if cls.RESULT_RULE == "pred":
            return i1
        if cls.RESULT_RULE == "complex":
            return ComplexType(element)  # pyright: ignore[reportArgumentType]
        return element

    @classmethod
    def infer_result_type(
        cls, lhs: Attribute, rhs: Attribute, broadcast_dimensions: Sequence[int] | None = None
    ) -> Attribute:
        shape = broadcast_shapes(shape_of(lhs), shape_of(rhs), broadcast_dimensions)
        return tensor(shape, cls.infer_element_type(element_type_of(lhs)))

    def _broadcast_dims(self) -> tuple[int, ...] | None:
        return None if self.broadcast_dimensions is None else ints_of(self.broadcast_dimensions)

    def verify_(self) -> None:
        check_tensor("lhs", self.lhs.type)
        check_tensor("rhs", self.rhs.type)
        check_same_element_type(["lhs", "rhs"], [self.lhs.type, self.rhs.type])
        check_element_class("lhs", self.lhs.type, self.OPERAND_TYPES)
        self.check_result_types(
            [self.infer_result_type(self.lhs.type, self.rhs.type, self._broadcast_dims())]
        )

    # Syntax: `xla.add %a, %b (, broadcast_dimensions = [..])? {attrs}? : types`
    @classmethod
    def _parse_tail(cls, parser: Parser, operands: list, pos: int, attrs: dict[str, Attribute]):
        dims = parse_optional_keyword_ints(parser, "broadcast_dimensions")
        if dims is not None:
            attrs["broadcast_dimensions"] = i64_array(dims)
        attrs.update(parse_attr_dict(parser))
        in_types, out_types = parse_same_or_function_type(
            parser,
            len(operands),
            infer=lambda ins: [ins[0]]
            if cls.RESULT_RULE == "complex"
            else [cls.infer_result_type(ins[0], ins[1], dims)],
        )
        if cls.RESULT_RULE == "complex" and all(
            is_tensor(t) and is_complex(element_type_of(t)) for t in in_types
        ):
            # `xla.complex %re, %im : tensor<2xcomplex<f64>>` names the result type.
            result = in_types[0]
            part = tensor(shape_of(result), element_type_of(result).element_type)  # pyright: ignore
            in_types, out_types = [part, part], [result]
        return build(cls, resolve(parser, operands, in_types, pos), out_types, attrs)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        check_operand_count(parser, cls, operands, pos)
        return cls._parse_tail(parser, operands, pos, {})

    def _print_tail(self, printer: Printer, elided: Sequence[str]) -> None:
        if self.broadcast_dimensions is not None:
            printer.print_string(
                ", broadcast_dimensions = " + fmt_list(ints_of(self.broadcast_dimensions))
            )
        print_attr_dict(printer, self, ["broadcast_dimensions", *elided])
        result = self.result_types[0]
        compact_complex = (
            self.RESULT_RULE == "complex"
            and is_tensor(result)
            and is_complex(element_type_of(result))
            and all(
                t == tensor(shape_of(result), element_type_of(result).element_type)  # pyright: ignore
                for t in self.operand_types
            )
        )
        if self.RESULT_RULE == "same":
            print_same_or_function_type(printer, self)
        elif compact_complex:
            printer.print_string(" : ")
            printer.print_attribute(result)
        else:
            printer.print_string(" : ")
            print_function_type(printer, self.operand_types, self.result_types)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        self._print_tail(printer, ())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        broadcast_dimensions: Sequence[int] | None = None,
    ):
        props: dict[str, Attribute] = {}
        if broadcast_dimensions is not None:
            props["broadcast_dimensions"] = i64_array(broadcast_dimensions)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[self.infer_result_type(lhs.type, rhs.type, broadcast_dimensions)],
            properties=props,
        )


_BINARY = "Element-wise binary arithmetic operations"

BINARY_OPS: tuple[Row, ...] = (
    Row("add", "AddOp", "any", "same", _BINARY, "Addition; logical or on PRED"),
    Row("subtract", "SubtractOp", "numeric", "same", _BINARY, "Subtraction (Sub)"),
    Row("multiply", "MultiplyOp", "any", "same", _BINARY, "Multiplication; logical and on PRED"),
    Row("divide", "DivideOp", "numeric", "same", _BINARY, "Division (Div)"),
    Row("remainder", "RemainderOp", "numeric", "same", _BINARY, "Remainder, sign of the dividend"),
    Row("maximum", "MaxOp", "any", "same", _BINARY, "Maximum, NaN-propagating"),
    Row("minimum", "MinOp", "any", "same", _BINARY, "Minimum, NaN-propagating"),
    Row("power", "PowOp", "numeric", "same", _BINARY, "`lhs ^ rhs`"),
    Row("atan2", "Atan2Op", "float_or_complex", "same", _BINARY, "`atan2(lhs, rhs)`"),
    Row("and", "AndOp", "int_or_pred", "same", _BINARY, "Logical/bitwise and (LogicalAnd)"),
    Row("or", "OrOp", "int_or_pred", "same", _BINARY, "Logical/bitwise or (LogicalOr)"),
    Row("xor", "XorOp", "int_or_pred", "same", _BINARY, "Logical/bitwise exclusive or"),
    Row("shift_left", "ShiftLeftOp", "integer", "same", _BINARY, "Shift left"),
    Row("shift_right_arithmetic", "ShiftRightArithmeticOp", "integer", "same", _BINARY,
        "Arithmetic shift right"),
    Row("shift_right_logical", "ShiftRightLogicalOp", "integer", "same", _BINARY,
        "Logical shift right"),
    Row("complex", "ComplexOp", "float", "complex", _BINARY, "`lhs + i*rhs` from two floats"),
)

BINARY_OP_CLASSES: dict[str, type[XlaOp]] = {
    row.name: _make(BroadcastingBinaryOp, row) for row in BINARY_OPS
}

AddOp = BINARY_OP_CLASSES["add"]
SubtractOp = BINARY_OP_CLASSES["subtract"]
MultiplyOp = BINARY_OP_CLASSES["multiply"]
DivideOp = BINARY_OP_CLASSES["divide"]
RemainderOp = BINARY_OP_CLASSES["remainder"]
MaxOp = BINARY_OP_CLASSES["maximum"]
MinOp = BINARY_OP_CLASSES["minimum"]
PowOp = BINARY_OP_CLASSES["power"]
Atan2Op = BINARY_OP_CLASSES["atan2"]
AndOp = BINARY_OP_CLASSES["and"]
OrOp = BINARY_OP_CLASSES["or"]
XorOp = BINARY_OP_CLASSES["xor"]
ShiftLeftOp = BINARY_OP_CLASSES["shift_left"]
ShiftRightArithmeticOp = BINARY_OP_CLASSES["shift_right_arithmetic"]
ShiftRightLogicalOp = BINARY_OP_CLASSES["shift_right_logical"]
ComplexOp = BINARY_OP_CLASSES["complex"]


def _valid_compare_type(element: Attribute, compare_type: ComparisonType) -> bool:
    match compare_type:
        case ComparisonType.NOTYPE:
            return True
        case ComparisonType.FLOAT | ComparisonType.TOTALORDER:
            return is_float(element) or is_complex(element)
        case ComparisonType.SIGNED:
            return is_signed_integer(element) or is_pred(element)
        case ComparisonType.UNSIGNED:
            return is_unsigned_integer(element) or is_pred(element)


@irdl_op_definition
class CompareOp(BroadcastingBinaryOp):
    """`xla.compare LT, %a, %b (, TOTALORDER)? : (...) -> tensor<...xi1>` (spec:
    Element-wise comparison operations; `compare_type = TOTALORDER` gives the
    `*TotalOrder` variants: -NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf < +NaN)."""

    name = "xla.compare"
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    RESULT_RULE: ClassVar[str] = "pred"
    SPEC_SECTION: ClassVar[str] = "Element-wise comparison operations"

    def __init__(  # pyright: ignore[reportIncompatibleMethodOverride]
        self,
        direction: ComparisonDirection | str,
        lhs: SSAValue,
        rhs: SSAValue,
        compare_type: ComparisonType | str | None = None,
        broadcast_dimensions: Sequence[int] | None = None,
    ):
        props: dict[str, Attribute] = {
            "comparison_direction": ComparisonDirectionAttr(ComparisonDirection(direction))
        }
        if compare_type is not None:
            props["compare_type"] = ComparisonTypeAttr(ComparisonType(compare_type))
        if broadcast_dimensions is not None:
            props["broadcast_dimensions"] = i64_array(broadcast_dimensions)
        XlaOp.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[self.infer_result_type(lhs.type, rhs.type, broadcast_dimensions)],
            properties=props,
        )

    def verify_(self) -> None:
        super().verify_()
        element = element_type_of(self.lhs.type)
        if self.compare_type is not None:
            ct = self.compare_type.data
            require(
                _valid_compare_type(element, ct),
                f"compare_type {ct.value} does not apply to element type {format_type(element)}",
            )
        if is_complex(element):
            direction = self.comparison_direction.data
            require(
                direction in (ComparisonDirection.EQ, ComparisonDirection.NE)
                or (self.compare_type is not None and self.compare_type.data == ComparisonType.TOTALORDER),
                f"comparison direction {direction.value} is not defined on complex numbers "
                "(only EQ and NE, or TOTALORDER)",
            )

    @property
    def is_total_order(self) -> bool:
        return self.compare_type is not None and self.compare_type.data == ComparisonType.TOTALORDER

    @classmethod
    def parse(cls, parser: Parser):
        direction = parser.parse_str_enum(ComparisonDirection)
        parser.parse_punctuation(",")
        pos = parser.pos
        operands = parse_operand_list(parser)
        check_operand_count(parser, cls, operands, pos)
        attrs: dict[str, Attribute] = {"comparison_direction": ComparisonDirectionAttr(direction)}
        save = parser.pos
        if parser.parse_optional_punctuation(",") is not None:
            word = parser._current_token.text  # pyright: ignore[reportPrivateUsage]
            if word in ComparisonType.__members__:
                attrs["compare_type"] = ComparisonTypeAttr(parser.parse_str_enum(ComparisonType))
            else:
                parser._resume_from(save)  # pyright: ignore[reportPrivateUsage]
        return cls._parse_tail(parser, operands, pos, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.comparison_direction.data.value}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.compare_type is not None:
            printer.print_string(f", {self.compare_type.data.value}")
        self._print_tail(printer, ["comparison_direction", "compare_type"])


# ---------------------------------------------------------------------------
# Select, Clamp
# ---------------------------------------------------------------------------


@irdl_op_definition
class SelectOp(XlaOp):
    """`xla.select %pred, %on_true, %on_false : (tensor<3xi1>, ...) -> ...` (spec: Select).

    `pred` has the operands' shape, or is a scalar that selects a whole operand."""

    name = "xla.select"
    SPEC_SECTION: ClassVar[str] = "Select"
    pred = operand_def(TensorType)
    on_true = operand_def()
    on_false = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, pred: SSAValue, on_true: SSAValue, on_false: SSAValue):
        super().__init__(operands=[pred, on_true, on_false], result_types=[on_true.type])

    def verify_(self) -> None:
        require(
            is_tensor(self.pred.type) and is_pred(element_type_of(self.pred.type)),
            f"pred must be a tensor of i1, got {format_type(self.pred.type)}",
        )
        require(
            self.on_true.type == self.on_false.type,
            f"on_true type {format_type(self.on_true.type)} differs from on_false type "
            f"{format_type(self.on_false.type)}",
        )
        if is_tensor(self.on_true.type):
            require(
                rank_of(self.pred.type) == 0 or shape_of(self.pred.type) == shape_of(self.on_true.type),
                f"pred shape {fmt_list(shape_of(self.pred.type))} must be a scalar or equal the "
                f"operand shape {fmt_list(shape_of(self.on_true.type))}",
            )
        else:
            require(rank_of(self.pred.type) == 0, "pred must be a scalar when selecting tuples")
        self.check_result_types([self.on_true.type])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        check_operand_count(parser, cls, operands, pos)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            save = parser.pos
            ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            if parser.parse_optional_punctuation("->") is not None:
                outs = [parser.parse_type()]
                return build(cls, resolve(parser, operands, ins, pos), outs, attrs)
            parser._resume_from(save)  # pyright: ignore[reportPrivateUsage]
        # Compact form: `: pred_type, value_type`.
        pred_type = parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        values = resolve(parser, operands, [pred_type, value_type, value_type], pos)
        return build(cls, values, [value_type], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attrs_and_function_type(printer, self)


@irdl_op_definition
class ClampOp(XlaOp):
    """`xla.clamp %min, %x, %max : ...` (spec: Clamp): `min(max(x, min), max)`; `min` and
    `max` are scalars or have the operand's shape."""

    name = "xla.clamp"
    SPEC_SECTION: ClassVar[str] = "Clamp"
    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, min: SSAValue, operand: SSAValue, max: SSAValue):
        super().__init__(operands=[min, operand, max], result_types=[operand.type])

    def verify_(self) -> None:
        for name in ("min", "operand", "max"):
            check_tensor(name, getattr(self, name).type)
        check_same_element_type(
            ["operand", "min", "max"], [self.operand.type, self.min.type, self.max.type]
        )
        shape = shape_of(self.operand.type)
        for name in ("min", "max"):
            bound = shape_of(getattr(self, name).type)
            require(
                bound == () or bound == shape,
                f"{name} shape {fmt_list(bound)} must be a scalar or equal the operand shape "
                f"{fmt_list(shape)}",
            )
        check_element_class("operand", self.operand.type, "numeric")
        self.check_result_types([self.operand.type])

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        check_operand_count(parser, cls, operands, pos)
        attrs = parse_attr_dict(parser)
        ins, outs = parse_same_or_function_type(parser, len(operands))
        return build(cls, resolve(parser, operands, ins, pos), outs, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        print_same_or_function_type(printer, self)


ELEMENTWISE_OPS: tuple[type[XlaOp], ...] = (
    *UNARY_OP_CLASSES.values(),
    *BINARY_OP_CLASSES.values(),
    CompareOp,
    SelectOp,
    ClampOp,
    ConvertOp,
    BitcastConvertOp,
    ReducePrecisionOp,
)

__all__ = [
    "BINARY_OPS",
    "ELEMENTWISE_OPS",
    "UNARY_OPS",
    "BitcastConvertOp",
    "ConversionOp",
    "ConvertOp",
    "ReducePrecisionOp",
    "broadcast_shapes",
    "is_integer",
]

OPS = ELEMENTWISE_OPS
