// RUN: xla-opt %s --split-input-file --verify-diagnostics -p xla-inline-run-parallel | FileCheck %s

// A one-program grid is a call; the infeed functions run first and push their
// values onto the infeed queue, in order.
func.func @program(%t: !xla.token) -> (tensor<2xi64>, !xla.token) {
  %r:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<2xi64>, !xla.token)
  func.return %r#0, %r#1 : tensor<2xi64>, !xla.token
}
func.func @queue0() -> tensor<2xi64> {
  %c = xla.constant dense<[1, 2]> : tensor<2xi64>
  func.return %c : tensor<2xi64>
}
// CHECK-LABEL: func.func @main
func.func @main() -> tensor<2xi64> {
  %t = xla.after_all : !xla.token
  // CHECK-NEXT: %t = xla.after_all
  // CHECK-NEXT: %[[Q:.*]] = xla.call @queue0() : () -> tensor<2xi64>
  // CHECK-NEXT: xla.custom_call @__xla_interpreter_infeed(%[[Q]]) {has_side_effect = true} : (tensor<2xi64>) -> ()
  // CHECK-NEXT: %[[GR:[^ ]*]]:2 = xla.call @program(%t) : (!xla.token) -> (tensor<2xi64>, !xla.token)
  // CHECK-NEXT: func.return %[[GR]]#0
  %r:2 = "interpreter.run_parallel"(%t) {infeed = [@queue0], programs = [[@program]]} : (!xla.token) -> (tensor<2xi64>, !xla.token)
  func.return %r#0 : tensor<2xi64>
}

// -----

func.func @program() -> tensor<i64> {
  %c = xla.constant dense<1> : tensor<i64>
  func.return %c : tensor<i64>
}
// A larger grid stays for convert-xla-to-linalg (a call into the collective runtime).
// CHECK-LABEL: func.func @two_replicas
func.func @two_replicas() -> tensor<i64> {
  // CHECK-NEXT: %r:2 = "interpreter.run_parallel"() <{programs = {{\[}}[@program], [@program]]}>
  %r:2 = "interpreter.run_parallel"() {programs = [[@program], [@program]]} : () -> (tensor<i64>, tensor<i64>)
  func.return %r#0 : tensor<i64>
}
