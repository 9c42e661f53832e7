// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx512vnni},linalg-vectorize-contractions{target=avx512vnni}" | FileCheck %s --check-prefix=VNNI
// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx2},linalg-vectorize-contractions{target=avx2}" | FileCheck %s --check-prefix=AVX2

// With AVX512-VNNI, an i8 x i8 -> i32 contraction packs its operands widened to
// i16 as pairs along k (A4[b, m1, k/2, m0, 2], B4[b, n1, k/2, n0, 2]; K = 37 is
// odd: the last pair ends in a zero), and the micro-kernel issues vpdpwssd, two k
// steps per instruction, from zero-started tiles (the zero fill of C is dropped).
// VNNI-LABEL: func.func @i8_matmul
// N = 40 narrows the tile to 3 vectors (48 columns) and 5 rows.
// VNNI-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x8x19x5x2xi16>
// VNNI-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x1x19x48x2xi16>
// VNNI-NOT:     linalg.fill
// VNNI:         %[[LD:.*]] = memref.load %a[{{.*}}] : memref<40x37xi8>
// VNNI-NEXT:    %[[W:.*]] = arith.extsi %[[LD]] : i8 to i16
// VNNI:         arith.select %{{.*}}, %[[W]], %{{.*}} : i16
// VNNI:         %[[Z:.*]] = arith.constant 0 : i32
// VNNI-NEXT:    vector.broadcast %[[Z]] : i32 to vector<16xi32>
// VNNI:         scf.for
// VNNI:           vector.load %{{.*}} : memref<1x1x19x48x2xi16, {{.*}}>, vector<32xi16>
// VNNI:           %[[P:.*]] = vector.load %{{.*}} : memref<1x8x19x5x2xi16, {{.*}}>, vector<2xi16>
// VNNI-NEXT:      %[[PW:.*]] = vector.bitcast %[[P]] : vector<2xi16> to vector<1xi32>
// VNNI-NEXT:      %[[WS:.*]] = vector.broadcast %[[PW]] : vector<1xi32> to vector<16xi32>
// VNNI-NEXT:      %[[BA:.*]] = vector.bitcast %[[WS]] : vector<16xi32> to vector<32xi16>
// VNNI-NEXT:      x86vector.avx512.dot.i16 %{{.*}}, %[[BA]], %{{.*}} : vector<32xi16> -> vector<16xi32>
// VNNI-NOT:     linalg.generic

// Without VNNI (on AVX2 with 8 lanes, 6 x 16 tiles), the operands are packed widened to
// i32 and the micro-kernel multiplies and adds whole vectors.
// AVX2-LABEL: func.func @i8_matmul
// AVX2-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x7x37x6xi32>
// AVX2-DAG:     memref.alloc() {alignment = 64 : i64} : memref<1x3x37x16xi32>
// AVX2:         arith.extsi %{{.*}} : i8 to i32
// AVX2:         scf.for
// AVX2:           %[[R:.*]] = vector.load %{{.*}} : memref<1x3x37x16xi32, {{.*}}>, vector<8xi32>
// AVX2:           %[[A:.*]] = memref.load %{{.*}} : memref<1x7x37x6xi32, {{.*}}>
// AVX2-NEXT:      %[[BA:.*]] = vector.broadcast %[[A]] : i32 to vector<8xi32>
// AVX2-NEXT:      %[[M:.*]] = arith.muli %[[BA]], %[[R]] : vector<8xi32>
// AVX2-NEXT:      arith.addi %{{.*}}, %[[M]] : vector<8xi32>
// AVX2-NOT:     x86vector
// AVX2-NOT:     linalg.generic
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
