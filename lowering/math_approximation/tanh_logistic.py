"""tanh (math.tanh) and logistic (the expansion `xla.logistic` uses) on f32, branch-free.

* **tanh**: for |x| < 0.55 the odd polynomial `x + x^3 T(x^2)`, T of degree 4
  (a minimax fit relative to tanh, 0.07 ulp); above, `expm1(2|x|) /
  (expm1(2|x|) + 2)` with the shared expm1 of `exp_log` (no cancellation: both
  terms are positive, and the error of expm1 enters at most halved). |x| is
  clamped at 9.5, where the quotient has rounded to 1; `copysign` gives x's
  sign (`tanh(-0) = -0`); NaN stays NaN; tiny and subnormal x give x.
* **logistic** `1 / (1 + e^-x)` is computed as `select(x < 0, e, 1) / (1 + e)`
  with `e = exp(-|x|)`, so that `e^-x` never overflows for very negative x (the
  result there is `e^x`, down into the subnormals) and one division serves both
  signs. `lowering/scalar/real.py` emits that form with `math.exp`,
  which `exp_log.exp` then expands; `logistic` here is the same formula for
  callers of this package.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from lowering.math_approximation.builder import Emitter
from lowering.math_approximation.exp_log import exp, expm1_core

TANH_T = (-0.33333316445350647, 0.13332585990428925, -0.05385230854153633, 0.021071674302220345, -0.006274233106523752)
"""tanh(x) = x + x^3 T(x^2), |x| <= 0.55 (fit.py `tanh`)."""


def tanh(e: Emitter, x: SSAValue) -> SSAValue:
    ax = e.min(e.abs(x), e.c(9.5))
    z = e.mul(ax, ax)
    small = e.fma(e.mul(z, ax), e.poly(z, TANH_T), ax)
    em = expm1_core(e, e.add(ax, ax))
    large = e.div(em, e.add(em, e.c(2.0)))
    t = e.select(e.cmp("olt", ax, e.c(0.55)), small, large)
    return e.select(e.is_nan(x), x, e.copysign(t, x))


def logistic(e: Emitter, x: SSAValue) -> SSAValue:
    ex = exp(e, e.neg(e.abs(x)))
    num = e.select(e.cmp("olt", x, e.c(0.0)), ex, e.c(1.0))
    return e.div(num, e.add(e.c(1.0), ex))
