// RUN: xla-opt %s -p 'llvm-split-large-functions{max_ops=2 packed_over=2}' | FileCheck %s

// A public function of more pointer parameters than `packed_over` and no result gets a
// packed entry: it takes the arguments as one array of pointers, holds the allocas and
// the frame, and calls the parts with both; each part loads the arguments it uses from
// the array (at the argument's index) and the other values from the frame. The function
// itself only stores its arguments into such an array and calls the packed entry.

// CHECK-LABEL: llvm.func @wide(%a: !llvm.ptr, %b: !llvm.ptr, %o: !llvm.ptr) {
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[ARR:.*]] = llvm.alloca %[[N]] x !llvm.ptr {alignment = 64 : i64}
// CHECK-NEXT:    %[[G0:.*]] = llvm.getelementptr inbounds %[[ARR]][0]
// CHECK-NEXT:    llvm.store %a, %[[G0]]
// CHECK-NEXT:    %[[G1:.*]] = llvm.getelementptr inbounds %[[ARR]][1]
// CHECK-NEXT:    llvm.store %b, %[[G1]]
// CHECK-NEXT:    %[[G2:.*]] = llvm.getelementptr inbounds %[[ARR]][2]
// CHECK-NEXT:    llvm.store %o, %[[G2]]
// CHECK-NEXT:    llvm.call @__xla_packed.wide(%[[ARR]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func @__xla_packed.wide(%[[ARGS:.*]]: !llvm.ptr) {
// CHECK-NEXT:    %one = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %s = llvm.alloca %one x f32
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[F:.*]] = llvm.alloca %[[SIZE]] x !llvm.ptr {alignment = 64 : i64}
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %[[F]][1]
// CHECK-NEXT:    llvm.store %s, %[[S]]
// CHECK-NEXT:    llvm.call @wide.part0(%[[ARGS]], %[[F]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @wide.part1(%[[ARGS]], %[[F]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @wide.part2(%[[ARGS]], %[[F]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func internal @wide.part0(%[[A0:.*]]: !llvm.ptr, %[[F0:.*]]: !llvm.ptr) attributes {no_inline} {
// CHECK-NEXT:    %[[PA:.*]] = llvm.getelementptr inbounds %[[A0]][0]
// CHECK-NEXT:    %[[LA:.*]] = llvm.load %[[PA]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %c64 = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %t = llvm.call @aligned_alloc(%c64, %c64)
// CHECK-NEXT:    llvm.call @k(%[[LA]], %t)
// CHECK-NEXT:    %[[PT:.*]] = llvm.getelementptr inbounds %[[F0]][0]
// CHECK-NEXT:    llvm.store %t, %[[PT]]
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.func internal @wide.part1(%[[A1:.*]]: !llvm.ptr, %[[F1:.*]]: !llvm.ptr) attributes {no_inline} {
// CHECK-NEXT:    llvm.getelementptr inbounds %[[F1]][0]
// CHECK-NEXT:    llvm.load
// CHECK-NEXT:    llvm.getelementptr inbounds %[[F1]][1]
// CHECK-NEXT:    llvm.load
// CHECK-NEXT:    llvm.getelementptr inbounds %[[A1]][1]
// CHECK-NEXT:    llvm.load
// CHECK-NEXT:    llvm.getelementptr inbounds %[[A1]][2]
// CHECK-NEXT:    llvm.load
// CHECK:       llvm.func internal @wide.part2(
// CHECK:         llvm.call @free(
// The same function with a result, or internal, is split without a packed entry.
// CHECK-LABEL: llvm.func internal @narrow(
// CHECK-NOT:     __xla_packed
// CHECK:         llvm.call @narrow.part0(
// CHECK-NOT:   __xla_packed
builtin.module {
  llvm.func @free(!llvm.ptr)
  llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
  llvm.func @k(!llvm.ptr, !llvm.ptr)
  llvm.func @wide(%a: !llvm.ptr, %b: !llvm.ptr, %o: !llvm.ptr) {
    %c64 = llvm.mlir.constant(64) : i64
    %one = llvm.mlir.constant(1) : i64
    %s = llvm.alloca %one x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    %t = llvm.call @aligned_alloc(%c64, %c64) : (i64, i64) -> !llvm.ptr
    llvm.call @k(%a, %t) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @k(%t, %s) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @k(%b, %o) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @free(%t) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func internal @narrow(%a: !llvm.ptr, %b: !llvm.ptr, %o: !llvm.ptr) {
    %c64 = llvm.mlir.constant(64) : i64
    %t = llvm.call @aligned_alloc(%c64, %c64) : (i64, i64) -> !llvm.ptr
    llvm.call @k(%a, %t) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @k(%b, %o) : (!llvm.ptr, !llvm.ptr) -> ()
    llvm.call @free(%t) : (!llvm.ptr) -> ()
    llvm.return
  }
}
