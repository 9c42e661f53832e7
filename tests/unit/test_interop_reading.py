"""What JAX exports reads: location aliases anywhere MLIR allows them, foreign
(Shardy) attributes kept, `result_accuracy` modes, and regions that use values
defined above them (hoisted comparator constants, captured arguments)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from xdsl.ir import Operation
from xdsl.printer import Printer

from xla_dialect import parse_module
from xla_dialect.context import XlaProgramError
from xla_dialect.locations import blank_location_aliases
from xla_tools import compile


def print_module(module: Operation) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


LOCATED = """#loc = loc(unknown)
#loc1 = loc("x")
module @m {
  func.func public @main(%arg0: tensor<3xf32> loc("x"), %arg1: tensor<3xf32> loc("y"(#loc1))) -> tensor<3xf32> {
    %0 = "stablehlo.map"(%arg0, %arg1) ({
    ^bb0(%a: tensor<f32> loc("map:"(#loc5)), %b: tensor<f32> loc(callsite(#loc4 at #loc5))):
      %s = stablehlo.negate %a : tensor<f32> loc(fused[#loc4, #loc5])
      %t = stablehlo.add %s, %b : tensor<f32> loc(#loc4)
      stablehlo.return %t : tensor<f32> loc(#loc4)
    }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> loc("/f.py":3:4 to :9)
    %1 = stablehlo.add %0, %arg1 : tensor<3xf32> loc("literal: loc(#x) to") loc(#loc5)
    return %1 : tensor<3xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc4 = loc("neg"(#loc1))
#loc5 = loc("jit(f)/add"(#loc4))
"""


def test_location_aliases_read_wherever_mlir_allows_them() -> None:
    module = parse_module(LOCATED.replace(' loc("literal: loc(#x) to")', ""))
    assert "stablehlo" not in str(module) and "xla.map" in str(module)
    x, y = np.float32([1, 2, 3]), np.float32([0.5, 0.5, 0.5])
    np.testing.assert_array_equal(compile(LOCATED.replace(' loc("literal: loc(#x) to")', ""))(x, y), -x + 2 * y)


def test_blanking_keeps_lines_columns_and_strings() -> None:
    text = 'x loc(#a) "loc(#b)" loc("f":1:2)\n#a = loc(\n"q")\n'
    blanked = blank_location_aliases(text)
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert '"loc(#b)"' in blanked and 'loc("f":1:2)' in blanked and "#a" not in blanked


def test_errors_still_point_at_the_line() -> None:
    bad = LOCATED.replace("stablehlo.add %0, %arg1 : tensor<3xf32>", "stablehlo.add %0, %arg1 : tensor<4xf32>")
    with pytest.raises(XlaProgramError) as err:
        parse_module(bad, "m.mlir")
    assert err.value.diagnostics[0].line == 11


SHARDY = """module {
  func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = stablehlo.custom_call @f(%a) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l]) {i=2, j=2, k=2, l=2}, custom>, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %1 = stablehlo.exponential %0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<2x2xf32>
    %2 = stablehlo.tanh %1 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<2x2xf32>
    return %2 : tensor<2x2xf32>
  }
}
"""


def test_foreign_attributes_and_result_accuracy_are_kept() -> None:
    printed = print_module(parse_module(SHARDY))
    assert "#sdy.op_sharding_rule<([i, j])->([k, l]) {i=2, j=2, k=2, l=2}, custom>" in printed
    assert "#xla.result_accuracy_mode<TOLERANCE>" in printed and "#xla.result_accuracy_mode<HIGHEST>" in printed
    assert "<atol = 1.000000e-05, ulps = 2, mode" in printed  # StableHLO's APFloat fields print bare
    assert print_module(parse_module(printed)) == printed


def test_unknown_stablehlo_attribute_is_still_an_error() -> None:
    with pytest.raises(XlaProgramError, match="stablehlo.result_accuracy_moed"):
        parse_module(SHARDY.replace("result_accuracy_mode<HIGHEST>", "result_accuracy_moed<HIGHEST>"))
    with pytest.raises(XlaProgramError):
        parse_module(SHARDY.replace("result_accuracy_mode<HIGHEST>", "result_accuracy_mode<BEST>"))


CAPTURING = """
func.func @main(%x: tensor<2x5xf32>, %t: tensor<f32>) -> (tensor<2x5xf32>, tensor<2xf32>, tensor<2x5xf32>) {
  %c = stablehlo.constant dense<0.5> : tensor<f32>
  %h = stablehlo.multiply %c, %c : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %da = stablehlo.subtract %a, %t : tensor<f32>
    %db = stablehlo.subtract %b, %t : tensor<f32>
    %aa = stablehlo.abs %da : tensor<f32>
    %ab = stablehlo.abs %db : tensor<f32>
    %p = stablehlo.multiply %aa, %h : tensor<f32>
    %q = stablehlo.multiply %ab, %h : tensor<f32>
    %r = stablehlo.compare LT, %p, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %r = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %m = stablehlo.multiply %b, %t : tensor<f32>
      %q = stablehlo.add %a, %m : tensor<f32>
      stablehlo.return %q : tensor<f32>
    }
  %m = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %q = stablehlo.add %a, %t : tensor<f32>
    stablehlo.return %q : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %s, %r, %m : tensor<2x5xf32>, tensor<2xf32>, tensor<2x5xf32>
}
"""


def test_regions_use_values_defined_above() -> None:
    x = np.float32([[3, -1, 2, 0.5, 7], [1, 2, 3, 4, 5]])
    t = np.float32(2.2)
    s, r, m = compile(CAPTURING)(x, t)
    np.testing.assert_array_equal(s, np.take_along_axis(x, np.argsort(np.abs(x - t), axis=1, kind="stable"), 1))
    np.testing.assert_allclose(r, (x * t).sum(1), rtol=1e-6)
    np.testing.assert_array_equal(m, x + t)
