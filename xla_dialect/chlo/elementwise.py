"""The element-wise `chlo` ops: unary (`erf`, `lgamma`, inverse trigonometric and
hyperbolic functions, ...), binary of one shape (`next_after`, `polygamma`, `zeta`,
`mulhi`) and the broadcasting binary ops (`broadcast_add`, `broadcast_compare`, ...)."""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    TensorType,
    i1,
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

from xla_dialect.chlo.base import (
    ChloComparisonDirectionAttr,
    ChloComparisonTypeAttr,
    ChloOp,
    check_element,
    check_same_type,
    require_inferred,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import check_dims_in_range
from xla_dialect.syntax import (
    build,
    ints_of,
    parse_attr_dict,
    parse_function_type,
    parse_operand_list,
    parse_result_types,
    print_attr_dict,
    print_function_type,
    print_operands,
    resolve,
)
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_dynamic,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Unary element-wise ops
# ---------------------------------------------------------------------------


class ChloUnaryOp(ChloOp):
    """`chlo.<op> %x : tensor<...> -> tensor<...>`; one row of `UNARY` per op."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    OPERAND_TYPES: ClassVar[str] = "float"
    RESULT_PRED: ClassVar[bool] = False

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[self.infer_result_type(operand.type)])

    @classmethod
    def infer_result_type(cls, operand: Attribute) -> Attribute:
        if cls.RESULT_PRED:
            return tensor(shape_of(operand), i1)
        return operand

    def verify_(self) -> None:
        check_element("operand", self.operand.type, self.OPERAND_TYPES)
        want = self.infer_result_type(self.operand.type)
        require_inferred("result", self.result.type, want)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        return build(cls, resolve(parser, [operand], [in_type], pos), [out_type], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


@dataclass(frozen=True)
class _Row:
    name: str
    class_name: str
    operand_types: str
    doc: str
    result_pred: bool = False


def _make(base: type[ChloOp], row: _Row, extra: dict[str, object] | None = None) -> type[ChloOp]:
    namespace: dict[str, object] = {
        "name": f"chlo.{row.name}",
        "__doc__": row.doc,
        "__module__": __name__,
        "__qualname__": row.class_name,
        "OPERAND_TYPES": row.operand_types,
        "RESULT_PRED": row.result_pred,
        "__annotations__": {"OPERAND_TYPES": ClassVar[str], "RESULT_PRED": ClassVar[bool]},
    }
    namespace.update(extra or {})
    return irdl_op_definition(type(row.class_name, (base,), namespace))


UNARY: tuple[_Row, ...] = (
    _Row("acos", "AcosOp", "float_or_complex", "`acos(x)` element-wise."),
    _Row("acosh", "AcoshOp", "float_or_complex", "`acosh(x)`; NaN below 1."),
    _Row("asin", "AsinOp", "float_or_complex", "`asin(x)` element-wise."),
    _Row("asinh", "AsinhOp", "float_or_complex", "`asinh(x)` element-wise."),
    _Row("atan", "AtanOp", "float_or_complex", "`atan(x)` element-wise."),
    _Row("atanh", "AtanhOp", "float_or_complex", "`atanh(x)`; NaN outside [-1, 1]."),
    _Row("cosh", "CoshOp", "float_or_complex", "`cosh(x)` element-wise."),
    _Row("sinh", "SinhOp", "float_or_complex", "`sinh(x)` element-wise."),
    _Row("tan", "TanOp", "float_or_complex", "`tan(x)` element-wise."),
    _Row("square", "SquareOp", "float_or_complex", "`x * x` element-wise."),
    _Row("erf", "ErfOp", "float", "The Gauss error function."),
    _Row("erfc", "ErfcOp", "float", "The complementary error function `1 - erf(x)`."),
    _Row("erf_inv", "ErfInvOp", "float", "The inverse of `erf`; +-inf at +-1."),
    _Row("lgamma", "LgammaOp", "float", "`log|Gamma(x)|`."),
    _Row("digamma", "DigammaOp", "float", "`Gamma'(x) / Gamma(x)`; NaN at the poles."),
    _Row("is_inf", "IsInfOp", "float", "Whether `x` is +inf or -inf.", True),
    _Row("is_pos_inf", "IsPosInfOp", "float", "Whether `x` is +inf.", True),
    _Row("is_neg_inf", "IsNegInfOp", "float", "Whether `x` is -inf.", True),
)

UNARY_OPS: dict[str, type[ChloOp]] = {row.name: _make(ChloUnaryOp, row) for row in UNARY}


# ---------------------------------------------------------------------------
# Binary element-wise ops of one shape: next_after, polygamma, zeta, mulhi
# ---------------------------------------------------------------------------


class ChloBinaryOp(ChloOp):
    """`chlo.<op> %a, %b : t, t -> t`: operands and result of one type."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    OPERAND_TYPES: ClassVar[str] = "float"
    RESULT_PRED: ClassVar[bool] = False

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        check_element("lhs", self.lhs.type, self.OPERAND_TYPES)
        check_same_type(
            ["lhs", "rhs", "result"], [self.lhs.type, self.rhs.type, self.result.type]
        )

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        out_types = parse_result_types(parser)
        return build(cls, resolve(parser, operands, in_types, pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


BINARY: tuple[_Row, ...] = (
    _Row("next_after", "NextAfterOp", "float", "The next float after `x` toward `y` (C's nextafter)."),
    _Row("polygamma", "PolygammaOp", "float", "`polygamma(n, x)`, the n-th derivative of digamma."),
    _Row("zeta", "ZetaOp", "float", "The Hurwitz zeta function `zeta(x, q)`."),
    _Row("mulhi", "MulhiOp", "integer", "The high half of the double-width product of two integers."),
)

BINARY_OPS: dict[str, type[ChloOp]] = {row.name: _make(ChloBinaryOp, row) for row in BINARY}


# ---------------------------------------------------------------------------
# Broadcasting binary ops
# ---------------------------------------------------------------------------


def broadcast_result_shape(
    lhs: Sequence[int], rhs: Sequence[int], broadcast_dimensions: Sequence[int] | None
) -> tuple[int, ...]:
    """CHLO's broadcasting: the lower-rank operand's dimensions map to
    `broadcast_dimensions` of the higher-rank one (by default its trailing ones,
    numpy's prefix padding); mapped sizes must agree or be 1."""
    low, high = (lhs, rhs) if len(lhs) < len(rhs) else (rhs, lhs)
    dims = (
        tuple(broadcast_dimensions)
        if broadcast_dimensions is not None and len(lhs) != len(rhs)
        else tuple(range(len(high) - len(low), len(high)))
    )
    require(
        len(dims) == len(low),
        f"broadcast_dimensions {fmt_list(dims)} must have one entry per dimension of the "
        f"lower-rank operand (rank {len(low)})",
    )
    check_dims_in_range("broadcast_dimensions", dims, len(high))
    out = list(high)
    for i, d in enumerate(dims):
        a, b = low[i], high[d]
        require(
            a == b or a == 1 or b == 1 or is_dynamic(a) or is_dynamic(b),
            f"operand shapes {fmt_list(lhs)} and {fmt_list(rhs)} are not broadcast-compatible "
            f"(size {a} vs {b} in result dimension {d})",
        )
        out[d] = b if a == 1 else a
    return tuple(out)


def operand_broadcast_dims(
    operand_rank: int, result_rank: int, lhs_rank: int, rhs_rank: int,
    broadcast_dimensions: Sequence[int] | None,
) -> tuple[int, ...]:
    """The result dimensions an operand's dimensions map to (for broadcast_in_dim)."""
    if operand_rank == result_rank:
        return tuple(range(result_rank))
    if broadcast_dimensions is not None and lhs_rank != rhs_rank:
        return tuple(broadcast_dimensions)
    return tuple(range(result_rank - operand_rank, result_rank))


class ChloBroadcastBinaryOp(ChloOp):
    """`chlo.broadcast_<op> %a, %b {attrs} : (t1, t2) -> t3`; `TARGET` names the
    op it becomes once both operands have the result's shape."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    OPERAND_TYPES: ClassVar[str] = "any"
    RESULT_PRED: ClassVar[bool] = False
    TARGET: ClassVar[str] = ""

    def dims(self) -> tuple[int, ...] | None:
        return None if self.broadcast_dimensions is None else ints_of(self.broadcast_dimensions)

    def result_element(self) -> Attribute:
        return i1 if self.RESULT_PRED else element_type_of(self.lhs.type)

    def verify_(self) -> None:
        check_element("lhs", self.lhs.type, self.OPERAND_TYPES)
        check_element("rhs", self.rhs.type, self.OPERAND_TYPES)
        require(
            element_type_of(self.lhs.type) == element_type_of(self.rhs.type),
            f"rhs element type {format_type(element_type_of(self.rhs.type))} differs from "
            f"lhs element type {format_type(element_type_of(self.lhs.type))}",
        )
        shape = broadcast_result_shape(shape_of(self.lhs.type), shape_of(self.rhs.type), self.dims())
        want = tensor(shape, self.result_element())
        require_inferred("result", self.result.type, want)

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        return build(cls, resolve(parser, operands, in_types, pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)


BROADCAST: tuple[tuple[str, str, str, str], ...] = (
    # (chlo name suffix, class name, operand types, target op)
    ("add", "BroadcastAddOp", "any", "xla.add"),
    ("atan2", "BroadcastAtan2Op", "float_or_complex", "xla.atan2"),
    ("divide", "BroadcastDivOp", "any", "xla.divide"),
    ("maximum", "BroadcastMaxOp", "any", "xla.maximum"),
    ("minimum", "BroadcastMinOp", "any", "xla.minimum"),
    ("multiply", "BroadcastMulOp", "any", "xla.multiply"),
    ("power", "BroadcastPowOp", "any", "xla.power"),
    ("remainder", "BroadcastRemOp", "any", "xla.remainder"),
    ("subtract", "BroadcastSubOp", "any", "xla.subtract"),
    ("shift_left", "BroadcastShiftLeftOp", "integer", "xla.shift_left"),
    ("shift_right_arithmetic", "BroadcastShiftRightArithmeticOp", "integer", "xla.shift_right_arithmetic"),
    ("shift_right_logical", "BroadcastShiftRightLogicalOp", "integer", "xla.shift_right_logical"),
    ("and", "BroadcastAndOp", "int_or_pred", "xla.and"),
    ("or", "BroadcastOrOp", "int_or_pred", "xla.or"),
    ("xor", "BroadcastXorOp", "int_or_pred", "xla.xor"),
    ("next_after", "BroadcastNextAfterOp", "float", "chlo.next_after"),
    ("polygamma", "BroadcastPolygammaOp", "float", "chlo.polygamma"),
    ("zeta", "BroadcastZetaOp", "float", "chlo.zeta"),
)

BROADCAST_OPS: dict[str, type[ChloOp]] = {
    f"broadcast_{suffix}": _make(
        ChloBroadcastBinaryOp,
        _Row(f"broadcast_{suffix}", cls_name, types, f"`{target}` with CHLO's implicit broadcasting."),
        {"TARGET": target, "__annotations__": {"OPERAND_TYPES": ClassVar[str], "RESULT_PRED": ClassVar[bool], "TARGET": ClassVar[str]}},
    )
    for suffix, cls_name, types, target in BROADCAST
}


@irdl_op_definition
class BroadcastCompareOp(ChloBroadcastBinaryOp):
    """`chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction
    LT>} : (...) -> tensor<...xi1>`: `xla.compare` with CHLO's broadcasting."""

    name = "chlo.broadcast_compare"
    comparison_direction = prop_def(ChloComparisonDirectionAttr)
    compare_type = opt_prop_def(ChloComparisonTypeAttr)
    RESULT_PRED: ClassVar[bool] = True
    TARGET: ClassVar[str] = "xla.compare"
