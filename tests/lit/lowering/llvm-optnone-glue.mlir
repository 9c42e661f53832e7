// RUN: xla-opt %s --split-input-file -p 'llvm-optnone-glue' | FileCheck %s

// Functions of one block of calls, loads, stores, addresses and constants (an
// entry's parts) are compiled without optimization: `optimize_none`, with the
// `no_inline` LLVM requires of it.

// CHECK-LABEL: llvm.func internal @main.part0(%f: !llvm.ptr) attributes {no_inline, optimize_none} {
// CHECK-NEXT:    %p = llvm.getelementptr inbounds %f[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %a = llvm.load %p : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %c64 = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %z = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %b = llvm.call @aligned_alloc(%c64, %c64) : (i64, i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.call @k(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.store %b, %p : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.return
builtin.module {
  llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
  llvm.func @k(!llvm.ptr, !llvm.ptr)
  llvm.func internal @main.part0(%f: !llvm.ptr) attributes {no_inline} {
    %p = llvm.getelementptr inbounds %f[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %a = llvm.load %p : !llvm.ptr -> !llvm.ptr
    %c64 = llvm.mlir.constant(64) : i64
    %z = llvm.mlir.zero : !llvm.ptr
    %b = llvm.call @aligned_alloc(%c64, %c64) : (i64, i64) -> !llvm.ptr
    llvm.call @k(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.store %b, %p : !llvm.ptr, !llvm.ptr
    llvm.return
  }
}

// -----

// A public entry of glue only: marked, and made `no_inline`.

// CHECK-LABEL: llvm.func @entry(%a: !llvm.ptr, %b: !llvm.ptr) attributes {no_inline, optimize_none} {
// CHECK-NEXT:    %one = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %f = llvm.alloca %one x !llvm.ptr
// CHECK-NEXT:    %i = llvm.ptrtoint %a : !llvm.ptr to i64
// CHECK-NEXT:    %q = llvm.inttoptr %i : i64 to !llvm.ptr
// CHECK-NEXT:    llvm.call @k(%q, %b) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
builtin.module {
  llvm.func @k(!llvm.ptr, !llvm.ptr)
  llvm.func @entry(%a: !llvm.ptr, %b: !llvm.ptr) {
    %one = llvm.mlir.constant(1) : i64
    %f = llvm.alloca %one x !llvm.ptr : (i64) -> !llvm.ptr
    %i = llvm.ptrtoint %a : !llvm.ptr to i64
    %q = llvm.inttoptr %i : i64 to !llvm.ptr
    llvm.call @k(%q, %b) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// Not glue: a part that computes (an add), a function of several blocks, an internal
// function LLVM may inline (O3 decides), and declarations keep their attributes.

// CHECK-LABEL: llvm.func internal @computes(%f: !llvm.ptr, %n: i64) attributes {no_inline} {
// CHECK:       llvm.func internal @branches(%c: i1) attributes {no_inline} {
// CHECK:       llvm.func internal @inlinable(%a: !llvm.ptr, %b: !llvm.ptr) {
// CHECK:       llvm.func @k(!llvm.ptr, !llvm.ptr)
// CHECK-NOT:   optimize_none
builtin.module {
  llvm.func internal @computes(%f: !llvm.ptr, %n: i64) attributes {no_inline} {
    %m = llvm.add %n, %n : i64
    %p = llvm.getelementptr inbounds %f[1] : (!llvm.ptr) -> !llvm.ptr, i64
    llvm.store %m, %p : i64, !llvm.ptr
    llvm.return
  }
  llvm.func internal @branches(%c: i1) attributes {no_inline} {
    llvm.cond_br %c, ^a, ^b
  ^a:
    llvm.return
  ^b:
    llvm.return
  }
  llvm.func internal @inlinable(%a: !llvm.ptr, %b: !llvm.ptr) {
    llvm.call @k(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @k(!llvm.ptr, !llvm.ptr)
}
