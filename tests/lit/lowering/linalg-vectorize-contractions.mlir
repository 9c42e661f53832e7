// RUN: xla-opt %s --split-input-file -p "linalg-vectorize-contractions{target=avx512}" | FileCheck %s

// Whole tiles only (M = 8 = 2 x 4 rows, N = 32 = one 32-column tile, K = 8):
// the loop nest b, n1 block, k block, m1 block, n1, m1 around the micro-kernel,
// which loads the 4 x 2 accumulator vectors of C, runs k carrying them, and
// per k loads B's row (2 vectors), broadcasts each of A's 4 values and issues 8 fmas.
// CHECK-LABEL: func.func @whole_tiles
// CHECK:       scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:         scf.for %[[N1C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[M1C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[N1:.*]] = %[[N1C]] to %{{.*}} step
// CHECK:                 scf.for %[[M1:.*]] = %[[M1C]] to %{{.*}} step
// CHECK-NOT:               scf.if
// CHECK-COUNT-8:           vector.load %c[{{.*}}] : memref<1x8x32xf32>, vector<16xf32>
// CHECK:                   %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %[[K0]] to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-2:             vector.load %b4[%[[B]], %[[N1]], %[[K]], %{{.*}}] : memref<1x1x8x32xf32>, vector<16xf32>
// CHECK:                     %[[A:.*]] = memref.load %a4[%[[B]], %[[M1]], %[[K]], %{{.*}}] : memref<1x2x8x4xf32>
// CHECK-NEXT:                %[[BC:.*]] = vector.broadcast %[[A]] : f32 to vector<16xf32>
// CHECK-NEXT:                vector.fma %[[BC]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NEXT:                vector.fma %[[BC]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-COUNT-6:             vector.fma
// CHECK:                     scf.yield
// CHECK-COUNT-8:           vector.store %{{.*}}, %c[{{.*}}] : memref<1x8x32xf32>, vector<16xf32>
// CHECK-NOT:   linalg.generic
func.func @whole_tiles(%a4: memref<1x2x8x4xf32>, %b4: memref<1x1x8x32xf32>, %c: memref<1x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xf32>, memref<1x1x8x32xf32>) outs(%c : memref<1x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// M = 7 rows (the second 4-row tile overhangs) and N = 40 columns (the second
// 32-column tile overhangs): whole tiles are updated in place, the others
// through the 4 x 32 scratch tile, copied in and out over their valid part.
// CHECK-LABEL: func.func @edges
// CHECK-NEXT:    %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x32xf32>
// CHECK:         %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:         %[[COL:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[WHOLE:.*]] = arith.andi %[[ROW]], %[[COL]] : i1
// CHECK-NEXT:    scf.if %[[WHOLE]] {
// CHECK:           vector.load %c[{{.*}}] : memref<1x7x40xf32>, vector<16xf32>
// CHECK:           vector.fma
// CHECK:           vector.store %{{.*}}, %c[{{.*}}] : memref<1x7x40xf32>, vector<16xf32>
// CHECK:         } else {
// CHECK:           %[[ROWS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:           %[[COLS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[COLS]] step
// CHECK:               %[[V:.*]] = memref.load %c[{{.*}}] : memref<1x7x40xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[T]][%[[R]], %[[J]]] : memref<4x32xf32>
// CHECK:           vector.load %[[T]][{{.*}}] : memref<4x32xf32>, vector<16xf32>
// CHECK:           vector.fma
// CHECK:           vector.store %{{.*}}, %[[T]][{{.*}}] : memref<4x32xf32>, vector<16xf32>
// CHECK:           memref.load %[[T]][{{.*}}] : memref<4x32xf32>
// CHECK:           memref.store %{{.*}}, %c[{{.*}}] : memref<1x7x40xf32>
func.func @edges(%a4: memref<1x2x8x4xf32>, %b4: memref<1x2x8x32xf32>, %c: memref<1x7x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xf32>, memref<1x2x8x32xf32>) outs(%c : memref<1x7x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Every tile overhangs (N = 20 < 32): no branch, every tile goes through the scratch.
// CHECK-LABEL: func.func @all_edges
// CHECK-NOT:     scf.if
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32xf32>
// CHECK-NOT:     vector.load %c
func.func @all_edges(%a4: memref<1x2x8x4xf32>, %b4: memref<1x1x8x32xf32>, %c: memref<1x7x20xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xf32>, memref<1x1x8x32xf32>) outs(%c : memref<1x7x20xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Integer contractions and other maps are left to the loops.
// CHECK-LABEL: func.func @integers_kept
// CHECK:         linalg.generic
// CHECK-NOT:     vector.
func.func @integers_kept(%a4: memref<1x2x8x4xi32>, %b4: memref<1x1x8x32xi32>, %c: memref<1x8x32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xi32>, memref<1x1x8x32xi32>) outs(%c : memref<1x8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}
