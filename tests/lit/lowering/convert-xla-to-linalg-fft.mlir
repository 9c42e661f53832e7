// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// A power of two, 8 = 4 · 2: the lines viewed as [P, n, Q] = [2, 8, 1], then
// one Stockham stage per radix, each a nest of scf.for loops carrying the
// result (tensor.extract of the r inputs, the butterfly in real arithmetic,
// tensor.insert of the r outputs). The radix-4 stage (stride 1, m = 2) reads
// x[q + p + 2j] and multiplies outputs k = 1..3 by its twiddle table
// w^(p k) laid out [k - 1][p] (cos(π/2) exactly 0); the last stage (m = 1) has
// no twiddles.
// CHECK-LABEL: func.func @fft_pow2
// CHECK:         %[[LINES:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x1x8x1xcomplex<f32>> into tensor<2x8x1xcomplex<f32>>
// CHECK:         %[[W:.*]] = arith.constant dense<[(1.000000e+00,0.000000e+00), (0.707106769,-0.707106769), (1.000000e+00,0.000000e+00), (0.000000e+00,-1.000000e+00), (1.000000e+00,0.000000e+00), (-0.707106769,-0.707106769)]> : tensor<6xcomplex<f32>>
// CHECK:         %[[S1:[0-9]+]] = scf.for %[[LINE:[0-9]+]] = %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x8x1xcomplex<f32>>) {
// CHECK:           scf.for %[[P:[0-9]+]] = %{{.*}} iter_args(%[[Y:[0-9]+]] = %{{.*}}) -> (tensor<2x8x1xcomplex<f32>>) {
// CHECK-COUNT-4:     tensor.extract %[[LINES]][%[[LINE]], %{{.*}}, %{{.*}}] : tensor<2x8x1xcomplex<f32>>
// CHECK:             arith.negf
// CHECK-NOT:         complex.mul
// CHECK:             tensor.extract %[[W]][%{{.*}}] : tensor<6xcomplex<f32>>
// CHECK:             arith.mulf
// CHECK:             tensor.insert %{{.*}} into %[[Y]][%[[LINE]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-3:     tensor.insert
// CHECK:             scf.yield
// CHECK:         %[[S2:[0-9]+]] = scf.for
// CHECK:           scf.for
// CHECK-COUNT-2:     tensor.extract %[[S1]]
// CHECK-NOT:         tensor.extract
// CHECK-COUNT-2:     tensor.insert
// CHECK:         tensor.expand_shape %[[S2]]
// CHECK:         func.return
func.func @fft_pow2(%x: tensor<2x8xcomplex<f32>>) -> tensor<2x8xcomplex<f32>> {
  %0 = xla.fft %x, type = FFT, length = [8] : tensor<2x8xcomplex<f32>>
  func.return %0 : tensor<2x8xcomplex<f32>>
}

// An odd radix: the pairs a_j ± a_(r-j), multiples by the exact cosines and
// sines (cos(2π/3) = -1/2), and a rotation by ±i (IFFT: +i).
// (One line, one butterfly: no loop.)
// CHECK-LABEL: func.func @ifft_radix3
// CHECK-NOT:     scf.for
// CHECK-COUNT-3:   tensor.extract %{{.*}} : tensor<1x3x1xcomplex<f64>>
// CHECK:           arith.constant -5.000000e-01 : f64
// CHECK:           arith.constant 0.8660254037844386{{[0-9]*}} : f64
// CHECK-COUNT-3:   tensor.insert
func.func @ifft_radix3(%x: tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
  %0 = xla.fft %x, type = IFFT, length = [3] : tensor<3xcomplex<f64>>
  func.return %0 : tensor<3xcomplex<f64>>
}

// A transformed axis with a dimension after it: the innermost loop runs along
// that dimension (Q = 4), the rows being [P, n, Q] = [1, 5, 4].
// CHECK-LABEL: func.func @fft_columns
// CHECK:         tensor.collapse_shape %{{.*}} into tensor<1x5x4xcomplex<f32>>
// CHECK:         scf.for %[[C:.*]] = %{{.*}} iter_args
// CHECK-COUNT-5:   tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %[[C]]] : tensor<1x5x4xcomplex<f32>>
func.func @fft_columns(%x: tensor<5x4xcomplex<f32>>) -> tensor<5x4xcomplex<f32>> {
  %0 = xla.fft %x, type = FFT, length = [5, 4] : tensor<5x4xcomplex<f32>>
  func.return %0 : tensor<5x4xcomplex<f32>>
}

// A large prime factor: Bluestein. x times the chirp, padded to M = 36, the
// least 2^a 3^b 5^c >= 2n - 1, a forward and an inverse mixed-radix transform
// of size 36 around the product with the chirp's spectrum, then the first n
// outputs times the chirp. IFFT scales once.
// CHECK-LABEL: func.func @ifft_bluestein
// CHECK:         %[[CHIRP:.*]] = arith.constant dense<{{.*}}> : tensor<17xcomplex<f64>>
// CHECK:         %[[WEIGHTED:.*]] = linalg.generic {{.*}} ins(%x, %[[CHIRP]] : tensor<17xcomplex<f64>>, tensor<17xcomplex<f64>>)
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice %[[WEIGHTED]] into %{{.*}}[0] [17] [1] : tensor<17xcomplex<f64>> into tensor<36xcomplex<f64>>
// CHECK:         scf.for
// CHECK:         %[[SPECTRUM:.*]] = arith.constant dense<{{.*}}> : tensor<36xcomplex<f64>>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[SPECTRUM]] : tensor<36xcomplex<f64>>, tensor<36xcomplex<f64>>)
// CHECK:         scf.for
// CHECK:         %[[FIRST:.*]] = tensor.extract_slice %{{.*}}[0] [17] [1] : tensor<36xcomplex<f64>> to tensor<17xcomplex<f64>>
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%[[FIRST]], %[[CHIRP]] : tensor<17xcomplex<f64>>, tensor<17xcomplex<f64>>)
// CHECK:         %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<17xcomplex<f64>>)
// CHECK:           complex.constant [0.058823529411764705 : f64, 0.000000e+00 : f64] : complex<f64>
// CHECK:         func.return %[[SCALED]]
func.func @ifft_bluestein(%x: tensor<17xcomplex<f64>>) -> tensor<17xcomplex<f64>> {
  %0 = xla.fft %x, type = IFFT, length = [17] : tensor<17xcomplex<f64>>
  func.return %0 : tensor<17xcomplex<f64>>
}

// RFFT: complex from the reals, the last axis transformed and cut to n/2 + 1,
// then the other axes.
// CHECK-LABEL: func.func @rfft
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x6xf32>) outs(%{{.*}} : tensor<4x6xcomplex<f32>>)
// CHECK:           complex.create %{{.*}}, %{{.*}} : complex<f32>
// CHECK:         %[[HALF:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 4] [1, 1] : tensor<4x6xcomplex<f32>> to tensor<4x4xcomplex<f32>>
// CHECK:         tensor.expand_shape %[[HALF]]
// CHECK:         scf.for
// CHECK:         func.return
func.func @rfft(%x: tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>> {
  %0 = xla.fft %x, type = RFFT, length = [4, 6] : (tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>>
  func.return %0 : tensor<4x4xcomplex<f32>>
}

// IRFFT: the Hermitian extension reads X[k] or conj(X[n - k]) and drops the
// imaginary parts of the DC and Nyquist terms; the result is the scaled real part.
// CHECK-LABEL: func.func @irfft
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<3x8xcomplex<f64>>)
// CHECK:           %[[K:.*]] = linalg.index 1 : index
// CHECK:           %[[MIRRORED:.*]] = arith.cmpi ugt, %[[K]], %{{.*}} : index
// CHECK:           tensor.extract %x[%{{.*}}, %{{.*}}] : tensor<3x5xcomplex<f64>>
// CHECK:           arith.negf
// CHECK:           arith.ori
// CHECK:         complex.re
// CHECK:         arith.constant 1.250000e-01 : f64
// CHECK:         func.return %{{.*}} : tensor<3x8xf64>
func.func @irfft(%x: tensor<3x5xcomplex<f64>>) -> tensor<3x8xf64> {
  %0 = xla.fft %x, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f64>>) -> tensor<3x8xf64>
  func.return %0 : tensor<3x8xf64>
}

// Complex element-wise ops become complex dialect ops in the generic's body.
// CHECK-LABEL: func.func @elementwise
// CHECK:         complex.mul %{{.*}}, %{{.*}} : complex<f32>
// CHECK:         complex.abs %{{.*}} : complex<f32>
func.func @elementwise(%x: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  %0 = xla.multiply %x, %x : tensor<4xcomplex<f32>>
  %1 = xla.abs %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
