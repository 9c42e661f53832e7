// RUN: xla-opt %s -t mlir-upstream | FileCheck %s
// RUN: xla-opt %s | FileCheck %s --check-prefix=XDSL

// Today's MLIR (strict properties in assembly formats) rejects `llvm.load`'s and
// `llvm.store`'s `alignment` in the attribute dictionary, and prints it as a property:
// `-t mlir-upstream` spells it so (iree-opt 3.x reads and prints exactly this).
// CHECK-LABEL: llvm.func @memory
llvm.func @memory(%p: !llvm.ptr) -> f32 {
  // CHECK-NEXT: %[[A:.*]] = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
  // XDSL:       llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  %0 = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK-NEXT: %[[V:.*]] = llvm.load %p : !llvm.ptr -> vector<4xf32>
  %1 = llvm.load %p : !llvm.ptr -> vector<4xf32>
  // CHECK-NEXT: llvm.store %[[A]], %p <alignment = 4> : f32, !llvm.ptr
  // XDSL:       llvm.store %{{.*}}, %p {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.store %0, %p {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK-NEXT: llvm.store %[[V]], %p : vector<4xf32>, !llvm.ptr
  llvm.store %1, %p : vector<4xf32>, !llvm.ptr
  // CHECK-NEXT: llvm.return %[[A]] : f32
  llvm.return %0 : f32
}
