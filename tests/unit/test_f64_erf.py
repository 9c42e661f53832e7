"""f64 chlo.erf / chlo.erfc (CHLO's Cephes expansions in `xla` ops) in ulps against
mpmath: 1.96 and 7.7 ulp measured (`python -m xla_tools.math_accuracy --f64`,
docs/math_accuracy.md); erfc was 58 ulp near x = 12 before exp(-x^2) was corrected by
the exact error of the square."""

from __future__ import annotations

import mpmath
import numpy as np

from xla_tools import compile
from xla_tools.complex_accuracy import ulp_error

N = 4000
MODULE = "\n".join(
    f"""func.func @{op}(%x: tensor<{N}xf64>) -> tensor<{N}xf64> {{
  %r = chlo.{op} %x : tensor<{N}xf64> -> tensor<{N}xf64>
  func.return %r : tensor<{N}xf64>
}}"""
    for op in ("erf", "erfc")
)


def _max_ulp(op: str, x: np.ndarray) -> tuple[float, float]:
    got = compile(MODULE, op)(x)
    fn = getattr(mpmath, op)
    worst = (0.0, 0.0)
    with mpmath.workprec(160):
        for xi, gi in zip(x, got):
            err = ulp_error(float(gi), fn(mpmath.mpf(float(xi))), np.float64)
            worst = max(worst, (err, float(xi)))
    return worst


def test_erf_and_erfc_f64_ulp() -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(-6, 27, N - 1000), np.exp(rng.uniform(np.log(1e-300), np.log(6), 1000))])
    erf_err, at = _max_ulp("erf", x)
    assert erf_err <= 2.5, (erf_err, at)
    erfc_err, at = _max_ulp("erfc", x)
    assert erfc_err <= 8.5, (erfc_err, at)
