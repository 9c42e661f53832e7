// RUN: xla-opt %s --split-input-file -p "linalg-vectorize-contractions{target=avx512}" | FileCheck %s

// Whole tiles only (M = 8 = 2 x 4 rows, N = 32 = one 32-column tile, K = 8):
// one parallel part (b, column block, row block), in it the loops k block, n1, m1
// around the micro-kernel, which loads the 4 x 2 accumulator vectors of C, runs k
// carrying them, and per k loads B's row (2 vectors), broadcasts each of A's 4
// values and issues 8 fmas. No edge: no scratch tile.
// CHECK-LABEL: func.func @whole_tiles
// CHECK-NOT:     memref.alloca
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    "scf.parallel"(%{{.*}}, %[[ONE]], %[[ONE]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^{{.*}}(%[[B:.*]]: index):
// CHECK-NOT:       memref.alloca
// CHECK:           scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[N1:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[M1:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:               scf.if
// CHECK-COUNT-8:           vector.load %c[{{.*}}] : memref<1x8x32xf32>, vector<16xf32>
// CHECK:                   %{{.*}}:8 = scf.for %[[K:.*]] = %[[K0]] to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-2:             vector.load %b4[%[[B]], %[[N1]], %[[K]], %{{.*}}] : memref<1x1x8x32xf32>, vector<16xf32>
// CHECK:                     %[[A:.*]] = memref.load %a4[%[[B]], %[[M1]], %[[K]], %{{.*}}] : memref<1x2x8x4xf32>
// CHECK-NEXT:                %[[BC:.*]] = vector.broadcast %[[A]] : f32 to vector<16xf32>
// CHECK-NEXT:                vector.fma %[[BC]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NEXT:                vector.fma %[[BC]], %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-COUNT-6:             vector.fma
// CHECK:                     scf.yield
// CHECK-COUNT-8:           vector.store %{{.*}}, %c[{{.*}}] : memref<1x8x32xf32>, vector<16xf32>
// CHECK:           scf.reduce
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
// through the 4 x 32 scratch tile, copied in and out over their valid part. The
// scratch is allocated first in the parallel body: each thread has its own. The
// two 32-column tiles are two parts (fewer than 16 parts of rows: columns split).
// CHECK-LABEL: func.func @edges
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         "scf.parallel"(%{{.*}}, %[[TWO]], %{{.*}})
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:      %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x32xf32>
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

// i32 contractions get the same micro-kernel, with a vector multiply and add in
// place of the fma (AVX-512: 16 lanes, two vectors per tile row).
// CHECK-LABEL: func.func @integers
// CHECK:         scf.for
// CHECK:           %[[ROW:.*]] = vector.load %{{.*}} : memref<1x1x8x32xi32>, vector<16xi32>
// CHECK:           %[[A:.*]] = memref.load %{{.*}} : memref<1x2x8x4xi32>
// CHECK-NEXT:      %[[BA:.*]] = vector.broadcast %[[A]] : i32 to vector<16xi32>
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[BA]], %[[ROW]] : vector<16xi32>
// CHECK-NEXT:      arith.addi %{{.*}}, %[[P]] : vector<16xi32>
// CHECK-NOT:     linalg.generic
func.func @integers(%a4: memref<1x2x8x4xi32>, %b4: memref<1x1x8x32xi32>, %c: memref<1x8x32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xi32>, memref<1x1x8x32xi32>) outs(%c : memref<1x8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}

// -----

// Other element types (i16 sums) are left to the loops.
// CHECK-LABEL: func.func @i16_kept
// CHECK:         linalg.generic
// CHECK-NOT:     vector.
func.func @i16_kept(%a4: memref<1x2x8x4xi16>, %b4: memref<1x1x8x32xi16>, %c: memref<1x8x32xi16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x2x8x4xi16>, memref<1x1x8x32xi16>) outs(%c : memref<1x8x32xi16>) {
  ^bb0(%x: i16, %y: i16, %acc: i16):
    %p = arith.muli %x, %y : i16
    %s = arith.addi %acc, %p : i16
    linalg.yield %s : i16
  }
  func.return
}

// -----

// Batch 2, M = 128 rows: parts of 64 rows (16 tiles of 4), 2 per batch element,
// so 4 parts; the part number t gives the row part t mod 2 and the batch t / 2,
// and the part's tiles are rows [16 (t mod 2), 16 (t mod 2) + 16).
// CHECK-LABEL: func.func @parts
// CHECK:         %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:         "scf.parallel"(%{{.*}}, %[[FOUR]], %{{.*}})
// CHECK-NEXT:    ^{{.*}}(%[[T:.*]]: index):
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[IP:.*]] = arith.remui %[[T]], %[[C2]] : index
// CHECK-NEXT:      %[[B:.*]] = arith.divui %[[T]], %[[C2]] : index
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[LO:.*]] = arith.muli %[[IP]], %[[C16]] : index
// CHECK-NEXT:      %[[HI:.*]] = arith.addi %[[LO]], %[[C16]] : index
// CHECK:           scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[N1:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[M1:.*]] = %[[LO]] to %[[HI]] step
// CHECK:                 vector.load %c[%[[B]], %{{.*}}, %{{.*}}] : memref<2x128x32xf32>, vector<16xf32>
func.func @parts(%a4: memref<2x32x8x4xf32>, %b4: memref<2x1x8x32xf32>, %c: memref<2x128x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<2x32x8x4xf32>, memref<2x1x8x32xf32>) outs(%c : memref<2x128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// K blocks (kc) follow how B4's panels lie. Packed panels (k rows adjacent, here a
// subview of a K-padded buffer) stream from L2: kc = 512 with AVX-512 (1 MiB L2),
// so 1024 = 2 blocks. B read in place through a strided view (rows 1024 floats
// apart, one prefetch stream each) keeps a micro-panel in half of L1: kc = 64.
// Rows at most 2 KiB apart (512 floats) are blocked as packed panels: kc = 512.
// CHECK-LABEL: func.func @k_blocks
// CHECK:         %[[KC:.*]] = arith.constant 512 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]] {
// CHECK:         scf.reduce
// CHECK:         %[[KC_VIEW:.*]] = arith.constant 64 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC_VIEW]] {
// CHECK:         scf.reduce
// CHECK:         %[[KC_NEAR:.*]] = arith.constant 512 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC_NEAR]] {
func.func @k_blocks(%a4: memref<1x16x1024x4xf32>, %full: memref<1x1x1025x64xf32>, %view: memref<1x1x1024x64xf32, strided<[0, 64, 1024, 1]>>, %c: memref<1x64x64xf32>, %near: memref<1x1x1024x64xf32, strided<[0, 64, 512, 1]>>) {
  %b4 = memref.subview %full[0, 0, 0, 0] [1, 1, 1024, 64] [1, 1, 1, 1] : memref<1x1x1025x64xf32> to memref<1x1x1024x64xf32, strided<[65600, 65600, 64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x16x1024x4xf32>, memref<1x1x1024x64xf32, strided<[65600, 65600, 64, 1]>>) outs(%c : memref<1x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %view : memref<1x16x1024x4xf32>, memref<1x1x1024x64xf32, strided<[0, 64, 1024, 1]>>) outs(%c : memref<1x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %near : memref<1x16x1024x4xf32>, memref<1x1x1024x64xf32, strided<[0, 64, 512, 1]>>) outs(%c : memref<1x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// K = 576 (a 3x3x64 convolution) is two balanced blocks of 288, not 512 + 64.
// CHECK-LABEL: func.func @balanced_k_blocks
// CHECK:         %[[KC:.*]] = arith.constant 288 : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[KC]] {
func.func @balanced_k_blocks(%a4: memref<1x16x576x4xf32>, %b4: memref<1x1x576x64xf32>, %c: memref<1x64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x16x576x4xf32>, memref<1x1x576x64xf32>) outs(%c : memref<1x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// C filled with +0.0 just before the contraction (nothing touches it in between but
// views): the fill goes, and the tiles of the first k block start from zero vectors
// rather than being loaded: an scf.if on k0 == 0 in front of each tile's k loop
// (one micro-kernel for every k block: not a peeled first block, a second copy).
// CHECK-LABEL: func.func @zero_start
// CHECK-NOT:     outs(%c : memref<64x64xf32>)
// CHECK:         "scf.parallel"
// CHECK:           scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[ZI:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[K0]], %[[ZI]] : index
// CHECK:             %[[ACC:.*]]:16 = scf.if %[[FIRST]] -> (vector<16xf32>,
// CHECK-NEXT:          %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          %[[Z:.*]] = vector.broadcast %[[ZF]] : f32 to vector<16xf32>
// CHECK-NEXT:          scf.yield %[[Z]], %[[Z]],
// CHECK-NEXT:        } else {
// CHECK-NEXT:          vector.load %{{.*}}[{{.*}}] : memref<1x64x64xf32, strided<[0, 64, 1]>>, vector<16xf32>
// CHECK:             = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ACC]]#0, %{{.*}} = %[[ACC]]#1,
// CHECK:             vector.store
// CHECK-NOT:     vector.fma
func.func @zero_start(%a4: memref<1x16x1024x4xf32>, %b4: memref<1x1x1024x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %c3 = memref.reinterpret_cast %c to offset: [0], sizes: [1, 64, 64], strides: [0, 64, 1] : memref<64x64xf32> to memref<1x64x64xf32, strided<[0, 64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a4, %b4 : memref<1x16x1024x4xf32>, memref<1x1x1024x64xf32>) outs(%c3 : memref<1x64x64xf32, strided<[0, 64, 1]>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
