// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,linalg-fuse-reductions{tile_elements=16}" | FileCheck %s

// Softmax: max, exp(x - max), sum and divide run block of rows by block of rows
// (2 rows of 8: tile_elements=16), the result written into its place.
// CHECK-LABEL: func.func @softmax
// CHECK:       %[[OUT:.*]] = tensor.empty() : tensor<6x8xf32>
// CHECK:       %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[OUT]]) -> (tensor<6x8xf32>) {
// CHECK-NEXT:    %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [2, 8] [1, 1] : tensor<6x8xf32> to tensor<2x8xf32>
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x8xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK:           math.exp
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[E]] : tensor<2x8xf32>)
// CHECK:         %[[D:.*]] = linalg.generic {{.*}} ins(%[[E]], %[[S]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK:           arith.divf
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[D]] into %[[ACC]][%[[I]], 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<6x8xf32>
// CHECK-NEXT:    scf.yield %[[INS]] : tensor<6x8xf32>
// CHECK-NEXT:  } {fusion = "rows(2): reduce, map, reduce, map"}
// CHECK-NEXT:  func.return %[[R]]

func.func @softmax(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %mb = xla.broadcast_in_dim %m, dims = [0] : (tensor<6xf32>) -> tensor<6x8xf32>
  %d = xla.subtract %x, %mb : tensor<6x8xf32>
  %e = xla.exponential %d : tensor<6x8xf32>
  %s = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %sb = xla.broadcast_in_dim %s, dims = [0] : (tensor<6xf32>) -> tensor<6x8xf32>
  %r = xla.divide %e, %sb : tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

// Two reductions of the same input: one generic with two outputs reads it once.
// CHECK-LABEL: func.func @siblings
// CHECK:       %s, %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<6xf32>, tensor<6xf32>) attrs =  {fusion = "multi-output"} {
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f32, %[[S:.*]]: f32, %[[M:.*]]: f32):
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S]], %[[A]] : f32
// CHECK-NEXT:    %[[M1:.*]] = arith.maximumf %[[M]], %[[A]] : f32
// CHECK-NEXT:    linalg.yield %[[S1]], %[[M1]] : f32, f32
// CHECK-NOT:   scf.for

func.func @siblings(%x: tensor<6x8xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %s, %m : tensor<6xf32>, tensor<6xf32>
}

// -----

// The second reduction reads the first: not siblings, but one row group; the
// subtraction went into the second reduction (linalg-fuse-elementwise).
// CHECK-LABEL: func.func @dependent_not_siblings
// CHECK:       scf.for
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[S]] : tensor<2x8xf32>, tensor<2xf32>)
// CHECK:         tensor.insert_slice %[[T]] into %{{.*}}[%{{.*}}] [2] [1] : tensor<2xf32> into tensor<6xf32>
// CHECK:       } {fusion = "rows(2): reduce, reduce"}
// CHECK-NOT:   multi-output

func.func @dependent_not_siblings(%x: tensor<6x8xf32>) -> tensor<6xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %sb = xla.broadcast_in_dim %s, dims = [0] : (tensor<6xf32>) -> tensor<6x8xf32>
  %d = xla.subtract %x, %sb : tensor<6x8xf32>
  %t = xla.reduce(%d init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %t : tensor<6xf32>
}

// -----

// A column reduction reads every row of the row sums: no row group.
// CHECK-LABEL: func.func @column_read_closes
// CHECK-NOT:   scf.for
// CHECK:       %s = linalg.generic
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%x, %s

func.func @column_read_closes(%x: tensor<6x8xf32>) -> tensor<8xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %sb = xla.broadcast_in_dim %s, dims = [0] : (tensor<6xf32>) -> tensor<6x8xf32>
  %d = xla.multiply %x, %sb : tensor<6x8xf32>
  %c = xla.reduce(%d init: %zero) applies xla.add across dimensions = [0] : (tensor<6x8xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %c : tensor<8xf32>
}

// -----

// One reduction alone is left as it is.
// CHECK-LABEL: func.func @single_reduction
// CHECK-NOT:   scf.for
// CHECK:       linalg.generic
// CHECK-NOT:   fusion

func.func @single_reduction(%x: tensor<6x8xf32>) -> tensor<6xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %s : tensor<6xf32>
}

// -----

// Two contractions of one left-hand side stay separate (the contraction code
// generator wants each whole) and are not row-fused with their consumer.
// CHECK-LABEL: func.func @contractions_stay
// CHECK-NOT:   multi-output
// CHECK-NOT:   scf.for
// CHECK:       linalg.matmul
// CHECK:       linalg.matmul
func.func @contractions_stay(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %0 = xla.dot %a, %b : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %1 = xla.dot %a, %c : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %2 = xla.exponential %0 : tensor<64x16xf32>
  func.return %2, %1 : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Layer norm as JAX exports it (keepdims reshapes between the reductions and their
// consumers): the reshapes are read through, so the mean, the variance and the
// scaling form one group, one loop over blocks of rows; the centring `x - mean`
// (cheap, two consumers) is recomputed in both rather than stored.
// CHECK-LABEL: func.func @layer_norm_keepdims
// CHECK-NOT:   tensor.expand_shape
// CHECK:       scf.for
// CHECK-NOT:   scf.for
// CHECK:       } {fusion = "rows(2): reduce, map, reduce, map, map"}
// CHECK-NOT:   linalg.generic
// CHECK:       func.return
func.func @layer_norm_keepdims(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %n = xla.constant dense<0.125> : tensor<4x1xf32>
  %eps = xla.constant dense<1.0e-5> : tensor<4x1xf32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %s1 = xla.reshape %s : (tensor<4xf32>) -> tensor<4x1xf32>
  %mean = xla.multiply %s1, %n : tensor<4x1xf32>
  %mb = xla.broadcast_in_dim %mean, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %d = xla.subtract %x, %mb : tensor<4x8xf32>
  %d2 = xla.multiply %d, %d : tensor<4x8xf32>
  %v = xla.reduce(%d2 init: %zero) applies xla.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %v1 = xla.reshape %v : (tensor<4xf32>) -> tensor<4x1xf32>
  %vm = xla.multiply %v1, %n : tensor<4x1xf32>
  %ve = xla.add %vm, %eps : tensor<4x1xf32>
  %r = xla.rsqrt %ve : tensor<4x1xf32>
  %rb = xla.broadcast_in_dim %r, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %gb = xla.broadcast_in_dim %g, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %y = xla.multiply %d, %rb : tensor<4x8xf32>
  %z = xla.multiply %y, %gb : tensor<4x8xf32>
  func.return %z : tensor<4x8xf32>
}

// -----

// Softmax over the last axis of a 3-D tensor (attention's scores): the keepdims
// reshapes 2x4 -> 2x4x1 lower to a collapse and an expand, a chain read through as
// one unit reshape, so the max, the exponentials, the sum and the division form one
// group. A row (4x8) is larger than a tile (16 elements): each iteration of the
// row loop runs a loop over blocks of 2 of the second dimension, whose slices are
// 1x2x8 (attention's 8x256x256 scores go by 1x4x256, not by whole heads).
// CHECK-LABEL: func.func @softmax_rank3
// CHECK-NOT:   tensor.expand_shape
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       scf.for %[[I:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (tensor<2x4x8xf32>) {
// CHECK-NEXT:    %[[R:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (tensor<2x4x8xf32>) {
// CHECK-NEXT:      tensor.extract_slice %x[%[[I]], %[[J]], 0] [1, 2, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<1x2x8xf32>
// CHECK:           tensor.insert_slice %{{.*}} into %[[B]][%[[I]], %[[J]], 0] [1, 2, 8] [1, 1, 1]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.yield %[[R]]
// CHECK-NEXT:  } {fusion = "rows(1x2): reduce, map, reduce, map"}
// CHECK-NOT:   linalg.generic
// CHECK:       func.return
func.func @softmax_rank3(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [2] : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  %m1 = xla.reshape %m : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
  %mb = xla.broadcast_in_dim %m1, dims = [0, 1, 2] : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %d = xla.subtract %x, %mb : tensor<2x4x8xf32>
  %e = xla.exponential %d : tensor<2x4x8xf32>
  %s = xla.reduce(%e init: %zero) applies xla.add across dimensions = [2] : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  %s1 = xla.reshape %s : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
  %sb = xla.broadcast_in_dim %s1, dims = [0, 1, 2] : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %p = xla.divide %e, %sb : tensor<2x4x8xf32>
  func.return %p : tensor<2x4x8xf32>
}
