"""erf, erfc, erf_inv, lgamma, digamma, zeta and polygamma on real operands, as
XLA's client library computes them (see the package docstring for the methods)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.ir import SSAValue

from passes.decompose_chlo.emitter import Emitter, FloatFn, is_f64
from xla_dialect.ops.elementwise import ClampOp

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


def _erf_small(e: Emitter, x: SSAValue) -> SSAValue:
    """erf for |x| < 1 (Cephes)."""
    x2 = e.mul(x, x)
    if is_f64(e):
        return e.div(e.mul(x, e.poly(x2, _ERF_F64_T)), e.poly(x2, _ERF_F64_U))
    return e.mul(x, e.poly(x2, _ERF_F32_T))


def _square_error(e: Emitter, ax: SSAValue) -> SSAValue:
    """x^2 - fl(x^2) exactly, by Dekker's split of x (no fma among the `xla` ops), for
    0 <= x <= 30: exp(-x^2) = exp(-fl(x^2)) (1 - that), where the rounding of x^2 alone
    would cost up to 2 x^2 half-ulps (60 ulp of f64 erfc at x = 12)."""
    a = e.bin("minimum", ax, e.c(30.0))
    c = e.mul(e.c(134217729.0), a)  # 2^27 + 1
    hi = e.sub(c, e.sub(c, a))
    lo = e.sub(a, hi)
    h = e.mul(a, a)
    return e.add(e.add(e.sub(e.mul(hi, hi), h), e.mul(e.c(2.0), e.mul(hi, lo))), e.mul(lo, lo))


def _erfc_large(e: Emitter, x: SSAValue) -> SSAValue:
    """erfc for |x| >= 1 (Cephes), using erfc(x) = 2 - erfc(-x) for x < 0."""
    z = e.un("negate", e.mul(x, x))
    ax = e.un("abs", x)
    exp_z = e.un("exponential", z)
    if is_f64(e):
        exp_z = e.mul(exp_z, e.sub(e.c(1.0), _square_error(e, ax)))
        mid = e.div(e.mul(exp_z, e.poly(ax, _ERFC_F64_P)), e.poly(ax, _ERFC_F64_Q))
        far = e.div(e.mul(exp_z, e.poly(ax, _ERFC_F64_R)), e.poly(ax, _ERFC_F64_S))
        approx = e.sel(e.cmp("LT", ax, e.c(8.0)), mid, far)
        # Not XLA's -maxlog: erfc is a subnormal until x = 27.2 (exp(-x^2) underflows
        # gradually; one rounding there); beyond, x^2 may overflow and P(x) with it.
        maxlog = 750.0
    else:
        r = e.div(e.c(1.0), e.mul(x, x))
        poly = e.sel(e.cmp("LT", ax, e.c(2.0)), e.poly(r, _ERFC_F32_P), e.poly(r, _ERFC_F32_R))
        approx = e.mul(e.mul(exp_z, e.div(e.c(1.0), ax)), poly)
        maxlog = _MAXLOG_F32
    zero = e.c(0.0)
    approx = e.sel(e.cmp("LT", z, e.c(-maxlog)), zero, approx)
    return e.sel(e.cmp("LT", x, zero), e.sub(e.c(2.0), approx), approx)


def _erf(e: Emitter, x: SSAValue) -> SSAValue:
    if is_f64(e):
        small = e.cmp("LT", e.un("abs", x), e.c(1.0))
        return e.sel(small, _erf_small(e, x), e.sub(e.c(1.0), _erfc_large(e, x)))
    xc = e.emit(ClampOp(e.c(-4.0), x, e.c(4.0)))
    x2 = e.mul(xc, xc)
    ratio = e.div(e.mul(xc, e.poly(x2, _ERF_F32_ALPHA)), e.poly(x2, _ERF_F32_BETA))
    return e.emit(ClampOp(e.c(-1.0), ratio, e.c(1.0)))


def _erfc(e: Emitter, x: SSAValue) -> SSAValue:
    small = e.cmp("LT", e.un("abs", x), e.c(1.0))
    return e.sel(small, e.sub(e.c(1.0), _erf_small(e, x)), _erfc_large(e, x))


_ERFINV_F32_LT5 = (
    3.3554606315711055e-10,
    -8.772807369439306e-09,
    1.8037125570913304e-08,
    4.658918726363481e-07,
    -3.4346114716754528e-06,
    -4.9619106903264765e-06,
    0.00021828262833878398,
    -0.0012527446961030364,
    -0.0041773393750190735,
    0.24664029479026794,
    1.5014094114303589,
)
"""erf_inv(x) / x in w - 5/2 for w < 5, highest degree first (fit.py `erfinv_near`,
Giles' form refitted: 0.8 units of 2^-24 before rounding)."""
_ERFINV_F32_GE5 = (
    0.0001289648498641327,
    -0.0003187243710272014,
    -7.66201555961743e-05,
    0.0014958580723032355,
    -0.0035869874991476536,
    0.005683172028511763,
    -0.007639409974217415,
    0.009445684030652046,
    1.0016751289367676,
    2.832976818084717,
)
"""erf_inv(x) / x in sqrt(w) - 3 for 5 <= w <= 16 (fit.py `erfinv_far`, 0.4 units)."""
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


def _erf_inv(e: Emitter, x: SSAValue) -> SSAValue:
    """Giles' approximation: `x * p(w)` with `w = -log(1 - x^2)` split in two (f32) or
    three (f64) ranges, each a polynomial in a shifted `w` or `sqrt(w)`. `1 - x^2` is
    formed as `(1 - |x|)(1 + |x|)` (exact cancellation near |x| = 1, where XLA's
    `log1p(-x^2)` loses the bits of `x^2`: 64 ulp in f32); near 0, where `log` of a
    value close to 1 has only an absolute accuracy, `p` is flat enough in `w` that
    this costs nothing."""
    ax = e.un("abs", x)
    w = e.un("negate", e.un("log", e.mul(e.sub(e.c(1.0), ax), e.add(e.c(1.0), ax))))
    if is_f64(e):
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
    at_one = e.cmp("EQ", ax, e.c(1.0))
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


def _lanczos_z(e: Emitter, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """(reflect?, z) with z = -x below 1/2 (reflection) and x - 1 otherwise."""
    reflect = e.cmp("LT", x, e.c(0.5))
    z = e.sel(reflect, e.un("negate", x), e.sub(x, e.c(1.0)))
    return reflect, z


def _lanczos_log_t(e: Emitter, z: SSAValue) -> tuple[SSAValue, SSAValue]:
    """t = z + g + 1/2 and log(t) = log(g + 1/2) + log1p(z / (g + 1/2))."""
    gh = _LANCZOS_G + 0.5
    t = e.add(e.c(gh), z)
    log_t = e.add(e.c(math.log(gh)), e.un("log_plus_one", e.div(z, e.c(gh))))
    return t, log_t


def _lgamma(e: Emitter, x: SSAValue) -> SSAValue:
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


def _digamma(e: Emitter, x: SSAValue) -> SSAValue:
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


def _zeta(e: Emitter, x: SSAValue, q: SSAValue) -> SSAValue:
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
    tiny = float(np.finfo(np.float64 if is_f64(e) else np.float32).smallest_subnormal)
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


def _polygamma(e: Emitter, n: SSAValue, x: SSAValue) -> SSAValue:
    one, zero = e.c(1.0), e.c(0.0)
    sign = e.sub(e.mul(e.c(2.0), e.bin("remainder", n, e.c(2.0))), one)
    n1 = e.add(n, one)
    factorial = e.un("exponential", _lgamma(e, n1))
    result = e.mul(e.mul(sign, factorial), _zeta(e, n1, x))
    result = e.sel(e.cmp("EQ", n, zero), _digamma(e, x), result)
    non_natural = e.bin("or", e.cmp("NE", n, e.un("floor", n)), e.cmp("LT", n, zero))
    return e.sel(non_natural, e.c(math.nan), result)


UNARY: dict[str, FloatFn] = {
    "chlo.erf": _erf,
    "chlo.erfc": _erfc,
    "chlo.erf_inv": _erf_inv,
    "chlo.lgamma": _lgamma,
    "chlo.digamma": _digamma,
}

BINARY: dict[str, Callable[[Emitter, SSAValue, SSAValue], SSAValue]] = {
    "chlo.zeta": _zeta,
    "chlo.polygamma": _polygamma,
}
