// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// StableHLO writes gather and scatter only in the generic form; so does xla-opt.

// CHECK-LABEL: func.func @gather
func.func @gather(%operand: tensor<3x4x2xi64>, %indices: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  // CHECK: "xla.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false}> : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  %0 = "xla.gather"(%operand, %indices) {
    dimension_numbers = #xla.gather<
      offset_dims = [2, 3],
      collapsed_slice_dims = [0],
      start_index_map = [1, 0],
      index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// CHECK-LABEL: func.func @gather_batching
func.func @gather_batching(%operand: tensor<2x3x4x2xi64>, %indices: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi64> {
  // CHECK: "xla.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #xla.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = true}> : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi64>
  %0 = "xla.gather"(%operand, %indices) <{
    dimension_numbers = #xla.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = true
  }> : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi64>
  func.return %0 : tensor<2x2x3x2x2xi64>
}

// Implicit trailing index-vector dimension, offset dims in the middle.
// CHECK-LABEL: func.func @gather_implicit_index_vector
func.func @gather_implicit_index_vector(%operand: tensor<5x6x7xf32>, %indices: tensor<4x3xi32>) -> tensor<4x6x3x7xf32> {
  // CHECK: "xla.gather"(%{{.*}}, %{{.*}}) <{dimension_numbers = #xla.gather<offset_dims = [1, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 6, 7>}> : (tensor<5x6x7xf32>, tensor<4x3xi32>) -> tensor<4x6x3x7xf32>
  %0 = "xla.gather"(%operand, %indices) {
    dimension_numbers = #xla.gather<offset_dims = [1, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 6, 7>
  } : (tensor<5x6x7xf32>, tensor<4x3xi32>) -> tensor<4x6x3x7xf32>
  func.return %0 : tensor<4x6x3x7xf32>
}

// CHECK-LABEL: func.func @scatter
func.func @scatter(%inputs: tensor<3x4x2xi64>, %indices: tensor<2x3x2xi64>, %updates: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  // CHECK: "xla.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, unique_indices = false}> ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<i64>, %[[B:.*]]: tensor<i64>):
  // CHECK-NEXT: %[[S:.*]] = xla.add %[[A]], %[[B]] : tensor<i64>
  // CHECK-NEXT: xla.return %[[S]] : tensor<i64>
  // CHECK-NEXT: }) : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  %0 = "xla.scatter"(%inputs, %indices, %updates) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {
    scatter_dimension_numbers = #xla.scatter<
      update_window_dims = [2, 3],
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [1, 0],
      index_vector_dim = 2>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// CHECK-LABEL: func.func @scatter_batching
func.func @scatter_batching(%inputs: tensor<2x3x4x2xi64>, %indices: tensor<2x2x3x2xi64>, %updates: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  // CHECK: "xla.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{scatter_dimension_numbers = #xla.scatter<update_window_dims = [3, 4], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>}> ({
  // CHECK: }) : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  %0 = "xla.scatter"(%inputs, %indices, %updates) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      xla.return %b : tensor<i64>
  }) {
    scatter_dimension_numbers = #xla.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  func.return %0 : tensor<2x3x4x2xi64>
}

// Two inputs and updates; the computation takes (acc0, acc1, upd0, upd1).
// CHECK-LABEL: func.func @scatter_variadic
func.func @scatter_variadic(%x: tensor<4xf32>, %y: tensor<4xi32>, %indices: tensor<2x1xi32>, %ux: tensor<2xf32>, %uy: tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // CHECK: %{{.*}}:2 = "xla.scatter"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>):
  // CHECK: }) : (tensor<4xf32>, tensor<4xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  %0:2 = "xla.scatter"(%x, %y, %indices, %ux, %uy) ({
    ^bb0(%a0: tensor<f32>, %a1: tensor<i32>, %b0: tensor<f32>, %b1: tensor<i32>):
      xla.return %b0, %b1 : tensor<f32>, tensor<i32>
  }) {
    scatter_dimension_numbers = #xla.scatter<
      inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>,
    unique_indices = true
  } : (tensor<4xf32>, tensor<4xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// The computation may work in a wider type; the result takes that element type.
// CHECK-LABEL: func.func @scatter_promoted
func.func @scatter_promoted(%x: tensor<4xf16>, %indices: tensor<2x1xi32>, %u: tensor<2xf16>) -> tensor<4xf32> {
  // CHECK: ^{{.*}}(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK: }) : (tensor<4xf16>, tensor<2x1xi32>, tensor<2xf16>) -> tensor<4xf32>
  %0 = "xla.scatter"(%x, %indices, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = xla.maximum %a, %b : tensor<f32>
      xla.return %m : tensor<f32>
  }) {
    scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<4xf16>, tensor<2x1xi32>, tensor<2xf16>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
