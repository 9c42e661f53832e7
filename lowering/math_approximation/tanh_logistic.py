"""tanh (math.tanh) and logistic (the expansion `xla.logistic` uses) on f32, branch-free.

* **tanh**: for |x| < 0.55 the odd polynomial `x + x^3 T(x^2)`, T of degree 3
  (a minimax fit relative to tanh, 0.63 units of 2^-24; 1.29 ulp at most there, 0.76
  with degree 4, one fma more); above, `1 - 2 / (1 + E)` with
  `E = e^(2|x|) = 2^k (1 + p)`, `r = 2|x| - k ln2` in one step (ln2 rounded to f32:
  an error of k 2^-28 in E, which the quotient attenuates by 2/E) and `exp_poly`
  (`k` in [1, 28], so none of exp's range handling), `1 + E` as one fma
  `t p + (1 + t)`; the quotient is at most 1/2, so its rounding errors reach
  the result at most halved (`Emitter.quotient`: a refined reciprocal where the
  target divides slowly, the same results but near ties): 1.33 ulp (`1 - 2E' / (1 + E')` with `E' =
  e^(-2|x|)` took two operations more and gave 1.48). Multiplies and fmas are what
  a tanh loop waits for on Zen 4 (512-bit ones issue one per cycle), so each one
  saved counts: 14 are left. |x|
  is clamped at 9.5, where the result has rounded to 1; `copysign` gives x's
  sign (`tanh(-0) = -0`); NaN stays NaN (where `Emitter.nan_flows`, it goes
  through the clamp and both paths: no select for it); tiny and subnormal x give x. (The
  former `expm1(2|x|) / (expm1(2|x|) + 2)` carried expm1's whole-range logic:
  ~25% more instructions in a tanh-GELU loop.)
* **logistic** `1 / (1 + e^-x)` is computed as `select(x < 0, e, 1) / (1 + e)`
  with `e = exp(-|x|)`, so that `e^-x` never overflows for very negative x (the
  result there is `e^x`, down into the subnormals) and one division serves both
  signs. `lowering/scalar/real.py` emits that form with `math.exp`,
  which `exp_log.exp` then expands; `logistic` here is the same formula for
  callers of this package.
* **1 + tanh(y)** (`one_plus_tanh`, what `expand` makes of a tanh whose one use adds
  1.0 to it: tanh-GELU's `0.5 x (1 + tanh(u))`) is `2 logistic(2y)`, the same identity
  `1 + tanh(y) = 2 / (1 + e^-2y)`: one exp and one quotient, without tanh's
  small-|y| polynomial, clamp and copysign (the tanh-GELU kernel's loop: 211 -> 164
  instructions per 64 elements on Cascade Lake). It is also the more accurate form: `1 + tanh(y)` cancels for y < 0
  (within 2^-24 of 0 from y = -8.7 down, where the sum gave 0 or a few ulp).
  When `y = c u` (a multiply by a constant), `2y` is `(2c) u`; when the sum's one use
  halves it (`0.5 (1 + tanh(y))`, as JAX's GELU writes it), the result is `logistic(2y)`
  itself, and exp's argument `-|2y|` is clamped from below only (`exp_log.not_positive`):
  bitwise the same results, 4 instructions fewer per vector (tanh-GELU 64K f32 in cache
  0.066 -> 0.060 ms, one core, A/B; at 4M the loop waits for memory and is unchanged).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter
from lowering.math_approximation.exp_log import LN2_HI, LOG2E_HI, exp, exp_poly

TANH_T = (-0.3333294689655304, 0.13320724666118622, -0.052671801298856735, 0.016437562182545662)
"""tanh(x) = x + x^3 T(x^2), |x| <= 0.55 (fit.py `tanh`)."""


def tanh(e: Emitter, x: SSAValue) -> SSAValue:
    ax, top = e.abs(x), e.c(9.5)
    ax = e.select(e.cmp("olt", top, ax), top, ax) if e.nan_flows else e.min(ax, top)  # keeping NaN, or not
    z = e.mul(ax, ax)
    small = e.fma(e.mul(z, ax), e.poly(z, TANH_T), ax)
    # e^(2|x|) = t (1 + p), t = 2^k, k in [1, 28]: tanh = 1 - 2 / (1 + t + t p), the
    # quotient at most 1/2, so that its rounding errors reach the result at most halved.
    y = e.add(ax, ax)
    k = e.rint(e.mul(y, e.c(LOG2E_HI)))
    r = e.fma(e.neg(k), e.c(LN2_HI), y)
    p = exp_poly(e, r)
    t = e.pow2(e.to_int(k))
    large = e.sub(e.c(1.0), e.quotient(e.c(2.0), e.fma(t, p, e.add(e.c(1.0), t))))
    y = e.copysign(e.select(e.cmp("olt", ax, e.c(0.55)), small, large), x)
    return y if e.nan_flows else e.select(e.is_nan(x), x, y)


def logistic(e: Emitter, x: SSAValue) -> SSAValue:
    ex = exp(e, e.neg(e.abs(x)))
    num = e.select(e.cmp("olt", x, e.c(0.0)), ex, e.c(1.0))
    return e.quotient(num, e.add(e.c(1.0), ex))


def doubled(e: Emitter, two_y: SSAValue) -> SSAValue:
    """`2 logistic(2y)` from `2y`: `1 + tanh(y)` (the doubling is exact; y = +-inf gives 2
    and 0, NaN stays NaN)."""
    return e.mul(e.c(2.0), logistic(e, two_y))


def one_plus_tanh(e: Emitter, y: SSAValue) -> SSAValue:
    """`1 + tanh(y)` as `2 logistic(2y)` (`2y` and the final doubling are exact)."""
    return doubled(e, e.add(y, y))
