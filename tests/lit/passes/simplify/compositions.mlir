// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// Compositions of broadcasts and reshapes (broadcast_in_dim of a reshape stays, as
// StableHLO prefers), iota conversions, updates over updates, predicates compared
// with constants.
// CHECK-LABEL: func.func @broadcast_reshapes
// CHECK-NEXT: %0 = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
// CHECK-NEXT: %r = xla.reshape %v : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %1 = xla.broadcast_in_dim %r, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %2 = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<2x6xf32>, tensor<3x4xf32>, tensor<5xf32>
func.func @broadcast_reshapes(%s: tensor<f32>, %v: tensor<3xf32>) -> (tensor<2x6xf32>, tensor<3x4xf32>, tensor<5xf32>) {
  %b = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<12xf32>
  %0 = xla.reshape %b : (tensor<12xf32>) -> tensor<2x6xf32>
  %r = xla.reshape %v : (tensor<3xf32>) -> tensor<3x1xf32>
  %1 = xla.broadcast_in_dim %r, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
  %p = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %q = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %2 = xla.concatenate %p, %q, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  func.return %0, %1, %2 : tensor<2x6xf32>, tensor<3x4xf32>, tensor<5xf32>
}

// -----

// CHECK-LABEL: func.func @iota_conversions
// CHECK-NEXT: %0 = xla.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT: %j = xla.iota dim = 0 : tensor<300xi32>
// CHECK-NEXT: %1 = xla.convert %j : (tensor<300xi32>) -> tensor<300xi8>
// CHECK-NEXT: func.return %0, %1 : tensor<4xf32>, tensor<300xi8>
func.func @iota_conversions() -> (tensor<4xf32>, tensor<300xi8>) {
  %i = xla.iota dim = 0 : tensor<4xi32>
  %0 = xla.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %j = xla.iota dim = 0 : tensor<300xi32>
  %1 = xla.convert %j : (tensor<300xi32>) -> tensor<300xi8>
  func.return %0, %1 : tensor<4xf32>, tensor<300xi8>
}

// -----

// CHECK-LABEL: func.func @updates
// CHECK-NEXT: %0 = xla.dynamic_update_slice %x, %w, %i : (tensor<8xi32>, tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
// CHECK-NEXT: func.return %0 : tensor<8xi32>
func.func @updates(%x: tensor<8xi32>, %u: tensor<2xi32>, %w: tensor<2xi32>, %i: tensor<i32>) -> tensor<8xi32> {
  %0 = xla.dynamic_update_slice %x, %u, %i : (tensor<8xi32>, tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
  %1 = xla.dynamic_update_slice %0, %w, %i : (tensor<8xi32>, tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
  func.return %1 : tensor<8xi32>
}

// -----

// CHECK-LABEL: func.func @predicates
// CHECK-NEXT: %0 = xla.not %p : tensor<4xi1>
// CHECK-NEXT: %1 = xla.xor %p, %q : tensor<4xi1>
// CHECK-NEXT: func.return %0, %0, %1 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
func.func @predicates(%p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %f = xla.constant dense<false> : tensor<4xi1>
  %t = xla.constant dense<true> : tensor<4xi1>
  %0 = xla.compare EQ, %p, %f : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = xla.compare NE, %p, %t : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %np = xla.not %p : tensor<4xi1>
  %nq = xla.not %q : tensor<4xi1>
  %2 = xla.xor %np, %nq : tensor<4xi1>
  func.return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

