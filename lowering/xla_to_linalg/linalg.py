"""`xla.cholesky` and `xla.triangular_solve` → `scf.for` loop nests over tensors.

Both are data-dependent recurrences (each entry depends on entries computed
before it), so they are written as `scf.for` loops over tensors with
`tensor.extract`/`tensor.insert`; `bufferize` turns each tensor carried through
the loops into one buffer written in place (every read of the carried tensor in
a loop body precedes the body's write, which is what lets it do so), and LLVM
sees plain loads and stores. Leading dimensions are batch dimensions: one
`scf.for` per batch dimension wraps the per-matrix loops, which index the
operands with the batch induction variables (no reshapes, so the result is the
loop's own buffer and no copy is needed at the end).

Element types: f32, f64, complex<f32> and complex<f64> compute in their own
type (complex arithmetic in the `complex` dialect, expanded by
convert-complex-to-standard). f16 and bf16 compute in f32 (the operands are
widened once up front, the result is rounded once at the end), as XLA's CPU
backend computes these ops in f32.

Cholesky
========

The row-oriented Cholesky–Banachiewicz algorithm on the lower factor `L`,
`a = L·Lᴴ` (`Lᴴ` = `Lᵀ` for real types), row by row::

    for i in 0..n:                # rows
        for j in 0..i:            # L[i, j] = (a[i, j] - L[i, :j]·conj(L[j, :j])) / L[j, j]
        L[i, i] = sqrt(re(a[i, i] - L[i, :i]·conj(L[i, :i])))

Every dot product runs along two rows of `L`, contiguous in memory, for
n³/6 multiply-adds; the products are summed with `reassoc` (as a `dot` is:
the order of a sum is unspecified) so LLVM vectorizes them (complex sums stay
in order: the complex dialect's add carries no flags). `L` is built in a
zero-filled work tensor of the computation type. `lower = true` reads
`a[i, j]` with `j <= i`; `lower = false` computes `U = Lᴴ` (`a = Uᴴ·U`) from
the upper triangle by reading `conj(a[j, i])` instead. Only that triangle is
read. The imaginary part of the diagonal is not used, as in LAPACK's potrf (a
Hermitian matrix has a real diagonal; for other inputs the spec leaves the
result implementation-defined).

An epilogue `linalg.generic` writes the result: `L` (lower) or `Lᴴ` (upper, a
transposed read), so the other triangle holds zeros — what XLA's CPU backend
returns for an HLO `cholesky` (checked with jaxlib 0.10.2; its expander starts
from `l = ZerosLike(a)`) and what `jnp.linalg.cholesky` shows.

Not positive definite (implementation-defined by the spec): XLA's
CholeskyExpander takes square roots of the pivots as they come and, if any of
them is NaN (a negative or NaN pivot), returns that matrix entirely NaN. This
lowering does the same, per matrix of the batch: the row loop carries an `i1`
flag "some sqrt gave NaN", stored per matrix in a flags tensor with which the
epilogue selects NaN (`NaN + 0i` for complex, as XLA). NaNs or infinities in
the read triangle reach a pivot, so they give a NaN matrix too; a zero pivot
(singular positive semi-definite matrix) gives `0` on the diagonal and
infinities below it (division by zero), which turn later pivots NaN unless it
is the last one — as in XLA.

TriangularSolve
===============

`op(a) · x = b` (`left_side`) or `x · op(a) = b`, with `op(a)` = `a`, `aᵀ` or
`aᴴ` (`ADJOINT`: every element of `a` read is conjugated, the same as
`TRANSPOSE` for real element types). `x` starts as `b` (the loop's
carried buffer is initialised from `b`) and is overwritten row by row by
forward or back substitution, O(m²·k). The loop order of each of the four
forms streams memory: the innermost loop always walks a row of `x` and, where
`a` is read in it, a row of `a`:

* left, `a`:  row-accumulating — `x[i, :] -= a[i, k] · x[k, :]` over the rows `k`
  solved before `i`, then `x[i, :] /= a[i, i]`;
* left, `aᵀ`: right-looking — `x[i, :] /= a[i, i]`, then
  `x[k, :] -= a[i, k] · x[i, :]` for the rows `k` solved after `i`;
* right, `a`: for each row `r` of `x`, `x[r, i] /= a[i, i]` then
  `x[r, j] -= x[r, i] · a[i, j]` along row `i` of `a` (an axpy);
* right, `aᵀ`: for each row `r`, `x[r, j] = (x[r, j] - x[r, :]·a[j, :]) / a[j, j]`
  over the part already solved (a dot product of two rows, summed `reassoc`).

Rows run ascending when `op(a)` is lower triangular on the left (upper on the
right), else descending. Only the triangle named by `lower` is read, and with
`unit_diagonal` the diagonal is not read (no division). A zero on the diagonal
divides by zero (±inf/NaN), as in XLA.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, complex, math, scf, tensor
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.scalar import scalar_constant
from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    empty,
    filled,
    generic,
    identity_map,
    index_constant,
    lowers,
    map_tensor,
    parallel,
    result_tensor_type,
    round_floats,
    scalar_body_emitter,
)
from xla_dialect.attributes import Transpose
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.linalg import CholeskyOp, TriangularSolveOp
from xla_dialect.syntax import bool_of
from xla_dialect.types import element_type_of, format_type, is_complex, shape_of

# ---------------------------------------------------------------------------
# Loop building
# ---------------------------------------------------------------------------

LoopBody = Callable[[Builder, SSAValue, Sequence[SSAValue]], Sequence[SSAValue]]
"""`body(builder, induction_variable, carried_values) -> values to yield`."""


def for_loop(b: Builder, lb: SSAValue, ub: SSAValue, carried: Sequence[SSAValue], body: LoopBody) -> Sequence[SSAValue]:
    """`scf.for %iv = lb to ub step 1 iter_args(carried)`, body built by `body`;
    returns the loop's results (the final carried values)."""
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    inner = Builder(InsertPoint.at_end(block))
    yielded = body(inner, block.args[0], block.args[1:])
    inner.insert(scf.YieldOp(*yielded))
    step = index_constant(b, 1)
    return b.insert(scf.ForOp(lb, ub, step, carried, block)).results


BatchBody = Callable[[Builder, Sequence[SSAValue], Sequence[SSAValue]], Sequence[SSAValue]]


def batch_loops(b: Builder, extents: Sequence[int], carried: Sequence[SSAValue], body: BatchBody) -> Sequence[SSAValue]:
    """One `scf.for` per batch dimension around `body(builder, batch_indices, carried)`."""

    def level(bb: Builder, indices: list[SSAValue], values: Sequence[SSAValue]) -> Sequence[SSAValue]:
        if len(indices) == len(extents):
            return body(bb, indices, values)
        zero, extent = index_constant(bb, 0), index_constant(bb, extents[len(indices)])
        return for_loop(bb, zero, extent, values, lambda b2, iv, args: level(b2, [*indices, iv], args))

    return level(b, [], carried)


def _add(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.AddiOp(x, y)).result


def _sub(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.SubiOp(x, y)).result


def _extract(b: Builder, t: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
    return b.insert(tensor.ExtractOp(t, list(indices), element_type_of(t.type))).result


def _insert(b: Builder, value: SSAValue, t: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
    return b.insert(tensor.InsertOp(value, t, list(indices))).result


# Scalar arithmetic of the computation type: arith on floats, the `complex`
# dialect on complex values (expanded by convert-complex-to-standard).


def _is_complex_value(x: SSAValue) -> bool:
    return isinstance(x.type, ComplexType)


def _mul(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(complex.MulOp(x, y) if _is_complex_value(x) else arith.MulfOp(x, y)).results[0]


def _subf(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(complex.SubOp(x, y) if _is_complex_value(x) else arith.SubfOp(x, y)).results[0]


def _div(b: Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(complex.DivOp(x, y) if _is_complex_value(x) else arith.DivfOp(x, y)).results[0]


_REASSOC = arith.FastMathFlagsAttr([FastMathFlag.REASSOC])


def _accumulate(b: Builder, acc: SSAValue, x: SSAValue) -> SSAValue:
    """`acc + x`, for floats marked `reassoc` (the order of a sum is unspecified)."""
    if _is_complex_value(acc):
        return b.insert(complex.AddOp(acc, x)).result
    return b.insert(arith.AddfOp(acc, x, _REASSOC)).result


def _conj(b: Builder, x: SSAValue) -> SSAValue:
    """The complex conjugate; a real value itself."""
    return b.insert(complex.ConjOp(x)).result if _is_complex_value(x) else x


def _real_part(b: Builder, x: SSAValue) -> SSAValue:
    return b.insert(complex.ReOp(x)).result if _is_complex_value(x) else x


def _from_real(b: Builder, x: SSAValue, t: Attribute) -> SSAValue:
    """The real `x` as a value of type `t` (imaginary part 0 when complex)."""
    if not isinstance(t, ComplexType):
        return x
    zero = _float_constant(b, 0.0, x.type)
    return b.insert(complex.CreateOp(x, zero, t)).results[0]


def _float_constant(b: Builder, value: float, t: Attribute) -> SSAValue:
    """`value` (+ 0i when `t` is complex)."""
    if isinstance(t, ComplexType):
        return _from_real(b, scalar_constant(scalar_body_emitter(b), value, t.element_type), t)
    return scalar_constant(scalar_body_emitter(b), value, t)


def dot_rows(
    b: Builder, t: SSAValue, row_i: Sequence[SSAValue], row_j: Sequence[SSAValue], lb: SSAValue, ub: SSAValue
) -> SSAValue:
    """`sum(t[*row_i, k] * conj(t[*row_j, k]) for k in [lb, ub))` (0 when empty);
    float sums are `reassoc` so LLVM may split and vectorize them."""
    zero = _float_constant(b, 0.0, element_type_of(t.type))

    def body(bb: Builder, k: SSAValue, acc: Sequence[SSAValue]) -> Sequence[SSAValue]:
        x = _extract(bb, t, [*row_i, k])
        y = _conj(bb, _extract(bb, t, [*row_j, k]))
        return [_accumulate(bb, acc[0], _mul(bb, x, y))]

    return for_loop(b, lb, ub, [zero], body)[0]


# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------


def compute_type(op: Operation, element: Attribute) -> Attribute:
    """The type the op computes in: f32 for f16/bf16, else the element type."""
    if isinstance(element, Float16Type | BFloat16Type):
        return f32
    if isinstance(element, Float32Type | Float64Type):
        return element
    if is_complex(element) and isinstance(element.element_type, Float32Type | Float64Type):
        return element
    raise LoweringError(f"'{op.name}' does not support element type {format_type(element)}", op)


def widened(b: Builder, value: SSAValue, element: Attribute) -> SSAValue:
    """`value` converted element-wise to the wider float type `element` (itself if
    it already has that element type)."""
    t = value.type
    assert isinstance(t, TensorType)
    if t.element_type == element:
        return value
    return map_tensor(b, value, TensorType(element, t.get_shape()), lambda bb, x: bb.insert(arith.ExtFOp(x, element)).result)


# ---------------------------------------------------------------------------
# Cholesky
# ---------------------------------------------------------------------------


def cholesky_matrix(
    b: Builder, a: SSAValue, w: SSAValue, batch: Sequence[SSAValue], n: int, lower: bool
) -> tuple[SSAValue, SSAValue]:
    """Factor one matrix of the batch: the lower factor into `w[*batch]` (only its
    lower triangle is written); returns the new `w` and the i1 flag "a square
    root gave NaN" (not positive definite)."""
    zero, size = index_constant(b, 0), index_constant(b, n)
    false = b.insert(arith.ConstantOp(IntegerAttr(0, IntegerType(1)))).result

    def read_a(bb: Builder, i: SSAValue, j: SSAValue) -> SSAValue:
        """Element (i, j), j <= i, of the Hermitian input, from the triangle `lower`
        names (the upper one holds its conjugate)."""
        if lower:
            return _extract(bb, a, [*batch, i, j])
        return _conj(bb, _extract(bb, a, [*batch, j, i]))

    def row(bb: Builder, i: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        w_row, bad = carried

        def column(bc: Builder, j: SSAValue, carried_col: Sequence[SSAValue]) -> Sequence[SSAValue]:
            (w_col,) = carried_col
            s = dot_rows(bc, w_col, [*batch, i], [*batch, j], zero, j)
            numerator = _subf(bc, read_a(bc, i, j), s)
            pivot = _extract(bc, w_col, [*batch, j, j])
            return [_insert(bc, _div(bc, numerator, pivot), w_col, [*batch, i, j])]

        (w_row,) = for_loop(bb, zero, i, [w_row], column)
        s = dot_rows(bb, w_row, [*batch, i], [*batch, i], zero, i)
        pivot = _real_part(bb, _subf(bb, read_a(bb, i, i), s))
        root = bb.insert(math.SqrtOp(pivot)).result
        is_nan = bb.insert(arith.CmpfOp(root, root, "uno")).result
        bad = bb.insert(arith.OrIOp(bad, is_nan)).result
        return [_insert(bb, _from_real(bb, root, element_type_of(w.type)), w_row, [*batch, i, i]), bad]

    w, bad = for_loop(b, zero, size, [w, false], row)
    return w, bad


@lowers(CholeskyOp)
def lower_cholesky(cx: Converter, op: CholeskyOp, b: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    shape = tuple(result_type.get_shape())
    rank, n = len(shape), shape[-1]
    batch_shape = shape[:-2]
    element = result_type.element_type
    ct = compute_type(op, element_type_of(op.a.type))
    lower = bool_of(op.lower)

    a = widened(b, cx.get(op.a), ct)
    work = filled(b, _float_constant(b, 0.0, ct), TensorType(ct, shape))
    flags = empty(b, TensorType(IntegerType(1), batch_shape))

    def per_matrix(bb: Builder, batch: Sequence[SSAValue], carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        w, f = carried
        w, bad = cholesky_matrix(bb, a, w, batch, n, lower)
        return [w, _insert(bb, bad, f, batch)]

    work, flags = batch_loops(b, batch_shape, [work, flags], per_matrix)

    # Epilogue: the factor (transposed for `lower = false`), NaN where the
    # factorization failed, rounded to the result type.
    batch_dims = list(range(rank - 2))
    work_map = identity_map(rank) if lower else dims_map(rank, [*batch_dims, rank - 1, rank - 2])

    def body(bb: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        nan = _float_constant(bb, float("nan"), ct)
        factor = args[0] if lower else _conj(bb, args[0])
        value = bb.insert(arith.SelectOp(args[1], nan, factor)).result
        if ct != element:
            value = bb.insert(arith.TruncFOp(value, element)).result
        return [value]

    (result,) = generic(
        b,
        [work, flags],
        [work_map, dims_map(rank, batch_dims)],
        [empty(b, result_type)],
        [identity_map(rank)],
        parallel(rank),
        body,
    )
    return [result]


# ---------------------------------------------------------------------------
# TriangularSolve
# ---------------------------------------------------------------------------


class _Solve:
    """Builds the substitution loops of one matrix of a triangular solve."""

    def __init__(
        self,
        b: Builder,
        a: SSAValue,
        batch: Sequence[SSAValue],
        m: int,
        *,
        ascending: bool,
        unit_diagonal: bool,
        conjugate: bool,
    ):
        self.a = a
        self.conjugate = conjugate
        self.batch = list(batch)
        self.ascending = ascending
        self.unit_diagonal = unit_diagonal
        self.zero = index_constant(b, 0)
        self.one = index_constant(b, 1)
        self.m = index_constant(b, m)
        self.last = None if ascending else index_constant(b, m - 1)

    def a_at(self, b: Builder, i: SSAValue, j: SSAValue) -> SSAValue:
        """a[i, j], conjugated for `ADJOINT` (all reads of a transposed `a` are
        reads of `op(a)`)."""
        value = _extract(b, self.a, [*self.batch, i, j])
        return _conj(b, value) if self.conjugate else value

    def order(self, b: Builder, t: SSAValue) -> SSAValue:
        """The t-th index in solving order."""
        return t if self.last is None else _sub(b, self.last, t)

    def before(self, b: Builder, i: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The (lb, ub) range of the indices solved before `i`."""
        return (self.zero, i) if self.ascending else (_add(b, i, self.one), self.m)

    def after(self, b: Builder, i: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The (lb, ub) range of the indices solved after `i`."""
        return (_add(b, i, self.one), self.m) if self.ascending else (self.zero, i)

    def steps(self, b: Builder, x: SSAValue, body: LoopBody) -> SSAValue:
        """Run `body(builder, i, [x])` for each index `i` in solving order."""

        def step(bb: Builder, t: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
            return body(bb, self.order(bb, t), carried)

        return for_loop(b, self.zero, self.m, [x], step)[0]

    def divide(self, b: Builder, value: SSAValue, i: SSAValue) -> SSAValue:
        """`value / a[i, i]`, or `value` with a unit diagonal (not read)."""
        return value if self.unit_diagonal else _div(b, value, self.a_at(b, i, i))


def axpy_row(
    b: Builder, x: SSAValue, dst: Sequence[SSAValue], coefficient: SSAValue, src: Sequence[SSAValue], count: SSAValue
) -> SSAValue:
    """`x[*dst, c] -= coefficient * x[*src, c]` for c in [0, count)."""
    zero = index_constant(b, 0)

    def body(bb: Builder, c: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        (xc,) = carried
        old = _extract(bb, xc, [*dst, c])
        product = _mul(bb, coefficient, _extract(bb, xc, [*src, c]))
        return [_insert(bb, _subf(bb, old, product), xc, [*dst, c])]

    return for_loop(b, zero, count, [x], body)[0]


def scale_row(b: Builder, s: _Solve, x: SSAValue, row: Sequence[SSAValue], i: SSAValue, count: SSAValue) -> SSAValue:
    """`x[*row, c] /= a[i, i]` for c in [0, count) (nothing with a unit diagonal)."""
    if s.unit_diagonal:
        return x
    pivot = s.a_at(b, i, i)

    def body(bb: Builder, c: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        (xc,) = carried
        return [_insert(bb, _div(bb, _extract(bb, xc, [*row, c]), pivot), xc, [*row, c])]

    return for_loop(b, s.zero, count, [x], body)[0]


def solve_left(b: Builder, s: _Solve, x: SSAValue, k: int, transpose: bool) -> SSAValue:
    """`op(a) · x = b` for one matrix; `x` is [m, k] and holds `b` on entry."""
    cols = index_constant(b, k)
    batch = s.batch

    def row_accumulating(bb: Builder, i: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        # x[i, :] = (b[i, :] - sum_k a[i, k] x[k, :]) / a[i, i], k solved before i.
        def update(bk: Builder, kk: SSAValue, c: Sequence[SSAValue]) -> Sequence[SSAValue]:
            return [axpy_row(bk, c[0], [*batch, i], s.a_at(bk, i, kk), [*batch, kk], cols)]

        lb, ub = s.before(bb, i)
        (xi,) = for_loop(bb, lb, ub, carried, update)
        return [scale_row(bb, s, xi, [*batch, i], i, cols)]

    def right_looking(bb: Builder, i: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        # x[i, :] is final once divided; remove it from the rows solved after i:
        # x[k, :] -= op(a)[k, i] x[i, :] with op(a)[k, i] = a[i, k].
        xi = scale_row(bb, s, carried[0], [*batch, i], i, cols)

        def update(bk: Builder, kk: SSAValue, c: Sequence[SSAValue]) -> Sequence[SSAValue]:
            return [axpy_row(bk, c[0], [*batch, kk], s.a_at(bk, i, kk), [*batch, i], cols)]

        lb, ub = s.after(bb, i)
        return for_loop(bb, lb, ub, [xi], update)

    return s.steps(b, x, right_looking if transpose else row_accumulating)


def solve_right(b: Builder, s: _Solve, x: SSAValue, k: int, transpose: bool) -> SSAValue:
    """`x · op(a) = b` for one matrix; `x` is [k, m] and holds `b` on entry. Each
    row of `x` is an independent system, solved in turn."""
    batch = s.batch

    def per_row(br: Builder, r: SSAValue, carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        row = [*batch, r]

        def axpy_form(bb: Builder, i: SSAValue, c: Sequence[SSAValue]) -> Sequence[SSAValue]:
            # x[r, i] /= a[i, i]; then x[r, j] -= x[r, i] a[i, j] for j solved after i.
            xi = s.divide(bb, _extract(bb, c[0], [*row, i]), i)
            xr = _insert(bb, xi, c[0], [*row, i])

            def update(bj: Builder, j: SSAValue, cj: Sequence[SSAValue]) -> Sequence[SSAValue]:
                old = _extract(bj, cj[0], [*row, j])
                return [_insert(bj, _subf(bj, old, _mul(bj, xi, s.a_at(bj, i, j))), cj[0], [*row, j])]

            lb, ub = s.after(bb, i)
            return for_loop(bb, lb, ub, [xr], update)

        def dot_form(bb: Builder, j: SSAValue, c: Sequence[SSAValue]) -> Sequence[SSAValue]:
            # x[r, j] = (x[r, j] - sum_i x[r, i] a[j, i]) / a[j, j], i solved before j.
            lb, ub = s.before(bb, j)
            total = _dot_with_a(bb, c[0], row, s, j, lb, ub)
            value = s.divide(bb, _subf(bb, _extract(bb, c[0], [*row, j]), total), j)
            return [_insert(bb, value, c[0], [*row, j])]

        return [s.steps(br, carried[0], dot_form if transpose else axpy_form)]

    return for_loop(b, s.zero, index_constant(b, k), [x], per_row)[0]


def _dot_with_a(
    b: Builder, x: SSAValue, row: Sequence[SSAValue], s: _Solve, j: SSAValue, lb: SSAValue, ub: SSAValue
) -> SSAValue:
    """`sum(x[*row, i] * a[j, i] for i in [lb, ub))`, summed with `reassoc`."""
    zero = _float_constant(b, 0.0, element_type_of(x.type))

    def body(bb: Builder, i: SSAValue, acc: Sequence[SSAValue]) -> Sequence[SSAValue]:
        product = _mul(bb, _extract(bb, x, [*row, i]), s.a_at(bb, j, i))
        return [_accumulate(bb, acc[0], product)]

    return for_loop(b, lb, ub, [zero], body)[0]


@lowers(TriangularSolveOp)
def lower_triangular_solve(cx: Converter, op: TriangularSolveOp, b: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    shape = tuple(result_type.get_shape())
    element = result_type.element_type
    ct = compute_type(op, element_type_of(op.a.type))
    left = bool_of(op.left_side)
    lower = bool_of(op.lower)
    transpose = op.transpose_a.data != Transpose.NO_TRANSPOSE
    conjugate = op.transpose_a.data == Transpose.ADJOINT and is_complex(ct)
    m = shape_of(op.a.type)[-1]
    k = shape[-1] if left else shape[-2]
    # op(a) is lower triangular iff lower != transpose; on the left a lower
    # op(a) is solved from the first row, on the right from the last column.
    ascending = (lower != transpose) == left

    a = widened(b, cx.get(op.a), ct)
    x = widened(b, cx.get(op.b), ct)

    def per_matrix(bb: Builder, batch: Sequence[SSAValue], carried: Sequence[SSAValue]) -> Sequence[SSAValue]:
        unit = bool_of(op.unit_diagonal)
        s = _Solve(bb, a, batch, m, ascending=ascending, unit_diagonal=unit, conjugate=conjugate)
        solve = solve_left if left else solve_right
        return [solve(bb, s, carried[0], k, transpose)]

    (x,) = batch_loops(b, shape[:-2], [x], per_matrix)
    if ct != element:
        x = round_floats(b, x, result_type)
    return [x]


__all__ = ["lower_cholesky", "lower_triangular_solve"]
