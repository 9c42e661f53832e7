// RUN: xla-opt %s -p xla-expose-checks | FileCheck %s

// Each check's operands become results after the function's own, in program
// order; sub-byte integers are widened to 8 bits on the way out.
// CHECK-LABEL: func.func @test() -> (tensor<f32>, tensor<2xi8>, tensor<f32>, tensor<f32>, tensor<2xui8>) {
func.func @test() -> tensor<f32> {
  %0 = stablehlo.constant dense<[1, -2]> : tensor<2xi4>
  %1 = stablehlo.constant dense<1.5> : tensor<f32>
  %2 = stablehlo.multiply %1, %1 : tensor<f32>
  %3 = stablehlo.constant dense<[3, 1]> : tensor<2xui2>
  // CHECK-NOT: check.
  // CHECK:      %[[W:.*]] = xla.convert %{{.*}} : (tensor<2xi4>) -> tensor<2xi8>
  check.expect_eq_const %0, dense<[1, -2]> : tensor<2xi4>
  check.expect_almost_eq %2, %1, tolerance = 1.0 : tensor<f32>
  // CHECK:      %[[U:.*]] = xla.convert %{{.*}} : (tensor<2xui2>) -> tensor<2xui8>
  check.expect_eq_const %3, dense<[3, 1]> : tensor<2xui2>
  // CHECK-NEXT: func.return %[[R:.*]], %[[W]], %[[P:.*]], %[[Q:.*]], %[[U]] : tensor<f32>, tensor<2xi8>, tensor<f32>, tensor<f32>, tensor<2xui8>
  func.return %2 : tensor<f32>
}
