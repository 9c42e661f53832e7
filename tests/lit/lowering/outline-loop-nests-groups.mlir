// RUN: xla-opt %s -p outline-loop-nests | FileCheck %s

// A function of `outline-linalg-kernels` (`xla.kernel_group`) whose nests became
// kernels and which is left without a loop (here: an index computed from its
// argument's address, then the kernel's call) is inlined into each of its callers,
// which then call the kernel themselves, and erased. One that still holds a loop
// after outlining (a loop with results is not outlined) stays, as does a function
// without the mark.

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %p = "memref.extract_aligned_pointer_as_index"(%a) : (memref<8xf32>) -> index
// CHECK-NEXT:    %n = arith.constant 8 : index
// CHECK-NEXT:    %r = arith.remui %p, %n : index
// CHECK-NEXT:    func.call @g__kernel0(%r, %a, %b) : (index, memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    %p_1 = "memref.extract_aligned_pointer_as_index"(%b) : (memref<8xf32>) -> index
// CHECK-NEXT:    %n_1 = arith.constant 8 : index
// CHECK-NEXT:    %r_1 = arith.remui %p_1, %n_1 : index
// CHECK-NEXT:    func.call @g__kernel0(%r_1, %b, %a) : (index, memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    func.call @h(%a) : (memref<8xf32>) -> ()
// CHECK-NEXT:    func.call @plain(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    func.return
// CHECK-NOT:   func.func private @g(
// CHECK:       func.func private @g__kernel0(
// CHECK-NOT:   func.func private @g(
// CHECK:       func.func private @h(
// CHECK:       func.func private @plain(
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
  func.call @g(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @g(%b, %a) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @h(%a) : (memref<8xf32>) -> ()
  func.call @plain(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.return
}
func.func private @g(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline, xla.kernel_group} {
  %p = "memref.extract_aligned_pointer_as_index"(%x) : (memref<8xf32>) -> index
  %n = arith.constant 8 : index
  %r = arith.remui %p, %n : index
  %c1 = arith.constant 1 : index
  scf.for %i = %r to %n step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  func.return
}
func.func private @h(%x: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline, xla.kernel_group} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (f32) {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  memref.store %s, %x[%c0] : memref<8xf32>
  func.return
}
func.func private @plain(%x: memref<8xf32>, %y: memref<8xf32>) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<8xf32>
  memref.store %v, %y[%c0] : memref<8xf32>
  func.return
}
