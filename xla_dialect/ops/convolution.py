"""Convolution (spec: ConvWithGeneralPadding, Conv).

`xla.convolution` slides a kernel over a padded, dilated base area. Its pretty
form is StableHLO's (`dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`,
`window = {stride = [..], pad = [[..]], ...}`). The spec's `Conv` shorthand
(padding given as SAME or VALID) is the builder `conv_with_padding_mode`, and the
pretty form accepts `pad = SAME` / `pad = VALID`, resolved to explicit padding
when the op is parsed (it prints back as `pad = [[lo, hi], ...]`). Element kinds
and precision config follow the dot products' rules (`contraction.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
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
    ConvDimensionNumbersAttr,
    Precision,
    PrecisionAttr,
    parse_conv_layout,
    print_conv_layout,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import XlaOp, check_dims_in_range, check_tensor
from xla_dialect.ops.contraction import (
    check_contraction_element_types,
    check_precision_config,
    precision_array,
    print_rest,
    same_size,
)
from xla_dialect.syntax import (
    build,
    i64_array,
    ints_of,
    parse_attr_dict,
    parse_function_type,
    parse_int_list,
    resolve,
)
from xla_dialect.types import (
    DYNAMIC_INDEX,
    element_type_of,
    format_type,
    is_dynamic,
    is_tensor,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Convolution
# ---------------------------------------------------------------------------

PaddingMode = str
"""`"SAME"` or `"VALID"`: the spec's `Conv` padding shorthand."""


def _dilated(size: int, dilation: int) -> int:
    if is_dynamic(size):
        return DYNAMIC_INDEX
    return 0 if size == 0 else (size - 1) * dilation + 1


def num_windows(
    input_size: int, window_size: int, stride: int, pad: tuple[int, int], lhs_dil: int, rhs_dil: int
) -> int:
    """Valid placements of a window along one spatial dimension (StableHLO's formula)."""
    if is_dynamic(input_size) or is_dynamic(window_size):
        return DYNAMIC_INDEX
    padded = pad[0] + _dilated(input_size, lhs_dil) + pad[1]
    window = _dilated(window_size, rhs_dil)
    if padded <= 0 or window > padded:
        return 0
    return (padded - window) // stride + 1


def padding_for_mode(
    input_sizes: Sequence[int],
    window_sizes: Sequence[int],
    strides: Sequence[int],
    mode: PaddingMode,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """Explicit (low, high) padding for the spec's SAME / VALID shorthand.

    VALID is no padding. SAME pads so that, with stride 1, the output has the input's
    size: for the (dilated) input size `n`, window size `w` and stride `s`, the output
    has `ceil(n / s)` windows and `max(0, (ceil(n / s) - 1) * s + w - n)` padding is split
    with the smaller half low.
    """
    n = len(input_sizes)
    lhs_dilation = list(lhs_dilation) if lhs_dilation is not None else [1] * n
    rhs_dilation = list(rhs_dilation) if rhs_dilation is not None else [1] * n
    if mode == "VALID":
        return [(0, 0)] * n
    if mode != "SAME":
        raise ValueError(f"padding mode must be SAME or VALID, got {mode!r}")
    if not (len(window_sizes) == len(strides) == len(lhs_dilation) == len(rhs_dilation) == n):
        raise ValueError("SAME padding needs one stride, window size and dilation per spatial dimension")
    pads: list[tuple[int, int]] = []
    for size, window, stride, ld, rd in zip(
        input_sizes, window_sizes, strides, lhs_dilation, rhs_dilation, strict=True
    ):
        if is_dynamic(size) or is_dynamic(window):
            raise ValueError("SAME padding needs static spatial sizes")
        if stride < 1 or ld < 1 or rd < 1:
            raise ValueError("SAME padding needs strides and dilations of at least 1")
        dilated_in, dilated_window = _dilated(size, ld), _dilated(window, rd)
        out = -(-dilated_in // stride)
        needed = max(0, (out - 1) * stride + dilated_window - dilated_in)
        pads.append((needed // 2, needed - needed // 2))
    return pads


def padding_attr(pads: Sequence[Sequence[int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`."""
    flat = [int(v) for pair in pads for v in pair]
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pads), 2]), flat)


def bool_array(values: Sequence[bool]) -> DenseArrayBase[IntegerType]:
    """`array<i1: false, true>`."""
    return DenseArrayBase.from_list(i1, [int(bool(v)) for v in values])


def default_conv_dimension_numbers(spatial: int) -> ConvDimensionNumbersAttr:
    """The spec's default layout: lhs `[b, f, 0, 1, ..]`, rhs `[o, i, 0, 1, ..]`, out `[b, f, ..]`."""
    sp = [i + 2 for i in range(spatial)]
    return ConvDimensionNumbersAttr.make(
        input_batch_dimension=0,
        input_feature_dimension=1,
        input_spatial_dimensions=sp,
        kernel_input_feature_dimension=1,
        kernel_output_feature_dimension=0,
        kernel_spatial_dimensions=sp,
        output_batch_dimension=0,
        output_feature_dimension=1,
        output_spatial_dimensions=sp,
    )


def _i64(value: int) -> IntegerAttr[IntegerType]:
    return IntegerAttr(value, i64)


def _int_attr(attr: Attribute | None, default: int) -> int:
    if attr is None:
        return default
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


def infer_convolution_shape(
    lhs: Sequence[int],
    rhs: Sequence[int],
    dn: ConvDimensionNumbersAttr,
    window_strides: Sequence[int] | None,
    padding: Sequence[tuple[int, int]] | None,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    window_reversal: Sequence[bool] | None,
    feature_group_count: int,
    batch_group_count: int,
) -> tuple[int, ...]:
    """Check every StableHLO convolution constraint and return the result shape."""
    n = len(lhs)
    require(n >= 2, f"lhs must have rank at least 2 (batch and feature), got rank {n}")
    require(
        len(rhs) == n,
        f"lhs rank {n} and rhs rank {len(rhs)} differ; both must be rank n+2",
    )
    s = n - 2
    for name, values in (
        ("window_strides", window_strides),
        ("lhs_dilation", lhs_dilation),
        ("rhs_dilation", rhs_dilation),
        ("window_reversal", window_reversal),
    ):
        if values is not None:
            require(
                len(values) == s,
                f"{name} has {len(values)} entries; expected one per spatial dimension ({s})",
            )
    if padding is not None:
        require(
            len(padding) == s,
            f"padding has {len(padding)} (low, high) pairs; expected one per spatial "
            f"dimension ({s})",
        )
    for name, values in (
        ("window_strides", window_strides),
        ("lhs_dilation", lhs_dilation),
        ("rhs_dilation", rhs_dilation),
    ):
        for v in values or ():
            require(v >= 1, f"{name} {fmt_list(values or ())} has {v}; each must be at least 1")
    require(
        feature_group_count >= 1,
        f"feature_group_count is {feature_group_count}; it must be at least 1",
    )
    require(
        batch_group_count >= 1, f"batch_group_count is {batch_group_count}; it must be at least 1"
    )
    require(
        feature_group_count == 1 or batch_group_count == 1,
        f"feature_group_count ({feature_group_count}) and batch_group_count "
        f"({batch_group_count}) cannot both exceed 1",
    )

    ib, if_ = dn.int_value("input_batch_dimension"), dn.int_value("input_feature_dimension")
    isp = dn.ints("input_spatial_dimensions")
    ki = dn.int_value("kernel_input_feature_dimension")
    ko = dn.int_value("kernel_output_feature_dimension")
    ksp = dn.ints("kernel_spatial_dimensions")
    ob, of = dn.int_value("output_batch_dimension"), dn.int_value("output_feature_dimension")
    osp = dn.ints("output_spatial_dimensions")
    for name, spatial in (
        ("input_spatial_dimensions", isp),
        ("kernel_spatial_dimensions", ksp),
        ("output_spatial_dimensions", osp),
    ):
        require(
            len(spatial) == s,
            f"dimension_numbers {name} {fmt_list(spatial)} has {len(spatial)} entries; "
            f"expected {s} (operand rank {n} minus 2)",
        )
    for name, dims in (
        ("input dimensions [batch, spatial..., feature]", [ib, *isp, if_]),
        ("kernel dimensions [spatial..., input feature, output feature]", [*ksp, ki, ko]),
        ("output dimensions [batch, spatial..., feature]", [ob, *osp, of]),
    ):
        check_dims_in_range(f"dimension_numbers {name}", dims, n)

    batch, in_features = lhs[ib], lhs[if_]
    kernel_in, kernel_out = rhs[ki], rhs[ko]
    if not is_dynamic(batch):
        require(
            batch % batch_group_count == 0,
            f"lhs batch dimension size {batch} is not divisible by batch_group_count "
            f"{batch_group_count}",
        )
    if not is_dynamic(in_features):
        require(
            in_features % feature_group_count == 0,
            f"lhs feature dimension size {in_features} is not divisible by "
            f"feature_group_count {feature_group_count}",
        )
        require(
            same_size(kernel_in, in_features // feature_group_count),
            f"rhs input feature dimension size {kernel_in} must equal the lhs feature "
            f"dimension size {in_features} divided by feature_group_count "
            f"{feature_group_count}",
        )
    if not is_dynamic(kernel_out):
        require(
            kernel_out % batch_group_count == 0,
            f"rhs output feature dimension size {kernel_out} is not divisible by "
            f"batch_group_count {batch_group_count}",
        )
        require(
            kernel_out % feature_group_count == 0,
            f"rhs output feature dimension size {kernel_out} is not divisible by "
            f"feature_group_count {feature_group_count}",
        )
    for i, d in enumerate(ksp):
        if not is_dynamic(rhs[d]):
            require(
                rhs[d] >= 1,
                f"window size (rhs spatial dimension {i}, size {rhs[d]}) must be at least 1",
            )

    out = [0] * n
    out[ob] = DYNAMIC_INDEX if is_dynamic(batch) else batch // batch_group_count
    out[of] = kernel_out
    for i in range(s):
        out[osp[i]] = num_windows(
            lhs[isp[i]],
            rhs[ksp[i]],
            window_strides[i] if window_strides is not None else 1,
            tuple(padding[i]) if padding is not None else (0, 0),  # type: ignore[arg-type]
            lhs_dilation[i] if lhs_dilation is not None else 1,
            rhs_dilation[i] if rhs_dilation is not None else 1,
        )
    return tuple(out)


@irdl_op_definition
class ConvolutionOp(XlaOp):
    """N-d convolution with strides, padding, dilations and feature/batch groups
    (spec: ConvWithGeneralPadding)."""

    name = "xla.convolution"
    SPEC_SECTION: ClassVar[str] = "ConvWithGeneralPadding (convolution)"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    traits = traits_def(Pure())

    WINDOW_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("stride", "window_strides"),
        ("pad", "padding"),
        ("lhs_dilate", "lhs_dilation"),
        ("rhs_dilate", "rhs_dilation"),
        ("reverse", "window_reversal"),
    )

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        dimension_numbers: ConvDimensionNumbersAttr | None = None,
        window_strides: Sequence[int] | None = None,
        padding: Sequence[Sequence[int]] | None = None,
        lhs_dilation: Sequence[int] | None = None,
        rhs_dilation: Sequence[int] | None = None,
        window_reversal: Sequence[bool] | None = None,
        feature_group_count: int = 1,
        batch_group_count: int = 1,
        precision_config: Sequence[Precision | str] | None = None,
        result_element_type: Attribute | None = None,
    ):
        lhs_shape, rhs_shape = shape_of(lhs.type), shape_of(rhs.type)
        if dimension_numbers is None:
            dimension_numbers = default_conv_dimension_numbers(max(len(lhs_shape) - 2, 0))
        shape = infer_convolution_shape(
            lhs_shape,
            rhs_shape,
            dimension_numbers,
            window_strides,
            [(int(p[0]), int(p[1])) for p in padding] if padding is not None else None,
            lhs_dilation,
            rhs_dilation,
            window_reversal,
            feature_group_count,
            batch_group_count,
        )
        props: dict[str, Attribute] = {
            "dimension_numbers": dimension_numbers,
            "feature_group_count": _i64(feature_group_count),
            "batch_group_count": _i64(batch_group_count),
        }
        if window_strides is not None:
            props["window_strides"] = i64_array(window_strides)
        if padding is not None:
            props["padding"] = padding_attr(padding)
        if lhs_dilation is not None:
            props["lhs_dilation"] = i64_array(lhs_dilation)
        if rhs_dilation is not None:
            props["rhs_dilation"] = i64_array(rhs_dilation)
        if window_reversal is not None:
            props["window_reversal"] = bool_array(window_reversal)
        if precision_config is not None:
            props["precision_config"] = precision_array(precision_config)
        element = result_element_type or element_type_of(lhs.type)
        super().__init__(
            operands=[lhs, rhs], result_types=[tensor(shape, element)], properties=props
        )

    # -- reading the properties ------------------------------------------------

    def _padding_pairs(self) -> list[tuple[int, int]] | None:
        if self.padding is None:
            return None
        values = ints_of(self.padding)
        return [(values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)]

    def _reversal(self) -> list[bool] | None:
        if self.window_reversal is None:
            return None
        return [bool(v) for v in ints_of(self.window_reversal)]

    def _opt_ints(self, attr: DenseArrayBase | None) -> tuple[int, ...] | None:
        return None if attr is None else ints_of(attr)

    def verify_(self) -> None:
        check_tensor("lhs", self.lhs.type)
        check_tensor("rhs", self.rhs.type)
        check_tensor("result", self.result.type)
        check_contraction_element_types(self.lhs.type, self.rhs.type, self.result.type)
        check_precision_config(self.precision_config)
        for name in ("window_strides", "lhs_dilation", "rhs_dilation"):
            attr = getattr(self, name)
            if attr is not None:
                require(
                    isinstance(attr.elt_type, IntegerType) and attr.elt_type.width.data == 64,
                    f"{name} must be an array<i64: ...>",
                )
        if self.window_reversal is not None:
            require(
                self.window_reversal.elt_type == i1,
                "window_reversal must be an array<i1: ...> of booleans",
            )
        if self.padding is not None:
            ptype = self.padding.get_type()
            require(
                isinstance(ptype, TensorType)
                and len(ptype.get_shape()) == 2
                and ptype.get_shape()[1] == 2
                and isinstance(ptype.element_type, IntegerType),
                f"padding must be an integer tensor of shape [spatial dims, 2], got "
                f"{format_type(ptype)}",
            )
        for name in ("feature_group_count", "batch_group_count"):
            attr = getattr(self, name)
            require(
                isinstance(attr.type, IntegerType) and attr.type.width.data == 64,
                f"{name} must be an i64 integer",
            )
        shape = infer_convolution_shape(
            shape_of(self.lhs.type),
            shape_of(self.rhs.type),
            self.dimension_numbers,
            self._opt_ints(self.window_strides),
            self._padding_pairs(),
            self._opt_ints(self.lhs_dilation),
            self._opt_ints(self.rhs_dilation),
            self._reversal(),
            _int_attr(self.feature_group_count, 1),
            _int_attr(self.batch_group_count, 1),
        )
        require(
            is_tensor(self.result.type) and len(shape_of(self.result.type)) == len(shape),
            f"result rank {len(shape_of(self.result.type))} must equal the operand rank "
            f"{len(shape)}",
        )
        self.check_result_types([tensor(shape, element_type_of(self.result.type))])

    # -- syntax ----------------------------------------------------------------

    # `xla.convolution(%lhs, %rhs) dim_numbers = [..]x[..]->[..],
    #    window = {stride = [..], pad = [[..], ..] | SAME | VALID, lhs_dilate = [..],
    #              rhs_dilate = [..], reverse = [..]} {attrs}? : (t1, t2) -> t3`
    @classmethod
    def parse(cls, parser: Parser) -> ConvolutionOp:
        pos = parser.pos
        parser.parse_punctuation("(")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        attrs: dict[str, Attribute] = {}
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        attrs["dimension_numbers"] = parse_conv_layout(parser)
        pad_mode: str | None = None
        pad_pos = parser.pos
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("window")
            parser.parse_punctuation("=")
            parser.parse_punctuation("{")
            if parser.parse_optional_punctuation("}") is None:
                keys = dict(cls.WINDOW_KEYS)

                def entry() -> None:
                    nonlocal pad_mode, pad_pos
                    key_pos = parser.pos
                    key = parser.parse_identifier()
                    if key not in keys or keys[key] in attrs or (key == "pad" and pad_mode):
                        parser.raise_error(
                            f"unexpected '{key}' in window; expected each of "
                            + ", ".join(keys)
                            + " at most once",
                            key_pos,
                            parser.pos,
                        )
                    parser.parse_punctuation("=")
                    if key == "pad":
                        pad_pos = parser.pos
                        mode = parser.parse_optional_keyword("SAME") or parser.parse_optional_keyword(
                            "VALID"
                        )
                        if mode is not None:
                            pad_mode = mode
                        else:
                            pairs = parser.parse_comma_separated_list(
                                parser.Delimiter.SQUARE, lambda: parse_int_list(parser)
                            )
                            for pair in pairs:
                                if len(pair) != 2:
                                    parser.raise_error(
                                        "each padding entry must be a [low, high] pair",
                                        pad_pos,
                                        parser.pos,
                                    )
                            attrs["padding"] = padding_attr(pairs)
                    elif key == "reverse":
                        def flag() -> int:
                            value = parser.parse_optional_boolean()
                            return int(value) if value is not None else int(parser.parse_integer() != 0)

                        attrs["window_reversal"] = bool_array(
                            [bool(v) for v in parser.parse_comma_separated_list(parser.Delimiter.SQUARE, flag)]
                        )
                    else:
                        attrs[keys[key]] = i64_array(parse_int_list(parser))

                parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
                parser.parse_punctuation("}")
        attrs.update(parse_attr_dict(parser))
        attrs.setdefault("feature_group_count", _i64(1))
        attrs.setdefault("batch_group_count", _i64(1))
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        operands = resolve(parser, [lhs, rhs], in_types, pos)
        if pad_mode is not None:
            attrs["padding"] = cls._resolve_pad_mode(parser, pad_mode, in_types, attrs, pad_pos)
        return build(cls, operands, out_types, attrs)

    @staticmethod
    def _resolve_pad_mode(
        parser: Parser,
        mode: str,
        in_types: Sequence[Attribute],
        attrs: dict[str, Attribute],
        pos: int,
    ) -> DenseIntOrFPElementsAttr:
        dn = attrs["dimension_numbers"]
        assert isinstance(dn, ConvDimensionNumbersAttr)
        try:
            if not all(is_tensor(t) for t in in_types):
                raise ValueError("operands must be tensors")
            lhs, rhs = shape_of(in_types[0]), shape_of(in_types[1])
            isp, ksp = dn.ints("input_spatial_dimensions"), dn.ints("kernel_spatial_dimensions")
            if any(d >= len(lhs) for d in isp) or any(d >= len(rhs) for d in ksp):
                raise ValueError("spatial dimensions out of range")
            s = len(isp)

            def get(name: str) -> list[int] | None:
                attr = attrs.get(name)
                return None if attr is None else list(ints_of(attr))

            pads = padding_for_mode(
                [lhs[d] for d in isp],
                [rhs[d] for d in ksp],
                get("window_strides") or [1] * s,
                mode,
                get("lhs_dilation"),
                get("rhs_dilation"),
            )
        except ValueError as e:
            parser.raise_error(f"cannot resolve pad = {mode}: {e}", pos, parser.pos)
        return padding_attr(pads)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(") dim_numbers = " + print_conv_layout(self.dimension_numbers))
        entries: list[str] = []
        if self.window_strides is not None:
            entries.append(f"stride = {fmt_list(ints_of(self.window_strides))}")
        pads = self._padding_pairs()
        if pads is not None:
            entries.append("pad = [" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pads) + "]")
        if self.lhs_dilation is not None:
            entries.append(f"lhs_dilate = {fmt_list(ints_of(self.lhs_dilation))}")
        if self.rhs_dilation is not None:
            entries.append(f"rhs_dilate = {fmt_list(ints_of(self.rhs_dilation))}")
        reversal = self._reversal()
        if reversal is not None:
            entries.append(
                "reverse = [" + ", ".join("true" if r else "false" for r in reversal) + "]"
            )
        printer.print_string(", window = {" + ", ".join(entries) + "}")
        print_rest(
            printer, self, ["dimension_numbers", *(name for _, name in self.WINDOW_KEYS)]
        )


def conv_with_padding_mode(
    lhs: SSAValue,
    rhs: SSAValue,
    window_strides: Sequence[int],
    padding: PaddingMode,
    dimension_numbers: ConvDimensionNumbersAttr | None = None,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: Sequence[Precision | str] | None = None,
    result_element_type: Attribute | None = None,
) -> ConvolutionOp:
    """The spec's `Conv`: a convolution whose padding is SAME or VALID (spec: Conv)."""
    lhs_shape, rhs_shape = shape_of(lhs.type), shape_of(rhs.type)
    dn = dimension_numbers or default_conv_dimension_numbers(max(len(lhs_shape) - 2, 0))
    isp, ksp = dn.ints("input_spatial_dimensions"), dn.ints("kernel_spatial_dimensions")
    require(
        all(0 <= d < len(lhs_shape) for d in isp) and all(0 <= d < len(rhs_shape) for d in ksp),
        "dimension_numbers spatial dimensions are out of range of the operands",
    )
    pads = padding_for_mode(
        [lhs_shape[d] for d in isp],
        [rhs_shape[d] for d in ksp],
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
    )
    return ConvolutionOp(
        lhs,
        rhs,
        dn,
        window_strides=window_strides,
        padding=pads,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        feature_group_count=feature_group_count,
        batch_group_count=batch_group_count,
        precision_config=precision_config,
        result_element_type=result_element_type,
    )


OPS: tuple[type[XlaOp], ...] = (ConvolutionOp,)
