// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<3xi64>, %b: tensor<3xi32>) {
  // expected-error @+1 {{expect_eq's operands must have the same type, got tensor<3xi64> and tensor<3xi32>}}
  "check.expect_eq"(%a, %b) : (tensor<3xi64>, tensor<3xi32>) -> ()
  func.return
}

// -----

func.func @f(%a: tensor<3xi64>) {
  // expected-error @+1 {{the expected value has type tensor<2xi64>, but the operand has type tensor<3xi64>}}
  "check.expect_eq_const"(%a) <{value = dense<[1, 2]> : tensor<2xi64>}> : (tensor<3xi64>) -> ()
  func.return
}

// -----

func.func @f(%a: tensor<f16>, %b: tensor<f32>) {
  // expected-error @+1 {{expect_close's operands must have the same type, got tensor<f16> and tensor<f32>}}
  check.expect_close %a, %b : tensor<f16>, tensor<f32>
  func.return
}
