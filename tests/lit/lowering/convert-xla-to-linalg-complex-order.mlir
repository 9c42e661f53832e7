// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// Complex maximum: StableHLO's lexicographic order, re(a) == re(b) ? im(a) > im(b)
// : re(a) > re(b) (IEEE compares), picking whole complex values.
// CHECK-LABEL: func.func @max_c64(
// CHECK:         linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: complex<f32>, %[[B:.*]]: complex<f32>, %{{.*}}: complex<f32>):
// CHECK-NEXT:      %[[RA:.*]] = complex.re %[[A]] : complex<f32>
// CHECK-NEXT:      %[[RB:.*]] = complex.re %[[B]] : complex<f32>
// CHECK-NEXT:      %[[IA:.*]] = complex.im %[[A]] : complex<f32>
// CHECK-NEXT:      %[[IB:.*]] = complex.im %[[B]] : complex<f32>
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[RA]], %[[RB]] : f32
// CHECK-NEXT:      %[[GI:.*]] = arith.cmpf ogt, %[[IA]], %[[IB]] : f32
// CHECK-NEXT:      %[[GR:.*]] = arith.cmpf ogt, %[[RA]], %[[RB]] : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.select %[[EQ]], %[[GI]], %[[GR]] : i1
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : complex<f32>
// CHECK-NEXT:      linalg.yield %[[R]] : complex<f32>
func.func @max_c64(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = xla.maximum %a, %b : tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// Complex iota: the index converted to the real part, a zero imaginary part.
// CHECK-LABEL: func.func @iota_c128(
// CHECK:         %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:    %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[RE:.*]] = arith.sitofp %[[W]] : i64 to f64
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %[[Z:.*]] = complex.create %[[RE]], %[[ZERO]] : complex<f64>
// CHECK-NEXT:    linalg.yield %[[Z]] : complex<f64>
func.func @iota_c128() -> tensor<2x3xcomplex<f64>> {
  %0 = xla.iota dim = 1 : tensor<2x3xcomplex<f64>>
  func.return %0 : tensor<2x3xcomplex<f64>>
}

// bitcast_convert c64 -> i64: the real part's bits low, the imaginary part's high.
// CHECK-LABEL: func.func @bitcast_c64(
// CHECK:         %[[RE:.*]] = complex.re %{{.*}} : complex<f32>
// CHECK-NEXT:    %[[RB:.*]] = arith.bitcast %[[RE]] : f32 to i32
// CHECK-NEXT:    %[[RW:.*]] = arith.extui %[[RB]] : i32 to i64
// CHECK-NEXT:    %[[IM:.*]] = complex.im %{{.*}} : complex<f32>
// CHECK-NEXT:    %[[IB:.*]] = arith.bitcast %[[IM]] : f32 to i32
// CHECK-NEXT:    %[[IW:.*]] = arith.extui %[[IB]] : i32 to i64
// CHECK-NEXT:    %[[SH:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[HI:.*]] = arith.shli %[[IW]], %[[SH]] : i64
// CHECK-NEXT:    %[[R:.*]] = arith.ori %[[RW]], %[[HI]] : i64
// CHECK-NEXT:    linalg.yield %[[R]] : i64
func.func @bitcast_c64(%a: tensor<3xcomplex<f32>>) -> tensor<3xi64> {
  %0 = xla.bitcast_convert %a : (tensor<3xcomplex<f32>>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}
