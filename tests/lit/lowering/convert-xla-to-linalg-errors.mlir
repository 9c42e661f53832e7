// RUN: xla-opt %s --split-input-file --verify-diagnostics -p convert-xla-to-linalg

// expected-error @+1 {{tuple values must be flattened first (run xla-flatten-tuples)}}
func.func @tuple_left(%t: tuple<tensor<f32>>) -> tensor<f32> {
  %0 = xla.get_tuple_element %t[0] : (tuple<tensor<f32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @complex(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{cannot lower 'xla.remainder': it is not defined on element type complex<f32>}}
  %0 = xla.remainder %x, %x : tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @reducer_without_scalar_form(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %0 = xla.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    // expected-error @+1 {{'xla.reverse' in the body of 'xla.reduce' has no scalar form}}
    %d = xla.reverse %a, dims = [] : tensor<f32>
    xla.return %d : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// A program that starts a grid itself (here, through a call) would start a grid in
// every replica.
func.func @leaf() -> tensor<i64> {
  %c = xla.constant dense<3> : tensor<i64>
  func.return %c : tensor<i64>
}

func.func @helper() -> tensor<i64> {
  %r:2 = "interpreter.run_parallel"() {programs = [[@leaf], [@leaf]]} : () -> (tensor<i64>, tensor<i64>)
  func.return %r#0 : tensor<i64>
}

func.func @replica() -> tensor<i64> {
  %0 = func.call @helper() : () -> tensor<i64>
  func.return %0 : tensor<i64>
}

func.func @main() -> tensor<i64> {
  // expected-error @+1 {{interpreter.run_parallel: @replica runs interpreter.run_parallel itself (directly or through calls): a replica cannot start another grid of replicas}}
  %r:2 = "interpreter.run_parallel"() {programs = [[@replica], [@replica]]} : () -> (tensor<i64>, tensor<i64>)
  func.return %r#0 : tensor<i64>
}

// -----

// Recursion, here through two functions, is reported at the call that closes the
// cycle: compiled, it would never end or overflow the stack.
func.func @even(%x: tensor<i64>) -> tensor<i64> {
  %0 = func.call @odd(%x) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

func.func @odd(%x: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{recursive call of @even (@even -> @odd -> @even): an XLA program's call graph is acyclic, and recursion is not compiled}}
  %0 = func.call @even(%x) : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
