// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// Round trip of the element-wise ops' pretty syntax; the second RUN line pins
// that the generic form reads back into the same pretty form.

// CHECK-LABEL: func.func @unary
func.func @unary(%f32: tensor<2x3xf32>, %f64: tensor<2x3xf64>, %i32: tensor<2x3xi32>, %i1: tensor<2x3xi1>, %i8: tensor<2x3xi8>) {
  // CHECK-NEXT: %0 = xla.abs %f32 : tensor<2x3xf32>
  %0 = xla.abs %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %1 = xla.cbrt %f32 : tensor<2x3xf32>
  %1 = xla.cbrt %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %2 = xla.ceil %f64 : tensor<2x3xf64>
  %2 = xla.ceil %f64 : tensor<2x3xf64>
  // CHECK-NEXT: %3 = xla.count_leading_zeros %i32 : tensor<2x3xi32>
  %3 = xla.count_leading_zeros %i32 : tensor<2x3xi32>
  // CHECK-NEXT: %4 = xla.cosine %f32 : tensor<2x3xf32>
  %4 = xla.cosine %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %5 = xla.exponential %f32 : tensor<2x3xf32>
  %5 = xla.exponential %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %6 = xla.exponential_minus_one %f32 : tensor<2x3xf32>
  %6 = xla.exponential_minus_one %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %7 = xla.floor %f64 : tensor<2x3xf64>
  %7 = xla.floor %f64 : tensor<2x3xf64>
  // CHECK-NEXT: %8 = xla.imag %f32 : tensor<2x3xf32>
  %8 = xla.imag %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %9 = xla.is_finite %f64 : (tensor<2x3xf64>) -> tensor<2x3xi1>
  %9 = "xla.is_finite"(%f64) : (tensor<2x3xf64>) -> tensor<2x3xi1>
  // CHECK-NEXT: %10 = xla.log %f32 : tensor<2x3xf32>
  %10 = xla.log %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %11 = xla.log_plus_one %f32 : tensor<2x3xf32>
  %11 = xla.log_plus_one %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %12 = xla.logistic %f32 : tensor<2x3xf32>
  %12 = xla.logistic %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %13 = xla.not %i1 : tensor<2x3xi1>
  %13 = xla.not %i1 : tensor<2x3xi1>
  // CHECK-NEXT: %14 = xla.negate %i8 : tensor<2x3xi8>
  %14 = xla.negate %i8 : tensor<2x3xi8>
  // CHECK-NEXT: %15 = xla.popcnt %i32 : tensor<2x3xi32>
  %15 = xla.popcnt %i32 : tensor<2x3xi32>
  // CHECK-NEXT: %16 = xla.real %f32 : tensor<2x3xf32>
  %16 = xla.real %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %17 = xla.round_nearest_afz %f64 : tensor<2x3xf64>
  %17 = xla.round_nearest_afz %f64 : tensor<2x3xf64>
  // CHECK-NEXT: %18 = xla.round_nearest_even %f64 : tensor<2x3xf64>
  %18 = xla.round_nearest_even %f64 : tensor<2x3xf64>
  // CHECK-NEXT: %19 = xla.rsqrt %f32 : tensor<2x3xf32>
  %19 = xla.rsqrt %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %20 = xla.sign %f32 : tensor<2x3xf32>
  %20 = xla.sign %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %21 = xla.sine %f32 : tensor<2x3xf32>
  %21 = xla.sine %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %22 = xla.sqrt %f32 : tensor<2x3xf32>
  %22 = xla.sqrt %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %23 = xla.tan %f32 : tensor<2x3xf32>
  %23 = xla.tan %f32 : tensor<2x3xf32>
  // CHECK-NEXT: %24 = xla.tanh %f32 : tensor<2x3xf32>
  %24 = xla.tanh %f32 : tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @complex_parts
func.func @complex_parts(%c: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  // CHECK-NEXT: %0 = xla.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %0 = xla.real %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  // CHECK-NEXT: %1 = xla.imag %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %1 = xla.imag %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  // CHECK-NEXT: %2 = xla.abs %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %2 = xla.abs %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  // CHECK-NEXT: %3 = xla.complex %0, %1 : tensor<4xcomplex<f32>>
  %3 = xla.complex %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%f32: tensor<4xf32>, %i32: tensor<4xui32>, %i1: tensor<4xi1>) {
  // CHECK-NEXT: %0 = xla.add %f32, %f32 : tensor<4xf32>
  %0 = xla.add %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %1 = xla.subtract %f32, %f32 : tensor<4xf32>
  %1 = xla.subtract %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %2 = xla.multiply %f32, %f32 : tensor<4xf32>
  %2 = xla.multiply %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %3 = xla.divide %f32, %f32 : tensor<4xf32>
  %3 = xla.divide %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %4 = xla.remainder %f32, %f32 : tensor<4xf32>
  %4 = xla.remainder %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %5 = xla.maximum %f32, %f32 : tensor<4xf32>
  %5 = xla.maximum %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %6 = xla.minimum %f32, %f32 : tensor<4xf32>
  %6 = xla.minimum %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %7 = xla.power %f32, %f32 : tensor<4xf32>
  %7 = xla.power %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %8 = xla.atan2 %f32, %f32 : tensor<4xf32>
  %8 = xla.atan2 %f32, %f32 : tensor<4xf32>
  // CHECK-NEXT: %9 = xla.and %i1, %i1 : tensor<4xi1>
  %9 = xla.and %i1, %i1 : tensor<4xi1>
  // CHECK-NEXT: %10 = xla.or %i1, %i1 : tensor<4xi1>
  %10 = xla.or %i1, %i1 : tensor<4xi1>
  // CHECK-NEXT: %11 = xla.xor %i1, %i1 : tensor<4xi1>
  %11 = xla.xor %i1, %i1 : tensor<4xi1>
  // CHECK-NEXT: %12 = xla.shift_left %i32, %i32 : tensor<4xui32>
  %12 = xla.shift_left %i32, %i32 : tensor<4xui32>
  // CHECK-NEXT: %13 = xla.shift_right_arithmetic %i32, %i32 : tensor<4xui32>
  %13 = xla.shift_right_arithmetic %i32, %i32 : tensor<4xui32>
  // CHECK-NEXT: %14 = xla.shift_right_logical %i32, %i32 : tensor<4xui32>
  %14 = xla.shift_right_logical %i32, %i32 : tensor<4xui32>
  func.return
}

// The spec's implicit broadcasting: a scalar operand, degenerate dimensions, and
// broadcast_dimensions for operands of different ranks.
// CHECK-LABEL: func.func @implicit_broadcast
func.func @implicit_broadcast(%m: tensor<2x3xf32>, %s: tensor<f32>, %v: tensor<3xf32>, %col: tensor<2x1xf32>) {
  // CHECK-NEXT: %0 = xla.add %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = xla.add %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %1 = xla.multiply %m, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.multiply %m, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %2 = xla.subtract %m, %col : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %2 = xla.subtract %m, %col : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %3 = xla.compare GT, %m, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = xla.compare GT, %m, %v, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %4 = xla.maximum %s, %m : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "xla.maximum"(%s, %m) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @compare
func.func @compare(%a: tensor<4xf32>, %i: tensor<4xi64>, %u: tensor<4xui8>, %c: tensor<4xcomplex<f64>>) {
  // CHECK-NEXT: %0 = xla.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = xla.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: %1 = xla.compare GE, %a, %a, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = xla.compare GE, %a, %a, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: %2 = xla.compare LE, %i, %i, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %2 = xla.compare  LE, %i, %i,  SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  // CHECK-NEXT: %3 = xla.compare NE, %u, %u, UNSIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %3 = "xla.compare"(%u, %u) {comparison_direction = #xla<comparison_direction NE>, compare_type = #xla<comparison_type UNSIGNED>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  // CHECK-NEXT: %4 = xla.compare EQ, %c, %c, FLOAT : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xi1>
  %4 = xla.compare EQ, %c, %c, FLOAT : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xi1>
  // CHECK-NEXT: %5 = xla.compare EQ, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = xla.compare EQ, %a, %a : tensor<4xf32>
  func.return
}

// CHECK-LABEL: func.func @select_clamp
func.func @select_clamp(%p: tensor<3xi1>, %ps: tensor<i1>, %a: tensor<3xi64>, %lo: tensor<i64>) {
  // CHECK-NEXT: %0 = xla.select %p, %a, %a : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %0 = xla.select %p, %a, %a : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  // CHECK-NEXT: %1 = xla.select %ps, %a, %a : (tensor<i1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %1 = xla.select %ps, %a, %a : tensor<i1>, tensor<3xi64>
  // CHECK-NEXT: %2 = xla.clamp %lo, %a, %lo : (tensor<i64>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %2 = xla.clamp %lo, %a, %lo : (tensor<i64>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  // CHECK-NEXT: %3 = xla.clamp %a, %a, %a : tensor<3xi64>
  %3 = xla.clamp %a, %a, %a : tensor<3xi64>
  func.return
}

// CHECK-LABEL: func.func @conversions
func.func @conversions(%f: tensor<4xf32>, %d: tensor<2xf64>, %u: tensor<4x2xui8>) {
  // CHECK-NEXT: %0 = xla.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  %0 = xla.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK-NEXT: %1 = xla.convert %f : (tensor<4xf32>) -> tensor<4xcomplex<f64>>
  %1 = xla.convert %f : (tensor<4xf32>) -> tensor<4xcomplex<f64>>
  // CHECK-NEXT: %2 = xla.bitcast_convert %f : (tensor<4xf32>) -> tensor<4xui32>
  %2 = xla.bitcast_convert %f : (tensor<4xf32>) -> tensor<4xui32>
  // CHECK-NEXT: %3 = xla.bitcast_convert %d : (tensor<2xf64>) -> tensor<2x2xi32>
  %3 = xla.bitcast_convert %d : (tensor<2xf64>) -> tensor<2x2xi32>
  // CHECK-NEXT: %4 = xla.bitcast_convert %u : (tensor<4x2xui8>) -> tensor<4xbf16>
  %4 = xla.bitcast_convert %u : (tensor<4x2xui8>) -> tensor<4xbf16>
  // CHECK-NEXT: %5 = xla.reduce_precision %f, format = e5m10 : tensor<4xf32>
  %5 = xla.reduce_precision %f, format = e5m10 : tensor<4xf32>
  // CHECK-NEXT: %6 = xla.reduce_precision %d, format = e8m7 : tensor<2xf64>
  %6 = "xla.reduce_precision"(%d) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<2xf64>) -> tensor<2xf64>
  func.return
}

// Attributes the pretty form does not spell out stay in a dictionary.
// CHECK-LABEL: func.func @extra_attributes
func.func @extra_attributes(%a: tensor<4xf32>) {
  // CHECK-NEXT: %0 = xla.add %a, %a {mhlo.sharding = "{replicated}"} : tensor<4xf32>
  %0 = xla.add %a, %a {mhlo.sharding = "{replicated}"} : tensor<4xf32>
  // CHECK-NEXT: %1 = xla.exponential %a {result_accuracy = #xla.result_accuracy<ulps = 1, mode = #xla.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  %1 = xla.exponential %a {result_accuracy = #xla.result_accuracy<ulps = 1, mode = #xla.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  func.return
}
