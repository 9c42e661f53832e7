// RUN: xla-opt %s -p outline-loop-nests | FileCheck %s
// RUN: xla-opt %s -p 'outline-loop-nests{merge_identical=false}' | FileCheck %s --check-prefix=EACH

// A nest whose kernel would be identical to one made before (the same ops on buffers
// of the same types, the same re-created constants) calls that kernel: the kernel is
// made once. Its number is still used up, so the kernels are named as they were
// when every nest got its own and merge-identical-functions merged them afterwards.
// A nest differing in a constant gets its own kernel.

// CHECK-LABEL: func.func @layers
// CHECK-NEXT:    %t = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    %u = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    func.call @layers__kernel0(%a, %t) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    func.call @layers__kernel0(%t, %u) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    func.call @layers__kernel2(%u, %b) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %t : memref<8xf32>
// CHECK-NEXT:    memref.dealloc %u : memref<8xf32>
// CHECK-NEXT:    func.return
// CHECK:       func.func private @layers__kernel0(%a: memref<8xf32> {llvm.noalias}, %t: memref<8xf32> {llvm.noalias})
// CHECK:           %y = arith.addf %x, %x : f32
// CHECK-NOT:   func.func private @layers__kernel1
// CHECK:       func.func private @layers__kernel2(%u: memref<8xf32> {llvm.noalias}, %b: memref<8xf32> {llvm.noalias})
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index

// EACH-LABEL: func.func @layers
// EACH:         func.call @layers__kernel0(%a, %t)
// EACH-NEXT:    func.call @layers__kernel1(%t, %u)
// EACH-NEXT:    func.call @layers__kernel2(%u, %b)
// EACH:       func.func private @layers__kernel0(
// EACH:       func.func private @layers__kernel1(
// EACH:       func.func private @layers__kernel2(
func.func @layers(%a: memref<8xf32> {llvm.noalias}, %b: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<8xf32>
  %u = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %t[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %t[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %u[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %u[%i] : memref<8xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %u : memref<8xf32>
  func.return
}
