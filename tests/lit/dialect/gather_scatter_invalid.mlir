// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xf32>) {
  // expected-error @+1 {{start_indices element type f32 is not integer}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xf32>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case1(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{index_vector_dim 4 is out of range [0, 3] (start_indices rank 3)}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 4>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case2(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{index_vector_dim -1 is out of range [0, 3]}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = -1>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case3(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{slice_sizes [1, 2] has 2 entries but the operand rank is 3}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case4(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{offset_dims [3, 2] must be sorted in ascending order}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [3, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case5(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{offset_dims [2, 2] has repeated dimensions}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case6(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{offset_dims [-1, 3] has -1 < 0}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [-1, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case7(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{collapsed_slice_dims [1, 0] must be sorted in ascending order}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2], collapsed_slice_dims = [1, 0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2xi64>
  func.return
}

// -----

func.func @case8(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{collapsed_slice_dims [3] has 3, out of range [0, 3) of the operand rank}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [3], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case9(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{operand_batching_dims [1, 0] must be sorted in ascending order}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2], operand_batching_dims = [1, 0], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case10(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{operand_batching_dims [5] has 5, out of range [0, 3) of the operand rank}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [5], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case11(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{collapsed_slice_dims [0] and operand_batching_dims [0] must not repeat a dimension}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case12(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{slice_sizes[0] = 2 must be at most 1 because 0 is in collapsed_slice_dims}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 2, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case13(%x: tensor<3x4x2xi64>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{slice_sizes[0] = 3 must be at most 1 because 0 is in operand_batching_dims}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 3, 4, 2>} : (tensor<3x4x2xi64>, tensor<3x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case14(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{start_indices_batching_dims [0, 0] has repeated dimensions}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0, 0], start_index_map = [2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case15(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{start_indices_batching_dims [3] has 3, out of range [0, 3) of the start_indices rank}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [0], start_indices_batching_dims = [3], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case16(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{start_indices_batching_dims [2] must not contain index_vector_dim 2}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case17(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{operand_batching_dims [0] and start_indices_batching_dims [0, 1] must have the same size}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [0], start_indices_batching_dims = [0, 1], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case18(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{operand dimension 0 (size 3) of operand_batching_dims and start_indices dimension 0 (size 2) of start_indices_batching_dims must have the same size}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case19(%x: tensor<3x4x2xi64>, %i: tensor<3x3x2xi64>) {
  // expected-error @+1 {{start_index_map [0, 1] and operand_batching_dims [0] must not repeat a dimension}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<3x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case20(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{start_index_map [1, 3] has 3, out of range [0, 3) of the operand rank}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 3], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case21(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{start_index_map [1] has 1 entries but dimension 2 (index_vector_dim) of start_indices has size 2}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case22(%x: tensor<3x4x2xi64>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{start_index_map [1, 0] has 2 entries but the implicit trailing dimension of start_indices has size 1}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case23(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{slice_sizes [1, -2, 2] has -2 < 0 in dimension 1}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, -2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case24(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{slice_sizes [1, 5, 2] has 5 in dimension 1, beyond the operand size 4}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 5, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x5x2xi64>
  func.return
}

// -----

func.func @case25(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{operand rank 3 must equal the sizes of offset_dims (1) + collapsed_slice_dims (1) + operand_batching_dims (0)}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case26(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{offset_dims [2, 4] has 4, out of range [0, 4) of the result rank}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 4], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return
}

// -----

func.func @case27(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{result type tensor<2x3x2x3xi64> does not match the inferred tensor<2x3x2x2xi64>}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x3xi64>
  func.return
}

// -----

func.func @case28(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) {
  // expected-error @+1 {{result type tensor<2x3x2x2xf32> does not match the inferred tensor<2x3x2x2xi64>}}
  %0 = "xla.gather"(%x, %i) {dimension_numbers = #xla.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @case29(%x: tensor<4xf32>, %i: tensor<2x1xf32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{scatter_indices element type f32 is not integer}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      xla.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<2x1xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @case30(%x: tensor<4xf32>, %y: tensor<5xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{input #1 shape [5] differs from input #0 shape [4]}}
  %0:2 = "xla.scatter"(%x, %y, %i, %u, %u) ({
    ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
      xla.return %b0, %b1 : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<5xf32>)
  func.return
}

// -----

func.func @case31(%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{update #1 shape [3] differs from update #0 shape [2]}}
  %0:2 = "xla.scatter"(%x, %x, %i, %u, %v) ({
    ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
      xla.return %b0, %b1 : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<3xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

func.func @case32(%i: tensor<2x1xi32>) {
  // expected-error @+1 {{scatter needs at least one input}}
  "xla.scatter"(%i) ({
    ^bb0:
      xla.return
  }) {scatter_dimension_numbers = #xla.scatter<index_vector_dim = 1>} : (tensor<2x1xi32>) -> ()
  func.return
}

// -----

func.func @case33(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi32>) {
  // expected-error @+1 {{update #0 element type i32 differs from input #0 element type i64}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi32>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case34(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{index_vector_dim 4 is out of range [0, 3] (scatter_indices rank 3)}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 4>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case35(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_window_dims [3, 2] must be sorted in ascending order}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [3, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case36(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_window_dims [3, 3] has repeated dimensions}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [3, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case37(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_window_dims [2, 4] has 4, out of range [0, 4) of the updates rank}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 4], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case38(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{inserted_window_dims [1, 0] must be sorted in ascending order}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case39(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{inserted_window_dims [3] has 3, out of range [0, 3) of the input rank}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [3], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case40(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{input_batching_dims [2, 1] must be sorted in ascending order}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [3], input_batching_dims = [2, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case41(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{input_batching_dims [-1] has -1, out of range [0, 3) of the input rank}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [-1], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case42(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{inserted_window_dims [0] and input_batching_dims [0] must not repeat a dimension}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case43(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_indices_batching_dims [1, 1] has repeated dimensions}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [3], input_batching_dims = [0, 1], scatter_indices_batching_dims = [1, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case44(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_indices_batching_dims [5] has 5, out of range [0, 3) of the scatter_indices rank}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [5], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case45(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_indices_batching_dims [2] must not contain index_vector_dim 2}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [2], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case46(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{input_batching_dims [0] and scatter_indices_batching_dims [] must have the same size}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case47(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{input dimension 0 (size 3) of input_batching_dims and scatter_indices dimension 0 (size 2) of scatter_indices_batching_dims must have the same size}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case48(%x: tensor<3x4x2xi64>, %i: tensor<3x3x1xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [0] and input_batching_dims [0] must not repeat a dimension}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<3x3x1xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case49(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [1, 3] has 3, out of range [0, 3) of the input rank}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 3], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case50(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{scatter_dims_to_operand_dims [1] has 1 entries but dimension 2 (index_vector_dim) of scatter_indices has size 2}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case51(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{input rank 3 must equal the sizes of update_window_dims (2) + inserted_window_dims (0) + input_batching_dims (0)}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case52(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{updates rank 4 must equal the scatter_indices batch rank 2 + the size of update_window_dims (1)}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [3], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case53(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x5x2xi64>) {
  // expected-error @+1 {{updates dimension 2 (size 5) is a window dimension and must not exceed input dimension 1 (size 4)}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x5x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case54(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x4x2x2xi64>) {
  // expected-error @+1 {{updates dimension 1 (size 4) is a scatter dimension and must equal the matching scatter_indices dimension (size 3)}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x4x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case55(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation must take 2 parameters (2 per input) but takes 3}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>):
      xla.return %a : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case56(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation parameter #1 must be a 0-d tensor, got tensor<1xi64>}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<1xi64>):
      xla.return %a : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case57(%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{update_computation parameters #0 (tensor<f32>) and #2 (tensor<f64>) must have the same type}}
  %0:2 = "xla.scatter"(%x, %x, %i, %u, %u) ({
    ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f64>, %b1: tensor<f32>):
      xla.return %a0, %a1 : tensor<f32>, tensor<f32>
  }) {scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

func.func @case58(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation parameter #0 element type i32 cannot hold input #0 element type i64}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      xla.return %a : tensor<i32>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi32>
  func.return
}

// -----

func.func @case59(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation parameter #0 element type f64 cannot hold input #0 element type i64}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      xla.return %a : tensor<f64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xf64>
  func.return
}

// -----

func.func @case60(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation must return 1 values (one per input) but returns 2}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      xla.return %a, %b : tensor<i64>, tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case61(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{update_computation result #0 type tensor<i32> must be tensor<i64>}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %c = xla.convert %a : (tensor<i64>) -> tensor<i32>
      xla.return %c : tensor<i32>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return
}

// -----

func.func @case62(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{result type tensor<3x4x2xi32> does not match the inferred tensor<3x4x2xi64>}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi32>
  func.return
}

// -----

func.func @case63(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>, %u: tensor<2x3x2x2xi64>) {
  // expected-error @+1 {{result type tensor<3x4x3xi64> does not match the inferred tensor<3x4x2xi64>}}
  %0 = "xla.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #xla.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>} : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x3xi64>
  func.return
}

// -----

// A collapsed dimension of size 0 cannot be read, yet the result has elements.
func.func @collapsed_empty_dimension(%x: tensor<0x2xui32>, %k: tensor<1xi32>) {
  // expected-error @+1 {{operand dimension 0 (in collapsed_slice_dims) has size 0: the result [2] would have no element to read}}
  %0 = "xla.gather"(%x, %k) <{dimension_numbers = #xla.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 0, 2>}> : (tensor<0x2xui32>, tensor<1xi32>) -> tensor<2xui32>
  func.return
}
