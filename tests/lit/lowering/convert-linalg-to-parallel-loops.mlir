// RUN: xla-opt %s -p convert-linalg-to-parallel-loops --split-input-file | FileCheck %s

// (xDSL 0.74 prints scf.parallel in the generic form: lower bound, upper bound, step.)

// An element-wise generic: its outer loop becomes an scf.parallel, the inner one
// stays an scf.for (as convert-linalg-to-loops makes it).
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[N:.*]] = arith.constant 64 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    "scf.parallel"(%[[C0]], %[[N]], %[[C1]]) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %{{.*}} step %[[C1]] {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<64x32xf32>
// CHECK-NEXT:        %[[Y:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:        memref.store %[[Y]], %out[%[[I]], %[[J]]] : memref<64x32xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }) : (index, index, index) -> ()
// CHECK-NOT:     linalg.generic
func.func @elementwise(%a: memref<64x32xf32>, %out: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<64x32xf32>) outs(%out : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  }
  func.return
}

// -----

// A row reduction: the rows run in parallel, each row's reduction stays in order.
// CHECK-LABEL: func.func @row_sum
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK:             memref.load %a[%[[I]], %[[J]]]
// CHECK:             arith.addf
// CHECK:         scf.reduce
func.func @row_sum(%a: memref<64x32xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<64x32xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// Unit outer dimensions are skipped: the first dimension with more than one
// iteration is the parallel one.
// CHECK-LABEL: func.func @unit_batch
// CHECK:         scf.for %{{.*}} =
// CHECK-NEXT:      "scf.parallel"
// CHECK-NEXT:      ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:        scf.for %{{.*}} =
func.func @unit_batch(%a: memref<1x64x32xf32>, %out: memref<1x64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<1x64x32xf32>) outs(%out : memref<1x64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  }
  func.return
}

// -----

// Left to convert-linalg-to-loops: an outer reduction (a column sum), an output
// map without the outer dimension, and an in-place update read through another map.
// CHECK-LABEL: func.func @not_parallel
// CHECK-NOT:     scf.parallel
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK-NOT:     scf.parallel
func.func @not_parallel(%a: memref<64x32xf32>, %col: memref<32xf32>, %sq: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<64x32xf32>) outs(%col : memref<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<64x32xf32>) outs(%col : memref<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq : memref<32x32xf32>) outs(%sq : memref<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  func.return
}

// -----

// A loop over blocks of 2 rows made by linalg-fuse-reductions: each iteration
// writes only a buffer it allocates and the subview of %out at its own rows, so
// the loop becomes an scf.parallel (keeping its fusion note).
// CHECK-LABEL: func.func @row_blocks
// CHECK:         "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      %[[X:.*]] = memref.subview %a[%[[I]], 0] [2, 16] [1, 1]
// CHECK-NEXT:      %[[T:.*]] = memref.alloc() : memref<2xf32>
// CHECK:           %[[O:.*]] = memref.subview %out[%[[I]], 0] [2, 16] [1, 1]
// CHECK:           memref.dealloc %[[T]] : memref<2xf32>
// CHECK:           scf.reduce
// CHECK-NEXT:    }) {fusion = "rows(2): reduce, map"} : (index, index, index) -> ()
func.func @row_blocks(%a: memref<8x16xf32>, %out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c2 {
    %x = memref.subview %a[%i, 0] [2, 16] [1, 1] : memref<8x16xf32> to memref<2x16xf32, strided<[16, 1], offset: ?>>
    %t = memref.alloc() : memref<2xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<2x16xf32, strided<[16, 1], offset: ?>>) outs(%t : memref<2xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    }
    %o = memref.subview %out[%i, 0] [2, 16] [1, 1] : memref<8x16xf32> to memref<2x16xf32, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t : memref<2x16xf32, strided<[16, 1], offset: ?>>, memref<2xf32>) outs(%o : memref<2x16xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%v: f32, %s: f32, %r: f32):
      %d = arith.divf %v, %s : f32
      linalg.yield %d : f32
    }
    memref.dealloc %t : memref<2xf32>
  } {fusion = "rows(2): reduce, map"}
  func.return
}

// -----

// The same loop writing all of %out in each iteration (not its own rows), or
// with rows taller than its step, stays an scf.for.
// CHECK-LABEL: func.func @row_blocks_shared
// CHECK:         scf.for
// CHECK:         } {fusion = "rows(2): map"}
func.func @row_blocks_shared(%a: memref<8x16xf32>, %out: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c2 {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x16xf32>) outs(%out : memref<8x16xf32>) {
    ^bb0(%v: f32, %r: f32):
      linalg.yield %v : f32
    }
  } {fusion = "rows(2): map"}
  func.return
}

// -----

// CHECK-LABEL: func.func @row_blocks_overlap
// CHECK:         scf.for
// CHECK:         } {fusion = "rows(2): map"}
func.func @row_blocks_overlap(%a: memref<9x16xf32>, %out: memref<9x16xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c2 {
    %x = memref.subview %a[%i, 0] [3, 16] [1, 1] : memref<9x16xf32> to memref<3x16xf32, strided<[16, 1], offset: ?>>
    %o = memref.subview %out[%i, 0] [3, 16] [1, 1] : memref<9x16xf32> to memref<3x16xf32, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x16xf32, strided<[16, 1], offset: ?>>) outs(%o : memref<3x16xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%v: f32, %r: f32):
      linalg.yield %v : f32
    }
  } {fusion = "rows(2): map"}
  func.return
}

// -----

// A fill (its input a scalar, read-only like any input) runs its rows in parallel.
// CHECK-LABEL: func.func @fill
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        memref.store %v, %out[%[[I]], %[[J]]] : memref<64x32xf32>
// CHECK-NOT:     linalg.generic
func.func @fill(%v: f32, %out: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : f32) outs(%out : memref<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  func.return
}

// -----

// A copy of 2^14 elements or more (here into the interior of a padded buffer)
// becomes the element-wise generic, so its outer loop runs in parallel; a smaller
// copy stays a memref.copy.
// CHECK-LABEL: func.func @copies
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<128x128xf32>
// CHECK-NEXT:        memref.store %[[X]], %{{.*}}[%[[I]], %[[J]]] : memref<128x128xf32, strided<[130, 1], offset: 131>>
// CHECK:         "memref.copy"(%small, %small_out) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
// CHECK-NOT:     linalg.generic
func.func @copies(%a: memref<128x128xf32>, %padded: memref<130x130xf32>, %small: memref<8x8xf32>, %small_out: memref<8x8xf32>) {
  %interior = memref.subview %padded[1, 1] [128, 128] [1, 1] : memref<130x130xf32> to memref<128x128xf32, strided<[130, 1], offset: 131>>
  "memref.copy"(%a, %interior) : (memref<128x128xf32>, memref<128x128xf32, strided<[130, 1], offset: 131>>) -> ()
  "memref.copy"(%small, %small_out) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  func.return
}

// -----

// A pack marked `xla.no_unroll_short` (a convolution's im2col in a contraction's
// part, dimensions batch, panel, kh, kw, c, row): its outer parallel loop becomes
// the scf.parallel, and the kernel-window loops (3 iterations each, outside the two
// innermost) get `no_unroll`; the two innermost, and the long loops, do not.
// CHECK-LABEL: func.func @pack_window
// CHECK:         "scf.parallel"
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:      scf.for %[[KH:.*]] =
// CHECK-NEXT:        scf.for %[[KW:.*]] =
// CHECK-NEXT:          scf.for %[[C:.*]] =
// CHECK-NEXT:            scf.for %[[R:.*]] =
// CHECK-NEXT:              memref.load %in[
// CHECK:                   memref.store
// CHECK-NEXT:            }{{$}}
// CHECK-NEXT:          }{{$}}
// CHECK-NEXT:        } {llvm.loop_annotation = {no_unroll = true}}
// CHECK-NEXT:      } {llvm.loop_annotation = {no_unroll = true}}
// CHECK-NEXT:      scf.reduce
// CHECK-LABEL: func.func @pack_long_k
// CHECK-NOT:     no_unroll
// CHECK:         func.return
func.func @pack_window(%in: memref<1x10x10x8xf32>, %window: memref<3x3x8xi8>, %out: memref<1x16x72x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 24) + (d3 * 8)) + d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%window : memref<3x3x8xi8>) outs(%out : memref<1x16x72x4xf32>) attrs = {xla.no_unroll_short} {
  ^bb0(%w: i8, %o: f32):
    %p = linalg.index 1 : index
    %kh = linalg.index 2 : index
    %kw = linalg.index 3 : index
    %c = linalg.index 4 : index
    %x = memref.load %in[%p, %kh, %kw, %c] : memref<1x10x10x8xf32>
    linalg.yield %x : f32
  }
  func.return
}
func.func @pack_long_k(%a: memref<64x512xf32>, %out: memref<16x512x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%out : memref<16x512x4xf32>) attrs = {xla.no_unroll_short} {
  ^bb0(%o: f32):
    %p = linalg.index 0 : index
    %k = linalg.index 1 : index
    %r = linalg.index 2 : index
    %x = memref.load %a[%p, %k] : memref<64x512xf32>
    linalg.yield %x : f32
  }
  func.return
}
