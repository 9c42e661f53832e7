"""asin, acos, atan, asinh, acosh and atanh on complex operands, accurate over the
whole complex plane.

Everything is computed on the two components in f64 (`complex<f32>` is widened,
so its squares neither overflow nor underflow, and rounded once at the end):

* **asin / acos** follow Hull, Fairgrieve and Tang (ACM TOMS 23(3), 1997) on
  `x = |Re z|`, `y = |Im z|`: with `r = |z + 1|`, `s = |z - 1|`, `A = (r + s)/2`
  and `B = x / A`, the real parts are `asin(B)` / `acos(B)` while `B <= 0.6417`
  and otherwise `atan2(x, d)` / `atan2(d, x)` with `d^2 = (A + x)/2 (y^2/(r + x + 1)
  + E)` (`E = s + (1 - x)` below 1, `y^2/(s + (x - 1))` from 1 on), free of the
  cancellation in `1 - B`. The imaginary part is `log1p(A - 1 + sqrt((A - 1)(A + 1)))`
  while `A <= 1.5`, with `A - 1` formed from the same cancellation-free terms
  (below 1 as `y * sqrt(...)`, so that it does not underflow for tiny y), and
  `log(A + sqrt(A^2 - 1))` above. Beyond `sqrt(max)/8` the asymptotic forms
  `atan2(x, y)` and `log 2 + log|z|` hold to the last bit.
* **atanh**: `Re = log1p(4x / ((1 - x)^2 + y^2)) / 4`, or `(log|1 + z| - log|1 - z|)/2`
  when `|1 - z| < 1/2` (there the log1p argument loses its last bits to the squares);
  `Im = atan2(2y, (1 - x)(1 + x) - y^2) / 2`; beyond `sqrt(max)/8`, `Re = x/|z|^2`
  (scaled) and `Im = pi/2`.
* **asinh, acosh, atan** by the C99 identities `asinh(z) = i asin(-iz)`,
  `acosh(z) = +-i acos(z)` (the sign that makes `Re >= 0`), `atan(z) = -i atanh(iz)`.
* **Signs** from the symmetries (asin, atanh odd; all conjugate-symmetric;
  `acos(-z) = pi - acos(z)`), applied with copysign, so signed zeros pick the side of
  a branch cut as C99 Annex G does; infinities and NaNs follow Annex G's tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import Float64Type, IntegerType, f64
from xdsl.ir import Attribute, SSAValue

from passes.decompose_chlo.emitter import Emitter, sqrt_float_max
from passes.decompose_chlo.real_trig import real_acos, real_asin
from xla_dialect.ops.elementwise import BitcastConvertOp
from xla_dialect.types import element_type_of

Parts = tuple[SSAValue, SSAValue]
"""(real, imaginary) components, in the working type."""

_B_CROSS = 0.6417
_A_CROSS = 1.5


def _signbit(e: Emitter, x: SSAValue) -> SSAValue:
    ie = e.with_element(IntegerType(64))
    return ie.cmp("LT", ie.emit(BitcastConvertOp(x, ie.type)), ie.c(0))


def _copysign(e: Emitter, magnitude: SSAValue, sign: SSAValue) -> SSAValue:
    """|magnitude| with the sign bit of `sign` (NaN magnitudes stay NaN)."""
    m = e.un("abs", magnitude)
    return e.sel(_signbit(e, sign), e.un("negate", m), m)


def _is_nan(e: Emitter, x: SSAValue) -> SSAValue:
    return e.cmp("NE", x, x)


def _is_inf(e: Emitter, x: SSAValue) -> SSAValue:
    return e.cmp("EQ", e.un("abs", x), e.c(math.inf))


def _hypot(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """|a + ib| for a, b >= 0 without overflow or underflow in the squares: `sqrt(a^2 +
    b^2)` where both squares are safe, `mx sqrt(1 + (mn/mx)^2)` elsewhere."""
    mx, mn = e.bin("maximum", a, b), e.bin("minimum", a, b)
    direct = e.un("sqrt", e.add(e.mul(a, a), e.mul(b, b)))
    ratio = e.div(mn, mx)
    scaled = e.mul(mx, e.un("sqrt", e.add(e.c(1.0), e.mul(ratio, ratio))))
    scaled = e.sel(e.cmp("EQ", mx, e.c(0.0)), mx, scaled)
    scaled = e.sel(e.cmp("EQ", mx, e.c(math.inf)), mx, scaled)
    safe = e.bin("and", e.cmp("GT", mn, e.c(2.0**-480)), e.cmp("LT", mx, e.c(2.0**480)))
    return e.sel(safe, direct, scaled)


def _log_abs(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    """log|x + iy| for x, y >= 0 and |z| far above 1, as `log mx + log1p((mn/mx)^2)/2`."""
    mx, mn = e.bin("maximum", x, y), e.bin("minimum", x, y)
    ratio = e.div(mn, mx)
    value = e.add(e.un("log", mx), e.mul(e.c(0.5), e.un("log_plus_one", e.mul(ratio, ratio))))
    return e.sel(e.cmp("EQ", mx, e.c(math.inf)), mx, value)


def _asin_acos_quadrant(e: Emitter, x: SSAValue, y: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(Re asin, Re acos, |Im|) of x + iy for x, y >= 0 (Hull, Fairgrieve and Tang)."""
    one, half = e.c(1.0), e.c(0.5)
    xp1 = e.add(x, one)
    r = _hypot(e, xp1, y)
    below = e.cmp("LT", x, one)
    one_minus_x, x_minus_one = e.sub(one, x), e.sub(x, one)
    s = _hypot(e, e.un("abs", x_minus_one), y)
    a = e.mul(half, e.add(r, s))
    b = e.div(x, a)
    rx1 = e.add(r, xp1)
    y2_r = e.mul(y, e.div(y, rx1))  # y^2 / (r + x + 1)
    s_1mx = e.add(s, one_minus_x)  # x < 1: s + (1 - x) > 0
    s_xm1 = e.add(s, x_minus_one)  # x >= 1: s + (x - 1) >= y
    y2_s = e.mul(y, e.div(y, s_xm1))  # x >= 1: y^2 / (s + (x - 1))
    # d^2 = (A + x)/2 (y^2/(r + x + 1) + E): Re asin = atan2(x, d), Re acos = atan2(d, x).
    d = e.un("sqrt", e.mul(e.mul(half, e.add(a, x)), e.add(y2_r, e.sel(below, s_1mx, y2_s))))
    b_small = e.bin("or", e.cmp("LE", b, e.c(_B_CROSS)), e.cmp("EQ", y, e.c(0.0)))
    b_clamped = e.bin("minimum", b, one)
    re_asin = e.sel(b_small, real_asin(e, b_clamped), e.bin("atan2", x, d))
    re_acos = e.sel(b_small, real_acos(e, b_clamped), e.bin("atan2", d, x))
    # A - 1 without cancellation; sqrt((A - 1)(A + 1)) as y sqrt(...) below 1 (no underflow).
    am1_below = e.mul(half, e.add(y2_r, e.mul(y, e.div(y, s_1mx))))
    twice_am1_above = e.add(y2_r, s_xm1)
    am1 = e.sel(below, am1_below, e.mul(half, twice_am1_above))
    ap1 = e.add(a, one)
    inv_sum = e.add(e.div(one, rx1), e.div(one, s_1mx))
    root_below = e.mul(y, e.un("sqrt", e.mul(e.mul(half, ap1), inv_sum)))
    # 2(A - 1) (A + 1)/2: halving A - 1 first would lose its last bit when it is subnormal.
    root_above = e.un("sqrt", e.mul(twice_am1_above, e.mul(half, ap1)))
    root = e.sel(below, root_below, root_above)
    im_near = e.un("log_plus_one", e.add(am1, root))
    im_far = e.un("log", e.add(a, e.un("sqrt", e.mul(e.sub(a, one), ap1))))
    im = e.sel(e.cmp("LE", a, e.c(_A_CROSS)), im_near, im_far)
    # y below eps |x - 1|: the y^2 terms vanish (and would underflow), Hull et al.'s
    # forms: x < 1: asin x + i y / sqrt(1 - x^2); x > 1: acos part y / sqrt(x^2 - 1)
    # and acosh x, computed as log1p((x - 1) + sqrt((x - 1)(x + 1))).
    eps = float(np.finfo(np.float64).eps)
    negligible = e.cmp("LT", y, e.mul(e.c(eps), e.un("abs", x_minus_one)))
    root_1mx2 = e.un("sqrt", e.mul(one_minus_x, xp1))
    root_x2m1 = e.un("sqrt", e.mul(x_minus_one, xp1))
    x_clamped = e.bin("minimum", x, one)
    re_asin = e.sel(negligible, e.sel(below, real_asin(e, x_clamped), e.bin("atan2", root_x2m1, y)), re_asin)
    re_acos = e.sel(negligible, e.sel(below, real_acos(e, x_clamped), e.div(y, root_x2m1)), re_acos)
    acosh_x = e.un("log_plus_one", e.add(x_minus_one, root_x2m1))
    im = e.sel(negligible, e.sel(below, e.div(y, root_1mx2), acosh_x), im)
    # Beyond sqrt(max)/8: asin z = atan2(x, y) + i (log 2 + log|z|).
    huge = e.cmp("GE", e.bin("maximum", x, y), e.c(sqrt_float_max(e) / 8))
    re_asin = e.sel(huge, e.bin("atan2", x, y), re_asin)
    re_acos = e.sel(huge, e.bin("atan2", y, x), re_acos)
    im = e.sel(huge, e.add(e.c(math.log(2.0)), _log_abs(e, x, y)), im)
    # NaN in: Annex G (casin(0 + i NaN) = 0 + i NaN, cacos(0 + i NaN) = pi/2 + i NaN,
    # |Im| = inf when the other part is infinite, NaN otherwise).
    nan_in = e.bin("or", _is_nan(e, x), _is_nan(e, y))
    nan, inf = e.c(math.nan), e.c(math.inf)
    x_zero = e.cmp("EQ", x, e.c(0.0))
    re_asin = e.sel(nan_in, e.sel(x_zero, x, nan), re_asin)
    re_acos = e.sel(nan_in, e.sel(x_zero, e.c(math.pi / 2), nan), re_acos)
    im = e.sel(nan_in, e.sel(e.bin("or", _is_inf(e, x), _is_inf(e, y)), inf, nan), im)
    return re_asin, re_acos, im


def complex_asin(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    ax, ay = e.un("abs", re), e.un("abs", im)
    re_asin, _, mag = _asin_acos_quadrant(e, ax, ay)
    return _copysign(e, re_asin, re), _copysign(e, mag, im)


def complex_acos(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    ax, ay = e.un("abs", re), e.un("abs", im)
    _, re_acos, mag = _asin_acos_quadrant(e, ax, ay)
    real = e.sel(_signbit(e, re), e.sub(e.c(math.pi), re_acos), re_acos)
    return real, _copysign(e, mag, e.un("negate", im))


def complex_asinh(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    """asinh(z) = i asin(-iz), -i(x + iy) = y - ix."""
    a, b = complex_asin(e, im, e.un("negate", re))
    return e.un("negate", b), a


def complex_acosh(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    """acosh(z) = +-i acos(z), the sign giving Re >= 0: (|Im acos|, copysign(Re acos, y))."""
    a, b = complex_acos(e, re, im)
    return e.un("abs", b), _copysign(e, a, im)


def complex_atanh(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    x, y = e.un("abs", re), e.un("abs", im)
    one, quarter = e.c(1.0), e.c(0.25)
    one_minus_x = e.sub(one, x)
    y2 = e.mul(y, y)
    denominator = e.add(e.mul(one_minus_x, one_minus_x), y2)
    near = e.mul(quarter, e.un("log_plus_one", e.div(e.mul(e.c(4.0), x), denominator)))
    dist = _hypot(e, e.un("abs", one_minus_x), y)
    far = e.mul(e.c(0.5), e.sub(e.un("log", _hypot(e, e.add(one, x), y)), e.un("log", dist)))
    real = e.sel(e.cmp("LT", dist, e.c(0.5)), far, near)
    imag = e.mul(e.c(0.5), e.bin("atan2", e.mul(e.c(2.0), y), e.sub(e.mul(one_minus_x, e.add(one, x)), y2)))
    # Beyond sqrt(max)/8: Re = x / |z|^2 = ((x/mx) / (1 + (mn/mx)^2)) / mx, Im = pi/2.
    mx, mn = e.bin("maximum", x, y), e.bin("minimum", x, y)
    ratio = e.div(mn, mx)
    ratio = e.sel(e.cmp("EQ", mx, e.c(math.inf)), e.sel(e.cmp("EQ", mn, e.c(math.inf)), one, e.c(0.0)), ratio)
    inv_abs2 = e.div(e.div(e.div(x, mx), e.add(one, e.mul(ratio, ratio))), mx)
    huge = e.cmp("GE", mx, e.c(sqrt_float_max(e) / 8))
    inv_abs2 = e.sel(e.cmp("EQ", mx, e.c(math.inf)), e.c(0.0), inv_abs2)
    real = e.sel(huge, inv_abs2, real)
    half_pi = e.c(math.pi / 2)
    imag = e.sel(huge, half_pi, imag)
    # NaN in (Annex G): Re = 0 when x = 0 or either part is infinite, Im = pi/2 when y = inf.
    nan_in = e.bin("or", _is_nan(e, x), _is_nan(e, y))
    nan, zero = e.c(math.nan), e.c(0.0)
    zero_re = e.bin("or", e.cmp("EQ", x, zero), e.bin("or", _is_inf(e, x), _is_inf(e, y)))
    real = e.sel(nan_in, e.sel(zero_re, zero, nan), real)
    imag = e.sel(nan_in, e.sel(_is_inf(e, y), half_pi, nan), imag)
    return _copysign(e, real, re), _copysign(e, imag, im)


def complex_atan(e: Emitter, re: SSAValue, im: SSAValue) -> Parts:
    """atan(z) = -i atanh(iz), i(x + iy) = -y + ix."""
    a, b = complex_atanh(e, e.un("negate", im), re)
    return b, e.un("negate", a)


COMPLEX_UNARY: dict[str, Callable[[Emitter, SSAValue, SSAValue], Parts]] = {
    "chlo.asin": complex_asin,
    "chlo.acos": complex_acos,
    "chlo.atan": complex_atan,
    "chlo.asinh": complex_asinh,
    "chlo.acosh": complex_acosh,
    "chlo.atanh": complex_atanh,
}


def decompose_complex(name: str, e: Emitter, z: SSAValue, component: Attribute) -> SSAValue:
    """`name` on the complex tensor `z` (components of type `component`), computed in f64."""
    part = e.with_element(component)
    re, im = part.un("real", z), part.un("imag", z)
    wide = e.with_element(f64)
    if not isinstance(component, Float64Type):
        re, im = part.convert(re, f64), part.convert(im, f64)
    out_re, out_im = COMPLEX_UNARY[name](wide, re, im)
    if not isinstance(component, Float64Type):
        out_re, out_im = wide.convert(out_re, component), wide.convert(out_im, component)
    result = part.bin("complex", out_re, out_im)
    assert element_type_of(result.type) == element_type_of(z.type)
    return result
