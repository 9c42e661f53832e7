// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// The shape family (passes/canonicalization/shape.py): identities, compositions,
// broadcast_in_dim as reshape/transpose, iota, constants.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %0 = xla.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %1 = xla.reshape %u : (tensor<1x4x5x1xf32>) -> tensor<1x4x1x5xf32>
// CHECK-NEXT: %2 = xla.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<4x2x3xf32>, tensor<1x4x1x5xf32>, tensor<3x2xi32>
func.func @transposes(%x: tensor<2x3x4xf32>, %u: tensor<1x4x5x1xf32>) -> (tensor<4x2x3xf32>, tensor<1x4x1x5xf32>, tensor<3x2xi32>) {
  %0 = xla.transpose %x, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = xla.transpose %0, dims = [2, 1, 0] : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %2 = xla.transpose %u, dims = [3, 1, 0, 2] : (tensor<1x4x5x1xf32>) -> tensor<1x4x1x5xf32>
  %c = xla.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %3 = xla.transpose %c, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  func.return %1, %2, %3 : tensor<4x2x3xf32>, tensor<1x4x1x5xf32>, tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %0 = xla.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %1 = xla.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
// CHECK-NEXT: func.return %0, %1, %y, %x : tensor<6xf32>, tensor<3x2xi32>, tensor<6xf32>, tensor<2x3xf32>
func.func @reshapes(%x: tensor<2x3xf32>, %y: tensor<6xf32>) -> (tensor<6xf32>, tensor<3x2xi32>, tensor<6xf32>, tensor<2x3xf32>) {
  %0 = xla.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = xla.reshape %0 : (tensor<3x2xf32>) -> tensor<6xf32>
  %c = xla.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %2 = xla.reshape %c : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %b = xla.broadcast_in_dim %y, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
  %3 = xla.reshape %b : (tensor<1x6xf32>) -> tensor<6xf32>
  %4 = xla.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1, %2, %3, %4 : tensor<6xf32>, tensor<3x2xi32>, tensor<6xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @broadcasts
// CHECK-NEXT: %0 = xla.transpose %x, dims = [1, 0] : (tensor<3x3xi32>) -> tensor<3x3xi32>
// CHECK-NEXT: %1 = xla.reshape %v : (tensor<3x6xi32>) -> tensor<1x3x6xi32>
// CHECK-NEXT: %2 = xla.broadcast_in_dim %x, dims = [2, 0] : (tensor<3x3xi32>) -> tensor<3x2x3x3xi32>
// CHECK-NEXT: %3 = xla.constant dense<{{\[\[}}1, 2], [1, 2]]> : tensor<2x2xi32>
// CHECK-NEXT: %4 = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT: func.return %x, %0, %1, %2, %3, %4 : tensor<3x3xi32>, tensor<3x3xi32>, tensor<1x3x6xi32>, tensor<3x2x3x3xi32>, tensor<2x2xi32>, tensor<4x2xf32>
func.func @broadcasts(%x: tensor<3x3xi32>, %v: tensor<3x6xi32>, %s: tensor<f32>) -> (tensor<3x3xi32>, tensor<3x3xi32>, tensor<1x3x6xi32>, tensor<3x2x3x3xi32>, tensor<2x2xi32>, tensor<4x2xf32>) {
  %0 = xla.broadcast_in_dim %x, dims = [0, 1] : (tensor<3x3xi32>) -> tensor<3x3xi32>
  %1 = xla.broadcast_in_dim %x, dims = [1, 0] : (tensor<3x3xi32>) -> tensor<3x3xi32>
  %2 = xla.broadcast_in_dim %v, dims = [1, 2] : (tensor<3x6xi32>) -> tensor<1x3x6xi32>
  %i = xla.broadcast_in_dim %x, dims = [1, 0] : (tensor<3x3xi32>) -> tensor<3x3x2xi32>
  %3 = xla.broadcast_in_dim %i, dims = [0, 2, 1] : (tensor<3x3x2xi32>) -> tensor<3x2x3x3xi32>
  %c = xla.constant dense<[1, 2]> : tensor<2xi32>
  %4 = xla.broadcast_in_dim %c, dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
  %5 = xla.broadcast %s, sizes = [4, 2] : (tensor<f32>) -> tensor<4x2xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<3x3xi32>, tensor<3x3xi32>, tensor<1x3x6xi32>, tensor<3x2x3x3xi32>, tensor<2x2xi32>, tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @iotas
// CHECK-NEXT: %0 = xla.constant dense<0> : tensor<1xi32>
// CHECK-NEXT: %1 = xla.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %2 = xla.broadcast_in_dim %1, dims = [1] : (tensor<4xi32>) -> tensor<5x4xi32>
// CHECK-NEXT: %3 = xla.constant dense<4> : tensor<i32>
// CHECK-NEXT: func.return %0, %2, %3 : tensor<1xi32>, tensor<5x4xi32>, tensor<i32>
func.func @iotas(%x: tensor<?x4xf32>) -> (tensor<1xi32>, tensor<5x4xi32>, tensor<i32>) {
  %0 = xla.iota dim = 0 : tensor<1xi32>
  %1 = xla.iota dim = 1 : tensor<5x4xi32>
  %2 = xla.get_dimension_size %x, dim = 1 : (tensor<?x4xf32>) -> tensor<i32>
  func.return %0, %1, %2 : tensor<1xi32>, tensor<5x4xi32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @shapes_of_splats
// CHECK-NEXT: %0 = xla.constant dense<1.500000e+00> : tensor<3x2xf32>
// CHECK-NEXT: %1 = xla.constant dense<1.500000e+00> : tensor<6xf32>
// CHECK-NEXT: %2 = xla.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-NEXT: func.return %0, %1, %2 : tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>
func.func @shapes_of_splats() -> (tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %c = xla.constant dense<1.5> : tensor<2x3xf32>
  %0 = xla.transpose %c, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = xla.reshape %c : (tensor<2x3xf32>) -> tensor<6xf32>
  %2 = xla.reverse %c, dims = [0] : tensor<2x3xf32>
  func.return %0, %1, %2 : tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>
}

