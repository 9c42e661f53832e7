// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s
// RUN: xla-opt %s -p convert-xla-to-linalg,bufferize | FileCheck %s --check-prefix=BUF

// An embedding lookup with ui32 ids: one parallel generic over the result and no
// inputs; the id is read from the index array, zero-extended and clamped to
// [0, 10 - 1] (minui: an unsigned id is never negative), then the operand is read.
// CHECK-LABEL: func.func @gather_rows
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<2x3x8xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<2x3x8xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT:   %[[B0:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[B1:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[O:.*]] = linalg.index 2 : index
// CHECK-NEXT:   %[[ID:.*]] = tensor.extract %ids[%[[B0]], %[[B1]]] : tensor<2x3xi32>
// CHECK-NEXT:   %[[W:.*]] = arith.extui %[[ID]] : i32 to i64
// CHECK-NEXT:   %[[IX:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT:   %[[HI:.*]] = arith.constant 9 : index
// CHECK-NEXT:   %[[C:.*]] = arith.minui %[[IX]], %[[HI]] : index
// CHECK-NEXT:   %[[V:.*]] = tensor.extract %x[%[[C]], %[[O]]] : tensor<10x8xf32>
// CHECK-NEXT:   linalg.yield %[[V]] : f32
// BUF-LABEL: func.func @gather_rows
// BUF:         linalg.generic
// BUF-SAME:      outs(%{{.*}} : memref<2x3x8xf32>)
// BUF:           memref.load %ids
// BUF:           memref.load %x
func.func @gather_rows(%x: tensor<10x8xf32>, %ids: tensor<2x3xui32>) -> tensor<2x3x8xf32> {
  %r = "xla.gather"(%x, %ids) <{dimension_numbers = #xla.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<2x3xui32>) -> tensor<2x3x8xf32>
  func.return %r : tensor<2x3x8xf32>
}

// Signed starts are clamped with minsi/maxsi to [0, dim - slice size]; index vector
// component k is read at index_vector_dim (1) = k; start + offset in dimension 1;
// the batching dimension 0 reads the result's batch coordinate 0.
// CHECK-LABEL: func.func @gather_batching
// CHECK:        ^bb0(%{{.*}}: i32):
// CHECK-NEXT:   %[[B0:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[B1:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[O:.*]] = linalg.index 2 : index
// CHECK-NEXT:   %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[K1:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[S0:.*]] = tensor.extract %i[%[[B0]], %[[K0]], %[[B1]]] : tensor<3x2x4xi64>
// CHECK-NEXT:   %[[X0:.*]] = arith.index_cast %[[S0]] : i64 to index
// CHECK-NEXT:   %[[H:.*]] = arith.constant 4 : index
// CHECK-NEXT:   %[[M0:.*]] = arith.minsi %[[X0]], %[[H]] : index
// CHECK-NEXT:   %[[C0:.*]] = arith.maxsi %[[M0]], %[[K0]] : index
// CHECK-NEXT:   %[[D1:.*]] = arith.addi %[[O]], %[[C0]] : index
// CHECK-NEXT:   %[[S1:.*]] = tensor.extract %i[%[[B0]], %[[K1]], %[[B1]]] : tensor<3x2x4xi64>
// CHECK-NEXT:   %[[X1:.*]] = arith.index_cast %[[S1]] : i64 to index
// CHECK-NEXT:   %[[M1:.*]] = arith.minsi %[[X1]], %[[H]] : index
// CHECK-NEXT:   %[[C1:.*]] = arith.maxsi %[[M1]], %[[K0]] : index
// CHECK-NEXT:   %[[V:.*]] = tensor.extract %x[%[[B0]], %[[D1]], %[[C1]]] : tensor<3x6x5xi32>
// CHECK-NEXT:   linalg.yield %[[V]] : i32
func.func @gather_batching(%x: tensor<3x6x5xi32>, %i: tensor<3x2x4xi64>) -> tensor<3x4x2xi32> {
  %r = "xla.gather"(%x, %i) <{dimension_numbers = #xla.gather<offset_dims = [2], collapsed_slice_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2, 1>}> : (tensor<3x6x5xi32>, tensor<3x2x4xi64>) -> tensor<3x4x2xi32>
  func.return %r : tensor<3x4x2xi32>
}

// Scatter-add of rows: the loops over the updates' dims carry the result, which
// starts as the operand; the index is read and bounds-checked (one unsigned compare
// against dim - window = 5) after the scatter dim's loop; a guard loop of 1 or 0
// trips (not an scf.if) holds the window loop; current value and update are read,
// combined (current first) and inserted. After bufferize: one copy of the operand
// into the result, then loads and stores in place, no copy in the loops.
// CHECK-LABEL: func.func @scatter_add_rows
// CHECK:      %[[N:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 4 : index
// CHECK-NEXT: %{{.*}} = scf.for %[[G:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[T0:.*]] = %x) -> (tensor<6x4xf32>) {
// CHECK-NEXT:   %[[S:.*]] = tensor.extract %i[%[[G]], %[[C0]]] : tensor<5x1xi32>
// CHECK-NEXT:   %[[SX:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:   %[[OK:.*]] = arith.cmpi ule, %[[SX]], %[[N]] : index
// CHECK-NEXT:   %[[TRIPS:.*]] = arith.select %[[OK]], %[[C1]], %[[C0]] : index
// CHECK-NEXT:   %[[R1:.*]] = scf.for %{{.*}} = %[[C0]] to %[[TRIPS]] step %[[C1]] iter_args(%[[T1:.*]] = %[[T0]]) -> (tensor<6x4xf32>) {
// CHECK-NEXT:     %[[R2:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[W]] step %[[C1]] iter_args(%[[T2:.*]] = %[[T1]]) -> (tensor<6x4xf32>) {
// CHECK-NEXT:       %[[A:.*]] = tensor.extract %[[T2]][%[[SX]], %[[J]]] : tensor<6x4xf32>
// CHECK-NEXT:       %[[B:.*]] = tensor.extract %u[%[[G]], %[[J]]] : tensor<5x4xf32>
// CHECK-NEXT:       %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:       %[[T3:.*]] = tensor.insert %[[SUM]] into %[[T2]][%[[SX]], %[[J]]] : tensor<6x4xf32>
// CHECK-NEXT:       scf.yield %[[T3]] : tensor<6x4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield %[[R2]] : tensor<6x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.yield %[[R1]] : tensor<6x4xf32>
// CHECK-NEXT: }
// BUF-LABEL: func.func @scatter_add_rows
// BUF-SAME:    %[[OUT:[^:]*]]: memref<6x4xf32> {llvm.noalias})
// BUF:         "memref.copy"(%x, %[[OUT]])
// BUF-NOT:     memref.copy
// BUF-NOT:     memref.alloc
// BUF:         %[[A:.*]] = memref.load %[[OUT]]
// BUF-NEXT:    %[[B:.*]] = memref.load %u
// BUF-NEXT:    %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// BUF-NEXT:    memref.store %[[SUM]], %[[OUT]]
// BUF-NOT:     memref.copy
// BUF:         func.return
func.func @scatter_add_rows(%x: tensor<6x4xf32>, %i: tensor<5x1xi32>, %u: tensor<5x4xf32>) -> tensor<6x4xf32> {
  %r = "xla.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #xla.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = true, unique_indices = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}

// Variadic bf16 scatter with the window dim before the scatter dim: the bf16 input
// is widened to f32 first and rounded once at the end; the window loop is outside
// the scatter loop (row-major update order), so the check sits inside both; ui8
// indices are zero-extended; both results are carried, each read and written.
// CHECK-LABEL: func.func @scatter_variadic
// CHECK:      %[[WIDE:.*]] = linalg.generic
// CHECK:        arith.extf %{{.*}} : bf16 to f32
// CHECK:      %[[R:.*]], %[[RY:.*]] = scf.for %[[W:[^ ]*]] = %{{.*}} iter_args(%{{.*}} = %[[WIDE]], %{{.*}} = %y) -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK-NEXT:   %{{.*}}:2 = scf.for %[[G:[^ ]*]] = %{{.*}} -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK-NEXT:     %[[S:.*]] = tensor.extract %i[%[[G]]] : tensor<3xi8>
// CHECK-NEXT:     %[[SW:.*]] = arith.extui %[[S]] : i8 to i64
// CHECK-NEXT:     %[[SX:.*]] = arith.index_cast %[[SW]] : i64 to index
// CHECK-NEXT:     %[[OK:.*]] = arith.cmpi ule, %[[SX]], %{{.*}} : index
// CHECK-NEXT:     %[[TRIPS:.*]] = arith.select %[[OK]]
// CHECK-NEXT:     %{{.*}}:2 = scf.for %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%[[TV:.*]] = %{{.*}}, %[[TI:.*]] = %{{.*}}) -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK-NEXT:       %[[P:.*]] = arith.addi %[[SX]], %[[W]] : index
// CHECK-NEXT:       %[[A:.*]] = tensor.extract %[[TV]][%[[P]]] : tensor<5xf32>
// CHECK-NEXT:       %{{.*}} = tensor.extract %[[TI]][%[[P]]] : tensor<5xi32>
// CHECK-NEXT:       %[[U:.*]] = tensor.extract %u[%[[W]], %[[G]]] : tensor<2x3xbf16>
// CHECK-NEXT:       %[[UW:.*]] = arith.extf %[[U]] : bf16 to f32
// CHECK-NEXT:       %[[V:.*]] = tensor.extract %v[%[[W]], %[[G]]] : tensor<2x3xi32>
// CHECK-NEXT:       %[[SUM:.*]] = arith.addf %[[A]], %[[UW]] : f32
// CHECK-NEXT:       %[[NV:.*]] = tensor.insert %[[SUM]] into %[[TV]][%[[P]]] : tensor<5xf32>
// CHECK-NEXT:       %[[NI:.*]] = tensor.insert %[[V]] into %[[TI]][%[[P]]] : tensor<5xi32>
// CHECK-NEXT:       scf.yield %[[NV]], %[[NI]] : tensor<5xf32>, tensor<5xi32>
// CHECK:      %[[NARROW:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<5xf32>) outs(%{{.*}} : tensor<5xbf16>)
// CHECK:        arith.truncf %{{.*}} : f32 to bf16
// CHECK:      func.return %[[NARROW]], %[[RY]] : tensor<5xbf16>, tensor<5xi32>
func.func @scatter_variadic(%x: tensor<5xbf16>, %y: tensor<5xi32>, %i: tensor<3xui8>, %u: tensor<2x3xbf16>, %v: tensor<2x3xi32>) -> (tensor<5xbf16>, tensor<5xi32>) {
  %r:2 = "xla.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #xla.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<i32>, %c: tensor<bf16>, %d: tensor<i32>):
    %s = xla.add %a, %c : tensor<bf16>
    xla.return %s, %d : tensor<bf16>, tensor<i32>
  }) : (tensor<5xbf16>, tensor<5xi32>, tensor<3xui8>, tensor<2x3xbf16>, tensor<2x3xi32>) -> (tensor<5xbf16>, tensor<5xi32>)
  func.return %r#0, %r#1 : tensor<5xbf16>, tensor<5xi32>
}
