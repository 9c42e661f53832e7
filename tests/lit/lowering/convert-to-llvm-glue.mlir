// RUN: xla-opt %s -p convert-to-llvm | FileCheck %s

// A function of allocations, calls and frees (a program's entry after
// outline-loop-nests) is lowered in one sweep (lowering/to_llvm/glue.py): each
// allocation is the checked allocator's call with its alignment, size and site
// string, its pointer goes to the calls and the free without casts; the runtime
// declarations and the site strings are those the patterns add.
// CHECK-DAG:   llvm.func @free(!llvm.ptr)
// CHECK-DAG:   llvm.func @__xla_free(!llvm.ptr)
// CHECK-DAG:   llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @__xla_alloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK:       llvm.func @glue(%[[X:.*]]: !llvm.ptr, %[[Y:.*]]: !llvm.ptr) {
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         %[[A1:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %[[S1:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %[[SITE1:.*]] = llvm.mlir.addressof @__xla_alloc_site.{{.*}} : !llvm.ptr
// CHECK-NEXT:    %[[T:.*]] = llvm.call @aligned_alloc.checked(%[[A1]], %[[S1]], %[[SITE1]]) : (i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:    llvm.call @kernel(%[[X]], %[[T]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    %[[A2:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %[[S2:.*]] = llvm.mlir.constant(262144) : i64
// CHECK-NEXT:    %[[SITE2:.*]] = llvm.mlir.addressof @__xla_alloc_site.{{.*}} : !llvm.ptr
// CHECK-NEXT:    %[[B:.*]] = llvm.call @__xla_alloc.checked(%[[A2]], %[[S2]], %[[SITE2]]) : (i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:    llvm.call @big(%[[T]], %[[B]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @free(%[[T]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @big(%[[Y]], %[[B]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @__xla_free(%[[B]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-DAG:   llvm.mlir.global internal constant @__xla_alloc_site.{{.*}}(dense<[{{.*}}, 0]> : tensor<{{[0-9]+}}xi8>)
// CHECK-DAG:   llvm.func internal @aligned_alloc.checked(
// CHECK-DAG:   llvm.func internal @__xla_alloc.checked(
func.func @kernel(%a: memref<16xf32>, %b: memref<16xf32>) {
  func.return
}
func.func @big(%a: memref<16xf32>, %b: memref<256x256xf32>) {
  func.return
}
func.func @glue(%x: memref<16xf32>, %y: memref<16xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  func.call @kernel(%x, %t) : (memref<16xf32>, memref<16xf32>) -> ()
  %b = memref.alloc() {alignment = 64 : i64} : memref<256x256xf32>
  func.call @big(%t, %b) : (memref<16xf32>, memref<256x256xf32>) -> ()
  memref.dealloc %t : memref<16xf32>
  func.call @big(%y, %b) : (memref<16xf32>, memref<256x256xf32>) -> ()
  memref.dealloc %b : memref<256x256xf32>
  func.return
}
