// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<3xf32>) {
  // expected-error @+1 {{a must have rank at least 2 (a batch of matrices), got rank 1}}
  %0 = xla.cholesky %a, lower = true : tensor<3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x4xf32>) {
  // expected-error @+1 {{a shape [3, 4] must be square in its two minor dimensions}}
  %0 = xla.cholesky %a, lower = true : tensor<3x4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xi32>) {
  // expected-error @+1 {{a element type i32 is not floating-point or complex}}
  %0 = xla.cholesky %a : tensor<3x3xi32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{result type tensor<3x3xf64> does not match the inferred tensor<3x3xf32>}}
  %0 = xla.cholesky %a : (tensor<3x3xf32>) -> tensor<3x3xf64>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, not TRANSPOSE_INVALID}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{a must have rank at least 2 (a batch of matrices), got rank 1}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x2xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{a shape [3, 2] must be square in its two minor dimensions}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x2xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xi32>, %b: tensor<3x1xi32>) {
  // expected-error @+1 {{a element type i32 is not floating-point or complex}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x1xf64>) {
  // expected-error @+1 {{b element type f64 differs from a element type f32}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf64>) -> tensor<3x1xf64>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<2x3x1xf32>) {
  // expected-error @+1 {{b rank 3 must equal a rank 2}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3x3xf32>, %b: tensor<4x3x1xf32>) {
  // expected-error @+1 {{batch dimensions of a [2] and b [4] differ}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf32>, tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{b shape [1, 3] must be [..., M, K] (left_side = true) with M = 3 from a; dimension 0 has size 1}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{b shape [3, 1] must be [..., K, M] (left_side = false) with M = 3 from a; dimension 1 has size 1}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{result type tensor<3x2xf32> does not match the inferred tensor<3x1xf32>}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) {
  // expected-error @+1 {{transpose_a}}
  %0 = "xla.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{fft_length [] must have 1 to 3 entries}}
  %0 = xla.fft %x, type = FFT, length = [] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<2x2x2x2xcomplex<f32>>) {
  // expected-error @+1 {{fft_length [2, 2, 2, 2] must have 1 to 3 entries}}
  %0 = xla.fft %x, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{fft_length [1, 4] has 2 entries but the operand has rank 1}}
  %0 = xla.fft %x, type = FFT, length = [1, 4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{FFT operand element type f32 must be complex}}
  %0 = xla.fft %x, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{IFFT operand element type f32 must be complex}}
  %0 = xla.fft %x, type = IFFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{RFFT operand element type complex<f32> must be f32 or f64}}
  %0 = xla.fft %x, type = RFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<4xf16>) {
  // expected-error @+1 {{RFFT operand element type f16 must be f32 or f64}}
  %0 = xla.fft %x, type = RFFT, length = [4] : (tensor<4xf16>) -> tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<3xf32>) {
  // expected-error @+1 {{IRFFT operand element type f32 must be complex}}
  %0 = xla.fft %x, type = IRFFT, length = [4] : (tensor<3xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{FFT operand trailing dimensions [4] must be [8] for fft_length [8]}}
  %0 = xla.fft %x, type = FFT, length = [8] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{RFFT operand trailing dimensions [2, 4] must be [4, 4] for fft_length [4, 4]}}
  %0 = xla.fft %x, type = RFFT, length = [4, 4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{IRFFT operand trailing dimensions [4] must be [3] for fft_length [4]}}
  %0 = xla.fft %x, type = IRFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xcomplex<f32>> does not match the inferred tensor<3xcomplex<f32>>}}
  %0 = xla.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<3xcomplex<f64>>) {
  // expected-error @+1 {{result type tensor<4xf32> does not match the inferred tensor<4xf64>}}
  %0 = xla.fft %x, type = IRFFT, length = [4] : (tensor<3xcomplex<f64>>) -> tensor<4xf32>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{fft_length [-4] has -4; lengths must be non-negative}}
  %0 = xla.fft %x, type = FFT, length = [-4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`}}
  %0 = xla.fft %x, type = DCT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}
