// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @batch_norm_training
// CHECK: %0:3 = "xla.batch_norm_training"(%x, %scale, %offset) <{epsilon = 1.000000e-03 : f32, feature_index = 3 : i64}> : (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>)
func.func @batch_norm_training(%x: tensor<2x3x4x5xf32>, %scale: tensor<5xf32>, %offset: tensor<5xf32>) {
  %0:3 = "xla.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-03 : f32, feature_index = 3 : i64} : (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>)
  func.return
}

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 0.000000e+00 : f32, feature_index = 0 : i64}> : (tensor<2x3xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x3xf64>
func.func @batch_norm_inference(%x: tensor<2x3xf64>, %s: tensor<2xf64>) {
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 0.0 : f32, feature_index = 0 : i64}> : (tensor<2x3xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x3xf64>
  func.return
}

// CHECK-LABEL: func.func @batch_norm_grad
// CHECK: %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %g) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<4x2xbf16>) -> (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
func.func @batch_norm_grad(%x: tensor<4x2xbf16>, %s: tensor<2xbf16>, %g: tensor<4x2xbf16>) {
  %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} : (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<4x2xbf16>) -> (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  func.return
}
