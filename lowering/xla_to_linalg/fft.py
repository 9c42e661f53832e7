"""`fft` → stages of `linalg.generic` on complex tensors (spec: Fft).

A multi-dimensional transform is a cascade of 1-D transforms, one per axis of
`fft_length` (the trailing axes of the operand), each over every line of the
tensor along that axis at once: the other dimensions (batch dimensions and the
other transformed axes) are parallel dimensions of every generic, so a batch
costs no more loops than one line.

1-D transforms of length n, on the tensor viewed as [P, n, Q] (the dimensions
before and after the axis merged; `expand_shape`/`collapse_shape`, views):

* n whose prime factors are all <= 13: mixed-radix Stockham (autosort, results
  in natural order, no bit reversal). n = r_1 r_2 ... with radix 4 for pairs of
  twos, one radix 2 for an odd power, then 3, 5, 7, 11, 13. With s = the
  product of the radices before (the stride) and m = n / (r s), stage (r, s)
  computes for p < m, q < s, k < r
  `y[q + s(r p + k)] = w^(p k s) · Σ_j x[q + s(p + m j)] ω_r^(jk)`
  (`w = e^(∓2πi/n)`, `ω_r = e^(∓2πi/r)`). Each stage is a nest of `scf.for`
  loops carrying the result tensor, whose body extracts the r inputs, computes
  the butterfly in real arithmetic on the parts (radix 2 and 4 by additions and
  a swap for ±i; an odd radix from the pairs `a_j ± a_(r-j)` times cosines and
  sines), multiplies by the stage's twiddles (a table laid out [k - 1][p], none
  in the last stage) and inserts the r outputs. The loops are ordered so the
  innermost one streams memory with unit-stride index arithmetic that LLVM
  vectorizes: along Q when there are dimensions after the axis, else along q
  once the stride s >= 8, else along p (the early stages). Stage i + 1 writes
  into the input of stage i - 1 (dead by then), so a transform uses two buffers
  (`bufferize` reuses them in place) whatever its number of stages.
* any other n: Bluestein's chirp-z algorithm, exact in exact arithmetic:
  `X_k = w_k Σ_j (x_j w_j) conj(w_{k-j})` with `w_j = e^(∓πi j²/n)` is a
  convolution, computed by mixed-radix transforms of size M, the least
  2^a 3^b 5^c >= 2n - 1:
  `X = w · IFFT_M(FFT_M(pad_M(x · w)) · FFT_M(b))` (b the wrapped conj(w)).
  So every length is O(n log n).

The constants of a transform are those of an FFT "plan", computed when
compiling, in extended precision (`roots`: octant symmetry, 80-bit angles) and
rounded once to the element type: the twiddle tables `e^(∓2πi pks/n)`, the
butterflies' cosines and sines, the chirp `w` (its angle from `j² mod 2n`,
exact in integers) and the chirp's spectrum `FFT_M(b) / M` (NumPy's FFT of a
constant; the data itself is only ever transformed by the code here).

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

from collections.abc import Callable, Sequence

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

from lowering.scalar import complex_constant
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
from lowering.xla_to_linalg.slicing import pad_tensor
from xla_dialect.attributes import FftType
from xla_dialect.diagnostics import LoweringError
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
# Smooth lengths: mixed-radix Stockham
# ---------------------------------------------------------------------------

Parts = tuple[SSAValue, SSAValue]
"""A complex scalar as its (real, imaginary) float values."""


class _Real:
    """Emits the real arithmetic of the butterflies on (re, im) parts: plain IEEE
    operations, no complex-dialect ops (so nothing but adds and multiplies
    reaches LLVM, which vectorizes them)."""

    def __init__(self, b: Builder, part: AnyFloat) -> None:
        self.b = b
        self.part = part
        self.constants: dict[float, SSAValue] = {}
        self.indices: dict[int, SSAValue] = {}

    def _op(self, cls: type, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(cls(x, y)).results[0]

    def const(self, v: float) -> SSAValue:
        """The constant `v` (one op per value and body)."""
        if v not in self.constants:
            self.constants[v] = self.b.insert(arith.ConstantOp(FloatAttr(v, self.part))).result  # pyright: ignore[reportArgumentType]
        return self.constants[v]

    def index(self, v: int) -> SSAValue:
        if v not in self.indices:
            self.indices[v] = index_constant(self.b, v)
        return self.indices[v]

    def add(self, x: Parts, y: Parts) -> Parts:
        return self._op(arith.AddfOp, x[0], y[0]), self._op(arith.AddfOp, x[1], y[1])

    def sub(self, x: Parts, y: Parts) -> Parts:
        return self._op(arith.SubfOp, x[0], y[0]), self._op(arith.SubfOp, x[1], y[1])

    def mul(self, x: Parts, y: Parts) -> Parts:
        """The textbook complex product (as XLA and NumPy)."""
        (a, c), (d, e) = x, y
        m = arith.MulfOp
        return (
            self._op(arith.SubfOp, self._op(m, a, d), self._op(m, c, e)),
            self._op(arith.AddfOp, self._op(m, a, e), self._op(m, c, d)),
        )

    def scale(self, x: Parts, factor: float) -> Parts:
        f = self.const(factor)
        return self._op(arith.MulfOp, x[0], f), self._op(arith.MulfOp, x[1], f)

    def times_i(self, x: Parts, sign: float) -> Parts:
        """`x · (sign · i)`."""
        neg = self.b.insert(arith.NegfOp(x[1] if sign > 0 else x[0])).result
        return (neg, x[0]) if sign > 0 else (x[1], neg)


_PI = np.longdouble("3.14159265358979323846264338327950288")
"""π in extended precision (x86's 80-bit long double where NumPy has it): the
twiddles are computed in it and rounded once, so they are the correctly rounded
float64 values (sin(π/6) is 0.5, not 0.49999999999999994)."""


def roots(i: np.ndarray | int, n: int, sign: float) -> np.ndarray:
    """`e^(sign·2πi·i/n)` in complex128, by octant symmetry from angles <= π/4
    (so multiples of π/4 come out exact: cos(π/2) is 0, cos(2π/3) is -1/2)."""
    a = 8 * (np.asarray(i, dtype=np.int64) % n)  # the angle in units of 2π/(8n)
    sin_sign = np.where(a > 4 * n, -1.0, 1.0)
    a = np.where(a > 4 * n, 8 * n - a, a)
    cos_sign = np.where(a > 2 * n, -1.0, 1.0)
    a = np.where(a > 2 * n, 4 * n - a, a)
    swap = a > n
    a = np.where(swap, 2 * n - a, a)
    angle = _PI * a.astype(np.longdouble) / (4 * n)
    c, s = np.cos(angle).astype(np.float64), np.sin(angle).astype(np.float64)
    c, s = np.where(swap, s, c), np.where(swap, c, s)
    return cos_sign * c + 1j * (sign * sin_sign * s)


def _butterfly(e: _Real, a: Sequence[Parts], sign: float) -> list[Parts]:
    """The DFT of the r = len(a) values, `y_k = Σ_j a_j ω^(jk)` with
    `ω = e^(sign·2πi/r)`: radix 2 and 4 by additions only; an odd radix pairs
    `a_j ± a_(r-j)` so that each output needs (r-1)/2 real multiples of each
    pair (the cosines and sines computed in float64, rounded once)."""
    r = len(a)
    if r == 2:
        return [e.add(a[0], a[1]), e.sub(a[0], a[1])]
    if r == 4:
        t0, t1 = e.add(a[0], a[2]), e.sub(a[0], a[2])
        t2, t3 = e.add(a[1], a[3]), e.times_i(e.sub(a[1], a[3]), sign)
        return [e.add(t0, t2), e.add(t1, t3), e.sub(t0, t2), e.sub(t1, t3)]
    assert r % 2 == 1
    h = (r - 1) // 2
    sums = [e.add(a[j], a[r - j]) for j in range(1, h + 1)]
    diffs = [e.sub(a[j], a[r - j]) for j in range(1, h + 1)]
    y0 = a[0]
    for t in sums:
        y0 = e.add(y0, t)
    out: list[Parts | None] = [y0] + [None] * (r - 1)
    for k in range(1, h + 1):
        c: Parts = a[0]
        d: Parts | None = None
        for j in range(1, h + 1):
            w = roots(j * k, r, 1.0).item()
            c = e.add(c, e.scale(sums[j - 1], w.real))
            term = e.scale(diffs[j - 1], w.imag)
            d = term if d is None else e.add(d, term)
        assert d is not None
        rotated = e.times_i(d, sign)
        out[k] = e.add(c, rotated)
        out[r - k] = e.sub(c, rotated)
    return [v for v in out if v is not None]


SMALL_PRIMES = (2, 3, 5, 7, 11, 13)
"""The radices of the mixed-radix path: a length with a larger prime factor goes
through Bluestein."""


def radices(n: int) -> list[int] | None:
    """The stage radices of a length whose prime factors are all small: radix 4
    for pairs of twos, one radix 2 for an odd power, then the odd primes (None for
    a length with a larger prime factor)."""
    counts: dict[int, int] = {}
    for p in SMALL_PRIMES:
        while n % p == 0:
            counts[p] = counts.get(p, 0) + 1
            n //= p
    if n != 1:
        return None
    twos = counts.pop(2, 0)
    out = [4] * (twos // 2) + [2] * (twos % 2)
    for p in SMALL_PRIMES[1:]:
        out += [p] * counts.get(p, 0)
    return out


INNER_P_BELOW = 8
"""A stage of stride s < this (and no dimension after the axis) runs its
butterfly index p innermost (the q loop would be too short to vectorize)."""


def _nest(
    b: Builder,
    sizes: Sequence[int],
    carried: SSAValue,
    body: Callable[[Builder, list[SSAValue], SSAValue], SSAValue],
    ivs: list[SSAValue] | None = None,
) -> SSAValue:
    """Nested `scf.for`s over `sizes` (outermost first) carrying one tensor;
    a loop of one trip is just the index 0."""
    ivs = [] if ivs is None else ivs
    if not sizes:
        return body(b, ivs, carried)
    if sizes[0] == 1:
        return _nest(b, sizes[1:], carried, body, [*ivs, index_constant(b, 0)])
    block = Block(arg_types=[IndexType(), carried.type])
    inner = Builder(InsertPoint.at_end(block))
    out = _nest(inner, sizes[1:], block.args[1], body, [*ivs, block.args[0]])
    inner.insert(scf.YieldOp(out))
    bounds = index_constant(b, 0), index_constant(b, sizes[0]), index_constant(b, 1)
    return b.insert(scf.ForOp(*bounds, [carried], Region(block))).results[0]


def _radix_stage(
    b: Builder, x: SSAValue, into: SSAValue, n: int, s: int, r: int, sign: float
) -> SSAValue:
    """One Stockham stage of radix r and stride s on `x` of shape [P, n, Q] (a
    batch of lines along the middle axis), written into `into` (module
    docstring): with m = n / (r s), for p < m, q < s,
    `y[q + s(r p + k)] = w^(p k s) Σ_j x[q + s(p + m j)] ω_r^(jk)`."""
    t = x.type
    assert isinstance(t, TensorType)
    ct = _complex_type(x)
    lines, _, after = t.get_shape()
    m = n // (r * s)
    twiddles: SSAValue | None = None
    if m > 1:
        p = np.arange(m, dtype=np.int64)
        k = np.arange(1, r, dtype=np.int64)[:, None]
        table = roots(p * k * s, n, sign)
        twiddles = _table(b, table.reshape(-1), ct)
    inner_p = after == 1 and s < INNER_P_BELOW
    sizes = [lines, s, m, after] if inner_p else [lines, m, s, after]

    def body(bb: Builder, ivs: list[SSAValue], y: SSAValue) -> SSAValue:
        line, column = ivs[0], ivs[3]
        p_iv, q_iv = (ivs[2], ivs[1]) if inner_p else (ivs[1], ivs[2])
        e = _Real(bb, ct.element_type)  # pyright: ignore[reportArgumentType]

        def iop(cls: type, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
            return bb.insert(cls(lhs, rhs)).results[0]

        bases: dict[int, SSAValue] = {}

        def affine(scale: int, offset: int) -> SSAValue:
            """`q + scale·p + offset`."""
            if scale not in bases:
                bases[scale] = iop(arith.AddiOp, q_iv, iop(arith.MuliOp, p_iv, e.index(scale)))
            v = bases[scale]
            return v if offset == 0 else iop(arith.AddiOp, v, e.index(offset))

        def load(tensor_value: SSAValue, indices: Sequence[SSAValue]) -> Parts:
            v = bb.insert(tensor.ExtractOp(tensor_value, indices, ct)).result
            return bb.insert(complex.ReOp(v)).result, bb.insert(complex.ImOp(v)).result

        a = [load(x, [line, affine(s, s * m * j), column]) for j in range(r)]
        outs = _butterfly(e, a, sign)
        for k in range(1, r):
            if twiddles is not None:
                at = iop(arith.AddiOp, p_iv, e.index((k - 1) * m))
                outs[k] = e.mul(outs[k], load(twiddles, [at]))
        for k, v in enumerate(outs):
            value = bb.insert(complex.CreateOp(v[0], v[1], ct)).complex
            y = bb.insert(tensor.InsertOp(value, y, [line, affine(s * r, s * k), column])).result
        return y

    return _nest(b, sizes, into, body)


def _mixed_radix(b: Builder, x: SSAValue, n: int, factors: Sequence[int], inverse: bool) -> SSAValue:
    """The stages of `factors` on `x` of shape [P, n, Q]. Each stage writes into
    the input of the stage before it (dead by then; `bufferize` reuses its
    buffer), so a transform needs two buffers whatever its number of stages."""
    sign = 1.0 if inverse else -1.0
    t = x.type
    assert isinstance(t, TensorType)
    s = 1
    previous: SSAValue | None = None
    for r in factors:
        y = _radix_stage(b, x, empty(b, t) if previous is None else previous, n, s, r, sign)
        previous, x = x if s > 1 else None, y
        s *= r
    return x


def _as_lines(b: Builder, x: SSAValue, axis: int) -> SSAValue:
    """`x` viewed as [P, n, Q]: the dimensions before and after `axis` merged."""
    shape = _shape(x)
    rank = len(shape)
    padded = _split_axis(b, x, axis, [1, shape[axis], 1])
    groups = [list(range(axis + 1)), [axis + 1], list(range(axis + 2, rank + 2))]
    lines = int(np.prod(shape[:axis], dtype=np.int64))
    after = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    out_type = TensorType(element_type_of(x.type), [lines, shape[axis], after])
    op = tensor.CollapseShapeOp.create(
        operands=[padded], result_types=[out_type], properties={"reassociation": _reassociation(groups)}
    )
    return b.insert(op).results[0]


def _from_lines(b: Builder, y: SSAValue, shape: Sequence[int], axis: int) -> SSAValue:
    """The inverse of `_as_lines`."""
    rank = len(shape)
    groups = [list(range(axis + 1)), [axis + 1], list(range(axis + 2, rank + 2))]
    padded_shape = [*shape[:axis], 1, shape[axis], 1, *shape[axis + 1 :]]
    t = TensorType(element_type_of(y.type), padded_shape)
    padded = b.insert(tensor.ExpandShapeOp(y, [], _reassociation(groups), padded_shape, t)).result
    return _merge_axis(b, padded, axis, 3)


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


def _smooth_at_least(n: int) -> int:
    """The least 2^a 3^b 5^c >= n (the convolution size of Bluestein)."""
    best = 1
    while best < n:
        best *= 2
    p3 = 1
    while p3 < best:
        p5 = p3
        while p5 < best:
            v = p5
            while v < n:
                v *= 2
            best = min(best, v)
            p5 *= 5
        p3 *= 3
    return best


def _bluestein(b: Builder, x: SSAValue, axis: int, n: int, inverse: bool) -> SSAValue:
    t = _complex_type(x)
    size = _smooth_at_least(2 * n - 1)
    sign = 1.0 if inverse else -1.0
    j = np.arange(n, dtype=np.int64)
    chirp = roots((j * j) % (2 * n), 2 * n, sign)
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
    transformed = transform(b, padded, axis, size, inverse=False)
    product = _multiply_along(b, transformed, axis, _table(b, spectrum, t))
    convolved = transform(b, product, axis, size, inverse=True)
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
    factors = radices(n)
    if factors is None:
        return _bluestein(b, x, axis, n, inverse)
    shape = _shape(x)
    y = _mixed_radix(b, _as_lines(b, x, axis), n, factors, inverse)
    return _from_lines(b, y, shape, axis)


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
