// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s -t stablehlo | FileCheck %s --check-prefix=SHLO
// RUN: xla-opt %s -t stablehlo | xla-opt | FileCheck %s
// RUN: xla-opt %s -t stablehlo --print-op-generic | FileCheck %s --check-prefix=GENERIC

// StableHLO's spelling reads as the xla ops (pretty and generic forms, its
// attributes and token type); `-t stablehlo` prints StableHLO's names back.
// CHECK-LABEL: func.func @main
// SHLO-LABEL: func.func @main
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %t: !stablehlo.token) -> (tensor<4xi1>, tensor<2x2xf32>, !stablehlo.token) {
  // CHECK: xla.add %a, %b : tensor<4xf32>
  // SHLO: stablehlo.add %a, %b : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: xla.compare LT, %{{.*}}, %b, TOTALORDER
  // SHLO: stablehlo.compare LT, %{{.*}}, %b, TOTALORDER
  %1 = "stablehlo.compare"(%0, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: xla.dot_general
  // SHLO: stablehlo.dot_general
  %m = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>
  %2 = "stablehlo.dot_general"(%m, %m) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: xla.after_all %t : !xla.token
  // SHLO: stablehlo.after_all %t : !stablehlo.token
  %3 = stablehlo.after_all %t : !stablehlo.token
  // Ops StableHLO lacks keep the xla name; string attributes are left alone.
  // SHLO: xla.collapse
  %4 = xla.collapse %m, dimensions = [0, 1] : (tensor<2x2xf32>) -> tensor<4xf32>
  // SHLO: stablehlo.custom_call @xla.add(
  %5 = stablehlo.custom_call @"xla.add"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: func.return
  func.return %1, %2, %3 : tensor<4xi1>, tensor<2x2xf32>, !stablehlo.token
}
// GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type TOTALORDER>}>
// GENERIC: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}>
// GENERIC: "xla.collapse"
