"""Linear-algebra ops: Cholesky factorization, triangular solves and FFTs
(spec: Cholesky, TriangularSolve, Fft).

`xla.cholesky` and `xla.fft` use StableHLO's pretty forms
(`xla.cholesky %a, lower = true : tensor<3x3xf32>`,
`xla.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>`);
`xla.triangular_solve` is written generically, as StableHLO writes it.
All three treat leading dimensions as batch dimensions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    TensorType,
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
    FftType,
    FftTypeAttr,
    Transpose,
    TransposeAttr,
    bool_attr,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import (
    XlaOp,
    check_element_class,
    check_same_element_type,
    check_tensor,
)
from xla_dialect.syntax import (
    bool_of,
    build,
    i64_array,
    ints_of,
    parse_attr_dict,
    parse_keyword_ints,
    parse_same_or_function_type,
    print_attr_dict,
    print_attrs_and_function_type,
    print_same_or_function_type,
    resolve,
)
from xla_dialect.types import (
    dims_compatible,
    element_type_of,
    format_shape,
    format_type,
    is_complex,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Cholesky
# ---------------------------------------------------------------------------


def check_square_matrices(name: str, t: Attribute) -> None:
    """Rank >= 2 and the two minor dimensions of equal size."""
    shape = shape_of(t)
    require(
        len(shape) >= 2,
        f"{name} must have rank at least 2 (a batch of matrices), got rank {len(shape)}",
    )
    require(
        dims_compatible(shape[-1], shape[-2]),
        f"{name} shape {format_shape(shape)} must be square in its two minor dimensions",
    )


@irdl_op_definition
class CholeskyOp(XlaOp):
    """Cholesky factor of a batch of Hermitian positive definite matrices (spec: Cholesky)."""

    name = "xla.cholesky"
    SPEC_SECTION: ClassVar[str] = "Cholesky"

    a = operand_def(TensorType)
    result = result_def(TensorType)
    lower = opt_prop_def(BoolAttr)
    traits = traits_def(Pure())

    def __init__(self, a: SSAValue, lower: bool | None = None):
        props: dict[str, Attribute] = {}
        if lower is not None:
            props["lower"] = bool_attr(lower)
        super().__init__(operands=[a], result_types=[a.type], properties=props)

    def verify_(self) -> None:
        check_tensor("a", self.a.type)
        check_element_class("a", self.a.type, "float_or_complex")
        check_square_matrices("a", self.a.type)
        self.check_result_types([self.a.type])

    # `xla.cholesky %a (, lower = true)? {attrs}? : type`
    @classmethod
    def parse(cls, parser: Parser) -> CholeskyOp:
        pos = parser.pos
        a = parser.parse_unresolved_operand()
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("lower")
            parser.parse_punctuation("=")
            attrs["lower"] = bool_attr(parser.parse_boolean())
        attrs.update(parse_attr_dict(parser))
        in_types, out_types = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [a], in_types, pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.lower is not None:
            printer.print_string(f", lower = {'true' if bool_of(self.lower) else 'false'}")
        print_attr_dict(printer, self, ["lower"])
        print_same_or_function_type(printer, self)


# ---------------------------------------------------------------------------
# TriangularSolve
# ---------------------------------------------------------------------------


@irdl_op_definition
class TriangularSolveOp(XlaOp):
    """Solves `op(a) x = b` or `x op(a) = b` for a triangular `a` (spec: TriangularSolve)."""

    name = "xla.triangular_solve"
    SPEC_SECTION: ClassVar[str] = "TriangularSolve"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    left_side = prop_def(BoolAttr)
    lower = prop_def(BoolAttr)
    unit_diagonal = prop_def(BoolAttr)
    transpose_a = prop_def(TransposeAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        left_side: bool,
        lower: bool,
        unit_diagonal: bool = False,
        transpose_a: Transpose | str = Transpose.NO_TRANSPOSE,
    ):
        super().__init__(
            operands=[a, b],
            result_types=[b.type],
            properties={
                "left_side": bool_attr(left_side),
                "lower": bool_attr(lower),
                "unit_diagonal": bool_attr(unit_diagonal),
                "transpose_a": TransposeAttr(Transpose(str(transpose_a))),
            },
        )

    def verify_(self) -> None:
        check_tensor("a", self.a.type)
        check_tensor("b", self.b.type)
        check_element_class("a", self.a.type, "float_or_complex")
        check_same_element_type(["a", "b"], [self.a.type, self.b.type])
        check_square_matrices("a", self.a.type)
        a, b = shape_of(self.a.type), shape_of(self.b.type)
        require(
            len(b) == len(a),
            f"b rank {len(b)} must equal a rank {len(a)}",
        )
        require(
            all(dims_compatible(x, y) for x, y in zip(a[:-2], b[:-2])),
            f"batch dimensions of a {format_shape(a[:-2])} and b {format_shape(b[:-2])} differ",
        )
        left = bool_of(self.left_side)
        b_dim = len(b) - 2 if left else len(b) - 1
        form = "[..., M, K] (left_side = true)" if left else "[..., K, M] (left_side = false)"
        require(
            dims_compatible(b[b_dim], a[-1]),
            f"b shape {format_shape(b)} must be {form} with M = {a[-1]} from a; "
            f"dimension {b_dim} has size {b[b_dim]}",
        )
        require(
            self.transpose_a.data != Transpose.TRANSPOSE_INVALID,
            "transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, not TRANSPOSE_INVALID",
        )
        self.check_result_types([self.b.type])


# ---------------------------------------------------------------------------
# Fft
# ---------------------------------------------------------------------------


def _complex_of(t: Attribute) -> Attribute:
    return ComplexType(t)  # pyright: ignore[reportArgumentType]


def infer_fft_type(operand: Attribute, fft_type: FftType, fft_length: Sequence[int]) -> Attribute:
    """The result type of an FFT; checks the operand against the FFT type and lengths."""
    shape = shape_of(operand)
    element = element_type_of(operand)
    lengths = list(fft_length)
    require(
        1 <= len(lengths) <= 3,
        f"fft_length {fmt_list(lengths)} must have 1 to 3 entries",
    )
    require(
        len(lengths) <= len(shape),
        f"fft_length {fmt_list(lengths)} has {len(lengths)} entries but the operand has "
        f"rank {len(shape)}",
    )
    for v in lengths:
        require(v >= 0, f"fft_length {fmt_list(lengths)} has {v}; lengths must be non-negative")
    trailing = list(shape[len(shape) - len(lengths):])
    if fft_type in (FftType.FFT, FftType.IFFT):
        require(
            is_complex(element),
            f"{fft_type.value} operand element type {format_type(element)} must be complex",
        )
        expected = lengths
        result = tensor(shape, element)
    elif fft_type == FftType.RFFT:
        require(
            isinstance(element, Float32Type | Float64Type),
            f"RFFT operand element type {format_type(element)} must be f32 or f64",
        )
        expected = lengths
        last = lengths[-1]
        result = tensor((*shape[:-1], 0 if last == 0 else last // 2 + 1), _complex_of(element))
    else:
        require(
            is_complex(element),
            f"IRFFT operand element type {format_type(element)} must be complex",
        )
        last = lengths[-1]
        expected = [*lengths[:-1], 0 if last == 0 else last // 2 + 1]
        assert isinstance(element, ComplexType)
        result = tensor((*shape[:-1], last), element.element_type)
    require(
        all(dims_compatible(x, y) for x, y in zip(trailing, expected)),
        f"{fft_type.value} operand trailing dimensions {format_shape(trailing)} must be "
        f"{fmt_list(expected)} for fft_length {fmt_list(lengths)}",
    )
    return result


@irdl_op_definition
class FftOp(XlaOp):
    """Forward/inverse, complex/real Fourier transform over 1 to 3 minor axes (spec: Fft)."""

    name = "xla.fft"
    SPEC_SECTION: ClassVar[str] = "Fft"

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    fft_type = prop_def(FftTypeAttr)
    fft_length = prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, fft_type: FftType | str, fft_length: Sequence[int]):
        kind = FftType(str(fft_type))
        super().__init__(
            operands=[operand],
            result_types=[infer_fft_type(operand.type, kind, fft_length)],
            properties={"fft_type": FftTypeAttr(kind), "fft_length": i64_array(fft_length)},
        )

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        self.check_result_types(
            [infer_fft_type(self.operand.type, self.fft_type.data, ints_of(self.fft_length))]
        )

    # `xla.fft %x, type = FFT, length = [4] {attrs}? : (t) -> t2`
    @classmethod
    def parse(cls, parser: Parser) -> FftOp:
        pos = parser.pos
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("type")
        parser.parse_punctuation("=")
        kind = parser.parse_str_enum(FftType)
        parser.parse_punctuation(",")
        lengths = parse_keyword_ints(parser, "length")
        attrs: dict[str, Attribute] = {
            "fft_type": FftTypeAttr(kind),
            "fft_length": i64_array(lengths),
        }
        attrs.update(parse_attr_dict(parser))
        in_types, out_types = parse_same_or_function_type(parser, 1)
        return build(cls, resolve(parser, [x], in_types, pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(
            f", type = {self.fft_type.data.value}, length = {fmt_list(ints_of(self.fft_length))}"
        )
        print_attrs_and_function_type(printer, self, ["fft_type", "fft_length"])


OPS: tuple[type[XlaOp], ...] = (CholeskyOp, TriangularSolveOp, FftOp)
