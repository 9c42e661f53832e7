// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @broadcast_negative_size(%x: tensor<4xf32>) {
  // expected-error @+1 {{broadcast_sizes [2, -3] has -3; sizes must be non-negative}}
  %0 = "xla.broadcast"(%x) {broadcast_sizes = array<i64: 2, -3>} : (tensor<4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @broadcast_wrong_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<3x2x4xf32> does not match the inferred tensor<2x3x4xf32>}}
  %0 = xla.broadcast %x, sizes = [2, 3] : (tensor<4xf32>) -> tensor<3x2x4xf32>
  func.return
}

// -----

func.func @broadcast_wrong_result_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<2x4xf32> does not match the inferred tensor<2x3x4xf32>}}
  %0 = xla.broadcast %x, sizes = [2, 3] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @broadcast_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{result element type i32 differs from operand element type f32}}
  %0 = xla.broadcast %x, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xi32>
  func.return
}

// -----

func.func @broadcast_bad_operand(%x: tensor<4xi7>) {
  // expected-error @+1 {{operand must be a tensor of a primitive type, got tensor<4xi7>}}
  %0 = xla.broadcast %x, sizes = [2] : (tensor<4xi7>) -> tensor<2x4xi7>
  func.return
}

// -----

func.func @broadcast_in_dim_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions [0] must have one entry per operand dimension (operand rank 2)}}
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_out_of_range(%x: tensor<2xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2] has 2, out of range [0, 2)}}
  %0 = xla.broadcast_in_dim %x, dims = [2] : (tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_negative(%x: tensor<2xf32>) {
  // expected-error @+1 {{broadcast_dimensions [-1] has -1, out of range [0, 2)}}
  %0 = xla.broadcast_in_dim %x, dims = [-1] : (tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_repeated(%x: tensor<2x2xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1, 1] has repeated dimensions}}
  %0 = xla.broadcast_in_dim %x, dims = [1, 1] : (tensor<2x2xf32>) -> tensor<2x2x2xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{operand dimension 0 has size 3, which is neither 1 nor the size 4 of result dimension 1}}
  %0 = xla.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_size_second(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{operand dimension 1 has size 3, which is neither 1 nor the size 2 of result dimension 0}}
  %0 = "xla.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<1x3xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result rank 1 is less than operand rank 2}}
  %0 = xla.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @broadcast_in_dim_element_type(%x: tensor<2xf32>) {
  // expected-error @+1 {{result element type f64 differs from operand element type f32}}
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf64>
  func.return
}

// -----

func.func @reshape_count(%x: tensor<6xf32>) {
  // expected-error @+1 {{result shape [2, 4] has 8 elements but operand shape [6] has 6}}
  %0 = xla.reshape %x : (tensor<6xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @reshape_scalar_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{result shape [] has 1 elements but operand shape [2] has 2}}
  %0 = xla.reshape %x : (tensor<2xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @reshape_element_type(%x: tensor<6xf32>) {
  // expected-error @+1 {{result element type i32 differs from operand element type f32}}
  %0 = xla.reshape %x : (tensor<6xf32>) -> tensor<2x3xi32>
  func.return
}

// -----

func.func @reshape_dimensions_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 0] is not a permutation of [0, 1]}}
  %0 = xla.reshape %x, dimensions = [0, 0] : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @reshape_dimensions_length(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [1] is not a permutation of [0, 1]}}
  %0 = xla.reshape %x, dimensions = [1] : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @reshape_dimensions_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 2] is not a permutation of [0, 1]}}
  %0 = "xla.reshape"(%x) <{dimensions = array<i64: 0, 2>}> : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @collapse_empty(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions must name at least one dimension to collapse}}
  %0 = xla.collapse %x, dimensions = [] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @collapse_gap(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{dimensions [0, 2] must be consecutive and in increasing order}}
  %0 = xla.collapse %x, dimensions = [0, 2] : (tensor<2x3x4xf32>) -> tensor<8x3xf32>
  func.return
}

// -----

func.func @collapse_order(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{dimensions [1, 0] must be consecutive and in increasing order}}
  %0 = xla.collapse %x, dimensions = [1, 0] : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @collapse_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [1, 2] has 2, out of range [0, 2)}}
  %0 = xla.collapse %x, dimensions = [1, 2] : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @collapse_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimensions [0, 0] has repeated dimensions}}
  %0 = xla.collapse %x, dimensions = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @collapse_result(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{result type tensor<2x12xf32> does not match the inferred tensor<6x4xf32>}}
  %0 = xla.collapse %x, dimensions = [0, 1] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  func.return
}

// -----

func.func @collapse_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result element type f16 differs from operand element type f32}}
  %0 = xla.collapse %x, dimensions = [0, 1] : (tensor<2x3xf32>) -> tensor<6xf16>
  func.return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [0, 0] is not a permutation of [0, 1]}}
  %0 = xla.transpose %x, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @transpose_length(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [1, 0, 2] is not a permutation of [0, 1]}}
  %0 = xla.transpose %x, dims = [1, 0, 2] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @transpose_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [-1, 0] is not a permutation of [0, 1]}}
  %0 = "xla.transpose"(%x) {permutation = array<i64: -1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result type tensor<2x3xf32> does not match the inferred tensor<3x2xf32>}}
  %0 = xla.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @transpose_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result element type i1 differs from operand element type f32}}
  %0 = xla.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xi1>
  func.return
}

// -----

func.func @get_dimension_size_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimension 2 is out of range [0, 2) of the operand rank}}
  %0 = xla.get_dimension_size %x, dim = 2 : (tensor<2x3xf32>) -> tensor<i32>
  func.return
}

// -----

func.func @get_dimension_size_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dimension -1 is out of range [0, 2) of the operand rank}}
  %0 = xla.get_dimension_size %x, dim = -1 : (tensor<2x3xf32>) -> tensor<i32>
  func.return
}

// -----

func.func @get_dimension_size_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{dimension 0 is out of range [0, 0) of the operand rank}}
  %0 = xla.get_dimension_size %x, dim = 0 : (tensor<f32>) -> tensor<i32>
  func.return
}

// -----

func.func @get_dimension_size_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{result type tensor<i64> does not match the inferred tensor<i32>}}
  %0 = xla.get_dimension_size %x, dim = 0 : (tensor<2xf32>) -> tensor<i64>
  func.return
}

// -----

func.func @get_dimension_size_result_rank(%x: tensor<2xf32>) {
  // expected-error @+1 {{result type tensor<1xi32> does not match the inferred tensor<i32>}}
  %0 = "xla.get_dimension_size"(%x) {dimension = 0 : i64} : (tensor<2xf32>) -> tensor<1xi32>
  func.return
}

// -----

func.func @set_dimension_size_size_type(%x: tensor<4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{size must be a scalar tensor<i32>, got tensor<i64>}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<i64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @set_dimension_size_size_rank(%x: tensor<4xf32>, %n: tensor<1xi32>) {
  // expected-error @+1 {{size must be a scalar tensor<i32>, got tensor<1xi32>}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<1xi32>) -> tensor<?xf32>
  func.return
}

// -----

func.func @set_dimension_size_range(%x: tensor<4xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{dimension 1 is out of range [0, 1) of the operand rank}}
  %0 = xla.set_dimension_size %x, %n, dim = 1 : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32>
  func.return
}

// -----

func.func @set_dimension_size_static(%x: tensor<4x2xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{result dimension 0 must be dynamic ('?'), got 4}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4x2xf32>, tensor<i32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @set_dimension_size_other_dims(%x: tensor<4x2xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{result shape [?, ?] must equal operand shape [4, 2] outside dimension 0}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4x2xf32>, tensor<i32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @set_dimension_size_other_size(%x: tensor<4x2xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{result type tensor<?x3xf32> does not match the inferred tensor<?x2xf32>}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4x2xf32>, tensor<i32>) -> tensor<?x3xf32>
  func.return
}

// -----

func.func @set_dimension_size_element(%x: tensor<4xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{result type tensor<?xi32> does not match the inferred tensor<?xf32>}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<i32>) -> tensor<?xi32>
  func.return
}

// -----

func.func @set_dimension_size_rank(%x: tensor<4xf32>, %n: tensor<i32>) {
  // expected-error @+1 {{result type tensor<?x1xf32> does not match the inferred tensor<?xf32>}}
  %0 = "xla.set_dimension_size"(%x, %n) {dimension = 0 : i64} : (tensor<4xf32>, tensor<i32>) -> tensor<?x1xf32>
  func.return
}
