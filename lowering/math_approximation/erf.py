"""erf and erfc on f32, branch-free.

* `|x| < 1`: `erf(x) = x (2/sqrt(pi) + x^2 P(x^2))`, P of degree 6 (a minimax
  fit relative to erf, 0.13 ulp), with 2/sqrt(pi) in two parts (its f32
  rounding alone would cost 0.9 ulp).
* erfc: `erfc(|x|) = exp(-x^2) R(|x|)` with `R = N(x - 1)` on [0, 2]
  (degree 12, 0.8 units of 2^-24; `N(-1)` is 1 exactly, so `erfc(0) = 1`) and
  `R = F(1/x^2) / x` on [2, 10.06] (degree 7, 0.54 ulp), both fitted relative, in
  variables where Horner's terms do not cancel. `x^2` is kept as an exact sum `h + l`
  (`l = fma(x, x, -h)`), as the rounding of x^2 would otherwise be amplified by up to
  2 x^2 (200 ulp at x = 10): l joins the second step of the reduction of `-h - l =
  k ln2 + r`, and `exp(-h - l) = 2^k (1 + p)` (p from `exp_log.exp_poly`) is not
  rounded on its own: the result is `2^k fma(R, p, R)`, with `F(1/h) / x` (two
  divisions) far out: 3.0 ulp (4.4 when exp, 1/x and the products each rounded).
  |x| is clamped at 10.1, where erfc has underflowed to 0.
* erf is `1 - exp(-x^2) M(|x| - 3/2)` from 1 up, |x| clamped to [1, 3.92] (erf
  has rounded to 1 beyond), with x's sign. erf needs erfc there only to an absolute
  2^-24 (erfc <= 0.16), so M is one polynomial of degree 7 fitted with weight
  `exp(-x^2)` (0.25 ulp of erf), x^2 is rounded (its error reaches erf below 0.2
  ulp) and `exp(-x^2) = 2^k (1 + p)` needs no range handling (k in [-23, -1]):
  no division, about half the instructions of erfc's tail below.
* erfc is that for x >= 0 and `2 - erfc(-x)` below. (It was `1 - erf(x)` for
  |x| < 1/2 and N of degree 10 on [1/2, 2]: 0.5 ulp instead of ~2 near 0, but a
  second path of 13 instructions for every element, which GELU's
  `erfc(-x/sqrt 2)` paid.) `erf(+-0) = +-0`, `erf(+-inf) = +-1`, `erfc(-inf) = 2`,
  `erfc(inf) = 0`, NaN stays NaN (where `Emitter.nan_flows`, by going through the
  clamps, the reduction and `llvm.ldexp`, with no select for it).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter
from lowering.math_approximation.exp_log import (
    LN2_HI,
    LN2_LO,
    LOG2E_HI,
    clamp_keeping_nan,
    exp_poly,
    reduce_ln2,
)

ERF_P = (
    -0.37612637877464294, 0.11283783614635468, -0.026865476742386818, 0.005221130792051554,
    -0.0008485249127261341, 0.00011273018026258796, -9.684205906523857e-06,
)
"""erf(x) = x (2/sqrt(pi) + z P(z)), z = x^2 <= 1 (fit.py `erf`)."""
ERFC_NEAR = (
    0.42758357524871826, -0.2732119858264923, 0.15437158942222595, -0.07922746986150742, 0.03757202625274658,
    -0.016657749190926552, 0.006970724556595087, -0.002783335978165269, 0.0010510212741792202,
    -0.00035833954461850226, 0.00012970190437044948, -6.326554284896702e-05, 1.919555688800756e-05,
)
"""erfc(x) = exp(-x^2) N(x - 1), x in [0, 2] (fit.py `erfc_near`; N(-1) is 1 exactly in f32)."""
ERFC_FAR = (
    0.5641894340515137, -0.28206780552864075, 0.42150959372520447, -1.0093224048614502, 2.8655829429626465,
    -7.214163780212402, 12.243154525756836, -9.70708179473877,
)
"""erfc(x) = exp(-x^2) F(1/x^2) / x, x in [2, 10.06] (fit.py `erfc_far`)."""
ERF_TAIL = (
    0.32158535718917847, -0.16362442076206207, 0.07615195959806442, -0.03289593756198883, 0.013383445329964161,
    -0.0053268070332705975, 0.001921837218105793, -0.00038888174458406866,
)
"""erf(x) = 1 - exp(-x^2) M(x - 3/2), x in [1, 3.92] (fit.py `erf_tail`)."""
ERF_SATURATES = 3.92
"""erf(x) rounds to 1 in f32 from here up."""
TWO_OVER_SQRT_PI_HI = 1.128379225730896
TWO_OVER_SQRT_PI_LO = -5.863538343753305e-08


def _erf_small(e: Emitter, x: SSAValue) -> SSAValue:
    """erf(x) for |x| <= 1."""
    z = e.mul(x, x)
    return e.fma(x, e.c(TWO_OVER_SQRT_PI_HI), e.mul(x, e.fma(z, e.poly(z, ERF_P), e.c(TWO_OVER_SQRT_PI_LO))))


def _erfc_large(e: Emitter, ax: SSAValue) -> SSAValue:
    """erfc(ax) for ax >= 0 (larger ones and inf clamp to 10.1, NaN too unless
    `nan_flows`, where it stays NaN), as
    `2^k (q + q p)`: `exp(-h - l) = 2^k (1 + p)` folded into one fma with `q = R(ax)`
    (`F(1/h) / ax` far out)."""
    ten = e.c(10.1)
    a = e.select(e.cmp("olt", ten, ax), ten, ax) if e.nan_flows else e.min(ax, ten)
    h = e.mul(a, a)
    lo = e.fma(a, a, e.neg(h))
    # -a^2 = -h - lo = k ln2 + r: lo joins the second step of the reduction
    k = e.rint(e.mul(h, e.c(-LOG2E_HI)))
    r = e.fma(k, e.c(LN2_LO), e.add(e.fma(k, e.c(LN2_HI), h), lo))
    p_lo = exp_poly(e, e.neg(r))
    # far out a >= 2 (below, the near value is chosen): the divisors are made finite and
    # nonzero there too, keeping NaN
    two, four = e.c(2.0), e.c(4.0)
    af = e.select(e.cmp("olt", a, two), two, a)
    hf = e.select(e.cmp("olt", h, four), four, h)
    far = e.quotient(e.poly(e.quotient(e.c(1.0), hf), ERFC_FAR), af)
    near = e.poly(e.sub(a, e.c(1.0)), ERFC_NEAR)
    q = e.select(e.cmp("olt", a, e.c(2.0)), near, far)
    return e.ldexp(e.fma(q, p_lo, q), e.to_int(k))


def _erf_tail(e: Emitter, ax: SSAValue) -> SSAValue:
    """erf(ax) for ax >= 1 (any smaller value clamps to 1, larger ones and inf to 3.92,
    NaN too unless `nan_flows`) as `1 - 2^k (m + m p)`, `exp(-x^2) = 2^k (1 + p)`, `m = M(a - 3/2)`."""
    a = clamp_keeping_nan(e, ax, 1.0, ERF_SATURATES) if e.nan_flows else e.min(e.max(ax, e.c(1.0)), e.c(ERF_SATURATES))
    k, r = reduce_ln2(e, e.neg(e.mul(a, a)))
    p = exp_poly(e, r)
    m = e.poly(e.sub(a, e.c(1.5)), ERF_TAIL)
    return e.sub(e.c(1.0), e.ldexp(e.fma(m, p, m), e.to_int(k)))


def erf(e: Emitter, x: SSAValue) -> SSAValue:
    ax = e.abs(x)
    large = _erf_tail(e, ax)
    y = e.copysign(e.select(e.cmp("olt", ax, e.c(1.0)), _erf_small(e, ax), large), x)
    return y if e.nan_flows else e.select(e.is_nan(x), x, y)


def erfc(e: Emitter, x: SSAValue) -> SSAValue:
    ax = e.abs(x)
    tail = _erfc_large(e, ax)
    y = e.select(e.cmp("olt", x, e.c(0.0)), e.sub(e.c(2.0), tail), tail)
    return y if e.nan_flows else e.select(e.is_nan(x), x, y)
