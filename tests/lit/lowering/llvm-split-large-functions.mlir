// RUN: xla-opt %s --split-input-file -p 'llvm-split-large-functions{max_ops=2}' | FileCheck %s

// A function of one block longer than max_ops becomes calls of parts that pass values
// through a frame of pointer-sized slots: arguments and allocas are stored by the
// function, each part loads what it reads and stores what a later part or the return
// reads; constants are copied into each part; allocas and the return stay.

// CHECK-LABEL: llvm.func @main(%a: !llvm.ptr, %n: i64) -> i64 {
// CHECK-NEXT:    %one = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %s = llvm.alloca %one x f32
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(5) : i64
// CHECK-NEXT:    %[[F:.*]] = llvm.alloca %[[SIZE]] x !llvm.ptr {alignment = 64 : i64}
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %[[F]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %a, %[[A]]
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %[[F]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %s, %[[S]]
// CHECK-NEXT:    %[[N:.*]] = llvm.getelementptr inbounds %[[F]][3] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %n, %[[N]] : i64, !llvm.ptr
// CHECK-NEXT:    llvm.call @main.part0(%[[F]])
// CHECK-NEXT:    llvm.call @main.part1(%[[F]])
// CHECK-NEXT:    llvm.call @main.part2(%[[F]])
// CHECK-NEXT:    %[[M:.*]] = llvm.getelementptr inbounds %[[F]][4] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[R:.*]] = llvm.load %[[M]] : !llvm.ptr -> i64
// CHECK-NEXT:    llvm.return %[[R]] : i64
// CHECK:       llvm.func internal @main.part0(%[[F0:.*]]: !llvm.ptr) attributes {no_inline} {
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[F0]][0]
// CHECK-NEXT:    %[[A0:.*]] = llvm.load %[[P]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %c64 = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %b = llvm.call @aligned_alloc(%c64, %c64)
// CHECK-NEXT:    llvm.call @k(%[[A0]], %b)
// CHECK-NEXT:    %[[B:.*]] = llvm.getelementptr inbounds %[[F0]][1]
// CHECK-NEXT:    llvm.store %b, %[[B]]
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func internal @main.part1(
// CHECK-COUNT-3: llvm.load
// CHECK-NEXT:    %c64_1 = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    llvm.call @k(
// CHECK-NEXT:    %m = llvm.add
// CHECK-NEXT:    %[[MS:.*]] = llvm.getelementptr inbounds %{{.*}}[4] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %m, %[[MS]] : i64, !llvm.ptr
// CHECK:       llvm.func internal @main.part2(
// CHECK:         llvm.call @free(
builtin.module {
  llvm.func @free(!llvm.ptr)
  llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
  llvm.func @k(!llvm.ptr, !llvm.ptr)
  llvm.func @main(%a: !llvm.ptr, %n: i64) -> i64 {
    %c64 = llvm.mlir.constant(64) : i64
    %one = llvm.mlir.constant(1) : i64
    %s = llvm.alloca %one x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    %b = llvm.call @aligned_alloc(%c64, %c64) : (i64, i64) -> !llvm.ptr
    llvm.call @k(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @k(%b, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    %m = llvm.add %n, %c64 : i64
    llvm.call @free(%b) : (!llvm.ptr) -> ()
    llvm.return %m : i64
  }
}

// -----

// Short functions, functions of several blocks and functions passing a value of a
// type the frame does not hold (a struct) stay as they are.

// CHECK-LABEL: llvm.func @short(
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @blocks(
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.br ^
// CHECK-LABEL: llvm.func @aggregate(
// CHECK-NEXT:    %u = llvm.call @h()
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.call @g()
// CHECK-NEXT:    llvm.call @use(%u)
// CHECK-NEXT:    llvm.return
// CHECK-NOT:   .part
builtin.module {
  llvm.func @g()
  llvm.func @h() -> !llvm.struct<(i64, i64)>
  llvm.func @use(!llvm.struct<(i64, i64)>)
  llvm.func @short() {
    llvm.call @g() : () -> ()
    llvm.return
  }
  llvm.func @blocks() {
    llvm.call @g() : () -> ()
    llvm.call @g() : () -> ()
    llvm.call @g() : () -> ()
    llvm.br ^bb1
  ^bb1:
    llvm.return
  }
  llvm.func @aggregate() {
    %u = llvm.call @h() : () -> !llvm.struct<(i64, i64)>
    llvm.call @g() : () -> ()
    llvm.call @g() : () -> ()
    llvm.call @use(%u) : (!llvm.struct<(i64, i64)>) -> ()
    llvm.return
  }
}

