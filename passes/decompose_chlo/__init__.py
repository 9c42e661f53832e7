"""`xla-decompose-chlo`: every `chlo` op rewritten into `xla` ops.

The `chlo` dialect (xla_dialect/chlo.py) has no lowering of its own; this pass
runs first in `lower-to-llvm` and replaces each op by the `xla` ops XLA's client
library (and StableHLO's chlo legalization) would emit, so the rest of the
pipeline compiles them like any other program. The numerics follow XLA:

* **Upcasting.** The special functions compute f16 and bf16 in f32 and round
  the result back (`convert` around the expansion), as XLA does.
* **erf / erfc.** On f16, bf16 and f32 these two are not decomposed here:
  `convert-xla-to-linalg` lowers them to a compact, vectorizable expansion
  (`lowering/math_approximation/chlo_erf.py`; 1.3 and 3.0 ulp). f64 uses
  Cephes' double-precision rationals (`x T(x^2) / U(x^2)` below 1, `exp(-x^2)
  P(|x|)/Q(|x|)` on [1, 8), `R/S` above), with `exp(-x^2)` corrected by the exact
  error of `x^2` (Dekker's split) and kept down to its subnormals (2.0 and 7.7
  ulp). (The f32 rationals below, Eigen's
  `x P(x^2) / Q(x^2)` and Cephes' erfc, are what `_erf`/`_erfc` still give on
  f32 when called directly.)
* **erf_inv.** Giles' form `x P(w)` in `w = -log((1 - |x|)(1 + |x|))` (exact
  next to +-1): his double-precision polynomials for f64, refitted ones for f32
  (2.7 and 4.0 ulp); `erf_inv(+-1) = +-inf`, NaN outside [-1, 1].
* **lgamma / digamma.** Lanczos (g = 7, 9 terms) for x >= 1/2, reflection
  (`log(pi) - lgamma(1-x) - log|sin(pi frac(x))|`, `digamma(1-x) - pi cot(pi x)`)
  below; lgamma is +inf at the poles and at +-inf, digamma NaN at the poles.
* **zeta / polygamma.** Hurwitz zeta by Euler–Maclaurin (9 direct terms, 12
  Bernoulli terms by Horner), with XLA's domain rules (NaN for x < 1, poles at
  non-positive integer q); `polygamma(n, x) = (-1)^(n+1) n! zeta(n+1, x)` for
  n >= 1, digamma for n = 0, NaN for non-natural n.
* **Trigonometric / hyperbolic.** `asin = 2 atan2(x, 1 + sqrt((1-x)(1+x)))`,
  `acos = 2 atan2(sqrt((1-x)(1+x)), 1 + x)` (pi at -1), `atan = atan2(x, 1)`,
  `asinh = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))` (`log|x| + log 2`
  for huge |x|), `acosh = log1p(y + sqrt(y (x + 1)))` with `y = x - 1` (`log x +
  log 2` for huge x, NaN below 1), `atanh = log1p(2x / (1 - x)) / 2` (NaN for
  |x| > 1), `sinh`/`cosh` as `e^(x + log 1/2) -+ e^(-x + log 1/2)` (no early
  overflow) with `(expm1(x) + expm1(x)/(expm1(x)+1)) / 2` for |sinh| below 1;
  `tan` is `xla.tan`.
* **next_after.** Integer arithmetic on the bit pattern (`bitcast_convert`),
  with C's rules for NaN, equal operands and zeros (smallest subnormal).
* **mulhi.** Widened to the next integer width, multiplied and shifted; 64-bit
  operands use the 32-bit-halves schoolbook product (the signed result is the
  unsigned one minus `a<0 ? b : 0` and `b<0 ? a : 0`).
* **top_k.** `xla.sort` (stable, descending in total order, so NaN first) of
  the operand with an i32 iota along the last dimension, then slices of the
  first k.
* **scan.** An `xla.while` over (index, carries, outputs): each step slices the
  inputs at the position (`dynamic_slice` + `reshape`), inlines the body, and
  writes the output slices with `dynamic_update_slice`.
* **ragged_dot.** One `dot_general` on a one-hot-expanded lhs: the lhs gains a
  group dimension g, masked to the rows (mode 1) or contracting entries (mode 2)
  of group g from the cumulative group sizes; mode 1 contracts g with the rhs
  group dimension, mode 2 keeps it as a free dimension transposed to the front,
  mode 3 (ragged batch) is a plain dot_general (as the chlo legalization does).
  The IR is independent of g; the work is g times a dense dot, as with XLA's
  masked-dot expansion.
* **broadcast_*.** `broadcast_in_dim` of each operand to the result shape, then
  the element-wise `xla` (or `chlo`, decomposed in turn) op.

* **Complex asin, acos, atan, asinh, acosh, atanh.** Hull, Fairgrieve and Tang's
  algorithm for asin/acos and C99's identities for the others, in f64, with Annex
  G's signed zeros, infinities and NaNs (`complex_trig.py`).

The package holds one file per family: `emitter.py` (the expression builder),
`special.py` (erf ... polygamma), `real_trig.py`, `complex_trig.py`, `bits.py`
(next_after, mulhi), `structured.py` (top_k, scan, ragged_dot) and `rewrite.py`
(the pattern and the pass). Complex operands of the other special functions, and
dynamic shapes, are reported as `LoweringError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

if TYPE_CHECKING:
    from passes.decompose_chlo.rewrite import DecomposeChlo


@dataclass(frozen=True)
class DecomposeChloPass(ModulePass):
    """Rewrites every `chlo` op into `xla` ops."""

    name = "xla-decompose-chlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(o.name.startswith("chlo.") for o in op.walk()):
            return  # nothing to decompose: the expansions (and the chlo dialect) stay unloaded
        from passes.decompose_chlo.rewrite import decompose_chlo

        decompose_chlo(op)


def __getattr__(name: str) -> Any:
    if name == "DecomposeChlo":
        from passes.decompose_chlo.rewrite import DecomposeChlo

        return DecomposeChlo
    raise AttributeError(f"module 'passes.decompose_chlo' has no attribute {name!r}")


__all__ = ["DecomposeChlo", "DecomposeChloPass"]
