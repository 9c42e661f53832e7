// RUN: xla-opt %s -p convert-func-to-llvm | FileCheck %s

// CHECK:      llvm.func @ext(f32) -> f32
func.func private @ext(f32) -> f32

// CHECK-LABEL: llvm.func @caller
// CHECK-SAME:    (%x: f32, %[[MA:[a-z0-9_]*]]: !llvm.ptr, %[[NA:[a-z0-9_]*]]: i64) -> f32 {
// CHECK-DAG:     %[[M:.*]] = builtin.unrealized_conversion_cast %[[MA]] : !llvm.ptr to memref<4xf32>
// CHECK-DAG:     %[[N:.*]] = builtin.unrealized_conversion_cast %[[NA]] : i64 to index
// CHECK:         %[[R:.*]] = llvm.call @ext(%x) : (f32) -> f32
// CHECK-NEXT:    "test.op"(%[[M]], %[[N]]) : (memref<4xf32>, index) -> ()
// CHECK-NEXT:    llvm.call @noresult() : () -> ()
// CHECK-NEXT:    llvm.return %[[R]] : f32
func.func @caller(%x: f32, %m: memref<4xf32>, %n: index) -> f32 {
  %r = func.call @ext(%x) : (f32) -> f32
  "test.op"(%m, %n) : (memref<4xf32>, index) -> ()
  func.call @noresult() : () -> ()
  func.return %r : f32
}

// CHECK-LABEL: llvm.func @noresult() {
// CHECK-NEXT:    llvm.return
func.func @noresult() {
  func.return
}

// CHECK-LABEL: llvm.func @returns_memref
// CHECK-SAME:    (%[[A:[a-z0-9_]*]]: !llvm.ptr) -> !llvm.ptr {
// CHECK-NEXT:    llvm.return %[[A]] : !llvm.ptr
func.func @returns_memref(%m: memref<2x2xi8>) -> memref<2x2xi8> {
  func.return %m : memref<2x2xi8>
}
