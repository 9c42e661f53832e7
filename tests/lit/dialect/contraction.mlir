// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @dot_vector_vector
// CHECK: %0 = xla.dot %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
func.func @dot_vector_vector(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %0 = xla.dot %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_matrix_vector
// CHECK: %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
func.func @dot_matrix_vector(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @dot_matrix_matrix
// CHECK: %0 = xla.dot %a, %b, precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @dot_matrix_matrix(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = xla.dot %a, %b, precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_generic_spelling
// CHECK: %0 = xla.dot %a, %b, precision = [HIGH, HIGH] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @dot_generic_spelling(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = "xla.dot"(%a, %b) {precision_config = [#xla<precision HIGH>, #xla<precision HIGH>]} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  func.return %0 : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @dot_dynamic
// CHECK: %0 = xla.dot %a, %b : (tensor<?x3xf32>, tensor<3x?xf32>) -> tensor<?x?xf32>
func.func @dot_dynamic(%a: tensor<?x3xf32>, %b: tensor<3x?xf32>) -> tensor<?x?xf32> {
  %0 = xla.dot %a, %b : (tensor<?x3xf32>, tensor<3x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @dot_general_batch
// CHECK: %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
func.func @dot_general_batch(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = xla.dot_general %a, %b,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT]
    : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @dot_general_no_batch
// CHECK: %0 = xla.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
func.func @dot_general_no_batch(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @dot_general_outer
// CHECK: %0 = xla.dot_general %a, %b, contracting_dims = [] x [] : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
func.func @dot_general_outer(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [] x [] : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dot_general_multi
// CHECK: %0 = xla.dot_general %a, %b, batching_dims = [1, 0] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x4x5xf32>, tensor<3x2x5x6xf32>) -> tensor<3x2x4x6xf32>
func.func @dot_general_multi(%a: tensor<2x3x4x5xf32>, %b: tensor<3x2x5x6xf32>) -> tensor<3x2x4x6xf32> {
  %0 = xla.dot_general %a, %b, batching_dims = [1, 0] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x4x5xf32>, tensor<3x2x5x6xf32>) -> tensor<3x2x4x6xf32>
  func.return %0 : tensor<3x2x4x6xf32>
}

// CHECK-LABEL: func.func @dot_general_widening
// CHECK: %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xi8>, tensor<4xi8>) -> tensor<i32>
func.func @dot_general_widening(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<i32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xi8>, tensor<4xi8>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @dot_general_algorithm
// CHECK: %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
func.func @dot_general_algorithm(%a: tensor<2x2x2xf32>, %b: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %0 = xla.dot_general %a, %b,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT],
    algorithm = <
      lhs_precision_type = tf32,
      rhs_precision_type = tf32,
      accumulation_type = f32,
      lhs_component_count = 1,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    > : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  func.return %0 : tensor<2x2x2xf32>
}

// CHECK-LABEL: func.func @dot_general_generic_spelling
// CHECK: %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf64>
func.func @dot_general_generic_spelling(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf64> {
  %0 = "xla.dot_general"(%a, %b) {dot_dimension_numbers = #xla.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf64>
  func.return %0 : tensor<2x3x5xf64>
}

// CHECK-LABEL: func.func @conv_full
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#xla<precision DEFAULT>, #xla<precision DEFAULT>]} : (tensor<1x4x4x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32>
func.func @conv_full(%lhs: tensor<1x4x4x3xf32>, %rhs: tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = xla.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#xla<precision DEFAULT>, #xla<precision DEFAULT>]}
    : (tensor<1x4x4x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32>
  func.return %0 : tensor<1x2x2x8xf32>
}

// CHECK-LABEL: func.func @conv_lhs_dilation
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
func.func @conv_lhs_dilation(%lhs: tensor<1x4x4x1xi8>, %rhs: tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
  func.return %0 : tensor<1x2x2x1xi32>
}

// CHECK-LABEL: func.func @conv_nchw_defaults
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5x5xf32>, tensor<4x3x2x2xf32>) -> tensor<2x4x4x4xf32>
func.func @conv_nchw_defaults(%lhs: tensor<2x3x5x5xf32>, %rhs: tensor<4x3x2x2xf32>) -> tensor<2x4x4x4xf32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1] : (tensor<2x3x5x5xf32>, tensor<4x3x2x2xf32>) -> tensor<2x4x4x4xf32>
  func.return %0 : tensor<2x4x4x4xf32>
}

// CHECK-LABEL: func.func @conv_negative_padding_rhs_dilation
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-1, 2]], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x5x1xf32>
func.func @conv_negative_padding_rhs_dilation(%lhs: tensor<1x8x1xf32>, %rhs: tensor<3x1x1xf32>) -> tensor<1x5x1xf32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-1, 2]], rhs_dilate = [2]} : (tensor<1x8x1xf32>, tensor<3x1x1xf32>) -> tensor<1x5x1xf32>
  func.return %0 : tensor<1x5x1xf32>
}

// CHECK-LABEL: func.func @conv_feature_groups
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f, 1]x[0, i, 1, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x1xi64>, tensor<1x2x1x4xi64>) -> tensor<1x2x1x4xi64>
func.func @conv_feature_groups(%lhs: tensor<1x4x4x1xi64>, %rhs: tensor<1x2x1x4xi64>) -> tensor<1x2x1x4xi64> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f, 1]x[0, i, 1, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x1xi64>, tensor<1x2x1x4xi64>) -> tensor<1x2x1x4xi64>
  func.return %0 : tensor<1x2x1x4xi64>
}

// CHECK-LABEL: func.func @conv_batch_groups
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x3xf32>, tensor<2x3x6xf32>) -> tensor<2x4x6xf32>
func.func @conv_batch_groups(%lhs: tensor<4x5x3xf32>, %rhs: tensor<2x3x6xf32>) -> tensor<2x4x6xf32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x3xf32>, tensor<2x3x6xf32>) -> tensor<2x4x6xf32>
  func.return %0 : tensor<2x4x6xf32>
}

// SAME padding is resolved to explicit padding when parsed: 5 inputs, window 3,
// stride 2 give 3 windows and (1, 1) padding; VALID is no padding.
// CHECK-LABEL: func.func @conv_same_valid
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x3x4x1xf32>
// CHECK: %1 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x2x2x1xf32>
func.func @conv_same_valid(%lhs: tensor<1x5x4x2xf32>, %rhs: tensor<3x3x2x1xf32>) -> tensor<1x3x4x1xf32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = SAME} : (tensor<1x5x4x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x3x4x1xf32>
  %1 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = VALID} : (tensor<1x5x4x2xf32>, tensor<3x3x2x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x3x4x1xf32>
}

// CHECK-LABEL: func.func @conv_generic_spelling
// CHECK: %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x4x2xf32>
func.func @conv_generic_spelling(%lhs: tensor<1x4x2xf32>, %rhs: tensor<3x2x2xf32>) -> tensor<1x4x2xf32> {
  %0 = "xla.convolution"(%lhs, %rhs) {batch_group_count = 1 : i64, dimension_numbers = #xla.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: true>, window_strides = array<i64: 1>} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x4x2xf32>
  func.return %0 : tensor<1x4x2xf32>
}
