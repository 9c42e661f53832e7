// RUN: xla-opt %s -p scf-fuse-parallel-loops --split-input-file | FileCheck %s

// (xDSL 0.74 prints scf.parallel in the generic form: lower bound, upper bound, step.)

// A zero fill of the output, then an accumulation into it through a reshape, as the
// depthwise convolution has them: the fill sits in an scf.for of one iteration (a
// unit dimension, inlined: its index becomes the lower bound), both write only row
// %i of %out: one loop, the fill's stores first, then the accumulation's, at the
// same index; the view between the loops moves above the fused loop.
// CHECK-LABEL: func.func @fill_then_accumulate
// CHECK:       %[[E:.*]] = memref.expand_shape %out
// CHECK-NEXT:  "scf.parallel"
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index):
// CHECK:         memref.store %{{.*}}, %out[%{{.*}}, %[[I]], %{{.*}}] : memref<1x64x16xf32>
// CHECK:         %[[X:.*]] = memref.load %in[%[[I]], %{{.*}}] : memref<64x16xf32>
// CHECK:         %[[A:.*]] = memref.load %[[E]][%{{.*}}, %[[I]], %{{.*}}, %{{.*}}] : memref<1x64x16x1xf32>
// CHECK:         memref.store %{{.*}}, %[[E]][%{{.*}}, %[[I]], %{{.*}}, %{{.*}}] : memref<1x64x16x1xf32>
// CHECK:         scf.reduce
// CHECK-NOT:   "scf.parallel"
// CHECK:       func.return
func.func @fill_then_accumulate(%in: memref<64x16xf32> {llvm.noalias}, %out: memref<1x64x16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %u = %c0 to %c1 step %c1 {
    "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        memref.store %zero, %out[%u, %i, %j] : memref<1x64x16xf32>
      }
      scf.reduce
    }) : (index, index, index) -> ()
  }
  %e = memref.expand_shape %out [[0], [1], [2, 3]] output_shape [1, 64, 16, 1] : memref<1x64x16xf32> into memref<1x64x16x1xf32>
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %in[%i, %j] : memref<64x16xf32>
      %a = memref.load %e[%c0, %i, %j, %c0] : memref<1x64x16x1xf32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %e[%c0, %i, %j, %c0] : memref<1x64x16x1xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// The second loop's wrapper of one iteration holds the constant and the view its body
// uses: they move above the fused loop.
// CHECK-LABEL: func.func @wrapped_second
// CHECK:       %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V:.*]] = memref.subview %b[0, 0] [1, 64] [1, 1]
// CHECK:       "scf.parallel"
// CHECK:         memref.store %{{.*}}, %a[
// CHECK:         memref.store %[[TWO]], %[[V]][
// CHECK:         scf.reduce
// CHECK-NOT:   "scf.parallel"
func.func @wrapped_second(%a: memref<64xf32> {llvm.noalias}, %b: memref<1x64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %one, %a[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  scf.for %u = %c0 to %c1 step %c1 {
    %two = arith.constant 2.0 : f32
    %v = memref.subview %b[0, 0] [1, 64] [1, 1] : memref<1x64xf32> to memref<64xf32, strided<[1]>>
    "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      memref.store %two, %v[%i] : memref<64xf32, strided<[1]>>
      scf.reduce
    }) : (index, index, index) -> ()
  }
  func.return
}

// -----

// Loops that share nothing (two allocations, one read-only parameter) are fused.
// CHECK-LABEL: func.func @independent
// CHECK:       "scf.parallel"
// CHECK:         memref.store %{{.*}}, %a[
// CHECK:         memref.store %{{.*}}, %b[
// CHECK:         scf.reduce
// CHECK-NOT:   "scf.parallel"
func.func @independent(%x: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %a[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%c0] : memref<64xf32>
    memref.store %v, %b[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  func.return
}

// -----

// The second loop reads the rows next to its own (a convolution's window over the
// padded input the first loop writes, through a view that shifts them): kept apart.
// CHECK-LABEL: func.func @shifted_read
// CHECK:       "scf.parallel"
// CHECK:         scf.reduce
// CHECK:       "scf.parallel"
// CHECK:         scf.reduce
func.func @shifted_read(%x: memref<64xf32> {llvm.noalias}, %y: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %p = memref.alloc() : memref<66xf32>
  %interior = memref.subview %p[1] [64] [1] : memref<66xf32> to memref<64xf32, strided<[1], offset: 1>>
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %interior[%i] : memref<64xf32, strided<[1], offset: 1>>
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %p[%i] : memref<66xf32>
    memref.store %v, %y[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  memref.dealloc %p : memref<66xf32>
  func.return
}

// -----

// Parameters that may be one buffer (no noalias), one written: kept apart; so are
// loops of different trip counts, loops with an op between them that is not a
// constant or a view, and a loop reading another iteration's element (63 - i) of
// what the loop before it writes.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-6: "scf.parallel"
func.func @kept_apart(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %x[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %v = memref.load %y[%i] : memref<64xf32>
    memref.store %v, %z[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c32, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %z[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  %a = memref.alloc() : memref<64xf32>
  "scf.parallel"(%c0, %c32, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  memref.dealloc %a : memref<64xf32>
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %z[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %j = arith.subi %c63, %i : index
    %v = memref.load %z[%j] : memref<64xf32>
    memref.store %v, %y[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}
