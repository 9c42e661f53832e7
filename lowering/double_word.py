"""Double-word (double-double) f64 arithmetic, emitted as `arith`/`math` ops, and what
complex<f64> builds on it: the real part of `expm1` and `pow`.

A double-word number is a pair (hi, lo) of f64 with hi = fl(hi + lo): about 106
bits. The building blocks are the error-free transformations (Knuth's TwoSum,
Dekker's Fast2Sum, the fma-based TwoProd) and the double-word sums and products
analysed by Joldes, Muller and Popescu ("Tight and rigorous error bounds for basic
building blocks of double-word arithmetic", 2017; also Muller et al., "Handbook of
Floating-Point Arithmetic", ch. 14): DW + f64 and the accurate DW + DW within 2-3u²
of the exact result (u = 2^-53) even where the operands cancel, DW × f64 and
DW × DW within 2u² and 4u². On them: expm1 (reduction by ln2 in three parts, Taylor
series), sin, 1 - cos and cos (reduction by pi/2 in four parts, Taylor series), sqrt
(a Newton step), each to ~2^-104 (`FULL`) or, for values rounded right after, ~2^-64
(`ROUNDED`, fewer terms).

Why: `Re expm1(a + bi) = e^a cos b - 1 = expm1(a) cos b - (1 - cos b)` cancels where
`e^a cos b` is near 1 (a > 0, cos b > 0): computed from f64 libm values it lost up
to 10 ulp (0.5 + 0.9i), and arbitrarily more closer to the curve. Here expm1(a),
cos b and 1 - cos b are double words, so only the final sum rounds. And `z^w = exp(w
log z)`: the absolute error of `t = w log z` becomes the result's relative error, ~1.5
|t| ulps from f64 values; here log|z| and arg z are refined to double words by a Newton
step each, t is a double word and e^t is rounded once per part. Both cost several times
the f64 formula: the caller branches to them where they are needed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Protocol, Self, TypeVar

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation, SSAValue

T = TypeVar("T")
U = TypeVar("U")

DW = tuple[SSAValue, SSAValue]
"""(hi, lo), hi = fl(hi + lo)."""
Pair = tuple[SSAValue, SSAValue]
"""(real part, imaginary part)."""


class FloatEmitter(Protocol):
    """The f64 operations the algorithms below need (lowering.complex_to_standard's emitter)."""

    def r(self, op: Operation) -> SSAValue: ...
    def c(self, value: float) -> SSAValue: ...
    def add(self, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def sub(self, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def mul(self, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def neg(self, x: SSAValue) -> SSAValue: ...
    def cmp(self, pred: str, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def or_(self, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue: ...
    def interleave(self, first: Callable[[Self], T], second: Callable[[Self], U]) -> tuple[T, U]:
        """Two independent computations (their ops interleaved, so their latencies overlap)."""
        ...


# ---------------------------------------------------------------------------
# Constants, split exactly from rationals
# ---------------------------------------------------------------------------

_PI = Fraction(
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651"
)
_LN2 = Fraction(
    "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687542001481021"
)


def split(x: Fraction, parts: int) -> tuple[float, ...]:
    """x as `parts` f64 whose exact sum approximates x to ~53 `parts` bits (each the
    correctly rounded remainder of the previous ones)."""
    out: list[float] = []
    rest = x
    for _ in range(parts):
        out.append(float(rest))
        rest -= Fraction(out[-1])
    return tuple(out)


HALF_PI = split(_PI / 2, 4)
"""pi/2 to ~212 bits: b - k pi/2 for |b| < 2^50 keeps ~100 bits even where it cancels."""
LN2 = split(_LN2, 3)
TWO_OVER_PI = float(2 / _PI)
INV_LN2 = float(1 / _LN2)

DW_TERMS = 13
"""Taylor coefficients kept as double words; the smaller rest is summed in f64."""
EXPM1_COEFFS = tuple(split(Fraction(1, factorial(j + 1)), 2) for j in range(24))
"""expm1(x) = x sum_j x^j/(j+1)!, |x| <= ln2/2: the 24th term is below 2^-110."""
SIN_COEFFS = tuple(split(Fraction((-1) ** (j + 1), factorial(2 * j + 3)), 2) for j in range(14))
"""sin x = x + x z sum_j (-1)^(j+1) z^j/(2j+3)!, z = x^2 <= (pi/4)^2 (last term < 2^-110)."""
VERS_COEFFS = tuple(split(Fraction((-1) ** j, factorial(2 * j + 2)), 2) for j in range(15))
"""1 - cos x = z sum_j (-1)^j z^j/(2j+2)! (last term < 2^-115)."""
DW_SIN_TERMS = 8
"""sin's and versine's series: z^8/17! < 2^-60, so their tails are f64 sums."""


@dataclass(frozen=True)
class Series:
    """A Taylor series' coefficients (as many as the accuracy needs) and how many of the
    first ones are summed in double words (the rest, small beside them, in f64)."""

    coeffs: tuple[tuple[float, ...], ...]
    dw_terms: int


@dataclass(frozen=True)
class Precision:
    """The series of expm1, sin and 1 - cos for one accuracy of the result."""

    expm1: Series
    sin: Series
    vers: Series


FULL = Precision(Series(EXPM1_COEFFS, DW_TERMS), Series(SIN_COEFFS, DW_SIN_TERMS), Series(VERS_COEFFS, DW_SIN_TERMS))
"""~2^-104 relative: for values that cancel afterwards (Newton corrections, expm1's real part)."""
ROUNDED = Precision(Series(EXPM1_COEFFS[:16], 4), Series(SIN_COEFFS[:9], 3), Series(VERS_COEFFS[:10], 3))
"""~2^-64 relative, for values rounded to f64 right after: the first term left out is below
2^-72 of the sum (expm1: 0.35^16/17!; sin: z^10/21!, z <= 0.62), the f64-summed ones
below 2^-13 (expm1's from x^4/5!, sin's from z^4/9!)."""

EXPM1_MAX_RE = 50.0
"""The double-word real part is used for 0 < a <= 50 (2^k below 2^73). Beyond, e^a cos b
near 1 needs |cos b| < e^-50, which no f64 b below `EXPM1_MAX_IM` comes near."""
EXPM1_MAX_IM = 2.0**20
"""|b| up to which b is reduced here (|k| < 2^20, k pi/2 exact in the 4 parts' products)."""

POW_MAX_IM = 2.0**50
"""|Im(w log z)| up to which the double-word power applies. Its reduction by pi/2 keeps
~2^-110 there (the first three products are exact, the f64 tail below 2^-159 |b|); t
itself carries ~2^-104 |t|, 2^-54 at the limit (measured within 0.73 ulp to 2^51).
Beyond, a double word of t no longer fixes the result's angle to an ulp."""
POW_MAX_RE = 1000.0
"""|Re(w log z)| up to which the double-word power applies: e^t's 2^k is applied in two
normal factors (|k| < 1500). Beyond, the result overflows or underflows anyway."""


# ---------------------------------------------------------------------------
# Error-free transformations and double-word operations
# ---------------------------------------------------------------------------


def fast_two_sum(e: FloatEmitter, a: SSAValue, b: SSAValue) -> DW:
    """(s, t), s + t = a + b exactly, for |a| >= |b| or a = 0 (Dekker)."""
    s = e.add(a, b)
    return s, e.sub(b, e.sub(s, a))


def two_sum(e: FloatEmitter, a: SSAValue, b: SSAValue) -> DW:
    """(s, t), s + t = a + b exactly, any order (Knuth: six additions, no branch)."""
    s = e.add(a, b)
    a1 = e.sub(s, b)
    b1 = e.sub(s, a1)
    return s, e.add(e.sub(a, a1), e.sub(b, b1))


def two_prod(e: FloatEmitter, a: SSAValue, b: SSAValue) -> DW:
    """(p, t), p + t = a b exactly (one fma), barring underflow."""
    p = e.mul(a, b)
    return p, e.r(math.FmaOp(a, b, e.neg(p)))


def add_f(e: FloatEmitter, x: DW, y: SSAValue) -> DW:
    """x + y for a double word x and an f64 y (relative error <= 2u²)."""
    s, t = two_sum(e, x[0], y)
    return fast_two_sum(e, s, e.add(x[1], t))


def add(e: FloatEmitter, x: DW, y: DW) -> DW:
    """x + y, the accurate algorithm (relative error <= 3u² + O(u³), cancelling or not)."""
    s, s_err = two_sum(e, x[0], y[0])
    t, t_err = two_sum(e, x[1], y[1])
    v, v_err = fast_two_sum(e, s, e.add(s_err, t))
    return fast_two_sum(e, v, e.add(t_err, v_err))


def mul_f(e: FloatEmitter, x: DW, y: SSAValue) -> DW:
    """x y for a double word x and an f64 y (relative error <= 2u²)."""
    p, p_err = two_prod(e, x[0], y)
    return fast_two_sum(e, p, e.r(math.FmaOp(x[1], y, p_err)))


def mul(e: FloatEmitter, x: DW, y: DW) -> DW:
    """x y for double words (relative error <= 4u²)."""
    p, p_err = two_prod(e, x[0], y[0])
    cross = e.r(math.FmaOp(x[0], y[1], e.mul(x[1], y[0])))
    return fast_two_sum(e, p, e.add(p_err, cross))


def neg(e: FloatEmitter, x: DW) -> DW:
    return e.neg(x[0]), e.neg(x[1])


def horner(e: FloatEmitter, z: SSAValue | DW, series: Series) -> DW:
    """sum_j coeffs[j] z^j (z an f64 or a double word): the terms from `dw_terms` on
    (small beside the first) in f64 on z's high word, the first `dw_terms` in double words.
    A double-word step adds the coefficient c to p = z times the sum of the next terms, p
    unnormalized (its high product and the sum of the low ones) and below a fifth of c in
    the series here (|z| <= 0.62): Fast2Sum(c_hi, p_hi) is exact, the rest an f64 sum of
    terms below u|c| (relative error ~3u², as `add`, for half its work)."""
    coeffs, dw_terms = series.coeffs, series.dw_terms
    z_hi = z if isinstance(z, SSAValue) else z[0]
    acc = e.c(coeffs[-1][0])
    for hi, *_ in reversed(coeffs[dw_terms:-1]):
        acc = e.r(math.FmaOp(acc, z_hi, e.c(hi)))
    dw: DW = (acc, e.c(0.0))
    for j, c in enumerate(reversed(coeffs[:dw_terms])):
        p, p_err = two_prod(e, dw[0], z_hi)
        if j == 0:
            low = p_err if isinstance(z, SSAValue) else e.r(math.FmaOp(dw[0], z[1], p_err))
        elif isinstance(z, SSAValue):
            low = e.r(math.FmaOp(dw[1], z, p_err))
        else:
            low = e.add(p_err, e.r(math.FmaOp(dw[0], z[1], e.mul(dw[1], z_hi))))
        s, s_err = fast_two_sum(e, e.c(c[0]), p)
        dw = fast_two_sum(e, s, e.add(s_err, e.add(e.c(c[1]), low)))
    return dw


# ---------------------------------------------------------------------------
# Elementary functions as double words: expm1, sin, 1 - cos, cos, sqrt
# ---------------------------------------------------------------------------


def pow2(e: FloatEmitter, k: SSAValue) -> SSAValue:
    """2^k for an integral f64 k in the normal range (by its exponent bits)."""
    ki = e.r(arith.FPToSIOp(k, i64))
    biased = e.r(arith.AddiOp(ki, e.r(arith.ConstantOp(IntegerAttr(1023, i64)))))
    bits = e.r(arith.ShLIOp(biased, e.r(arith.ConstantOp(IntegerAttr(52, i64)))))
    return e.r(arith.BitcastOp(bits, e.c(1.0).type))


def reduce_ln2(e: FloatEmitter, a: SSAValue | DW, k: SSAValue) -> DW:
    """a - k ln2 for an f64 or a double word a, k = a_hi/ln2 rounded to an integer (|k| < 2^12),
    ln2 in three parts: k ln2's first two products are exact, a_hi minus the first is
    exact (Sterbenz), the rest are summed as double words but the last two terms (an f64
    of ~2^-106 |a|): absolute error ~2^-150 |a| + 2^-104 |a - k ln2|."""
    a_hi = a if isinstance(a, SSAValue) else a[0]
    p1, p1_err = two_prod(e, k, e.c(LN2[0]))
    t = e.sub(a_hi, p1)
    p2, p2_err = two_prod(e, k, e.c(LN2[1]))
    r = two_sum(e, t, e.neg(p1_err))
    r = add_f(e, r, e.neg(p2))
    if not isinstance(a, SSAValue):
        r = add_f(e, r, a[1])
    return add_f(e, r, e.neg(e.r(math.FmaOp(k, e.c(LN2[2]), p2_err))))


def expm1_series(e: FloatEmitter, r: DW, precision: Precision = FULL) -> DW:
    """expm1(r) for a double word |r| <= ~ln2/2: the Taylor series at r_hi, then r_lo's
    first-order term (r_lo < 2^-53 r_hi: expm1(x + l) = expm1(x) + l e^x, to u²)."""
    x = r[0]
    series = mul_f(e, horner(e, x, precision.expm1), x)
    return add_f(e, series, e.r(math.FmaOp(r[1], series[0], r[1])))


def expm1_scaled(e: FloatEmitter, series: DW, k: SSAValue) -> DW:
    """2^k e^r - 1 = (2^k - 1) + 2^k expm1(r), from `series` = expm1(r) (k integral, 2^k normal)."""
    scale = pow2(e, k)
    return add(e, two_sum(e, scale, e.c(-1.0)), (e.mul(scale, series[0]), e.mul(scale, series[1])))


def expm1_dw(e: FloatEmitter, a: SSAValue) -> DW:
    """expm1(a) for 0 <= a <= `EXPM1_MAX_RE`: a = k ln2 + r (r a double word, ln2 in three
    parts), expm1(r) by its Taylor series, then (2^k - 1) + 2^k expm1(r)."""
    k = e.r(math.RoundEvenOp(e.mul(a, e.c(INV_LN2))))
    r = reduce_ln2(e, a, k)
    return expm1_scaled(e, expm1_series(e, r), k)


def sin_dw(e: FloatEmitter, r: DW, precision: Precision = FULL) -> DW:
    """sin r for a double word |r| <= ~pi/4: x + x (z Q(z)) in z = r_hi² (a double word),
    then r_lo's first-order term."""
    x = r[0]
    z = two_prod(e, x, x)
    sin = add_f(e, mul_f(e, mul(e, z, horner(e, z, precision.sin)), x), x)
    # sin(x + l) = sin x + l cos x (l < 2^-53 x): cos x in f64 (its series to z^9/20!)
    acc = e.c(VERS_COEFFS[9][0])
    for hi, _ in reversed(VERS_COEFFS[:9]):
        acc = e.r(math.FmaOp(acc, z[0], e.c(hi)))
    cos_x = e.r(math.FmaOp(e.neg(z[0]), acc, e.c(1.0)))
    return add_f(e, sin, e.mul(r[1], cos_x))


def sin_vers_dw(e: FloatEmitter, r: DW, precision: Precision = FULL) -> tuple[DW, DW]:
    """(sin r, 1 - cos r) for a double word |r| <= ~pi/4, each by its Taylor series in
    z = r_hi² (a double word), then r_lo's first-order term."""
    x = r[0]
    z = two_prod(e, x, x)
    # sin x = x + x (z Q(z))
    t = mul(e, z, horner(e, z, precision.sin))
    sin = add_f(e, mul_f(e, t, x), x)
    vers = mul(e, z, horner(e, z, precision.vers))
    # sin(x + l) = sin x + l cos x, 1 - cos(x + l) = vers x + l sin x (l < 2^-53 x)
    cos_x = e.sub(e.c(1.0), vers[0])
    return add_f(e, sin, e.mul(r[1], cos_x)), add_f(e, vers, e.mul(r[1], sin[0]))


def reduce_half_pi(e: FloatEmitter, b: SSAValue | DW) -> tuple[SSAValue, DW]:
    """(k mod 4, b - k pi/2) for |b| <= `POW_MAX_IM` (an f64 or a double word), k =
    b_hi/(pi/2) rounded: pi/2 in four parts, the first three products exact (TwoProd),
    the sum a double word; absolute error ~2^-159 |b| + 2^-104 |b - k pi/2|."""
    b_hi = b if isinstance(b, SSAValue) else b[0]
    k = e.r(math.RoundEvenOp(e.mul(b_hi, e.c(TWO_OVER_PI))))
    p1, p1_err = two_prod(e, k, e.c(HALF_PI[0]))
    t = e.sub(b_hi, p1)  # exact (Sterbenz)
    p2, p2_err = two_prod(e, k, e.c(HALF_PI[1]))
    p3, p3_err = two_prod(e, k, e.c(HALF_PI[2]))
    r = two_sum(e, t, e.neg(p1_err))
    r = add_f(e, r, e.neg(p2))
    r = add_f(e, r, e.neg(p3))
    if not isinstance(b, SSAValue):
        r = add_f(e, r, b[1])
    r = add_f(e, r, e.neg(e.add(p2_err, e.add(p3_err, e.mul(k, e.c(HALF_PI[3]))))))
    q = e.sub(k, e.mul(e.c(4.0), e.r(math.FloorOp(e.mul(k, e.c(0.25))))))  # k mod 4, exact
    return q, r


def _by_quadrant(e: FloatEmitter, q: SSAValue, values: tuple[float, float, float, float]) -> SSAValue:
    out = e.c(values[3])
    for i in (2, 1, 0):
        out = e.select(e.cmp("oeq", q, e.c(float(i))), e.c(values[i]), out)
    return out


def cos_vers_dw(e: FloatEmitter, b: SSAValue) -> tuple[DW, DW]:
    """(cos b, 1 - cos b) for |b| <= `EXPM1_MAX_IM`: b = k pi/2 + r, then by k mod 4 from
    s = sin r and w = 1 - cos r: (1 - w, w), (-s, 1 + s), (w - 1, 2 - w), (s, 1 - s)."""
    q, r = reduce_half_pi(e, b)
    s, w = sin_vers_dw(e, r)
    even = e.or_(e.cmp("oeq", q, e.c(0.0)), e.cmp("oeq", q, e.c(2.0)))
    x = (e.select(even, w[0], s[0]), e.select(even, w[1], s[1]))

    def affine(offsets: tuple[float, float, float, float], signs: tuple[float, float, float, float]) -> DW:
        sign = _by_quadrant(e, q, signs)
        return add_f(e, (e.mul(sign, x[0]), e.mul(sign, x[1])), _by_quadrant(e, q, offsets))

    cos = affine((1.0, 0.0, -1.0, 0.0), (-1.0, -1.0, 1.0, 1.0))
    vers = affine((0.0, 1.0, 2.0, 1.0), (1.0, 1.0, -1.0, -1.0))
    return cos, vers


def sqrt_dw(e: FloatEmitter, x: DW) -> DW:
    """sqrt(x) for a double word x > 0 (normal): y = sqrt(x_hi), then one Newton step
    y + (x - y²)/(2y), y² exact (relative error ~2u²)."""
    y = e.r(math.SqrtOp(x[0]))
    sq, sq_err = two_prod(e, y, y)
    residual = e.add(e.sub(e.sub(x[0], sq), sq_err), x[1])  # x_hi - sq exact (Sterbenz)
    return fast_two_sum(e, y, e.r(arith.DivfOp(residual, e.add(y, y))))


def cos_sin_dw(e: FloatEmitter, b: SSAValue | DW, precision: Precision = FULL) -> tuple[DW, DW]:
    """(cos b, sin b) for |b| <= `POW_MAX_IM` (an f64 or a double word): b = k pi/2 + r, then by
    k mod 4 from s = sin r and c = cos r = sqrt(1 - s²) (>= 0.7 for |r| <= pi/4, no
    cancellation): (c, s), (-s, c), (-c, -s), (s, -c)."""
    q, r = reduce_half_pi(e, b)
    s = sin_dw(e, r, precision)
    c = sqrt_dw(e, add_f(e, neg(e, mul(e, s, s)), e.c(1.0)))
    odd = e.or_(e.cmp("oeq", q, e.c(1.0)), e.cmp("oeq", q, e.c(3.0)))
    cos_sign = _by_quadrant(e, q, (1.0, -1.0, -1.0, 1.0))
    sin_sign = _by_quadrant(e, q, (1.0, 1.0, -1.0, -1.0))
    cos = (e.mul(cos_sign, e.select(odd, s[0], c[0])), e.mul(cos_sign, e.select(odd, s[1], c[1])))
    sin = (e.mul(sin_sign, e.select(odd, c[0], s[0])), e.mul(sin_sign, e.select(odd, c[1], s[1])))
    return cos, sin


def expm1_real(e: FloatEmitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """Re expm1(a + bi) = expm1(a) cos b - (1 - cos b), every term a double word, rounded
    once; for 0 <= a <= `EXPM1_MAX_RE`, |b| <= `EXPM1_MAX_IM`."""
    em1, (cos, vers) = e.interleave(lambda f: expm1_dw(f, a), lambda f: cos_vers_dw(f, b))
    return add(e, mul(e, em1, cos), neg(e, vers))[0]


# ---------------------------------------------------------------------------
# Complex power z^w = exp(w log z) for complex<f64>
# ---------------------------------------------------------------------------


def scale_near_one(e: FloatEmitter, z: Pair, y0: SSAValue) -> tuple[SSAValue, Pair]:
    """(j, z 2^-j) for j = y0/ln2 rounded (y0 = log|z|): |z 2^-j| within [0.7, 1.42], both
    parts scaled exactly, by two normal powers of two."""
    j = e.r(math.RoundEvenOp(e.mul(y0, e.c(INV_LN2))))
    minus_j = e.neg(j)
    h1 = e.r(math.FloorOp(e.mul(minus_j, e.c(0.5))))
    s1, s2 = pow2(e, h1), pow2(e, e.sub(minus_j, h1))
    return j, (e.mul(e.mul(z[0], s1), s2), e.mul(e.mul(z[1], s1), s2))


def log_abs_dw(e: FloatEmitter, j: SSAValue, scaled: Pair, y0: SSAValue) -> DW:
    """log|z| as a double word for a finite nonzero z = a + bi, from y0 = log|z| to about an
    ulp, by one Newton step: log|z| = y0 + log1p(δ)/2 with 1 + δ = |z|² e^(-2 y0), taken as
    (1 + D)(1 + E) for z' = z 2^-j (`scale_near_one`): D = |z'|² - 1 = (m² - 1) + n² (m, n
    the larger and smaller magnitude of z's parts, the squares exact as double words, m² - 1
    exact) and E = e^(-2 y0) 2^(2j) - 1 (expm1 of -2 y0 reduced by ln2, as a double word).
    δ cancels to about an ulp of y0, but D and E carry ~106 bits, and D keeps them relative
    to itself near |z| = 1."""
    a, b = e.r(math.AbsFOp(scaled[0])), e.r(math.AbsFOp(scaled[1]))
    big, small = e.r(arith.MaximumfOp(a, b)), e.r(arith.MinimumfOp(a, b))
    d = add(e, add_f(e, two_prod(e, big, big), e.c(-1.0)), two_prod(e, small, small))
    minus_2y0 = e.mul(y0, e.c(-2.0))
    k = e.r(math.RoundEvenOp(e.mul(minus_2y0, e.c(INV_LN2))))
    em1 = expm1_scaled(e, expm1_series(e, reduce_ln2(e, minus_2y0, k)), e.add(k, e.add(j, j)))
    delta = add(e, add(e, d, em1), mul(e, d, em1))[0]
    half = e.mul(delta, e.c(0.5))
    correction = e.r(math.FmaOp(e.mul(half, e.c(-0.5)), delta, half))  # log1p(δ)/2 to δ²
    return two_sum(e, y0, correction)


def arg_dw(e: FloatEmitter, z: Pair, theta0: SSAValue) -> DW:
    """arg z as a double word from theta0 = atan2(b, a) (to about an ulp) by one Newton step:
    arg z = theta0 + atan(N / M), N = b cos theta0 - a sin theta0 (double words: it cancels
    to about an ulp of |z|), M = a cos theta0 + b sin theta0 ~ |z| (f64 suffices). z is any
    positive multiple of the base (the scaled one of `scale_near_one`); atan(x) = x to 2^-150."""
    cos, sin = cos_sin_dw(e, theta0)
    n = add(e, mul_f(e, cos, z[1]), neg(e, mul_f(e, sin, z[0])))[0]
    m = e.r(math.FmaOp(z[0], cos[0], e.mul(z[1], sin[0])))
    return two_sum(e, theta0, e.r(arith.DivfOp(n, m)))


def exp_cis_dw(e: FloatEmitter, tr: DW, ti: DW) -> Pair:
    """e^tr (cos ti + i sin ti) for double words |tr| <= `POW_MAX_RE`, |ti| <= `POW_MAX_IM`,
    each part rounded about once: tr = k ln2 + r, e^r = 1 + expm1(r) and cos ti, sin ti as
    double words, their products rounded to f64, then 2^k applied in two normal factors
    (exact unless the result is subnormal, or overflows)."""
    k = e.r(math.RoundEvenOp(e.mul(tr[0], e.c(INV_LN2))))
    exp_r, (cos, sin) = e.interleave(
        lambda f: add_f(f, expm1_series(f, reduce_ln2(f, tr, k), ROUNDED), f.c(1.0)),
        lambda f: cos_sin_dw(f, ti, ROUNDED),
    )
    k1 = e.r(math.FloorOp(e.mul(k, e.c(0.5))))
    s1, s2 = pow2(e, k1), pow2(e, e.sub(k, k1))
    return e.mul(e.mul(mul(e, exp_r, cos)[0], s1), s2), e.mul(e.mul(mul(e, exp_r, sin)[0], s1), s2)


def pow_dw(e: FloatEmitter, z: Pair, w: Pair, log_r: SSAValue, theta: SSAValue) -> Pair:
    """z^w = exp(w log z) for finite nonzero z and finite w with |Re(w log z)| <= `POW_MAX_RE`
    and |Im(w log z)| <= `POW_MAX_IM`, from f64 log|z| and arg z (about an ulp each):
    log|z| and arg z refined to double words (`log_abs_dw`, `arg_dw`), t = w log z as double
    words ((c L - d θ) + (d L + c θ) i), then `exp_cis_dw`. The f64 formula's error is
    the absolute error of t, ~1.5 |t| ulps; here ~2^-100 |t| before the last rounding."""
    c, d = w
    j, scaled = scale_near_one(e, z, log_r)
    log_abs, arg = e.interleave(lambda f: log_abs_dw(f, j, scaled, log_r), lambda f: arg_dw(f, scaled, theta))
    tr = add(e, mul_f(e, log_abs, c), neg(e, mul_f(e, arg, d)))
    ti = add(e, mul_f(e, log_abs, d), mul_f(e, arg, c))
    return exp_cis_dw(e, tr, ti)
