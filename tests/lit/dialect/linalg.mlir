// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @cholesky
// CHECK: %0 = xla.cholesky %a, lower = true : tensor<3x3xf32>
// CHECK: %1 = xla.cholesky %a : tensor<3x3xf32>
// CHECK: %2 = xla.cholesky %b, lower = false : tensor<2x4x4xcomplex<f64>>
func.func @cholesky(%a: tensor<3x3xf32>, %b: tensor<2x4x4xcomplex<f64>>) {
  %0 = xla.cholesky %a, lower = true : tensor<3x3xf32>
  %1 = xla.cholesky %a : tensor<3x3xf32>
  %2 = xla.cholesky %b, lower = false : tensor<2x4x4xcomplex<f64>>
  func.return
}

// CHECK-LABEL: func.func @cholesky_generic_spelling
// CHECK: %0 = xla.cholesky %a, lower = true : tensor<?x?xf64>
func.func @cholesky_generic_spelling(%a: tensor<?x?xf64>) {
  %0 = "xla.cholesky"(%a) {lower = true} : (tensor<?x?xf64>) -> tensor<?x?xf64>
  func.return
}

// CHECK-LABEL: func.func @triangular_solve
// CHECK: %0 = "xla.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK: %1 = "xla.triangular_solve"(%a, %c) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #xla<transpose TRANSPOSE>}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>, %c: tensor<2x3xf32>) {
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %1 = "xla.triangular_solve"(%a, %c) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #xla<transpose TRANSPOSE>}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: func.func @triangular_solve_batched
// CHECK: %0 = "xla.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose ADJOINT>}> : (tensor<5x3x3xcomplex<f32>>, tensor<5x3x2xcomplex<f32>>) -> tensor<5x3x2xcomplex<f32>>
func.func @triangular_solve_batched(%a: tensor<5x3x3xcomplex<f32>>, %b: tensor<5x3x2xcomplex<f32>>) {
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose ADJOINT>} : (tensor<5x3x3xcomplex<f32>>, tensor<5x3x2xcomplex<f32>>) -> tensor<5x3x2xcomplex<f32>>
  func.return
}

// CHECK-LABEL: func.func @fft
// CHECK: %0 = xla.fft %c, type = FFT, length = [4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
// CHECK: %1 = xla.fft %c, type = IFFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
func.func @fft(%c: tensor<2x4xcomplex<f32>>) {
  %0 = xla.fft %c, type = FFT, length = [4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  %1 = xla.fft %c, type = IFFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  func.return
}

// CHECK-LABEL: func.func @rfft_irfft
// CHECK: %0 = xla.fft %r, type = RFFT, length = [4, 4] : (tensor<4x4xf64>) -> tensor<4x3xcomplex<f64>>
// CHECK: %1 = xla.fft %0, type = IRFFT, length = [4, 4] : (tensor<4x3xcomplex<f64>>) -> tensor<4x4xf64>
// CHECK: %2 = xla.fft %s, type = RFFT, length = [2, 2, 5] : (tensor<3x2x2x5xf32>) -> tensor<3x2x2x3xcomplex<f32>>
func.func @rfft_irfft(%r: tensor<4x4xf64>, %s: tensor<3x2x2x5xf32>) {
  %0 = xla.fft %r, type = RFFT, length = [4, 4] : (tensor<4x4xf64>) -> tensor<4x3xcomplex<f64>>
  %1 = xla.fft %0, type = IRFFT, length = [4, 4] : (tensor<4x3xcomplex<f64>>) -> tensor<4x4xf64>
  %2 = xla.fft %s, type = RFFT, length = [2, 2, 5] : (tensor<3x2x2x5xf32>) -> tensor<3x2x2x3xcomplex<f32>>
  func.return
}

// CHECK-LABEL: func.func @fft_generic_spelling
// CHECK: %0 = xla.fft %r, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
func.func @fft_generic_spelling(%r: tensor<8xf32>) {
  %0 = "xla.fft"(%r) {fft_type = #xla<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  func.return
}
