"""exp, exp2, expm1, log, log2, log10, log1p on f32 (scalar or vector), branch-free.

* **exp / exp2 / expm1.** Cody–Waite reduction `x = k ln2 + r`, `|r| <= ln2/2`:
  `k = roundeven(x log2e)`, `r = fma(-k, ln2_hi, x)` (exact: the product is
  exact in the fma and the difference fits 24 bits), then `fma(-k, ln2_lo, r)`.
  One polynomial serves all three: `expm1(r) = r + r^2/2 + r^3 Q(r)`, Q of
  degree 4 (a minimax fit relative to expm1, 0.02 ulp); tanh, erf and erfc use Q
  of degree 3 (`exp_poly`, fitted relative to exp(r)). exp is `(1 + expm1(r))
  2^k`, scaled by two normal powers of two so that results in the subnormal
  range round once and overflow gives inf; exp2 reduces `x = k + r` exactly and
  takes `r ln2` in two parts. expm1 is `fma(2^k, expm1(r), 2^k - 1)` (exact
  `2^k - 1` up to k = 24; above, `fma(2^k, expm1(r) - 2^-k, 2^k)`), with `2^127 (1 +
  expm1(r)) 2` for k = 128. Arguments are clamped before the reduction
  (so the integer conversion is always in range) to where the result has
  saturated: exp underflows to 0 below -103.97 and overflows above 88.72, exp2
  at -150 and 128, expm1 is -1 below -17.4.
* **log family.** Subnormals are scaled by 2^25 first. The exponent is taken
  from the bits so that the mantissa is `m` in `[sqrt(1/2), sqrt(2))` (subtract
  the bits of sqrt(1/2), shift), `f = m - 1` exactly, and `log(1 + f) = f - f^2/2
  + f^3 P(f)` with P of degree 7 (0.13 ulp). `log(x) = e ln2 + log(1 + f)`
  with ln2 in two parts (the high product exact inside an fma); log2 and log10
  scale `log(1 + f)` by log2(e), log10(e) in two parts. log1p computes `u = 1 +
  x` and reduces `u`, adding fdlibm's correction `c/u` for the rounding of `1 +
  x` (`c = x - (u - 1)`, or `1 - (u - x)` when u >= 2).

Where the target has AVX-512 (`Emitter.nan_flows`), exp and exp2 clamp so that a NaN
stays NaN (`clamp_keeping_nan`: `vmaxps`/`vminps` with x as the operand they return
for NaN) and let it go through the reduction and `llvm.ldexp` to the result, which
saves a compare and a select per element; elsewhere `fptosi` would make poison of
it, and the NaN is selected back.

Special values: NaN gives NaN, `exp(-inf) = 0`, `exp(inf) = inf`,
`expm1(+-0) = +-0`, `log(+-0) = -inf`, `log(x < 0) = NaN`, `log(inf) = inf`,
`log1p(-1) = -inf`, `log1p(+-0) = +-0`.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter

EXPM1_Q = (
    0.1666666567325592, 0.041666481643915176, 0.0083334194496274, 0.00139332446269691, 0.00019824126502498984,
)
"""expm1(r) = r + r^2/2 + r^3 Q(r), |r| <= ln2/2 (fit.py `expm1`)."""
EXP_Q = (0.16666534543037415, 0.041667237877845764, 0.008367476053535938, 0.001386379124596715)
"""The same with Q of degree 3, the error relative to exp(r) (fit.py `exp`, 0.06 ulp): exp
and exp2 as one Horner chain from 1 (`exp_horner`: 0.88 ulp; `1 + expm1_poly(r, EXP_Q)`
rounded twice and gave 0.996), tanh, erf and erfc as `t + t p` (`exp_poly`), with their
own rounding errors attenuated. expm1 keeps `EXPM1_Q`, for its relative error near 0."""

LOG_P = (
    0.3333333134651184, -0.250008225440979, 0.20001226663589478, -0.16623356938362122,
    0.14201761782169342, -0.131601944565773, 0.12761549651622772, -0.07634429633617401,
)
"""log(1+f) = f - f^2/2 + f^3 P(f), f in [sqrt(1/2) - 1, sqrt(2) - 1] (fit.py `log`)."""

LN2_HI = 0.6931471824645996
LN2_LO = -1.904654323148236e-09
LOG2E_HI = 1.4426950216293335
LOG2E_LO = 1.92596298909109e-08
LOG10E_HI = 0.4342944920063019
LOG10E_LO = -1.0103050118726031e-08
LOG10_2_HI = 0.3010300099849701
LOG10_2_LO = -1.432098889475597e-08
SQRT_HALF_BITS = 0x3F3504F3
INF = math.inf


def clamp(e: Emitter, x: SSAValue, lo: float, hi: float) -> SSAValue:
    """x limited to [lo, hi]; NaN becomes hi (callers select NaN back in)."""
    return e.min(e.max(x, e.c(lo)), e.c(hi))


def clamp_keeping_nan(e: Emitter, x: SSAValue, lo: float, hi: float) -> SSAValue:
    """x limited to [lo, hi]; NaN stays NaN (the operand order of `vmaxps`/`vminps`
    that returns x when it is NaN)."""
    low, high = e.c(lo), e.c(hi)
    y = e.select(e.cmp("olt", x, low), low, x)
    return e.select(e.cmp("olt", high, y), high, y)


def expm1_poly(e: Emitter, r: SSAValue, coefficients: tuple[float, ...] = EXPM1_Q) -> SSAValue:
    """expm1(r) for |r| <= ln2/2 (relative error 0.02 ulp before rounding; with `EXP_Q`,
    0.06 ulp of exp(r))."""
    q = e.poly(r, coefficients)
    return e.fma(e.mul(r, r), e.fma(r, q, e.c(0.5)), r)


def exp_poly(e: Emitter, r: SSAValue) -> SSAValue:
    """exp(r) - 1 for |r| <= ln2/2, to 0.06 ulp of exp(r) (not relative to expm1(r))."""
    return expm1_poly(e, r, EXP_Q)


def exp_horner(e: Emitter, r: SSAValue) -> SSAValue:
    """exp(r) for |r| <= ln2/2 as one Horner chain `1 + r (1 + r (1/2 + r Q(r)))`,
    Q = `EXP_Q`: six fmas and one rounding of a value near 1 (`1 + expm1_poly`
    took seven multiplies and fmas and an add, and rounded twice)."""
    return e.poly(r, (1.0, 1.0, 0.5, *EXP_Q))


def reduce_ln2(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(k, r) with x = k ln2 + r, k integral (as a float), |r| <= ln2/2."""
    k = e.rint(e.mul(x, e.c(LOG2E_HI)))
    r = e.fma(e.neg(k), e.c(LN2_HI), x)
    return k, e.fma(e.neg(k), e.c(LN2_LO), r)


def _scaled(e: Emitter, x: SSAValue, y: SSAValue, k: SSAValue) -> SSAValue:
    """y 2^k, NaN where x is NaN. With `nan_flows` (`llvm.lrint`, `llvm.ldexp`) the
    NaN has come through the clamp, r, y and ldexp (whatever lrint made of it), so no
    select is needed; `fptosi` of NaN would be poison, so otherwise x is selected back."""
    scaled = e.ldexp(y, e.to_int(k))
    return scaled if e.nan_flows else e.select(e.is_nan(x), x, scaled)


def _clamp_for(e: Emitter, x: SSAValue, lo: float, hi: float) -> SSAValue:
    return clamp_keeping_nan(e, x, lo, hi) if e.nan_flows else clamp(e, x, lo, hi)


def not_positive(x: SSAValue) -> bool:
    """Whether `x` is `-|a|` (`arith.negf` of `math.absf`): at most -0.0, or NaN."""
    owner = x.owner
    return isinstance(owner, arith.NegfOp) and isinstance(owner.operand.owner, math_dialect.AbsFOp)


def exp(e: Emitter, x: SSAValue) -> SSAValue:
    """e^x; of `-|a|` (logistic's), clamped only from below (`not_positive`): the
    clamp at 89 would be one more instruction that changes nothing."""
    if not_positive(x):
        low = e.c(-104.0)
        xc = e.select(e.cmp("olt", x, low), low, x) if e.nan_flows else e.max(x, low)
    else:
        xc = _clamp_for(e, x, -104.0, 89.0)
    k, r = reduce_ln2(e, xc)
    return _scaled(e, x, exp_horner(e, r), k)


def exp2(e: Emitter, x: SSAValue) -> SSAValue:
    xc = _clamp_for(e, x, -151.0, 129.0)
    k = e.rint(xc)
    t = e.sub(xc, k)
    r = e.fma(t, e.c(LN2_HI), e.mul(t, e.c(LN2_LO)))
    return _scaled(e, x, exp_horner(e, r), k)


def expm1_core(e: Emitter, x: SSAValue) -> SSAValue:
    """expm1(x) for x in [-18, 89], zeros excepted (they come back +0)."""
    k, r = reduce_ln2(e, x)
    p = expm1_poly(e, r)
    t = e.pow2i(e.to_int(e.min(k, e.c(127.0))))
    # t - 1 is exact up to k = 24; above, fold the -1 into p as -2^-k.
    wide = e.cmp("ogt", k, e.c(24.0))
    p_wide = e.sub(p, e.pow2i(e.to_int(e.neg(e.min(k, e.c(126.0))))))
    small = e.fma(t, e.select(wide, p_wide, p), e.select(wide, t, e.sub(t, e.c(1.0))))
    large = e.mul(e.fma(t, p, t), e.c(2.0))
    return e.select(e.cmp("ogt", k, e.c(127.0)), large, small)


def expm1(e: Emitter, x: SSAValue) -> SSAValue:
    y = expm1_core(e, clamp(e, x, -18.0, 89.0))
    return e.select(e.cmp("ueq", x, e.c(0.0)), x, y)  # NaN, +-0


def _split(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(exponent as a float, f) with x = 2^exponent (1 + f), 1 + f in [sqrt(1/2), sqrt(2)),
    for positive finite x (subnormals included)."""
    tiny = e.cmp("olt", x, e.c(2.0**-126))
    xs = e.select(tiny, e.mul(x, e.c(2.0**25)), x)
    bits = e.bits(xs)
    exponent = e.shr(e.subi(bits, e.ci(SQRT_HALF_BITS)), e.ci(23))
    m = e.from_bits(e.subi(bits, e.shl(exponent, e.ci(23))))
    ef = e.sub(e.to_float(exponent), e.select(tiny, e.c(25.0), e.c(0.0)))
    return ef, e.sub(m, e.c(1.0))


def _log1p_tail(e: Emitter, f: SSAValue, extra: SSAValue) -> SSAValue:
    """log(1 + f) - f + extra = f^2 (f P(f) - 1/2) + extra."""
    return e.fma(e.mul(f, f), e.fma(f, e.poly(f, LOG_P), e.c(-0.5)), extra)


def _log_specials(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """y where 0 < x < inf; -inf at +-0, NaN below 0 and for NaN, inf at inf."""
    special = e.select(e.cmp("oeq", x, e.c(0.0)), e.c(-INF), e.select(e.cmp("ult", x, e.c(0.0)), e.c(math.nan), x))
    regular = e.both(e.cmp("ogt", x, e.c(0.0)), e.cmp("olt", x, e.c(INF)))
    return e.select(regular, y, special)


def log(e: Emitter, x: SSAValue) -> SSAValue:
    ef, f = _split(e, x)
    tail = _log1p_tail(e, f, e.mul(ef, e.c(LN2_LO)))
    return _log_specials(e, x, e.fma(ef, e.c(LN2_HI), e.add(f, tail)))


def log2(e: Emitter, x: SSAValue) -> SSAValue:
    ef, f = _split(e, x)
    tail = _log1p_tail(e, f, e.c(0.0))
    p = e.add(f, tail)
    small = e.fma(tail, e.c(LOG2E_HI), e.mul(p, e.c(LOG2E_LO)))
    return _log_specials(e, x, e.add(ef, e.fma(f, e.c(LOG2E_HI), small)))


def log10(e: Emitter, x: SSAValue) -> SSAValue:
    ef, f = _split(e, x)
    tail = _log1p_tail(e, f, e.c(0.0))
    p = e.add(f, tail)
    small = e.fma(tail, e.c(LOG10E_HI), e.fma(p, e.c(LOG10E_LO), e.mul(ef, e.c(LOG10_2_LO))))
    return _log_specials(e, x, e.fma(ef, e.c(LOG10_2_HI), e.fma(f, e.c(LOG10E_HI), small)))


def log1p(e: Emitter, x: SSAValue) -> SSAValue:
    one = e.c(1.0)
    u = e.add(one, x)
    ef, f = _split(e, e.max(u, e.c(2.0**-126)))
    # The rounding error of 1 + x, relative to u (fdlibm's correction).
    c = e.select(e.cmp("oge", u, e.c(2.0)), e.sub(one, e.sub(u, x)), e.sub(x, e.sub(u, one)))
    tail = _log1p_tail(e, f, e.fma(ef, e.c(LN2_LO), e.div(c, u)))
    y = e.fma(ef, e.c(LN2_HI), e.add(f, tail))
    y = _log_specials(e, u, y)  # u = 0 at x = -1, u < 0 below, inf at inf, NaN
    return e.select(e.cmp("ueq", x, e.c(0.0)), x, y)  # NaN, +-0
