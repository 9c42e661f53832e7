// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// A power of two: the twiddle table e^(-2πi k/n) (k < n/2), then radix-2
// Stockham stages, two per iteration of an scf.for carrying the tensor (the
// second writes over the carried tensor), the odd last one after the loop.
// Each stage is one parallel generic over every line: the butterfly reads
// x[q + s p] and x[q + s p + n/2] (s = 2^%stage) and the twiddle at s p.
// CHECK-LABEL: func.func @fft_pow2
// CHECK:         %[[W:.*]] = arith.constant dense<[(1.000000e+00,0.000000e+00), (0.707106769,-0.707106769), (6.12323426e-17,-1.000000e+00), (-0.707106769,-0.707106769)]> : tensor<4xcomplex<f32>>
// CHECK:         %[[LOOP:.*]] = scf.for %[[STAGE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %x) -> (tensor<2x8xcomplex<f32>>) {
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<2x8xcomplex<f32>>) {
// CHECK:             %[[ROW:.*]] = linalg.index 0 : index
// CHECK:             %[[STRIDE:.*]] = arith.shli %{{.*}}, %[[STAGE]] : index
// CHECK:             %[[FIRST:.*]] = arith.addi %{{.*}}, %[[OFFSET:.*]] : index
// CHECK:             %[[HALF:.*]] = arith.constant 4 : index
// CHECK-NEXT:        %[[SECOND:.*]] = arith.addi %[[FIRST]], %[[HALF]] : index
// CHECK-NEXT:        %[[A:.*]] = tensor.extract %[[X]][%[[ROW]], %[[FIRST]]] : tensor<2x8xcomplex<f32>>
// CHECK-NEXT:        %[[B:.*]] = tensor.extract %[[X]][%[[ROW]], %[[SECOND]]] : tensor<2x8xcomplex<f32>>
// CHECK-NEXT:        %[[T:.*]] = tensor.extract %[[W]][%[[OFFSET]]] : tensor<4xcomplex<f32>>
// CHECK-NEXT:        %[[SUM:.*]] = complex.add %[[A]], %[[B]] : complex<f32>
// CHECK-NEXT:        %[[DIFF:.*]] = complex.sub %[[A]], %[[B]] : complex<f32>
// CHECK-NEXT:        %[[ROT:.*]] = complex.mul %[[DIFF]], %[[T]] : complex<f32>
// CHECK-NEXT:        %[[OUT:.*]] = arith.select %{{.*}}, %[[ROT]], %[[SUM]] : complex<f32>
// CHECK-NEXT:        linalg.yield %[[OUT]] : complex<f32>
// CHECK:           %[[Z:.*]] = linalg.generic {{.*}} outs(%[[X]] : tensor<2x8xcomplex<f32>>) {
// CHECK:             tensor.extract %[[Y]]
// CHECK:           scf.yield %[[Z]] : tensor<2x8xcomplex<f32>>
// CHECK:         %[[LAST:.*]] = linalg.generic
// CHECK:           tensor.extract %[[LOOP]]
// CHECK:         func.return %[[LAST]] : tensor<2x8xcomplex<f32>>
func.func @fft_pow2(%x: tensor<2x8xcomplex<f32>>) -> tensor<2x8xcomplex<f32>> {
  %0 = xla.fft %x, type = FFT, length = [8] : tensor<2x8xcomplex<f32>>
  func.return %0 : tensor<2x8xcomplex<f32>>
}

// Any other length: Bluestein. x times the chirp, padded to M = 16 >= 2n - 1,
// a forward and an inverse transform of size 16 around the product with the
// chirp's spectrum, then the first n outputs times the chirp. IFFT scales once.
// CHECK-LABEL: func.func @ifft_bluestein
// CHECK:         %[[CHIRP:.*]] = arith.constant dense<{{.*}}> : tensor<5xcomplex<f64>>
// CHECK:         %[[WEIGHTED:.*]] = linalg.generic {{.*}} ins(%x, %[[CHIRP]] : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>)
// CHECK:         %[[PADDED:.*]] = tensor.insert_slice %[[WEIGHTED]] into %{{.*}}[0] [5] [1] : tensor<5xcomplex<f64>> into tensor<16xcomplex<f64>>
// CHECK:         scf.for
// CHECK:         %[[SPECTRUM:.*]] = arith.constant dense<{{.*}}> : tensor<16xcomplex<f64>>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[SPECTRUM]] : tensor<16xcomplex<f64>>, tensor<16xcomplex<f64>>)
// CHECK:         scf.for
// CHECK:         %[[FIRST:.*]] = tensor.extract_slice %{{.*}}[0] [5] [1] : tensor<16xcomplex<f64>> to tensor<5xcomplex<f64>>
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%[[FIRST]], %[[CHIRP]] : tensor<5xcomplex<f64>>, tensor<5xcomplex<f64>>)
// CHECK:         %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<5xcomplex<f64>>)
// CHECK:           complex.constant [2.000000e-01 : f64, 0.000000e+00 : f64] : complex<f64>
// CHECK:         func.return %[[SCALED]]
func.func @ifft_bluestein(%x: tensor<5xcomplex<f64>>) -> tensor<5xcomplex<f64>> {
  %0 = xla.fft %x, type = IFFT, length = [5] : tensor<5xcomplex<f64>>
  func.return %0 : tensor<5xcomplex<f64>>
}

// RFFT: complex from the reals, the last axis transformed and cut to n/2 + 1,
// then the other axes.
// CHECK-LABEL: func.func @rfft
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x6xf32>) outs(%{{.*}} : tensor<4x6xcomplex<f32>>)
// CHECK:           complex.create %{{.*}}, %{{.*}} : complex<f32>
// CHECK:         %[[HALF:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 4] [1, 1] : tensor<4x6xcomplex<f32>> to tensor<4x4xcomplex<f32>>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[HALF]])
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
