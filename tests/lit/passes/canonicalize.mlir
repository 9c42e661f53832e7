// RUN: xla-opt %s --split-input-file -p canonicalize | FileCheck %s

// Folding of element-wise ops on constants.
// CHECK-LABEL: func.func @fold_integer_arithmetic
func.func @fold_integer_arithmetic() -> tensor<3xi8> {
  %a = xla.constant dense<[100, -128, 7]> : tensor<3xi8>
  %b = xla.constant dense<[100, -1, 2]> : tensor<3xi8>
  %0 = xla.add %a, %b : tensor<3xi8>
  %1 = xla.multiply %0, %b : tensor<3xi8>
  // Integer arithmetic wraps in i8: 100 + 100 = -56, then -56 * 100 = 32; -128 + -1 = 127.
  // CHECK-NEXT: %0 = xla.constant dense<[32, -127, 18]> : tensor<3xi8>
  // CHECK-NEXT: func.return %0 : tensor<3xi8>
  func.return %1 : tensor<3xi8>
}

// -----

// CHECK-LABEL: func.func @fold_float_max_propagates_nan
func.func @fold_float_max_propagates_nan() -> tensor<2xf32> {
  %a = xla.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %b = xla.constant dense<[2.0, -1.0]> : tensor<2xf32>
  %0 = xla.maximum %a, %b : tensor<2xf32>
  // CHECK-NEXT: %0 = xla.constant dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_compare_and_not
func.func @fold_compare_and_not() -> tensor<3xi1> {
  %a = xla.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = xla.constant dense<2> : tensor<3xi32>
  %0 = xla.compare LT, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %1 = xla.not %0 : tensor<3xi1>
  // CHECK-NEXT: %0 = xla.constant dense<[false, true, true]> : tensor<3xi1>
  func.return %1 : tensor<3xi1>
}

// -----

// Integer division has edge cases NumPy does not share (x / 0): not folded.
// CHECK-LABEL: func.func @no_fold_divide
func.func @no_fold_divide() -> tensor<i32> {
  %a = xla.constant dense<7> : tensor<i32>
  %b = xla.constant dense<0> : tensor<i32>
  // CHECK: xla.divide
  %0 = xla.divide %a, %b : tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Algebraic identities.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%x: tensor<4xi32>, %f: tensor<4xf32>, %p: tensor<4xi1>)
func.func @identities(%x: tensor<4xi32>, %f: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %zero = xla.constant dense<0> : tensor<4xi32>
  %one = xla.constant dense<1.0> : tensor<4xf32>
  %fzero = xla.constant dense<0.0> : tensor<4xf32>
  %0 = xla.add %x, %zero : tensor<4xi32>
  %1 = xla.multiply %f, %one : tensor<4xf32>
  // x + 0.0 is not x for floats (-0.0 + 0.0 = +0.0): kept.
  // CHECK: %[[ADD:.*]] = xla.add %f, %{{.*}} : tensor<4xf32>
  %2 = xla.add %f, %fzero : tensor<4xf32>
  %3 = xla.select %p, %x, %x : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: func.return %x, %f, %[[ADD]], %x : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  func.return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Shape ops that do nothing, and ones that compose.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %0 = xla.transpose %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = xla.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = xla.transpose %1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %3 = xla.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = xla.reshape %3 : (tensor<3x2xf32>) -> tensor<6xf32>
  %5 = xla.reverse %x, dims = [] : tensor<2x3xf32>
  // CHECK-NEXT: %0 = xla.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK-NEXT: func.return %x, %x, %0, %x
  func.return %0, %2, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @splat_broadcast
func.func @splat_broadcast() -> tensor<2x3xf32> {
  %c = xla.constant dense<1.5> : tensor<3xf32>
  %0 = xla.broadcast_in_dim %c, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %0 = xla.constant dense<1.500000e+00> : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @tuple_element
func.func @tuple_element(%a: tensor<f32>, %b: tensor<i32>) -> tensor<i32> {
  %t = xla.tuple %a, %b : tuple<tensor<f32>, tensor<i32>>
  %0 = xla.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>
  // CHECK-NEXT: func.return %b : tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// Sub-byte integers (issue 17: canonicalize crashed on them) fold with their own
// width's wrap-around (issue 16, passes/canonicalization/sub_byte.py).
// CHECK-LABEL: func.func @fold_i4_ui2
// CHECK-NEXT:    %[[A:.*]] = xla.constant dense<[-8, -7]> : tensor<2xi4>
// CHECK-NEXT:    %[[B:.*]] = xla.constant dense<[1, 3]> : tensor<2xui2>
// CHECK-NEXT:    func.return %[[A]], %[[B]]
func.func @fold_i4_ui2() -> (tensor<2xi4>, tensor<2xui2>) {
  %0 = xla.constant dense<[7, -8]> : tensor<2xi4>
  %1 = xla.constant dense<1> : tensor<2xi4>
  %2 = xla.add %0, %1 : tensor<2xi4>
  %3 = xla.constant dense<[3, 1]> : tensor<2xui2>
  %4 = xla.negate %3 : tensor<2xui2>
  func.return %2, %4 : tensor<2xi4>, tensor<2xui2>
}

// -----

// A splat folds through a shape op as one element, however large the result.
// CHECK-LABEL: func.func @huge_splat_transpose
// CHECK-NEXT:    %[[C:.*]] = xla.constant dense<-0.000000e+00> : tensor<4096x8192x64xf32>
// CHECK-NEXT:    func.return %[[C]]
func.func @huge_splat_transpose() -> tensor<4096x8192x64xf32> {
  %0 = xla.constant dense<-0.0> : tensor<64x8192x4096xf32>
  %1 = xla.transpose %0, dims = [2, 1, 0] : (tensor<64x8192x4096xf32>) -> tensor<4096x8192x64xf32>
  func.return %1 : tensor<4096x8192x64xf32>
}

// -----

// A collective whose computation works in a wider type (a promotable accumulator)
// gets its operand converted first (exactly), as reduce does: one element type.
// CHECK-LABEL: func.func @all_reduce_promoted
// CHECK-NEXT:  %0 = xla.convert %h : (tensor<3xbf16>) -> tensor<3xf32>
// CHECK-NEXT:  %1 = "xla.all_reduce"(%0)
// CHECK:       }) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:       %2 = xla.convert %b : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:  %3 = "xla.reduce_scatter"(%2)
// CHECK:       }) : (tensor<4xi32>) -> tensor<2xi32>
func.func @all_reduce_promoted(%h: tensor<3xbf16>, %b: tensor<4xi8>) -> (tensor<3xf32>, tensor<2xi32>) {
  %0 = "xla.all_reduce"(%h) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xbf16>) -> tensor<3xf32>
  %1 = "xla.reduce_scatter"(%b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = xla.add %x, %y : tensor<i32>
    xla.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi8>) -> tensor<2xi32>
  func.return %0, %1 : tensor<3xf32>, tensor<2xi32>
}

// -----

// A folded constant keeps a signalling NaN bit for bit (negate flips the sign bit
// only; complex takes its parts as they are): the folded values were written into
// the literal through Python floats, which set the quiet bit.
// CHECK-LABEL: func.func @folded_signalling_nans
// CHECK-NEXT:  %n = xla.constant dense<[0xFF800001, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  %m = xla.constant dense<0xFF81> : tensor<bf16>
// CHECK-NEXT:  %c = xla.constant dense<(0x7F800001,1.000000e+00)> : tensor<complex<f32>>
func.func @folded_signalling_nans() -> (tensor<2xf32>, tensor<bf16>, tensor<complex<f32>>) {
  %a = xla.constant dense<[0x7F800001, 2.0]> : tensor<2xf32>
  %n = xla.negate %a : tensor<2xf32>
  %b = xla.constant dense<0x7F81> : tensor<bf16>
  %m = xla.negate %b : tensor<bf16>
  %r = xla.constant dense<0x7F800001> : tensor<f32>
  %i = xla.constant dense<1.0> : tensor<f32>
  %c = xla.complex %r, %i : (tensor<f32>, tensor<f32>) -> tensor<complex<f32>>
  func.return %n, %m, %c : tensor<2xf32>, tensor<bf16>, tensor<complex<f32>>
}
