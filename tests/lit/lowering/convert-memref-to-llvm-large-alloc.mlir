// RUN: xla-opt %s -p convert-memref-to-llvm | FileCheck %s

// Buffers of 64 KiB and more come from the runtime's caching allocator, so that
// successive calls reuse mapped pages; smaller ones from aligned_alloc. Each is
// released by the function of its allocator.
// CHECK-DAG:   llvm.func @__xla_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @__xla_free(!llvm.ptr)
// CHECK-DAG:   llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @free(!llvm.ptr)
// CHECK-LABEL: func.func @sizes
func.func @sizes() {
  // CHECK:      %[[AL:.*]] = llvm.mlir.constant(64) : i64
  // CHECK-NEXT: %[[SZ:.*]] = llvm.mlir.constant(65536) : i64
  // CHECK-NEXT: llvm.mlir.addressof
  // CHECK-NEXT: %[[BIG:.*]] = llvm.call @__xla_alloc.checked(%[[AL]], %[[SZ]], %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %big = memref.alloc() : memref<128x128xf32>
  // CHECK:      %[[SZ2:.*]] = llvm.mlir.constant(65472) : i64
  // CHECK-NEXT: llvm.mlir.addressof
  // CHECK-NEXT: %[[SMALL:.*]] = llvm.call @aligned_alloc.checked(%{{.*}}, %[[SZ2]], %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %small = memref.alloc() : memref<16368xf32>
  // CHECK:      llvm.call @__xla_free(%[[BIG]]) : (!llvm.ptr) -> ()
  memref.dealloc %big : memref<128x128xf32>
  // CHECK-NEXT: llvm.call @free(%[[SMALL]]) : (!llvm.ptr) -> ()
  memref.dealloc %small : memref<16368xf32>
  func.return
}
