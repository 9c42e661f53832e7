// RUN: xla-opt %s -p linalg-split-reductions --split-input-file | FileCheck %s
// RUN: xla-opt %s -p "linalg-split-reductions{max_parts=1}" --split-input-file | FileCheck %s --check-prefix=OFF

// A full sum over 16M elements (32M of work: 8 parts of at least 4M): the
// partials start at -0.0 (the identity of addf), part s sums elements
// [s * 2M, (s + 1) * 2M) of an [8, 2M] view of the input (plain dimensions, read
// contiguously along the reduced one: `linalg-vectorize-reductions` takes it), and
// the partials are added to the output in the order of s.
// CHECK-LABEL: func.func @full_sum
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[P]] : memref<8xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32):
// CHECK-NEXT:      %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:      linalg.yield %[[ID]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [8, 2097152], strides: [2097152, 1] : memref<16777216xf32> to memref<8x2097152xf32, strided<[2097152, 1]>>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : memref<8x2097152xf32, strided<[2097152, 1]>>) outs(%[[P]] : memref<8xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[V:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[P]] : memref<8xf32>) outs(%out : memref<f32>) {
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[O]], %[[E]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[P]] : memref<8xf32>
// OFF-LABEL:   func.func @full_sum
// OFF-NOT:       memref.alloc
// OFF:           linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16777216xf32>)
func.func @full_sum(%x: memref<16777216xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16777216xf32>) outs(%out : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Four rows of 2M (too few rows for the threads): the reduction dimension splits
// into parts, the parallel loop of the parts outside the rows, reading a [4, 4,
// 512K] view of the input; the partials are [parts, rows]. Integer maximum: the
// partials start at the smallest i32.
// CHECK-LABEL: func.func @few_rows_max
// CHECK:         %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x4xi32>
// CHECK:           arith.constant -2147483648 : i32
// CHECK:         %[[X:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [4, 4, 524288], strides: [2097152, 524288, 1] : memref<4x2097152xi32> to memref<4x4x524288xi32, strided<[2097152, 524288, 1]>>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] :
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[P]] : memref<4x4xi32>) outs(%out : memref<4xi32>)
// CHECK:           arith.maxsi %{{.*}}, %{{.*}} : i32
func.func @few_rows_max(%x: memref<4x2097152xi32>, %out: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x2097152xi32>) outs(%out : memref<4xi32>) {
  ^bb0(%v: i32, %acc: i32):
    %m = arith.maxsi %v, %acc : i32
    linalg.yield %m : i32
  }
  func.return
}

// -----

// Views keep the input's strides and offset (every other element from element 3:
// parts of 2M elements 4M apart). An input whose layout is not static cannot be
// viewed: then the split loops' ranges come from an unread zero-stride [P, Q] view
// of one byte and the input is indexed by `s * Q + r'`.
// CHECK-LABEL: func.func @strided
// CHECK:         memref.reinterpret_cast %x to offset: [3], sizes: [8, 2097152], strides: [4194304, 2] : memref<16777216xf32, strided<[2], offset: 3>> to memref<8x2097152xf32, strided<[4194304, 2], offset: 3>>
// CHECK-LABEL: func.func @dynamic_layout
// CHECK-NEXT:    %[[BYTE:.*]] = memref.alloca() : memref<1xi8>
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %[[BYTE]] to offset: [0], sizes: [8, 2097152], strides: [0, 0] : memref<1xi8> to memref<8x2097152xi8, strided<[0, 0]>>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (((d0 * 2097152) + d1))>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[R]], %x : memref<8x2097152xi8, strided<[0, 0]>>, memref<16777216xf32, strided<[?], offset: ?>>) outs(%{{.*}} : memref<8xf32>) {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: i8, %[[V:.*]]: f32, %[[ACC:.*]]: f32):
func.func @strided(%x: memref<16777216xf32, strided<[2], offset: 3>>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16777216xf32, strided<[2], offset: 3>>) outs(%out : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @dynamic_layout(%x: memref<16777216xf32, strided<[?], offset: ?>>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16777216xf32, strided<[?], offset: ?>>) outs(%out : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Left alone: enough rows to run in parallel as they are, a reduction too small to
// be worth threads, a combiner without a neutral element (subf).
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.reinterpret_cast
func.func @kept(%rows: memref<1024x16384xf32>, %r: memref<1024xf32>, %small: memref<4096xf32>, %s: memref<f32>, %x: memref<16777216xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%rows : memref<1024x16384xf32>) outs(%r : memref<1024xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %acc, %v : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%small : memref<4096xf32>) outs(%s : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %acc, %v : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : memref<16777216xf32>) outs(%s : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.subf %acc, %v : f32
    linalg.yield %a : f32
  }
  func.return
}
