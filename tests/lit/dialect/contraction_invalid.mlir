// RUN: xla-opt %s --split-input-file --verify-diagnostics
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{lhs must be a vector or a matrix (rank 1 or 2), got rank 3}}
  %0 = xla.dot %a, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{rhs must be a vector or a matrix (rank 1 or 2), got rank 0}}
  %0 = xla.dot %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{contracting dimension sizes differ: lhs dimension 1 has size 3, rhs dimension 0 has size 4}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{result type tensor<2x4xf32> does not match the inferred tensor<2x5xf32>}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xi32>) {
  // expected-error @+1 {{lhs element type f32 and rhs element type i32 must be of the same kind}}
  %0 = xla.dot %a, %b : (tensor<2x3xf32>, tensor<3x5xi32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xi8>, %b: tensor<3x5xi8>) {
  // expected-error @+1 {{result element type f32 must be integer like the operands' i8}}
  %0 = xla.dot %a, %b : (tensor<2x3xi8>, tensor<3x5xi8>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{precision_config has 3 entries; expected at most 2 (lhs, rhs)}}
  %0 = xla.dot %a, %b, precision = [DEFAULT, DEFAULT, HIGH] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{Expected `DEFAULT`, `HIGH`, or `HIGHEST`}}
  %0 = xla.dot %a, %b, precision = [FAST] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{result element type f32 must be complex}}
  %0 = xla.dot %a, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_batching_dimensions [0] and rhs_batching_dimensions [] must have the same number of dimensions}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_contracting_dimensions [2, 1] and rhs_contracting_dimensions [1] must have the same number of dimensions}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 1] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_batching_dimensions [3] has 3, out of range [0, 3)}}
  %0 = xla.dot_general %a, %b, batching_dims = [3] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{rhs_batching_dimensions [-1] has -1, out of range [0, 3)}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [-1], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_contracting_dimensions [5] has 5, out of range [0, 3)}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [5] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{rhs_contracting_dimensions [3] has 3, out of range [0, 3)}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [3] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_batching_dimensions [0, 0] has repeated dimensions}}
  %0 = xla.dot_general %a, %b, batching_dims = [0, 0] x [0, 1], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_contracting_dimensions [2, 2] has repeated dimensions}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 2] x [1, 2] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{lhs_batching_dimensions [0] and lhs_contracting_dimensions [0] share dimensions [0]}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{rhs_batching_dimensions [0] and rhs_contracting_dimensions [0] share dimensions [0]}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{batching dimension sizes differ: lhs dimension 1 has size 3, rhs dimension 0 has size 2}}
  %0 = xla.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{contracting dimension sizes differ: lhs dimension 1 has size 3, rhs dimension 1 has size 4}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{result type tensor<2x5x3xf32> does not match the inferred tensor<2x3x5xf32>}}
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{lhs element type f32 and rhs element type complex<f32> must be of the same kind}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xcomplex<f32>>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{result element type i32 must be floating-point like the operands' f32}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<i32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{precision_config has 3 entries}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{algorithm lhs_component_count is 0; it must be at least 1}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 0, rhs_component_count = 1, num_primitive_operations = 1> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{algorithm rhs_precision_type must be a type}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{unexpected 'transpose'; expected batching_dims, contracting_dims, precision or algorithm}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], transpose = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{dot_dimension_numbers}}
  %0 = "xla.dot_general"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2xf32>) {
  // expected-error @+1 {{lhs rank 4 and rhs rank 3 differ; both must be rank n+2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x2xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<4xf32>, %rhs: tensor<4xf32>) {
  // expected-error @+1 {{lhs must have rank at least 2 (batch and feature), got rank 1}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<raw input_batch_dimension = 0, input_feature_dimension = 0>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{window_strides has 1 entries; expected one per spatial dimension (2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{window_strides [1, 0] has 0; each must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{padding has 1 (low, high) pairs; expected one per spatial dimension (2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0]]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{lhs_dilation has 3 entries; expected one per spatial dimension (2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [1, 1, 1]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{lhs_dilation [0, 1] has 0; each must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [0, 1]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{rhs_dilation has 1 entries; expected one per spatial dimension (2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [1]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{rhs_dilation [1, -2] has -2; each must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [1, -2]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{window_reversal has 1 entries; expected one per spatial dimension (2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [false]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{feature_group_count is 0; it must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {feature_group_count = 0 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{batch_group_count is -1; it must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = -1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<2x4x4x2xf32>, %rhs: tensor<3x3x1x4xf32>) {
  // expected-error @+1 {{feature_group_count (2) and batch_group_count (2) cannot both exceed 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers input_spatial_dimensions [1] has 1 entries; expected 2 (operand rank 4 minus 2)}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers kernel_spatial_dimensions [0] has 1 entries; expected 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers output_spatial_dimensions [1, 2, 3] has 3 entries; expected 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, 2, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers input dimensions [batch, spatial..., feature] [0, 1, 2, 0] has repeated dimensions}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers kernel dimensions [spatial..., input feature, output feature] [0, 1, 3, 3] has repeated dimensions}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 3, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{dimension_numbers output dimensions [batch, spatial..., feature] [0, 1, 2, 1] has repeated dimensions}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<3x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{lhs batch dimension size 3 is not divisible by batch_group_count 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64} : (tensor<3x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x3xf32>, %rhs: tensor<3x3x1x4xf32>) {
  // expected-error @+1 {{lhs feature dimension size 3 is not divisible by feature_group_count 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {feature_group_count = 2 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x4xf32>, %rhs: tensor<3x3x4x4xf32>) {
  // expected-error @+1 {{rhs input feature dimension size 4 must equal the lhs feature dimension size 4 divided by feature_group_count 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{rhs input feature dimension size 3 must equal the lhs feature dimension size 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x3x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<2x4x4x2xf32>, %rhs: tensor<3x3x2x3xf32>) {
  // expected-error @+1 {{rhs output feature dimension size 3 is not divisible by batch_group_count 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64} : (tensor<2x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x4xf32>, %rhs: tensor<3x3x2x3xf32>) {
  // expected-error @+1 {{rhs output feature dimension size 3 is not divisible by feature_group_count 2}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {feature_group_count = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<0x3x2x4xf32>) {
  // expected-error @+1 {{window size (rhs spatial dimension 0, size 0) must be at least 1}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<0x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{result type tensor<1x2x2x4xf32> does not match the inferred tensor<1x1x1x4xf32>}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{result element type i32 must be floating-point like the operands' f32}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xi32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{precision_config has 3 entries}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {precision_config = [#xla<precision DEFAULT>, #xla<precision DEFAULT>, #xla<precision DEFAULT>]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{each padding entry must be a [low, high] pair}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0, 1], [0, 0]]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{padding must be an integer tensor of shape [spatial dims, 2], got tensor<2x3xi64>}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<0> : tensor<2x3xi64>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{feature_group_count must be an i64 integer}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i32, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{window_reversal must be an array<i1: ...> of booleans}}
  %0 = "xla.convolution"(%lhs, %rhs) {dimension_numbers = #xla.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, window_reversal = array<i64: 0, 0>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{unexpected 'stride' in window}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{unexpected 'pad' in window}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = SAME, pad = [[0, 0], [0, 0]]}  : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x2x2x4xf32>
  func.return
}

// -----

func.func @f(%lhs: tensor<1x?x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{cannot resolve pad = SAME: SAME padding needs static spatial sizes}}
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = SAME}  : (tensor<1x?x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x?x4x4xf32>
  func.return
}

// -----

// As StableHLO: only the algorithms some hardware implements (issue 17).
func.func @dot_algorithm_unknown(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{dot algorithm not known to be supported on any hardware: {lhs: f32, rhs: f32, accumulation: f32, lhs_components: 1, rhs_components: 1, num_primitive_operations: 2}}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 2> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @dot_algorithm_with_precision(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{must specify DEFAULT precision_config when algorithm is set}}
  %0 = xla.dot_general %a, %b, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 6> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Imprecise accumulation is known only for f8 x f8 -> f32 (StableHLO's rule).
func.func @dot_algorithm_imprecise_f32(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{dot algorithm not known to be supported on any hardware: {lhs: f32, rhs: f32, accumulation: f32, lhs_components: 1, rhs_components: 1, num_primitive_operations: 1, allow_imprecise_accumulation: true}}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>}> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
