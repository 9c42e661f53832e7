// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s -t stablehlo | FileCheck %s --check-prefix=SHLO
// RUN: xla-opt %s -t stablehlo | xla-opt | FileCheck %s

// StableHLO's result_accuracy with a mode, on the transcendental ops (issue 17:
// `#stablehlo.result_accuracy_mode<...>` was unknown, so these were rejected).
// CHECK-LABEL: func.func @accuracy
// CHECK: xla.cbrt %a {result_accuracy = #xla.result_accuracy<ulps = 1, mode = #xla.result_accuracy_mode<TOLERANCE>>}
// CHECK: xla.log_plus_one %a {result_accuracy = #xla.result_accuracy<mode = #xla.result_accuracy_mode<HIGHEST>>}
// SHLO: stablehlo.cbrt %a {result_accuracy = #stablehlo.result_accuracy<ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}
func.func @accuracy(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.cbrt"(%a) {result_accuracy = #stablehlo.result_accuracy<atol = 0.000000e+00, rtol = 0.000000e+00, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.log_plus_one %a {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
