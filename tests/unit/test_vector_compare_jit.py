"""Element-wise code on vectors that needs a vector of `i1` (issue 17, a fuzzer finding):
`math.tanh` on vectors (whose approximation compares and selects lane by lane),
`arith.cmpf`/`arith.select` on vectors and `arith.truncf` of a vector to bf16 (whose
rounding selects) and libm calls on vectors (f64 `tanh`, `atan2`: one call per lane) pass `lower-to-llvm` and compute what NumPy computes. xDSL's
`llvm.fcmp`/`llvm.select` took scalars only (`lowering/to_llvm/vector_compare.py`)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect.context import make_context
from xla_tools.pipelines import lower_and_compile, lower_to_llvm

LANES = 8

KERNELS = f"""
func.func @tanh_f32(%a: memref<{LANES}xf32>, %out: memref<{LANES}xf32>) {{
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  %t = math.tanh %v : vector<{LANES}xf32>
  vector.store %t, %out[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  func.return
}}
func.func @tanh_f64(%a: memref<{LANES}xf64>, %out: memref<{LANES}xf64>) {{
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<{LANES}xf64>, vector<{LANES}xf64>
  %t = math.tanh %v : vector<{LANES}xf64>
  vector.store %t, %out[%c0] : memref<{LANES}xf64>, vector<{LANES}xf64>
  func.return
}}
func.func @atan2_f64(%a: memref<{LANES}xf64>, %b: memref<{LANES}xf64>, %out: memref<{LANES}xf64>) {{
  %c0 = arith.constant 0 : index
  %y = vector.load %a[%c0] : memref<{LANES}xf64>, vector<{LANES}xf64>
  %x = vector.load %b[%c0] : memref<{LANES}xf64>, vector<{LANES}xf64>
  %t = math.atan2 %y, %x : vector<{LANES}xf64>
  vector.store %t, %out[%c0] : memref<{LANES}xf64>, vector<{LANES}xf64>
  func.return
}}
func.func @max_f32(%a: memref<{LANES}xf32>, %b: memref<{LANES}xf32>, %out: memref<{LANES}xf32>) {{
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  %y = vector.load %b[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  %gt = "arith.cmpf"(%x, %y) <{{predicate = 2 : i64}}> : (vector<{LANES}xf32>, vector<{LANES}xf32>) -> vector<{LANES}xi1>
  %m = "arith.select"(%gt, %x, %y) : (vector<{LANES}xi1>, vector<{LANES}xf32>, vector<{LANES}xf32>) -> vector<{LANES}xf32>
  vector.store %m, %out[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  func.return
}}
func.func @to_bf16(%a: memref<{LANES}xf32>, %out: memref<{LANES}xbf16>) {{
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<{LANES}xf32>, vector<{LANES}xf32>
  %t = arith.truncf %v : vector<{LANES}xf32> to vector<{LANES}xbf16>
  vector.store %t, %out[%c0] : memref<{LANES}xbf16>, vector<{LANES}xbf16>
  func.return
}}
"""


def parse(src: str) -> ModuleOp:
    ctx = make_context()
    register_llvm_extensions(ctx)
    return Parser(ctx, src).parse_module()


@pytest.fixture(scope="module")
def jit():
    module = parse(KERNELS)
    lower_to_llvm(module)
    module.verify()
    return lower_and_compile(module)


VALUES = np.array([0.0, -0.0, 0.5, -3.0, 20.0, np.inf, -np.inf, np.nan], np.float32)


def test_tanh_on_vectors(jit) -> None:
    out = np.zeros(LANES, np.float32)
    jit.call("tanh_f32", VALUES.copy(), out)
    np.testing.assert_allclose(out, np.tanh(VALUES), rtol=4e-7, atol=0)
    assert np.signbit(out[1]) and np.isnan(out[7])


def test_libm_calls_on_vectors_go_lane_by_lane(jit) -> None:
    x = VALUES.astype(np.float64)
    out = np.zeros(LANES, np.float64)
    jit.call("tanh_f64", x.copy(), out)
    np.testing.assert_array_equal(out, np.tanh(x))
    other = np.linspace(-2, 2, LANES)
    jit.call("atan2_f64", x.copy(), other, out)
    np.testing.assert_array_equal(out, np.arctan2(x, other))


def test_compare_and_select_on_vectors(jit) -> None:
    other = np.array([1.0, 0.0, 0.25, -2.0, 30.0, 0.0, 0.0, 1.0], np.float32)
    out = np.zeros(LANES, np.float32)
    jit.call("max_f32", VALUES.copy(), other, out)
    np.testing.assert_array_equal(out, np.where(VALUES > other, VALUES, other))


def test_truncf_to_bf16_on_vectors(jit) -> None:
    a = np.array([1.0, 1.00390625, 1.01171875, -0.0, 3.4e38, np.inf, np.nan, 1e-40], np.float32)
    out = np.zeros(LANES, np.uint16)
    jit.call("to_bf16", a, out)
    expected = a.astype(ml_dtypes.bfloat16).view(np.uint16)
    np.testing.assert_array_equal(out[:6], expected[:6])
    assert (out[6] & 0x7FFF) > 0x7F80  # a NaN stays a NaN
    assert out[7] == expected[7]
