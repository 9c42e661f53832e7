"""powf, cbrt and rsqrt on f32; powf and cbrt compute in f64 and round once.

* **powf(x, y)** = `2^(y log2|x|)` in f64 (vectorizable, half the lanes):
  `log2|x| = e + log(1 + f) log2(e)` with `1 + f` in `[sqrt(1/2), sqrt(2))`
  from the f64 bits (f32 subnormals are normal in f64) and `log(1 + f) =
  2 atanh(s)`, `s = f / (2 + f)`, `atanh(s) = s (1 + z L(z))`, `z = s^2`, L of
  degree 5 (2^-52); the product with y is exact to 2^-53 relative, then
  `2^t = 2^k (1 + r E(r))`, `k = roundeven(t)`, E of degree 8 (2^-46). The
  f64 result has a relative error near 2^-45, so the f32 result (one rounding,
  overflow to inf and gradual underflow included) is correctly rounded but
  for results within 2^-20 ulp of a tie. C99/IEEE special cases on top:
  `pow(x, +-0) = 1` and `pow(1, y) = 1` (even for NaN), `pow(-1, +-inf) = 1`,
  NaN for a finite negative x and a finite non-integer y, x's sign for odd
  integer y (so `pow(-0, -3) = -inf`, `pow(-inf, 3) = -inf`); zeros and
  infinities of x and y otherwise follow from `2^(y log2|x|)` with
  `log2(0) = -inf`.
* **cbrt(x)**: an initial estimate from the f32 bits (`bits/3 + magic`, 6
  bits; subnormals scaled by 2^24 first), then two Halley steps
  `t (t^3 + 2a) / (2 t^3 + a)` in f64 (cubic convergence: 2^-6 → 2^-18 →
  2^-54), rounded once, with x's sign; `+-0`, `+-inf` and NaN are returned as
  they are.
* **rsqrt(x)** = `1 / sqrt(x)` in f32 (sqrt and the division are correctly
  rounded, so the result is within 1 ulp).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import f64
from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter

LOG_L = (
    0.333333333332936, 0.20000000026144943, 0.14285708563684732, 0.11111685919275514,
    0.09061819005812058, 0.08409935867866238,
)
"""atanh(s)/s = 1 + z L(z), z = s^2 <= 0.0295 (fit.py `log_f64`)."""
EXP2_E = (
    0.6931471805598852, 0.24022650695722786, 0.055504108668432264, 0.009618129181164298,
    0.001333355762378459, 0.00015403440882585912, 1.5252990589587715e-05, 1.3258336281370822e-06,
    1.0148286702094967e-07,
)
"""2^r = 1 + r E(r), |r| <= 1/2 (fit.py `exp2_f64`)."""
SQRT_HALF_BITS_F64 = 0x3FE6A09E667F3BCD
LOG2E = 1.4426950408889634
CBRT_MAGIC = 709958130
"""(127 - 127/3) 2^23, tuned: the f32 bits of cbrt(a) are near bits(a)/3 + this."""


def _log2(d: Emitter, a: SSAValue) -> SSAValue:
    """log2(a) for positive finite f64 a that are normal."""
    bits = d.bits(a)
    ex = d.shr(d.subi(bits, d.ci(SQRT_HALF_BITS_F64)), d.ci(52))
    m = d.from_bits(d.subi(bits, d.shl(ex, d.ci(52))))
    f = d.sub(m, d.c(1.0))
    s = d.div(f, d.add(d.c(2.0), f))
    z = d.mul(s, s)
    ln = d.mul(d.add(s, s), d.fma(z, d.poly(z, LOG_L), d.c(1.0)))
    return d.fma(ln, d.c(LOG2E), d.to_float(ex))


def _exp2(d: Emitter, t: SSAValue) -> SSAValue:
    """2^t for |t| <= 300 (f64)."""
    k = d.roundeven(t)
    r = d.sub(t, k)
    return d.mul(d.fma(r, d.poly(r, EXP2_E), d.c(1.0)), d.pow2i(d.to_int(k)))


def powf(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    d = e.like(f64)
    ax = e.abs(x)
    xd, yd = e.convert(ax, d), e.convert(y, d)
    regular = e.both(e.cmp("ogt", ax, e.c(0.0)), e.cmp("olt", ax, e.c(math.inf)))
    safe = d.select(regular, xd, d.c(1.0))
    lg = d.select(regular, _log2(d, safe), d.select(e.cmp("oeq", ax, e.c(0.0)), d.c(-math.inf), d.c(math.inf)))
    t = d.min(d.max(d.mul(yd, lg), d.c(-300.0)), d.c(300.0))
    magnitude = d.convert(_exp2(d, t), e)
    # y's integrality and parity (|y| >= 2^24 is an even integer; inf counts as even).
    ay = e.abs(y)
    integral = e.cmp("oeq", e.floor(y), y)
    small = e.cmp("olt", ay, e.c(2.0**24))
    parity = e.andi(e.to_int(e.select(small, y, e.c(0.0))), e.ci(1))
    odd = e.both(e.both(integral, small), e.cmpi("eq", parity, e.ci(1)))
    x_negative = e.cmpi("slt", e.bits(x), e.ci(0))
    out = e.select(e.both(x_negative, odd), e.neg(magnitude), magnitude)
    negative_finite = e.both(e.cmp("olt", x, e.c(0.0)), e.cmp("ogt", x, e.c(-math.inf)))
    invalid = e.both(negative_finite, e.both(e.cmp("one", ay, e.c(math.inf)), e.op(arith.XOrIOp(integral, _true(e)))))
    out = e.select(e.either(invalid, e.either(e.is_nan(x), e.is_nan(y))), e.c(math.nan), out)
    one = e.either(e.cmp("oeq", y, e.c(0.0)), e.cmp("oeq", x, e.c(1.0)))
    one = e.either(one, e.both(e.cmp("oeq", x, e.c(-1.0)), e.cmp("oeq", ay, e.c(math.inf))))
    return e.select(one, e.c(1.0), out)


def _true(e: Emitter) -> SSAValue:
    """An all-true i1 of the emitter's shape."""
    return e.cmp("true", e.c(0.0), e.c(0.0))


def cbrt(e: Emitter, x: SSAValue) -> SSAValue:
    d = e.like(f64)
    ax = e.abs(x)
    tiny = e.cmp("olt", ax, e.c(2.0**-126))
    scaled = e.select(tiny, e.mul(ax, e.c(2.0**24)), ax)
    guess = e.from_bits(e.addi(e.op(arith.DivUIOp(e.bits(scaled), e.ci(3))), e.ci(CBRT_MAGIC)))
    guess = e.select(tiny, e.mul(guess, e.c(2.0**-8)), guess)
    a = e.convert(ax, d)
    t = e.convert(guess, d)
    for _ in range(2):
        t3 = d.mul(d.mul(t, t), t)
        t = d.mul(t, d.div(d.fma(a, d.c(2.0), t3), d.fma(t3, d.c(2.0), a)))
    out = e.copysign(d.convert(t, e), x)
    keep = e.either(e.cmp("ueq", x, e.c(0.0)), e.cmp("oeq", ax, e.c(math.inf)))  # NaN, +-0, +-inf
    return e.select(keep, x, out)


def rsqrt(e: Emitter, x: SSAValue) -> SSAValue:
    return e.div(e.c(1.0), e.sqrt(x))
