// RUN: xla-opt %s -p linalg-generalize-named-ops,linalg-interchange | FileCheck %s

// A matmul's (m, n, k) becomes (m, k, n): the output's minor dimension innermost.
// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  func.return
}

// linalg.index follows its dimension to the new position (here a column
// reduction read through a transposing map: the new inner loop reads contiguously).
// CHECK-LABEL: func.func @indexed
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK:         %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:    %[[I:.*]] = linalg.index 0 : index
func.func @indexed(%a: memref<8x4xi64>, %out: memref<4xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<8x4xi64>) outs(%out : memref<4xi64>) {
  ^bb0(%x: i64, %acc: i64):
    %j = linalg.index 0 : index
    %i = linalg.index 1 : index
    %s = arith.addi %x, %acc : i64
    linalg.yield %s : i64
  }
  func.return
}

// An innermost parallel dimension, a row reduction (contiguous already) and a
// reduction into a scalar are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK:       iterator_types = ["reduction", "parallel"]
// CHECK:       iterator_types = ["parallel", "reduction"]
// CHECK:       iterator_types = ["reduction"]
func.func @untouched(%a: memref<8x4xf32>, %row: memref<4xf32>, %col: memref<8xf32>, %v: memref<8xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<8x4xf32>) outs(%row : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<8x4xf32>) outs(%col : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%v : memref<8xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  func.return
}
