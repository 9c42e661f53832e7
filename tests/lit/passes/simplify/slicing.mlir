// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// The slicing family (passes/canonicalization/slicing.py): slice, dynamic_slice,
// dynamic_update_slice (indices clamped as the spec clamps them), concatenate, pad, reverse.
// CHECK-LABEL: func.func @slices
// CHECK-NEXT: %0 = xla.constant dense<[1, 3]> : tensor<2xi32>
// CHECK-NEXT: %1 = xla.slice %x [3:5, 0:3:2] : (tensor<8x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %2 = xla.slice %a [1:2, 0:5] : (tensor<2x5xf32>) -> tensor<1x5xf32>
// CHECK-NEXT: func.return %0, %1, %2, %x : tensor<2xi32>, tensor<2x2xf32>, tensor<1x5xf32>, tensor<8x4xf32>
func.func @slices(%x: tensor<8x4xf32>, %a: tensor<2x5xf32>, %b: tensor<1x5xf32>) -> (tensor<2xi32>, tensor<2x2xf32>, tensor<1x5xf32>, tensor<8x4xf32>) {
  %c = xla.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %0 = xla.slice %c [1:4:2] : (tensor<4xi32>) -> tensor<2xi32>
  %s = xla.slice %x [2:8, 0:4:2] : (tensor<8x4xf32>) -> tensor<6x2xf32>
  %1 = xla.slice %s [1:3, 0:2] : (tensor<6x2xf32>) -> tensor<2x2xf32>
  %cat = xla.concatenate %a, %b, dim = 0 : (tensor<2x5xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>
  %2 = xla.slice %cat [1:2, 0:5] : (tensor<3x5xf32>) -> tensor<1x5xf32>
  %3 = xla.slice %x [0:8, 0:4] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return %0, %1, %2, %3 : tensor<2xi32>, tensor<2x2xf32>, tensor<1x5xf32>, tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_slices
// CHECK-NEXT: %0 = xla.slice %x [7:8, 0:4] : (tensor<8x4xi32>) -> tensor<1x4xi32>
// CHECK-NEXT: %1 = xla.constant dense<[2, 3]> : tensor<2xi32>
// CHECK-NEXT: %2 = xla.constant dense<[0, 0, 7]> : tensor<3xi32>
// CHECK-NEXT: func.return %0, %u, %x, %1, %2 : tensor<1x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<2xi32>, tensor<3xi32>
func.func @dynamic_slices(%x: tensor<8x4xi32>, %u: tensor<8x4xi32>, %e: tensor<8x0xi32>, %i: tensor<i32>) -> (tensor<1x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<2xi32>, tensor<3xi32>) {
  %big = xla.constant dense<9> : tensor<i32>
  %zero = xla.constant dense<0> : tensor<i32>
  %0 = xla.dynamic_slice %x, %big, %zero, sizes = [1, 4] : (tensor<8x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x4xi32>
  %1 = xla.dynamic_update_slice %x, %u, %i, %i : (tensor<8x4xi32>, tensor<8x4xi32>, tensor<i32>, tensor<i32>) -> tensor<8x4xi32>
  %2 = xla.dynamic_update_slice %x, %e, %i, %i : (tensor<8x4xi32>, tensor<8x0xi32>, tensor<i32>, tensor<i32>) -> tensor<8x4xi32>
  %c = xla.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %one = xla.constant dense<1> : tensor<i32>
  %3 = xla.dynamic_slice %c, %one, sizes = [2] : (tensor<4xi32>, tensor<i32>) -> tensor<2xi32>
  %z = xla.constant dense<[0, 0, 0]> : tensor<3xi32>
  %v = xla.constant dense<[7]> : tensor<1xi32>
  %4 = xla.dynamic_update_slice %z, %v, %big : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
  func.return %0, %1, %2, %3, %4 : tensor<1x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>, tensor<2xi32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @concatenates
// CHECK-NEXT: %0 = xla.concatenate %x, %y, dim = 0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
// CHECK-NEXT: %1 = xla.concatenate %x, %y, %x, dim = 0 : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<12xi32>
// CHECK-NEXT: %2 = xla.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-NEXT: %v = xla.slice %x [0:1] : (tensor<4xi32>) -> tensor<1xi32>
// CHECK-NEXT: %3 = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %4 = xla.concatenate %3, %v, dim = 0 : (tensor<4xi32>, tensor<1xi32>) -> tensor<5xi32>
// CHECK-NEXT: func.return %x, %0, %1, %2, %4 : tensor<4xi32>, tensor<8xi32>, tensor<12xi32>, tensor<4xi32>, tensor<5xi32>
func.func @concatenates(%x: tensor<4xi32>, %y: tensor<4xi32>, %e: tensor<0xi32>) -> (tensor<4xi32>, tensor<8xi32>, tensor<12xi32>, tensor<4xi32>, tensor<5xi32>) {
  %0 = xla.concatenate %x, dim = 0 : (tensor<4xi32>) -> tensor<4xi32>
  %1 = xla.concatenate %x, %e, %y, dim = 0 : (tensor<4xi32>, tensor<0xi32>, tensor<4xi32>) -> tensor<8xi32>
  %i = xla.concatenate %x, %y, dim = 0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
  %2 = xla.concatenate %i, %x, dim = 0 : (tensor<8xi32>, tensor<4xi32>) -> tensor<12xi32>
  %a = xla.constant dense<[1, 2]> : tensor<2xi32>
  %b = xla.constant dense<[3, 4]> : tensor<2xi32>
  %3 = xla.concatenate %a, %b, dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  %z = xla.constant dense<0> : tensor<2xi32>
  %v = xla.slice %x [0:1] : (tensor<4xi32>) -> tensor<1xi32>
  %4 = xla.concatenate %z, %z, %v, dim = 0 : (tensor<2xi32>, tensor<2xi32>, tensor<1xi32>) -> tensor<5xi32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<8xi32>, tensor<12xi32>, tensor<4xi32>, tensor<5xi32>
}

// -----

// CHECK-LABEL: func.func @pads
// CHECK-NEXT: %w = xla.constant dense<[0, 0, 1, 0, 2, 0, 0]> : tensor<7xi32>
// CHECK-NEXT: %0 = xla.broadcast_in_dim %v, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT: %1 = xla.pad %x, %v, low = [3], high = [2], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: func.return %x, %w, %0, %1, %x : tensor<3xf32>, tensor<7xi32>, tensor<2x4xf32>, tensor<8xf32>, tensor<3xf32>
func.func @pads(%x: tensor<3xf32>, %v: tensor<f32>, %e: tensor<0x2xf32>) -> (tensor<3xf32>, tensor<7xi32>, tensor<2x4xf32>, tensor<8xf32>, tensor<3xf32>) {
  %0 = xla.pad %x, %v, low = [0], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %c = xla.constant dense<[1, 2, 3]> : tensor<3xi32>
  %z = xla.constant dense<0> : tensor<i32>
  %1 = xla.pad %c, %z, low = [1], high = [-1], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<5xi32>
  %w = xla.pad %1, %z, low = [1], high = [1], interior = [0] : (tensor<5xi32>, tensor<i32>) -> tensor<7xi32>
  %2 = xla.pad %e, %v, low = [1, 1], high = [1, 1], interior = [0, 0] : (tensor<0x2xf32>, tensor<f32>) -> tensor<2x4xf32>
  %p = xla.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  %3 = xla.pad %p, %v, low = [2], high = [1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
  %4 = xla.slice %p [1:4] : (tensor<5xf32>) -> tensor<3xf32>
  func.return %0, %w, %2, %3, %4 : tensor<3xf32>, tensor<7xi32>, tensor<2x4xf32>, tensor<8xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @reverses
// CHECK-NEXT: %0 = xla.reverse %x, dims = [1] : tensor<1x3xf32>
// CHECK-NEXT: %1 = xla.constant dense<{{\[\[}}4, 3], [2, 1]]> : tensor<2x2xi32>
// CHECK-NEXT: func.return %x, %0, %x, %1 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xi32>
func.func @reverses(%x: tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xi32>) {
  %0 = xla.reverse %x, dims = [0] : tensor<1x3xf32>
  %1 = xla.reverse %x, dims = [0, 1] : tensor<1x3xf32>
  %r = xla.reverse %x, dims = [1] : tensor<1x3xf32>
  %2 = xla.reverse %r, dims = [1] : tensor<1x3xf32>
  %c = xla.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %3 = xla.reverse %c, dims = [0, 1] : tensor<2x2xi32>
  func.return %0, %1, %2, %3 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xi32>
}

