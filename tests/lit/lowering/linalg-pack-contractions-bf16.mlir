// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx512bf16},linalg-vectorize-contractions{target=avx512bf16}" | FileCheck %s

// With AVX512-BF16, a bf16 x bf16 -> f32 contraction keeps its operands bf16 and
// packs them as pairs along k (A4[b, m1, k/2, m0, 2], B4[b, n1, k/2, n0, 2]; K = 37
// is odd: the last pair ends in a zero); the micro-kernel issues vdpbf16ps, two
// k steps per instruction.
// CHECK-LABEL: func.func @bf16_matmul
// N = 40 narrows the tile to 3 vectors (48 columns) and 5 rows. The one parallel
// part covers all columns: it packs A's pairs itself, into a buffer of its own.
// CHECK:         %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x19x48x2xbf16>
// CHECK:         "scf.parallel"
// CHECK:           memref.alloca() {alignment = 64 : i64} : memref<1x8x19x5x2xbf16>
// CHECK:         %[[LD:.*]] = memref.load %a[{{.*}}] : memref<40x37xbf16>
// CHECK-NEXT:    %[[K:.*]] = arith.constant 37 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[K]] : index
// CHECK-NEXT:    arith.select %[[IN]], %[[LD]], %{{.*}} : bf16
// CHECK-NOT:     arith.extf
// CHECK:         scf.for
// CHECK:           vector.load %{{.*}} : memref<1x1x19x48x2xbf16, {{.*}}>, vector<32xbf16>
// CHECK:           %[[P:.*]] = vector.load %{{.*}} : memref<1x8x19x5x2xbf16>, vector<2xbf16>
// CHECK-NEXT:      %[[W:.*]] = vector.bitcast %[[P]] : vector<2xbf16> to vector<1xi32>
// CHECK-NEXT:      %[[WS:.*]] = vector.broadcast %[[W]] : vector<1xi32> to vector<16xi32>
// CHECK-NEXT:      %[[BA:.*]] = vector.bitcast %[[WS]] : vector<16xi32> to vector<32xbf16>
// CHECK-NEXT:      x86vector.avx512.dot %{{.*}}, %[[BA]], %{{.*}} : vector<32xbf16> -> vector<16xf32>
func.func @bf16_matmul(%a: memref<40x37xbf16>, %b: memref<37x40xbf16>, %c: memref<40x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<40x37xbf16>, memref<37x40xbf16>) outs(%c : memref<40x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
