// RUN: xla-opt %s --split-input-file --verify-diagnostics

// Each chunk breaks one rule of an element-wise op.

func.func @f(%a: tensor<4xui32>) {
  // expected-error @+1 {{operand element type ui32 is not signed integer, floating-point or complex}}
  %0 = "xla.abs"(%a) : (tensor<4xui32>) -> tensor<4xui32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.cbrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = "xla.ceil"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{operand element type f32 is not integer}}
  %0 = "xla.count_leading_zeros"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.cosine"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.exponential"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.exponential_minus_one"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = "xla.floor"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.imag"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = "xla.is_finite"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.log"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.log_plus_one"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.logistic"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{operand element type f32 is not integer or boolean}}
  %0 = "xla.not"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{operand element type i1 is not integer, floating-point or complex}}
  %0 = "xla.negate"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{operand element type f32 is not integer}}
  %0 = "xla.popcnt"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.real"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = "xla.round_nearest_afz"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = "xla.round_nearest_even"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.rsqrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xui32>) {
  // expected-error @+1 {{operand element type ui32 is not signed integer, floating-point or complex}}
  %0 = "xla.sign"(%a) : (tensor<4xui32>) -> tensor<4xui32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.sine"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.sqrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.tan"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point or complex}}
  %0 = "xla.tanh"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{lhs element type i1 is not integer, floating-point or complex}}
  %0 = "xla.subtract"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{lhs element type i1 is not integer, floating-point or complex}}
  %0 = "xla.divide"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{lhs element type i1 is not integer, floating-point or complex}}
  %0 = "xla.remainder"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{lhs element type i1 is not integer, floating-point or complex}}
  %0 = "xla.power"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{lhs element type i32 is not floating-point or complex}}
  %0 = "xla.atan2"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer or boolean}}
  %0 = "xla.and"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer or boolean}}
  %0 = "xla.or"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer or boolean}}
  %0 = "xla.xor"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer}}
  %0 = "xla.shift_left"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer}}
  %0 = "xla.shift_right_arithmetic"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer}}
  %0 = "xla.shift_right_logical"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{lhs element type i32 is not floating-point}}
  %0 = "xla.complex"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{result type tensor<4xcomplex<f32>> does not match the inferred tensor<4xf32>}}
  %0 = "xla.abs"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf32> does not match the inferred tensor<4xi1>}}
  %0 = "xla.is_finite"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<5xf32> does not match the inferred tensor<4xf32>}}
  %0 = "xla.negate"(%a) : (tensor<4xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2xcomplex<f64>>) {
  // expected-error @+1 {{result type tensor<2xcomplex<f64>> does not match the inferred tensor<2xf64>}}
  %0 = "xla.real"(%a) : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{rhs element type f64 differs from lhs element type f32}}
  %0 = "xla.add"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operand shapes [4] and [3] are not compatible in dimension 0}}
  %0 = "xla.add"(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{have different ranks; one must be a scalar or broadcast_dimensions must be given}}
  %0 = "xla.add"(%a, %b) : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{must have one entry per dimension of the lower-rank operand (rank 1)}}
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions [2] has 2, out of range [0, 2)}}
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{maps dimension 0 (size 4) of the lower-rank operand to dimension 0 (size 2), which differs}}
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1, 0] must be strictly increasing}}
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions [1, 0] must be the identity when the operands' ranks are equal}}
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{result type tensor<f32> does not match the inferred tensor<4xf32>}}
  %0 = "xla.multiply"(%a, %b) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{compare_type FLOAT does not apply to element type i32}}
  %0 = "xla.compare"(%a, %a) {comparison_direction = #xla<comparison_direction LT>, compare_type = #xla<comparison_type FLOAT>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xui32>) {
  // expected-error @+1 {{compare_type SIGNED does not apply to element type ui32}}
  %0 = "xla.compare"(%a, %a) {comparison_direction = #xla<comparison_direction LT>, compare_type = #xla<comparison_type SIGNED>} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{compare_type UNSIGNED does not apply to element type i32}}
  %0 = "xla.compare"(%a, %a) {comparison_direction = #xla<comparison_direction LT>, compare_type = #xla<comparison_type UNSIGNED>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{compare_type SIGNED does not apply to element type f32}}
  %0 = "xla.compare"(%a, %a) {comparison_direction = #xla<comparison_direction LT>, compare_type = #xla<comparison_type SIGNED>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{comparison direction LT is not defined on complex numbers}}
  %0 = xla.compare LT, %a, %a : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf32> does not match the inferred tensor<4xi1>}}
  %0 = xla.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{have different ranks}}
  %0 = xla.compare EQ, %a, %b : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  func.return
}

// -----

func.func @f(%p: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{pred must be a tensor of i1, got tensor<4xi32>}}
  %0 = xla.select %p, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{on_true type tensor<4xf32> differs from on_false type tensor<4xf64>}}
  %0 = xla.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%p: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{pred shape [3] must be a scalar or equal the operand shape [4]}}
  %0 = xla.select %p, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%p: tensor<i1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<3xf32> does not match the inferred tensor<4xf32>}}
  %0 = xla.select %p, %a, %a : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @f(%m: tensor<3xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{min shape [3] must be a scalar or equal the operand shape [4]}}
  %0 = xla.clamp %m, %a, %m : (tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%m: tensor<f32>, %a: tensor<4xf32>, %x: tensor<2xf32>) {
  // expected-error @+1 {{max shape [2] must be a scalar or equal the operand shape [4]}}
  %0 = xla.clamp %m, %a, %x : (tensor<f32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%m: tensor<i32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{min element type i32 differs from operand element type f32}}
  %0 = xla.clamp %m, %a, %m : (tensor<i32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi1>) {
  // expected-error @+1 {{operand element type i1 is not integer, floating-point or complex}}
  %0 = xla.clamp %a, %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result shape [3] differs from operand shape [4]}}
  %0 = xla.convert %a : (tensor<4xf32>) -> tensor<3xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result shape [3] must equal operand shape [4] when the element widths are equal}}
  %0 = xla.bitcast_convert %a : (tensor<4xf32>) -> tensor<3xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{result shape [4, 4] must be the operand shape [4] with a minor dimension of 2}}
  %0 = xla.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x4xi16>
  func.return
}

// -----

func.func @f(%a: tensor<4xi16>) {
  // expected-error @+1 {{operand shape [4] must end in a dimension of 2 that the result shape [4] drops}}
  %0 = xla.bitcast_convert %a : (tensor<4xi16>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{exponent_bits must be at least 1, got 0}}
  %0 = "xla.reduce_precision"(%a) {exponent_bits = 0 : i32, mantissa_bits = 10 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{mantissa_bits must be non-negative, got -1}}
  %0 = "xla.reduce_precision"(%a) {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0 = xla.reduce_precision %a, format = e5m10 : tensor<4xi32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected a format like 'e5m10', got 'e5x10'}}
  %0 = xla.reduce_precision %a, format = e5x10 : tensor<4xf32>
  func.return
}

// -----

// result_accuracy as StableHLO verifies it: tolerances only with mode TOLERANCE,
// never negative (-0.0 counts as negative, as APFloat's isNegative).
func.func @accuracy_highest_with_tolerances(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero.}}
  %0 = "stablehlo.cbrt"(%x) {result_accuracy = #stablehlo.result_accuracy<atol = 1.0, rtol = 0.0, ulps = 4, mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @accuracy_default_with_ulps(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{Invalid tolerances for ResultAccuracyAttr with mode DEFAULT, must be all zero.}}
  %0 = "stablehlo.tanh"(%x) {result_accuracy = #stablehlo.result_accuracy<ulps = 2, mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @accuracy_negative_tolerance(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{Negative tolerance}}
  %0 = "stablehlo.exponential"(%x) {result_accuracy = #stablehlo.result_accuracy<rtol = -0.0, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

