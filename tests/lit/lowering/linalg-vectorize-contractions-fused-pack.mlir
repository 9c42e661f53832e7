// RUN: xla-opt %s --split-input-file -p "linalg-pack-contractions{target=avx512},linalg-vectorize-contractions{target=avx512}" | FileCheck %s

// A convolution's im2col pack of A moves into the parallel parts: each part packs
// its own rows (13 row panels of 5: M = 90 is 18 panels, so two parts, the last of
// 5 panels) into a per-thread buffer on the stack (the part's pack is marked
// `xla.no_unroll_short`: its kernel-window loops are to stay rolled), then the
// micro-kernel reads A from it at the panel's offset in the part. No whole packed A is allocated; B's
// pack stays before the parts (all parts read it).
// CHECK-LABEL: func.func @convolution
// CHECK-NOT:     memref.alloc() {{.*}} : memref<1x18x145x5xf32>
// CHECK:         %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x145x48xf32>
// CHECK:         linalg.generic
// CHECK:           memref.load %w
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[T:.*]]: index):
// CHECK-NEXT:      memref.alloca() {alignment = 64 : i64} : memref<5x48xf32>
// CHECK-NEXT:      %[[LOCAL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x13x145x5xf32>
// CHECK:           %[[IP:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK:           %[[M_LO:.*]] = arith.muli %[[IP]], %{{.*}} : index
// CHECK:           %[[LAST:.*]] = arith.cmpi eq, %[[IP]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK-NEXT:        %[[SHORT:.*]] = memref.subview %[[LOCAL]][0, 0, 0, 0] [1, 5, 144, 5] [1, 1, 1, 1]
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[SHORT]] : memref<1x5x144x5xf32, strided<[9425, 725, 5, 1]>>) attrs = {xla.no_unroll_short}
// CHECK-NEXT:        ^{{.*}}(%{{.*}}: i8, %{{.*}}: f32):
// CHECK-NEXT:          %[[P:.*]] = linalg.index 1 : index
// CHECK-NEXT:          %{{.*}} = arith.addi %[[P]], %[[M_LO]] : index
// CHECK:               memref.load %in[{{.*}}] : memref<1x12x11x16xf32>
// CHECK:           } else {
// CHECK-NEXT:        %[[FULL:.*]] = memref.subview %[[LOCAL]][0, 0, 0, 0] [1, 13, 144, 5] [1, 1, 1, 1]
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[FULL]] : memref<1x13x144x5xf32, strided<[9425, 725, 5, 1]>>) attrs = {xla.no_unroll_short}
// CHECK:               memref.load %in[{{.*}}] : memref<1x12x11x16xf32>
// CHECK:           scf.for
// CHECK:             scf.for %[[M1:.*]] = %[[M_LO]] to
// CHECK:               %[[ROW:.*]] = arith.subi %[[M1]], %[[M_LO]] : index
// CHECK:               vector.load %{{.*}} : memref<1x1x144x48xf32, {{.*}}>, vector<16xf32>
// CHECK:               memref.load %[[LOCAL]][%{{.*}}, %[[ROW]], %{{.*}}, %{{.*}}] : memref<1x13x145x5xf32>
// CHECK-NOT:   linalg.generic
func.func @convolution(%in: memref<1x12x11x16xf32>, %w: memref<3x3x16x40xf32>, %out: memref<1x10x9x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%in, %w : memref<1x12x11x16xf32>, memref<3x3x16x40xf32>) outs(%out : memref<1x10x9x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// When the columns are split among the parts too (one row part of 64 x 512: 8 parts
// of columns), packing per part would pack A's rows once per column part: A is
// packed whole, once, before the parts. (A is read along m here, A[k, m]: along k
// it would be read in place, not packed.)
// CHECK-LABEL: func.func @columns_split
// CHECK:         %[[A4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x65x4xf32>
// CHECK:         %[[A_SUB:.*]] = memref.subview %[[A4]]
// CHECK:         linalg.generic {{.*}} outs(%[[A_SUB]] :
// CHECK:         "scf.parallel"
// CHECK-NOT:       memref.alloca() {{.*}} : memref<1x{{.*}}x65x4xf32>
// CHECK:           memref.load %[[A_SUB]]
func.func @columns_split(%a: memref<64x64xf32>, %b: memref<64x512xf32>, %c: memref<64x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x64xf32>, memref<64x512xf32>) outs(%c : memref<64x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
