"""sin, cos, tan, atan, atan2 on f32, computed in f64 and rounded once, branch-free.

The f32 argument is widened to f64 (exactly) and everything below runs in f64
(which vectorizes too, at half the lanes), so that the f32 result is the f64
result rounded once: the reduction error and the polynomial errors (2^-37 or
less) are far below half an f32 ulp.

* **Reduction** `|x| = j pi/2 + r`, `|r| <= pi/4`, two ways, both computed and
  selected by `|x| < 2^24`:
  - Cody–Waite: `j = roundeven(|x| 2/pi)`, `r = fma(-j, pio2_hi, |x|)`, then
    `fma(-j, pio2_lo, r)` (pi/2 as two f64; the products are exact inside the
    fmas; what pi/2 - hi - lo leaves, 2^-107 j, is below 2^-80);
  - Payne–Hanek for large |x| (up to 2^128): with `|x| = m 2^s` (m the 24-bit
    significand), the bits of 2/pi from weight 2^(1-s) on, 96 of them, are cut
    from a 256-bit table (`TWO_OVER_PI_WORDS`, 32 zero bits then the fraction)
    by selecting four 32-bit words and shifting them by `s mod 32` in i64; the
    low 96 bits of `m * window` (three 24x32-bit products) are `|x| 2/pi mod 4`
    in fixed point with 62 fractional bits, from which the quadrant and
    `r = (fraction as i64) pi/2 2^-62` follow. Exact up to 2^-62 absolute, so
    the accuracy holds at every f32, however close to a multiple of pi/2.
* **Polynomials** on `|r| <= pi/4`: `sin r = r + r^3 S(r^2)`, `cos r = 1 - r^2/2 +
  r^4 C(r^2)` (S and C of degree 3, fitted relative, 2^-37 and 2^-43), chosen
  and negated by the quadrant; tan is `sin/cos` or `-cos/sin`. sin and tan are
  odd (the sign of x is applied at the end, so `sin(-0) = -0`), cos even;
  inf and NaN give NaN.
* **atan2(y, x)**: `t = min(|x|,|y|) / max(|x|,|y|)`, for t > tan(pi/8)
  `u = (min - max) / (min + max)` plus pi/4, else `u = t` (one division
  either way), `atan u = u + u^3 A(u^2)` (A of degree 6, 2^-40); then
  `pi/2 - a` where |y| > |x|, `pi - a` where x is negative (sign bit, so -0
  counts), and y's sign. C99's special cases: both zero (0 or pi), both
  infinite (pi/4 or 3pi/4), NaN. `atan(x) = atan2(x, 1)`.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import f64
from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter

SIN_S = (-0.16666666640796493, 0.00833332930479633, -0.00019839312257749367, 2.7181215356130144e-06)
COS_C = (0.0416666666194908, -0.0013888883500046815, 2.4799460150027047e-05, -2.720575401434303e-07)
ATAN_A = (
    -0.33333333295727835, 0.19999994326621837, -0.1428542363710125, 0.11104004217746793,
    -0.08996843900337209, 0.06991236784984148, -0.03792469208047336,
)
"""f64 fits (fit.py `sin_f64`, `cos_f64`, `atan_f64`)."""

PIO2_HI = 1.5707963267948966
PIO2_LO = 6.123233995736766e-17
TWO_OVER_PI = 0.6366197723675814
TWO_OVER_PI_WORDS = (
    0x0, 0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB,
)
"""floor(2/pi 2^224) as 32-bit words, after one zero word (fraction bit i of 2/pi is bit 31 + i)."""
PIO2_2M62 = math.pi / 2 * 2.0**-62
LARGE = 2.0**24


def _payne_hanek(d: Emitter, e: Emitter, ax: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(quadrant as i64, r as f64) for the f32 |x| (the f32 emitter `e`, f64 emitter `d`)."""
    bits = e.bits(ax)
    m32 = e.ori(e.andi(bits, e.ci(0x7FFFFF)), e.ci(0x800000))
    s32 = e.subi(e.shru(bits, e.ci(23)), e.ci(150))
    m = d.op(_extui(m32, d))
    start = d.op(_extsi(e.addi(s32, e.ci(30)), d))
    q = d.shr(start, d.ci(5))
    sh = d.andi(start, d.ci(31))

    def word(k: int) -> SSAValue:
        """Table word q + k (q in 0..4)."""
        acc = d.ci(TWO_OVER_PI_WORDS[k])
        for i in range(1, 5):
            acc = d.select(d.cmpi("eq", q, d.ci(i)), d.ci(TWO_OVER_PI_WORDS[i + k]), acc)
        return acc

    words = [word(k) for k in range(4)]

    def window(a: SSAValue, b: SSAValue) -> SSAValue:
        return d.shru(d.shl(d.ori(d.shl(a, d.ci(32)), b), sh), d.ci(32))

    w2, w1, w0 = window(words[0], words[1]), window(words[1], words[2]), window(words[2], words[3])
    p0, p1, p2 = d.muli(m, w0), d.muli(m, w1), d.muli(m, w2)
    hi = d.addi(d.addi(d.shl(p2, d.ci(32)), p1), d.shru(p0, d.ci(32)))
    j = d.shru(d.addi(hi, d.ci(1 << 61)), d.ci(62))
    rfix = d.subi(hi, d.shl(j, d.ci(62)))
    return j, d.mul(d.to_float(rfix), d.c(PIO2_2M62))


def _extui(v: SSAValue, d: Emitter):
    from xdsl.dialects import arith

    return arith.ExtUIOp(v, d.itype)


def _extsi(v: SSAValue, d: Emitter):
    from xdsl.dialects import arith

    return arith.ExtSIOp(v, d.itype)


def _reduce(e: Emitter, x: SSAValue) -> tuple[Emitter, SSAValue, SSAValue, SSAValue]:
    """(f64 emitter, quadrant j mod 4 as i64, r as f64, x is negative) for |x| = j pi/2 + r."""
    d = e.like(f64)
    ax = e.abs(x)
    xd = e.convert(ax, d)
    jf = d.roundeven(d.mul(xd, d.c(TWO_OVER_PI)))
    r_cw = d.fma(d.neg(jf), d.c(PIO2_LO), d.fma(d.neg(jf), d.c(PIO2_HI), xd))
    j_cw = d.to_int(d.min(jf, d.c(2.0**30)))
    j_ph, r_ph = _payne_hanek(d, e, ax)
    large = d.cmp("oge", xd, d.c(LARGE))
    j = d.andi(d.select(large, j_ph, j_cw), d.ci(3))
    r = d.select(large, r_ph, r_cw)
    negative = e.cmpi("slt", e.bits(x), e.ci(0))
    return d, j, r, negative


def _sin_cos_poly(d: Emitter, r: SSAValue) -> tuple[SSAValue, SSAValue]:
    z = d.mul(r, r)
    s = d.fma(d.mul(z, r), d.poly(z, SIN_S), r)
    c = d.fma(d.mul(z, z), d.poly(z, COS_C), d.fma(z, d.c(-0.5), d.c(1.0)))
    return s, c


def _finish(e: Emitter, d: Emitter, x: SSAValue, y: SSAValue, odd: SSAValue | None) -> SSAValue:
    """y (f64) rounded to f32, negated where `odd` (x negative, for odd functions), NaN for inf/NaN x."""
    out = d.convert(y, e)
    if odd is not None:
        out = e.select(odd, e.neg(out), out)
    return e.select(e.cmp("olt", e.abs(x), e.c(math.inf)), out, e.c(math.nan))


def sin(e: Emitter, x: SSAValue) -> SSAValue:
    d, j, r, negative = _reduce(e, x)
    s, c = _sin_cos_poly(d, r)
    v = d.select(d.cmpi("eq", d.andi(j, d.ci(1)), d.ci(0)), s, c)
    v = d.select(d.cmpi("sge", j, d.ci(2)), d.neg(v), v)
    return _finish(e, d, x, v, negative)


def cos(e: Emitter, x: SSAValue) -> SSAValue:
    d, j, r, _ = _reduce(e, x)
    s, c = _sin_cos_poly(d, r)
    v = d.select(d.cmpi("eq", d.andi(j, d.ci(1)), d.ci(0)), c, s)
    flip = d.cmpi("eq", d.andi(d.addi(j, d.ci(1)), d.ci(2)), d.ci(2))  # j = 1 or 2
    v = d.select(flip, d.neg(v), v)
    return _finish(e, d, x, v, None)


def tan(e: Emitter, x: SSAValue) -> SSAValue:
    d, j, r, negative = _reduce(e, x)
    s, c = _sin_cos_poly(d, r)
    even = d.cmpi("eq", d.andi(j, d.ci(1)), d.ci(0))
    v = d.div(d.select(even, s, d.neg(c)), d.select(even, c, s))
    return _finish(e, d, x, v, negative)


def atan2(e: Emitter, y: SSAValue, x: SSAValue) -> SSAValue:
    d = e.like(f64)
    ax, ay = e.convert(e.abs(x), d), e.convert(e.abs(y), d)
    lo, hi = d.min(ax, ay), d.max(ax, ay)
    big = d.cmp("ogt", lo, d.mul(hi, d.c(math.sqrt(2) - 1)))
    u = d.div(d.select(big, d.sub(lo, hi), lo), d.select(big, d.add(lo, hi), hi))
    z = d.mul(u, u)
    a = d.fma(d.mul(z, u), d.poly(z, ATAN_A), u)
    a = d.add(d.select(big, d.c(math.pi / 4), d.c(0.0)), a)
    a = d.select(d.cmp("oeq", hi, d.c(0.0)), d.c(0.0), a)
    a = d.select(d.both(d.cmp("oeq", ax, d.c(math.inf)), d.cmp("oeq", ay, d.c(math.inf))), d.c(math.pi / 4), a)
    a = d.select(d.cmp("ogt", ay, ax), d.sub(d.c(math.pi / 2), a), a)
    x_negative = e.cmpi("slt", e.bits(x), e.ci(0))
    a = d.select(x_negative, d.sub(d.c(math.pi), a), a)
    out = e.copysign(d.convert(a, e), y)
    return e.select(e.either(e.is_nan(x), e.is_nan(y)), e.add(x, y), out)


def atan(e: Emitter, x: SSAValue) -> SSAValue:
    return atan2(e, x, e.c(1.0))
