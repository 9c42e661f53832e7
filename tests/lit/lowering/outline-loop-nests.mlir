// RUN: xla-opt %s --split-input-file -p outline-loop-nests | FileCheck %s

// Each outermost nest becomes a private function called in its place; constants are
// re-created in it, distinct buffers (noalias parameters, allocations) are noalias.

// CHECK-LABEL: func.func @two_nests
// CHECK-SAME:    (%a: memref<8xf32> {llvm.noalias}, %b: memref<8xf32> {llvm.noalias})
// CHECK-NEXT:    %t = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    func.call @two_nests__kernel0(%a, %t) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    func.call @two_nests__kernel1(%t, %b) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %t : memref<8xf32>
// CHECK-NEXT:    func.return
// CHECK:       func.func private @two_nests__kernel0(%a: memref<8xf32> {llvm.noalias}, %t: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c8 step %c1 {
// CHECK-NEXT:      %x = memref.load %a[%i] : memref<8xf32>
// CHECK-NEXT:      memref.store %x, %t[%i] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK:       func.func private @two_nests__kernel1(%t: memref<8xf32> {llvm.noalias}, %b: memref<8xf32> {llvm.noalias})
// CHECK:         "scf.parallel"(%c0, %c8, %c1)
// CHECK-NEXT:    ^bb0(%j: index):
// CHECK-NEXT:      scf.for %k = %c0 to %c8 step %c1 {
func.func @two_nests(%a: memref<8xf32> {llvm.noalias}, %b: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    memref.store %x, %t[%i] : memref<8xf32>
  }
  "scf.parallel"(%c0, %c8, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    scf.for %k = %c0 to %c8 step %c1 {
      %y = memref.load %t[%k] : memref<8xf32>
      memref.store %y, %b[%j] : memref<8xf32>
    }
    scf.reduce
  }) : (index, index, index) -> ()
  memref.dealloc %t : memref<8xf32>
  func.return
}

// -----

// Views are re-created inside, so the parameters are whole buffers; scalars are passed.

// CHECK-LABEL: func.func @view_and_scalar
// CHECK-NEXT:    func.call @view_and_scalar__kernel0(%s, %a) : (f32, memref<4x4xf32>) -> ()
// CHECK:       func.func private @view_and_scalar__kernel0(%s: f32, %a: memref<4x4xf32> {llvm.noalias})
// CHECK:         %v = memref.subview %a[1, 0] [1, 4] [1, 1]
// CHECK:         scf.for
// CHECK:           memref.store %s, %v[%i]
func.func @view_and_scalar(%a: memref<4x4xf32> {llvm.noalias}, %s: f32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %v = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %s, %v[%i] : memref<4xf32, strided<[1], offset: 4>>
  }
  func.return
}

// -----

// A parameter without noalias may overlap another buffer: no parameter is marked.

// CHECK-LABEL: func.func private @maybe_aliasing__kernel0
// CHECK-SAME:    (%a: memref<4xf32>, %b: memref<4xf32>)
func.func @maybe_aliasing(%a: memref<4xf32>, %b: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    memref.store %x, %b[%i] : memref<4xf32>
  }
  func.return
}

// -----

// Nests inside a while body are outlined too; the same buffer passed twice is one
// parameter; a loop with results and a buffer of dynamic shape stay in place.

// CHECK-LABEL: func.func @stays
// CHECK:         scf.while
// CHECK:           func.call @stays__kernel0(%m) : (memref<4xf32>) -> ()
// CHECK:         scf.for {{.*}} iter_args
// CHECK:         scf.for {{.*}} {
// CHECK:           memref.load %d
// CHECK:       func.func private @stays__kernel0(%m: memref<4xf32> {llvm.noalias})
// CHECK-NOT:   func.func private
func.func @stays(%d: memref<?xf32>, %n: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %f0 = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<4xf32>
  scf.while () : () -> () {
    scf.condition(%n)
  } do {
    scf.for %i = %c0 to %c4 step %c1 {
      %x = memref.load %m[%i] : memref<4xf32>
      memref.store %x, %m[%i] : memref<4xf32>
    }
    scf.yield
  }
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f0) -> (f32) {
    %x = memref.load %m[%i] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %y = memref.load %d[%i] : memref<?xf32>
    memref.store %y, %m[%i] : memref<4xf32>
  }
  memref.dealloc %m : memref<4xf32>
  func.return %r : f32
}
