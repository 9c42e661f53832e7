// RUN: xla-opt %s --split-input-file -p convert-xla-to-linalg,linalg-fold-broadcasts | FileCheck %s

// The consumer reads the row vector per row: no 4x6 broadcast is written.
// CHECK-LABEL: func.func @broadcast_into_consumer
// CHECK-NOT:   linalg.generic {{.*}} ins(%m : tensor<4xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x6xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4x6xf32>) attrs =  {fusion = "broadcast"}
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.subf
// CHECK-NOT:   linalg.generic
func.func @broadcast_into_consumer(%x: tensor<4x6xf32>, %m: tensor<4xf32>) -> tensor<4x6xf32> {
  %b = xla.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x6xf32>
  %0 = xla.subtract %x, %b : tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}

// -----

// JAX's keepdims pattern (to 4x1, then to 4x6): both views compose into `(d0)`.
// CHECK-LABEL: func.func @degenerate_broadcast
// CHECK:       %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x6xf32>, tensor<4xf32>)
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.divf
// CHECK-NOT:   linalg.generic
// CHECK:       func.return %[[R]]
func.func @degenerate_broadcast(%x: tensor<4x6xf32>, %m: tensor<4xf32>) -> tensor<4x6xf32> {
  %a = xla.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %b = xla.broadcast_in_dim %a, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x6xf32>
  %0 = xla.divide %x, %b : tensor<4x6xf32>
  func.return %0 : tensor<4x6xf32>
}

// -----

// Every generic consumer indexes through the view, which then goes.
// CHECK-LABEL: func.func @broadcast_used_twice
// CHECK:       linalg.generic {{.*}} affine_map<(d0, d1) -> (d1)>{{.*}} ins(%x, %g : tensor<4x6xf32>, tensor<6xf32>) {{.*}} {fusion = "broadcast"}
// CHECK:         arith.mulf
// CHECK:       linalg.generic {{.*}} affine_map<(d0, d1) -> (d1)>{{.*}} ins(%x, %g : tensor<4x6xf32>, tensor<6xf32>) {{.*}} {fusion = "broadcast"}
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
func.func @broadcast_used_twice(%x: tensor<4x6xf32>, %g: tensor<6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %b = xla.broadcast_in_dim %g, dims = [1] : (tensor<6xf32>) -> tensor<4x6xf32>
  %0 = xla.multiply %x, %b : tensor<4x6xf32>
  %1 = xla.add %x, %b : tensor<4x6xf32>
  func.return %0, %1 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A broadcast that is itself a result stays.
// CHECK-LABEL: func.func @broadcast_returned
// CHECK:       %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:       func.return %[[B]]
func.func @broadcast_returned(%g: tensor<6xf32>) -> tensor<4x6xf32> {
  %b = xla.broadcast_in_dim %g, dims = [1] : (tensor<6xf32>) -> tensor<4x6xf32>
  func.return %b : tensor<4x6xf32>
}

// -----

// einsum('hqk,khd->qhd') as JAX emits it: the contraction writes the transposed
// result itself (output map composed with the inverse permutation), its init
// rebuilt in the result's shape; no temporary, no copy.
// CHECK-LABEL: func.func @transpose_into_contraction
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<16x8x2xf32>
// CHECK-NEXT:  %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<16x8x2xf32>) -> tensor<16x8x2xf32>
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%k, %q : tensor<4x8x2xf32>, tensor<8x16x4xf32>) outs(%[[F]] : tensor<16x8x2xf32>) attrs =  {fusion = "transpose"}
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   tensor.empty
// CHECK:       func.return %[[R]] : tensor<16x8x2xf32>
func.func @transpose_into_contraction(%q: tensor<8x16x4xf32>, %k: tensor<4x8x2xf32>) -> tensor<16x8x2xf32> {
  %0 = xla.dot_general %k, %q, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<4x8x2xf32>, tensor<8x16x4xf32>) -> tensor<8x2x16xf32>
  %1 = xla.transpose %0, dims = [2, 0, 1] : (tensor<8x2x16xf32>) -> tensor<16x8x2xf32>
  func.return %1 : tensor<16x8x2xf32>
}

// -----

// A transpose of an argument is read through the permuted map.
// CHECK-LABEL: func.func @transpose_into_consumer
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<3x5xf32>, tensor<5x3xf32>) {{.*}} {fusion = "transpose"}
// CHECK-NOT:   linalg.generic
func.func @transpose_into_consumer(%a: tensor<3x5xf32>, %b: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %t = xla.transpose %a, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %0 = xla.add %t, %b : tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
}

// -----

// The producer's result is also returned: it keeps its layout, the transpose stays.
// CHECK-LABEL: func.func @transpose_of_shared_value
// CHECK:       %[[S:.*]] = linalg.generic
// CHECK:       %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[S]] : tensor<3x5xf32>)
// CHECK:       func.return %[[S]], %[[T]]
func.func @transpose_of_shared_value(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<5x3xf32>) {
  %0 = xla.add %a, %b : tensor<3x5xf32>
  %t = xla.transpose %0, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
  func.return %0, %t : tensor<3x5xf32>, tensor<5x3xf32>
}

// -----

// An iota is computed where it is read: argmax's reduction gets linalg.index 1
// (the iota's dimension 0 is the consumer's dimension 1, through its map) and no
// index array is written; an iota read through a transposing map is renamed so.
// CHECK-LABEL: func.func @iota_into_consumers
// CHECK-NOT:   tensor<4x6xi32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:    ins(%x : tensor<4x6xf32>) {{.*}} attrs = {fusion = "iota"}
// CHECK-NEXT:  ^{{.*}}(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:    %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %[[C]] : i32 to f32
// CHECK-NEXT:    arith.addf %[[A]], %[[F]] : f32
func.func @iota_into_consumers(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %iota = xla.iota dim = 1 : tensor<4x6xi32>
  %f = xla.convert %iota : (tensor<4x6xi32>) -> tensor<4x6xf32>
  %r = xla.add %x, %f : tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}

// -----

// Reshapes that only add or drop unit dimensions are read through: the consumer's
// map of the larger shape loses the unit dimension (expand: `mean(keepdims)`),
// or the smaller shape's map gains it as the constant 0 (collapse); the reshapes go.
// CHECK-LABEL: func.func @unit_reshapes
// CHECK-NOT:   tensor.expand_shape
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%x, %m : tensor<4x6xf32>, tensor<4xf32>) {{.*}} {fusion = "broadcast"}
// CHECK:         arith.subf
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], {{.*}} ins(%c, %m : tensor<4x1xf32>, tensor<4xf32>) {{.*}} {fusion = "reshape"}
// CHECK:         arith.mulf
func.func @unit_reshapes(%x: tensor<4x6xf32>, %m: tensor<4xf32>, %c: tensor<4x1xf32>) -> (tensor<4x6xf32>, tensor<4xf32>) {
  %r = xla.reshape %m : (tensor<4xf32>) -> tensor<4x1xf32>
  %b = xla.broadcast_in_dim %r, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x6xf32>
  %0 = xla.subtract %x, %b : tensor<4x6xf32>
  %s = xla.reshape %c : (tensor<4x1xf32>) -> tensor<4xf32>
  %1 = xla.multiply %s, %m : tensor<4xf32>
  func.return %0, %1 : tensor<4x6xf32>, tensor<4xf32>
}

// -----

// A reshape that merges two dimensions larger than 1 stays.
// CHECK-LABEL: func.func @merging_reshape_kept
// CHECK:       tensor.collapse_shape %x
// CHECK:       linalg.generic
// CHECK-NOT:   fusion = "{{.*}}reshape
func.func @merging_reshape_kept(%x: tensor<4x2xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %r = xla.reshape %x : (tensor<4x2xf32>) -> tensor<8xf32>
  %0 = xla.add %r, %y : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// A contraction keeps reading the reshape: the contraction code generator matches
// the maps it was built with.
// CHECK-LABEL: func.func @unit_reshape_into_contraction_kept
// CHECK:       %[[R:.*]] = tensor.expand_shape %v
// CHECK:       linalg.generic {{.*}} ins(%[[R]], %w : tensor<1x512xf32>, tensor<512x64xf32>)
// CHECK-NOT:   fusion = "reshape"
func.func @unit_reshape_into_contraction_kept(%v: tensor<512xf32>, %w: tensor<512x64xf32>) -> tensor<1x64xf32> {
  %r = xla.reshape %v : (tensor<512xf32>) -> tensor<1x512xf32>
  %0 = xla.dot_general %r, %w, contracting_dims = [1] x [0] : (tensor<1x512xf32>, tensor<512x64xf32>) -> tensor<1x64xf32>
  func.return %0 : tensor<1x64xf32>
}
