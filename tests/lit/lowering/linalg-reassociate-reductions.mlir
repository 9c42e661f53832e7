// RUN: xla-opt %s -p linalg-reassociate-reductions | FileCheck %s

// The combiner of the accumulator gets `reassoc`; the element-wise prologue keeps exact semantics.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         %[[SQ:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = arith.addf %{{.*}}, %[[SQ]] fastmath<reassoc> : f32
func.func @sum_of_squares(%x: memref<16xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %s: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %s, %sq : f32
    linalg.yield %r : f32
  }
  func.return
}

// Maximum reductions too; flags already present are kept.
// CHECK-LABEL: func.func @row_max
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} fastmath<{{(nnan,reassoc|reassoc,nnan)}}> : f32
func.func @row_max(%x: memref<4x8xf32>, %m: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.maximumf %s, %a fastmath<nnan> : f32
    linalg.yield %r : f32
  }
  func.return
}

// Parallel generics are untouched.
// CHECK-LABEL: func.func @scale
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     fastmath
func.func @scale(%x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  func.return
}

// A reduction outside an innermost parallel loop (the i-k-j matmul order) already
// vectorizes along that loop; its combiner keeps source order.
// CHECK-LABEL: func.func @ikj_matmul
// CHECK:         %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    arith.addf %{{.*}}, %[[P]] : f32
func.func @ikj_matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %s: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %s, %p : f32
    linalg.yield %r : f32
  }
  func.return
}
