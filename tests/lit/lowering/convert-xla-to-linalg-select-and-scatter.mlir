// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// The max-pool gradient, 2x2 windows with stride 2. Step 1 (select) is a
// generic over (source dims, window dims) reading the operand at s * 2 + w and
// keeping the selected value and its linear operand index (-1 while none):
// a candidate replaces the selection when nothing is selected yet or
// select(current, candidate) is false. Step 2 (scatter, as a gather): the
// windows do not overlap, so each output element has one candidate source
// position, o / 2: an all-parallel generic adding the source element where the
// selection is this element.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[OUT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[WIN:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK:      %[[CUR:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[NONE:.*]] = arith.constant -1 : i64
// CHECK:      %[[SEL:.*]] = linalg.fill ins(%[[NONE]] : i64) outs(%{{.*}} : tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[CHOSEN:[^ ]*]]:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (((d0 * 2) + d2), ((d1 * 2) + d3))>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %[[WIN]] : tensor<4x6xf32>, tensor<2x2xi8>) outs(%[[CUR]], %[[SEL]] : tensor<2x3xf32>, tensor<2x3xi64>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: i8, %[[C:.*]]: f32, %[[S:.*]]: i64):
// CHECK:        %[[KEEP:.*]] = arith.cmpf oge, %[[C]], %[[V]] : f32
// CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:   %[[REPLACE:.*]] = arith.xori %[[KEEP]], %[[TRUE]] : i1
// CHECK-NEXT:   %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[EMPTY:.*]] = arith.cmpi slt, %[[S]], %[[Z]] : i64
// CHECK-NEXT:   %[[TAKE:.*]] = arith.ori %[[EMPTY]], %[[REPLACE]] : i1
// CHECK:        %[[LIN:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:   %[[NV:.*]] = arith.select %[[TAKE]], %[[V]], %[[C]] : f32
// CHECK-NEXT:   %[[NS:.*]] = arith.select %[[TAKE]], %[[LIN]], %[[S]] : i64
// CHECK-NEXT:   linalg.yield %[[NV]], %[[NS]] : f32, i64
// CHECK:      %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[OUT]] : tensor<4x6xf32>) {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[O0:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[O1:.*]] = linalg.index 1 : index
// CHECK:        %[[S0:.*]] = arith.divui %[[O0]], %{{.*}} : index
// CHECK:        %[[S1:.*]] = arith.divui %[[O1]], %{{.*}} : index
// CHECK-NEXT:   %[[PICK:.*]] = tensor.extract %[[CHOSEN]]#1[%[[S0]], %[[S1]]] : tensor<2x3xi64>
// CHECK:        %[[ME:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:   %[[HIT:.*]] = arith.cmpi eq, %[[PICK]], %[[ME]] : i64
// CHECK-NEXT:   %[[G:.*]] = tensor.extract %g[%[[S0]], %[[S1]]] : tensor<2x3xf32>
// CHECK-NEXT:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[G]] : f32
// CHECK-NEXT:   %[[NEW:.*]] = arith.select %[[HIT]], %[[SUM]], %[[ACC]] : f32
// CHECK-NEXT:   linalg.yield %[[NEW]] : f32
func.func @max_pool_grad(%x: tensor<4x6xf32>, %g: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %r = "xla.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = xla.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%c: tensor<f32>, %d: tensor<f32>):
    %s = xla.add %c, %d : tensor<f32>
    xla.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}

// Overlapping windows (3x1, stride 2) with high padding: the operand is padded
// with the init value and padding positions (row >= 4) are masked out of the
// selection. In step 2 each output row has ceil(3 / 2) = 2 candidate source
// rows, floor((o - 1) / 2) + t, a reduction dimension walked in source order;
// reads are guarded where a candidate can fall outside the source.
// CHECK-LABEL: func.func @overlapping
// CHECK:      %[[INIT:.*]] = tensor.extract %init[] : tensor<i64>
// CHECK:      %[[EDGE:.*]] = linalg.fill ins(%[[INIT]] : i64) outs(%{{.*}} : tensor<1x2xi64>) -> tensor<1x2xi64>
// CHECK-NEXT: %[[BORDER:.*]] = tensor.insert_slice %[[EDGE]] into %{{.*}}[4, 0] [1, 2] [1, 1] : tensor<1x2xi64> into tensor<5x2xi64>
// CHECK-NEXT: %[[PADDED:.*]] = tensor.insert_slice %operand into %[[BORDER]][0, 0] [4, 2] [1, 1] : tensor<4x2xi64> into tensor<5x2xi64>
// CHECK:      %[[CHOSEN:[^ ]*]]:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (((d0 * 2) + d2), d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PADDED]], %{{.*}} : tensor<5x2xi64>, tensor<3xi8>)
// CHECK:        %[[INSIDE:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK:        %[[KEEP:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i64
// CHECK:        %[[TAKE:.*]] = arith.andi %[[INSIDE]], %{{.*}} : i1
// CHECK:      %[[BOX:.*]] = tensor.empty() : tensor<2xi8>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BOX]] : tensor<2xi8>)
// CHECK:        %[[Q:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:   %[[T:.*]] = linalg.index 2 : index
// CHECK-NEXT:   %[[SRC:.*]] = arith.addi %[[Q]], %[[T]] : index
// CHECK-NEXT:   %{{.*}} = arith.cmpi sge, %[[SRC]], %{{.*}} : index
// CHECK:        %{{.*}} = arith.cmpi slt, %[[SRC]], %{{.*}} : index
// CHECK:        %{{.*}} = tensor.extract %[[CHOSEN]]#1[%{{.*}}, %{{.*}}] : tensor<2x2xi64>
// CHECK:        %{{.*}} = tensor.extract %source[%{{.*}}, %{{.*}}] : tensor<2x2xi64>
// CHECK-NEXT:   %{{.*}} = arith.addi %{{.*}}, %{{.*}} : i64
func.func @overlapping(%operand: tensor<4x2xi64>, %source: tensor<2x2xi64>, %init: tensor<i64>) -> tensor<4x2xi64> {
  %r = "xla.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      xla.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.add %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  func.return %r : tensor<4x2xi64>
}
