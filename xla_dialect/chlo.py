"""The `chlo` dialect: XLA client-library ops that JAX exports next to StableHLO.

CHLO ("client HLO") ops are compositions of HLO ops that the client library
(XlaBuilder's `math.h`, `TopK`, `RaggedDot`, ...) would otherwise expand itself.
They are defined here with CHLO's own syntax so StableHLO modules that contain
them read as they are; `xla-decompose-chlo` (passes/decompose_chlo.py) rewrites
every one of them into `xla` ops before `convert-xla-to-linalg`, so nothing
after that pass knows about this dialect.

Syntax (as openxla/stablehlo's ChloOps.td prints it):

* unary element-wise: `%r = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`;
* binary element-wise (same shapes): `chlo.next_after %a, %b : tensor<2xf32>,
  tensor<2xf32> -> tensor<2xf32>` (also `polygamma`, `zeta`, `mulhi`);
* broadcasting binary: `chlo.broadcast_add %a, %b {broadcast_dimensions =
  array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>`
  (numpy-style prefix padding unless `broadcast_dimensions` says otherwise);
* `chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)`;
* `chlo.scan(%in) inits(%init) dimension=0 {^bb0(...): ...} : (...) -> (...)`;
* `chlo.ragged_dot` in the generic form with `#chlo.ragged_dot<...>`.

Element types follow ChloOps.td: the special functions take floats (f16, bf16,
f32, f64), the trigonometric/hyperbolic ones also complex numbers, `mulhi`
integers. Attributes are properties (MLIR's inherent attributes), so the generic
form spells them `<{...}>`; `{...}` in the generic form is read as properties too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure, RecursiveMemoryEffect

from xla_dialect.attributes import (
    ComparisonDirection,
    ComparisonType,
    IntList,
    KeywordStructAttr,
    Precision,
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
    is_complex,
    is_dynamic,
    is_float,
    is_int_or_pred,
    is_integer,
    is_tensor,
    rank_of,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ChloComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_direction LT>`."""

    name = "chlo.comparison_direction"


@irdl_attr_definition
class ChloComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_type FLOAT>`."""

    name = "chlo.comparison_type"


@irdl_attr_definition
class ChloPrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision DEFAULT>`."""

    name = "chlo.precision"


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(KeywordStructAttr):
    """`#chlo.ragged_dot<lhs_batching_dimensions = [...], ..., rhs_group_dimensions = [...]>`."""

    name = "chlo.ragged_dot"
    FIELDS = (
        ("lhs_batching_dimensions", "ints"),
        ("rhs_batching_dimensions", "ints"),
        ("lhs_contracting_dimensions", "ints"),
        ("rhs_contracting_dimensions", "ints"),
        ("lhs_ragged_dimensions", "ints"),
        ("rhs_group_dimensions", "ints"),
    )
    lhs_batching_dimensions: IntList
    rhs_batching_dimensions: IntList
    lhs_contracting_dimensions: IntList
    rhs_contracting_dimensions: IntList
    lhs_ragged_dimensions: IntList
    rhs_group_dimensions: IntList


# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------

_ELEMENT_CLASSES: dict[str, tuple[str, object]] = {
    "float": ("a float (f16, bf16, f32, f64)", is_float),
    "float_or_complex": ("a float or complex", lambda t: is_float(t) or is_complex(t)),
    "integer": ("an integer", is_integer),
    "int_or_pred": ("an integer or pred", is_int_or_pred),
    "any": ("an element type", lambda t: True),
}


def _check_element(name: str, t: Attribute, kind: str) -> None:
    require(is_tensor(t), f"{name} must be a ranked tensor, got {format_type(t)}")
    description, predicate = _ELEMENT_CLASSES[kind]
    element = element_type_of(t)
    require(
        bool(predicate(element)),  # pyright: ignore[reportCallIssue]
        f"{name} element type {format_type(element)} is not {description}",
    )


def _check_same_type(names: Sequence[str], types: Sequence[Attribute]) -> None:
    for name, t in zip(names[1:], types[1:]):
        require(
            t == types[0],
            f"{name} type {format_type(t)} differs from {names[0]} type {format_type(types[0])}",
        )


class ChloOp(IRDLOperation):
    """Base of the `chlo` ops (a marker: the decomposition pass matches on it)."""


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
        _check_element("operand", self.operand.type, self.OPERAND_TYPES)
        want = self.infer_result_type(self.operand.type)
        require(
            self.result.type == want,
            f"result type {format_type(self.result.type)} does not match the inferred "
            f"{format_type(want)}",
        )

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
        _check_element("lhs", self.lhs.type, self.OPERAND_TYPES)
        _check_same_type(
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
        _check_element("lhs", self.lhs.type, self.OPERAND_TYPES)
        _check_element("rhs", self.rhs.type, self.OPERAND_TYPES)
        require(
            element_type_of(self.lhs.type) == element_type_of(self.rhs.type),
            f"rhs element type {format_type(element_type_of(self.rhs.type))} differs from "
            f"lhs element type {format_type(element_type_of(self.lhs.type))}",
        )
        shape = broadcast_result_shape(shape_of(self.lhs.type), shape_of(self.rhs.type), self.dims())
        want = tensor(shape, self.result_element())
        require(
            self.result.type == want,
            f"result type {format_type(self.result.type)} does not match the inferred "
            f"{format_type(want)}",
        )

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


# ---------------------------------------------------------------------------
# top_k
# ---------------------------------------------------------------------------


@irdl_op_definition
class TopKOp(ChloOp):
    """`chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)`:
    the k largest entries along the last dimension, largest first, with their i32
    indices; equal values keep the lower index first (XLA's TopK)."""

    name = "chlo.top_k"
    operand = operand_def(TensorType)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    k = prop_def(IntegerAttr[IntegerType])
    is_stable = opt_prop_def(IntegerAttr[IntegerType])
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, k: int):
        shape = list(shape_of(operand.type))
        shape[-1] = k
        super().__init__(
            operands=[operand],
            result_types=[tensor(shape, element_type_of(operand.type)), tensor(shape, i32)],
            properties={"k": IntegerAttr(k, i64)},
        )

    def verify_(self) -> None:
        _check_element("operand", self.operand.type, "any")
        shape = shape_of(self.operand.type)
        k = self.k.value.data
        require(len(shape) >= 1, "operand must have rank >= 1")
        require(k >= 0, f"k {k} must be non-negative")
        last = shape[-1]
        require(
            is_dynamic(last) or k <= last,
            f"k {k} exceeds the last dimension size {last} of the operand",
        )
        out = (*shape[:-1], k)
        want_values = tensor(out, element_type_of(self.operand.type))
        require(
            self.values.type == want_values,
            f"values type {format_type(self.values.type)} does not match the inferred "
            f"{format_type(want_values)}",
        )
        want_indices = tensor(out, i32)
        require(
            self.indices.type == want_indices,
            f"indices type {format_type(self.indices.type)} does not match the inferred "
            f"{format_type(want_indices)}",
        )

    @classmethod
    def parse(cls, parser: Parser) -> TopKOp:
        pos = parser.pos
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        attrs: dict[str, Attribute] = {"k": IntegerAttr(parser.parse_integer(), i64)}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            attrs["is_stable"] = IntegerAttr(int(parser.parse_boolean()), i1)
        parser.parse_punctuation(")")
        attrs.update(parse_attr_dict(parser))
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_types = parse_result_types(parser)
        return build(cls, resolve(parser, [operand], [in_type], pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(f", is_stable = {'true' if self.is_stable.value.data else 'false'}")
        printer.print_string(")")
        print_attr_dict(printer, self, ["k", "is_stable"])
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")


# ---------------------------------------------------------------------------
# scan
# ---------------------------------------------------------------------------


@irdl_op_definition
class ScanOp(ChloOp):
    """`chlo.scan(%inputs) inits(%inits) dimension=d {body} : (...) -> (...)`.

    Walks `dimension` (backwards if `is_reverse`), calling `body` on the inputs'
    slices at each position followed by the carries; the body returns the
    outputs' slices at that position followed by the new carries. The results are
    the outputs (the slices stacked along `dimension`) then the final carries."""

    name = "chlo.scan"
    inputs = var_operand_def(TensorType)
    inits = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    carries = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    scan_dim_size = opt_prop_def(IntegerAttr[IntegerType])
    is_reverse = opt_prop_def(BoolAttr)
    is_associative = opt_prop_def(BoolAttr)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def reverse(self) -> bool:
        return self.is_reverse is not None and bool(self.is_reverse.value.data)

    def scan_length(self) -> int | None:
        """The size of the scanned dimension (None when it is unknown)."""
        if self.scan_dim_size is not None:
            return self.scan_dim_size.value.data
        for t in (*self.inputs.types, *self.outputs.types):
            size = shape_of(t)[self.dim]
            if not is_dynamic(size):
                return size
        return None

    def verify_(self) -> None:
        dim = self.dim
        require(dim >= 0, f"dimension {dim} must be non-negative")
        require(len(self.inputs) + len(self.outputs) > 0, "at least one of inputs or outputs must be present")
        size = self.scan_dim_size.value.data if self.scan_dim_size is not None else None
        for i, t in enumerate(self.inputs.types):
            _check_element(f"input #{i}", t, "any")
            require(dim < rank_of(t), f"dimension {dim} is out of range for input #{i} of rank {rank_of(t)}")
            s = shape_of(t)[dim]
            if not is_dynamic(s):
                require(size is None or size == s, f"input #{i} has scan dimension size {s}, expected {size}")
                size = s
        block = self.body.blocks.first
        require(block is not None, "body must have a block")
        assert block is not None
        n_in, n_carry = len(self.inputs), len(self.inits)
        require(
            len(block.args) == n_in + n_carry,
            f"body takes {len(block.args)} arguments, expected {n_in + n_carry} "
            "(one per input, then one per init)",
        )
        for i, (arg, t) in enumerate(zip(block.args, [*self.inputs.types, *self.inits.types])):
            want = t
            if i < n_in:
                shape = list(shape_of(t))
                del shape[dim]
                want = tensor(shape, element_type_of(t))
            require(
                arg.type == want,
                f"body argument #{i} has type {format_type(arg.type)}, expected {format_type(want)}",
            )
        last = block.last_op
        require(last is not None, "body must end in a return")
        assert last is not None
        returned = list(last.operand_types)
        n_out = len(self.outputs)
        require(
            len(returned) == n_out + n_carry,
            f"body returns {len(returned)} values, expected {n_out + n_carry} "
            "(one per output, then one per carry)",
        )
        for i, (t, init) in enumerate(zip(returned[n_out:], self.inits.types)):
            require(t == init, f"body carry #{i} has type {format_type(t)}, init has {format_type(init)}")
        for i, (t, c) in enumerate(zip(returned[n_out:], self.carries.types)):
            require(t == c, f"carry result #{i} has type {format_type(c)}, body returns {format_type(t)}")
        for i, (t, out) in enumerate(zip(returned[:n_out], self.outputs.types)):
            require(
                is_tensor(out) and rank_of(out) == rank_of(t) + 1 and dim <= rank_of(t),
                f"output #{i} type {format_type(out)} must add dimension {dim} to the body's "
                f"{format_type(t)}",
            )
            shape = list(shape_of(out))
            out_size = shape.pop(dim)
            require(
                tuple(shape) == shape_of(t) and element_type_of(out) == element_type_of(t),
                f"output #{i} type {format_type(out)} must add dimension {dim} to the body's "
                f"{format_type(t)}",
            )
            if size is not None and not is_dynamic(out_size):
                require(out_size == size, f"output #{i} has scan dimension size {out_size}, expected {size}")

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        pos = parser.pos
        inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("inits")
        inits = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        attrs: dict[str, Attribute] = {"dimension": IntegerAttr(parser.parse_integer(), i64)}
        extra = parser.parse_optional_attr_dict_with_keyword()
        if extra is not None:
            attrs.update(extra.data)
        body = parser.parse_region()
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        n_in, n_carry = len(inputs), len(inits)
        if len(in_types) != n_in + n_carry:
            parser.raise_error("operand types must match the number of inputs and inits", pos, parser.pos)
        if len(out_types) < n_carry:
            parser.raise_error("not enough result types to cover the carries", pos, parser.pos)
        values = resolve(parser, [*inputs, *inits], in_types, pos)
        n_out = len(out_types) - n_carry
        return build(
            cls,
            [values[:n_in], values[n_in:]],
            [out_types[:n_out], out_types[n_out:]],
            attrs,
            [body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        print_operands(printer, self.inputs)
        printer.print_string(") inits(")
        print_operands(printer, self.inits)
        printer.print_string(f") dimension={self.dim}")
        skip = {"dimension", "operandSegmentSizes", "resultSegmentSizes"}
        attrs = {k: v for k, v in {**self.properties, **self.attributes}.items() if k not in skip}
        if attrs:
            printer.print_string(" attributes ")
            printer.print_attr_dict(attrs)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)


# ---------------------------------------------------------------------------
# ragged_dot
# ---------------------------------------------------------------------------


def ragged_dot_mode(dn: RaggedDotDimensionNumbersAttr) -> str:
    """`non_contracting` (mode 1), `contracting` (mode 2) or `batch` (mode 3): the kind
    of the lhs ragged dimension."""
    ragged = dn.ints("lhs_ragged_dimensions")[0]
    if ragged in dn.ints("lhs_batching_dimensions"):
        return "batch"
    if ragged in dn.ints("lhs_contracting_dimensions"):
        return "contracting"
    return "non_contracting"


def infer_ragged_dot_shape(
    lhs: Sequence[int], rhs: Sequence[int], group_sizes: Sequence[int], dn: RaggedDotDimensionNumbersAttr
) -> tuple[int, ...]:
    """Checks CHLO's ragged-dot rules and returns the result shape."""
    lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
    lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
    ragged, groups = dn.ints("lhs_ragged_dimensions"), dn.ints("rhs_group_dimensions")
    check_dims_in_range("lhs_batching_dimensions", lb, len(lhs))
    check_dims_in_range("rhs_batching_dimensions", rb, len(rhs))
    check_dims_in_range("lhs_contracting_dimensions", lc, len(lhs))
    check_dims_in_range("rhs_contracting_dimensions", rc, len(rhs))
    require(len(lb) == len(rb), "lhs and rhs must have the same number of batching dimensions")
    require(len(lc) == len(rc), "lhs and rhs must have the same number of contracting dimensions")
    require(not set(lb) & set(lc), "lhs batching and contracting dimensions overlap")
    require(not set(rb) & set(rc), "rhs batching and contracting dimensions overlap")
    for a, b in zip(lb, rb):
        require(lhs[a] == rhs[b], f"batching dimension sizes differ: lhs {lhs[a]} vs rhs {rhs[b]}")
    for a, b in zip(lc, rc):
        require(lhs[a] == rhs[b], f"contracting dimension sizes differ: lhs {lhs[a]} vs rhs {rhs[b]}")
    require(len(ragged) == 1, "there must be exactly one ragged dimension in the lhs")
    check_dims_in_range("lhs_ragged_dimensions", ragged, len(lhs))
    check_dims_in_range("rhs_group_dimensions", groups, len(rhs))
    require(not set(groups) & (set(rb) | set(rc)), "rhs_group_dimensions overlap batching or contracting dimensions")
    require(len(group_sizes) >= 1, "group_sizes must have rank >= 1")
    g = group_sizes[-1]
    mode = ragged_dot_mode(dn)
    r = ragged[0]
    if mode == "non_contracting":
        require(
            len(groups) == 1,
            "there must be exactly one group dimension in the rhs when the lhs ragged "
            "dimension is non-contracting",
        )
        require(rhs[groups[0]] == g, f"rhs group dimension has size {rhs[groups[0]]}, expected {g}")
        prefix = [*lb, *[d for d in range(r) if d not in lb and d not in lc]]
    else:
        require(
            not groups,
            "there must be no group dimension in the rhs when the ragged dimension is "
            "batch or contracting",
        )
        prefix = list(lb[: lb.index(r)]) if mode == "batch" else [*lb, *lc[: lc.index(r)]]
    if len(group_sizes) != 1:
        want = [lhs[d] for d in prefix]
        require(
            list(group_sizes[:-1]) == want,
            f"group_sizes has shape {fmt_list(group_sizes)}, expected {fmt_list([*want, g])}",
        )
    out = [g] if mode == "contracting" else []
    out += [lhs[d] for d in lb]
    out += [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    out += [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc and d not in groups]
    return tuple(out)


@irdl_op_definition
class RaggedDotOp(ChloOp):
    """A dot_general whose lhs ragged dimension is split into groups of
    `group_sizes` rows (CHLO's three modes: ragged non-contracting dimension with an
    rhs group dimension; ragged contracting dimension giving one result per group;
    ragged batch dimension)."""

    name = "chlo.ragged_dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    group_sizes = operand_def(TensorType)
    result = result_def(TensorType)
    ragged_dot_dimension_numbers = prop_def(RaggedDotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_element("lhs", self.lhs.type, "any")
        _check_element("rhs", self.rhs.type, "any")
        _check_element("group_sizes", self.group_sizes.type, "integer")
        if self.precision_config is not None:
            require(
                len(self.precision_config.data) in (0, 2)
                and all(isinstance(p, ChloPrecisionAttr) for p in self.precision_config.data),
                "precision_config must hold two #chlo<precision ...> values",
            )
        shape = infer_ragged_dot_shape(
            shape_of(self.lhs.type),
            shape_of(self.rhs.type),
            shape_of(self.group_sizes.type),
            self.ragged_dot_dimension_numbers,
        )
        require(
            shape_of(self.result.type) == shape,
            f"result shape {fmt_list(shape_of(self.result.type))} does not match the inferred "
            f"{fmt_list(shape)}",
        )


OPS: tuple[type[Operation], ...] = (
    *UNARY_OPS.values(),
    *BINARY_OPS.values(),
    *BROADCAST_OPS.values(),
    BroadcastCompareOp,
    TopKOp,
    ScanOp,
    RaggedDotOp,
)

CHLO = Dialect(
    "chlo",
    list(OPS),
    [ChloComparisonDirectionAttr, ChloComparisonTypeAttr, ChloPrecisionAttr, RaggedDotDimensionNumbersAttr],
)

__all__ = [
    "BINARY_OPS",
    "BROADCAST_OPS",
    "CHLO",
    "UNARY_OPS",
    "BroadcastCompareOp",
    "ChloBinaryOp",
    "ChloBroadcastBinaryOp",
    "ChloOp",
    "ChloUnaryOp",
    "RaggedDotDimensionNumbersAttr",
    "RaggedDotOp",
    "ScanOp",
    "TopKOp",
    "broadcast_result_shape",
    "infer_ragged_dot_shape",
    "operand_broadcast_dims",
    "ragged_dot_mode",
]
