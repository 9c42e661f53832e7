// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @slice_strided
func.func @slice_strided(%x: tensor<3x6xi64>) -> tensor<2x2xi64> {
  // CHECK: %{{.*}} = xla.slice %{{.*}} [0:3:2, 2:6:3] : (tensor<3x6xi64>) -> tensor<2x2xi64>
  %0 = xla.slice %x [0:3:2, 2:6:3] : (tensor<3x6xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @slice_unit_stride
func.func @slice_unit_stride(%x: tensor<4x3xf32>) -> tensor<2x2xf32> {
  // CHECK: xla.slice %{{.*}} [2:4, 1:3] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  %0 = xla.slice %x [2:4, 1:3] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @slice_generic
func.func @slice_generic(%x: tensor<3x6xi64>) -> tensor<2x2xi64> {
  // CHECK: xla.slice %{{.*}} [0:3:2, 2:6:3] : (tensor<3x6xi64>) -> tensor<2x2xi64>
  %0 = "xla.slice"(%x) {
    start_indices = array<i64: 0, 2>,
    limit_indices = array<i64: 3, 6>,
    strides = array<i64: 2, 3>
  } : (tensor<3x6xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @slice_empty_and_scalar
func.func @slice_empty_and_scalar(%x: tensor<5xf32>, %s: tensor<f32>) -> (tensor<0xf32>, tensor<f32>) {
  // CHECK: xla.slice %{{.*}} [3:3] : (tensor<5xf32>) -> tensor<0xf32>
  %0 = xla.slice %x [3:3] : (tensor<5xf32>) -> tensor<0xf32>
  // CHECK: xla.slice %{{.*}} [] : (tensor<f32>) -> tensor<f32>
  %1 = xla.slice %s [] : (tensor<f32>) -> tensor<f32>
  func.return %0, %1 : tensor<0xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @dynamic_slice
func.func @dynamic_slice(%x: tensor<4x4xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<2x2xf32> {
  // CHECK: xla.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  %0 = xla.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @dynamic_slice_generic
func.func @dynamic_slice_generic(%x: tensor<3x3xi64>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<3x3xi64> {
  // CHECK: xla.dynamic_slice %{{.*}}, %{{.*}}, %{{.*}}, sizes = [3, 3] : (tensor<3x3xi64>, tensor<i32>, tensor<i32>) -> tensor<3x3xi64>
  %0 = "xla.dynamic_slice"(%x, %i, %j) {
    slice_sizes = array<i64: 3, 3>
  } : (tensor<3x3xi64>, tensor<i32>, tensor<i32>) -> tensor<3x3xi64>
  func.return %0 : tensor<3x3xi64>
}

// CHECK-LABEL: func.func @dynamic_slice_scalar
func.func @dynamic_slice_scalar(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: xla.dynamic_slice %{{.*}}, sizes = [] : (tensor<f32>) -> tensor<f32>
  %0 = xla.dynamic_slice %x, sizes = [] : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dynamic_update_slice
func.func @dynamic_update_slice(%x: tensor<4x4xi64>, %u: tensor<2x3xi64>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<4x4xi64> {
  // CHECK: xla.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x4xi64>, tensor<2x3xi64>, tensor<i64>, tensor<i64>) -> tensor<4x4xi64>
  %0 = xla.dynamic_update_slice %x, %u, %i, %j : (tensor<4x4xi64>, tensor<2x3xi64>, tensor<i64>, tensor<i64>) -> tensor<4x4xi64>
  func.return %0 : tensor<4x4xi64>
}

// CHECK-LABEL: func.func @dynamic_update_slice_generic
func.func @dynamic_update_slice_generic(%x: tensor<5xf32>, %u: tensor<2xf32>, %i: tensor<ui32>) -> tensor<5xf32> {
  // CHECK: xla.dynamic_update_slice %{{.*}}, %{{.*}}, %{{.*}} : (tensor<5xf32>, tensor<2xf32>, tensor<ui32>) -> tensor<5xf32>
  %0 = "xla.dynamic_update_slice"(%x, %u, %i) : (tensor<5xf32>, tensor<2xf32>, tensor<ui32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<5xf32> {
  // CHECK: xla.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @concatenate_three
func.func @concatenate_three(%a: tensor<3x2xi64>, %b: tensor<3x1xi64>, %c: tensor<3x4xi64>) -> tensor<3x7xi64> {
  // CHECK: xla.concatenate %{{.*}}, %{{.*}}, %{{.*}}, dim = 1 : (tensor<3x2xi64>, tensor<3x1xi64>, tensor<3x4xi64>) -> tensor<3x7xi64>
  %0 = xla.concatenate %a, %b, %c, dim = 1 : (tensor<3x2xi64>, tensor<3x1xi64>, tensor<3x4xi64>) -> tensor<3x7xi64>
  func.return %0 : tensor<3x7xi64>
}

// CHECK-LABEL: func.func @concatenate_single_generic
func.func @concatenate_single_generic(%a: tensor<3x2xi64>) -> tensor<3x2xi64> {
  // CHECK: xla.concatenate %{{.*}}, dim = 0 : (tensor<3x2xi64>) -> tensor<3x2xi64>
  %0 = "xla.concatenate"(%a) {dimension = 0 : i64} : (tensor<3x2xi64>) -> tensor<3x2xi64>
  func.return %0 : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<5x4xi64>, %v: tensor<i64>) -> tensor<7x5xi64> {
  // CHECK: xla.pad %{{.*}}, %{{.*}}, low = [1, -1], high = [1, -1], interior = [0, 1] : (tensor<5x4xi64>, tensor<i64>) -> tensor<7x5xi64>
  %0 = xla.pad %x, %v, low = [1, -1], high = [1, -1], interior = [0, 1] : (tensor<5x4xi64>, tensor<i64>) -> tensor<7x5xi64>
  func.return %0 : tensor<7x5xi64>
}

// CHECK-LABEL: func.func @pad_generic
func.func @pad_generic(%x: tensor<3xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  // CHECK: xla.pad %{{.*}}, %{{.*}}, low = [0], high = [1], interior = [2] : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  %0 = "xla.pad"(%x, %v) {
    edge_padding_low = array<i64: 0>,
    edge_padding_high = array<i64: 1>,
    interior_padding = array<i64: 2>
  } : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @pad_to_empty
func.func @pad_to_empty(%x: tensor<2xf32>, %v: tensor<f32>) -> tensor<0xf32> {
  // CHECK: xla.pad %{{.*}}, %{{.*}}, low = [-1], high = [-1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  %0 = xla.pad %x, %v, low = [-1], high = [-1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

// CHECK-LABEL: func.func @reverse
func.func @reverse(%x: tensor<3x2xi64>) -> tensor<3x2xi64> {
  // CHECK: xla.reverse %{{.*}}, dims = [1, 0] : tensor<3x2xi64>
  %0 = xla.reverse %x, dims = [1, 0] : tensor<3x2xi64>
  func.return %0 : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @reverse_generic
func.func @reverse_generic(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: xla.reverse %{{.*}}, dims = [0] : tensor<3x2xf32>
  %0 = "xla.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @extra_attributes
func.func @extra_attributes(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // CHECK: xla.reverse %{{.*}}, dims = [] {tag = "keep"} : tensor<3x2xf32>
  %0 = xla.reverse %x, dims = [] {tag = "keep"} : tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
