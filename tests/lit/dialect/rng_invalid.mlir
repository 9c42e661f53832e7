// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @a_not_scalar(%a: tensor<2xf32>, %b: tensor<f32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{a must be a scalar (rank 0), got tensor<2xf32>}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<2xf32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @b_not_scalar(%a: tensor<f32>, %b: tensor<1xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{b must be a scalar (rank 0), got tensor<1xf32>}}
  %0 = xla.rng %a, %b, %s, distribution = NORMAL : (tensor<f32>, tensor<1xf32>, tensor<1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @a_element_type(%a: tensor<f64>, %b: tensor<f32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{a element type f64 differs from the result element type f32}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f64>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @b_element_type(%a: tensor<f32>, %b: tensor<i32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{b element type i32 differs from the result element type f32}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<i32>, tensor<1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @uniform_complex(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>, %s: tensor<1xi64>) {
  // expected-error @+1 {{result element type complex<f32> of a UNIFORM rng is not boolean, integer or floating-point}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<complex<f32>>, tensor<complex<f32>>, tensor<1xi64>) -> tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @normal_int(%a: tensor<i32>, %b: tensor<i32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{result element type i32 is not floating-point}}
  %0 = xla.rng %a, %b, %s, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<3xi32>
  func.return
}

// -----

func.func @shape_rank(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<1x1xi64>) {
  // expected-error @+1 {{shape must be a 1-D tensor of integers, got tensor<1x1xi64>}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1x1xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @shape_float(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{shape must be a 1-D tensor of integers, got tensor<1xf32>}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @shape_length(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{shape has 2 elements but the result has rank 1}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3xf32>
  func.return
}

// -----

func.func @shape_constant_mismatch(%a: tensor<f32>, %b: tensor<f32>) {
  %s = xla.constant dense<[3, 5]> : tensor<2xi64>
  // expected-error @+1 {{result shape [3, 4] differs from the shape operand [3, 5]}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @shape_constant_negative(%a: tensor<f32>, %b: tensor<f32>) {
  %s = xla.constant dense<[-3]> : tensor<1xi64>
  // expected-error @+1 {{shape [-3] has a negative dimension size}}
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  func.return
}

// -----

func.func @bernoulli_mean_type(%p: tensor<f64>) {
  // expected-error @+1 {{mean must be an F32 (f32) scalar, got tensor<f64>}}
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2>} : (tensor<f64>) -> tensor<2xui32>
  func.return
}

// -----

func.func @bernoulli_mean_rank(%p: tensor<1xf32>) {
  // expected-error @+1 {{mean must be a scalar (rank 0), got tensor<1xf32>}}
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2>} : (tensor<1xf32>) -> tensor<2xui32>
  func.return
}

// -----

func.func @bernoulli_result_type(%p: tensor<f32>) {
  // expected-error @+1 {{result element type must be U32 (ui32), got i1}}
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2>} : (tensor<f32>) -> tensor<2xi1>
  func.return
}

// -----

func.func @bernoulli_result_shape(%p: tensor<f32>) {
  // expected-error @+1 {{result type tensor<3xui32> does not match the inferred tensor<2xui32>}}
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2>} : (tensor<f32>) -> tensor<3xui32>
  func.return
}

// -----

func.func @bernoulli_negative_shape(%p: tensor<f32>) {
  // expected-error @+1 {{shape [2, -1] has a negative dimension size}}
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2, -1>} : (tensor<f32>) -> tensor<2x1xui32>
  func.return
}

// -----

func.func @three_fry_state_size(%s: tensor<3xui64>) {
  // expected-error @+1 {{initial_state of THREE_FRY must be u64[2], got tensor<3xui64>}}
  %0:2 = xla.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return
}

// -----

func.func @three_fry_state_type(%s: tensor<2xi32>) {
  // expected-error @+1 {{initial_state of THREE_FRY must be u64[2], got tensor<2xi32>}}
  %0:2 = xla.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xi32>) -> (tensor<2xi32>, tensor<4xui32>)
  func.return
}

// -----

func.func @philox_state_size(%s: tensor<4xui64>) {
  // expected-error @+1 {{initial_state of PHILOX must be u64[2] or u64[3], got tensor<4xui64>}}
  %0:2 = xla.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  func.return
}

// -----

func.func @default_state_rank(%s: tensor<2x2xui64>) {
  // expected-error @+1 {{initial_state must be a 1-D tensor, got tensor<2x2xui64>}}
  %0:2 = xla.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2x2xui64>) -> (tensor<2x2xui64>, tensor<4xui32>)
  func.return
}

// -----

func.func @output_state_type(%s: tensor<2xui64>) {
  // expected-error @+1 {{output_state type tensor<3xui64> differs from the initial_state type tensor<2xui64>}}
  %0:2 = xla.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return
}

// -----

func.func @output_pred(%s: tensor<2xui64>) {
  // expected-error @+1 {{output element type i1 is not integer or floating-point}}
  %0:2 = xla.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>)
  func.return
}
