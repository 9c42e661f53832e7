"""`fft` → stages of `linalg.generic` on complex tensors (spec: Fft).

A multi-dimensional transform is a cascade of 1-D transforms, one per axis of
`fft_length` (the trailing axes of the operand), each over every line of the
tensor along that axis at once: the other dimensions (batch dimensions and the
other transformed axes) are parallel dimensions of every generic, so a batch
costs no more loops than one line.

1-D transforms of length n:

* n = 2^m: the Stockham radix-2 algorithm, m stages, each ONE parallel generic
  `y = stage(x)` with purely affine indexing (no index arithmetic, no bit
  reversal, results in natural order). With stride s = 2^k, stage k views the
  axis of x as `[2, n/(2s), s]` (h, p, q) and the axis of y as
  `[n/(2s), 2, s]` (p, e, q) (`tensor.expand_shape`), and computes
  `y[p, 0, q] = x[0, p, q] + x[1, p, q]` and
  `y[p, 1, q] = (x[0, p, q] - x[1, p, q]) · w^(p·s)`, `w = e^(∓2πi/n)`.
  The innermost loops run along q and the dimensions after the axis, reading
  and writing contiguously.
* any other n: Bluestein's chirp-z algorithm, exact in exact arithmetic:
  `X_k = w_k Σ_j (x_j w_j) conj(w_{k-j})` with `w_j = e^(∓πi j²/n)` is a
  convolution, computed by power-of-two transforms of size M >= 2n - 1:
  `X = w · IFFT_M(FFT_M(pad_M(x · w)) · FFT_M(b))` (b the wrapped conj(w)).
  So every length is O(n log n).

The constants of a transform are those of an FFT "plan", computed when
compiling, in float64 and rounded once to the element type: the twiddle table
`e^(∓2πi k/n)` (k < n/2), the chirp `w` (its angle from `j² mod 2n`, exact in
integers) and the chirp's spectrum `FFT_M(b) / M` (NumPy's FFT of a constant;
the data itself is only ever transformed by the code here).

Types: `FFT`/`IFFT` transform every axis (IFFT with the inverse twiddles and
one final scaling by `1 / Π fft_length`). `RFFT` converts the real operand to
complex, transforms the last axis, keeps its `n // 2 + 1` first outputs, then
transforms the other axes. `IRFFT` inverse-transforms the other axes first,
then rebuilds the full Hermitian spectrum of the last axis
(`X[n - k] = conj(X[k])`, the imaginary parts of the DC and Nyquist terms
ignored, as a c2r transform does), inverse-transforms it and keeps the real
part. A result without elements is just `tensor.empty`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, complex, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.to_llvm.common import LoweringError
from lowering.xla_to_linalg.converter import (
    BodyFn,
    Converter,
    dims_map,
    empty,
    generic,
    identity_map,
    index_constant,
    lowers,
    parallel,
    result_tensor_type,
)
from lowering.xla_to_linalg.scalar_complex import complex_constant
from lowering.xla_to_linalg.slicing import pad_tensor
from xla_dialect.attributes import FftType
from xla_dialect.ops.linalg import FftOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, shape_of

# ---------------------------------------------------------------------------
# Small builders
# ---------------------------------------------------------------------------


def _shape(value: SSAValue) -> list[int]:
    return list(shape_of(value.type))


def _complex_type(value: SSAValue) -> ComplexType:
    t = element_type_of(value.type)
    assert isinstance(t, ComplexType)
    return t


def _reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _axis_groups(rank: int, axis: int, parts: int) -> list[list[int]]:
    """Reassociation of a rank-`rank` shape whose dimension `axis` becomes `parts`."""
    groups: list[list[int]] = []
    for d in range(rank):
        if d < axis:
            groups.append([d])
        elif d == axis:
            groups.append(list(range(axis, axis + parts)))
        else:
            groups.append([d + parts - 1])
    return groups


def _split_axis(b: Builder, x: SSAValue, axis: int, sizes: Sequence[int]) -> SSAValue:
    """`x` with dimension `axis` viewed as the row-major `sizes`."""
    shape = _shape(x)
    new_shape = [*shape[:axis], *sizes, *shape[axis + 1 :]]
    t = TensorType(element_type_of(x.type), new_shape)
    groups = _reassociation(_axis_groups(len(shape), axis, len(sizes)))
    return b.insert(tensor.ExpandShapeOp(x, [], groups, new_shape, t)).result


def _merge_axis(b: Builder, y: SSAValue, axis: int, parts: int) -> SSAValue:
    """The inverse of `_split_axis`: dimensions `axis .. axis + parts - 1` merged."""
    shape = _shape(y)
    merged = int(np.prod(shape[axis : axis + parts]))
    new_shape = [*shape[:axis], merged, *shape[axis + parts :]]
    t = TensorType(element_type_of(y.type), new_shape)
    groups = _reassociation(_axis_groups(len(new_shape), axis, parts))
    op = tensor.CollapseShapeOp.create(operands=[y], result_types=[t], properties={"reassociation": groups})
    return b.insert(op).results[0]


def _table(b: Builder, values: np.ndarray, t: ComplexType) -> SSAValue:
    """A constant 1-D tensor of complex values (computed in complex128)."""
    dtype = np.complex64 if isinstance(t.element_type, Float32Type) else np.complex128
    tensor_type = TensorType(t, [len(values)])
    data = np.ascontiguousarray(values.astype(dtype)).tobytes()
    attr = DenseIntOrFPElementsAttr(tensor_type, BytesAttr(data))
    return b.insert(arith.ConstantOp(attr, tensor_type)).result


def _index(b: Builder, dim: int) -> SSAValue:
    return b.insert(IndexOp(dim)).result


def _cmp(b: Builder, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.CmpiOp(x, y, predicate)).result


def _map_lines(b: Builder, inputs: Sequence[SSAValue], result_type: TensorType, body: BodyFn) -> SSAValue:
    """An element-wise generic over `result_type` whose inputs all have its shape."""
    rank = result_type.get_num_dims()
    (result,) = generic(
        b,
        inputs,
        [identity_map(rank)] * len(inputs),
        [empty(b, result_type)],
        [identity_map(rank)],
        parallel(rank),
        body,
    )
    return result


def _line_map(rank: int, axis: int) -> AffineMapAttr:
    """`(d0, ..., d{rank-1}) -> (d{axis})`: a table along the transformed axis."""
    return dims_map(rank, [axis])


# ---------------------------------------------------------------------------
# Power-of-two lengths: Stockham radix-2
# ---------------------------------------------------------------------------


def _stage(
    b: Builder, x: SSAValue, axis: int, n: int, log_s: SSAValue, twiddles: SSAValue, into: SSAValue | None = None
) -> SSAValue:
    """One radix-2 Stockham stage of stride `s = 2^log_s` along `axis` (module
    docstring), as a generic over the output: y at `q + s (2p + e)` is
    `x[q + s p] ± x[q + s p + n/2]`, the difference times `w^(s p)`. `into`
    is the init of the generic (a dead tensor whose buffer can be reused)."""
    t = x.type
    assert isinstance(t, TensorType)
    ct = _complex_type(x)
    rank = t.get_num_dims()

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        def op(cls: type, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
            return bb.insert(cls(lhs, rhs)).results[0]

        indices = [_index(bb, d) for d in range(rank)]
        o = indices[axis]
        one = index_constant(bb, 1)
        stride = op(arith.ShLIOp, one, log_s)
        q = op(arith.AndIOp, o, op(arith.SubiOp, stride, one))
        group = op(arith.ShRUIOp, o, log_s)
        p = op(arith.ShRUIOp, group, one)
        upper = _cmp(bb, "ne", op(arith.AndIOp, group, one), index_constant(bb, 0))
        offset = op(arith.ShLIOp, p, log_s)
        first = op(arith.AddiOp, q, offset)
        second = op(arith.AddiOp, first, index_constant(bb, n // 2))
        a = bb.insert(tensor.ExtractOp(x, [*indices[:axis], first, *indices[axis + 1 :]], ct)).result
        c = bb.insert(tensor.ExtractOp(x, [*indices[:axis], second, *indices[axis + 1 :]], ct)).result
        w = bb.insert(tensor.ExtractOp(twiddles, [offset], ct)).result
        total = op(complex.AddOp, a, c)
        difference = op(complex.MulOp, op(complex.SubOp, a, c), w)
        return [bb.insert(arith.SelectOp(upper, difference, total)).result]

    init = empty(b, t) if into is None else into
    return generic(b, [], [], [init], [identity_map(rank)], parallel(rank), body)[0]


def _fft_pow2(b: Builder, x: SSAValue, axis: int, n: int, inverse: bool) -> SSAValue:
    """log2(n) stages: two per iteration of an `scf.for` carrying the tensor (the
    IR has the same size whatever n), the second stage writing over the carried
    tensor, which the first has finished reading, so no stage copies its result
    back into the loop's buffer; an odd last stage follows the loop."""
    sign = 1.0 if inverse else -1.0
    k = np.arange(n // 2, dtype=np.float64)
    twiddles = _table(b, np.exp(sign * 2j * np.pi * k / n), _complex_type(x))
    stages = n.bit_length() - 1
    if stages >= 2:
        block = Block(arg_types=[IndexType(), x.type])
        inner = Builder(InsertPoint.at_end(block))
        log_s = block.args[0]
        y = _stage(inner, block.args[1], axis, n, log_s, twiddles)
        next_log_s = inner.insert(arith.AddiOp(log_s, index_constant(inner, 1))).result
        z = _stage(inner, y, axis, n, next_log_s, twiddles, into=block.args[1])
        inner.insert(scf.YieldOp(z))
        bounds = index_constant(b, 0), index_constant(b, stages - stages % 2), index_constant(b, 2)
        x = b.insert(scf.ForOp(*bounds, [x], Region(block))).results[0]
    if stages % 2:
        x = _stage(b, x, axis, n, index_constant(b, stages - 1), twiddles)
    return x


# ---------------------------------------------------------------------------
# Other lengths: Bluestein
# ---------------------------------------------------------------------------


def _multiply_along(b: Builder, x: SSAValue, axis: int, table: SSAValue) -> SSAValue:
    """`x` times `table[i]` at position i of `axis`."""
    t = x.type
    assert isinstance(t, TensorType)
    rank = t.get_num_dims()
    (result,) = generic(
        b,
        [x, table],
        [identity_map(rank), _line_map(rank, axis)],
        [empty(b, t)],
        [identity_map(rank)],
        parallel(rank),
        lambda bb, args: [bb.insert(complex.MulOp(args[0], args[1])).result],
    )
    return result


def _bluestein(b: Builder, x: SSAValue, axis: int, n: int, inverse: bool) -> SSAValue:
    t = _complex_type(x)
    size = 1
    while size < 2 * n - 1:
        size *= 2
    sign = 1.0 if inverse else -1.0
    j = np.arange(n, dtype=np.int64)
    chirp = np.exp(sign * 1j * np.pi * ((j * j) % (2 * n)) / n)
    wrapped = np.zeros(size, dtype=np.complex128)
    wrapped[:n] = np.conj(chirp)
    wrapped[size - n + 1 :] = np.conj(chirp[1:])[::-1]
    spectrum = np.fft.fft(wrapped) / size
    chirp_table = _table(b, chirp, t)

    weighted = _multiply_along(b, x, axis, chirp_table)
    shape = _shape(x)
    padded_shape = [*shape[:axis], size, *shape[axis + 1 :]]
    zero = complex_constant(b.insert, 0.0, 0.0, t)
    padded = pad_tensor(b, weighted, zero, [0] * len(shape), [0] * len(shape), TensorType(t, padded_shape))
    transformed = _fft_pow2(b, padded, axis, size, inverse=False)
    product = _multiply_along(b, transformed, axis, _table(b, spectrum, t))
    convolved = _fft_pow2(b, product, axis, size, inverse=True)
    offsets = [0] * len(shape)
    strides = [1] * len(shape)
    sliced = b.insert(
        tensor.ExtractSliceOp.from_static_parameters(convolved, offsets, shape, strides)
    ).result
    return _multiply_along(b, sliced, axis, chirp_table)


def transform(b: Builder, x: SSAValue, axis: int, n: int, inverse: bool) -> SSAValue:
    """The unscaled DFT (inverse: with e^(+2πi jk/n)) of every line of `x` along
    `axis`, of length `n`."""
    if n <= 1:
        return x
    if n & (n - 1) == 0:
        return _fft_pow2(b, x, axis, n, inverse)
    return _bluestein(b, x, axis, n, inverse)


# ---------------------------------------------------------------------------
# The four FFT types
# ---------------------------------------------------------------------------


def _scale(b: Builder, x: SSAValue, factor: float) -> SSAValue:
    t = x.type
    assert isinstance(t, TensorType)
    ct = _complex_type(x)

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        c = complex_constant(bb.insert, factor, 0.0, ct)
        return [bb.insert(complex.MulOp(args[0], c)).result]

    return _map_lines(b, [x], t, body)


def _to_complex(b: Builder, x: SSAValue) -> SSAValue:
    part = element_type_of(x.type)
    assert isinstance(part, AnyFloat)
    ct = ComplexType(part)

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        zero = bb.insert(arith.ConstantOp(FloatAttr(0.0, part))).result
        return [bb.insert(complex.CreateOp(args[0], zero, ct)).complex]

    return _map_lines(b, [x], TensorType(ct, _shape(x)), body)


def _real_part(b: Builder, x: SSAValue, factor: float) -> SSAValue:
    ct = _complex_type(x)
    part = ct.element_type

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        re = bb.insert(complex.ReOp(args[0])).result
        if factor == 1.0:
            return [re]
        scale = bb.insert(arith.ConstantOp(FloatAttr(factor, part))).result  # pyright: ignore[reportArgumentType]
        return [bb.insert(arith.MulfOp(re, scale)).result]

    return _map_lines(b, [x], TensorType(part, _shape(x)), body)


def _hermitian(b: Builder, x: SSAValue, n: int) -> SSAValue:
    """The full spectrum of length `n` (last axis) of the half spectrum `x`
    (`n // 2 + 1` entries): `X[k]` for k <= n/2, `conj(X[n - k])` above; the
    imaginary parts of X[0] and (n even) X[n/2] are dropped."""
    shape = _shape(x)
    rank = len(shape)
    ct = _complex_type(x)
    out_type = TensorType(ct, [*shape[:-1], n])
    half = n // 2

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        indices = [_index(bb, d) for d in range(rank)]
        k = indices[-1]
        mirrored = _cmp(bb, "ugt", k, index_constant(bb, half))
        reflected = bb.insert(arith.SubiOp(index_constant(bb, n), k)).result
        source = bb.insert(arith.SelectOp(mirrored, reflected, k)).result
        v = bb.insert(tensor.ExtractOp(x, [*indices[:-1], source], ct)).result
        re = bb.insert(complex.ReOp(v)).result
        im = bb.insert(complex.ImOp(v)).result
        negated = bb.insert(arith.NegfOp(im)).result
        im = bb.insert(arith.SelectOp(mirrored, negated, im)).result
        real_only = _cmp(bb, "eq", k, index_constant(bb, 0))
        if n % 2 == 0:
            nyquist = _cmp(bb, "eq", k, index_constant(bb, half))
            real_only = bb.insert(arith.OrIOp(real_only, nyquist)).result
        zero = bb.insert(arith.ConstantOp(FloatAttr(0.0, ct.element_type))).result  # pyright: ignore[reportArgumentType]
        im = bb.insert(arith.SelectOp(real_only, zero, im)).result
        return [bb.insert(complex.CreateOp(re, im, ct)).complex]

    return generic(b, [], [], [empty(b, out_type)], [identity_map(rank)], parallel(rank), body)[0]


@lowers(FftOp)
def lower_fft(cx: Converter, op: FftOp, builder: Builder) -> Sequence[SSAValue]:
    kind = op.fft_type.data
    lengths = list(ints_of(op.fft_length))
    result_type = result_tensor_type(op)
    if 0 in result_type.get_shape():
        return [empty(builder, result_type)]
    x = cx.get(op.operand)
    rank = len(_shape(x))
    axes = list(range(rank - len(lengths), rank))
    if kind in (FftType.FFT, FftType.IFFT):
        inverse = kind == FftType.IFFT
        for axis, n in zip(axes, lengths):
            x = transform(builder, x, axis, n, inverse)
        total = int(np.prod(lengths))
        if inverse and total > 1:
            x = _scale(builder, x, 1.0 / total)
        return [x]
    if kind == FftType.RFFT:
        x = _to_complex(builder, x)
        n = lengths[-1]
        x = transform(builder, x, axes[-1], n, inverse=False)
        shape = _shape(x)
        kept = [*shape[:-1], n // 2 + 1]
        if kept != shape:
            x = builder.insert(
                tensor.ExtractSliceOp.from_static_parameters(x, [0] * rank, kept, [1] * rank)
            ).result
        for axis, m in zip(axes[:-1], lengths[:-1]):
            x = transform(builder, x, axis, m, inverse=False)
        return [x]
    if kind == FftType.IRFFT:
        for axis, m in zip(axes[:-1], lengths[:-1]):
            x = transform(builder, x, axis, m, inverse=True)
        n = lengths[-1]
        x = _hermitian(builder, x, n)
        x = transform(builder, x, axes[-1], n, inverse=True)
        return [_real_part(builder, x, 1.0 / int(np.prod(lengths)))]
    raise LoweringError(f"unknown FFT type {kind}", op)


__all__ = ["lower_fft", "transform"]
