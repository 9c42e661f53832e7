// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @constant_i64
func.func @constant_i64() -> tensor<2xi64> {
  // CHECK: %{{.*}} = xla.constant dense<[1, 2]> : tensor<2xi64>
  %0 = xla.constant dense<[1, 2]> : tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// CHECK-LABEL: func.func @constant_splat
func.func @constant_splat() -> tensor<2x3xf32> {
  // CHECK: xla.constant dense<1.500000e+00> : tensor<2x3xf32>
  %0 = xla.constant dense<1.5> : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @constant_scalar
func.func @constant_scalar() -> tensor<i32> {
  // CHECK: xla.constant dense<-7> : tensor<i32>
  %0 = xla.constant dense<-7> : tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @constant_pred
func.func @constant_pred() -> tensor<2xi1> {
  // CHECK: xla.constant dense<[true, false]> : tensor<2xi1>
  %0 = xla.constant dense<[true, false]> : tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @constant_unsigned
func.func @constant_unsigned() -> tensor<3xui8> {
  // CHECK: xla.constant dense<[0, 16, 255]> : tensor<3xui8>
  %0 = xla.constant dense<[0, 16, 255]> : tensor<3xui8>
  func.return %0 : tensor<3xui8>
}

// CHECK-LABEL: func.func @constant_small_ints
func.func @constant_small_ints() -> (tensor<4xi2>, tensor<3xui4>) {
  // CHECK: xla.constant dense<[-2, -1, 0, 1]> : tensor<4xi2>
  // CHECK: xla.constant dense<[0, 8, 15]> : tensor<3xui4>
  %0 = xla.constant dense<[-2, -1, 0, 1]> : tensor<4xi2>
  %1 = xla.constant dense<[0, 8, 15]> : tensor<3xui4>
  func.return %0, %1 : tensor<4xi2>, tensor<3xui4>
}

// CHECK-LABEL: func.func @constant_bf16
func.func @constant_bf16() -> tensor<2xbf16> {
  // CHECK: xla.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xbf16>
  %0 = xla.constant dense<[1.0, -2.5]> : tensor<2xbf16>
  func.return %0 : tensor<2xbf16>
}

// CHECK-LABEL: func.func @constant_complex
func.func @constant_complex() -> tensor<2xcomplex<f64>> {
  // CHECK: xla.constant dense<[(1.500000e+00,2.500000e+00), (7.500000e+00,5.500000e+00)]> : tensor<2xcomplex<f64>>
  %0 = xla.constant dense<[(1.5, 2.5), (7.5, 5.5)]> : tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}

// CHECK-LABEL: func.func @constant_2d
func.func @constant_2d() -> tensor<2x2xi32> {
  // CHECK: xla.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = xla.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// CHECK-LABEL: func.func @constant_empty
func.func @constant_empty() -> tensor<0xf32> {
  // CHECK: xla.constant dense<> : tensor<0xf32>
  %0 = xla.constant dense<[]> : tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

// CHECK-LABEL: func.func @constant_generic
func.func @constant_generic() -> tensor<2xi32> {
  // CHECK: xla.constant dense<[3, 4]> : tensor<2xi32>
  %0 = "xla.constant"() {value = dense<[3, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @constant_extra_attr
func.func @constant_extra_attr() -> tensor<i32> {
  // CHECK: xla.constant {note = "x"} dense<0> : tensor<i32>
  %0 = xla.constant {note = "x"} dense<0> : tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @iota_1d
func.func @iota_1d() -> tensor<4xi32> {
  // CHECK: xla.iota dim = 0 : tensor<4xi32>
  %0 = xla.iota dim = 0 : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @iota_2d
func.func @iota_2d() -> tensor<3x4xf32> {
  // CHECK: xla.iota dim = 1 : tensor<3x4xf32>
  %0 = xla.iota dim = 1 : tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @iota_unsigned
func.func @iota_unsigned() -> tensor<2x3x2xui64> {
  // CHECK: xla.iota dim = 2 : tensor<2x3x2xui64>
  %0 = xla.iota dim = 2 : tensor<2x3x2xui64>
  func.return %0 : tensor<2x3x2xui64>
}

// CHECK-LABEL: func.func @iota_complex
func.func @iota_complex() -> tensor<3xcomplex<f32>> {
  // CHECK: xla.iota dim = 0 : tensor<3xcomplex<f32>>
  %0 = xla.iota dim = 0 : tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// CHECK-LABEL: func.func @iota_generic
func.func @iota_generic() -> tensor<2x5xi8> {
  // CHECK: xla.iota dim = 1 : tensor<2x5xi8>
  %0 = "xla.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x5xi8>
  func.return %0 : tensor<2x5xi8>
}

// Hexadecimal elements of float literals are bit patterns (inf, NaN, denormals).
// CHECK-LABEL: func.func @constant_hex_floats
func.func @constant_hex_floats() -> (tensor<3xf32>, tensor<f16>, tensor<complex<f64>>) {
  // CHECK: xla.constant dense<[0x7F800000, 1.401300e-45, 0xFF800000]> : tensor<3xf32>
  // CHECK: xla.constant dense<0x7C00> : tensor<f16>
  // CHECK: xla.constant dense<(0x7FF0000000000001,0.000000e+00)> : tensor<complex<f64>>
  %0 = xla.constant dense<[0x7F800000, 0x00000001, 0xFF800000]> : tensor<3xf32>
  %1 = xla.constant dense<0x7C00> : tensor<f16>
  %2 = xla.constant dense<(0x7FF0000000000001, 0x0000000000000000)> : tensor<complex<f64>>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<f16>, tensor<complex<f64>>
}

// Values round-trip bit for bit: -0.0 beside 0.0 is no splat, a signalling NaN keeps its
// payload, and a splat stays one element however large its type (issue 17).
// CHECK-LABEL: func.func @constant_exact_bits
func.func @constant_exact_bits() -> (tensor<2xf32>, tensor<f32>, tensor<2x2xf32>, tensor<134217728xi8>) {
  // CHECK: xla.constant dense<[-0.000000e+00, 0.000000e+00]> : tensor<2xf32>
  // CHECK: xla.constant dense<0x7F800001> : tensor<f32>
  // CHECK: xla.constant dense<0x7F800001> : tensor<2x2xf32>
  // CHECK: xla.constant dense<0> : tensor<134217728xi8>
  %0 = xla.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %1 = xla.constant dense<0x7F800001> : tensor<f32>
  %2 = xla.constant dense<0x7F800001> : tensor<2x2xf32>
  %3 = xla.constant dense<0> : tensor<134217728xi8>
  func.return %0, %1, %2, %3 : tensor<2xf32>, tensor<f32>, tensor<2x2xf32>, tensor<134217728xi8>
}
