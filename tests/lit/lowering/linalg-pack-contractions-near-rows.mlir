// RUN: xla-opt %s -p "linalg-pack-contractions{target=znver4}" | FileCheck %s --check-prefix=ZEN
// RUN: xla-opt %s -p "linalg-pack-contractions{target=avx512}" | FileCheck %s --check-prefix=INTEL

// Reading a right operand in place, unpacked, when its k rows are near (at most 2 KiB
// apart) depends on the target (`Target.near_rows_in_place`). On Zen 4, up to 32 row
// panels (M = 128: the MLP's batch) read B (512 floats a row) in place; with 33 row
// panels (M = 132), or rows 4 KiB apart (1024 floats), B is packed again. Intel's cores
// pack B in all three. A, whole 4-row panels along k, is read in place everywhere.
// ZEN-LABEL: func.func @near_rows
// ZEN-NOT:     memref.alloc
// ZEN:         %[[AV:.*]] = memref.reinterpret_cast %a to offset: [0], sizes: [1, 32, 64, 4], strides: [0, 256, 1, 64] : memref<128x64xf32> to memref<1x32x64x4xf32, strided<[0, 256, 1, 64]>>
// ZEN-NEXT:    %[[BV:.*]] = memref.reinterpret_cast %b to offset: [0], sizes: [1, 8, 64, 64], strides: [0, 64, 512, 1] : memref<64x512xf32> to memref<1x8x64x64xf32, strided<[0, 64, 512, 1]>>
// ZEN-NEXT:    linalg.generic {{.*}} ins(%[[AV]], %[[BV]] : {{.*}})
// ZEN-LABEL: func.func @too_many_row_panels
// ZEN-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x8x65x64xf32>
// ZEN-NOT:     memref.alloc
// ZEN:         memref.reinterpret_cast %a
// ZEN-NOT:     memref.reinterpret_cast %b
// ZEN-LABEL: func.func @far_rows
// ZEN-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x16x65x64xf32>
// ZEN-NOT:     memref.alloc
// ZEN-NOT:     memref.reinterpret_cast %b

// INTEL-LABEL: func.func @near_rows
// INTEL-NEXT:    %[[BP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x8x65x64xf32>
// INTEL-NOT:     memref.alloc
// INTEL:         %[[AV:.*]] = memref.reinterpret_cast %a to offset: [0], sizes: [1, 32, 64, 4]
// INTEL-NOT:     memref.reinterpret_cast %b
// INTEL:         linalg.generic {{.*}} ins(%[[AV]], %{{.*}} : {{.*}})
// INTEL-LABEL: func.func @too_many_row_panels
// INTEL-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x8x65x64xf32>
// INTEL-NOT:     memref.reinterpret_cast %b
// INTEL-LABEL: func.func @far_rows
// INTEL-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x16x65x64xf32>
// INTEL-NOT:     memref.reinterpret_cast %b
func.func @near_rows(%a: memref<128x64xf32>, %b: memref<64x512xf32>, %c: memref<128x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<128x64xf32>, memref<64x512xf32>) outs(%c : memref<128x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @too_many_row_panels(%a: memref<132x64xf32>, %b: memref<64x512xf32>, %c: memref<132x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<132x64xf32>, memref<64x512xf32>) outs(%c : memref<132x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @far_rows(%a: memref<128x64xf32>, %b: memref<64x1024xf32>, %c: memref<128x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<128x64xf32>, memref<64x1024xf32>) outs(%c : memref<128x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

