// RUN: xla-opt %s --split-input-file --verify-diagnostics

// `interpreter.run_parallel`: the grid names functions of the module, and the
// operands and results are those of its programs, in grid order (StableHLO's rules).

func.func @main(%a: tensor<2xi64>) {
  // expected-error @+1 {{function @missing not found in the module}}
  "interpreter.run_parallel"(%a) {programs = [[@missing]]} : (tensor<2xi64>) -> ()
  func.return
}

// -----

func.func @p(%x: tensor<2xi64>) -> tensor<2xi64> {
  func.return %x : tensor<2xi64>
}
func.func @main(%a: tensor<2xi64>) {
  // expected-error @+1 {{takes 1 inputs, but its programs take 2 in all}}
  %r:2 = "interpreter.run_parallel"(%a) {programs = [[@p], [@p]]} : (tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return
}

// -----

func.func @p(%x: tensor<2xi64>) -> tensor<2xi64> {
  func.return %x : tensor<2xi64>
}
func.func @main(%a: tensor<2xi64>) {
  // expected-error @+1 {{has 0 results, but its programs return 1 in all}}
  "interpreter.run_parallel"(%a) {programs = [[@p]]} : (tensor<2xi64>) -> ()
  func.return
}

// -----

func.func @p(%x: tensor<2xi64>) -> tensor<2xi64> {
  func.return %x : tensor<2xi64>
}
func.func @main(%a: tensor<2xi64>) {
  // expected-error @+1 {{every replica must run the same number of partitions}}
  %r:3 = "interpreter.run_parallel"(%a, %a, %a) {programs = [[@p, @p], [@p]]} : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
  func.return
}

// -----

func.func @p() {
  func.return
}
func.func @main() {
  // expected-error @+1 {{infeed, when given, must name at least one function}}
  "interpreter.run_parallel"() {programs = [[@p]], infeed = []} : () -> ()
  func.return
}

// -----

func.func @p() {
  func.return
}
func.func @two() -> (tensor<i64>, tensor<i64>) {
  %c = xla.constant dense<1> : tensor<i64>
  func.return %c, %c : tensor<i64>, tensor<i64>
}
func.func @main() {
  // expected-error @+1 {{infeed function @two must return one tensor}}
  "interpreter.run_parallel"() {programs = [[@p]], infeed = [@two]} : () -> ()
  func.return
}
