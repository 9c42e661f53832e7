"""`xla-decompose-chlo`: every `chlo` op rewritten into `xla` ops.

The `chlo` dialect (xla_dialect/chlo.py) has no lowering of its own; this pass
runs first in `lower-to-llvm` and replaces each op by the `xla` ops XLA's client
library (and StableHLO's chlo legalization) would emit, so the rest of the
pipeline compiles them like any other program. The numerics follow XLA:

* **Upcasting.** The special functions compute f16 and bf16 in f32 and round
  the result back (`convert` around the expansion), as XLA does.
* **erf / erfc.** On f16, bf16 and f32 these two are not decomposed here:
  `convert-xla-to-linalg` lowers them to a compact, vectorizable expansion
  (`lowering/math_approximation/chlo_erf.py`; 1.3 and 4.4 ulp). f64 uses
  Cephes' double-precision rationals (`x T(x^2) / U(x^2)` below 1, `exp(-x^2)
  P(|x|)/Q(|x|)` on [1, 8), `R/S` above). (The f32 rationals below, Eigen's
  `x P(x^2) / Q(x^2)` and Cephes' erfc, are what `_erf`/`_erfc` still give on
  f32 when called directly.)
* **erf_inv.** Giles' single- and double-precision polynomials in
  `w = -log1p(-x^2)`; `erf_inv(+-1) = +-inf`, NaN outside [-1, 1].
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

Complex operands of the special functions (other than `tan` and `square`) and
dynamic shapes are reported as `LoweringError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    Signedness,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from xla_dialect import chlo
from xla_dialect.attributes import ComparisonDirection, ComparisonType, Precision
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.constants import ConstantOp, IotaOp
from xla_dialect.ops.contraction import DotGeneralOp
from xla_dialect.ops.control_flow import ReturnOp, WhileOp
from xla_dialect.ops.elementwise import (
    BINARY_OP_CLASSES,
    UNARY_OP_CLASSES,
    BitcastConvertOp,
    ClampOp,
    CompareOp,
    ConvertOp,
    SelectOp,
)
from xla_dialect.ops.reduction import ReduceOp, SortOp
from xla_dialect.ops.shape import BroadcastInDimOp, ReshapeOp, TransposeOp
from xla_dialect.ops.slicing import DynamicSliceOp, DynamicUpdateSliceOp, SliceOp
from xla_dialect.types import (
    bit_width,
    element_type_of,
    format_type,
    is_complex,
    is_dynamic,
    is_float,
    is_unsigned_integer,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# Building element-wise expressions
# ---------------------------------------------------------------------------


class _Emitter:
    """Appends `xla` ops computing element-wise expressions on tensors of one shape
    and element type; constants are splats of that type (cached)."""

    def __init__(self, ops: list[Operation], shape: Sequence[int], element: Attribute):
        self.ops = ops
        self.shape = tuple(shape)
        self.element = element
        self._consts: dict[str, SSAValue] = {}

    def with_element(self, element: Attribute) -> _Emitter:
        return _Emitter(self.ops, self.shape, element)

    @property
    def type(self) -> Attribute:
        return tensor(self.shape, self.element)

    def emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def c(self, value: float) -> SSAValue:
        key = repr(value)
        if key not in self._consts:
            if is_float(self.element):
                v: float | int = float(value)
            else:
                v = int(value)
                width = bit_width(self.element)
                if is_unsigned_integer(self.element):
                    v %= 1 << width
                else:  # two's complement into the signed range
                    v = (v + (1 << (width - 1))) % (1 << width) - (1 << (width - 1))
            # A rank-0 constant broadcast (as JAX exports splats): a dense splat of the
            # full shape would be expanded element by element by the lowering.
            scalar = self.emit(ConstantOp.from_list([v], tensor((), self.element)))  # pyright: ignore
            self._consts[key] = self.emit(BroadcastInDimOp(scalar, self.shape, [])) if self.shape else scalar
        return self._consts[key]

    def un(self, name: str, x: SSAValue) -> SSAValue:
        return self.emit(UNARY_OP_CLASSES[name](x))  # pyright: ignore[reportCallIssue]

    def bin(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(BINARY_OP_CLASSES[name](a, b))  # pyright: ignore[reportCallIssue]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("add", a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("subtract", a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("multiply", a, b)

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("divide", a, b)

    def cmp(self, direction: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(CompareOp(ComparisonDirection(direction), a, b))

    def sel(self, pred: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(SelectOp(pred, a, b))

    def poly(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """Horner's rule, highest-degree coefficient first."""
        acc = self.c(coefficients[0])
        for coefficient in coefficients[1:]:
            acc = self.add(self.mul(acc, x), self.c(coefficient))
        return acc

    def convert(self, x: SSAValue, element: Attribute) -> SSAValue:
        return self.emit(ConvertOp(x, tensor(self.shape, element)))


FloatFn = Callable[[_Emitter, SSAValue], SSAValue]


def _upcast(e: _Emitter, args: Sequence[SSAValue], fn: Callable[..., SSAValue]) -> SSAValue:
    """Run `fn` in f32 for f16/bf16 operands (rounding the result back), as XLA does."""
    if isinstance(e.element, Float16Type | BFloat16Type):
        wide = e.with_element(f32)
        result = fn(wide, *[e.convert(a, f32) for a in args])
        return wide.convert(result, e.element)
    return fn(e, *args)


# ---------------------------------------------------------------------------
# erf, erfc, erf_inv
# ---------------------------------------------------------------------------

_ERF_F32_ALPHA = (
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
    -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
    -1.60960333262415e-02,
)
_ERF_F32_BETA = (
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
    -7.37332916720468e-03, -1.42647390514189e-02,
)
_ERF_F32_T = (
    7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3,
    -2.685381193529856e-2, 1.128358514861418e-1, -3.761262582423300e-1,
    1.128379165726710e0,
)
_ERFC_F32_P = (
    2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1,
    -5.824733027278666e-1, 6.210004621745983e-1, -4.944515323274145e-1,
    3.404879937665872e-1, -2.741127028184656e-1, 5.638259427386472e-1,
)
_ERFC_F32_R = (
    -1.047766399936249e1, 1.297719955372516e1, -7.495518717768503e0,
    2.921019019210786e0, -1.015265279202700e0, 4.218463358204948e-1,
    -2.820767439740514e-1, 5.641895067754075e-1,
)
_ERF_F64_T = (
    9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
    7.00332514112805075473e3, 5.55923013010394962768e4,
)
_ERF_F64_U = (
    1.0, 3.35617141647503099647e1, 5.21357949780152679795e2,
    4.59432382970980127987e3, 2.26290000613890934246e4, 4.92673942608635921086e4,
)
_ERFC_F64_P = (
    2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
    4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
    9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2,
)
_ERFC_F64_Q = (
    1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
    9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
    1.65666309194161350182e3, 5.57535340817727675546e2,
)
_ERFC_F64_R = (
    5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
    6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0,
)
_ERFC_F64_S = (
    1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
    1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0,
)
_MAXLOG_F32 = 88.72283905206835
_MAXLOG_F64 = 7.09782712893383996843e2


def _is_f64(e: _Emitter) -> bool:
    return isinstance(e.element, Float64Type)


def _erf_small(e: _Emitter, x: SSAValue) -> SSAValue:
    """erf for |x| < 1 (Cephes)."""
    x2 = e.mul(x, x)
    if _is_f64(e):
        return e.div(e.mul(x, e.poly(x2, _ERF_F64_T)), e.poly(x2, _ERF_F64_U))
    return e.mul(x, e.poly(x2, _ERF_F32_T))


def _erfc_large(e: _Emitter, x: SSAValue) -> SSAValue:
    """erfc for |x| >= 1 (Cephes), using erfc(x) = 2 - erfc(-x) for x < 0."""
    z = e.un("negate", e.mul(x, x))
    ax = e.un("abs", x)
    exp_z = e.un("exponential", z)
    if _is_f64(e):
        mid = e.div(e.mul(exp_z, e.poly(ax, _ERFC_F64_P)), e.poly(ax, _ERFC_F64_Q))
        far = e.div(e.mul(exp_z, e.poly(ax, _ERFC_F64_R)), e.poly(ax, _ERFC_F64_S))
        approx = e.sel(e.cmp("LT", ax, e.c(8.0)), mid, far)
        maxlog = _MAXLOG_F64
    else:
        r = e.div(e.c(1.0), e.mul(x, x))
        poly = e.sel(e.cmp("LT", ax, e.c(2.0)), e.poly(r, _ERFC_F32_P), e.poly(r, _ERFC_F32_R))
        approx = e.mul(e.mul(exp_z, e.div(e.c(1.0), ax)), poly)
        maxlog = _MAXLOG_F32
    zero = e.c(0.0)
    approx = e.sel(e.cmp("LT", z, e.c(-maxlog)), zero, approx)
    return e.sel(e.cmp("LT", x, zero), e.sub(e.c(2.0), approx), approx)


def _erf(e: _Emitter, x: SSAValue) -> SSAValue:
    if _is_f64(e):
        small = e.cmp("LT", e.un("abs", x), e.c(1.0))
        return e.sel(small, _erf_small(e, x), e.sub(e.c(1.0), _erfc_large(e, x)))
    xc = e.emit(ClampOp(e.c(-4.0), x, e.c(4.0)))
    x2 = e.mul(xc, xc)
    ratio = e.div(e.mul(xc, e.poly(x2, _ERF_F32_ALPHA)), e.poly(x2, _ERF_F32_BETA))
    return e.emit(ClampOp(e.c(-1.0), ratio, e.c(1.0)))


def _erfc(e: _Emitter, x: SSAValue) -> SSAValue:
    small = e.cmp("LT", e.un("abs", x), e.c(1.0))
    return e.sel(small, e.sub(e.c(1.0), _erf_small(e, x)), _erfc_large(e, x))


_ERFINV_F32_LT5 = (
    2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
    -0.00125372503, -0.00417768164, 0.246640727, 1.50140941,
)
_ERFINV_F32_GE5 = (
    -0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
    -0.0076224613, 0.00943887047, 1.00167406, 2.83297682,
)
_ERFINV_F64_LT625 = (
    -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
    1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
    6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693, 1.6536545626831027356,
)
_ERFINV_F64_LT16 = (
    2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
    1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
    2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
    6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
    0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
    -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
    3.0838856104922207635,
)
_ERFINV_F64_GE16 = (
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
    2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
    7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977, 4.8499064014085844221,
)


def _erf_inv(e: _Emitter, x: SSAValue) -> SSAValue:
    """Giles' approximation: `x * p(w)` with `w = -log1p(-x^2)` split in two (f32) or
    three (f64) ranges, each a polynomial in a shifted `w` or `sqrt(w)`."""
    w = e.un("negate", e.un("log_plus_one", e.mul(x, e.un("negate", x))))
    if _is_f64(e):
        branches = [
            (e.cmp("LT", w, e.c(6.25)), e.sub(w, e.c(3.125)), _ERFINV_F64_LT625),
            (e.cmp("LT", w, e.c(16.0)), e.sub(e.un("sqrt", w), e.c(3.25)), _ERFINV_F64_LT16),
            (None, e.sub(e.un("sqrt", w), e.c(5.0)), _ERFINV_F64_GE16),
        ]
    else:
        branches = [
            (e.cmp("LT", w, e.c(5.0)), e.sub(w, e.c(2.5)), _ERFINV_F32_LT5),
            (None, e.sub(e.un("sqrt", w), e.c(3.0)), _ERFINV_F32_GE5),
        ]
    p: SSAValue | None = None
    for pred, arg, coefficients in reversed(branches):
        value = e.poly(arg, coefficients)
        p = value if (p is None or pred is None) else e.sel(pred, value, p)
    assert p is not None
    result = e.mul(p, x)
    at_one = e.cmp("EQ", e.un("abs", x), e.c(1.0))
    return e.sel(at_one, e.mul(x, e.c(math.inf)), result)


# ---------------------------------------------------------------------------
# lgamma, digamma, zeta, polygamma
# ---------------------------------------------------------------------------

_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = (
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894, -176.61502916214059906584551354,
    12.507343278686904814458936853, -0.13857109526572011689554707,
    9.984369578019570859563e-6, 1.50563273514931155834e-7,
)


def _lanczos_z(e: _Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(reflect?, z) with z = -x below 1/2 (reflection) and x - 1 otherwise."""
    reflect = e.cmp("LT", x, e.c(0.5))
    z = e.sel(reflect, e.un("negate", x), e.sub(x, e.c(1.0)))
    return reflect, z


def _lanczos_log_t(e: _Emitter, z: SSAValue) -> tuple[SSAValue, SSAValue]:
    """t = z + g + 1/2 and log(t) = log(g + 1/2) + log1p(z / (g + 1/2))."""
    gh = _LANCZOS_G + 0.5
    t = e.add(e.c(gh), z)
    log_t = e.add(e.c(math.log(gh)), e.un("log_plus_one", e.div(z, e.c(gh))))
    return t, log_t


def _lgamma(e: _Emitter, x: SSAValue) -> SSAValue:
    reflect, z = _lanczos_z(e, x)
    a = e.c(_LANCZOS_BASE)
    for k, coefficient in enumerate(_LANCZOS, start=1):
        a = e.add(a, e.div(e.c(coefficient), e.add(z, e.c(float(k)))))
    t, log_t = _lanczos_log_t(e, z)
    # (z + 1/2) log t - t, as (z + 1/2 - t / log t) log t so that it does not overflow.
    r = e.mul(e.sub(e.add(z, e.c(0.5)), e.div(t, log_t)), log_t)
    lg = e.add(e.add(e.c((math.log(2) + math.log(math.pi)) / 2), r), e.un("log", a))
    # Reflection: log(pi) - lgamma(1 - x) - log|sin(pi frac|x|)|, frac folded into [0, 1/2].
    ax = e.un("abs", x)
    frac = e.sub(ax, e.un("floor", ax))
    frac = e.sel(e.cmp("LT", e.c(0.5), frac), e.sub(e.c(1.0), frac), frac)
    log_sin = e.un("log", e.un("sine", e.mul(e.c(math.pi), frac)))
    reflected = e.sub(e.sub(e.c(math.log(math.pi)), log_sin), lg)
    reflected = e.sel(e.un("is_finite", log_sin), reflected, e.un("negate", log_sin))
    lg = e.sel(reflect, reflected, lg)
    is_inf = e.cmp("EQ", ax, e.c(math.inf))
    return e.sel(is_inf, e.c(math.inf), lg)


def _digamma(e: _Emitter, x: SSAValue) -> SSAValue:
    reflect, z = _lanczos_z(e, x)
    a = e.c(_LANCZOS_BASE)
    a_prime = e.c(0.0)
    for k, coefficient in enumerate(_LANCZOS, start=1):
        zk = e.add(z, e.c(float(k)))
        a_prime = e.sub(a_prime, e.div(e.c(coefficient), e.mul(zk, zk)))
        a = e.add(a, e.div(e.c(coefficient), zk))
    t, log_t = _lanczos_log_t(e, z)
    dg = e.sub(e.add(log_t, e.div(a_prime, a)), e.div(e.c(_LANCZOS_G), t))
    # Reflection with pi cot(pi x) evaluated on x shifted into [-1/2, 1/2].
    reduced = e.add(x, e.un("abs", e.un("floor", e.add(x, e.c(0.5)))))
    pi_x = e.mul(e.c(math.pi), reduced)
    cot = e.div(e.mul(e.c(math.pi), e.un("cosine", pi_x)), e.un("sine", pi_x))
    dg = e.sel(reflect, e.sub(dg, cot), dg)
    pole = e.bin("and", e.cmp("LE", x, e.c(0.0)), e.cmp("EQ", x, e.un("floor", x)))
    return e.sel(pole, e.c(math.nan), dg)


_ZETA_TERMS = (
    -7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15,
    1.1646782814350067249e14, -2.950130727918164224e12, 7.47242496e10,
    -1.8924375803183791606e9, 47900160.0, -1209600.0, 30240.0, -720.0, 12.0,
)
_ZETA_DIRECT = 9


def _zeta(e: _Emitter, x: SSAValue, q: SSAValue) -> SSAValue:
    """Hurwitz zeta by Euler–Maclaurin: N direct terms, then the integral and
    Bernoulli tail (Johansson 2015, formula (5)), as XLA computes it."""
    one, zero = e.c(1.0), e.c(0.0)
    neg_x = e.un("negate", x)
    acc = q
    total = e.bin("power", q, neg_x)
    for _ in range(_ZETA_DIRECT):
        acc = e.add(acc, one)
        total = e.add(total, e.bin("power", acc, neg_x))
    acc = e.add(acc, one)
    a_pow = e.bin("power", acc, neg_x)
    integral = e.div(e.mul(a_pow, acc), e.sub(x, one))
    inv_a2 = e.div(one, e.mul(acc, acc))
    n = len(_ZETA_TERMS)
    horner = zero
    for i in range(n - 1):
        factor = e.mul(e.add(x, e.c(float(2 * n - 2 - 2 * i))), e.add(x, e.c(float(2 * n - 3 - 2 * i))))
        horner = e.mul(factor, e.mul(inv_a2, e.add(horner, e.c(1.0 / _ZETA_TERMS[i]))))
    tail = e.mul(
        a_pow,
        e.add(e.c(0.5), e.mul(e.div(x, acc), e.add(e.c(1.0 / _ZETA_TERMS[-1]), horner))),
    )
    accurate = e.add(e.add(total, integral), tail)
    tiny = float(np.finfo(np.float64 if _is_f64(e) else np.float32).smallest_subnormal)
    converged = e.cmp("LT", e.un("abs", a_pow), e.mul(e.un("abs", total), e.c(tiny)))
    out = e.sel(converged, total, accurate)
    nan, inf = e.c(math.nan), e.c(math.inf)
    # q = +inf: every term vanishes (the expansion above would give inf * 0).
    out = e.sel(e.bin("and", e.cmp("EQ", q, inf), e.cmp("GT", x, one)), zero, out)
    out = e.sel(e.cmp("LT", x, one), nan, out)
    q_le_zero = e.cmp("LE", q, zero)
    x_is_int = e.cmp("EQ", x, e.un("floor", x))
    out = e.sel(e.bin("and", q_le_zero, e.un("not", x_is_int)), nan, out)
    at_pole = e.bin("and", q_le_zero, e.cmp("EQ", q, e.un("floor", q)))
    x_even = e.bin("and", x_is_int, e.cmp("EQ", e.bin("remainder", x, e.c(2.0)), zero))
    out = e.sel(at_pole, e.sel(x_even, inf, nan), out)
    return e.sel(e.cmp("EQ", x, one), inf, out)


def _polygamma(e: _Emitter, n: SSAValue, x: SSAValue) -> SSAValue:
    one, zero = e.c(1.0), e.c(0.0)
    sign = e.sub(e.mul(e.c(2.0), e.bin("remainder", n, e.c(2.0))), one)
    n1 = e.add(n, one)
    factorial = e.un("exponential", _lgamma(e, n1))
    result = e.mul(e.mul(sign, factorial), _zeta(e, n1, x))
    result = e.sel(e.cmp("EQ", n, zero), _digamma(e, x), result)
    non_natural = e.bin("or", e.cmp("NE", n, e.un("floor", n)), e.cmp("LT", n, zero))
    return e.sel(non_natural, e.c(math.nan), result)


# ---------------------------------------------------------------------------
# Trigonometric and hyperbolic functions (real operands)
# ---------------------------------------------------------------------------


def _one_minus_x2(e: _Emitter, x: SSAValue) -> SSAValue:
    """1 - x^2 as (1 - x)(1 + x): exact cancellation near |x| = 1."""
    return e.mul(e.sub(e.c(1.0), x), e.add(e.c(1.0), x))


def _asin(e: _Emitter, x: SSAValue) -> SSAValue:
    denom = e.add(e.c(1.0), e.un("sqrt", _one_minus_x2(e, x)))
    return e.mul(e.c(2.0), e.bin("atan2", x, denom))


def _acos(e: _Emitter, x: SSAValue) -> SSAValue:
    half = e.bin("atan2", e.un("sqrt", _one_minus_x2(e, x)), e.add(e.c(1.0), x))
    return e.sel(e.cmp("EQ", x, e.c(-1.0)), e.c(math.pi), e.mul(e.c(2.0), half))


def _atan(e: _Emitter, x: SSAValue) -> SSAValue:
    return e.bin("atan2", x, e.c(1.0))


def _large(e: _Emitter) -> float:
    """Above sqrt(max float), x^2 overflows: use log(x) + log(2)."""
    return math.sqrt(float(np.finfo(np.float64 if _is_f64(e) else np.float32).max))


def _asinh(e: _Emitter, x: SSAValue) -> SSAValue:
    ax = e.un("abs", x)
    ax2 = e.mul(ax, ax)
    small = e.un(
        "log_plus_one",
        e.add(ax, e.div(ax2, e.add(e.c(1.0), e.un("sqrt", e.add(e.c(1.0), ax2))))),
    )
    big = e.add(e.un("log", ax), e.c(math.log(2.0)))
    magnitude = e.sel(e.cmp("GE", ax, e.c(_large(e))), big, small)
    # sign(x) * magnitude, keeping -0 and NaN.
    return e.sel(e.cmp("LT", x, e.c(0.0)), e.un("negate", magnitude), e.sel(e.cmp("EQ", x, e.c(0.0)), x, magnitude))


def _acosh(e: _Emitter, x: SSAValue) -> SSAValue:
    y = e.sub(x, e.c(1.0))
    small = e.un("log_plus_one", e.add(y, e.un("sqrt", e.mul(y, e.add(x, e.c(1.0))))))
    big = e.add(e.un("log", x), e.c(math.log(2.0)))
    result = e.sel(e.cmp("GE", x, e.c(_large(e))), big, small)
    return e.sel(e.cmp("LT", x, e.c(1.0)), e.c(math.nan), result)


def _atanh(e: _Emitter, x: SSAValue) -> SSAValue:
    # On |x|, where 2|x| / (1 - |x|) >= 0 keeps log1p well conditioned; sign restored after.
    ax = e.un("abs", x)
    ratio = e.div(e.mul(e.c(2.0), ax), e.sub(e.c(1.0), ax))
    magnitude = e.mul(e.c(0.5), e.un("log_plus_one", ratio))
    result = e.sel(e.cmp("LT", x, e.c(0.0)), e.un("negate", magnitude), e.sel(e.cmp("EQ", x, e.c(0.0)), x, magnitude))
    return e.sel(e.cmp("GT", ax, e.c(1.0)), e.c(math.nan), result)


def _exp_halves(e: _Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(e^x / 2, e^-x / 2) as e^(+-x + log 1/2), which overflow only when the result does."""
    log_half = e.c(math.log(0.5))
    return e.un("exponential", e.add(x, log_half)), e.un("exponential", e.sub(log_half, x))


def _cosh(e: _Emitter, x: SSAValue) -> SSAValue:
    up, down = _exp_halves(e, x)
    return e.add(up, down)


def _sinh(e: _Emitter, x: SSAValue) -> SSAValue:
    up, down = _exp_halves(e, x)
    large = e.sub(up, down)
    m = e.un("exponential_minus_one", x)
    small = e.mul(e.c(0.5), e.add(m, e.div(m, e.add(m, e.c(1.0)))))
    return e.sel(e.cmp("LT", e.un("abs", x), e.c(1.0)), small, large)


# ---------------------------------------------------------------------------
# next_after, mulhi
# ---------------------------------------------------------------------------


def _next_after(e: _Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    width = bit_width(e.element)
    ie = e.with_element(IntegerType(width))
    xi = ie.emit(BitcastConvertOp(x, ie.type))
    yi = ie.emit(BitcastConvertOp(y, ie.type))
    nan_in = e.bin("or", e.cmp("NE", x, x), e.cmp("NE", y, y))
    nan_bits = ie.emit(BitcastConvertOp(e.c(math.nan), ie.type))
    sign_bit = 1 << (width - 1)
    sign_mask, magnitude_mask = ie.c(sign_bit), ie.c(sign_bit - 1)
    x_abs, y_abs = ie.bin("and", xi, magnitude_mask), ie.bin("and", yi, magnitude_mask)
    zero, one = ie.c(0), ie.c(1)
    x_sign, y_sign = ie.bin("and", xi, sign_mask), ie.bin("and", yi, sign_mask)
    # Away from zero: +1 on the bit pattern; toward zero (signs differ or |x| > |y|): -1.
    toward_zero = ie.bin("or", ie.cmp("GT", x_abs, y_abs), ie.cmp("NE", x_sign, y_sign))
    stepped = ie.add(xi, ie.sel(toward_zero, ie.c(-1), one))
    from_zero = ie.sel(ie.cmp("EQ", y_abs, zero), yi, ie.bin("or", y_sign, one))
    result = ie.sel(ie.cmp("EQ", x_abs, zero), from_zero, stepped)
    result = ie.sel(e.cmp("EQ", x, y), yi, result)
    result = ie.sel(nan_in, nan_bits, result)
    return ie.emit(BitcastConvertOp(result, e.type))


def _mulhi(e: _Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    width = bit_width(e.element)
    unsigned = is_unsigned_integer(e.element)
    if width < 64:
        wide_width = max(2 * width, 8)
        wide = e.with_element(IntegerType(wide_width, Signedness.UNSIGNED if unsigned else Signedness.SIGNLESS))
        product = wide.mul(e.convert(a, wide.element), e.convert(b, wide.element))
        shift = "shift_right_logical" if unsigned else "shift_right_arithmetic"
        high = wide.bin(shift, product, wide.c(width))
        return wide.convert(high, e.element)
    # 64 bits: schoolbook product of the 32-bit halves, in ui64.
    u = e.with_element(IntegerType(64, Signedness.UNSIGNED))
    au = a if unsigned else e.emit(BitcastConvertOp(a, u.type))
    bu = b if unsigned else e.emit(BitcastConvertOp(b, u.type))
    low_mask, s32 = u.c(0xFFFFFFFF), u.c(32)
    a_lo, a_hi = u.bin("and", au, low_mask), u.bin("shift_right_logical", au, s32)
    b_lo, b_hi = u.bin("and", bu, low_mask), u.bin("shift_right_logical", bu, s32)
    lo_lo, hi_lo = u.mul(a_lo, b_lo), u.mul(a_hi, b_lo)
    lo_hi, hi_hi = u.mul(a_lo, b_hi), u.mul(a_hi, b_hi)
    cross = u.add(u.add(u.bin("shift_right_logical", lo_lo, s32), u.bin("and", hi_lo, low_mask)), lo_hi)
    high = u.add(u.add(hi_hi, u.bin("shift_right_logical", hi_lo, s32)), u.bin("shift_right_logical", cross, s32))
    if unsigned:
        return high
    zero = e.c(0)
    fix_a = u.sel(e.cmp("LT", a, zero), bu, u.c(0))
    fix_b = u.sel(e.cmp("LT", b, zero), au, u.c(0))
    high = u.sub(u.sub(high, fix_a), fix_b)
    return e.emit(BitcastConvertOp(high, e.type))


# ---------------------------------------------------------------------------
# Op patterns
# ---------------------------------------------------------------------------

_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

_UNARY_FNS: dict[str, FloatFn] = {
    "chlo.erf": _erf,
    "chlo.erfc": _erfc,
    "chlo.erf_inv": _erf_inv,
    "chlo.lgamma": _lgamma,
    "chlo.digamma": _digamma,
    "chlo.asin": _asin,
    "chlo.acos": _acos,
    "chlo.atan": _atan,
    "chlo.asinh": _asinh,
    "chlo.acosh": _acosh,
    "chlo.atanh": _atanh,
    "chlo.sinh": _sinh,
    "chlo.cosh": _cosh,
}

_BINARY_FNS: dict[str, Callable[[_Emitter, SSAValue, SSAValue], SSAValue]] = {
    "chlo.zeta": _zeta,
    "chlo.polygamma": _polygamma,
}


def _static_shape(op: Operation, t: Attribute) -> tuple[int, ...]:
    shape = shape_of(t)
    if any(is_dynamic(d) for d in shape):
        raise LoweringError(f"{op.name}: dynamic shape {format_type(t)} is not supported", op)
    return shape


def _float_emitter(op: Operation, value: SSAValue, ops: list[Operation]) -> _Emitter:
    element = element_type_of(value.type)
    if not isinstance(element, _FLOAT_TYPES):
        what = "complex numbers are" if is_complex(element) else f"element type {format_type(element)} is"
        raise LoweringError(f"{op.name}: {what} not supported (f16, bf16, f32 or f64)", op)
    return _Emitter(ops, _static_shape(op, value.type), element)


def _decompose_unary(op: chlo.ChloUnaryOp, ops: list[Operation]) -> list[SSAValue]:
    x = op.operand
    if op.name == "chlo.tan":
        return [_Emitter(ops, shape_of(x.type), element_type_of(x.type)).un("tan", x)]
    if op.name == "chlo.square":
        return [_Emitter(ops, shape_of(x.type), element_type_of(x.type)).mul(x, x)]
    e = _float_emitter(op, x, ops)
    if op.name in ("chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf"):
        target = e.un("abs", x) if op.name == "chlo.is_inf" else x
        return [e.cmp("EQ", target, e.c(-math.inf if op.name == "chlo.is_neg_inf" else math.inf))]
    return [_upcast(e, [x], _UNARY_FNS[op.name])]


def _decompose_binary(op: chlo.ChloBinaryOp, ops: list[Operation]) -> list[SSAValue]:
    if op.name == "chlo.mulhi":
        e = _Emitter(ops, _static_shape(op, op.lhs.type), element_type_of(op.lhs.type))
        return [_mulhi(e, op.lhs, op.rhs)]
    e = _float_emitter(op, op.lhs, ops)
    if op.name == "chlo.next_after":
        return [_next_after(e, op.lhs, op.rhs)]
    return [_upcast(e, [op.lhs, op.rhs], _BINARY_FNS[op.name])]


def _decompose_broadcast(op: chlo.ChloBroadcastBinaryOp, ops: list[Operation]) -> list[SSAValue]:
    out_shape = _static_shape(op, op.result.type)
    lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))

    def spread(v: SSAValue) -> SSAValue:
        if shape_of(v.type) == out_shape:
            return v
        dims = chlo.operand_broadcast_dims(len(shape_of(v.type)), len(out_shape), lhs_rank, rhs_rank, op.dims())
        new = BroadcastInDimOp(v, out_shape, dims)
        ops.append(new)
        return new.results[0]

    lhs, rhs = spread(op.lhs), spread(op.rhs)
    if isinstance(op, chlo.BroadcastCompareOp):
        compare_type = None if op.compare_type is None else ComparisonType(op.compare_type.data.value)
        new: Operation = CompareOp(ComparisonDirection(op.comparison_direction.data.value), lhs, rhs, compare_type)
    elif op.TARGET.startswith("chlo."):
        new = chlo.BINARY_OPS[op.TARGET.removeprefix("chlo.")](lhs, rhs)  # pyright: ignore[reportCallIssue]
    else:
        new = BINARY_OP_CLASSES[op.TARGET.removeprefix("xla.")](lhs, rhs)  # pyright: ignore[reportCallIssue]
    ops.append(new)
    return [new.results[0]]


def _decompose_top_k(op: chlo.TopKOp, ops: list[Operation]) -> list[SSAValue]:
    shape = _static_shape(op, op.operand.type)
    element = element_type_of(op.operand.type)
    last = len(shape) - 1
    iota = IotaOp(tensor(shape, i32), last)
    ops.append(iota)

    def comparator(a: SSAValue, b: SSAValue, _ia: SSAValue, _ib: SSAValue) -> SSAValue:
        total = ComparisonType.TOTALORDER if is_float(element) else None
        return CompareOp(ComparisonDirection.GT, a, b, total).result

    sort = SortOp([op.operand, iota.results[0]], comparator, dimension=last, is_stable=True)
    ops.append(sort)
    k = op.k.value.data
    limit = [*shape[:-1], k]
    values = SliceOp(sort.results[0], [0] * len(shape), limit)
    indices = SliceOp(sort.results[1], [0] * len(shape), limit)
    ops += [values, indices]
    return [values.results[0], indices.results[0]]


def _scalar(ops: list[Operation], value: int, element: Attribute = i64) -> SSAValue:
    c = ConstantOp.from_list([value], tensor((), element))  # pyright: ignore[reportArgumentType]
    ops.append(c)
    return c.results[0]


def _decompose_scan(op: chlo.ScanOp, ops: list[Operation]) -> list[SSAValue]:
    dim = op.dim
    length = op.scan_length()
    if length is None:
        raise LoweringError(f"{op.name}: the scanned dimension must have a static size", op)
    n_in, n_carry, n_out = len(op.inputs), len(op.inits), len(op.outputs)
    for t in (*op.inputs.types, *op.outputs.types):
        _static_shape(op, t)
    zeros: list[SSAValue] = []
    for t in op.outputs.types:
        element = element_type_of(t)
        if is_complex(element):
            raise LoweringError(f"{op.name}: complex outputs are not supported", op)
        zero = ConstantOp.from_list([0.0 if is_float(element) else 0], t)  # pyright: ignore[reportArgumentType]
        ops.append(zero)
        zeros.append(zero.results[0])
    start = _scalar(ops, 0)
    carried = [start, *op.inits, *zeros]
    types = [v.type for v in carried]

    cond_block = Block(arg_types=types)
    limit = ConstantOp.from_list([length], tensor((), i64))
    less = CompareOp(ComparisonDirection.LT, cond_block.args[0], limit.results[0])
    cond_block.add_ops([limit, less, ReturnOp([less.result])])

    body_block = Block(arg_types=types)
    body_ops: list[Operation] = []
    index = body_block.args[0]
    if op.reverse:
        position_op = BINARY_OP_CLASSES["subtract"](_scalar(body_ops, length - 1), index)  # pyright: ignore[reportCallIssue]
        body_ops.append(position_op)
        position = position_op.results[0]
    else:
        position = index
    zero_index = _scalar(body_ops, 0)
    mapping: dict[SSAValue, SSAValue] = {}
    scan_block = op.body.blocks.first
    assert scan_block is not None
    for value, arg in zip(op.inputs, scan_block.args[:n_in]):
        shape = shape_of(value.type)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        sizes = [1 if d == dim else s for d, s in enumerate(shape)]
        piece = DynamicSliceOp(value, starts, sizes)
        flat = ReshapeOp(piece.results[0], shape_of(arg.type))
        body_ops += [piece, flat]
        mapping[arg] = flat.results[0]
    for arg, carry in zip(scan_block.args[n_in:], body_block.args[1 : 1 + n_carry]):
        mapping[arg] = carry
    terminator = scan_block.last_op
    assert terminator is not None
    for inner in scan_block.ops:
        if inner is terminator:
            break
        clone = inner.clone(value_mapper=mapping)
        body_ops.append(clone)
        for old, new in zip(inner.results, clone.results):
            mapping[old] = new
    returned = [mapping.get(v, v) for v in terminator.operands]
    new_outputs: list[SSAValue] = []
    for current, piece in zip(body_block.args[1 + n_carry :], returned[:n_out]):
        shape = shape_of(current.type)
        sizes = [1 if d == dim else s for d, s in enumerate(shape)]
        expanded = ReshapeOp(piece, sizes)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        update = DynamicUpdateSliceOp(current, expanded.results[0], starts)
        body_ops += [expanded, update]
        new_outputs.append(update.results[0])
    step = BINARY_OP_CLASSES["add"](index, _scalar(body_ops, 1))  # pyright: ignore[reportCallIssue]
    body_ops.append(step)
    body_ops.append(ReturnOp([step.results[0], *returned[n_out:], *new_outputs]))
    body_block.add_ops(body_ops)

    loop = WhileOp(carried, Region(cond_block), Region(body_block))
    ops.append(loop)
    results = list(loop.results)
    return [*results[1 + n_carry :], *results[1 : 1 + n_carry]]


def _precisions(op: chlo.RaggedDotOp) -> list[Precision] | None:
    if op.precision_config is None or not op.precision_config.data:
        return None
    return [Precision(p.data.value) for p in op.precision_config.data]  # pyright: ignore[reportAttributeAccessIssue]


def _decompose_ragged_dot(op: chlo.RaggedDotOp, ops: list[Operation]) -> list[SSAValue]:
    dn = op.ragged_dot_dimension_numbers
    lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
    lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
    mode = chlo.ragged_dot_mode(dn)
    precision = _precisions(op)
    result_element = element_type_of(op.result.type)

    def emit(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    if mode == "batch":
        return [emit(DotGeneralOp(op.lhs, op.rhs, lc, rc, lb, rb, precision, result_element_type=result_element))]

    lhs_shape = _static_shape(op, op.lhs.type)
    gs_shape = _static_shape(op, op.group_sizes.type)
    ragged = dn.ints("lhs_ragged_dimensions")[0]
    g = gs_shape[-1]
    rank = len(lhs_shape)
    if len(gs_shape) == 1:
        prefix: list[int] = []
    elif mode == "non_contracting":
        prefix = [*lb, *[d for d in range(ragged) if d not in lb and d not in lc]]
    else:
        prefix = [*lb, *lc[: lc.index(ragged)]]
    # Group ends: ends[..., j] = sum_{i <= j} sizes[..., i] (in i64), starts = ends - sizes.
    sizes = op.group_sizes
    if element_type_of(sizes.type) != i64:
        sizes = emit(ConvertOp(sizes, tensor(gs_shape, i64)))
    p = len(gs_shape) - 1
    square = (*gs_shape, g)
    spread = emit(BroadcastInDimOp(sizes, square, [*range(p), p + 1]))
    row = emit(IotaOp(tensor(square, i64), p))
    col = emit(IotaOp(tensor(square, i64), p + 1))
    lower = emit(CompareOp(ComparisonDirection.LE, col, row))
    zeros_sq = emit(ConstantOp.from_list([0], tensor(square, i64)))
    masked = emit(SelectOp(lower, spread, zeros_sq))
    zero_i64 = _scalar(ops, 0)
    ends = emit(ReduceOp([masked], [zero_i64], [p + 1], lambda a, b: BINARY_OP_CLASSES["add"](a, b).results[0]))  # pyright: ignore[reportCallIssue]
    starts = emit(BINARY_OP_CLASSES["subtract"](ends, sizes))  # pyright: ignore[reportCallIssue]
    # The one-hot lhs: lhs[..., g] kept where the ragged index lies in group g.
    expanded = (*lhs_shape, g)
    gs_dims = [*prefix, rank]
    pos = emit(IotaOp(tensor(expanded, i64), ragged))
    in_group = emit(
        BINARY_OP_CLASSES["and"](  # pyright: ignore[reportCallIssue]
            emit(CompareOp(ComparisonDirection.GE, pos, emit(BroadcastInDimOp(starts, expanded, gs_dims)))),
            emit(CompareOp(ComparisonDirection.LT, pos, emit(BroadcastInDimOp(ends, expanded, gs_dims)))),
        )
    )
    lhs_element = element_type_of(op.lhs.type)
    lhs_g = emit(BroadcastInDimOp(op.lhs, expanded, list(range(rank))))
    zero_lhs = emit(ConstantOp.from_list([0.0 if is_float(lhs_element) else 0], tensor(expanded, lhs_element)))  # pyright: ignore[reportArgumentType]
    lhs_masked = emit(SelectOp(in_group, lhs_g, zero_lhs))
    if mode == "non_contracting":
        group_dim = dn.ints("rhs_group_dimensions")[0]
        return [
            emit(
                DotGeneralOp(
                    lhs_masked, op.rhs, [*lc, rank], [*rc, group_dim], lb, rb, precision,
                    result_element_type=result_element,
                )
            )
        ]
    dot = emit(DotGeneralOp(lhs_masked, op.rhs, lc, rc, lb, rb, precision, result_element_type=result_element))
    n_batch = len(lb)
    n_free = rank - len(lb) - len(lc)
    out_rank = len(shape_of(dot.type))
    g_at = n_batch + n_free
    perm = [g_at, *[d for d in range(out_rank) if d != g_at]]
    return [emit(TransposeOp(dot, perm))]


@dataclass(frozen=True)
class _Strategy:
    kind: type[Operation]
    fn: Callable[..., list[SSAValue]]


_STRATEGIES: tuple[_Strategy, ...] = (
    _Strategy(chlo.ChloUnaryOp, _decompose_unary),
    _Strategy(chlo.ChloBinaryOp, _decompose_binary),
    _Strategy(chlo.ChloBroadcastBinaryOp, _decompose_broadcast),
    _Strategy(chlo.TopKOp, _decompose_top_k),
    _Strategy(chlo.ScanOp, _decompose_scan),
    _Strategy(chlo.RaggedDotOp, _decompose_ragged_dot),
)


_LEFT_TO_LOWERING = frozenset({"chlo.erf", "chlo.erfc"})
_LEFT_TO_LOWERING_TYPES = (Float16Type, BFloat16Type, Float32Type)
"""The chlo ops (on these element types) this pass leaves alone: `convert-xla-to-linalg`
expands them itself (`lowering/math_approximation/chlo_erf.py`, which keeps the same list)."""


class DecomposeChlo(RewritePattern):
    """Replaces one `chlo` op by its `xla` expansion (see the module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, chlo.ChloOp):
            return
        if op.name in _LEFT_TO_LOWERING and isinstance(element_type_of(op.results[0].type), _LEFT_TO_LOWERING_TYPES):
            return  # convert-xla-to-linalg lowers them (lowering/math_approximation/chlo_erf.py)
        for strategy in _STRATEGIES:
            if isinstance(op, strategy.kind):
                new_ops: list[Operation] = []
                values = strategy.fn(op, new_ops)
                rewriter.replace(op, new_ops, values)
                return
        raise LoweringError(f"{op.name}: no decomposition", op)


@dataclass(frozen=True)
class DecomposeChloPass(ModulePass):
    """Rewrites every `chlo` op into `xla` ops."""

    name = "xla-decompose-chlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DecomposeChlo(), apply_recursively=True).rewrite_module(op)


__all__ = ["DecomposeChlo", "DecomposeChloPass"]


