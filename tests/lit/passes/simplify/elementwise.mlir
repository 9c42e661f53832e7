// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// The element-wise family (passes/canonicalization/elementwise.py, conversions.py):
// folding with the spec's semantics (wrap-around, INT_MIN / -1 and shifts by the
// width left to run time, NaN, signed zero, convert's rounding), constants to the
// right, identities, select, clamp and complex.
// CHECK-LABEL: func.func @fold_unary_int
// CHECK-NEXT: %0 = xla.constant dense<[-128, -5, 7]> : tensor<3xi8>
// CHECK-NEXT: %1 = xla.constant dense<[-128, 5, 7]> : tensor<3xi8>
// CHECK-NEXT: %2 = xla.constant dense<[-1, 0]> : tensor<2xi32>
// CHECK-NEXT: %3 = xla.constant dense<[3, 8]> : tensor<2xi8>
// CHECK-NEXT: %4 = xla.constant dense<[5, 0]> : tensor<2xi8>
// CHECK-NEXT: func.return %0, %1, %2, %3, %4 : tensor<3xi8>, tensor<3xi8>, tensor<2xi32>, tensor<2xi8>, tensor<2xi8>
func.func @fold_unary_int() -> (tensor<3xi8>, tensor<3xi8>, tensor<2xi32>, tensor<2xi8>, tensor<2xi8>) {
  %a = xla.constant dense<[-128, 5, -7]> : tensor<3xi8>
  %0 = xla.negate %a : tensor<3xi8>
  %1 = xla.abs %a : tensor<3xi8>
  %b = xla.constant dense<[-3, 0]> : tensor<2xi32>
  %2 = xla.sign %b : tensor<2xi32>
  %c = xla.constant dense<[7, -1]> : tensor<2xi8>
  %3 = xla.popcnt %c : tensor<2xi8>
  %4 = xla.count_leading_zeros %c : tensor<2xi8>
  func.return %0, %1, %2, %3, %4 : tensor<3xi8>, tensor<3xi8>, tensor<2xi32>, tensor<2xi8>, tensor<2xi8>
}

// -----

// CHECK-LABEL: func.func @fold_unary_float
// CHECK-NEXT: %zero = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %0 = xla.constant dense<2.71828198> : tensor<f32>
// CHECK-NEXT: %1 = xla.log %zero : tensor<f32>
// CHECK-NEXT: %2 = xla.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %3 = xla.constant dense<[3.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %4 = xla.constant dense<[2.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %5 = xla.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: func.return %0, %zero, %1, %2, %3, %4, %5 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>
func.func @fold_unary_float() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>) {
  %one = xla.constant dense<1.0> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.exponential %one : tensor<f32>
  %1 = xla.log %one : tensor<f32>
  %2 = xla.log %zero : tensor<f32>
  %3 = xla.sqrt %one : tensor<f32>
  %h = xla.constant dense<[2.5, -2.5]> : tensor<2xf32>
  %4 = xla.round_nearest_afz %h : tensor<2xf32>
  %5 = xla.round_nearest_even %h : tensor<2xf32>
  %i = xla.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
  %6 = xla.is_finite %i : (tensor<2xf32>) -> tensor<2xi1>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @fold_divide_remainder
// CHECK-NEXT: %0 = xla.constant dense<[3, -3, -3, 3]> : tensor<4xi32>
// CHECK-NEXT: %1 = xla.constant dense<[1, -1, 1, -1]> : tensor<4xi32>
// CHECK-NEXT: %min = xla.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %m1 = xla.constant dense<-1> : tensor<i32>
// CHECK-NEXT: %2 = xla.divide %min, %m1 : tensor<i32>
// CHECK-NEXT: %3 = xla.remainder %min, %m1 : tensor<i32>
// CHECK-NEXT: %4 = xla.constant dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
// CHECK-NEXT: func.return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<2xf32>
func.func @fold_divide_remainder() -> (tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<2xf32>) {
  %a = xla.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = xla.constant dense<[2, 2, -2, -2]> : tensor<4xi32>
  %0 = xla.divide %a, %b : tensor<4xi32>
  %1 = xla.remainder %a, %b : tensor<4xi32>
  %min = xla.constant dense<-2147483648> : tensor<i32>
  %m1 = xla.constant dense<-1> : tensor<i32>
  %2 = xla.divide %min, %m1 : tensor<i32>
  %3 = xla.remainder %min, %m1 : tensor<i32>
  %f = xla.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %z = xla.constant dense<[0.0, 0.0]> : tensor<2xf32>
  %4 = xla.divide %f, %z : tensor<2xf32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_shifts_power
// CHECK-NEXT: %0 = xla.constant dense<[0, -128, -128]> : tensor<3xi8>
// CHECK-NEXT: %1 = xla.constant dense<[64, 32, 0]> : tensor<3xi8>
// CHECK-NEXT: %2 = xla.constant dense<[-64, 32, 0]> : tensor<3xi8>
// CHECK-NEXT: %x = xla.constant dense<1> : tensor<i8>
// CHECK-NEXT: %big = xla.constant dense<8> : tensor<i8>
// CHECK-NEXT: %3 = xla.shift_left %x, %big : tensor<i8>
// CHECK-NEXT: %4 = xla.constant dense<[81, -2147483648]> : tensor<2xi32>
// CHECK-NEXT: func.return %0, %1, %2, %3, %4 : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<i8>, tensor<2xi32>
func.func @fold_shifts_power() -> (tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<i8>, tensor<2xi32>) {
  %a = xla.constant dense<[-128, 64, 1]> : tensor<3xi8>
  %s = xla.constant dense<[1, 1, 7]> : tensor<3xi8>
  %0 = xla.shift_left %a, %s : tensor<3xi8>
  %1 = xla.shift_right_logical %a, %s : tensor<3xi8>
  %2 = xla.shift_right_arithmetic %a, %s : tensor<3xi8>
  %x = xla.constant dense<1> : tensor<i8>
  %big = xla.constant dense<8> : tensor<i8>
  %3 = xla.shift_left %x, %big : tensor<i8>
  %p = xla.constant dense<[3, 2]> : tensor<2xi32>
  %q = xla.constant dense<[4, 31]> : tensor<2xi32>
  %4 = xla.power %p, %q : tensor<2xi32>
  func.return %0, %1, %2, %3, %4 : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<i8>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @fold_compare_total_order
// CHECK-NEXT: %0 = xla.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: func.return %0, %0 : tensor<2xi1>, tensor<2xi1>
func.func @fold_compare_total_order() -> (tensor<2xi1>, tensor<2xi1>) {
  %a = xla.constant dense<[-0.0, 0x7FC00000]> : tensor<2xf32>
  %b = xla.constant dense<[0.0, 0x7FC00000]> : tensor<2xf32>
  %0 = xla.compare LT, %a, %b, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %1 = xla.compare EQ, %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @compare_forms
// CHECK-NEXT: %c = xla.constant dense<3> : tensor<4xi32>
// CHECK-NEXT: %0 = xla.compare GT, %x, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %1 = xla.constant dense<true> : tensor<4xi1>
// CHECK-NEXT: %2 = xla.constant dense<false> : tensor<4xi1>
// CHECK-NEXT: func.return %0, %1, %2, %p : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
func.func @compare_forms(%x: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %c = xla.constant dense<3> : tensor<4xi32>
  %t = xla.constant dense<true> : tensor<4xi1>
  %0 = xla.compare LT, %c, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = xla.compare LE, %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = xla.compare NE, %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = xla.compare EQ, %p, %t : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @constant_to_right
// CHECK-NEXT: %c = xla.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %0 = xla.multiply %x, %c {mhlo.sharding = "{replicated}"} : tensor<4xf32>
// CHECK-NEXT: %1 = xla.maximum %x, %c : tensor<4xf32>
// CHECK-NEXT: func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
func.func @constant_to_right(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = xla.constant dense<2.0> : tensor<4xf32>
  %0 = xla.multiply %c, %x {mhlo.sharding = "{replicated}"} : tensor<4xf32>
  %1 = xla.maximum %c, %x : tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @identities
// CHECK-NEXT: %z = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: func.return %x, %x, %f, %f, %f, %z : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
func.func @identities(%x: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %z = xla.constant dense<0> : tensor<4xi32>
  %nz = xla.constant dense<-0.0> : tensor<4xf32>
  %pz = xla.constant dense<0.0> : tensor<4xf32>
  %one = xla.constant dense<1.0> : tensor<4xf32>
  %0 = xla.shift_left %x, %z : tensor<4xi32>
  %1 = xla.xor %x, %z : tensor<4xi32>
  %2 = xla.add %f, %nz : tensor<4xf32>
  %3 = xla.subtract %f, %pz : tensor<4xf32>
  %4 = xla.divide %f, %one : tensor<4xf32>
  %5 = xla.multiply %x, %z : tensor<4xi32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @float_zero_kept
// CHECK-NEXT: %pz = xla.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %0 = xla.add %f, %pz : tensor<4xf32>
// CHECK-NEXT: %1 = xla.multiply %f, %pz : tensor<4xf32>
// CHECK-NEXT: %2 = xla.subtract %f, %f : tensor<4xf32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @float_zero_kept(%f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %pz = xla.constant dense<0.0> : tensor<4xf32>
  %0 = xla.add %f, %pz : tensor<4xf32>
  %1 = xla.multiply %f, %pz : tensor<4xf32>
  %2 = xla.subtract %f, %f : tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @bitwise
// CHECK-NEXT: %ones = xla.constant dense<-1> : tensor<4xi32>
// CHECK-NEXT: %z = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %t = xla.constant dense<true> : tensor<4xi1>
// CHECK-NEXT: func.return %z, %ones, %x, %p, %t, %z, %p : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>
func.func @bitwise(%x: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>) {
  %ones = xla.constant dense<-1> : tensor<4xi32>
  %z = xla.constant dense<0> : tensor<4xi32>
  %t = xla.constant dense<true> : tensor<4xi1>
  %0 = xla.and %x, %z : tensor<4xi32>
  %1 = xla.or %x, %ones : tensor<4xi32>
  %2 = xla.and %x, %x : tensor<4xi32>
  %3 = xla.multiply %p, %t : tensor<4xi1>
  %4 = xla.add %p, %t : tensor<4xi1>
  %5 = xla.xor %x, %x : tensor<4xi32>
  %6 = xla.minimum %p, %p : tensor<4xi1>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @negations
// CHECK-NEXT: %0 = xla.subtract %x, %y : tensor<4xf32>
// CHECK-NEXT: %1 = xla.add %x, %y : tensor<4xf32>
// CHECK-NEXT: %a = xla.abs %x : tensor<4xf32>
// CHECK-NEXT: func.return %x, %i, %0, %1, %a, %a : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @negations(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %n = xla.negate %x : tensor<4xf32>
  %0 = xla.negate %n : tensor<4xf32>
  %ni = xla.not %i : tensor<4xi32>
  %1 = xla.not %ni : tensor<4xi32>
  %ny = xla.negate %y : tensor<4xf32>
  %2 = xla.add %x, %ny : tensor<4xf32>
  %3 = xla.subtract %x, %ny : tensor<4xf32>
  %a = xla.abs %x : tensor<4xf32>
  %4 = xla.abs %a : tensor<4xf32>
  %5 = xla.abs %n : tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @divide_by_power_of_two
// CHECK-NEXT: %d = xla.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %0 = xla.constant dense<2.500000e-01> : tensor<4xf32>
// CHECK-NEXT: %1 = xla.multiply %x, %0 : tensor<4xf32>
// CHECK-NEXT: %2 = xla.divide %x, %d : tensor<4xf32>
// CHECK-NEXT: func.return %1, %2 : tensor<4xf32>, tensor<4xf32>
func.func @divide_by_power_of_two(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = xla.constant dense<4.0> : tensor<4xf32>
  %d = xla.constant dense<3.0> : tensor<4xf32>
  %0 = xla.divide %x, %c : tensor<4xf32>
  %1 = xla.divide %x, %d : tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @selects
// CHECK-NEXT: %0 = xla.select %p, %b, %a : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %1 = xla.maximum %a, %b : tensor<4xi32>
// CHECK-NEXT: %2 = xla.minimum %b, %a : tensor<4xi32>
// CHECK-NEXT: %3 = xla.constant dense<[1, 2, 1, 2]> : tensor<4xi32>
// CHECK-NEXT: %4 = xla.broadcast_in_dim %q, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
// CHECK-NEXT: %5 = xla.select %4, %b, %a : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: func.return %0, %1, %2, %3, %5 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
func.func @selects(%p: tensor<4xi1>, %a: tensor<4xi32>, %b: tensor<4xi32>, %q: tensor<1xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %np = xla.not %p : tensor<4xi1>
  %0 = xla.select %np, %a, %b : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %gt = xla.compare GT, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = xla.select %gt, %a, %b : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = xla.select %gt, %b, %a : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m = xla.constant dense<[true, false, true, false]> : tensor<4xi1>
  %c1 = xla.constant dense<1> : tensor<4xi32>
  %c2 = xla.constant dense<2> : tensor<4xi32>
  %3 = xla.select %m, %c1, %c2 : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %nq = xla.not %q : tensor<1xi1>
  %bq = xla.broadcast_in_dim %nq, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
  %4 = xla.select %bq, %a, %b : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @clamp_and_complex
// CHECK-NEXT: %0 = xla.constant dense<[0, 5, 10]> : tensor<3xi32>
// CHECK-NEXT: %1 = xla.constant dense<[(1.000000e+00,3.000000e+00), (2.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
// CHECK-NEXT: func.return %0, %re, %im, %z, %1 : tensor<3xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
func.func @clamp_and_complex(%re: tensor<2xf32>, %im: tensor<2xf32>, %z: tensor<2xcomplex<f32>>) -> (tensor<3xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %lo = xla.constant dense<0> : tensor<3xi32>
  %x = xla.constant dense<[-5, 5, 50]> : tensor<3xi32>
  %hi = xla.constant dense<10> : tensor<3xi32>
  %0 = xla.clamp %lo, %x, %hi : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %c = xla.complex %re, %im : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  %1 = xla.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %2 = xla.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %r = xla.real %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %i = xla.imag %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %3 = xla.complex %r, %i : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  %cr = xla.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %ci = xla.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %4 = xla.complex %cr, %ci : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  func.return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<2xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @conversions
// CHECK-NEXT: %0 = xla.constant dense<[44, -1, 0]> : tensor<3xi8>
// CHECK-NEXT: %1 = xla.constant dense<[true, true, false]> : tensor<3xi1>
// CHECK-NEXT: %2 = xla.constant dense<[2, -2]> : tensor<2xi32>
// CHECK-NEXT: %g = xla.constant dense<[1.000000e+00, 0x7F800000]> : tensor<2xf32>
// CHECK-NEXT: %3 = xla.convert %g : (tensor<2xf32>) -> tensor<2xi32>
// CHECK-NEXT: %4 = xla.constant dense<0x4B800000> : tensor<f32>
// CHECK-NEXT: %5 = xla.convert %x : (tensor<4xf16>) -> tensor<4xf64>
// CHECK-NEXT: %6 = xla.constant dense<[1065353216, -1073741824]> : tensor<2xi32>
// CHECK-NEXT: func.return %0, %1, %2, %3, %4, %5, %b, %6, %x : tensor<3xi8>, tensor<3xi1>, tensor<2xi32>, tensor<2xi32>, tensor<f32>, tensor<4xf64>, tensor<4xi32>, tensor<2xi32>, tensor<4xf16>
func.func @conversions(%x: tensor<4xf16>, %b: tensor<4xi32>) -> (tensor<3xi8>, tensor<3xi1>, tensor<2xi32>, tensor<2xi32>, tensor<f32>, tensor<4xf64>, tensor<4xi32>, tensor<2xi32>, tensor<4xf16>) {
  %a = xla.constant dense<[300, -1, 0]> : tensor<3xi32>
  %0 = xla.convert %a : (tensor<3xi32>) -> tensor<3xi8>
  %1 = xla.convert %a : (tensor<3xi32>) -> tensor<3xi1>
  %f = xla.constant dense<[2.9, -2.9]> : tensor<2xf32>
  %2 = xla.convert %f : (tensor<2xf32>) -> tensor<2xi32>
  %g = xla.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
  %3 = xla.convert %g : (tensor<2xf32>) -> tensor<2xi32>
  %i = xla.constant dense<16777217> : tensor<i32>
  %4 = xla.convert %i : (tensor<i32>) -> tensor<f32>
  %w = xla.convert %x : (tensor<4xf16>) -> tensor<4xf32>
  %5 = xla.convert %w : (tensor<4xf32>) -> tensor<4xf64>
  %bc = xla.bitcast_convert %b : (tensor<4xi32>) -> tensor<4xf32>
  %6 = xla.bitcast_convert %bc : (tensor<4xf32>) -> tensor<4xi32>
  %one = xla.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %7 = xla.bitcast_convert %one : (tensor<2xf32>) -> tensor<2xi32>
  %8 = xla.convert %x : (tensor<4xf16>) -> tensor<4xf16>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3xi8>, tensor<3xi1>, tensor<2xi32>, tensor<2xi32>, tensor<f32>, tensor<4xf64>, tensor<4xi32>, tensor<2xi32>, tensor<4xf16>
}


// -----

// chlo.erf of a constant is a constant (erf rounded once to the type, as StableHLO
// folds it); a NaN result stays to run time, like the other float math.
// CHECK-LABEL: func.func @fold_erf
// CHECK-NEXT: %nan = xla.constant dense<0x7FC00000> : tensor<f32>
// CHECK-NEXT: %0 = xla.constant dense<[-0.520499885, 0.000000e+00, 0.900003731, 1.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %1 = xla.constant dense<0.52049987781304652> : tensor<f64>
// CHECK-NEXT: %2 = chlo.erf %nan : tensor<f32> -> tensor<f32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<4xf32>, tensor<f64>, tensor<f32>
func.func @fold_erf() -> (tensor<4xf32>, tensor<f64>, tensor<f32>) {
  %x = xla.constant dense<[-0.5, 0.0, 1.1631, 0x7F800000]> : tensor<4xf32>
  %h = xla.constant dense<0.5> : tensor<f64>
  %nan = xla.constant dense<0x7FC00000> : tensor<f32>
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erf %h : tensor<f64> -> tensor<f64>
  %2 = chlo.erf %nan : tensor<f32> -> tensor<f32>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<f64>, tensor<f32>
}

// -----

// Sub-byte integers fold with the width's wrap-around (sub_byte.py); -8 / -1 in i4
// and shifts by 4 or more stay to run time, as for wider integers.
// CHECK-LABEL: func.func @fold_sub_byte
// CHECK-NEXT: %a = xla.constant dense<[7, -8]> : tensor<2xi4>
// CHECK-NEXT: %b = xla.constant dense<[1, -1]> : tensor<2xi4>
// CHECK-NEXT: %0 = xla.constant dense<[-8, 7]> : tensor<2xi4>
// CHECK-NEXT: %1 = xla.constant dense<[15, 6]> : tensor<2xui4>
// CHECK-NEXT: %2 = xla.constant dense<[-1, -2]> : tensor<2xi2>
// CHECK-NEXT: %3 = xla.divide %a, %b : tensor<2xi4>
// CHECK-NEXT: %four = xla.constant dense<4> : tensor<2xi4>
// CHECK-NEXT: %4 = xla.shift_left %b, %four : tensor<2xi4>
// CHECK-NEXT: %5 = xla.constant dense<[false, true]> : tensor<2xi1>
// CHECK-NEXT: %6 = xla.constant dense<[7, 248]> : tensor<2xui8>
// CHECK-NEXT: %7 = xla.constant dense<[-1, 0]> : tensor<2xi4>
// CHECK-NEXT: func.return %0, %1, %2, %3, %4, %5, %6, %7
func.func @fold_sub_byte() -> (tensor<2xi4>, tensor<2xui4>, tensor<2xi2>, tensor<2xi4>, tensor<2xi4>, tensor<2xi1>, tensor<2xui8>, tensor<2xi4>) {
  %a = xla.constant dense<[7, -8]> : tensor<2xi4>
  %b = xla.constant dense<[1, -1]> : tensor<2xi4>
  %0 = xla.add %a, %b : tensor<2xi4>
  %u = xla.constant dense<[15, 3]> : tensor<2xui4>
  %v = xla.constant dense<[1, 2]> : tensor<2xui4>
  %1 = xla.multiply %u, %v : tensor<2xui4>
  %c = xla.constant dense<[1, -2]> : tensor<2xi2>
  %2 = xla.negate %c : tensor<2xi2>
  %3 = xla.divide %a, %b : tensor<2xi4>
  %four = xla.constant dense<4> : tensor<2xi4>
  %4 = xla.shift_left %b, %four : tensor<2xi4>
  %5 = xla.compare LT, %a, %b : (tensor<2xi4>, tensor<2xi4>) -> tensor<2xi1>
  %6 = xla.convert %a : (tensor<2xi4>) -> tensor<2xui8>
  %w = xla.constant dense<[255, 16]> : tensor<2xi32>
  %7 = xla.convert %w : (tensor<2xi32>) -> tensor<2xi4>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xi4>, tensor<2xui4>, tensor<2xi2>, tensor<2xi4>, tensor<2xi4>, tensor<2xi1>, tensor<2xui8>, tensor<2xi4>
}

// -----

// Identities on large splat constants are decided from the splat's one element
// (`_distinct_elements`): `x - 0.0`, `x + -0.0` and `x | 0` go, `x + 0.0` and
// `x - 1.0` stay.
// CHECK-LABEL: func.func @identities_of_large_splats
// CHECK-NEXT: %pz = xla.constant dense<0.000000e+00> : tensor<4194304xf32>
// CHECK-NEXT: %one = xla.constant dense<1.000000e+00> : tensor<4194304xf32>
// CHECK-NEXT: %0 = xla.add %x, %pz : tensor<4194304xf32>
// CHECK-NEXT: %1 = xla.subtract %x, %one : tensor<4194304xf32>
// CHECK-NEXT: func.return %x, %x, %0, %1, %i : tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xi32>
func.func @identities_of_large_splats(%x: tensor<4194304xf32>, %i: tensor<4194304xi32>) -> (tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xi32>) {
  %pz = xla.constant dense<0.0> : tensor<4194304xf32>
  %nz = xla.constant dense<-0.0> : tensor<4194304xf32>
  %one = xla.constant dense<1.0> : tensor<4194304xf32>
  %iz = xla.constant dense<0> : tensor<4194304xi32>
  %0 = xla.subtract %x, %pz : tensor<4194304xf32>
  %1 = xla.add %x, %nz : tensor<4194304xf32>
  %2 = xla.add %x, %pz : tensor<4194304xf32>
  %3 = xla.subtract %x, %one : tensor<4194304xf32>
  %4 = xla.or %i, %iz : tensor<4194304xi32>
  func.return %0, %1, %2, %3, %4 : tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xf32>, tensor<4194304xi32>
}
