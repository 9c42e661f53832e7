// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// Beyond StableHLO, from XLA's algebraic simplifier: dot strength reduction
// (passes/canonicalization/contraction.py), extremes as identities, integer
// negations, reduce_precision to the type's own format, sinking transpose/reshape
// past element-wise ops, broadcast compositions, adjacent slices, reduce over unit
// dimensions, map of one op.
// CHECK-LABEL: func.func @dot_strength_reduction
// CHECK-NEXT: %0 = xla.broadcast_in_dim %a, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = xla.broadcast_in_dim %b, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %2 = xla.multiply %0, %1 : tensor<3x4xf32>
// CHECK-NEXT: %3 = xla.broadcast_in_dim %c, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %4 = xla.broadcast_in_dim %d, dims = [0, 1, 2] : (tensor<2x1x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %5 = xla.multiply %3, %4 : tensor<2x3x5xf32>
// CHECK-NEXT: %6 = xla.constant dense<0> : tensor<3x4xi32>
// CHECK-NEXT: func.return %2, %5, %6 : tensor<3x4xf32>, tensor<2x3x5xf32>, tensor<3x4xi32>
func.func @dot_strength_reduction(%a: tensor<3x1xf32>, %b: tensor<1x4xf32>, %c: tensor<2x3x1xf32>, %d: tensor<2x1x5xf32>, %e: tensor<3x0xi32>, %g: tensor<0x4xi32>) -> (tensor<3x4xf32>, tensor<2x3x5xf32>, tensor<3x4xi32>) {
  %0 = xla.dot %a, %b : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %1 = xla.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x1xf32>, tensor<2x1x5xf32>) -> tensor<2x3x5xf32>
  %2 = xla.dot %e, %g : (tensor<3x0xi32>, tensor<0x4xi32>) -> tensor<3x4xi32>
  func.return %0, %1, %2 : tensor<3x4xf32>, tensor<2x3x5xf32>, tensor<3x4xi32>
}

// -----

// CHECK-LABEL: func.func @dot_vector
// CHECK-NEXT: %0 = xla.multiply %a, %b : tensor<1xf32>
// CHECK-NEXT: %1 = xla.reshape %0 : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: func.return %1 : tensor<f32>
func.func @dot_vector(%a: tensor<1xf32>, %b: tensor<1xf32>) -> tensor<f32> {
  %0 = xla.dot %a, %b : (tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @extremes
// CHECK-NEXT: func.return %x, %x, %i, %i : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>
func.func @extremes(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<4xf32>
  %pinf = xla.constant dense<0x7F800000> : tensor<4xf32>
  %lo = xla.constant dense<-128> : tensor<4xi8>
  %hi = xla.constant dense<127> : tensor<4xi8>
  %0 = xla.maximum %x, %ninf : tensor<4xf32>
  %1 = xla.minimum %pinf, %x : tensor<4xf32>
  %2 = xla.maximum %i, %lo : tensor<4xi8>
  %3 = xla.minimum %i, %hi : tensor<4xi8>
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @integer_negations
// CHECK-NEXT: %0 = xla.negate %x : tensor<4xi32>
// CHECK-NEXT: %1 = xla.negate %u : tensor<4xui32>
// CHECK-NEXT: %2 = xla.compare GE, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %flt = xla.compare LT, %f, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %3 = xla.not %flt : tensor<4xi1>
// CHECK-NEXT: func.return %0, %0, %1, %2, %3, %f : tensor<4xi32>, tensor<4xi32>, tensor<4xui32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
func.func @integer_negations(%x: tensor<4xi32>, %u: tensor<4xui32>, %a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<4xf32>, %g: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xui32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %z = xla.constant dense<0> : tensor<4xi32>
  %m = xla.constant dense<-1> : tensor<4xi32>
  %0 = xla.subtract %z, %x : tensor<4xi32>
  %1 = xla.multiply %x, %m : tensor<4xi32>
  %2 = xla.negate %u : tensor<4xui32>
  %lt = xla.compare LT, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = xla.not %lt : tensor<4xi1>
  %flt = xla.compare LT, %f, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = xla.not %flt : tensor<4xi1>
  %5 = xla.real %f : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xi32>, tensor<4xui32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_precision
// CHECK-NEXT: %0 = xla.reduce_precision %x, format = e5m10 : tensor<4xf32>
// CHECK-NEXT: func.return %x, %0 : tensor<4xf32>, tensor<4xf32>
func.func @reduce_precision(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.reduce_precision %x, format = e8m23 : tensor<4xf32>
  %1 = xla.reduce_precision %x, format = e5m10 : tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @sink_transpose_and_reshape
// CHECK-NEXT: %0 = xla.add %a, %b : tensor<2x3xf32>
// CHECK-NEXT: %1 = xla.transpose %0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %2 = xla.multiply %a, %b : tensor<2x3xf32>
// CHECK-NEXT: %3 = xla.reshape %2 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: func.return %1, %3 : tensor<3x2xf32>, tensor<6xf32>
func.func @sink_transpose_and_reshape(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %ta = xla.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %tb = xla.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = xla.add %ta, %tb : tensor<3x2xf32>
  %ra = xla.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %rb = xla.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = xla.multiply %ra, %rb : tensor<6xf32>
  func.return %0, %1 : tensor<3x2xf32>, tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_compositions
// CHECK-NEXT: %0 = xla.broadcast_in_dim %x, dims = [1] : (tensor<111xf64>) -> tensor<1x111x112xf64>
// CHECK-NEXT: %1 = xla.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<4x3xi32>
// CHECK-NEXT: %2 = xla.iota dim = 0 : tensor<5xi32>
// CHECK-NEXT: %3 = xla.broadcast_in_dim %2, dims = [1] : (tensor<5xi32>) -> tensor<3x5xi32>
// CHECK-NEXT: %4 = xla.slice %v [0:3:2] : (tensor<3xi32>) -> tensor<2xi32>
// CHECK-NEXT: %5 = xla.broadcast_in_dim %4, dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT: %6 = xla.concatenate %5, %5, dim = 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %0, %1, %3, %6 : tensor<1x111x112xf64>, tensor<4x3xi32>, tensor<3x5xi32>, tensor<2x4xi32>
func.func @broadcast_compositions(%x: tensor<111xf64>, %v: tensor<3xi32>) -> (tensor<1x111x112xf64>, tensor<4x3xi32>, tensor<3x5xi32>, tensor<2x4xi32>) {
  %b = xla.broadcast_in_dim %x, dims = [0] : (tensor<111xf64>) -> tensor<111x112xf64>
  %0 = xla.reshape %b : (tensor<111x112xf64>) -> tensor<1x111x112xf64>
  %c = xla.broadcast_in_dim %v, dims = [0] : (tensor<3xi32>) -> tensor<3x4xi32>
  %1 = xla.transpose %c, dims = [1, 0] : (tensor<3x4xi32>) -> tensor<4x3xi32>
  %i = xla.iota dim = 0 : tensor<5x3xi32>
  %2 = xla.transpose %i, dims = [1, 0] : (tensor<5x3xi32>) -> tensor<3x5xi32>
  %w = xla.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<4x3xi32>
  %3 = xla.slice %w [1:3, 0:3:2] : (tensor<4x3xi32>) -> tensor<2x2xi32>
  %4 = xla.reshape %3 : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %5 = xla.concatenate %4, %4, dim = 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
  func.return %0, %1, %2, %5 : tensor<1x111x112xf64>, tensor<4x3xi32>, tensor<3x5xi32>, tensor<2x4xi32>
}

// -----

// CHECK-LABEL: func.func @adjacent_slices
// CHECK-NEXT: %0 = xla.slice %x [2:7, 0:2] : (tensor<8x4xf32>) -> tensor<5x2xf32>
// CHECK-NEXT: func.return %x, %0, %e : tensor<8x4xf32>, tensor<5x2xf32>, tensor<0x3xf32>
func.func @adjacent_slices(%x: tensor<8x4xf32>, %e: tensor<0x3xf32>) -> (tensor<8x4xf32>, tensor<5x2xf32>, tensor<0x3xf32>) {
  %a = xla.slice %x [0:3, 0:4] : (tensor<8x4xf32>) -> tensor<3x4xf32>
  %b = xla.slice %x [3:8, 0:4] : (tensor<8x4xf32>) -> tensor<5x4xf32>
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<8x4xf32>
  %c = xla.slice %x [2:7, 0:1] : (tensor<8x4xf32>) -> tensor<5x1xf32>
  %d = xla.slice %x [2:7, 1:2] : (tensor<8x4xf32>) -> tensor<5x1xf32>
  %1 = xla.concatenate %c, %d, dim = 1 : (tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x2xf32>
  %2 = xla.reverse %e, dims = [1] : tensor<0x3xf32>
  func.return %0, %1, %2 : tensor<8x4xf32>, tensor<5x2xf32>, tensor<0x3xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_unit_and_map
// CHECK-NEXT: %0 = xla.reshape %x : (tensor<4x1xi32>) -> tensor<4xi32>
// CHECK-NEXT: %fz = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = xla.reduce(%f init: %fz) applies xla.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = xla.multiply %a, %b : tensor<4xf32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
func.func @reduce_unit_and_map(%x: tensor<4x1xi32>, %f: tensor<4x1xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %z = xla.constant dense<0> : tensor<i32>
  %0 = xla.reduce(%x init: %z) applies xla.add across dimensions = [1] : (tensor<4x1xi32>, tensor<i32>) -> tensor<4xi32>
  %fz = xla.constant dense<0.0> : tensor<f32>
  %1 = xla.reduce(%f init: %fz) applies xla.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "xla.map"(%a, %b) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = xla.multiply %p, %q : tensor<f32>
    xla.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

