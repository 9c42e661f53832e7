"""`check.expect_close`: the interpreter's ULP semantics on every float type, complex
per component (xla_tools/conformance.py), directly and through a compiled chunk."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from passes.expose_checks import ExposedCheck
from xla_tools.conformance import _ulp_distance, evaluate_check, run_chunk


def close(lo: int | None = None, hi: int | None = None) -> ExposedCheck:
    props: dict[str, object] = {}
    if lo is not None:
        props["min_ulp_difference"] = IntegerAttr(lo, i64)
    if hi is not None:
        props["max_ulp_difference"] = IntegerAttr(hi, i64)
    return ExposedCheck("check.expect_close", [0, 1], props, "t.mlir:1:1")  # pyright: ignore[reportArgumentType]


def steps(x: np.ndarray, n: int) -> np.ndarray:
    """x moved n floats up (n >= 0), by bit pattern (positive x)."""
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    return (x.view(bits) + bits(n)).view(x.dtype)


FLOAT_TYPES = [
    np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32), np.dtype(np.float64),
    np.dtype(ml_dtypes.float8_e4m3fn), np.dtype(ml_dtypes.float8_e5m2),
]


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=str)
def test_distance_counts_floats_between(dtype: np.dtype) -> None:
    one = np.array([1.0, 0.25, 3.0], dtype)
    for n in (0, 1, 3, 7):
        np.testing.assert_array_equal(_ulp_distance(one, steps(one, n)), [n] * 3)
        np.testing.assert_array_equal(_ulp_distance(-one, -steps(one, n)), [n] * 3)


def test_zeros_nans_infinities() -> None:
    f = np.float32
    tiny = f(np.finfo(f).smallest_subnormal)
    a = np.array([0.0, -0.0, -tiny, np.nan, np.nan, 1.0, np.inf, np.inf, np.finfo(f).max], f)
    b = np.array([-0.0, 0.0, tiny, np.nan, 1.0, np.nan, np.inf, -np.inf, np.inf], f)
    d = _ulp_distance(a, b)
    big = np.iinfo(np.int64).max
    np.testing.assert_array_equal(d[:4], [0, 0, 2, 0])  # +-0 one point; NaN == NaN
    assert d[4] == big and d[5] == big  # NaN against a number: never close
    assert d[6] == 0 and d[7] > 1 << 31 and d[8] == 1  # inf is one past the largest float


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=str)
def test_complex_is_per_component(dtype: type) -> None:
    real = np.dtype(dtype).type(0).real.dtype
    x = np.array([1.0 + 2.0j, -0.5 + 0.0j, complex(np.nan, 1.0)], dtype)
    re2 = steps(x.real.copy(), 2)
    im5 = steps(np.abs(x.imag).astype(real), 5) * np.sign(x.imag + 1)  # 0 -> 5 subnormal steps up
    y = (re2 + 1j * x.imag).astype(dtype)
    np.testing.assert_array_equal(_ulp_distance(x, y)[:2], [[2, 0], [2, 0]])
    assert evaluate_check(close(hi=2), [x[:2], y[:2]]) is None
    assert evaluate_check(close(hi=1), [x[:2], y[:2]]) is not None
    z = (x.real + 1j * im5).astype(dtype)
    assert _ulp_distance(x, z)[0, 1] == 5 and _ulp_distance(x, z)[1, 1] == 5
    # The bounds hold for each component: min 1 fails where one component is exact.
    assert evaluate_check(close(lo=1, hi=3), [x[:2], y[:2]]) is not None
    both = (re2 + 1j * steps(np.abs(x.imag).astype(real), 1)).astype(dtype)[:1]
    assert evaluate_check(close(lo=1, hi=3), [x[:1], both]) is None
    # NaN components: NaN against NaN is 0, against a number never close.
    assert evaluate_check(close(), [x[2:], x[2:].copy()]) is None
    message = evaluate_check(close(hi=10**6), [x[2:], np.array([1.0 + 1.0j], dtype)])
    assert message is not None and "in each component" in message


CHUNK = """func.func @main() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-0.0, 3.0)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.00000012, 2.0), (0.0, 3.00000048)]> : tensor<2xcomplex<f32>>
  %s = stablehlo.add %a, %a : tensor<2xcomplex<f32>>
  %t = stablehlo.add %b, %b : tensor<2xcomplex<f32>>
  check.expect_close %s, %t, max_ulp_difference = %MAX% : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  func.return
}"""


def test_compiled_chunk_with_complex_expect_close() -> None:
    assert run_chunk(CHUNK.replace("%MAX%", "2"), 0, "t.mlir", 0).passed
    failed = run_chunk(CHUNK.replace("%MAX%", "1"), 0, "t.mlir", 1)
    assert not failed.passed and failed.stage == "check", failed
