// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// More of XLA's algebraic simplifier and of the identities: select of booleans
// and of selects, complements, integer reassociation of constants (wrapping),
// absorption, powers by 2, 0 and -1, rounding of rounded values, slices moved
// before transposes, reverse of a broadcast, cropping pads, reduce of transpose,
// sort along a unit dimension, if with alike branches.
// CHECK-LABEL: func.func @select_forms
// CHECK-NEXT: %0 = xla.not %p : tensor<4xi1>
// CHECK-NEXT: %1 = xla.select %p, %a, %c : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = xla.select %p, %c, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return %p, %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
func.func @select_forms(%p: tensor<4xi1>, %q: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) {
  %t = xla.constant dense<true> : tensor<4xi1>
  %f = xla.constant dense<false> : tensor<4xi1>
  %0 = xla.select %p, %t, %f : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = xla.select %p, %f, %t : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %i = xla.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = xla.select %p, %i, %c : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = xla.select %p, %c, %i : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @complements
// CHECK-NEXT: %0 = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %1 = xla.constant dense<-1> : tensor<4xi32>
// CHECK-NEXT: %2 = xla.constant dense<true> : tensor<4xi1>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>
func.func @complements(%x: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>) {
  %n = xla.not %x : tensor<4xi32>
  %0 = xla.and %x, %n : tensor<4xi32>
  %1 = xla.or %n, %x : tensor<4xi32>
  %np = xla.not %p : tensor<4xi1>
  %2 = xla.xor %p, %np : tensor<4xi1>
  func.return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @integer_algebra
// CHECK-NEXT: %0 = xla.subtract %y, %x : tensor<4xi32>
// CHECK-NEXT: %1 = xla.constant dense<-2147483646> : tensor<4xi32>
// CHECK-NEXT: %2 = xla.add %x, %1 : tensor<4xi32>
// CHECK-NEXT: %3 = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %4 = xla.multiply %x, %x : tensor<4xi32>
// CHECK-NEXT: func.return %0, %2, %x, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
func.func @integer_algebra(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %d = xla.subtract %x, %y : tensor<4xi32>
  %0 = xla.negate %d : tensor<4xi32>
  %c1 = xla.constant dense<2147483647> : tensor<4xi32>
  %c2 = xla.constant dense<3> : tensor<4xi32>
  %s = xla.add %x, %c1 : tensor<4xi32>
  %1 = xla.add %s, %c2 : tensor<4xi32>
  %m = xla.maximum %x, %y : tensor<4xi32>
  %2 = xla.minimum %x, %m : tensor<4xi32>
  %one = xla.constant dense<1> : tensor<4xi32>
  %3 = xla.remainder %x, %one : tensor<4xi32>
  %two = xla.constant dense<2> : tensor<4xi32>
  %4 = xla.power %x, %two : tensor<4xi32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @float_forms
// CHECK-NEXT: %0 = xla.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %1 = xla.divide %0, %x : tensor<4xf32>
// CHECK-NEXT: %c = xla.ceil %x : tensor<4xf32>
// CHECK-NEXT: %2 = xla.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %k = xla.clamp %lo, %x, %hi : tensor<4xf32>
// CHECK-NEXT: %3 = xla.constant dense<5.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %4 = xla.maximum %x, %3 : tensor<4xf32>
// CHECK-NEXT: %s = xla.sign %x : tensor<4xf32>
// CHECK-NEXT: func.return %0, %1, %c, %2, %k, %4, %s : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @float_forms(%x: tensor<4xf32>, %lo: tensor<4xf32>, %hi: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = xla.constant dense<0.0> : tensor<4xf32>
  %m1 = xla.constant dense<-1.0> : tensor<4xf32>
  %0 = xla.power %x, %zero : tensor<4xf32>
  %1 = xla.power %x, %m1 : tensor<4xf32>
  %c = xla.ceil %x : tensor<4xf32>
  %2 = xla.floor %c : tensor<4xf32>
  %3 = xla.imag %x : (tensor<4xf32>) -> tensor<4xf32>
  %k = xla.clamp %lo, %x, %hi : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = xla.clamp %lo, %k, %hi : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %a = xla.constant dense<1.0> : tensor<4xf32>
  %b = xla.constant dense<5.0> : tensor<4xf32>
  %mx = xla.maximum %x, %a : tensor<4xf32>
  %5 = xla.maximum %mx, %b : tensor<4xf32>
  %s = xla.sign %x : tensor<4xf32>
  %6 = xla.sign %s : tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @moving_slices
// CHECK-NEXT: %0 = xla.slice %x [0:4, 1:3] : (tensor<4x6xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %1 = xla.transpose %0, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %b = xla.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %2 = xla.slice %x [1:3, 0:6] : (tensor<4x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: func.return %1, %b, %2, %x : tensor<2x4xf32>, tensor<5x3xf32>, tensor<2x6xf32>, tensor<4x6xf32>
func.func @moving_slices(%x: tensor<4x6xf32>, %v: tensor<3xf32>) -> (tensor<2x4xf32>, tensor<5x3xf32>, tensor<2x6xf32>, tensor<4x6xf32>) {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %0 = xla.slice %t [1:3, 0:4] : (tensor<6x4xf32>) -> tensor<2x4xf32>
  %b = xla.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
  %1 = xla.reverse %b, dims = [0] : tensor<5x3xf32>
  %z = xla.constant dense<0.0> : tensor<f32>
  %2 = xla.pad %x, %z, low = [-1, 0], high = [-1, 0], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %i = xla.constant dense<0> : tensor<i32>
  %3 = xla.dynamic_slice %x, %i, %i, sizes = [4, 6] : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  func.return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<5x3xf32>, tensor<2x6xf32>, tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_and_sort
// CHECK-NEXT: %z = xla.constant dense<0> : tensor<i32>
// CHECK-NEXT: %t = xla.transpose %x, dims = [2, 1, 0] : (tensor<2x3x4xi32>) -> tensor<4x3x2xi32>
// CHECK-NEXT: %0 = xla.reduce(%t init: %z) applies xla.add across dimensions = [1] : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<4x2xi32>
// CHECK-NEXT: %q = xla.add %a, %b : tensor<i32>
// CHECK-NEXT: %1 = xla.reduce(%x init: %z) applies xla.add across dimensions = [1] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %0, %s, %q, %1 : tensor<4x2xi32>, tensor<5x1xi32>, tensor<i32>, tensor<2x4xi32>
func.func @reduce_and_sort(%x: tensor<2x3x4xi32>, %s: tensor<5x1xi32>, %a: tensor<i32>, %b: tensor<i32>, %p: tensor<i1>) -> (tensor<4x2xi32>, tensor<5x1xi32>, tensor<i32>, tensor<2x4xi32>) {
  %z = xla.constant dense<0> : tensor<i32>
  %t = xla.transpose %x, dims = [2, 1, 0] : (tensor<2x3x4xi32>) -> tensor<4x3x2xi32>
  %0 = xla.reduce(%t init: %z) applies xla.add across dimensions = [1] : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<4x2xi32>
  %1 = "xla.sort"(%s) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %c = xla.compare LT, %l, %r : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }) {dimension = 1 : i64, is_stable = false} : (tensor<5x1xi32>) -> tensor<5x1xi32>
  %2 = "xla.if"(%p) ({
    %q = xla.add %a, %b : tensor<i32>
    xla.return %q : tensor<i32>
  }, {
    %q = xla.add %a, %b : tensor<i32>
    xla.return %q : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  %u = xla.transpose %x, dims = [1, 0, 2] : (tensor<2x3x4xi32>) -> tensor<3x2x4xi32>
  %3 = xla.reduce(%u init: %z) applies xla.add across dimensions = [0] : (tensor<3x2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
  func.return %0, %1, %2, %3 : tensor<4x2xi32>, tensor<5x1xi32>, tensor<i32>, tensor<2x4xi32>
}

