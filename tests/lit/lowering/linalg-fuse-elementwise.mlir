// RUN: xla-opt %s --split-input-file -p convert-xla-to-linalg,linalg-fuse-elementwise | FileCheck %s

// A transpose, three element-wise ops and the reduction they feed become one
// generic; the splat zero is read as a scalar.
// CHECK-LABEL: func.func @chain
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b, %c : tensor<4x3xf32>, tensor<3x4xf32>, tensor<4x3xf32>) outs(%[[INIT]] : tensor<4xf32>) attrs =  {fusion = "elementwise"} {
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[P:.*]] = arith.addf %[[M]], %[[C]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.maximumf %[[P]], %[[ZERO]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.addf %[[ACC]], %[[R]] : f32
// CHECK-NEXT:    linalg.yield %[[N]] : f32
// CHECK-NEXT:  } -> tensor<4xf32>
// CHECK-NEXT:  func.return %[[S]] : tensor<4xf32>
func.func @chain(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4x3xf32>) -> tensor<4xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %t = xla.transpose %b, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %0 = xla.multiply %a, %t : tensor<4x3xf32>
  %1 = xla.add %0, %c : tensor<4x3xf32>
  %2 = xla.maximum %1, %zero : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %s = xla.reduce(%2 init: %zero) applies xla.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}

// A value used twice is not fused when it is not cheap (an exp would be computed
// twice); a broadcast read (map dropping a dimension) is not fused either.
// CHECK-LABEL: func.func @not_fused
// CHECK:       %[[E:.*]] = linalg.generic
// CHECK:         math.exp
// CHECK:       linalg.generic {{.*}} ins(%[[E]], %[[E]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:       %[[N:.*]] = linalg.generic
// CHECK:         arith.negf
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[N]] : tensor<4xf32>)
func.func @not_fused(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %e = xla.exponential %x : tensor<4xf32>
  %s = xla.add %e, %e : tensor<4xf32>
  %n = xla.negate %x : tensor<4xf32>
  %b = xla.broadcast_in_dim %n, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return %s, %b : tensor<4xf32>, tensor<2x4xf32>
}

// A fill input that is the only operand indexing the window loops (a splat conv
// kernel) stays: without it, the loops d1 would have no range.
// CHECK-LABEL: func.func @fill_keeps_loop_ranges
// CHECK:         %[[K:.*]] = linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%x, %[[K]] : tensor<7xf32>, tensor<3xf32>)
func.func @fill_keeps_loop_ranges(%x: tensor<7xf32>) -> tensor<2xf32> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %k = linalg.fill ins(%c : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%z : f32) outs(%o : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 4 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : tensor<7xf32>, tensor<3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  } -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// A cheap producer (one subtract, two inputs) whose every use is an element-wise
// read it can fuse into is recomputed in each consumer, as log-softmax's `x - max`
// feeds both the sum of exponentials and the result: no generic computes it alone.
// CHECK-LABEL: func.func @cheap_recomputed
// CHECK-NOT:   ["parallel", "parallel"]} ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         arith.subf
// CHECK-NEXT:    math.exp
// CHECK:       linalg.generic {{.*}} ins(%x, %b, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>)
// CHECK:         arith.subf
// CHECK-NEXT:    arith.subf
// CHECK-NOT:   linalg.generic
func.func @cheap_recomputed(%x: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %d = xla.subtract %x, %b : tensor<4x8xf32>
  %e = xla.exponential %d : tensor<4x8xf32>
  %s = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sb = xla.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %y = xla.subtract %d, %sb : tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// -----

// Not recomputed: a cheap producer that is also returned (it is materialized
// anyway), and one read by a contraction (not a permutation of its loops).
// CHECK-LABEL: func.func @cheap_kept
// CHECK:       %[[D:.*]] = linalg.generic
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.subf
// CHECK:       linalg.generic {{.*}} ins(%[[D]] : tensor<4x4xf32>)
// CHECK:       %[[M:.*]] = linalg.generic
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.mulf
// CHECK:       linalg.matmul ins(%[[M]], %[[M]] : tensor<4x4xf32>, tensor<4x4xf32>)
func.func @cheap_kept(%x: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %d = xla.subtract %x, %b : tensor<4x4xf32>
  %e = xla.exponential %d : tensor<4x4xf32>
  %m = xla.multiply %x, %b : tensor<4x4xf32>
  %mm = xla.dot %m, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %d, %e, %mm : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Not recomputed past four uses (each consumer's visit checks every use: kept linear).
// CHECK-LABEL: func.func @cheap_many_uses
// CHECK:       %[[D:.*]] = linalg.generic
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.subf
// CHECK-COUNT-5: ins(%[[D]] : tensor<4xf32>)
func.func @cheap_many_uses(%x: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %d = xla.subtract %x, %b : tensor<4xf32>
  %e0 = xla.exponential %d : tensor<4xf32>
  %e1 = xla.sine %d : tensor<4xf32>
  %e2 = xla.cosine %d : tensor<4xf32>
  %e3 = xla.tanh %d : tensor<4xf32>
  %e4 = xla.log %d : tensor<4xf32>
  func.return %e0, %e1, %e2, %e3, %e4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Only the head of an element-wise chain is recomputed: %m reads %d whole, so it
// is computed once (with %d recomputed for each of its two reads) and read by both
// consumers; copying it would copy %d into each copy too, and a chain of such
// links would grow the program geometrically.
// CHECK-LABEL: func.func @chain_link_kept
// CHECK:       %[[M:.*]] = linalg.generic {{.*}} ins(%x, %b : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.subf
// CHECK-NEXT:    arith.subf
// CHECK-NEXT:    arith.mulf
// CHECK:       linalg.generic {{.*}} ins(%[[M]] : tensor<4xf32>)
// CHECK:         math.exp
// CHECK:       linalg.generic {{.*}} ins(%[[M]] : tensor<4xf32>)
// CHECK:         math.sin
// CHECK-NOT:   linalg.generic
func.func @chain_link_kept(%x: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %d = xla.subtract %x, %b : tensor<4xf32>
  %m = xla.multiply %d, %d : tensor<4xf32>
  %e0 = xla.exponential %m : tensor<4xf32>
  %e1 = xla.sine %m : tensor<4xf32>
  func.return %e0, %e1 : tensor<4xf32>, tensor<4xf32>
}
