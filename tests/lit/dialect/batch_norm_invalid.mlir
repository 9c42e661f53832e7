// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{feature_index 2 is out of range [0, 2) of operand tensor<2x3xf32>}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{feature_index -1 is out of range [0, 2)}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = -1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{epsilon must be an f32 float, got f64}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f64, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{feature_index must be an i64 integer}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i32} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xi32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{operand element type i32 is not floating-point}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>) -> (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf64>) {
  // expected-error @+1 {{scale element type f64 differs from operand element type f32}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<4xf32>) {
  // expected-error @+1 {{offset size 4 must equal the feature dimension size 3 (operand dimension 1)}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<1x3xf32>) {
  // expected-error @+1 {{scale must be 1-D, got shape [1, 3]}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{result #1 type tensor<2xf32> does not match the inferred tensor<3xf32>}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<f32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{operand tensor<f32> must have rank at least 1}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 0 : i64} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<f32>, tensor<1xf32>, tensor<1xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{epsilon}}
  %0:3 = "xla.batch_norm_training"(%x, %s, %s) {feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{mean size 2 must equal the feature dimension size 3}}
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %m, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %v: tensor<3xf16>) {
  // expected-error @+1 {{variance element type f16 differs from operand element type f32}}
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %v) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{result type tensor<3x2xf32> does not match the inferred tensor<2x3xf32>}}
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{feature_index 5 is out of range [0, 2)}}
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 5 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<3x2xf32>) {
  // expected-error @+1 {{grad_output shape [3, 2] must equal operand shape [2, 3]}}
  %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<2x3xf64>) {
  // expected-error @+1 {{grad_output element type f64 differs from operand element type f32}}
  %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %g) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf64>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{mean size 4 must equal the feature dimension size 3}}
  %0:3 = "xla.batch_norm_grad"(%x, %s, %m, %s, %x) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{result #2 type tensor<2xf32> does not match the inferred tensor<3xf32>}}
  %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %x) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>)
  func.return
}
