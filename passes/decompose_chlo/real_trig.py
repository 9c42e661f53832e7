"""Inverse trigonometric and hyperbolic functions, sinh and cosh, on real operands."""

from __future__ import annotations

import math

from xdsl.ir import SSAValue

from passes.decompose_chlo.emitter import Emitter, FloatFn, sqrt_float_max


def _one_minus_x2(e: Emitter, x: SSAValue) -> SSAValue:
    """1 - x^2 as (1 - x)(1 + x): exact cancellation near |x| = 1."""
    return e.mul(e.sub(e.c(1.0), x), e.add(e.c(1.0), x))


def real_asin(e: Emitter, x: SSAValue) -> SSAValue:
    denom = e.add(e.c(1.0), e.un("sqrt", _one_minus_x2(e, x)))
    return e.mul(e.c(2.0), e.bin("atan2", x, denom))


def real_acos(e: Emitter, x: SSAValue) -> SSAValue:
    half = e.bin("atan2", e.un("sqrt", _one_minus_x2(e, x)), e.add(e.c(1.0), x))
    return e.sel(e.cmp("EQ", x, e.c(-1.0)), e.c(math.pi), e.mul(e.c(2.0), half))


def _atan(e: Emitter, x: SSAValue) -> SSAValue:
    return e.bin("atan2", x, e.c(1.0))


def _asinh(e: Emitter, x: SSAValue) -> SSAValue:
    ax = e.un("abs", x)
    ax2 = e.mul(ax, ax)
    small = e.un(
        "log_plus_one",
        e.add(ax, e.div(ax2, e.add(e.c(1.0), e.un("sqrt", e.add(e.c(1.0), ax2))))),
    )
    big = e.add(e.un("log", ax), e.c(math.log(2.0)))
    magnitude = e.sel(e.cmp("GE", ax, e.c(sqrt_float_max(e))), big, small)
    # sign(x) * magnitude, keeping -0 and NaN.
    return e.sel(e.cmp("LT", x, e.c(0.0)), e.un("negate", magnitude), e.sel(e.cmp("EQ", x, e.c(0.0)), x, magnitude))


def _acosh(e: Emitter, x: SSAValue) -> SSAValue:
    y = e.sub(x, e.c(1.0))
    small = e.un("log_plus_one", e.add(y, e.un("sqrt", e.mul(y, e.add(x, e.c(1.0))))))
    big = e.add(e.un("log", x), e.c(math.log(2.0)))
    result = e.sel(e.cmp("GE", x, e.c(sqrt_float_max(e))), big, small)
    return e.sel(e.cmp("LT", x, e.c(1.0)), e.c(math.nan), result)


def _atanh(e: Emitter, x: SSAValue) -> SSAValue:
    # On |x|, where 2|x| / (1 - |x|) >= 0 keeps log1p well conditioned; sign restored after.
    ax = e.un("abs", x)
    ratio = e.div(e.mul(e.c(2.0), ax), e.sub(e.c(1.0), ax))
    magnitude = e.mul(e.c(0.5), e.un("log_plus_one", ratio))
    result = e.sel(e.cmp("LT", x, e.c(0.0)), e.un("negate", magnitude), e.sel(e.cmp("EQ", x, e.c(0.0)), x, magnitude))
    return e.sel(e.cmp("GT", ax, e.c(1.0)), e.c(math.nan), result)


def _exp_halves(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(e^x / 2, e^-x / 2) as e^(+-x + log 1/2), which overflow only when the result does."""
    log_half = e.c(math.log(0.5))
    return e.un("exponential", e.add(x, log_half)), e.un("exponential", e.sub(log_half, x))


def _cosh(e: Emitter, x: SSAValue) -> SSAValue:
    up, down = _exp_halves(e, x)
    return e.add(up, down)


def _sinh(e: Emitter, x: SSAValue) -> SSAValue:
    up, down = _exp_halves(e, x)
    large = e.sub(up, down)
    m = e.un("exponential_minus_one", x)
    small = e.mul(e.c(0.5), e.add(m, e.div(m, e.add(m, e.c(1.0)))))
    return e.sel(e.cmp("LT", e.un("abs", x), e.c(1.0)), small, large)


UNARY: dict[str, FloatFn] = {
    "chlo.asin": real_asin,
    "chlo.acos": real_acos,
    "chlo.atan": _atan,
    "chlo.asinh": _asinh,
    "chlo.acosh": _acosh,
    "chlo.atanh": _atanh,
    "chlo.sinh": _sinh,
    "chlo.cosh": _cosh,
}
