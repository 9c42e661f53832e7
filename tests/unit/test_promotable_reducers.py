"""Reducers computing in a wider element type than their inputs and init values
(StableHLO's promotable accumulator, issue 17): `reduce` and `reduce_window` verify,
simplify (the operands are converted to the reducer's type first) and compile, and the
sums are the wide ones (bf16 256+1+1 is 258 in f32, 256 in bf16; i8 100+100 is 200
in i32)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

BF16 = ml_dtypes.bfloat16


def _reducer(t: str) -> str:
    return f"""({{
  ^bb0(%x: tensor<{t}>, %y: tensor<{t}>):
    %s = xla.add %x, %y : tensor<{t}>
    xla.return %s : tensor<{t}>
  }})"""


PROGRAM = f"""
func.func @rows(%a: tensor<4x3xbf16>, %init: tensor<bf16>) -> tensor<4xf32> {{
  %0 = "xla.reduce"(%a, %init) {_reducer("f32")} {{dimensions = array<i64: 1>}} : (tensor<4x3xbf16>, tensor<bf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
func.func @unit(%a: tensor<4x1xbf16>, %init: tensor<bf16>) -> tensor<4xf32> {{
  %0 = "xla.reduce"(%a, %init) {_reducer("f32")} {{dimensions = array<i64: 1>}} : (tensor<4x1xbf16>, tensor<bf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
func.func @folded() -> tensor<f32> {{
  %a = xla.constant dense<[256.0, 1.0, 1.0]> : tensor<3xbf16>
  %i = xla.constant dense<0.0> : tensor<bf16>
  %0 = "xla.reduce"(%a, %i) {_reducer("f32")} {{dimensions = array<i64: 0>}} : (tensor<3xbf16>, tensor<bf16>) -> tensor<f32>
  return %0 : tensor<f32>
}}
func.func @windows(%a: tensor<6xi8>, %init: tensor<i16>) -> tensor<3xi32> {{
  %0 = "xla.reduce_window"(%a, %init) {_reducer("i32")} {{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}} : (tensor<6xi8>, tensor<i16>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}}
"""


@pytest.fixture(scope="module")
def program():
    return {name: compile(PROGRAM, entry=name) for name in ("rows", "unit", "folded", "windows")}


def test_reduce_sums_in_the_wide_type(program) -> None:
    a = np.array([[256, 1, 1]] * 4, BF16)
    np.testing.assert_array_equal(program["rows"](a, BF16(1)), np.full(4, 259, np.float32))
    u = np.array([[1.5], [2], [3], [4]], BF16)
    np.testing.assert_array_equal(program["unit"](u, BF16(0.5)), np.array([2, 2.5, 3.5, 4.5], np.float32))
    assert program["folded"]() == np.float32(258)


def test_reduce_window_sums_in_the_wide_type(program) -> None:
    a = np.array([100, 100, -128, -128, 5, 6], np.int8)
    np.testing.assert_array_equal(program["windows"](a, np.int16(1000)), np.array([1200, 744, 1011], np.int32))
