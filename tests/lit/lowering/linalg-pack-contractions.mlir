// RUN: xla-opt %s --split-input-file -p "linalg-pack-contractions{target=avx512}" | FileCheck %s

// A matmul C[m, n] += A[m, k] * B[k, n] on buffers (62x48 @ 48x200): A is packed
// into 4-row panels zero-padded past m = 62 (A4[b, m1, k, m0]; whole panels would be
// read in place), B into 64-column panels zero-padded past n = 200 (B4[b, n1, k, n0]),
// and C is viewed as [1, 62, 200] (batch, m, n): the contraction then reads the
// packed panels through floordiv/mod.
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    %[[A4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16x48x4xf32>
// CHECK-NEXT:    %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x48x64xf32>
// The fill of C stays; the contraction follows the packs.
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%c : memref<62x200xf32>)
// CHECK:         %[[C3:.*]] = memref.reinterpret_cast %c to offset: [0], sizes: [1, 62, 200], strides: [0, 200, 1] : memref<62x200xf32> to memref<1x62x200xf32, strided<[0, 200, 1]>>
// The packs iterate (b, f1, k, f0): f0 innermost, a whole tile row stored per step.
// CHECK-NEXT:    %[[A4V:.*]] = memref.subview %[[A4]][0, 0, 0, 0] [1, 16, 48, 4] [1, 1, 1, 1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[A4V]] : memref<1x16x48x4xf32, strided<[3072, 192, 4, 1]>>)
// CHECK:           memref.load %a[%{{.*}}, %{{.*}}] : memref<62x48xf32>
// B's columns past 200 are zero: a clamped load and a select. B, read along n (its
// rows contiguous), is packed (b, k, n1, n0): each k step reads a whole row of B.
// CHECK:         %[[B4V:.*]] = memref.subview %[[B4]][0, 0, 0, 0] [1, 4, 48, 64] [1, 1, 1, 1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], {{.*}} outs(%[[B4V]] : memref<1x4x48x64xf32, strided<[12288, 3072, 64, 1]>>)
// CHECK:           %[[CL:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:           %[[LD:.*]] = memref.load %b[%{{.*}}, %[[CL]]] : memref<48x200xf32>
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      arith.select %[[IN]], %[[LD]], %{{.*}} : f32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d3, (d1 mod 4))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 64), d3, (d2 mod 64))>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A4V]], %[[B4V]] : {{.*}}) outs(%[[C3]] : memref<1x62x200xf32, strided<[0, 200, 1]>>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         memref.dealloc %[[A4]] : memref<1x16x48x4xf32>
// CHECK-NEXT:    memref.dealloc %[[B4]] : memref<1x4x48x64xf32>
// CHECK-NEXT:    func.return
func.func @matmul(%a: memref<62x48xf32>, %b: memref<48x200xf32>, %c: memref<62x200xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<62x200xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<62x48xf32>, memref<48x200xf32>) outs(%c : memref<62x200xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Few row panels (M = 8: two 4-row panels) reuse B too little to pay for its
// packing, and two column panels reuse A too little: both are read in place,
// through strided views in the packed layout.
// CHECK-LABEL: func.func @views
// CHECK-NOT:     memref.alloc
// CHECK:         %[[AV:.*]] = memref.reinterpret_cast %a to offset: [0], sizes: [1, 2, 256, 4], strides: [0, 1024, 1, 256] : memref<8x256xf32> to memref<1x2x256x4xf32, strided<[0, 1024, 1, 256]>>
// CHECK-NEXT:    %[[BV:.*]] = memref.reinterpret_cast %b to offset: [0], sizes: [1, 2, 256, 64], strides: [0, 64, 128, 1] : memref<256x128xf32> to memref<1x2x256x64xf32, strided<[0, 64, 128, 1]>>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[AV]], %[[BV]] : {{.*}})
func.func @views(%a: memref<8x256xf32>, %b: memref<256x128xf32>, %c: memref<8x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x256xf32>, memref<256x128xf32>) outs(%c : memref<8x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A left operand read along m (A[k, m]: each k step of a row panel would load a
// new cache line) is packed even with 64 row panels, as a row-major one is not.
// CHECK-LABEL: func.func @lhs_along_m
// CHECK-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x64x65x4xf32>
// CHECK-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<1x4x65x64xf32>
// CHECK-NOT:     memref.reinterpret_cast %a
// CHECK:         memref.load %a[%{{.*}}, %{{.*}}] : memref<64x256xf32>
func.func @lhs_along_m(%a: memref<64x256xf32>, %b: memref<64x256xf32>, %c: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x256xf32>, memref<64x256xf32>) outs(%c : memref<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A convolution (NHWC, 3x3 window, 16 -> 40 features) is a contraction over
// k = (kh, kw, c): its input is packed through the window (implicit GEMM) with
// the three k loops kept as loops, given their ranges by an unread 3x3x16 operand.
// N = 40 narrows the tile to 3 vectors (48 columns) and 5 rows.
// CHECK-LABEL: func.func @convolution
// CHECK:         %[[W:.*]] = memref.alloca() : memref<3x3x16xi8>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, (((d2 * 48) + (d3 * 16)) + d4), d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[W]] : memref<3x3x16xi8>)
// CHECK:           memref.load %in[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x12x11x16xf32>
func.func @convolution(%in: memref<2x12x11x16xf32>, %w: memref<3x3x16x40xf32>, %out: memref<2x10x9x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%in, %w : memref<2x12x11x16xf32>, memref<3x3x16x40xf32>) outs(%out : memref<2x10x9x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// bf16 operands are widened once, in the packs; the packed buffers are f32.
// N = 20 is narrower than the 64-column tile: the tile narrows to two vectors
// (32 columns) and grows to 8 rows. K = 64 becomes 65 in the packed buffers (an
// odd panel length keeps panels out of each other's cache sets).
// CHECK-LABEL: func.func @bf16_operands
// CHECK-NEXT:    %[[A4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x5x65x8xf32>
// CHECK-NEXT:    %[[B4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x65x32xf32>
// CHECK:         memref.load %a[{{.*}}] : memref<40x64xbf16>
// CHECK-NEXT:    arith.extf %{{.*}} : bf16 to f32
// CHECK:         memref.load %b[{{.*}}] : memref<64x20xbf16>
// CHECK-NEXT:    arith.extf %{{.*}} : bf16 to f32
// CHECK:         affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 8), d3, (d1 mod 8))>, affine_map<(d0, d1, d2, d3) -> (d0, (d2 floordiv 32), d3, (d2 mod 32))>
func.func @bf16_operands(%a: memref<40x64xbf16>, %b: memref<64x20xbf16>, %c: memref<40x20xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<40x64xbf16>, memref<64x20xbf16>) outs(%c : memref<40x20xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A result whose innermost dimension is the batch ([m, n, b]) is neither row-
// nor column-contiguous: it is copied into a scratch [b, m, n] and back.
// CHECK-LABEL: func.func @batch_innermost
// CHECK:         %[[C3:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x64x80xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%c : memref<64x80x3xf32>) outs(%[[C3]] : memref<3x64x80xf32>)
// CHECK:         outs(%[[C3]] : memref<3x64x80xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], {{.*}} ins(%[[C3]] : memref<3x64x80xf32>) outs(%c : memref<64x80x3xf32>)
func.func @batch_innermost(%a: memref<3x64x48xf32>, %b: memref<3x48x80xf32>, %c: memref<64x80x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<3x64x48xf32>, memref<3x48x80xf32>) outs(%c : memref<64x80x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Too small (8 x 8 x 8 multiply-adds), and not a contraction (a max body): both kept.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     memref.alloc
// CHECK:         arith.mulf
// CHECK:         arith.maximumf
func.func @kept(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %d: memref<64x64xf32>, %e: memref<64x64xf32>, %f: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%d, %e : memref<64x64xf32>, memref<64x64xf32>) outs(%f : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.addf %x, %y : f32
    %s = arith.maximumf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// K = 10 with B transposed (C[m, n] += A[m, k] * B[n, k]: an MLP's output layer,
// backwards) is packed: B4's 64-column panels read B[n, k] once, so the micro-kernel
// never loads with a stride of 10 (A, 4-row panels along k, is read in place). K = 3
// keeps the simple path.
// CHECK-LABEL: func.func @shallow
// CHECK-NOT:     memref.alloc() {alignment = 64 : i64} : memref<1x32x10x4xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<1x8x10x64xf32>
// CHECK:         memref.reinterpret_cast %a to offset: [0], sizes: [1, 32, 10, 4], strides: [0, 40, 1, 10]
// CHECK:         memref.load %b[%{{.*}}, %{{.*}}] : memref<512x10xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x32x10x4xf32{{.*}}>, memref<1x8x10x64xf32{{.*}}>)
// CHECK:         linalg.generic {{.*}} ins(%d, %e : memref<128x3xf32>, memref<3x512xf32>) outs(%f : memref<128x512xf32>)
func.func @shallow(%a: memref<128x10xf32>, %b: memref<512x10xf32>, %c: memref<128x512xf32>, %d: memref<128x3xf32>, %e: memref<3x512xf32>, %f: memref<128x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<128x10xf32>, memref<512x10xf32>) outs(%c : memref<128x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%d, %e : memref<128x3xf32>, memref<3x512xf32>) outs(%f : memref<128x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// B read as B[n, k] (n strided, k contiguous; both multiples of 8): B is first
// copied transposed into a K x N scratch (an element-wise generic that
// linalg-tile-transposes runs 8 x 8 tile by tile), and B4 is packed from the copy,
// reading its rows contiguously rather than gathering 64 rows a row apart.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x80xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : memref<80x64xf32>) outs(%[[T]] : memref<64x80xf32>)
// CHECK:         memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<64x80xf32>
// CHECK:         memref.dealloc %[[T]] : memref<64x80xf32>
func.func @transposed_rhs(%a: memref<40x64xf32>, %b: memref<80x64xf32>, %c: memref<40x80xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a, %b : memref<40x64xf32>, memref<80x64xf32>) outs(%c : memref<40x80xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// A batched right operand read as B[n, b, k] (attention's keys in Q K^T: n strided,
// k contiguous) is copied transposed one batch element at a time, through strided
// [n, k] views of each matrix into [k, n] views of a [b, k, n] scratch (element-wise
// copies that linalg-tile-transposes runs 8 x 8 tile by tile), and packed from it.
// CHECK-LABEL: func.func @transposed_rhs_batched
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x64x80xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[M:.*]] = memref.reinterpret_cast %b to offset: [%{{.*}}], sizes: [80, 64], strides: [192, 1] : memref<80x3x64xf32> to memref<80x64xf32, strided<[192, 1], offset: ?>>
// CHECK:           %[[R:.*]] = memref.reinterpret_cast %[[T]] to offset: [%{{.*}}], sizes: [64, 80], strides: [80, 1] : memref<3x64x80xf32> to memref<64x80xf32, strided<[80, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[M]] : {{.*}}) outs(%[[R]] : {{.*}})
// CHECK:         memref.load %[[T]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<3x64x80xf32>
// CHECK:         memref.dealloc %[[T]] : memref<3x64x80xf32>
func.func @transposed_rhs_batched(%a: memref<3x40x64xf32>, %b: memref<80x3x64xf32>, %c: memref<3x40x80xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<3x40x64xf32>, memref<80x3x64xf32>) outs(%c : memref<3x40x80xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
