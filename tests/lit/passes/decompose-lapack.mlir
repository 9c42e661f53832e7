// RUN: xla-opt %s -p xla-decompose-lapack | FileCheck %s
// RUN: xla-opt %s -p xla-decompose-lapack | xla-opt | FileCheck %s

// Each LAPACK custom call becomes a call of a private function named after the
// target, the operand types and the options (Shardy's rule goes with the call).
// CHECK-LABEL: func.func @chol
// CHECK-NEXT:    %0:2 = func.call @lapack_spotrf_ffi_2x3x3xf32_uploL(%a) : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK-NOT:     custom_call
func.func @chol(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>) {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, api_version = 4 : i32, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=2, j=3, k=3, l=3, m=3}, custom>} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
  return %0#0, %0#1 : tensor<2x3x3xf32>, tensor<2xi32>
}

// Two calls of one target on one type share one function.
// CHECK-LABEL: func.func @lu
// CHECK-NEXT:    %0:3 = func.call @lapack_dgetrf_ffi_4x4xf64(%a)
// CHECK-NEXT:    %1:3 = func.call @lapack_dgetrf_ffi_4x4xf64(%a)
// CHECK-NEXT:    func.return %1#0, %0#1, %0#2
func.func @lu(%a: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xi32>, tensor<i32>) {
  %0:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, api_version = 4 : i32} : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xi32>, tensor<i32>)
  %1:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, api_version = 4 : i32} : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xi32>, tensor<i32>)
  return %1#0, %0#1, %0#2 : tensor<4x4xf64>, tensor<4xi32>, tensor<i32>
}

// CHECK-LABEL: func.func @solve
// CHECK-NEXT:    func.call @lapack_ctrsm_ffi_3x3xcf32_3x2xcf32_diagU_sideL_trans_xC_uploL(%a, %b)
func.func @solve(%a: tensor<3x3xcomplex<f32>>, %b: tensor<3x2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>> {
  %0 = stablehlo.custom_call @lapack_ctrsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, api_version = 4 : i32} : (tensor<3x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  return %0 : tensor<3x2xcomplex<f32>>
}

// CHECK-LABEL: func.func @batched_qr
// CHECK-NEXT:    func.call @lapack_sgeqrf_ffi_2x4x3xf32(%a)
func.func @batched_qr(%a: tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>) {
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, api_version = 4 : i32} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2x4x3xf32>, tensor<2x3xf32>
}

// Other custom calls are left for the lowering (which names a target it cannot run).
// CHECK-LABEL: func.func @other
// CHECK-NEXT:    xla.custom_call @lapack_sgeev_ffi(%a)
func.func @other(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {api_version = 4 : i32} : (tensor<3x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// potrf: xla.cholesky on the whole batch, the input's other triangle kept; the
// elimination that finds `info` runs only while a failed matrix has none.
// CHECK-LABEL: func.func private @lapack_spotrf_ffi_2x3x3xf32_uploL(%arg0: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2xi32>)
// CHECK-NEXT:    %[[L:.*]] = xla.cholesky %arg0, lower = true : tensor<2x3x3xf32>
// CHECK:         %[[KEEP:.*]] = xla.compare GE,
// CHECK-NEXT:    %[[OUT:.*]] = xla.select %[[KEEP]], %[[L]], %arg0
// CHECK:         xla.compare NE
// CHECK:         xla.while
// CHECK:         xla.reduce({{.*}}) applies xla.or across dimensions = [0]
// CHECK:         func.return %[[OUT]], %{{.*}} : tensor<2x3x3xf32>, tensor<2xi32>

// getrf: one while step per column: the pivot search (max of |a|), the row swap, the update.
// CHECK-LABEL: func.func private @lapack_dgetrf_ffi_4x4xf64
// CHECK:         xla.while
// CHECK:         xla.abs
// CHECK:         applies xla.maximum
// CHECK:         applies xla.minimum
// CHECK:         xla.dynamic_update_slice
// CHECK-NOT:     func.func private @lapack_dgetrf_ffi_4x4xf64

// trsm: one xla.triangular_solve, trans 'C' as ADJOINT, diag 'U' as a unit diagonal.
// CHECK-LABEL: func.func private @lapack_ctrsm_ffi
// CHECK-NEXT:    "xla.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, unit_diagonal = true, transpose_a = #xla<transpose ADJOINT>}>

// geqrf on a batch: a loop over the matrices around the one-matrix kernel.
// CHECK-LABEL: func.func private @lapack_sgeqrf_ffi_2x4x3xf32
// CHECK:         xla.while
// CHECK:         xla.dynamic_slice %{{.*}}, sizes = [1, 4, 3]
// CHECK:         xla.reshape %{{.*}} : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
// CHECK:         xla.while
// CHECK:         xla.sqrt
