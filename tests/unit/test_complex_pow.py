"""complex `xla.power`: normwise error against mpmath, by K = |w log z|
(`xla_tools.complex_pow_accuracy`; the table is in docs/math_accuracy.md).

Computed in the working precision, the error would grow as ~1.5 K ulps (complex<f64> in
f64: 1.72, 16.7, 142 and 2,418 ulp up to K = 1, 10, 100 and any). Both types now round
each part about once for every K up to 2^45: complex<f32> computes in f64 (in double
words beyond K ~ 2^20), complex<f64> in double words beyond K ~ 0.5 (below, the f64
formula, measured 1.29 ulp). Parts rounded correctly are within sqrt(2)/2 ulp normwise:
the bound 0.75 leaves ~2^-5 ulp for the double words' error."""

from __future__ import annotations

import numpy as np
import pytest

from xla_tools.complex_pow_accuracy import BUCKETS, TYPES, errors, program, sample

BOUNDS = {
    "c64": dict.fromkeys(BUCKETS, 0.75),
    "c128": {**dict.fromkeys(BUCKETS, 0.75), BUCKETS[0]: 1.5},
}
"""type -> {(K above, K up to): max normwise ulps}."""
STEP = 6
"""Every STEP-th point of the measurement's sample (keeps mpmath's time to seconds), but
all of its large-K pairs (the last RANDOM // 4)."""
RANDOM = 600


@pytest.fixture(scope="module")
def measured() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    from xla_tools import compile

    samples = {}
    for key, (_, real, _) in TYPES.items():
        z, w = sample(real, RANDOM)
        rest = len(z) - RANDOM // 4
        pick = np.r_[0:rest:STEP, rest : len(z)]
        samples[key] = (z[pick], w[pick])
    n = max(len(z) for z, _ in samples.values())
    out = {}
    for key, (z, w) in samples.items():
        cplx = TYPES[key][0]
        pz, pw = np.ones(n, np.complex128), np.ones(n, np.complex128)
        pz[: len(z)], pw[: len(w)] = z, w
        got = compile(program(n), f"pow_{key}")(pz.astype(cplx), pw.astype(cplx))[: len(z)]
        out[key] = errors(key, z, w, got)
    return out


@pytest.mark.parametrize("key", list(BOUNDS))
def test_normwise_error_by_condition(measured: dict[str, tuple[np.ndarray, np.ndarray]], key: str) -> None:
    err, cond = measured[key]
    assert (~np.isnan(err)).sum() > 1000
    for (k_min, k_max), bound in BOUNDS[key].items():
        mask = ~np.isnan(err) & (cond > k_min) & (cond <= k_max)
        assert mask.sum() >= 10
        worst = float(err[mask].max())
        assert worst <= bound, f"{key}, K in ({k_min}, {k_max}]: {worst} ulp (bound {bound})"


def test_pow_f32_special_values() -> None:
    """The f64 computation keeps complex<f32>'s special cases: z^0 = 1, 0^w = 0 for Re w > 0,
    overflow to inf, a branch cut side chosen by the zero's sign."""
    from xla_tools import compile

    f = compile(program(5), "pow_c64")
    z = np.array([0, 0, 1e30, -4 + 0j, complex(-4, -0.0)], np.complex64)
    w = np.array([0, 2.5, 2, 0.5, 0.5], np.complex64)
    got = f(z, w)
    assert got[0] == 1 and got[1] == 0
    assert np.isinf(got[2].real)
    np.testing.assert_allclose(got[3:], [2j, -2j], atol=1e-6)
