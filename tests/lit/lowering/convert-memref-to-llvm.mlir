// RUN: xla-opt %s -p convert-memref-to-llvm | FileCheck %s

// CHECK:      llvm.func @free(!llvm.ptr)
// CHECK-NEXT: llvm.func @__xla_alloc_failed_at(i64, !llvm.ptr)
// CHECK-NEXT: llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-NEXT: llvm.mlir.global internal constant @cst(dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>
// CHECK-NEXT: llvm.mlir.global internal @buf() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x i32>
"memref.global"() <{sym_name = "cst", sym_visibility = "private", type = memref<2x2xf32>, initial_value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "buf", sym_visibility = "private", type = memref<4xi32>, initial_value}> : () -> ()

// CHECK-LABEL: func.func @load_store
func.func @load_store(%m: memref<4x8xf32>, %i: index, %j: index) {
  // CHECK-DAG:  %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.ptr
  // CHECK-DAG:  %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK-DAG:  %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
  // Row-major strides nest: one GEP through rows of 8 elements, no index arithmetic.
  // CHECK:      %[[P:.*]] = llvm.getelementptr inbounds %[[M]][%[[I]], %[[J]]] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  // CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
  %v = memref.load %m[%i, %j] : memref<4x8xf32>
  // CHECK:      %[[Q:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  // CHECK-NEXT: llvm.store %[[V]], %[[Q]] : f32, !llvm.ptr
  memref.store %v, %m[%j, %i] : memref<4x8xf32>
  // A subview at a dynamic row: its static column stays a constant of the GEP.
  // CHECK:      llvm.getelementptr inbounds %{{.*}}[%{{.*}}, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  %r = memref.subview %m[%i, 2] [1, 3] [1, 1] : memref<4x8xf32> to memref<3xf32, strided<[1], offset: ?>>
  memref.store %v, %r[%j] : memref<3xf32, strided<[1], offset: ?>>
  func.return
}

// Strides that do not nest (a transposed view: the innermost is not 1) are summed
// into one element offset.
// CHECK-LABEL: func.func @transposed
func.func @transposed(%m: memref<8x4xf32, strided<[1, 8]>>, %i: index, %j: index) -> f32 {
  // CHECK:      %[[C8:.*]] = llvm.mlir.constant(8) : i64
  // CHECK-NEXT: %[[MUL:.*]] = llvm.mul %{{.*}}, %[[C8]] : i64
  // CHECK-NEXT: %[[LIN:.*]] = llvm.add %{{.*}}, %[[MUL]] : i64
  // CHECK-NEXT: %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[LIN]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> f32
  %v = memref.load %m[%i, %j] : memref<8x4xf32, strided<[1, 8]>>
  func.return %v : f32
}

// A subview is the source pointer moved by the static offset; loads through it
// use the strides of its type.
// CHECK-LABEL: func.func @subview
func.func @subview(%m: memref<4x8xf32>, %i: index) -> f32 {
  // CHECK:      %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.ptr
  // CHECK-NEXT: %[[S:.*]] = llvm.getelementptr inbounds %[[M]][10] : (!llvm.ptr) -> !llvm.ptr, f32
  %s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>>
  // CHECK:      llvm.getelementptr inbounds %[[S]][%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  %v = memref.load %s[%i, %i] : memref<2x3xf32, strided<[8, 1], offset: 10>>
  func.return %v : f32
}

// CHECK-LABEL: func.func @alloc_copy
func.func @alloc_copy(%src: memref<3x5xi16>) {
  // 3*5*2 = 30 bytes, rounded up to the 64-byte alignment
  // CHECK:      %[[AL:.*]] = llvm.mlir.constant(64) : i64
  // CHECK-NEXT: %[[SZ:.*]] = llvm.mlir.constant(64) : i64
  // A null pointer is reported (a MemoryError in Python), never written through:
  // the allocator is called through a checked wrapper, so the caller stays one block.
  // The op's location goes with it, to name it if the allocation fails.
  // CHECK-NEXT: %[[SITE:.*]] = llvm.mlir.addressof @[[ALLOC_SITE:__xla_alloc_site\..*]] : !llvm.ptr
  // CHECK-NEXT: %[[BUF:.*]] = llvm.call @aligned_alloc.checked(%[[AL]], %[[SZ]], %[[SITE]]) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %a = memref.alloc() : memref<3x5xi16>
  // CHECK-NEXT: %[[N:.*]] = llvm.mlir.constant(30) : i64
  // CHECK-NEXT: %[[F:.*]] = llvm.mlir.constant(false) : i1
  // CHECK-NEXT: llvm.call_intrinsic "llvm.memcpy.p0.p0.i64"(%[[BUF]], %{{.*}}, %[[N]], %[[F]]) : (!llvm.ptr, !llvm.ptr, i64, i1) -> ()
  "memref.copy"(%src, %a) : (memref<3x5xi16>, memref<3x5xi16>) -> ()
  // CHECK-NEXT: llvm.call @free(%[[BUF]]) : (!llvm.ptr) -> ()
  memref.dealloc %a : memref<3x5xi16>
  // CHECK-NEXT: func.return
  func.return
}

// A copy out of a strided view is a loop nest.
// CHECK-LABEL: func.func @strided_copy
func.func @strided_copy(%m: memref<4x8xf32>, %d: memref<2x3xf32>) {
  %s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>>
  // CHECK:      llvm.br ^[[H0:.*]](%{{.*}} : i64)
  // CHECK-NEXT: ^[[H0]](%[[I:.*]]: i64):
  // CHECK-NEXT:   %[[B0:.*]] = llvm.mlir.constant(2) : i64
  // CHECK-NEXT:   %[[C0:.*]] = llvm.icmp "slt" %[[I]], %[[B0]] : i64
  // CHECK-NEXT:   llvm.cond_br %[[C0]], ^{{.*}}, ^[[EXIT:.*]]
  // CHECK:        llvm.load
  // CHECK:        llvm.store
  // CHECK:      ^[[EXIT]]:
  // CHECK-NEXT:   func.return
  "memref.copy"(%s, %d) : (memref<2x3xf32, strided<[8, 1], offset: 10>>, memref<2x3xf32>) -> ()
  func.return
}

// CHECK-LABEL: func.func @views
func.func @views(%m: memref<4x8xf32>, %k: index) -> (memref<32xf32>, memref<2x2x8xf32>, index, index, memref<2xf32, strided<[1], offset: 5>>, memref<2x2xf32>) {
  // CHECK:     %[[M:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.ptr
  // CHECK-DAG: builtin.unrealized_conversion_cast %[[M]] : !llvm.ptr to memref<32xf32>
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  // CHECK-DAG: builtin.unrealized_conversion_cast %[[M]] : !llvm.ptr to memref<2x2x8xf32>
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
  %c1 = arith.constant 1 : index
  // CHECK-DAG: llvm.mlir.constant(8) : i64
  %d = memref.dim %m, %c1 : memref<4x8xf32>
  // CHECK-DAG: llvm.select
  %dk = memref.dim %m, %k : memref<4x8xf32>
  // CHECK-DAG: llvm.getelementptr %[[M]][5] : (!llvm.ptr) -> !llvm.ptr, f32
  %r = memref.reinterpret_cast %m to offset: [5], sizes: [2], strides: [1] : memref<4x8xf32> to memref<2xf32, strided<[1], offset: 5>>
  // CHECK-DAG: llvm.mlir.addressof @cst : !llvm.ptr
  %g = memref.get_global @cst : memref<2x2xf32>
  func.return %c, %e, %d, %dk, %r, %g : memref<32xf32>, memref<2x2x8xf32>, index, index, memref<2xf32, strided<[1], offset: 5>>, memref<2x2xf32>
}

// CHECK-LABEL: func.func @stack
func.func @stack() -> f64 {
  // CHECK:      %[[N:.*]] = llvm.mlir.constant(6) : i64
  // CHECK-NEXT: %[[A:.*]] = llvm.alloca %[[N]] x f64 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %a = memref.alloca() : memref<2x3xf64>
  %c0 = arith.constant 0 : index
  // CHECK: llvm.load %{{.*}} : !llvm.ptr -> f64
  %v = memref.load %a[%c0, %c0] : memref<2x3xf64>
  func.return %v : f64
}

// An allocation inside a loop is one call too (no blocks needed at its place).
// CHECK-LABEL: func.func @alloc_in_a_loop
func.func @alloc_in_a_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK:      scf.for
  // CHECK:        llvm.call @aligned_alloc.checked(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  // CHECK:        llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<4xf32>
    memref.dealloc %a : memref<4xf32>
  }
  func.return
}

// The checked wrapper, once per allocator: null goes to `__xla_alloc_failed_at(size,
// site)`, which does not return.
// CHECK:       llvm.func internal @aligned_alloc.checked(%{{.*}}: i64, %{{.*}}: i64, %[[AT:[0-9a-z_]+]]: !llvm.ptr) -> !llvm.ptr {
// CHECK-NEXT:    %[[P:.*]] = llvm.call @aligned_alloc(%[[ALIGN:.*]], %[[SIZE:.*]]) : (i64, i64) -> !llvm.ptr
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[NULL:.*]] = llvm.icmp "eq" %[[ADDR]], %[[ZERO]] : i64
// CHECK-NEXT:    llvm.cond_br %[[NULL]], ^[[FAILED:.*]], ^[[OK:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK-NEXT:    llvm.return %[[P]] : !llvm.ptr
// CHECK-NEXT:  ^[[FAILED]]:
// CHECK-NEXT:    llvm.call @__xla_alloc_failed_at(%[[SIZE]], %[[AT]]) : (i64, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NOT:   llvm.func internal @aligned_alloc.checked
// The site: the op's `file:line:col` as a C string ("...:65:3\\0").
// CHECK:       llvm.mlir.global internal constant @[[ALLOC_SITE]](dense<[{{.*}}, 58, 54, 53, 58, 51, 0]> : tensor<{{[0-9]+}}xi8>) {addr_space = 0 : i32} : !llvm.array<{{[0-9]+}} x i8>
