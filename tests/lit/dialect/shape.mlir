// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: %{{.*}} = xla.broadcast %{{.*}}, sizes = [2, 3] : (tensor<4xf32>) -> tensor<2x3x4xf32>
  %0 = xla.broadcast %x, sizes = [2, 3] : (tensor<4xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @broadcast_scalar
func.func @broadcast_scalar(%x: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: xla.broadcast %{{.*}}, sizes = [2, 3] : (tensor<f32>) -> tensor<2x3xf32>
  %0 = "xla.broadcast"(%x) {broadcast_sizes = array<i64: 2, 3>} : (tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_none
func.func @broadcast_none(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: xla.broadcast %{{.*}}, sizes = [] : (tensor<4xi32>) -> tensor<4xi32>
  %0 = xla.broadcast %x, sizes = [] : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @broadcast_in_dim
func.func @broadcast_in_dim(%x: tensor<2xf32>) -> tensor<2x3xf32> {
  // CHECK: xla.broadcast_in_dim %{{.*}}, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_degenerate
func.func @broadcast_in_dim_degenerate(%x: tensor<3x1xi64>) -> tensor<3x2x2xi64> {
  // CHECK: xla.broadcast_in_dim %{{.*}}, dims = [0, 2] : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
  %0 = "xla.broadcast_in_dim"(%x) {
    broadcast_dimensions = array<i64: 0, 2>
  } : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
  func.return %0 : tensor<3x2x2xi64>
}

// CHECK-LABEL: func.func @broadcast_in_dim_unsorted
func.func @broadcast_in_dim_unsorted(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  // CHECK: xla.broadcast_in_dim %{{.*}}, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %0 = xla.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}

// CHECK-LABEL: func.func @broadcast_in_dim_scalar
func.func @broadcast_in_dim_scalar(%x: tensor<f32>) -> tensor<2x2xf32> {
  // CHECK: xla.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %0 = xla.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<6xi32>) -> tensor<2x3xi32> {
  // CHECK: xla.reshape %{{.*}} : (tensor<6xi32>) -> tensor<2x3xi32>
  %0 = xla.reshape %x : (tensor<6xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @reshape_to_scalar
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  // CHECK: xla.reshape %{{.*}} : (tensor<1x1xf32>) -> tensor<f32>
  %0 = "xla.reshape"(%x) : (tensor<1x1xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reshape_dimensions
func.func @reshape_dimensions(%x: tensor<4x2x3xf32>) -> tensor<2x6x2xf32> {
  // CHECK: xla.reshape %{{.*}}, dimensions = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x6x2xf32>
  %0 = xla.reshape %x, dimensions = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x6x2xf32>
  func.return %0 : tensor<2x6x2xf32>
}

// CHECK-LABEL: func.func @collapse
func.func @collapse(%x: tensor<4x2x3xf32>) -> (tensor<24xf32>, tensor<8x3xf32>, tensor<4x6xf32>) {
  // CHECK: xla.collapse %{{.*}}, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  // CHECK: xla.collapse %{{.*}}, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  // CHECK: xla.collapse %{{.*}}, dimensions = [1, 2] : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  %0 = xla.collapse %x, dimensions = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %1 = xla.collapse %x, dimensions = [0, 1] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
  %2 = "xla.collapse"(%x) <{dimensions = array<i64: 1, 2>}> : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  func.return %0, %1, %2 : tensor<24xf32>, tensor<8x3xf32>, tensor<4x6xf32>
}

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: xla.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = xla.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @transpose_generic
func.func @transpose_generic(%x: tensor<2x3x2xi32>) -> tensor<2x3x2xi32> {
  // CHECK: xla.transpose %{{.*}}, dims = [2, 1, 0] : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
  %0 = "xla.transpose"(%x) {permutation = array<i64: 2,1,0>} : (tensor<2x3x2xi32>) -> tensor<2x3x2xi32>
  func.return %0 : tensor<2x3x2xi32>
}

// CHECK-LABEL: func.func @transpose_dynamic
func.func @transpose_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  // CHECK: xla.transpose %{{.*}}, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>
  %0 = xla.transpose %x, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>
  func.return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @get_dimension_size
func.func @get_dimension_size(%x: tensor<2x3xi64>) -> tensor<i32> {
  // CHECK: xla.get_dimension_size %{{.*}}, dim = 1 : (tensor<2x3xi64>) -> tensor<i32>
  %0 = xla.get_dimension_size %x, dim = 1 : (tensor<2x3xi64>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @set_dimension_size
func.func @set_dimension_size(%x: tensor<10xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  // CHECK: xla.set_dimension_size %{{.*}}, %{{.*}}, dim = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<?xf32>
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @set_dimension_size_generic
func.func @set_dimension_size_generic(%x: tensor<4x5xf32>, %n: tensor<i32>) -> tensor<4x?xf32> {
  // CHECK: xla.set_dimension_size %{{.*}}, %{{.*}}, dim = 1 : (tensor<4x5xf32>, tensor<i32>) -> tensor<4x?xf32>
  %0 = "xla.set_dimension_size"(%x, %n) {dimension = 1 : i64} : (tensor<4x5xf32>, tensor<i32>) -> tensor<4x?xf32>
  func.return %0 : tensor<4x?xf32>
}
