"""The work of `convert-complex-to-standard` (`lowering/complex_to_standard.py`): the arithmetic of xDSL's `complex` dialect →
`arith`/`math` on the real and imaginary parts (MLIR's ComplexToStandard).

What stays: `complex.create`, `complex.re` and `complex.im` (and complex values
in loads, stores, yields and block arguments), which `convert-complex-to-llvm`
(lowering.to_llvm.complex) turns into `!llvm.struct<(fT, fT)>` values. A
`complex.re/im` of a `complex.create` reads the part directly, so chains of
complex ops never go through the struct. `arith.select` of complex values
selects each part.

The algorithms (z = a + bi, w = c + di; all on the parts' float type):

* `add`, `sub`, `neg`, `conj`; `mul` is the textbook `(ac - bd) + (ad + bc)i`,
  as XLA and NumPy compute it;
* `div`: Smith's algorithm (scale by the larger part of the divisor, so that
  `|w|²` is never formed), then, where that yields NaN + NaN i, the recovery of
  C99 Annex G that XLA also applies: `z/0` = `(copysign(inf, c) a, copysign(inf,
  c) b)`, infinite / finite = infinite, finite / infinite = zero;
* `abs`: `max · sqrt(1 + (min/max)²)` of the parts' magnitudes (no overflow or
  underflow of the squares), 0 for 0, +inf when a part is infinite (even NaN);
* `angle`: `atan2(b, a)`;
* `log`: `log|z| + i angle(z)`; `log|z|` is `0.5 log1p((m-1)(m+1) + n²)` when
  the larger magnitude m is within [0.5, 2], with the products and `m + 1` kept
  exact as pairs of floats (near |z| = 1 the two terms cancel: 20 ulp when each was
  rounded), else `log m + 0.5 log1p((n/m)²)` (no overflow of |z|);
  `log1p(z)` is `0.5 log1p(a(2+a) + b²) + i atan2(b, 1+a)` for small z;
* `exp`: `e^a (cos b + i sin b)` (exact `e^a + 0i` for b = 0; `(e^(a/2) cos b)
  e^(a/2)` where e^a alone overflows); `expm1`:
  `(expm1(a) cos b - 2 sin²(b/2)) + i e^a sin b`, the real part (which cancels where
  `e^a cos b` is near 1) in f64 for complex<f32>; for complex<f64> with exact
  products and difference, and where it cancels (0 < a <= 50, |b| <= 2^20) in double
  words (`lowering.double_word`, an `scf.if`); the real expm1 on the real axis;
* `sqrt`: on z scaled by 1/4 (huge z) or 4^k (tiny z) and unscaled by the root
  of the factor, `t = sqrt((|a| + |z|)/2)`, then `t + i b/(2t)` for a >= 0 and
  `|b|/(2t) + i copysign(t, b)` otherwise; `sqrt(0 + bi) = 0 + bi` and an
  infinite imaginary part gives `inf + bi`; `rsqrt` is `1 / sqrt` by the division
  above;
* `sin`, `cos`: with `sinh`/`cosh` of b (a zero `sin a` stays zero against an
  infinite `cosh b`/`sinh b`); `tanh`: Kahan's formulation (from
  `tan b` and `sinh a`, no overflow), `±1 + 4 sin b cos b e^(-2|a|) i` beyond
  |a| > 22; `tan(z) = -i tanh(iz)`;
* `sign`: `z / |z|`, 0 for 0;
* `pow`: `exp(w log z)` in polar form (in f64 for complex<f32>, each part rounded
  once); where |w log z| > 0.5 (complex<f64>; 2^20 for complex<f32>), whose error
  the f64 formula multiplies, `w log z` and its exponential again in double words, by a
  call of one private function per module (`lowering.double_word.pow_dw`, in an `scf.if`);
  `z^0 = 1`, `0^w = 0` for `re(w) > 0`;
* `eq`: both parts ordered-equal; `neq`: either part unordered-unequal.

Complex atan2 and bitcast are not expanded (the xla lowering composes atan2
from the ops above; it never emits `complex.atan2` or `complex.bitcast`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.dialects import arith, complex, func, math, scf
from xdsl.dialects.builtin import ComplexType, Float64Type, FloatAttr, ModuleOp, StringAttr, f64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from lowering import double_word
from lowering.to_llvm.common import enclosing_module
from xla_dialect.diagnostics import LoweringError

Parts = tuple[SSAValue, SSAValue]


T = TypeVar("T")
U = TypeVar("U")


class _Emitter:
    """Float arithmetic inserted before the op being rewritten."""

    def __init__(
        self, rewriter: PatternRewriter, t: Attribute, block: Block | None = None, anchor: Operation | None = None
    ):
        self.rewriter = rewriter
        self.t = t
        self.block = block
        """Where the ops go: before the rewritten op, or appended to this block (a branch)."""
        self.anchor = anchor
        """The op being rewritten (to find its module, for shared helper functions)."""
        self.constants: dict[float, SSAValue] = {}

    def place(self, op: Operation) -> Operation:
        """Insert `op` where this emitter's ops go."""
        if self.block is not None:
            self.block.add_op(op)
            return op
        return self.rewriter.insert(op)

    def r(self, op: Operation) -> SSAValue:
        return self.place(op).results[0]

    def branch_values(
        self, cond: SSAValue, then: Callable[[_Emitter], Sequence[SSAValue]], otherwise: Sequence[SSAValue]
    ) -> Sequence[SSAValue]:
        """`then(...)` computed only where `cond` holds (an `scf.if`), else `otherwise`."""
        then_block, else_block = Block(), Block()
        inner = _Emitter(self.rewriter, self.t, then_block, self.anchor)
        then_block.add_op(scf.YieldOp(*then(inner)))
        else_block.add_op(scf.YieldOp(*otherwise))
        return self.place(scf.IfOp(cond, [v.type for v in otherwise], Region(then_block), Region(else_block))).results

    def branch(self, cond: SSAValue, then: Callable[[_Emitter], SSAValue], otherwise: SSAValue) -> SSAValue:
        """`branch_values` for one value."""
        return self.branch_values(cond, lambda inner: [then(inner)], [otherwise])[0]

    def branch2(self, cond: SSAValue, then: Callable[[_Emitter], Parts], otherwise: Parts) -> Parts:
        """`branch_values` for a pair of values."""
        re, im = self.branch_values(cond, then, otherwise)
        return re, im

    def interleave(self, first: Callable[[_Emitter], T], second: Callable[[_Emitter], U]) -> tuple[T, U]:
        """Two independent computations, their ops emitted interleaved in proportion to
        their lengths: the core overlaps their latency chains (complex<f64> pow's double
        words: 930 -> 780 ns an element, where each ran after the other)."""
        blocks = (Block(), Block())
        results = (
            first(_Emitter(self.rewriter, self.t, blocks[0], self.anchor)),
            second(_Emitter(self.rewriter, self.t, blocks[1], self.anchor)),
        )
        lists = [list(block.ops) for block in blocks]
        order = sorted(((i + 0.5) / len(ops), k, i) for k, ops in enumerate(lists) for i in range(len(ops)))
        for _, k, i in order:
            op = lists[k][i]
            op.detach()
            self.place(op)
        return results

    def c(self, value: float) -> SSAValue:
        """A float constant (one per value and rewritten op)."""
        if value not in self.constants:
            self.constants[value] = self.r(arith.ConstantOp(FloatAttr(value, self.t)))  # pyright: ignore[reportArgumentType]
        return self.constants[value]

    def add(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.AddfOp(x, y))

    def sub(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.SubfOp(x, y))

    def mul(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.MulfOp(x, y))

    def div(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.DivfOp(x, y))

    def neg(self, x: SSAValue) -> SSAValue:
        return self.r(arith.NegfOp(x))

    def abs(self, x: SSAValue) -> SSAValue:
        return self.r(math.AbsFOp(x))

    def sqrt(self, x: SSAValue) -> SSAValue:
        return self.r(math.SqrtOp(x))

    def math1(self, cls: Callable[[SSAValue], Operation], x: SSAValue) -> SSAValue:
        return self.r(cls(x))

    def copysign(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(math.CopySignOp(x, y))

    def cmp(self, pred: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.CmpfOp(x, y, pred))

    def and_(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.AndIOp(x, y))

    def or_(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.OrIOp(x, y))

    def not_(self, x: SSAValue) -> SSAValue:
        true = self.r(arith.ConstantOp.from_int_and_width(1, 1))
        return self.r(arith.XOrIOp(x, true))

    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.SelectOp(cond, x, y))

    def select2(self, cond: SSAValue, x: Parts, y: Parts) -> Parts:
        return self.select(cond, x[0], y[0]), self.select(cond, x[1], y[1])

    def is_nan(self, x: SSAValue) -> SSAValue:
        return self.cmp("uno", x, x)

    def is_inf(self, x: SSAValue) -> SSAValue:
        return self.cmp("oeq", self.abs(x), self.c(float("inf")))

    def is_finite(self, x: SSAValue) -> SSAValue:
        return self.cmp("one", self.abs(x), self.c(float("inf")))

    # -- parts ----------------------------------------------------------------

    def parts(self, z: SSAValue) -> Parts:
        owner = z.owner
        if isinstance(owner, complex.CreateOp):
            return owner.real, owner.imaginary
        return self.r(complex.ReOp(z)), self.r(complex.ImOp(z))


# ---------------------------------------------------------------------------
# The algorithms, on parts
# ---------------------------------------------------------------------------


def complex_divide(e: _Emitter, x: Parts, y: Parts) -> Parts:
    """Smith's division with C99 Annex G's recovery of infinities and zeros."""
    a, b = x
    c, d = y
    zero, one, inf = e.c(0.0), e.c(1.0), e.c(float("inf"))
    c_larger = e.cmp("oge", e.abs(c), e.abs(d))
    # |c| >= |d|: r = d/c, den = c + d r, ((a + b r) + (b - a r) i) / den
    r1 = e.div(d, c)
    den1 = e.add(c, e.mul(d, r1))
    re1 = e.div(e.add(a, e.mul(b, r1)), den1)
    im1 = e.div(e.sub(b, e.mul(a, r1)), den1)
    # |c| < |d|: r = c/d, den = d + c r, ((a r + b) + (b r - a) i) / den
    r2 = e.div(c, d)
    den2 = e.add(d, e.mul(c, r2))
    re2 = e.div(e.add(e.mul(a, r2), b), den2)
    im2 = e.div(e.sub(e.mul(b, r2), a), den2)
    result = e.select2(c_larger, (re1, im1), (re2, im2))

    both_nan = e.and_(e.is_nan(result[0]), e.is_nan(result[1]))
    # 1. z / 0 with z not NaN: infinities with the signs of the numerator's parts.
    y_zero = e.and_(e.cmp("oeq", c, zero), e.cmp("oeq", d, zero))
    x_not_nan = e.and_(e.cmp("ord", a, a), e.cmp("ord", b, b))
    signed_inf = e.copysign(inf, c)
    by_zero = (e.mul(signed_inf, a), e.mul(signed_inf, b))
    # 2. infinite / finite: an infinity in the direction of the quotient.
    a_inf, b_inf = e.is_inf(a), e.is_inf(b)
    c_fin, d_fin = e.is_finite(c), e.is_finite(d)
    inf_num = e.and_(e.or_(a_inf, b_inf), e.and_(c_fin, d_fin))
    a1 = e.copysign(e.select(a_inf, one, zero), a)
    b1 = e.copysign(e.select(b_inf, one, zero), b)
    inf_result = (
        e.mul(inf, e.add(e.mul(a1, c), e.mul(b1, d))),
        e.mul(inf, e.sub(e.mul(b1, c), e.mul(a1, d))),
    )
    # 3. finite / infinite: a signed zero.
    c_inf, d_inf = e.is_inf(c), e.is_inf(d)
    a_fin, b_fin = e.is_finite(a), e.is_finite(b)
    inf_den = e.and_(e.or_(c_inf, d_inf), e.and_(a_fin, b_fin))
    c1 = e.copysign(e.select(c_inf, one, zero), c)
    d1 = e.copysign(e.select(d_inf, one, zero), d)
    zero_result = (
        e.mul(zero, e.add(e.mul(a, c1), e.mul(b, d1))),
        e.mul(zero, e.sub(e.mul(b, c1), e.mul(a, d1))),
    )
    result = e.select2(e.and_(both_nan, inf_den), zero_result, result)
    result = e.select2(e.and_(both_nan, inf_num), inf_result, result)
    return e.select2(e.and_(both_nan, e.and_(y_zero, x_not_nan)), by_zero, result)


def complex_abs(e: _Emitter, x: Parts) -> SSAValue:
    a, b = e.abs(x[0]), e.abs(x[1])
    zero, one, inf = e.c(0.0), e.c(1.0), e.c(float("inf"))
    big = e.r(arith.MaximumfOp(a, b))
    small = e.r(arith.MinimumfOp(a, b))
    ratio = e.div(small, big)
    scaled = e.mul(big, e.sqrt(e.add(one, e.mul(ratio, ratio))))
    result = e.select(e.cmp("oeq", big, zero), zero, scaled)
    return e.select(e.or_(e.is_inf(a), e.is_inf(b)), inf, result)


def _two_sum(e: _Emitter, a: SSAValue, b: SSAValue) -> Parts:
    """(s, err) with s = fl(a + b) and s + err = a + b exactly (Knuth)."""
    s = e.add(a, b)
    bb = e.sub(s, a)
    return s, e.add(e.sub(a, e.sub(s, bb)), e.sub(b, bb))


def _two_prod(e: _Emitter, a: SSAValue, b: SSAValue) -> Parts:
    """(p, err) with p = fl(a b) and p + err = a b exactly (one fma)."""
    p = e.mul(a, b)
    return p, e.r(math.FmaOp(a, b, e.neg(p)))


def log_abs(e: _Emitter, x: Parts) -> SSAValue:
    """log|z|, accurate near |z| = 1."""
    a, b = e.abs(x[0]), e.abs(x[1])
    one, half = e.c(1.0), e.c(0.5)
    big = e.r(arith.MaximumfOp(a, b))
    small = e.r(arith.MinimumfOp(a, b))
    near_one = e.and_(e.cmp("oge", big, half), e.cmp("ole", big, e.c(2.0)))
    # m^2 + n^2 - 1 = (m - 1)(m + 1) + n^2 as exact products and sums (m - 1 is exact
    # here): the two leading terms cancel near |z| = 1 and only their sum is rounded.
    m_minus_1 = e.sub(big, one)
    u, u_err = _two_sum(e, big, one)
    p, p_err = _two_prod(e, m_minus_1, u)
    n2, n2_err = _two_prod(e, small, small)
    tail = e.add(e.add(p_err, n2_err), e.mul(m_minus_1, u_err))
    shifted = e.add(e.add(p, n2), tail)
    near = e.mul(half, e.math1(math.Log1pOp, shifted))
    # log m + log1p((n/m)^2)/2: |z| itself would overflow beyond the largest float.
    ratio = e.div(small, big)
    far = e.add(e.math1(math.LogOp, big), e.mul(half, e.math1(math.Log1pOp, e.mul(ratio, ratio))))
    inf = e.c(float("inf"))
    far = e.select(e.cmp("oeq", big, e.c(0.0)), e.c(float("-inf")), far)
    far = e.select(e.or_(e.is_inf(a), e.is_inf(b)), inf, far)
    return e.select(near_one, near, far)


def complex_log(e: _Emitter, x: Parts) -> Parts:
    return log_abs(e, x), e.r(math.Atan2Op(x[1], x[0]))


def complex_log1p(e: _Emitter, x: Parts) -> Parts:
    a, b = x
    one, half = e.c(1.0), e.c(0.5)
    a1 = e.add(a, one)
    small = e.and_(e.cmp("olt", e.abs(a), half), e.cmp("olt", e.abs(b), half))
    near = e.mul(half, e.math1(math.Log1pOp, e.add(e.mul(a, e.add(a, e.c(2.0))), e.mul(b, b))))
    far = log_abs(e, (a1, b))
    return e.select(small, near, far), e.r(math.Atan2Op(b, a1))


def complex_exp(e: _Emitter, x: Parts) -> Parts:
    a, b = x
    ea = e.math1(math.ExpOp, a)
    cos_b, sin_b = e.math1(math.CosOp, b), e.math1(math.SinOp, b)
    re = e.mul(ea, cos_b)
    im = e.mul(ea, sin_b)
    # Where e^a overflows, e^a cos b or e^a sin b may not: (e^(a/2) cos b) e^(a/2).
    half = e.math1(math.ExpOp, e.mul(a, e.c(0.5)))
    overflow = e.and_(e.is_inf(ea), e.is_finite(a))
    re = e.select(overflow, e.mul(e.mul(half, cos_b), half), re)
    im = e.select(overflow, e.mul(e.mul(half, sin_b), half), im)
    real_only = e.cmp("oeq", b, e.c(0.0))
    return e.select(real_only, ea, re), e.select(real_only, b, im)


def _expm1_real(e: _Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """expm1(a) cos b - 2 sin^2(b/2): the two terms cancel where e^a cos b is near 1."""
    half_sin = e.math1(math.SinOp, e.mul(b, e.c(0.5)))
    return e.sub(
        e.mul(e.math1(math.ExpM1Op, a), e.math1(math.CosOp, b)),
        e.mul(e.c(2.0), e.mul(half_sin, half_sin)),
    )


def _expm1_real_exact_products(e: _Emitter, a: SSAValue, b: SSAValue) -> Parts:
    """`_expm1_real` with the products and the difference exact (double words), rounded
    once: only the libm values' own errors are amplified where the terms cancel. Where
    the plain f64 sum is infinite, NaN or the double word's sum is zero, the plain sum
    (its infinities and the sign of its zeros). Also returns |expm1(a) cos b| + |2 sin²(b/2)|,
    the size of the terms."""
    half_sin = e.math1(math.SinOp, e.mul(b, e.c(0.5)))
    product = double_word.two_prod(e, e.math1(math.ExpM1Op, a), e.math1(math.CosOp, b))
    sq_hi, sq_lo = double_word.two_prod(e, half_sin, half_sin)
    minus_two = e.c(-2.0)
    versine = (e.mul(minus_two, sq_hi), e.mul(minus_two, sq_lo))
    exact = double_word.add(e, product, versine)[0]
    plain = e.add(product[0], versine[0])
    use_exact = e.and_(e.is_finite(plain), e.cmp("one", exact, e.c(0.0)))
    return e.select(use_exact, exact, plain), e.add(e.abs(product[0]), e.abs(versine[0]))


def complex_expm1(e: _Emitter, x: Parts) -> Parts:
    a, b = x
    if isinstance(e.t, Float64Type):
        # The double-word real part (a branch: ~10x the f64 formula's time) where the
        # terms cancel (the result below 0.8 of their sum, so the f64 formula's error
        # is amplified more than 1.25 times; only for a > 0) and b reduces here; elsewhere
        # the f64 formula (which does not cancel there, or b is huge).
        re, terms = _expm1_real_exact_products(e, a, b)
        cancels = e.and_(
            e.and_(e.cmp("ogt", a, e.c(0.0)), e.cmp("ole", a, e.c(double_word.EXPM1_MAX_RE))),
            e.and_(
                e.cmp("ole", e.abs(b), e.c(double_word.EXPM1_MAX_IM)),
                e.cmp("olt", e.abs(re), e.mul(e.c(0.8), terms)),
            ),
        )
        re = e.branch(cancels, lambda inner: double_word.expm1_real(inner, a, b), re)
        # On the real axis, the real expm1 (its value, signed zeros and infinities).
        re = e.select(e.cmp("oeq", b, e.c(0.0)), e.math1(math.ExpM1Op, a), re)
    else:  # complex<f32>: the cancelling real part in f64, rounded once (7 ulp -> 0.5)
        wide = _Emitter(e.rewriter, f64, anchor=e.anchor)
        re_wide = _expm1_real(wide, e.r(arith.ExtFOp(a, f64)), e.r(arith.ExtFOp(b, f64)))
        re = e.r(arith.TruncFOp(re_wide, e.t))
    ea = e.math1(math.ExpOp, a)
    im = e.mul(ea, e.math1(math.SinOp, b))
    # Where e^a overflows, the -1 is far below the last bit: exp(z), which handles that.
    overflow = e.and_(e.is_inf(ea), e.is_finite(a))
    re, im = e.select2(overflow, complex_exp(e, x), (re, im))
    return re, e.select(e.cmp("oeq", b, e.c(0.0)), b, im)


def complex_sqrt(e: _Emitter, x: Parts) -> Parts:
    """Computed on z scaled by an even power of two (4^-1 for huge z, whose modulus
    would overflow; 4^k for tiny z, whose halving would lose bits), then unscaled."""
    a0, b0 = x
    zero, half, inf = e.c(0.0), e.c(0.5), e.c(float("inf"))
    wide = isinstance(e.t, Float64Type)
    big = e.r(arith.MaximumfOp(e.abs(a0), e.abs(b0)))
    huge = e.cmp("oge", big, e.c(2.0 ** (1021 if wide else 125)))
    up = 2.0 ** (500 if wide else 60)
    tiny = e.cmp("olt", big, e.c(2.0 ** (-900 if wide else -100)))
    scale = e.select(huge, e.c(0.25), e.select(tiny, e.c(up * up), e.c(1.0)))
    unscale = e.select(huge, e.c(2.0), e.select(tiny, e.c(1.0 / up), e.c(1.0)))
    a, b = e.mul(a0, scale), e.mul(b0, scale)
    modulus = complex_abs(e, (a, b))
    t = e.sqrt(e.add(e.mul(half, e.abs(a)), e.mul(half, modulus)))
    two_t = e.add(t, t)
    non_negative = (t, e.div(b, two_t))
    negative = (e.div(e.abs(b), two_t), e.copysign(t, b))
    result = e.select2(e.cmp("oge", a, zero), non_negative, negative)
    result = (e.mul(result[0], unscale), e.mul(result[1], unscale))
    result = e.select2(e.cmp("oeq", modulus, zero), (zero, b0), result)
    return e.select2(e.is_inf(b0), (inf, b0), result)


def complex_sin_cos(e: _Emitter, x: Parts, *, cosine: bool) -> Parts:
    a, b = x
    ch = e.math1(math.CoshOp, b)
    sh = e.math1(math.SinhOp, b)
    sa, ca = e.math1(math.SinOp, a), e.math1(math.CosOp, a)
    # sin a = 0 (a = +-0) keeps its zero against an infinite cosh/sinh (C99: csin(0 + iy)
    # = 0 + i sinh y), instead of 0 * inf = NaN.
    a_zero = e.cmp("oeq", a, e.c(0.0))
    sa_ch = e.select(a_zero, sa, e.mul(sa, ch))
    sa_sh = e.select(a_zero, e.mul(sa, e.select(e.is_inf(sh), e.c(1.0), sh)), e.mul(sa, sh))
    if cosine:
        return e.mul(ca, ch), e.neg(sa_sh)
    return sa_ch, e.mul(ca, sh)


def complex_tanh(e: _Emitter, x: Parts) -> Parts:
    a, b = x
    one = e.c(1.0)
    t = e.math1(math.TanOp, b)
    beta = e.add(one, e.mul(t, t))
    s = e.math1(math.SinhOp, a)
    s2 = e.mul(s, s)
    rho = e.sqrt(e.add(one, s2))
    den = e.add(one, e.mul(beta, s2))
    re = e.div(e.mul(e.mul(beta, rho), s), den)
    im = e.div(t, den)
    # |a| > 22: tanh a rounds to ±1; the imaginary part is 4 sin b cos b e^(-2|a|).
    large = e.cmp("ogt", e.abs(a), e.c(22.0))
    decay = e.math1(math.ExpOp, e.mul(e.c(-2.0), e.abs(a)))
    sin_cos = e.mul(e.math1(math.SinOp, b), e.math1(math.CosOp, b))
    large_result = (e.copysign(one, a), e.mul(e.c(4.0), e.mul(sin_cos, decay)))
    return e.select2(large, large_result, (re, im))


POW_DW_MIN_K = {"f64": 0.5, "f32": 2.0**20}
"""By the parts' type: the size of `w log z` (|Re| + |Im| of its f64 value) beyond which pow
recomputes it in double words. Below, the f64 formula is within ~1.7 ulp (complex<f64>),
or its error stays below ~2^-9 of an f32 ulp (complex<f32>, computed in f64)."""

POW_DW_FUNCTION = "__xla_complex_pow_dw"
"""The module's private function computing `double_word.pow_dw` (one per module, shared by
every complex pow: ~1,200 ops, compiled once)."""


def _call_pow_dw(e: _Emitter, args: Sequence[SSAValue]) -> Parts:
    """A call of `POW_DW_FUNCTION` (z's parts, w's, log|z| and arg z in f64 -> z^w as a
    complex<f64>: calls return one value), the function added to the module at its first use."""
    assert e.anchor is not None
    module = enclosing_module(e.anchor)
    result_type = ComplexType(f64)
    if not any(isinstance(f, func.FuncOp) and f.sym_name.data == POW_DW_FUNCTION for f in module.ops):
        block = Block(arg_types=[f64] * 6)
        body = _Emitter(e.rewriter, f64, block)
        a, b, c, d, log_r, theta = block.args
        re, im = double_word.pow_dw(body, (a, b), (c, d), log_r, theta)
        block.add_op(func.ReturnOp(body.r(complex.CreateOp(re, im, result_type))))
        function = func.FuncOp(POW_DW_FUNCTION, ([f64] * 6, [result_type]), Region(block), visibility="private")
        function.attributes["llvm.linkage"] = StringAttr("internal")
        e.rewriter.insert(function, InsertPoint.at_end(module.body.block))
    return e.parts(e.r(func.CallOp(POW_DW_FUNCTION, list(args), [result_type])))


def complex_pow(e: _Emitter, x: Parts, y: Parts, *, min_k: float | None = None) -> Parts:
    """exp(w log z). The absolute error of `w log z` becomes the result's relative error
    (~1.5 |w log z| ulps in the working precision). complex<f32> computes in f64 and rounds
    each part once: f64's 29 extra bits absorb it up to |w log z| ~ 2^20. Beyond
    `min_k` (`POW_DW_MIN_K` by type), `w log z` and its exponential are recomputed in
    double words (`double_word.pow_dw`, an `scf.if`), where the f64 values are in its range."""
    if not isinstance(e.t, Float64Type):
        wide = _Emitter(e.rewriter, f64, anchor=e.anchor)
        ext = [e.r(arith.ExtFOp(v, f64)) for v in (*x, *y)]
        re, im = complex_pow(wide, (ext[0], ext[1]), (ext[2], ext[3]), min_k=POW_DW_MIN_K["f32"])
        return e.r(arith.TruncFOp(re, e.t)), e.r(arith.TruncFOp(im, e.t))
    c, d = y
    zero, one = e.c(0.0), e.c(1.0)
    log_r = log_abs(e, x)
    theta = e.r(math.Atan2Op(x[1], x[0]))
    magnitude_arg = e.sub(e.mul(c, log_r), e.mul(d, theta))
    magnitude = e.math1(math.ExpOp, magnitude_arg)
    angle = e.add(e.mul(d, log_r), e.mul(c, theta))
    result = (e.mul(magnitude, e.math1(math.CosOp, angle)), e.mul(magnitude, e.math1(math.SinOp, angle)))
    # A finite f64 t = w log z implies a finite nonzero z and a finite w.
    abs_re, abs_im = e.abs(magnitude_arg), e.abs(angle)
    in_range = e.and_(
        e.cmp("ole", abs_re, e.c(double_word.POW_MAX_RE)), e.cmp("ole", abs_im, e.c(double_word.POW_MAX_IM))
    )
    size = e.add(abs_re, abs_im)
    large = e.cmp("ogt", size, e.c(POW_DW_MIN_K["f64"] if min_k is None else min_k))
    refined = e.branch2(e.and_(in_range, large), lambda inner: _call_pow_dw(inner, (*x, *y, log_r, theta)), result)
    # A zero part (an exactly real or imaginary result, or underflow) keeps the f64
    # formula's sign.
    result = (
        e.select(e.cmp("oeq", refined[0], zero), e.copysign(refined[0], result[0]), refined[0]),
        e.select(e.cmp("oeq", refined[1], zero), e.copysign(refined[1], result[1]), refined[1]),
    )
    base_zero = e.and_(e.cmp("oeq", x[0], zero), e.cmp("oeq", x[1], zero))
    result = e.select2(e.and_(base_zero, e.cmp("ogt", c, zero)), (zero, zero), result)
    exponent_zero = e.and_(e.cmp("oeq", c, zero), e.cmp("oeq", d, zero))
    return e.select2(exponent_zero, (one, zero), result)


# ---------------------------------------------------------------------------
# The patterns
# ---------------------------------------------------------------------------

_Unary = Callable[[_Emitter, Parts], Parts]
_Binary = Callable[[_Emitter, Parts, Parts], Parts]


def _tan(e: _Emitter, x: Parts) -> Parts:
    p, q = complex_tanh(e, (e.neg(x[1]), x[0]))
    return q, e.neg(p)


def _sign(e: _Emitter, x: Parts) -> Parts:
    modulus = complex_abs(e, x)
    zero = e.cmp("oeq", modulus, e.c(0.0))
    return e.select2(zero, x, (e.div(x[0], modulus), e.div(x[1], modulus)))


def _rsqrt(e: _Emitter, x: Parts) -> Parts:
    return complex_divide(e, (e.c(1.0), e.c(0.0)), complex_sqrt(e, x))


def _mul(e: _Emitter, x: Parts, y: Parts) -> Parts:
    (a, b), (c, d) = x, y
    return e.sub(e.mul(a, c), e.mul(b, d)), e.add(e.mul(a, d), e.mul(b, c))


UNARY: dict[type[Operation], _Unary] = {
    complex.NegOp: lambda e, x: (e.neg(x[0]), e.neg(x[1])),
    complex.ConjOp: lambda e, x: (x[0], e.neg(x[1])),
    complex.ExpOp: complex_exp,
    complex.Expm1Op: complex_expm1,
    complex.LogOp: complex_log,
    complex.Log1pOp: complex_log1p,
    complex.SqrtOp: complex_sqrt,
    complex.RsqrtOp: _rsqrt,
    complex.SinOp: lambda e, x: complex_sin_cos(e, x, cosine=False),
    complex.CosOp: lambda e, x: complex_sin_cos(e, x, cosine=True),
    complex.TanhOp: complex_tanh,
    complex.TanOp: _tan,
    complex.SignOp: _sign,
}

BINARY: dict[type[Operation], _Binary] = {
    complex.AddOp: lambda e, x, y: (e.add(x[0], y[0]), e.add(x[1], y[1])),
    complex.SubOp: lambda e, x, y: (e.sub(x[0], y[0]), e.sub(x[1], y[1])),
    complex.MulOp: _mul,
    complex.DivOp: complex_divide,
    complex.PowOp: complex_pow,
}


def _part_type(t: Attribute) -> Attribute:
    assert isinstance(t, ComplexType)
    return t.element_type


class LowerComplexArithmetic(RewritePattern):
    """Every complex op except create/re/im → arith/math on the parts."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("complex.") or isinstance(op, (complex.CreateOp, complex.ReOp, complex.ImOp)):
            return
        operand_type = op.results[0].type if isinstance(op, complex.ConstantOp) else op.operands[0].type
        e = _Emitter(rewriter, _part_type(operand_type), anchor=op)
        if isinstance(op, complex.ConstantOp):
            re, im = op.value.data
            if not isinstance(re, FloatAttr) or not isinstance(im, FloatAttr):
                raise LoweringError("integer complex constants are not supported", op)
            self._replace_parts(op, e, (e.c(re.value.data), e.c(im.value.data)), rewriter)
            return
        kind = type(op)
        if kind in UNARY:
            self._replace_parts(op, e, UNARY[kind](e, e.parts(op.operands[0])), rewriter)
        elif kind in BINARY:
            x, y = e.parts(op.operands[0]), e.parts(op.operands[1])
            self._replace_parts(op, e, BINARY[kind](e, x, y), rewriter)
        elif isinstance(op, complex.AbsOp):
            rewriter.replace(op, [], [complex_abs(e, e.parts(op.complex))])
        elif isinstance(op, complex.AngleOp):
            a, b = e.parts(op.complex)
            rewriter.replace(op, [], [e.r(math.Atan2Op(b, a))])
        elif isinstance(op, (complex.EqualOp, complex.NotEqualOp)):
            (a, b), (c, d) = e.parts(op.operands[0]), e.parts(op.operands[1])
            if isinstance(op, complex.EqualOp):
                result = e.and_(e.cmp("oeq", a, c), e.cmp("oeq", b, d))
            else:
                result = e.or_(e.cmp("une", a, c), e.cmp("une", b, d))
            rewriter.replace(op, [], [result])
        else:
            raise LoweringError(f"'{op.name}' has no expansion into arith/math", op)

    @staticmethod
    def _replace_parts(op: Operation, e: _Emitter, parts: Parts, rewriter: PatternRewriter) -> None:
        t = op.results[0].type
        assert isinstance(t, ComplexType)
        create = complex.CreateOp(parts[0], parts[1], t)
        rewriter.replace(op, [create], [create.complex])


class SelectParts(RewritePattern):
    """`arith.select` of complex values → one select per part."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        t = op.result.type
        if not isinstance(t, ComplexType):
            return
        e = _Emitter(rewriter, t.element_type, anchor=op)
        re, im = e.select2(op.cond, e.parts(op.lhs), e.parts(op.rhs))
        create = complex.CreateOp(re, im, t)
        rewriter.replace(op, [create], [create.complex])


class FoldPartOfCreate(RewritePattern):
    """`complex.re/im (complex.create %a, %b)` → `%a` / `%b`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (complex.ReOp, complex.ImOp)):
            return
        owner = op.complex.owner
        if isinstance(owner, complex.CreateOp):
            part = owner.real if isinstance(op, complex.ReOp) else owner.imaginary
            rewriter.replace(op, [], [part])


def complex_to_standard_patterns() -> Sequence[RewritePattern]:
    return [LowerComplexArithmetic(), SelectParts(), FoldPartOfCreate()]


def expand_complex(module: ModuleOp) -> None:
    """Expand the complex arithmetic of `module` (the work of `convert-complex-to-standard`)."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(list(complex_to_standard_patterns())), apply_recursively=True
    ).rewrite_module(module)


__all__ = [
    "complex_abs",
    "complex_divide",
    "complex_to_standard_patterns",
    "expand_complex",
]
