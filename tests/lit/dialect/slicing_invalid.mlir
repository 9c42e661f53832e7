// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{start_indices [0] has 1 entries but the operand rank is 2}}
  %0 = "xla.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 3, 6>, strides = array<i64: 1, 1>} : (tensor<3x6xf32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @case1(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{limit_indices [3] has 1 entries but the operand rank is 2}}
  %0 = "xla.slice"(%x) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3>, strides = array<i64: 1, 1>} : (tensor<3x6xf32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @case2(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{strides [1, 1, 1] has 3 entries but the operand rank is 2}}
  %0 = "xla.slice"(%x) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 6>, strides = array<i64: 1, 1, 1>} : (tensor<3x6xf32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @case3(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{start_indices [-1, 0] has -1 < 0 in dimension 0}}
  %0 = xla.slice %x [-1:3, 0:6] : (tensor<3x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @case4(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{limit_indices [3, 1] has 1 in dimension 1, less than the start index 2}}
  %0 = xla.slice %x [0:3, 2:1] : (tensor<3x6xf32>) -> tensor<3x0xf32>
  func.return
}

// -----

func.func @case5(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{limit_indices [4, 6] has 4 in dimension 0, beyond the operand size 3}}
  %0 = xla.slice %x [0:4, 0:6] : (tensor<3x6xf32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @case6(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{strides [1, 0] has 0 in dimension 1; strides must be >= 1}}
  %0 = xla.slice %x [0:3, 0:6:0] : (tensor<3x6xf32>) -> tensor<3x6xf32>
  func.return
}

// -----

func.func @case7(%x: tensor<6xf32>) {
  // expected-error @+1 {{strides [-2] has -2 in dimension 0; strides must be >= 1}}
  %0 = xla.slice %x [0:6:-2] : (tensor<6xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @case8(%x: tensor<3x6xf32>) {
  // expected-error @+1 {{result type tensor<2x3xf32> does not match the inferred tensor<2x2xf32>}}
  %0 = xla.slice %x [0:3:2, 2:6:3] : (tensor<3x6xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @case9(%x: tensor<6xf32>) {
  // expected-error @+1 {{result type tensor<2xi32> does not match the inferred tensor<2xf32>}}
  %0 = xla.slice %x [0:2] : (tensor<6xf32>) -> tensor<2xi32>
  func.return
}

// -----

func.func @case10(%x: tensor<6xindex>) {
  // expected-error @+1 {{operand must be a tensor of a primitive type}}
  %0 = xla.slice %x [0:2] : (tensor<6xindex>) -> tensor<2xindex>
  func.return
}

// -----

func.func @case11(%x: tensor<4x4xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{expected 2 start indices (one per operand dimension) but got 1}}
  %0 = xla.dynamic_slice %x, %i, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @case12(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<1xi64>) {
  // expected-error @+1 {{start index #1 must be a 0-d tensor of integers, got tensor<1xi64>}}
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<1xi64>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @case13(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{start index #0 must be a 0-d tensor of integers, got tensor<f32>}}
  %0 = xla.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @case14(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<i32>) {
  // expected-error @+1 {{start index #1 type tensor<i32> differs from start index #0 type tensor<i64>}}
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @case15(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<i64>) {
  // expected-error @+1 {{slice_sizes [2] has 1 entries but the operand rank is 2}}
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2xf32>
  func.return
}

// -----

func.func @case16(%x: tensor<4xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{slice_sizes [-1] has -1 < 0 in dimension 0}}
  %0 = "xla.dynamic_slice"(%x, %i) {slice_sizes = array<i64: -1>} : (tensor<4xf32>, tensor<i64>) -> tensor<2xf32>
  func.return
}

// -----

func.func @case17(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<i64>) {
  // expected-error @+1 {{slice_sizes [2, 5] has 5 in dimension 1, beyond the operand size 4}}
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2, 5] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @case18(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<i64>) {
  // expected-error @+1 {{result type tensor<2x3xf32> does not match the inferred tensor<2x2xf32>}}
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @case19(%x: tensor<4x4xf32>, %u: tensor<2xf32>, %i: tensor<i64>, %j: tensor<i64>) {
  // expected-error @+1 {{update rank 1 differs from operand rank 2}}
  %0 = xla.dynamic_update_slice %x, %u, %i, %j : (tensor<4x4xf32>, tensor<2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @case20(%x: tensor<4xf32>, %u: tensor<2xi32>, %i: tensor<i64>) {
  // expected-error @+1 {{update element type i32 differs from operand element type f32}}
  %0 = xla.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<2xi32>, tensor<i64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @case21(%x: tensor<4x4xf32>, %u: tensor<2x5xf32>, %i: tensor<i64>, %j: tensor<i64>) {
  // expected-error @+1 {{update shape [2, 5] exceeds operand shape [4, 4] in dimension 1}}
  %0 = xla.dynamic_update_slice %x, %u, %i, %j : (tensor<4x4xf32>, tensor<2x5xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @case22(%x: tensor<4x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{expected 2 start indices (one per operand dimension) but got 3}}
  %0 = xla.dynamic_update_slice %x, %u, %i, %i, %i : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @case23(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<i1>) {
  // expected-error @+1 {{start index #0 must be a 0-d tensor of integers, got tensor<i1>}}
  %0 = xla.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i1>) -> tensor<4xf32>
  func.return
}

// -----

func.func @case24(%x: tensor<4x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>, %j: tensor<ui32>) {
  // expected-error @+1 {{start index #1 type tensor<ui32> differs from start index #0 type tensor<i32>}}
  %0 = xla.dynamic_update_slice %x, %u, %i, %j : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<ui32>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @case25(%x: tensor<4x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{result type tensor<2x2xf32> does not match the inferred tensor<4x4xf32>}}
  %0 = xla.dynamic_update_slice %x, %u, %i, %i : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @case26() {
  // expected-error @+1 {{concatenate needs at least one operand}}
  %0 = "xla.concatenate"() {dimension = 0 : i64} : () -> tensor<0xf32>
  func.return
}

// -----

func.func @case27(%a: tensor<2xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{operand #1 element type i32 differs from operand #0 element type f32}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xi32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @case28(%a: tensor<2xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{operand #1 rank 2 differs from operand #0 rank 1}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3x1xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @case29(%a: tensor<f32>, %b: tensor<f32>) {
  // expected-error @+1 {{operands must have rank >= 1}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @case30(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) {
  // expected-error @+1 {{dimension 2 is out of range [0, 2)}}
  %0 = xla.concatenate %a, %b, dim = 2 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @case31(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{dimension -1 is out of range [0, 1)}}
  %0 = xla.concatenate %a, %b, dim = -1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @case32(%a: tensor<3x2xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{operand #1 shape [3, 3] differs from operand #0 shape [3, 2] in dimension 1, which is not the concatenated dimension}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<3x2xf32>, tensor<3x3xf32>) -> tensor<6x2xf32>
  func.return
}

// -----

func.func @case33(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{result type tensor<6xf32> does not match the inferred tensor<5xf32>}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @case34(%x: tensor<3xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{padding_value must be a 0-d tensor, got tensor<1xf32>}}
  %0 = xla.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<3xf32>, tensor<1xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @case35(%x: tensor<3xf32>, %v: tensor<i32>) {
  // expected-error @+1 {{padding_value element type i32 differs from operand element type f32}}
  %0 = xla.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<3xf32>, tensor<i32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @case36(%x: tensor<3x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{edge_padding_low [1] has 1 entries but the operand rank is 2}}
  %0 = xla.pad %x, %v, low = [1], high = [1, 1], interior = [0, 0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<5x5xf32>
  func.return
}

// -----

func.func @case37(%x: tensor<3x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{edge_padding_high [1, 1, 1] has 3 entries but the operand rank is 2}}
  %0 = xla.pad %x, %v, low = [1, 1], high = [1, 1, 1], interior = [0, 0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<5x5xf32>
  func.return
}

// -----

func.func @case38(%x: tensor<3x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{interior_padding [] has 0 entries but the operand rank is 2}}
  %0 = xla.pad %x, %v, low = [1, 1], high = [1, 1], interior = [] : (tensor<3x3xf32>, tensor<f32>) -> tensor<5x5xf32>
  func.return
}

// -----

func.func @case39(%x: tensor<3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{interior_padding [-1] has -1 < 0 in dimension 0}}
  %0 = xla.pad %x, %v, low = [0], high = [0], interior = [-1] : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>
  func.return
}

// -----

func.func @case40(%x: tensor<3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{padding removes more than the operand has in dimension 0: -3 + -1 + 3 + 2 * 0 = -1 < 0}}
  %0 = xla.pad %x, %v, low = [-3], high = [-1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @case41(%x: tensor<5x4xi64>, %v: tensor<i64>) {
  // expected-error @+1 {{result type tensor<5x4xi64> does not match the inferred tensor<7x5xi64>}}
  %0 = xla.pad %x, %v, low = [1, -1], high = [1, -1], interior = [0, 1] : (tensor<5x4xi64>, tensor<i64>) -> tensor<5x4xi64>
  func.return
}

// -----

func.func @case42(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{dimensions [2] has 2, out of range [0, 2)}}
  %0 = xla.reverse %x, dims = [2] : tensor<3x2xf32>
  func.return
}

// -----

func.func @case43(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{dimensions [-1] has -1, out of range [0, 2)}}
  %0 = xla.reverse %x, dims = [-1] : tensor<3x2xf32>
  func.return
}

// -----

func.func @case44(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{dimensions [0, 0] has repeated dimensions}}
  %0 = xla.reverse %x, dims = [0, 0] : tensor<3x2xf32>
  func.return
}

// -----

func.func @case45(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{result type tensor<2x3xf32> does not match the inferred tensor<3x2xf32>}}
  %0 = "xla.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return
}
