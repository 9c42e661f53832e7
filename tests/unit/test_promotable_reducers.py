"""Reducers computing in a wider element type than their inputs and init values
(StableHLO's promotable accumulator, issue 17): `reduce`, `reduce_window`,
`select_and_scatter`'s scatter, `all_reduce` and `reduce_scatter` verify,
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


COLLECTIVES = f"""
func.func @main(%h: tensor<3xbf16>, %b: tensor<4xi8>) -> (tensor<3xf32>, tensor<2xi32>) {{
  %sum = "xla.all_reduce"(%h) {_reducer("f32")} {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : (tensor<3xbf16>) -> tensor<3xf32>
  %part = "xla.reduce_scatter"(%b) {_reducer("i32")} {{scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : (tensor<4xi8>) -> tensor<2xi32>
  return %sum, %part : tensor<3xf32>, tensor<2xi32>
}}
"""


def test_collectives_reduce_in_the_wide_type() -> None:
    """all_reduce of bf16 computed in f32 gives 256 + 1 = 257 (bf16 has no 257);
    reduce_scatter of i8 computed in i32 gives 100 + 100 = 200 without wrapping."""
    from runtime.collectives import run_replicas

    inputs = [
        [np.array([256, 1, 0.5], BF16), np.array([100, -128, 7, 1], np.int8)],
        [np.array([1, 1, 0.25], BF16), np.array([100, -128, 8, 2], np.int8)],
    ]
    outputs = run_replicas(compile(COLLECTIVES), inputs)
    for rank, (total, part) in enumerate(outputs):
        np.testing.assert_array_equal(total, np.array([257, 2, 0.75], np.float32))
        np.testing.assert_array_equal(part, np.array([[200, -256], [15, 3]][rank], np.int32))


SELECT_AND_SCATTER = """
func.func @main(%x: tensor<4x2xi8>, %s: tensor<2x2xi8>) -> tensor<4x2xi32> {
  %init = xla.constant dense<5> : tensor<i8>
  %0 = "xla.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = xla.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %d = xla.add %a, %b : tensor<i32>
    xla.return %d : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi8>, tensor<2x2xi8>, tensor<i8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}
"""


def test_select_and_scatter_scatters_in_the_wide_type() -> None:
    """The spec's example, scattered in i32 from i8: 5 + 100 + 127 = 232 does not wrap;
    elements nothing selects hold init_value (5), converted."""
    f = compile(SELECT_AND_SCATTER, opt_level=0)
    x = np.array([[1, 5], [2, 5], [3, 6], [4, 4]], np.int8)
    s = np.array([[100, 100], [120, 127]], np.int8)
    np.testing.assert_array_equal(f(x, s), np.array([[5, 5], [5, 5], [105, 232], [125, 5]], np.int32))
