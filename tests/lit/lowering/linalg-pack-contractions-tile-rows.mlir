// RUN: xla-opt %s -p "linalg-pack-contractions{target=cascadelake},linalg-vectorize-contractions{target=cascadelake}" | FileCheck %s --check-prefix=CLX
// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx512},linalg-vectorize-contractions{target=avx512}" | FileCheck %s --check-prefix=SKX

// The rows of the f32 register tile are a property of the target (`Target.tile_rows`):
// Cascade Lake keeps 6 x 64 (24 accumulators, 24 FMAs per k step on the 4 vectors of B
// it loads), the other AVX-512 targets 4 x 64 (16). A (516 rows: 86 panels of 6, 129 of
// 4) is read in place by panels of the tile's rows. With fewer than 256 rows or a k
// shallower than 512, Cascade Lake keeps 4 rows too (@few_rows, @shallow); 256 rows
// (the transformer block's products) take 6 (@rows_256: 42 panels and an edge).
// CLX-LABEL: func.func @tile_rows
// CLX:         memref.reinterpret_cast %a to offset: [0], sizes: [1, 86, 512, 6], strides: [0, 3072, 1, 512]
// CLX:         scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CLX-COUNT-4:   vector.load {{.*}} : memref<1x8x{{[0-9]+}}x64xf32{{.*}}>, vector<16xf32>
// CLX-COUNT-24:  vector.fma
// CLX-NOT:       vector.fma
// CLX:           scf.yield
// SKX-LABEL: func.func @tile_rows
// SKX:         memref.reinterpret_cast %a to offset: [0], sizes: [1, 129, 512, 4], strides: [0, 2048, 1, 512]
// SKX:         scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// SKX-COUNT-4:   vector.load {{.*}} : memref<1x8x{{[0-9]+}}x64xf32{{.*}}>, vector<16xf32>
// SKX-COUNT-16:  vector.fma
// SKX-NOT:       vector.fma
// SKX:           scf.yield
func.func @tile_rows(%a: memref<516x512xf32>, %b: memref<512x512xf32>, %c: memref<516x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<516x512xf32>, memref<512x512xf32>) outs(%c : memref<516x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// CLX-LABEL: func.func @few_rows
// CLX:         memref.reinterpret_cast %a to offset: [0], sizes: [1, 32, 512, 4]
// CLX-LABEL: func.func @rows_256
// CLX-NOT:     memref.reinterpret_cast %a
// CLX:         memref.alloc() {alignment = 64 : i64} : memref<1x43x513x6xf32>
// CLX-LABEL: func.func @shallow
// CLX:         memref.reinterpret_cast %a to offset: [0], sizes: [1, 129, 128, 4]
func.func @few_rows(%a: memref<128x512xf32>, %b: memref<512x512xf32>, %c: memref<128x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<128x512xf32>, memref<512x512xf32>) outs(%c : memref<128x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @rows_256(%a: memref<256x512xf32>, %b: memref<512x512xf32>, %c: memref<256x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<256x512xf32>, memref<512x512xf32>) outs(%c : memref<256x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @shallow(%a: memref<516x128xf32>, %b: memref<128x512xf32>, %c: memref<516x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<516x128xf32>, memref<128x512xf32>) outs(%c : memref<516x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// A contraction of two k loops (a convolution's window and features) keeps 4 rows on
// Cascade Lake too: with 6, LLVM took three times as long on a 3x3 convolution's kernel.
// CLX-LABEL: func.func @two_k_loops
// CLX:         memref.alloc() {alignment = 64 : i64} : memref<1x129x513x4xf32>
// CLX-NOT:     x6xf32>
// CLX:         func.return
func.func @two_k_loops(%a: memref<516x32x16xf32>, %b: memref<32x16x512xf32>, %c: memref<516x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b : memref<516x32x16xf32>, memref<32x16x512xf32>) outs(%c : memref<516x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
