"""`xla.convolution` → one `linalg.generic` over a padded, base-dilated input.

Design
======

1. The input is padded and base-dilated (`lhs_dilation`) with zeros by
   `pad_tensor` (a fill + `insert_slice`, negative padding crops), and cut to
   the extent the windows actually read, so every window access is in bounds
   and the generic needs no guards. An input needing none of this is used as is.
2. Feature and batch groups are made explicit dimensions with
   `tensor.expand_shape` (free views after bufferization): with `G` groups the
   kernel's and the output's feature dimension `O` become `[G, O/G]`, and the
   input's feature dimension `C` (feature groups) or batch dimension `N`
   (batch groups) becomes `[G, C/G]` / `[G, N/G]` (the spec's and StableHLO's
   consecutive groups). Every iteration dimension then appears alone in some
   operand's map, as linalg needs to infer loop ranges; the output is collapsed
   back afterwards.
3. One generic iterates the output dimensions (batch, output spatial, group,
   per-group feature) as parallel iterators and the kernel's window and input
   feature dimensions as reductions. The input is read at
   `out * stride + win * rhs_dilation` per spatial dimension (with a reversed
   window, `window_reversal`, at `out * stride + (size - 1 - win) * rhs_dilation`,
   so the kernel itself is never copied); the kernel and the output at plain
   dimensions.

Loop order: the parallel dimensions follow the output's layout and the
reductions the kernel's layout, except that the output's minor (contiguous)
dimension of size > 1 runs innermost, after the reductions. For NCHW × OIHW
this is `(n, o, oh, c, kh, kw, ow)`, streaming along input and output rows.
When that innermost dimension is the output feature (NHWC-like outputs), the
inner loop is an axpy of a kernel row into an output pixel's features, which
LLVM vectorizes and keeps in registers across the reductions; two pixels of the
most minor even-sized output spatial dimension are then computed per iteration,
sharing each kernel row load (a matmul micro-kernel's register blocking): NHWC ×
HWIO runs `(n, oh, ow / 2, kh, kw, c, ow % 2, o)`, with the output viewed as
`[n, oh, ow / 2, 2, o]`. This took the 56x56x64 → 64 3x3 SAME convolution from
4.5 to 2.7 ms, about NumPy's per-tap BLAS matmuls and JAX. Depthwise
convolutions, whose per-group feature dimension has size 1, stream along the
group dimension instead. (`linalg-interchange` leaves these generics alone,
their innermost iterator being parallel.)

Element types follow `dot_general` (`contraction.contract`): each operand is
converted to the accumulator type with `xla.convert`'s semantics before
multiplying (a result type differing from the operands' is StableHLO's preferred
element type), PRED contracts with and/or, and a bf16 result accumulates in f32
and is rounded once at the end, as XLA's CPU backend does. `precision_config` is
a hint and is ignored. Complex convolutions are not compiled yet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, IntegerAttr, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr

from lowering.codegen.pack_contractions import MIN_K, MIN_MULTIPLY_ADDS
from lowering.scalar import convert_element, signless_type
from lowering.xla_to_linalg.constants import scalar_attr
from lowering.xla_to_linalg.contraction import multiply_add, zero_filled
from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    generic,
    lowers,
    parallel,
    reduction,
    result_tensor_type,
    round_floats,
)
from lowering.xla_to_linalg.slicing import pad_tensor
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.convolution import ConvolutionOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, is_complex, shape_of


@dataclass(frozen=True)
class ConvParams:
    """A convolution's window and dimension numbers, as plain integers."""

    spatial: int
    strides: list[int]
    padding: list[tuple[int, int]]
    lhs_dilation: list[int]
    rhs_dilation: list[int]
    reversal: list[bool]
    feature_groups: int
    batch_groups: int
    input_batch: int
    input_feature: int
    input_spatial: list[int]
    kernel_in: int
    kernel_out: int
    kernel_spatial: list[int]
    output_batch: int
    output_feature: int
    output_spatial: list[int]

    @staticmethod
    def of(op: ConvolutionOp) -> ConvParams:
        dn = op.dimension_numbers
        s = len(dn.ints("input_spatial_dimensions"))

        def array(attr: Attribute | None, default: int) -> list[int]:
            return [default] * s if attr is None else list(ints_of(attr))

        pads = [0, 0] * s if op.padding is None else list(ints_of(op.padding))
        return ConvParams(
            spatial=s,
            strides=array(op.window_strides, 1),
            padding=[(pads[2 * i], pads[2 * i + 1]) for i in range(s)],
            lhs_dilation=array(op.lhs_dilation, 1),
            rhs_dilation=array(op.rhs_dilation, 1),
            reversal=[bool(v) for v in array(op.window_reversal, 0)],
            feature_groups=int(op.feature_group_count.value.data),
            batch_groups=int(op.batch_group_count.value.data),
            input_batch=dn.int_value("input_batch_dimension"),
            input_feature=dn.int_value("input_feature_dimension"),
            input_spatial=list(dn.ints("input_spatial_dimensions")),
            kernel_in=dn.int_value("kernel_input_feature_dimension"),
            kernel_out=dn.int_value("kernel_output_feature_dimension"),
            kernel_spatial=list(dn.ints("kernel_spatial_dimensions")),
            output_batch=dn.int_value("output_batch_dimension"),
            output_feature=dn.int_value("output_feature_dimension"),
            output_spatial=list(dn.ints("output_spatial_dimensions")),
        )


def pad_input(
    builder: Builder,
    op: ConvolutionOp,
    lhs: SSAValue,
    p: ConvParams,
    kernel_shape: Sequence[int],
    out_shape: Sequence[int],
) -> SSAValue:
    """`lhs` zero-padded and base-dilated, cut to the extent the windows read:
    `(out - 1) * stride + (window - 1) * rhs_dilation + 1` per spatial dimension."""
    in_shape = list(shape_of(lhs.type))
    shape, lows, interiors = list(in_shape), [0] * len(in_shape), [0] * len(in_shape)
    for i, d in enumerate(p.input_spatial):
        extent = (kernel_shape[p.kernel_spatial[i]] - 1) * p.rhs_dilation[i] + 1
        shape[d] = (out_shape[p.output_spatial[i]] - 1) * p.strides[i] + extent
        lows[d] = p.padding[i][0]
        interiors[d] = p.lhs_dilation[i] - 1
    if shape == in_shape and not any(lows) and not any(interiors):
        return lhs
    xla_element = element_type_of(op.lhs.type)
    zero = builder.insert(arith.ConstantOp(scalar_attr(0, xla_element))).result  # pyright: ignore
    return pad_tensor(builder, lhs, zero, lows, interiors, TensorType(signless_type(xla_element), shape))


def split_dimension(builder: Builder, value: SSAValue, dim: int, groups: int) -> SSAValue:
    """`value` with dimension `dim` of size `n` viewed as `[groups, n / groups]`."""
    shape = list(shape_of(value.type))
    new_shape = [*shape[:dim], groups, shape[dim] // groups, *shape[dim + 1 :]]
    assoc: list[list[int]] = []
    for d in range(len(shape)):
        base = d if d <= dim else d + 1
        assoc.append([base, base + 1] if d == dim else [base])
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in assoc])
    result_type = TensorType(element_type_of(value.type), new_shape)
    return builder.insert(tensor.ExpandShapeOp(value, [], reassociation, new_shape, result_type)).result


def merge_dimension(builder: Builder, value: SSAValue, dim: int, result_type: TensorType) -> SSAValue:
    """The inverse of `split_dimension`: dimensions `dim, dim + 1` merged into one."""
    rank = len(shape_of(value.type)) - 1
    assoc = [[d] if d < dim else [d, d + 1] if d == dim else [d + 1] for d in range(rank)]
    reassociation = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in assoc])
    op = tensor.CollapseShapeOp.create(
        operands=[value], result_types=[result_type], properties={"reassociation": reassociation}
    )
    return builder.insert(op).results[0]


PIXEL_BLOCK = 2
"""Output pixels computed together when the output feature dimension streams."""

MAX_BLOCK_FEATURES = 128
"""The largest per-group output feature count blocked: the block's accumulators
(`PIXEL_BLOCK` pixels of features) should stay in vector registers."""


PACKED_FEATURES = 16
"""Per-group output features from which a convolution as large as
`linalg-pack-contractions` packs is left unblocked (16: a vector of f32 with
AVX-512, two with AVX2)."""


def packed(sizes: dict[object, int]) -> bool:
    """Whether `linalg-pack-contractions` will turn the convolution into packed
    panels and a vector micro-kernel, which does its own register blocking: wide
    enough (`PACKED_FEATURES`), deep enough and with enough multiply-adds."""
    depth = sizes["c"] * math.prod(n for name, n in sizes.items() if isinstance(name, tuple) and name[0] == "w")
    macs = math.prod(sizes.values())
    return sizes["k"] >= PACKED_FEATURES and depth >= MIN_K and macs >= MIN_MULTIPLY_ADDS


def pixel_block(outer: Sequence[object], inner: object, sizes: dict[object, int]) -> int | None:
    """The spatial dimension (index `i` of `("o", i)`) whose output positions are
    computed `PIXEL_BLOCK` at a time, or None.

    When the output feature dimension is innermost, each window tap loads a
    kernel row and adds it, scaled by one input element, to an output pixel's
    features; LLVM keeps those features in registers across the reduction. Two
    pixels per iteration share each kernel row load (the register blocking of a
    matmul micro-kernel): the loop nest becomes `(..., ow / 2, kh, kw, c, 2, o)`.
    The most minor output spatial dimension of even size is blocked. A convolution
    that will be packed is not: its output, viewed `[.., ow / 2, 2, o]`, would be
    a copy of the result rather than the result itself (a zero-filled copy in,
    a copy out: 9% of a 56x56x64 3x3 convolution's time)."""
    if inner != "k" or not 1 < sizes["k"] <= MAX_BLOCK_FEATURES or packed(sizes):
        return None
    for name in reversed(outer):
        if isinstance(name, tuple) and sizes[name] % PIXEL_BLOCK == 0:
            return int(name[1])
    return None


def grouped_exprs(exprs: list[list[AffineExpr]]) -> list[AffineExpr]:
    """Flatten per-original-dimension expression lists (a split dimension has two)."""
    return [e for group in exprs for e in group]


@lowers(ConvolutionOp)
def lower_convolution(cx: Converter, op: ConvolutionOp, builder: Builder) -> Sequence[SSAValue]:
    for v in (op.lhs, op.rhs, op.result):
        if is_complex(element_type_of(v.type)):
            raise LoweringError("complex convolutions are not compiled yet", op)
    p = ConvParams.of(op)
    result_type = result_tensor_type(op)
    out_shape = list(result_type.get_shape())
    kernel_shape = list(shape_of(op.rhs.type))
    xla_out = element_type_of(op.result.type)
    xla_l, xla_r = element_type_of(op.lhs.type), element_type_of(op.rhs.type)
    accumulator = f32 if isinstance(xla_out, BFloat16Type) else xla_out
    if any(d == 0 for d in out_shape):
        return [zero_filled(builder, result_type, xla_out)]

    lhs = pad_input(builder, op, cx.get(op.lhs), p, kernel_shape, out_shape)
    rhs = cx.get(op.rhs)
    groups = max(p.feature_groups, p.batch_groups)

    # Iteration dimensions by name: "b", "g", "k" (output feature in its group),
    # "c" (input feature in its group), ("o", i) / ("w", i) (output / window
    # position along spatial dimension i).
    sizes: dict[object, int] = {
        "b": out_shape[p.output_batch],
        "g": groups,
        "k": out_shape[p.output_feature] // groups,
        "c": kernel_shape[p.kernel_in],
    }
    for i in range(p.spatial):
        sizes[("o", i)] = out_shape[p.output_spatial[i]]
        sizes[("w", i)] = kernel_shape[p.kernel_spatial[i]]
    feature = ["g", "k"] if groups > 1 else ["k"]
    by_output_dim: dict[int, list[object]] = {p.output_batch: ["b"], p.output_feature: feature}
    for i, d in enumerate(p.output_spatial):
        by_output_dim[d] = [("o", i)]
    outer = [name for d in range(len(out_shape)) for name in by_output_dim[d]]
    by_kernel_dim: dict[int, list[object]] = {p.kernel_in: ["c"], p.kernel_out: []}
    for i, d in enumerate(p.kernel_spatial):
        by_kernel_dim[d] = [("w", i)]
    reductions = [name for d in range(len(kernel_shape)) for name in by_kernel_dim[d]]
    # The innermost loop: the output's most minor dimension that is not of size 1.
    inner = next((n for n in reversed(outer) if sizes[n] > 1), outer[-1])
    blocked = pixel_block(outer, inner, sizes)
    if blocked is None:
        order = [n for n in outer if n != inner] + reductions + [inner]
    else:
        # ("o", j) now runs over the pixels of a block, ("ob", j) over the blocks.
        sizes[("ob", blocked)] = sizes[("o", blocked)] // PIXEL_BLOCK
        order = [("ob", blocked) if n == ("o", blocked) else n for n in outer if n != inner]
        order += [*reductions, ("o", blocked), inner]
    rank = len(order)
    dim = {name: AffineExpr.dimension(i) for i, name in enumerate(order)}

    def out_position(i: int) -> AffineExpr:
        if i == blocked:
            return dim[("ob", i)] * PIXEL_BLOCK + dim[("o", i)]
        return dim[("o", i)]

    # Per original operand dimension, the expressions indexing it (two where split).
    in_exprs: list[list[AffineExpr]] = [[] for _ in shape_of(lhs.type)]
    in_exprs[p.input_batch] = [dim["g"], dim["b"]] if p.batch_groups > 1 else [dim["b"]]
    in_exprs[p.input_feature] = [dim["g"], dim["c"]] if p.feature_groups > 1 else [dim["c"]]
    for i, d in enumerate(p.input_spatial):
        w = dim[("w", i)]
        if p.reversal[i]:
            w = AffineExpr.constant(sizes[("w", i)] - 1) - w
        in_exprs[d] = [out_position(i) * p.strides[i] + w * p.rhs_dilation[i]]
    k_exprs: list[list[AffineExpr]] = [[] for _ in kernel_shape]
    k_exprs[p.kernel_in] = [dim["c"]]
    k_exprs[p.kernel_out] = [dim[n] for n in feature]
    for i, d in enumerate(p.kernel_spatial):
        k_exprs[d] = [dim[("w", i)]]
    out_exprs: list[list[AffineExpr]] = [[] for _ in out_shape]
    out_exprs[p.output_batch] = [dim["b"]]
    out_exprs[p.output_feature] = [dim[n] for n in feature]
    for i, d in enumerate(p.output_spatial):
        out_exprs[d] = [dim[("ob", i)], dim[("o", i)]] if i == blocked else [dim[("o", i)]]
    # The output's split dimensions (dimension, number of parts), split from the last.
    out_splits: list[tuple[int, int]] = []
    if blocked is not None:
        out_splits.append((p.output_spatial[blocked], sizes[("ob", blocked)]))

    accumulator_type = TensorType(signless_type(accumulator), out_shape)
    init = zero_filled(builder, accumulator_type, accumulator)
    if groups > 1:
        if p.batch_groups > 1:
            lhs = split_dimension(builder, lhs, p.input_batch, groups)
        else:
            lhs = split_dimension(builder, lhs, p.input_feature, groups)
        rhs = split_dimension(builder, rhs, p.kernel_out, groups)
        out_splits.append((p.output_feature, groups))
    out_splits.sort(reverse=True)
    for d, g in out_splits:
        init = split_dimension(builder, init, d, g)

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        x = convert_element(b.insert, op, args[0], xla_l, accumulator)
        y = convert_element(b.insert, op, args[1], xla_r, accumulator)
        return [multiply_add(b, args[2], x, y, accumulator_type.element_type)]

    iterator_of = {name: reduction() for name in reductions}
    (result,) = generic(
        builder,
        [lhs, rhs],
        [dims_map(rank, grouped_exprs(in_exprs)), dims_map(rank, grouped_exprs(k_exprs))],
        [init],
        [dims_map(rank, grouped_exprs(out_exprs))],
        [iterator_of.get(name, parallel(1)[0]) for name in order],
        body,
    )
    for d, _ in reversed(out_splits):
        shape = list(shape_of(result.type))
        merged = TensorType(accumulator_type.element_type, [*shape[:d], shape[d] * shape[d + 1], *shape[d + 2 :]])
        result = merge_dimension(builder, result, d, merged)
    if accumulator != xla_out:
        result = round_floats(builder, result, result_type)
    return [result]


__all__ = ["ConvParams", "lower_convolution"]
