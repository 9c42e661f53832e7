// RUN: xla-opt %s --split-input-file | FileCheck %s
// RUN: xla-opt %s --split-input-file --print-op-generic | xla-opt --split-input-file | FileCheck %s

// The `check` dialect of the StableHLO interpreter's tests, in its own syntax.
// CHECK-LABEL: func.func @expectations
func.func @expectations(%a: tensor<3xi64>, %b: tensor<3xi64>, %f: tensor<f64>, %h: tensor<f16>, %c: tensor<2xcomplex<f32>>) {
  // CHECK-NEXT: check.expect_eq %a, %b : tensor<3xi64>
  check.expect_eq %a, %b : tensor<3xi64>
  // CHECK-NEXT: check.expect_eq_const %a, dense<[1, 2, 3]> : tensor<3xi64>
  check.expect_eq_const %a, dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK-NEXT: check.expect_almost_eq %f, %f : tensor<f64>
  check.expect_almost_eq %f, %f : tensor<f64>
  // CHECK-NEXT: check.expect_almost_eq %f, %f, tolerance = 0.1 : tensor<f64>
  check.expect_almost_eq %f, %f, tolerance = 0.1 : tensor<f64>
  // CHECK-NEXT: check.expect_almost_eq_const %f, dense<5.100000e+00> : tensor<f64> {tolerance = 1.000000e-01 : f64}
  check.expect_almost_eq_const %f, dense<5.1> : tensor<f64> {tolerance = 0.1 : f64}
  // CHECK-NEXT: check.expect_almost_eq_const %c, dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %c, dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  // CHECK-NEXT: check.expect_close %h, %h, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  check.expect_close %h, %h, max_ulp_difference = 3 : tensor<f16>, tensor<f16>
  // CHECK-NEXT: check.expect_close %h, %h, min_ulp_difference = 1, max_ulp_difference = 2 : tensor<f16>, tensor<f16>
  check.expect_close %h, %h, min_ulp_difference = 1, max_ulp_difference = 2 : tensor<f16>, tensor<f16>
  // CHECK-NEXT: check.expect_serialized_eq %a, probe_id = "probe0", iter = 1 : tensor<3xi64>
  check.expect_serialized_eq %a, probe_id = "probe0", iter = 1 : tensor<3xi64>
  func.return
}
