// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// A 2x2 stride-2 max pool: iteration dims (out0, out1, win0, win1), the window
// dims reductions; the input reads out * 2 + win; an unread operand of the
// window's shape gives the window loops their ranges.
// CHECK-LABEL: func.func @max_pool
// CHECK:      %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:      %[[OUT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[WIN:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + d2), ((d1 * 2) + d3))>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %[[WIN]] : tensor<4x6xf32>, tensor<2x2xi8>) outs(%[[OUT]] : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %{{.*}}: i8, %[[A:.*]]: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.maximumf %[[A]], %[[E]] : f32
// CHECK-NEXT:   linalg.yield %[[M]] : f32
func.func @max_pool(%x: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %r = "xla.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// A padded NHWC sum window: only the border of an empty tensor is filled with the
// init value, one slab per edge (rows above and below at full width, then the
// columns left and right of the operand's rows), and the operand is inserted
// last at the low padding: nothing is written twice; size-1 window dims get no loop.
// CHECK-LABEL: func.func @padded_sum
// CHECK:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<1x7x6x2xi32>
// CHECK-NOT:  tensor<1x7x6x2xi32> -> tensor<1x7x6x2xi32>
// CHECK:      %[[TOP:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.*}} : tensor<1x2x6x2xi32>) -> tensor<1x2x6x2xi32>
// CHECK-NEXT: %[[P1:.*]] = tensor.insert_slice %[[TOP]] into %[[E]][0, 0, 0, 0] [1, 2, 6, 2] [1, 1, 1, 1]
// CHECK:      %[[BOTTOM:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.*}} : tensor<1x1x6x2xi32>) -> tensor<1x1x6x2xi32>
// CHECK-NEXT: %[[P2:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[P1]][0, 6, 0, 0] [1, 1, 6, 2] [1, 1, 1, 1]
// CHECK:      %[[LEFT:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.*}} : tensor<1x4x1x2xi32>) -> tensor<1x4x1x2xi32>
// CHECK-NEXT: %[[P3:.*]] = tensor.insert_slice %[[LEFT]] into %[[P2]][0, 2, 0, 0] [1, 4, 1, 2] [1, 1, 1, 1]
// CHECK:      %[[RIGHT:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.*}} : tensor<1x4x1x2xi32>) -> tensor<1x4x1x2xi32>
// CHECK-NEXT: %[[P4:.*]] = tensor.insert_slice %[[RIGHT]] into %[[P3]][0, 2, 5, 0] [1, 4, 1, 2] [1, 1, 1, 1]
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %x into %[[P4]][0, 2, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xi32> into tensor<1x7x6x2xi32>
// CHECK:      %[[OUT:.*]] = linalg.fill ins(%[[Z]] : i32) outs(%{{.*}} : tensor<1x3x2x2xi32>) -> tensor<1x3x2x2xi32>
// CHECK-NEXT: %[[WIN:.*]] = tensor.empty() : tensor<3x3xi8>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[WIN]] : tensor<1x7x6x2xi32>, tensor<3x3xi8>) outs(%[[OUT]] : tensor<1x3x2x2xi32>) {
// CHECK-NEXT: ^bb0(%[[E:.*]]: i32, %{{.*}}: i8, %[[A:.*]]: i32):
// CHECK-NEXT:   %[[S:.*]] = arith.addi %[[A]], %[[E]] : i32
// CHECK-NEXT:   linalg.yield %[[S]] : i32
func.func @padded_sum(%x: tensor<1x4x4x2xi32>) -> tensor<1x3x2x2xi32> {
  %z = xla.constant dense<0> : tensor<i32>
  %r = "xla.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [2, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  }) : (tensor<1x4x4x2xi32>, tensor<i32>) -> tensor<1x3x2x2xi32>
  func.return %r : tensor<1x3x2x2xi32>
}

// A dilated window: window dilation scales the window dim in the map; base
// dilation inserts the operand with a stride (holes hold the init value);
// negative padding crops the operand first.
// CHECK-LABEL: func.func @dilated
// CHECK:      %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:      %[[FILL:.*]] = linalg.fill ins(%[[INF]] : f32) outs(%{{.*}} : tensor<8x5xf32>) -> tensor<8x5xf32>
// CHECK-NEXT: %[[CROP:.*]] = tensor.extract_slice %x[0, 1] [4, 5] [1, 1] : tensor<4x6xf32> to tensor<4x5xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[CROP]] into %[[FILL]][1, 0] [4, 5] [2, 1] : tensor<4x5xf32> into tensor<8x5xf32>
// CHECK:      %[[WIN:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + (d2 * 3)), (d1 + (d3 * 2)))>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[WIN]] : tensor<8x5xf32>, tensor<2x2xi8>)
// CHECK:        arith.minimumf
func.func @dilated(%x: tensor<4x6xf32>) -> tensor<3x3xf32> {
  %inf = xla.constant dense<0x7F800000> : tensor<f32>
  %r = "xla.reduce_window"(%x, %inf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 2>, padding = dense<[[1, 0], [-1, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// No window fits (the output is empty): the result is just filled, no generic
// (whose map would reach below 0).
// CHECK-LABEL: func.func @no_window_fits
// CHECK:      %[[R:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<0x3xf32>) -> tensor<0x3xf32>
// CHECK-NOT:  linalg.generic
// CHECK:      func.return %[[R]] : tensor<0x3xf32>
func.func @no_window_fits(%x: tensor<1x4xf32>) -> tensor<0x3xf32> {
  %z = xla.constant dense<0.0> : tensor<f32>
  %r = "xla.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 3, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) : (tensor<1x4xf32>, tensor<f32>) -> tensor<0x3xf32>
  func.return %r : tensor<0x3xf32>
}
