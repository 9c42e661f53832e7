// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx512vnni},linalg-vectorize-contractions{target=avx512vnni}" | FileCheck %s --check-prefix=VNNI
// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx2},linalg-vectorize-contractions{target=avx2}" | FileCheck %s --check-prefix=AVX2
// RUN: xla-opt %s -p "linalg-pack-contractions{target=sse},linalg-vectorize-contractions{target=sse}" | FileCheck %s --check-prefix=SSE

// With AVX512-VNNI, an i8 x i8 -> i32 contraction packs its operands widened to
// i16 as pairs along k (A4[b, m1, k/2, m0, 2], B4[b, n1, k/2, n0, 2]; K = 37 is
// odd: the last pair ends in a zero), and the micro-kernel issues vpdpwssd, two k
// steps per instruction, from zero-started tiles (the zero fill of C is dropped).
// VNNI-LABEL: func.func @i8_matmul
// N = 40 narrows the tile to 3 vectors (48 columns) and 5 rows.
// B is packed whole; A's pack moves into the parallel part (pack_fusion.py), into
// the part's own stack buffer.
// VNNI-NOT:     linalg.fill
// VNNI:         memref.alloc() {alignment = 64 : i64} : memref<1x1x19x48x2xi16>
// VNNI:         "scf.parallel"
// VNNI:         memref.alloca() {alignment = 64 : i64} : memref<1x8x19x5x2xi16>
// VNNI:         %[[LD:.*]] = memref.load %a[{{.*}}] : memref<40x37xi8>
// VNNI-NEXT:    %[[W:.*]] = arith.extsi %[[LD]] : i8 to i16
// VNNI:         arith.select %{{.*}}, %[[W]], %{{.*}} : i16
// VNNI:         %[[Z:.*]] = arith.constant 0 : i32
// VNNI-NEXT:    vector.broadcast %[[Z]] : i32 to vector<16xi32>
// VNNI:         scf.for
// VNNI:           vector.load %{{.*}} : memref<1x1x19x48x2xi16, {{.*}}>, vector<32xi16>
// VNNI:           %[[P:.*]] = vector.load %{{.*}} : memref<1x8x19x5x2xi16>, vector<2xi16>
// VNNI-NEXT:      %[[PW:.*]] = vector.bitcast %[[P]] : vector<2xi16> to vector<1xi32>
// VNNI-NEXT:      %[[WS:.*]] = vector.broadcast %[[PW]] : vector<1xi32> to vector<16xi32>
// VNNI-NEXT:      %[[BA:.*]] = vector.bitcast %[[WS]] : vector<16xi32> to vector<32xi16>
// VNNI-NEXT:      x86vector.avx512.dot.i16 %{{.*}}, %[[BA]], %{{.*}} : vector<32xi16> -> vector<16xi32>
// VNNI-NOT:     linalg.generic

// On AVX2 without VNNI (8 lanes, 6 x 16 tiles) the same i16 pairs are packed, and the
// micro-kernel sums each pair with vpmaddwd (no accumulator) and adds it: two k steps
// per multiply instead of one on widened i32 lanes.
// AVX2-LABEL: func.func @i8_matmul
// AVX2-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x7x19x6x2xi16>
// AVX2-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x3x19x16x2xi16>
// AVX2:         arith.extsi %{{.*}} : i8 to i16
// AVX2:         scf.for
// AVX2:           %[[R:.*]] = vector.load %{{.*}} : memref<1x3x19x16x2xi16, {{.*}}>, vector<16xi16>
// AVX2:           %[[P:.*]] = vector.load %{{.*}} : memref<1x7x19x6x2xi16, {{.*}}>, vector<2xi16>
// AVX2-NEXT:      %[[PW:.*]] = vector.bitcast %[[P]] : vector<2xi16> to vector<1xi32>
// AVX2-NEXT:      %[[WS:.*]] = vector.broadcast %[[PW]] : vector<1xi32> to vector<8xi32>
// AVX2-NEXT:      %[[BA:.*]] = vector.bitcast %[[WS]] : vector<8xi32> to vector<16xi16>
// AVX2-NEXT:      %[[M:.*]] = x86vector.avx2.pmaddwd %[[BA]], %[[R]] : vector<16xi16> -> vector<8xi32>
// AVX2-NEXT:      arith.addi %{{.*}}, %[[M]] : vector<8xi32>
// AVX2-NOT:     linalg.generic
// With neither (SSE, 4 lanes), the operands are packed widened to i32 and the
// micro-kernel multiplies and adds whole vectors.
// SSE-LABEL: func.func @i8_matmul
// SSE-DAG:      memref.alloc() {alignment = 64 : i64} : memref<1x7x37x6xi32>
// SSE-DAG:      memref.alloc() {alignment = 64 : i64} : memref<1x5x37x8xi32>
// SSE:          arith.extsi %{{.*}} : i8 to i32
// SSE:          scf.for
// SSE:            %[[A:.*]] = memref.load %{{.*}} : memref<1x7x37x6xi32, {{.*}}>
// SSE-NEXT:       %[[BA:.*]] = vector.broadcast %[[A]] : i32 to vector<4xi32>
// SSE-NEXT:       %[[M:.*]] = arith.muli %[[BA]], %{{.*}} : vector<4xi32>
// SSE-NEXT:       arith.addi %{{.*}}, %[[M]] : vector<4xi32>
// SSE-NOT:      x86vector
// SSE-NOT:      linalg.generic
func.func @i8_matmul(%a: memref<40x37xi8>, %b: memref<37x40xi8>, %c: memref<40x40xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<40x40xi32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<40x37xi8>, memref<37x40xi8>) outs(%c : memref<40x40xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extsi %x : i8 to i32
    %yi = arith.extsi %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}

// A convolution's several k loops (window i, features j): the pairs are taken
// along the innermost, j (16, even), so they are pairs of the flattened k too; the
// outer k loop and the pairs stay loops of the packs, their ranges given by an
// unread [3 x 8] operand, and the packed k index is linear in them (i * 8 + jh).
// VNNI-LABEL: func.func @i8_conv1d
// A's pack runs in the parallel part, into the part's stack buffer.
// VNNI-DAG:     %[[PW:.*]] = memref.alloca() : memref<3x8xi8>
// VNNI-DAG:     %[[KW:.*]] = memref.alloca() : memref<48xi8>
// VNNI:         "scf.parallel"
// VNNI:         memref.alloca() {alignment = 64 : i64} : memref<1x10x24x4x2xi16>
// VNNI:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 8) + d3), d4, d5)>], {{.*}} ins(%[[PW]] : memref<3x8xi8>)
// VNNI:           memref.load %x[{{.*}}] : memref<42x16xi8>
// VNNI-NEXT:      arith.extsi %{{.*}} : i8 to i16
// VNNI:         x86vector.avx512.dot.i16 %{{.*}} : vector<32xi16> -> vector<16xi32>
// On AVX2 the pairs are the same (3 x 8), summed by vpmaddwd; on SSE the operands are
// packed widened to i32, the k loops as they were (3 x 16).
// AVX2-LABEL: func.func @i8_conv1d
// AVX2:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 8) + d3), d4, d5)>]
// AVX2:         x86vector.avx2.pmaddwd %{{.*}} : vector<16xi16> -> vector<8xi32>
// SSE-LABEL: func.func @i8_conv1d
// SSE:          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, ((d2 * 16) + d3), d4)>]
// SSE-NOT:      x86vector
// SSE:          arith.muli %{{.*}} : vector<4xi32>
func.func @i8_conv1d(%x: memref<42x16xi8>, %w: memref<3x16x64xi8>, %c: memref<40x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : memref<42x16xi8>, memref<3x16x64xi8>) outs(%c : memref<40x64xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %ai = arith.extsi %a : i8 to i32
    %bi = arith.extsi %b : i8 to i32
    %p = arith.muli %ai, %bi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  func.return
}
