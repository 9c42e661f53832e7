// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not a float (f16, bf16, f32, f64)}}
  %0 = chlo.erf %x : tensor<4xi32> -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf64> does not match the inferred tensor<4xf32>}}
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf64>
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not an integer}}
  %0 = "chlo.mulhi"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{rhs type tensor<4xf32> differs from lhs type tensor<3xf32>}}
  %0 = chlo.next_after %a, %b : tensor<3xf32>, tensor<4xf32> -> tensor<3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{operand shapes [3] and [2, 4] are not broadcast-compatible (size 3 vs 4 in result dimension 1)}}
  %0 = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<3x5xf32>) {
  // expected-error @+1 {{k 6 exceeds the last dimension size 5 of the operand}}
  %v, %i = chlo.top_k(%x, k = 6) : tensor<3x5xf32> -> (tensor<3x6xf32>, tensor<3x6xi32>)
  func.return
}

// -----

func.func @f(%x: tensor<4xi32>, %init: tensor<i32>) {
  // expected-error @+1 {{body carry #0 has type tensor<f32>, init has tensor<i32>}}
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %f = stablehlo.convert %a : (tensor<i32>) -> tensor<f32>
    stablehlo.return %a, %f : tensor<i32>, tensor<f32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return
}

// -----

func.func @f(%l: tensor<11x5xf32>, %r: tensor<2x5x7xf32>, %g: tensor<3xi64>) {
  // expected-error @+1 {{rhs group dimension has size 2, expected 3}}
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<11x5xf32>, tensor<2x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return
}
