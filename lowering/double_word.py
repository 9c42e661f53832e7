"""Double-word (double-double) f64 arithmetic, emitted as `arith`/`math` ops, and the
real part of complex<f64> `expm1` built on it.

A double-word number is a pair (hi, lo) of f64 with hi = fl(hi + lo): about 106
bits. The building blocks are the error-free transformations (Knuth's TwoSum,
Dekker's Fast2Sum, the fma-based TwoProd) and the double-word sums and products
analysed by Joldes, Muller and Popescu ("Tight and rigorous error bounds for basic
building blocks of double-word arithmetic", 2017; also Muller et al., "Handbook of
Floating-Point Arithmetic", ch. 14): DW + f64 and the accurate DW + DW within 2-3u²
of the exact result (u = 2^-53) even where the operands cancel, DW × f64 and
DW × DW within 2u² and 4u².

Why: `Re expm1(a + bi) = e^a cos b - 1 = expm1(a) cos b - (1 - cos b)` cancels where
`e^a cos b` is near 1 (a > 0, cos b > 0): computed from f64 libm values it lost up
to 10 ulp (0.5 + 0.9i), and arbitrarily more closer to the curve. Here expm1(a),
cos b and 1 - cos b are double words (their own Taylor series, the reductions of
a by ln 2 and of b by pi/2 carried in double words), so only the final sum rounds.
About ten times the f64 formula's work: the caller branches to it where the terms cancel.
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial
from typing import Protocol

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation, SSAValue

DW = tuple[SSAValue, SSAValue]
"""(hi, lo), hi = fl(hi + lo)."""


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
"""pi/2 to ~212 bits: b - k pi/2 for |k| < 2^20 keeps ~100 bits even where it cancels."""
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

EXPM1_MAX_RE = 50.0
"""The double-word real part is used for 0 < a <= 50 (2^k below 2^73). Beyond, e^a cos b
near 1 needs |cos b| < e^-50, which no f64 b below `EXPM1_MAX_IM` comes near."""
EXPM1_MAX_IM = 2.0**20
"""|b| up to which b is reduced here (|k| < 2^20, k pi/2 exact in the 4 parts' products)."""


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


def const(e: FloatEmitter, value: tuple[float, float]) -> DW:
    return e.c(value[0]), e.c(value[1])


def horner(e: FloatEmitter, z: SSAValue | DW, coeffs: tuple[tuple[float, float], ...], dw_terms: int) -> DW:
    """sum_j coeffs[j] z^j (z an f64 or a double word): the terms from `dw_terms` on
    (small beside the first) in f64 on z's high word, the first `dw_terms` in double words."""
    z_hi = z if isinstance(z, SSAValue) else z[0]
    acc = e.c(coeffs[-1][0])
    for hi, _ in reversed(coeffs[dw_terms:-1]):
        acc = e.r(math.FmaOp(acc, z_hi, e.c(hi)))
    dw: DW = (acc, e.c(0.0))
    for c in reversed(coeffs[:dw_terms]):
        dw = add(e, mul_f(e, dw, z) if isinstance(z, SSAValue) else mul(e, dw, z), const(e, c))
    return dw


# ---------------------------------------------------------------------------
# expm1(a), cos b and 1 - cos b as double words
# ---------------------------------------------------------------------------


def pow2(e: FloatEmitter, k: SSAValue) -> SSAValue:
    """2^k for an integral f64 k in the normal range (by its exponent bits)."""
    ki = e.r(arith.FPToSIOp(k, i64))
    biased = e.r(arith.AddiOp(ki, e.r(arith.ConstantOp(IntegerAttr(1023, i64)))))
    bits = e.r(arith.ShLIOp(biased, e.r(arith.ConstantOp(IntegerAttr(52, i64)))))
    return e.r(arith.BitcastOp(bits, e.c(1.0).type))


def expm1_dw(e: FloatEmitter, a: SSAValue) -> DW:
    """expm1(a) for 0 <= a <= `EXPM1_MAX_RE`: a = k ln2 + r (r a double word, ln2 in three
    parts), expm1(r) by its Taylor series, then (2^k - 1) + 2^k expm1(r)."""
    k = e.r(math.RoundEvenOp(e.mul(a, e.c(INV_LN2))))
    p1, p1_err = two_prod(e, k, e.c(LN2[0]))
    t = e.sub(a, p1)  # exact (Sterbenz): a and k ln2 are within a factor of 2
    p2, p2_err = two_prod(e, k, e.c(LN2[1]))
    r = two_sum(e, t, e.neg(p2))
    r = add_f(e, r, e.neg(e.add(p1_err, e.add(p2_err, e.mul(k, e.c(LN2[2]))))))
    # expm1(r_hi + r_lo) = expm1(r_hi) + r_lo e^r_hi (r_lo < 2^-53 r_hi: f64 suffices)
    x = r[0]
    series = mul_f(e, horner(e, x, EXPM1_COEFFS, DW_TERMS), x)
    series = add_f(e, series, e.r(math.FmaOp(r[1], series[0], r[1])))
    scale = pow2(e, k)
    return add(e, two_sum(e, scale, e.c(-1.0)), (e.mul(scale, series[0]), e.mul(scale, series[1])))


def sin_vers_dw(e: FloatEmitter, r: DW) -> tuple[DW, DW]:
    """(sin r, 1 - cos r) for a double word |r| <= ~pi/4, each by its Taylor series in
    z = r_hi² (a double word), then r_lo's first-order term."""
    x = r[0]
    z = two_prod(e, x, x)
    # sin x = x + x (z Q(z))
    t = mul(e, z, horner(e, z, SIN_COEFFS, DW_SIN_TERMS))
    sin = add_f(e, mul_f(e, t, x), x)
    vers = mul(e, z, horner(e, z, VERS_COEFFS, DW_SIN_TERMS))
    # sin(x + l) = sin x + l cos x, 1 - cos(x + l) = vers x + l sin x (l < 2^-53 x)
    cos_x = e.sub(e.c(1.0), vers[0])
    return add_f(e, sin, e.mul(r[1], cos_x)), add_f(e, vers, e.mul(r[1], sin[0]))


def cos_vers_dw(e: FloatEmitter, b: SSAValue) -> tuple[DW, DW]:
    """(cos b, 1 - cos b) for |b| <= `EXPM1_MAX_IM`: b = k pi/2 + r (pi/2 in four parts,
    every product exact but the last, the sum a double word), then by k mod 4 from
    s = sin r and w = 1 - cos r: (1 - w, w), (-s, 1 + s), (w - 1, 2 - w), (s, 1 - s)."""
    k = e.r(math.RoundEvenOp(e.mul(b, e.c(TWO_OVER_PI))))
    p1, p1_err = two_prod(e, k, e.c(HALF_PI[0]))
    t = e.sub(b, p1)  # exact (Sterbenz)
    p2, p2_err = two_prod(e, k, e.c(HALF_PI[1]))
    p3, p3_err = two_prod(e, k, e.c(HALF_PI[2]))
    r = two_sum(e, t, e.neg(p1_err))
    r = add_f(e, r, e.neg(p2))
    r = add_f(e, r, e.neg(p3))
    r = add_f(e, r, e.neg(e.add(p2_err, e.add(p3_err, e.mul(k, e.c(HALF_PI[3]))))))
    s, w = sin_vers_dw(e, r)
    q = e.sub(k, e.mul(e.c(4.0), e.r(math.FloorOp(e.mul(k, e.c(0.25))))))  # k mod 4, exact

    def by_quadrant(values: tuple[float, float, float, float]) -> SSAValue:
        out = e.c(values[3])
        for i in (2, 1, 0):
            out = e.select(e.cmp("oeq", q, e.c(float(i))), e.c(values[i]), out)
        return out

    even = e.or_(e.cmp("oeq", q, e.c(0.0)), e.cmp("oeq", q, e.c(2.0)))
    x = (e.select(even, w[0], s[0]), e.select(even, w[1], s[1]))

    def affine(offsets: tuple[float, float, float, float], signs: tuple[float, float, float, float]) -> DW:
        sign = by_quadrant(signs)
        return add_f(e, (e.mul(sign, x[0]), e.mul(sign, x[1])), by_quadrant(offsets))

    cos = affine((1.0, 0.0, -1.0, 0.0), (-1.0, -1.0, 1.0, 1.0))
    vers = affine((0.0, 1.0, 2.0, 1.0), (1.0, 1.0, -1.0, -1.0))
    return cos, vers


def expm1_real(e: FloatEmitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """Re expm1(a + bi) = expm1(a) cos b - (1 - cos b), every term a double word, rounded
    once; for 0 <= a <= `EXPM1_MAX_RE`, |b| <= `EXPM1_MAX_IM`."""
    em1 = expm1_dw(e, a)
    cos, vers = cos_vers_dw(e, b)
    return add(e, mul(e, em1, cos), neg(e, vers))[0]
