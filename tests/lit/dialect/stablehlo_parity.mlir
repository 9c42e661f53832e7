// RUN: xla-opt %s --split-input-file | FileCheck %s

// StableHLO's struct attributes accept a trailing comma before `>` (issue 17).
// CHECK-LABEL: func.func @trailing_commas
// CHECK: #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>
// CHECK: xla.dot_general %m, %m, contracting_dims = [1] x [0]
func.func @trailing_commas(%operand: tensor<3x4x2xi64>, %start: tensor<2x3x2xi64>, %m: tensor<2x2xf32>) -> (tensor<2x3x2x2xi64>, tensor<2x2xf32>) {
  %0 = "stablehlo.gather"(%operand, %start) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [2, 3],
      collapsed_slice_dims = [0],
      start_index_map = [1, 0],
      index_vector_dim = 2,
    >,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  %1 = "stablehlo.dot_general"(%m, %m) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0, %1 : tensor<2x3x2x2xi64>, tensor<2x2xf32>
}
