"""Attributes of the `xla` dialect: the spec's enums and dimension-number structs.

Enums print in MLIR's opaque form, `#xla<comparison_direction LT>`, as StableHLO's
do (`#stablehlo<comparison_direction LT>`). Structs print as keyword lists,
`#xla.dot<lhs_batching_dimensions = [0], ...>`, leaving out empty fields.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    f64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    """How `compare` orders its operands; TOTALORDER is the spec's total order on floats."""

    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


class FftType(StrEnum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


class RngDistribution(StrEnum):
    UNIFORM = "UNIFORM"
    NORMAL = "NORMAL"


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


class Transpose(StrEnum):
    """`transpose_a` of `triangular_solve`."""

    TRANSPOSE_INVALID = "TRANSPOSE_INVALID"
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


class ResultAccuracyMode(StrEnum):
    """`mode` of `result_accuracy` (StableHLO)."""

    DEFAULT = "DEFAULT"
    HIGHEST = "HIGHEST"
    TOLERANCE = "TOLERANCE"


class CustomCallApiVersion(StrEnum):
    API_VERSION_UNSPECIFIED = "API_VERSION_UNSPECIFIED"
    API_VERSION_ORIGINAL = "API_VERSION_ORIGINAL"
    API_VERSION_STATUS_RETURNING = "API_VERSION_STATUS_RETURNING"
    API_VERSION_STATUS_RETURNING_UNIFIED = "API_VERSION_STATUS_RETURNING_UNIFIED"
    API_VERSION_TYPED_FFI = "API_VERSION_TYPED_FFI"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    name = "xla.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "xla.comparison_type"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    name = "xla.precision"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    name = "xla.fft_type"


@irdl_attr_definition
class RngDistributionAttr(EnumAttribute[RngDistribution], SpacedOpaqueSyntaxAttribute):
    name = "xla.rng_distribution"


@irdl_attr_definition
class RngAlgorithmAttr(EnumAttribute[RngAlgorithm], SpacedOpaqueSyntaxAttribute):
    name = "xla.rng_algorithm"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    name = "xla.transpose"


@irdl_attr_definition
class ResultAccuracyModeAttr(EnumAttribute[ResultAccuracyMode]):
    """`#xla.result_accuracy_mode<TOLERANCE>`, as StableHLO spells it in a `result_accuracy`."""

    name = "xla.result_accuracy_mode"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ResultAccuracyMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ResultAccuracyMode)


@irdl_attr_definition
class CustomCallApiVersionAttr(EnumAttribute[CustomCallApiVersion], SpacedOpaqueSyntaxAttribute):
    name = "xla.custom_call_api_version"


# ---------------------------------------------------------------------------
# Keyword structs
# ---------------------------------------------------------------------------

IntList = ArrayAttr[IntAttr]


def int_list(values: Sequence[int]) -> IntList:
    return ArrayAttr(IntAttr(v) for v in values)


@functools.cache
def _field_defaults() -> dict[str, Attribute]:
    """The default of each kind of `KeywordStructAttr` field (attributes are immutable:
    built once, not once per field of every struct read)."""
    from xdsl.dialects.builtin import NoneAttr

    return {
        "ints": int_list([]),
        "int": IntAttr(0),
        "bool": IntAttr(0),
        "attr": NoneAttr(),
        "float": FloatAttr(0.0, f64),
    }


class KeywordStructAttr(ParametrizedAttribute):
    """A struct attribute written `<key = value, ...>`.

    `FIELDS` lists (name, kind) in parameter order; kind is `ints` (an integer list,
    default empty), `int` (default 0), `bool` (default false) or `attr` (any attribute,
    `none` absent). Fields at their default are omitted when printing and may be
    omitted when parsing, as StableHLO does (unless `PRINT_ALL`: StableHLO's parser
    of that struct wants every field; an absent `attr` field still prints nothing). An f64 float prints bare (`1.0e-05`),
    as StableHLO prints its APFloat fields.
    """

    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    PRINT_ALL: ClassVar[bool] = False
    """Print every field, defaults too: upstream StableHLO requires them all in
    `channel_handle`, `output_operand_alias` and `dot_algorithm` (and rejects `<>`)."""

    @classmethod
    def _default(cls, kind: str) -> Attribute:
        return _field_defaults()[kind]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, Attribute] = {}
        kinds = dict(cls.FIELDS)

        def parse_entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in kinds:
                parser.raise_error(
                    f"unknown field '{key}' of {cls.name}; expected one of "
                    + ", ".join(kinds),
                    pos,
                )
            if key in values:
                parser.raise_error(f"field '{key}' given twice", pos)
            parser.parse_punctuation("=")
            kind = kinds[key]
            if kind == "ints":
                values[key] = int_list(
                    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
                )
            elif kind == "int":
                values[key] = IntAttr(parser.parse_integer())
            elif kind == "bool":
                values[key] = IntAttr(int(parser.parse_boolean()))
            elif kind == "float":  # a bare float, as StableHLO's APFloat parameters
                values[key] = FloatAttr(parser.parse_float(), f64)
            else:
                values[key] = parser.parse_attribute()

        # `<a = 1, b = [2]>`; a trailing comma before `>` is accepted, as StableHLO's
        # struct parser does (`#stablehlo.gather<offset_dims = [1],>`).
        parser.parse_punctuation("<")
        while parser.parse_optional_punctuation(">") is None:
            parse_entry()
            if parser.parse_optional_punctuation(",") is None:
                parser.parse_punctuation(">")
                break
        return tuple(values.get(name, cls._default(kind)) for name, kind in cls.FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        entries: list[str] = []
        for (name, kind), value in zip(self.FIELDS, self.parameters, strict=True):
            if value == self._default(kind) and not (self.PRINT_ALL and kind != "attr"):
                continue
            if kind == "ints":
                assert isinstance(value, ArrayAttr)
                entries.append(f"{name} = [{', '.join(str(v.data) for v in value.data)}]")  # pyright: ignore
            elif kind == "int":
                assert isinstance(value, IntAttr)
                entries.append(f"{name} = {value.data}")
            elif kind == "bool":
                assert isinstance(value, IntAttr)
                entries.append(f"{name} = {'true' if value.data else 'false'}")
            elif kind == "float":
                assert isinstance(value, FloatAttr)
                entries.append(f"{name} = {value.value.data:e}")
            else:
                from io import StringIO

                out = StringIO()
                if isinstance(value, FloatAttr) and isinstance(value.type, Float64Type):
                    Printer(stream=out).print_float(value.value.data, value.type)
                else:
                    Printer(stream=out).print_attribute(value)
                entries.append(f"{name} = {out.getvalue()}")
        printer.print_string("<" + ", ".join(entries) + ">")

    def field(self, name: str) -> Attribute:
        return self.parameters[[n for n, _ in self.FIELDS].index(name)]

    def ints(self, name: str) -> tuple[int, ...]:
        value = self.field(name)
        assert isinstance(value, ArrayAttr)
        return tuple(v.data for v in value.data)  # pyright: ignore

    def int_value(self, name: str) -> int:
        value = self.field(name)
        assert isinstance(value, IntAttr)
        return value.data

    @classmethod
    def make(cls, **fields: Sequence[int] | int | bool | Attribute):
        """Build from keyword fields; missing fields take their default."""
        params: list[Attribute] = []
        for name, kind in cls.FIELDS:
            value = fields.pop(name, None)
            if value is None:
                params.append(cls._default(kind))
            elif kind == "ints":
                assert not isinstance(value, Attribute | int)
                params.append(int_list(value))
            elif kind in ("int", "bool"):
                assert isinstance(value, int)
                params.append(IntAttr(int(value)))
            else:
                assert isinstance(value, Attribute)
                params.append(value)
        if fields:
            raise TypeError(f"{cls.name} has no fields {sorted(fields)}")
        return cls.new(params)


@irdl_attr_definition
class DotDimensionNumbersAttr(KeywordStructAttr):
    """`dot_dimension_numbers` of `dot_general` (spec: DotGeneral)."""

    name = "xla.dot"
    FIELDS = (
        ("lhs_batching_dimensions", "ints"),
        ("rhs_batching_dimensions", "ints"),
        ("lhs_contracting_dimensions", "ints"),
        ("rhs_contracting_dimensions", "ints"),
    )
    lhs_batching_dimensions: IntList
    rhs_batching_dimensions: IntList
    lhs_contracting_dimensions: IntList
    rhs_contracting_dimensions: IntList


@irdl_attr_definition
class GatherDimensionNumbersAttr(KeywordStructAttr):
    """`dimension_numbers` of `gather` (spec: Gather)."""

    name = "xla.gather"
    FIELDS = (
        ("offset_dims", "ints"),
        ("collapsed_slice_dims", "ints"),
        ("operand_batching_dims", "ints"),
        ("start_indices_batching_dims", "ints"),
        ("start_index_map", "ints"),
        ("index_vector_dim", "int"),
    )
    offset_dims: IntList
    collapsed_slice_dims: IntList
    operand_batching_dims: IntList
    start_indices_batching_dims: IntList
    start_index_map: IntList
    index_vector_dim: IntAttr


@irdl_attr_definition
class ScatterDimensionNumbersAttr(KeywordStructAttr):
    """`scatter_dimension_numbers` of `scatter` (spec: Scatter)."""

    name = "xla.scatter"
    FIELDS = (
        ("update_window_dims", "ints"),
        ("inserted_window_dims", "ints"),
        ("input_batching_dims", "ints"),
        ("scatter_indices_batching_dims", "ints"),
        ("scatter_dims_to_operand_dims", "ints"),
        ("index_vector_dim", "int"),
    )
    update_window_dims: IntList
    inserted_window_dims: IntList
    input_batching_dims: IntList
    scatter_indices_batching_dims: IntList
    scatter_dims_to_operand_dims: IntList
    index_vector_dim: IntAttr


@irdl_attr_definition
class ChannelHandleAttr(KeywordStructAttr):
    """`channel_handle` of send/recv and collectives."""

    name = "xla.channel_handle"
    FIELDS = (("handle", "int"), ("type", "int"))
    PRINT_ALL = True
    handle: IntAttr
    type: IntAttr


@irdl_attr_definition
class ResultAccuracyAttr(KeywordStructAttr):
    """`result_accuracy` of transcendental ops (StableHLO): tolerances or a mode."""

    name = "xla.result_accuracy"
    FIELDS = (("atol", "float"), ("rtol", "float"), ("ulps", "int"), ("mode", "attr"))
    atol: Attribute
    rtol: Attribute
    ulps: IntAttr
    mode: Attribute

    def verify(self) -> None:
        """StableHLO's rules: no negative tolerance, and none at all with mode DEFAULT
        or HIGHEST (tolerances belong to mode TOLERANCE)."""
        super().verify()
        tolerances = [a.value.data for a in (self.atol, self.rtol) if isinstance(a, FloatAttr)]
        if any(t < 0 or (t == 0 and math.copysign(1.0, t) < 0) for t in tolerances) or self.ulps.data < 0:
            raise VerifyException("Negative tolerance")
        mode = self.mode.data.value if isinstance(self.mode, ResultAccuracyModeAttr) else "DEFAULT"
        if mode in ("DEFAULT", "HIGHEST") and (any(t != 0 for t in tolerances) or self.ulps.data != 0):
            raise VerifyException(f"Invalid tolerances for ResultAccuracyAttr with mode {mode}, must be all zero.")


@irdl_attr_definition
class OutputOperandAliasAttr(KeywordStructAttr):
    """`output_operand_aliases` entry of `custom_call`."""

    name = "xla.output_operand_alias"
    PRINT_ALL = True
    FIELDS = (
        ("output_tuple_indices", "ints"),
        ("operand_index", "int"),
        ("operand_tuple_indices", "ints"),
    )
    output_tuple_indices: IntList
    operand_index: IntAttr
    operand_tuple_indices: IntList


@irdl_attr_definition
class DotAlgorithmAttr(KeywordStructAttr):
    """`algorithm` of `dot_general` (StableHLO): precision types and component counts."""

    name = "xla.dot_algorithm"
    PRINT_ALL = True
    FIELDS = (
        ("lhs_precision_type", "attr"),
        ("rhs_precision_type", "attr"),
        ("accumulation_type", "attr"),
        ("lhs_component_count", "int"),
        ("rhs_component_count", "int"),
        ("num_primitive_operations", "int"),
        ("allow_imprecise_accumulation", "bool"),
    )
    lhs_precision_type: Attribute
    rhs_precision_type: Attribute
    accumulation_type: Attribute
    lhs_component_count: IntAttr
    rhs_component_count: IntAttr
    num_primitive_operations: IntAttr
    allow_imprecise_accumulation: IntAttr


# ---------------------------------------------------------------------------
# Convolution dimension numbers: `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ConvDimensionNumbersAttr(KeywordStructAttr):
    """`dimension_numbers` of `convolution` (spec: ConvWithGeneralDimensions).

    Written in StableHLO's layout form `#xla.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`
    (the `raw` keyword form also reads).
    """

    name = "xla.conv"
    FIELDS = (
        ("input_batch_dimension", "int"),
        ("input_feature_dimension", "int"),
        ("input_spatial_dimensions", "ints"),
        ("kernel_input_feature_dimension", "int"),
        ("kernel_output_feature_dimension", "int"),
        ("kernel_spatial_dimensions", "ints"),
        ("output_batch_dimension", "int"),
        ("output_feature_dimension", "int"),
        ("output_spatial_dimensions", "ints"),
    )
    input_batch_dimension: IntAttr
    input_feature_dimension: IntAttr
    input_spatial_dimensions: IntList
    kernel_input_feature_dimension: IntAttr
    kernel_output_feature_dimension: IntAttr
    kernel_spatial_dimensions: IntList
    output_batch_dimension: IntAttr
    output_feature_dimension: IntAttr
    output_spatial_dimensions: IntList

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("raw") is not None:
            values: dict[str, Attribute] = {}
            kinds = dict(cls.FIELDS)

            def entry() -> None:
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                if kinds.get(key) == "ints":
                    values[key] = int_list(
                        parser.parse_comma_separated_list(
                            parser.Delimiter.SQUARE, parser.parse_integer
                        )
                    )
                elif key in kinds:
                    values[key] = IntAttr(parser.parse_integer())
                else:
                    parser.raise_error(f"unknown field '{key}' of {cls.name}")

            parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
            parser.parse_punctuation(">")
            return tuple(values.get(n, cls._default(k)) for n, k in cls.FIELDS)
        params = parse_conv_layout(parser)
        parser.parse_punctuation(">")
        return params.parameters

    def print_parameters(self, printer: Printer) -> None:
        if self.is_layout_printable():
            printer.print_string("<" + print_conv_layout(self) + ">")
            return
        # Ill-formed numbers (which the verifier reports) print in the raw form.
        fields: list[str] = []
        for name, kind in self.FIELDS:
            if kind == "ints":
                fields.append(f"{name} = [{', '.join(str(v) for v in self.ints(name))}]")
            else:
                fields.append(f"{name} = {self.int_value(name)}")
        printer.print_string("<raw " + ", ".join(fields) + ">")

    def is_layout_printable(self) -> bool:
        """Each part's numbers are a permutation of its positions (the layout form needs it)."""
        for prefix, a, b in (
            ("input", "input_batch_dimension", "input_feature_dimension"),
            ("kernel", "kernel_input_feature_dimension", "kernel_output_feature_dimension"),
            ("output", "output_batch_dimension", "output_feature_dimension"),
        ):
            dims = [self.int_value(a), self.int_value(b), *self.ints(f"{prefix}_spatial_dimensions")]
            if sorted(dims) != list(range(len(dims))):
                return False
        return True


def _parse_layout_part(parser: AttrParser, letters: tuple[str, str]) -> tuple[int, int, list[int]]:
    """`[b, 0, 1, f]`: positions of the two named dims and of the spatial dims."""
    pos = parser.pos

    def entry() -> str:
        number = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        return str(number) if number is not None else parser.parse_identifier()

    entries = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    found: dict[str, int] = {}
    spatial: dict[int, int] = {}
    for index, entry in enumerate(entries):
        if entry.isdigit():
            if int(entry) in spatial:
                parser.raise_error(f"spatial dimension {entry} appears twice in the layout", pos)
            spatial[int(entry)] = index
        elif entry in letters:
            if entry in found:
                parser.raise_error(f"'{entry}' appears twice in the layout", pos)
            found[entry] = index
        else:
            parser.raise_error(
                f"unexpected '{entry}' in convolution layout; expected "
                f"'{letters[0]}', '{letters[1]}' or a spatial dimension number",
                pos,
            )
    for letter in letters:
        if letter not in found:
            parser.raise_error(f"convolution layout is missing '{letter}'", pos)
    if sorted(spatial) != list(range(len(spatial))):
        parser.raise_error("spatial dimensions of the layout must be numbered 0, 1, ...", pos)
    return found[letters[0]], found[letters[1]], [spatial[i] for i in range(len(spatial))]


def parse_conv_layout(parser: AttrParser) -> ConvDimensionNumbersAttr:
    """Parse `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`."""
    ib, if_, isp = _parse_layout_part(parser, ("b", "f"))
    parser.parse_keyword("x")
    ki, ko, ksp = _parse_layout_part(parser, ("i", "o"))
    parser.parse_punctuation("->")
    ob, of, osp = _parse_layout_part(parser, ("b", "f"))
    return ConvDimensionNumbersAttr.make(
        input_batch_dimension=ib,
        input_feature_dimension=if_,
        input_spatial_dimensions=isp,
        kernel_input_feature_dimension=ki,
        kernel_output_feature_dimension=ko,
        kernel_spatial_dimensions=ksp,
        output_batch_dimension=ob,
        output_feature_dimension=of,
        output_spatial_dimensions=osp,
    )


def _layout_text(size: int, named: dict[int, str], spatial: Sequence[int]) -> str:
    slots = ["?"] * size
    for index, letter in named.items():
        slots[index] = letter
    for number, index in enumerate(spatial):
        slots[index] = str(number)
    return "[" + ", ".join(slots) + "]"


def print_conv_layout(dn: ConvDimensionNumbersAttr) -> str:
    n = len(dn.ints("input_spatial_dimensions")) + 2
    lhs = _layout_text(
        n,
        {dn.int_value("input_batch_dimension"): "b", dn.int_value("input_feature_dimension"): "f"},
        dn.ints("input_spatial_dimensions"),
    )
    rhs = _layout_text(
        len(dn.ints("kernel_spatial_dimensions")) + 2,
        {
            dn.int_value("kernel_input_feature_dimension"): "i",
            dn.int_value("kernel_output_feature_dimension"): "o",
        },
        dn.ints("kernel_spatial_dimensions"),
    )
    out = _layout_text(
        len(dn.ints("output_spatial_dimensions")) + 2,
        {dn.int_value("output_batch_dimension"): "b", dn.int_value("output_feature_dimension"): "f"},
        dn.ints("output_spatial_dimensions"),
    )
    return f"{lhs}x{rhs}->{out}"


def bool_attr(value: bool) -> BoolAttr:
    return IntegerAttr(int(value), IntegerType(1))


ALL_ATTRIBUTES: tuple[type[Attribute], ...] = (
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
    PrecisionAttr,
    FftTypeAttr,
    RngDistributionAttr,
    RngAlgorithmAttr,
    TransposeAttr,
    CustomCallApiVersionAttr,
    ResultAccuracyModeAttr,
    DotDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
    ChannelHandleAttr,
    ResultAccuracyAttr,
    OutputOperandAliasAttr,
    DotAlgorithmAttr,
    ConvDimensionNumbersAttr,
)
