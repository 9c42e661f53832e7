// RUN: xla-opt %s -p xla-decompose-batch-norm | FileCheck %s

// Training, NHWC (feature_index = 3): moments over dimensions 0, 1, 2 with N = 2*3*4 = 24,
// the biased variance of the centered operand, then the normalization.
// CHECK-LABEL: func.func @training_nhwc
// CHECK-NEXT:    %[[N:.*]] = xla.constant dense<2.400000e+01> : tensor<5xf32>
// CHECK-NEXT:    %[[Z:.*]] = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = xla.reduce(%x init: %[[Z]]) applies xla.add across dimensions = [0, 1, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:    %[[MEAN:.*]] = xla.divide %[[S]], %[[N]] : tensor<5xf32>
// CHECK-NEXT:    %[[MB:.*]] = xla.broadcast_in_dim %[[MEAN]], dims = [3] : (tensor<5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[C:.*]] = xla.subtract %x, %[[MB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SQ:.*]] = xla.multiply %[[C]], %[[C]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SS:.*]] = xla.reduce(%[[SQ]] init: %[[Z]]) applies xla.add across dimensions = [0, 1, 2] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT:    %[[VAR:.*]] = xla.divide %[[SS]], %[[N]] : tensor<5xf32>
// CHECK-NEXT:    %[[EPS:.*]] = xla.constant dense<1.000000e-03> : tensor<5xf32>
// CHECK-NEXT:    %[[VE:.*]] = xla.add %[[VAR]], %[[EPS]] : tensor<5xf32>
// CHECK-NEXT:    %[[INV:.*]] = xla.rsqrt %[[VE]] : tensor<5xf32>
// CHECK-NEXT:    %[[INVB:.*]] = xla.broadcast_in_dim %[[INV]], dims = [3] : (tensor<5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[NORM:.*]] = xla.multiply %[[C]], %[[INVB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SB:.*]] = xla.broadcast_in_dim %scale, dims = [3] : (tensor<5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SCALED:.*]] = xla.multiply %[[NORM]], %[[SB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[OB:.*]] = xla.broadcast_in_dim %offset, dims = [3] : (tensor<5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[Y:.*]] = xla.add %[[SCALED]], %[[OB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    func.return %[[Y]], %[[MEAN]], %[[VAR]] : tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>
func.func @training_nhwc(%x: tensor<2x3x4x5xf32>, %scale: tensor<5xf32>, %offset: tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %0:3 = "xla.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-03 : f32, feature_index = 3 : i64} : (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<5xf32>, tensor<5xf32>
}

// Training, NCHW (feature_index = 1): reductions over 0, 2, 3 (N = 2*4*5 = 40),
// broadcasts along dimension 1.
// CHECK-LABEL: func.func @training_nchw
// CHECK:         xla.constant dense<4.000000e+01> : tensor<3xf64>
// CHECK:         xla.reduce(%x init: %{{.*}}) applies xla.add across dimensions = [0, 2, 3] : (tensor<2x3x4x5xf64>, tensor<f64>) -> tensor<3xf64>
// CHECK:         xla.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf64>) -> tensor<2x3x4x5xf64>
// CHECK-NOT:     xla.batch_norm
// CHECK:         func.return
func.func @training_nchw(%x: tensor<2x3x4x5xf64>, %scale: tensor<3xf64>, %offset: tensor<3xf64>) -> (tensor<2x3x4x5xf64>, tensor<3xf64>, tensor<3xf64>) {
  %0:3 = "xla.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<2x3x4x5xf64>, tensor<3xf64>, tensor<3xf64>)
  func.return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf64>, tensor<3xf64>, tensor<3xf64>
}

// Inference, NCHW: the given mean and variance; no reductions and no element count.
// CHECK-LABEL: func.func @inference_nchw
// CHECK-NEXT:    %[[MB:.*]] = xla.broadcast_in_dim %mean, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[C:.*]] = xla.subtract %x, %[[MB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[EPS:.*]] = xla.constant dense<1.000000e-03> : tensor<3xf32>
// CHECK-NEXT:    %[[VE:.*]] = xla.add %var, %[[EPS]] : tensor<3xf32>
// CHECK-NEXT:    %[[INV:.*]] = xla.rsqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[INVB:.*]] = xla.broadcast_in_dim %[[INV]], dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[NORM:.*]] = xla.multiply %[[C]], %[[INVB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SB:.*]] = xla.broadcast_in_dim %scale, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SCALED:.*]] = xla.multiply %[[NORM]], %[[SB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[OB:.*]] = xla.broadcast_in_dim %offset, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[Y:.*]] = xla.add %[[SCALED]], %[[OB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<2x3x4x5xf32>
func.func @inference_nchw(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = "xla.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  func.return %0 : tensor<2x3x4x5xf32>
}

// Grad, NCHW: grad_offset = sum(dy); grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps);
// c = sum(dy * (x - mean)) / (var + eps) / N;
// grad_operand = scale * rsqrt(var + eps) * (dy - sum(dy) / N - c * (x - mean)).
// CHECK-LABEL: func.func @grad_nchw
// CHECK-NEXT:    %[[N:.*]] = xla.constant dense<4.000000e+01> : tensor<3xf32>
// CHECK-NEXT:    %[[MB:.*]] = xla.broadcast_in_dim %mean, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[C:.*]] = xla.subtract %x, %[[MB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[EPS:.*]] = xla.constant dense<1.000000e-03> : tensor<3xf32>
// CHECK-NEXT:    %[[VE:.*]] = xla.add %var, %[[EPS]] : tensor<3xf32>
// CHECK-NEXT:    %[[INV:.*]] = xla.rsqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[Z:.*]] = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[GOFF:.*]] = xla.reduce(%dy init: %[[Z]]) applies xla.add across dimensions = [0, 2, 3] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[DYC:.*]] = xla.multiply %dy, %[[C]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[SDYC:.*]] = xla.reduce(%[[DYC]] init: %[[Z]]) applies xla.add across dimensions = [0, 2, 3] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[GSCALE:.*]] = xla.multiply %[[SDYC]], %[[INV]] : tensor<3xf32>
// CHECK-NEXT:    %[[C1:.*]] = xla.divide %[[SDYC]], %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[CL:.*]] = xla.divide %[[C1]], %[[N]] : tensor<3xf32>
// CHECK-NEXT:    %[[MDY:.*]] = xla.divide %[[GOFF]], %[[N]] : tensor<3xf32>
// CHECK-NEXT:    %[[MDYB:.*]] = xla.broadcast_in_dim %[[MDY]], dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[T1:.*]] = xla.subtract %dy, %[[MDYB]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[CLB:.*]] = xla.broadcast_in_dim %[[CL]], dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[T2:.*]] = xla.multiply %[[CLB]], %[[C]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[T3:.*]] = xla.subtract %[[T1]], %[[T2]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[K:.*]] = xla.multiply %scale, %[[INV]] : tensor<3xf32>
// CHECK-NEXT:    %[[KB:.*]] = xla.broadcast_in_dim %[[K]], dims = [1] : (tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %[[GX:.*]] = xla.multiply %[[KB]], %[[T3]] : tensor<2x3x4x5xf32>
// CHECK-NEXT:    func.return %[[GX]], %[[GSCALE]], %[[GOFF]] : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
func.func @grad_nchw(%x: tensor<2x3x4x5xf32>, %scale: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %dy: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "xla.batch_norm_grad"(%x, %scale, %mean, %var, %dy) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// Grad, 2-D bf16 with the feature dimension last: constants in the element type.
// CHECK-LABEL: func.func @grad_bf16
// CHECK:         xla.constant dense<4.000000e+00> : tensor<2xbf16>
// CHECK:         xla.constant dense<{{.*}}> : tensor<2xbf16>
// CHECK:         xla.constant dense<0.000000e+00> : tensor<bf16>
// CHECK:         xla.reduce(%dy init: %{{.*}}) applies xla.add across dimensions = [0] : (tensor<4x2xbf16>, tensor<bf16>) -> tensor<2xbf16>
// CHECK-NOT:     xla.batch_norm
// CHECK:         func.return
func.func @grad_bf16(%x: tensor<4x2xbf16>, %s: tensor<2xbf16>, %dy: tensor<4x2xbf16>) -> (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>) {
  %0:3 = "xla.batch_norm_grad"(%x, %s, %s, %s, %dy) {epsilon = 1.0e-05 : f32, feature_index = 1 : i64} : (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<4x2xbf16>) -> (tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  func.return %0#0, %0#1, %0#2 : tensor<4x2xbf16>, tensor<2xbf16>, tensor<2xbf16>
}
