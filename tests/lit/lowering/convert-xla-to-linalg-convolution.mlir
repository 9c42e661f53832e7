// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// NHWC x HWIO, two feature groups, stride 2, window dilation 2 along H, padding
// [[1, 0], [0, 1]]: the input is padded with zeros and cut to the 9x8 the windows
// read; groups split the input feature (4 -> 2x2), kernel and output feature
// (6 -> 2x3) dimensions; the output's W (4) is blocked by 2 pixels. Loops:
// (b, oh, ow/2, g, kh, kw, c, ow%2, k) -- the output feature innermost, after the
// reductions.
// CHECK-LABEL: func.func @grouped_strided_dilated
// CHECK:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[FILL:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2x9x8x4xf32>) -> tensor<2x9x8x4xf32>
// CHECK-NEXT: %[[CROP:.*]] = tensor.extract_slice %lhs[0, 0, 0, 0] [2, 8, 8, 4] [1, 1, 1, 1] : tensor<2x9x8x4xf32> to tensor<2x8x8x4xf32>
// CHECK-NEXT: %[[PAD:.*]] = tensor.insert_slice %[[CROP]] into %[[FILL]][0, 1, 0, 0] [2, 8, 8, 4] [1, 1, 1, 1] : tensor<2x8x8x4xf32> into tensor<2x9x8x4xf32>
// CHECK:      %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x4x6xf32>) -> tensor<2x3x4x6xf32>
// CHECK-NEXT: %[[X:.*]] = tensor.expand_shape %[[PAD]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [2, 9, 8, 2, 2] : tensor<2x9x8x4xf32> into tensor<2x9x8x2x2xf32>
// CHECK-NEXT: %[[W:.*]] = tensor.expand_shape %rhs {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [3, 2, 2, 2, 3] : tensor<3x2x2x6xf32> into tensor<3x2x2x2x3xf32>
// CHECK-NEXT: %[[G:.*]] = tensor.expand_shape %[[INIT]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [2, 3, 4, 2, 3] : tensor<2x3x4x6xf32> into tensor<2x3x4x2x3xf32>
// CHECK-NEXT: %[[OUT:.*]] = tensor.expand_shape %[[G]] {{\[}}[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64], [5 : i64]] output_shape [2, 3, 2, 2, 2, 3] : tensor<2x3x4x2x3xf32> into tensor<2x3x2x2x2x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, ((d1 * 2) + (d4 * 2)), (((d2 * 4) + (d7 * 2)) + d5), d3, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d4, d5, d6, d3, d8)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d7, d3, d8)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%[[X]], %[[W]] : tensor<2x9x8x2x2xf32>, tensor<3x2x2x2x3xf32>) outs(%[[OUT]] : tensor<2x3x2x2x2x3xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK:      %[[C1:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64], [5 : i64]] : tensor<2x3x2x2x2x3xf32> into tensor<2x3x4x2x3xf32>
// CHECK-NEXT: %[[C2:.*]] = tensor.collapse_shape %[[C1]] {{\[}}[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] : tensor<2x3x4x2x3xf32> into tensor<2x3x4x6xf32>
// CHECK-NEXT: func.return %[[C2]] : tensor<2x3x4x6xf32>
func.func @grouped_strided_dilated(%lhs: tensor<2x9x8x4xf32>, %rhs: tensor<3x2x2x6xf32>) -> tensor<2x3x4x6xf32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 0], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x9x8x4xf32>, tensor<3x2x2x6xf32>) -> tensor<2x3x4x6xf32>
  func.return %0 : tensor<2x3x4x6xf32>
}

// NCHW x OIHW needs no padding (the input is read as is); the output's W is
// innermost, after the kernel's (c, kh, kw) reductions; the reversed W window
// reads the input at ow + (2 - kw).
// CHECK-LABEL: func.func @nchw_reversed
// CHECK:      %[[INIT:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<1x2x5x3xi32>) -> tensor<1x2x5x3xi32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, (d2 + d4), (d6 + ((d5 * -1) + 2)))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d6)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]} ins(%lhs, %rhs : tensor<1x3x6x5xi32>, tensor<2x3x2x3xi32>) outs(%[[INIT]] : tensor<1x2x5x3xi32>) {
// CHECK:        arith.muli
// CHECK-NEXT:   arith.addi
func.func @nchw_reversed(%lhs: tensor<1x3x6x5xi32>, %rhs: tensor<2x3x2x3xi32>) -> tensor<1x2x5x3xi32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {reverse = [false, true]} : (tensor<1x3x6x5xi32>, tensor<2x3x2x3xi32>) -> tensor<1x2x5x3xi32>
  func.return %0 : tensor<1x2x5x3xi32>
}

// Depthwise bf16 with SAME padding: the group dimension streams (the per-group
// feature has size 1); products accumulate in f32, rounded once at the end.
// CHECK-LABEL: func.func @depthwise_bf16
// CHECK:      tensor.insert_slice %lhs into %{{.*}}[0, 1, 1, 0] [1, 5, 5, 4] [1, 1, 1, 1] : tensor<1x5x5x4xbf16> into tensor<1x7x7x4xbf16>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, (d1 + d4), (d2 + d5), d7, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d5, d6, d7, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d7, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
// CHECK-SAME:   outs(%{{.*}} : tensor<1x5x5x4x1xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[X:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:   %[[Y:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK:      arith.truncf %{{.*}} : f32 to bf16
func.func @depthwise_bf16(%lhs: tensor<1x5x5x4xbf16>, %rhs: tensor<3x3x1x4xbf16>) -> tensor<1x5x5x4xbf16> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = SAME} {feature_group_count = 4 : i64} : (tensor<1x5x5x4xbf16>, tensor<3x3x1x4xbf16>) -> tensor<1x5x5x4xbf16>
  func.return %0 : tensor<1x5x5x4xbf16>
}

// Batch groups split the input batch (4 -> 2x2) and the output feature (6 ->
// 2x3); base dilation inserts the input with stride 2; i8 x i8 -> i32
// sign-extends before multiplying.
// CHECK-LABEL: func.func @batch_groups_lhs_dilation
// CHECK:      %[[PAD:.*]] = tensor.insert_slice %lhs into %{{.*}}[0, 0, 0] [4, 5, 3] [1, 2, 1] : tensor<4x5x3xi8> into tensor<4x9x3xi8>
// CHECK:      tensor.expand_shape %[[PAD]] {{\[}}[0 : i64, 1 : i64], [2 : i64], [3 : i64]] output_shape [2, 2, 9, 3] : tensor<4x9x3xi8> into tensor<2x2x9x3xi8>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d0, (((d1 * 2) + d5) + d3), d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d2, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d2, d6)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel", "parallel"]}
// CHECK:        arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT:   arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT:   arith.muli
// CHECK-NEXT:   arith.addi
func.func @batch_groups_lhs_dilation(%lhs: tensor<4x5x3xi8>, %rhs: tensor<2x3x6xi8>) -> tensor<2x8x6xi32> {
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [2]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x3xi8>, tensor<2x3x6xi8>) -> tensor<2x8x6xi32>
  func.return %0 : tensor<2x8x6xi32>
}

// A convolution large enough for linalg-pack-contractions (16 output features,
// K = 3x3x16, 2.1M multiply-adds) is not blocked by 2 pixels: its output is the
// generic's own (filled, written in place, returned), with no expand_shape around it.
// CHECK-LABEL: func.func @packed_nhwc
// CHECK:       %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x32x32x16xf32>)
// CHECK-NOT:   tensor.expand_shape
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<1x32x32x16xf32>)
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       func.return %[[R]]
func.func @packed_nhwc(%x: tensor<1x32x32x16xf32>, %w: tensor<3x3x16x16xf32>) -> tensor<1x32x32x16xf32> {
  %0 = xla.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x32x32x16xf32>
  func.return %0 : tensor<1x32x32x16xf32>
}
