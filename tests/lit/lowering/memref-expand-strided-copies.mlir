// RUN: xla-opt %s --split-input-file -p memref-expand-strided-copies | FileCheck %s
// RUN: xla-opt %s --split-input-file -p memref-expand-strided-copies,outline-loop-nests | FileCheck %s --check-prefix=OUTLINED

// A copy out of a strided view (a slice of a fused projection) becomes a loop nest of
// element loads and stores, which outline-loop-nests then makes a kernel of: the
// function around it keeps only calls (glue).
// CHECK-LABEL: func.func @slice(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[V:.*]][%[[I]], %[[J]]] : memref<4x64xf32, strided<[192, 1], offset: 64>>
// CHECK-NEXT:        memref.store %[[X]], %b[%[[I]], %[[J]]] : memref<4x64xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     memref.copy
// CHECK:         func.return
// OUTLINED-LABEL: func.func @slice(
// OUTLINED-NEXT:    func.call @slice__kernel0(%a, %b)
// OUTLINED-NEXT:    func.return
// OUTLINED:       func.func private @slice__kernel0(
// OUTLINED:         memref.subview
// OUTLINED:         scf.for
// OUTLINED:           scf.for
// OUTLINED:             memref.load
// OUTLINED:             memref.store
func.func @slice(%a: memref<4x192xf32>, %b: memref<4x64xf32>) {
  %v = memref.subview %a[0, 64] [4, 64] [1, 1] : memref<4x192xf32> to memref<4x64xf32, strided<[192, 1], offset: 64>>
  "memref.copy"(%v, %b) : (memref<4x64xf32, strided<[192, 1], offset: 64>>, memref<4x64xf32>) -> ()
  func.return
}

// -----

// Copies between contiguous buffers stay copies (one memcpy each), as do copies of
// nothing.
// CHECK-LABEL: func.func @contiguous(
// CHECK-NEXT:    "memref.copy"(%a, %b) : (memref<4x64xf32>, memref<4x64xf32>) -> ()
// CHECK-NEXT:    "memref.copy"(%e, %f) : (memref<0x64xf32, strided<[192, 1]>>, memref<0x64xf32>) -> ()
// CHECK-NEXT:    func.return
func.func @contiguous(%a: memref<4x64xf32>, %b: memref<4x64xf32>, %e: memref<0x64xf32, strided<[192, 1]>>, %f: memref<0x64xf32>) {
  "memref.copy"(%a, %b) : (memref<4x64xf32>, memref<4x64xf32>) -> ()
  "memref.copy"(%e, %f) : (memref<0x64xf32, strided<[192, 1]>>, memref<0x64xf32>) -> ()
  func.return
}
