// RUN: xla-opt %s --split-input-file -p memref-forward-tile-copies | FileCheck %s

// A block computed into a fresh buffer and copied into a subview of the result
// is computed in the subview: no buffer, no copy.
// CHECK-LABEL: func.func @forwarded
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[V:.*]] = memref.subview %out[%[[I]], 0] [2, 8] [1, 1]
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<2x8xf32, strided<[8, 1], offset: ?>>)
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[V]] : memref<2x8xf32, strided<[8, 1], offset: ?>>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:       }
func.func @forwarded(%x: memref<6x8xf32>, %out: memref<6x8xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c6 step %c2 {
    %t = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
    linalg.fill ins(%zero : f32) outs(%t : memref<2x8xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%t : memref<2x8xf32>) {
    ^bb0(%o: f32):
      %n = arith.addf %o, %o : f32
      linalg.yield %n : f32
    }
    %v = memref.subview %out[%i, 0] [2, 8] [1, 1] : memref<6x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    "memref.copy"(%t, %v) : (memref<2x8xf32>, memref<2x8xf32, strided<[8, 1], offset: ?>>) -> ()
    memref.dealloc %t : memref<2x8xf32>
  }
  func.return
}

// -----

// The result buffer is read between the writes and the copy: kept as it is.
// CHECK-LABEL: func.func @target_read_in_between
// CHECK:       memref.alloc
// CHECK:       memref.copy
func.func @target_read_in_between(%out: memref<6x8xf32>, %i: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<2x8xf32>)
  %r = memref.load %out[%i, %i] : memref<6x8xf32>
  %v = memref.subview %out[%i, 0] [2, 8] [1, 1] : memref<6x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
  "memref.copy"(%t, %v) : (memref<2x8xf32>, memref<2x8xf32, strided<[8, 1], offset: ?>>) -> ()
  memref.dealloc %t : memref<2x8xf32>
  func.return %r : f32
}

// -----

// A buffer also read after the copy is kept.
// CHECK-LABEL: func.func @read_after_copy
// CHECK:       memref.alloc
// CHECK:       memref.copy
func.func @read_after_copy(%out: memref<6x8xf32>, %o2: memref<2x8xf32>, %i: index) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<2x8xf32>)
  %v = memref.subview %out[%i, 0] [2, 8] [1, 1] : memref<6x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
  "memref.copy"(%t, %v) : (memref<2x8xf32>, memref<2x8xf32, strided<[8, 1], offset: ?>>) -> ()
  "memref.copy"(%t, %o2) : (memref<2x8xf32>, memref<2x8xf32>) -> ()
  memref.dealloc %t : memref<2x8xf32>
  func.return
}

// -----

// A whole buffer copied out into the result through a collapse_shape (a depthwise
// convolution's [.., features, 1] result) is computed in the result, seen through
// the inverse expand_shape; the zero-filled buffer copied into it through an
// expand_shape then is filled in the result too: no buffer, no copy.
// CHECK-LABEL: func.func @whole_through_reshapes
// CHECK-NOT:     memref.alloc
// CHECK:         %[[E:.*]] = memref.expand_shape %out {{\[}}[0 : i64], [1 : i64, 2 : i64]] output_shape [4, 8, 1] : memref<4x8xf32> into memref<4x8x1xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.collapse_shape %[[E]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : memref<4x8x1xf32> into memref<4x8xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<4x8xf32>)
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[E]] : memref<4x8x1xf32>)
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
func.func @whole_through_reshapes(%x: memref<4x8x1xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<4x8xf32>)
  %ze = memref.expand_shape %z [[0], [1, 2]] output_shape [4, 8, 1] : memref<4x8xf32> into memref<4x8x1xf32>
  %t = memref.alloc() {alignment = 64 : i64} : memref<4x8x1xf32>
  "memref.copy"(%ze, %t) : (memref<4x8x1xf32>, memref<4x8x1xf32>) -> ()
  memref.dealloc %z : memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<4x8x1xf32>) outs(%t : memref<4x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %o, %a : f32
    linalg.yield %n : f32
  }
  %tc = memref.collapse_shape %t [[0], [1, 2]] : memref<4x8x1xf32> into memref<4x8xf32>
  "memref.copy"(%tc, %out) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  memref.dealloc %t : memref<4x8x1xf32>
  func.return
}

// -----

// The result is read while the buffer is computed: kept as it is.
// CHECK-LABEL: func.func @whole_target_read
// CHECK:         memref.alloc
// CHECK:         memref.copy
func.func @whole_target_read(%out: memref<4x8xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%out : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %a, %a : f32
    linalg.yield %n : f32
  }
  "memref.copy"(%t, %out) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  memref.dealloc %t : memref<4x8xf32>
  func.return
}
