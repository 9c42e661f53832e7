"""Contraction ops: dot products (spec: Dot, DotGeneral), and what convolutions
share with them (`convolution.py`: the element kinds, precision config, printing).

`xla.dot` and `xla.dot_general` sum products over contracting dimensions. Their
pretty forms are StableHLO's (`batching_dims = [0] x [0]`, `contracting_dims = [1] x [0]`).

The result element type of a contraction may differ from the operands' (StableHLO
allows e.g. `i8 x i8 -> i32` or `f32 x f32 -> f64`), but operands and result must be
of one kind: boolean (whose products may accumulate into integers), integer,
floating-point or complex.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
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
    DotAlgorithmAttr,
    DotDimensionNumbersAttr,
    Precision,
    PrecisionAttr,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import XlaOp, check_dims_in_range, check_tensor
from xla_dialect.syntax import (
    parse_attr_dict,
    parse_function_type_and_build,
    parse_int_list,
    print_function_type,
)
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_complex,
    is_dynamic,
    is_float,
    is_integer,
    is_pred,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------


def element_kind(t: Attribute) -> str | None:
    """`boolean`, `integer`, `floating-point` or `complex`; None for other types."""
    if is_pred(t):
        return "boolean"
    if is_integer(t):
        return "integer"
    if is_float(t):
        return "floating-point"
    if is_complex(t):
        return "complex"
    return None


def check_contraction_element_types(lhs: Attribute, rhs: Attribute, result: Attribute) -> None:
    """Operands of one kind; the result of that kind (boolean may accumulate into integer)."""
    lhs_e, rhs_e, res_e = element_type_of(lhs), element_type_of(rhs), element_type_of(result)
    lk, rk, ok = element_kind(lhs_e), element_kind(rhs_e), element_kind(res_e)
    require(
        lk == rk,
        f"lhs element type {format_type(lhs_e)} and rhs element type {format_type(rhs_e)} "
        "must be of the same kind (boolean, integer, floating-point or complex)",
    )
    require(
        ok == lk or (lk == "boolean" and ok == "integer"),
        f"result element type {format_type(res_e)} must be {lk} like the operands' "
        f"{format_type(lhs_e)}",
    )


def check_precision_config(attr: ArrayAttr[PrecisionAttr] | None) -> None:
    if attr is not None:
        require(
            len(attr.data) <= 2,
            f"precision_config has {len(attr.data)} entries; expected at most 2 (lhs, rhs)",
        )


def precision_array(values: Sequence[Precision | str]) -> ArrayAttr[PrecisionAttr]:
    return ArrayAttr(PrecisionAttr(Precision(str(v))) for v in values)


def parse_precision_list(parser: Parser) -> ArrayAttr[PrecisionAttr]:
    """`[DEFAULT, HIGHEST]`."""

    def entry() -> PrecisionAttr:
        return PrecisionAttr(parser.parse_str_enum(Precision))

    return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry))


def precision_text(attr: ArrayAttr[PrecisionAttr]) -> str:
    return "[" + ", ".join(str(p.data.value) for p in attr.data) + "]"


def _size(a: int, b: int) -> int:
    """The known one of two compatible sizes."""
    return b if is_dynamic(a) else a


def same_size(a: int, b: int) -> bool:
    return a == b or is_dynamic(a) or is_dynamic(b)


# ---------------------------------------------------------------------------
# Dot
# ---------------------------------------------------------------------------


def infer_dot_shape(lhs: Sequence[int], rhs: Sequence[int]) -> tuple[int, ...]:
    """`[n]·[n] -> []`, `[m, k]·[k] -> [m]`, `[k]·[k, n] -> [n]`, `[m, k]·[k, n] -> [m, n]`."""
    require(
        len(lhs) in (1, 2),
        f"lhs must be a vector or a matrix (rank 1 or 2), got rank {len(lhs)}",
    )
    require(
        len(rhs) in (1, 2),
        f"rhs must be a vector or a matrix (rank 1 or 2), got rank {len(rhs)}",
    )
    require(
        same_size(lhs[-1], rhs[0]),
        f"contracting dimension sizes differ: lhs dimension {len(lhs) - 1} has size "
        f"{lhs[-1]}, rhs dimension 0 has size {rhs[0]}",
    )
    return (*lhs[:-1], *rhs[1:])


@irdl_op_definition
class DotOp(XlaOp):
    """Vector/matrix product over the last lhs and the first rhs dimension (spec: Dot)."""

    name = "xla.dot"
    SPEC_SECTION: ClassVar[str] = "Dot"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        precision_config: Sequence[Precision | str] | None = None,
        result_element_type: Attribute | None = None,
    ):
        shape = infer_dot_shape(shape_of(lhs.type), shape_of(rhs.type))
        element = result_element_type or element_type_of(lhs.type)
        props: dict[str, Attribute] = {}
        if precision_config is not None:
            props["precision_config"] = precision_array(precision_config)
        super().__init__(
            operands=[lhs, rhs], result_types=[tensor(shape, element)], properties=props
        )

    def verify_(self) -> None:
        check_tensor("lhs", self.lhs.type)
        check_tensor("rhs", self.rhs.type)
        check_tensor("result", self.result.type)
        check_contraction_element_types(self.lhs.type, self.rhs.type, self.result.type)
        check_precision_config(self.precision_config)
        shape = infer_dot_shape(shape_of(self.lhs.type), shape_of(self.rhs.type))
        self.check_result_types([tensor(shape, element_type_of(self.result.type))])

    # `xla.dot %a, %b (, precision = [..])? {attrs}? : (t1, t2) -> t3`
    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        pos = parser.pos
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("precision")
            parser.parse_punctuation("=")
            attrs["precision_config"] = parse_precision_list(parser)
        attrs.update(parse_attr_dict(parser))
        return parse_function_type_and_build(parser, cls, [lhs, rhs], pos, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.precision_config is not None:
            printer.print_string(", precision = " + precision_text(self.precision_config))
        print_rest(printer, self, ["precision_config"])


def print_rest(printer: Printer, op: XlaOp, elided: Sequence[str]) -> None:
    """Remaining properties/attributes as a sorted ` {...}`, then ` : (..) -> ..`."""
    merged = {k: v for k, v in op.properties.items() if k not in elided}
    merged.update({k: v for k, v in op.attributes.items() if k not in elided})
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(merged.items())))
    printer.print_string(" : ")
    print_function_type(printer, op.operand_types, op.result_types)


# ---------------------------------------------------------------------------
# DotGeneral
# ---------------------------------------------------------------------------


def infer_dot_general_shape(
    lhs: Sequence[int], rhs: Sequence[int], dn: DotDimensionNumbersAttr
) -> tuple[int, ...]:
    """Batch dims, then lhs free dims, then rhs free dims; checks every rule on the way."""
    lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
    lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
    require(
        len(lb) == len(rb),
        f"lhs_batching_dimensions {fmt_list(lb)} and rhs_batching_dimensions "
        f"{fmt_list(rb)} must have the same number of dimensions",
    )
    require(
        len(lc) == len(rc),
        f"lhs_contracting_dimensions {fmt_list(lc)} and rhs_contracting_dimensions "
        f"{fmt_list(rc)} must have the same number of dimensions",
    )
    check_dims_in_range("lhs_batching_dimensions", lb, len(lhs))
    check_dims_in_range("rhs_batching_dimensions", rb, len(rhs))
    check_dims_in_range("lhs_contracting_dimensions", lc, len(lhs))
    check_dims_in_range("rhs_contracting_dimensions", rc, len(rhs))
    for side, batch, contract in (("lhs", lb, lc), ("rhs", rb, rc)):
        common = sorted(set(batch) & set(contract))
        require(
            not common,
            f"{side}_batching_dimensions {fmt_list(batch)} and {side}_contracting_dimensions "
            f"{fmt_list(contract)} share dimensions {fmt_list(common)}",
        )
    for kind, ld, rd in (("batching", lb, rb), ("contracting", lc, rc)):
        for a, b in zip(ld, rd):
            require(
                same_size(lhs[a], rhs[b]),
                f"{kind} dimension sizes differ: lhs dimension {a} has size {lhs[a]}, "
                f"rhs dimension {b} has size {rhs[b]}",
            )
    batch = [_size(lhs[a], rhs[b]) for a, b in zip(lb, rb)]
    lhs_free = [s for i, s in enumerate(lhs) if i not in lb and i not in lc]
    rhs_free = [s for i, s in enumerate(rhs) if i not in rb and i not in rc]
    return (*batch, *lhs_free, *rhs_free)


def check_dot_algorithm(algorithm: DotAlgorithmAttr | None) -> None:
    if algorithm is None:
        return
    for field in ("lhs_precision_type", "rhs_precision_type", "accumulation_type"):
        require(
            isinstance(algorithm.field(field), TypeAttribute),
            f"algorithm {field} must be a type",
        )
    for field in ("lhs_component_count", "rhs_component_count", "num_primitive_operations"):
        value = algorithm.int_value(field)
        require(value >= 1, f"algorithm {field} is {value}; it must be at least 1")
    lhs, rhs, accumulation = (
        _algorithm_kind(algorithm.field(f)) for f in ("lhs_precision_type", "rhs_precision_type", "accumulation_type")
    )
    counts = (algorithm.int_value("lhs_component_count"), algorithm.int_value("rhs_component_count"))
    operations = algorithm.int_value("num_primitive_operations")
    known = KNOWN_DOT_ALGORITHMS.get((lhs, rhs, accumulation), ())
    # As StableHLO: imprecise accumulation is known only for f8 x f8 -> f32.
    imprecise = isinstance(algorithm.field("allow_imprecise_accumulation"), IntAttr) and bool(
        algorithm.int_value("allow_imprecise_accumulation")
    )
    require(
        counts == (1, 1) and operations in known and (not imprecise or (lhs, rhs, accumulation) == ("f8", "f8", "f32")),
        f"dot algorithm not known to be supported on any hardware: {{lhs: {lhs}, rhs: {rhs}, "
        f"accumulation: {accumulation}, lhs_components: {counts[0]}, rhs_components: {counts[1]}, "
        f"num_primitive_operations: {operations}" + (", allow_imprecise_accumulation: true}" if imprecise else "}"),
    )


KNOWN_DOT_ALGORITHMS: dict[tuple[str, str, str], tuple[int, ...]] = {
    ("f8", "f8", "f32"): (1,),
    ("f16", "f16", "f16"): (1,),
    ("f16", "f16", "f32"): (1,),
    ("bf16", "bf16", "bf16"): (1,),
    ("bf16", "bf16", "f32"): (1, 3, 6, 9),
    ("tf32", "tf32", "f32"): (1, 3),
    ("f32", "f32", "f32"): (1,),
    ("f64", "f64", "f64"): (1,),
}
"""StableHLO's known dot algorithms (its `DotAlgorithmPreset`s): (lhs, rhs,
accumulation) precision types and the primitive operation counts allowed, one
component each; "f8" stands for any f8 type."""


def _algorithm_kind(t: Attribute) -> str:
    name = str(t)
    return "f8" if name.startswith("f8") else name


def check_precision_with_algorithm(precision: ArrayAttr[PrecisionAttr] | None, algorithm: object) -> None:
    """As StableHLO: an algorithm fixes the precision, so precision_config stays DEFAULT."""
    if algorithm is None or precision is None:
        return
    require(
        all(p.data == Precision.DEFAULT for p in precision.data),
        "must specify DEFAULT precision_config when algorithm is set",
    )


@irdl_op_definition
class DotGeneralOp(XlaOp):
    """Dot with explicit batching and contracting dimensions (spec: DotGeneral)."""

    name = "xla.dot_general"
    SPEC_SECTION: ClassVar[str] = "DotGeneral"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    algorithm = opt_prop_def(DotAlgorithmAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        lhs_contracting_dimensions: Sequence[int],
        rhs_contracting_dimensions: Sequence[int],
        lhs_batching_dimensions: Sequence[int] = (),
        rhs_batching_dimensions: Sequence[int] = (),
        precision_config: Sequence[Precision | str] | None = None,
        algorithm: DotAlgorithmAttr | None = None,
        result_element_type: Attribute | None = None,
    ):
        dn = DotDimensionNumbersAttr.make(
            lhs_batching_dimensions=list(lhs_batching_dimensions),
            rhs_batching_dimensions=list(rhs_batching_dimensions),
            lhs_contracting_dimensions=list(lhs_contracting_dimensions),
            rhs_contracting_dimensions=list(rhs_contracting_dimensions),
        )
        shape = infer_dot_general_shape(shape_of(lhs.type), shape_of(rhs.type), dn)
        props: dict[str, Attribute] = {"dot_dimension_numbers": dn}
        if precision_config is not None:
            props["precision_config"] = precision_array(precision_config)
        if algorithm is not None:
            props["algorithm"] = algorithm
        element = result_element_type or element_type_of(lhs.type)
        super().__init__(
            operands=[lhs, rhs], result_types=[tensor(shape, element)], properties=props
        )

    def verify_(self) -> None:
        check_tensor("lhs", self.lhs.type)
        check_tensor("rhs", self.rhs.type)
        check_tensor("result", self.result.type)
        check_contraction_element_types(self.lhs.type, self.rhs.type, self.result.type)
        check_precision_config(self.precision_config)
        check_dot_algorithm(self.algorithm)
        check_precision_with_algorithm(self.precision_config, self.algorithm)
        shape = infer_dot_general_shape(
            shape_of(self.lhs.type), shape_of(self.rhs.type), self.dot_dimension_numbers
        )
        self.check_result_types([tensor(shape, element_type_of(self.result.type))])

    # `xla.dot_general %a, %b, (batching_dims = [..] x [..],)? contracting_dims = [..] x [..]
    #   (, precision = [..])? (, algorithm = <..>)? {attrs}? : (t1, t2) -> t3`
    @classmethod
    def parse(cls, parser: Parser) -> DotGeneralOp:
        pos = parser.pos
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs: dict[str, Attribute] = {}
        dims: dict[str, list[int]] = {}
        while parser.parse_optional_punctuation(",") is not None:
            key_pos = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key in ("batching_dims", "contracting_dims") and key not in dims:
                prefix = key.removesuffix("_dims")
                dims[f"lhs_{prefix}_dimensions"] = parse_int_list(parser)
                parser.parse_keyword("x")
                dims[f"rhs_{prefix}_dimensions"] = parse_int_list(parser)
                dims[key] = []
            elif key == "precision" and "precision_config" not in attrs:
                attrs["precision_config"] = parse_precision_list(parser)
            elif key == "algorithm" and "algorithm" not in attrs:
                attrs["algorithm"] = DotAlgorithmAttr.new(
                    DotAlgorithmAttr.parse_parameters(parser)
                )
            else:
                parser.raise_error(
                    f"unexpected '{key}'; expected batching_dims, contracting_dims, "
                    "precision or algorithm, each at most once",
                    key_pos,
                    parser.pos,
                )
        if "contracting_dims" in dims or "batching_dims" in dims:
            attrs["dot_dimension_numbers"] = DotDimensionNumbersAttr.make(
                **{k: v for k, v in dims.items() if k.endswith("_dimensions")}
            )
        attrs.update(parse_attr_dict(parser))
        return parse_function_type_and_build(parser, cls, [lhs, rhs], pos, attrs)

    def print(self, printer: Printer) -> None:
        dn = self.dot_dimension_numbers
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
        if lb or rb:
            printer.print_string(f", batching_dims = {fmt_list(lb)} x {fmt_list(rb)}")
        lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
        printer.print_string(f", contracting_dims = {fmt_list(lc)} x {fmt_list(rc)}")
        if self.precision_config is not None:
            printer.print_string(", precision = " + precision_text(self.precision_config))
        if self.algorithm is not None:
            printer.print_string(", algorithm = ")
            self.algorithm.print_parameters(printer)
        print_rest(printer, self, ["dot_dimension_numbers", "precision_config", "algorithm"])


OPS: tuple[type[XlaOp], ...] = (DotOp, DotGeneralOp)
