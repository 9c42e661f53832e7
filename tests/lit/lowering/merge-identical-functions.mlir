// RUN: xla-opt %s --split-input-file -p merge-identical-functions | FileCheck %s

// Kernels identical up to their names and their values' names become one; the calls of
// the others call it. A kernel with another constant, another argument attribute or
// another type stays.

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %t = memref.alloc()
// CHECK-NEXT:    func.call @k0(%a, %t)
// CHECK-NEXT:    func.call @k0(%t, %b)
// CHECK-NEXT:    func.call @k2(%a, %b)
// CHECK-NEXT:    func.call @k3(%a, %b)
// CHECK-NEXT:    func.call @k4(%a, %b)
// CHECK-NEXT:    func.call @k0(%b, %a)
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    func.return
// CHECK:       func.func private @k0(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias})
// CHECK-NOT:   func.func private @k1(
// CHECK:       func.func private @k2(
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK:       func.func private @k3(%x: memref<8xf32>, %y: memref<8xf32>)
// CHECK:       func.func private @k4(
// CHECK:         arith.constant -0.000000e+00 : f32
// CHECK-NOT:   func.func private @k5(
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  func.call @k0(%a, %t) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @k1(%t, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @k2(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @k3(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @k4(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @k5(%b, %a) : (memref<8xf32>, memref<8xf32>) -> ()
  memref.dealloc %t : memref<8xf32>
  func.return
}
func.func private @k0(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<8xf32>
  }
  func.return
}
func.func private @k1(%p: memref<8xf32> {llvm.noalias}, %q: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %zero = arith.constant 0 : index
  %n = arith.constant 8 : index
  %step = arith.constant 1 : index
  %s = arith.constant 0.0 : f32
  scf.for %j = %zero to %n step %step {
    %u = memref.load %p[%j] : memref<8xf32>
    %r = arith.addf %u, %s : f32
    memref.store %r, %q[%j] : memref<8xf32>
  }
  func.return
}
func.func private @k2(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<8xf32>
  }
  func.return
}
func.func private @k3(%x: memref<8xf32>, %y: memref<8xf32>) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<8xf32>
  }
  func.return
}
func.func private @k4(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant -0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<8xf32>
  }
  func.return
}
func.func private @k5(%x: memref<8xf32> {llvm.noalias}, %y: memref<8xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<8xf32>
  }
  func.return
}

// -----

// Operands used in another order, a public function and a function whose address is
// taken are not merged.

// CHECK-LABEL: func.func @order
// CHECK-NEXT:    func.call @s0(%a, %b)
// CHECK-NEXT:    func.call @s1(%a, %b)
// CHECK-NEXT:    func.call @pub(%a, %b)
// CHECK-NEXT:    func.call @taken(%a, %b)
// CHECK-NEXT:    %f = llvm.mlir.addressof @taken
// CHECK:       func.func private @s0(
// CHECK:       func.func private @s1(
// CHECK:       func.func @pub(
// CHECK:       func.func private @taken(
func.func @order(%a: f32, %b: f32) {
  func.call @s0(%a, %b) : (f32, f32) -> ()
  func.call @s1(%a, %b) : (f32, f32) -> ()
  func.call @pub(%a, %b) : (f32, f32) -> ()
  func.call @taken(%a, %b) : (f32, f32) -> ()
  %f = llvm.mlir.addressof @taken : !llvm.ptr
  func.return
}
func.func private @s0(%x: f32, %y: f32) {
  %d = arith.subf %x, %y : f32
  func.return
}
func.func private @s1(%x: f32, %y: f32) {
  %d = arith.subf %y, %x : f32
  func.return
}
func.func @pub(%x: f32, %y: f32) {
  %d = arith.subf %x, %y : f32
  func.return
}
func.func private @taken(%x: f32, %y: f32) {
  %d = arith.subf %x, %y : f32
  func.return
}

// -----

// Blocks and successors: the same control flow merges, branches to other blocks do not.

// CHECK-LABEL: func.func @branches
// CHECK-NEXT:    func.call @b0(%c)
// CHECK-NEXT:    func.call @b0(%c)
// CHECK-NEXT:    func.call @b2(%c)
// CHECK-NOT:   func.func private @b1(
func.func @branches(%c: i1) {
  func.call @b0(%c) : (i1) -> ()
  func.call @b1(%c) : (i1) -> ()
  func.call @b2(%c) : (i1) -> ()
  func.return
}
func.func private @b0(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  func.return
^bb2:
  %x = arith.constant 1 : i32
  func.return
}
func.func private @b1(%k: i1) {
  cf.cond_br %k, ^t, ^f
^t:
  func.return
^f:
  %y = arith.constant 1 : i32
  func.return
}
func.func private @b2(%c: i1) {
  cf.cond_br %c, ^bb2, ^bb1
^bb1:
  func.return
^bb2:
  %x = arith.constant 1 : i32
  func.return
}
