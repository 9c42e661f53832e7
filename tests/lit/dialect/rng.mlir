// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @rng_uniform
func.func @rng_uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %shape = xla.constant dense<[3, 4]> : tensor<2xi64>
  // CHECK: xla.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @rng_uniform_int
func.func @rng_uniform_int(%a: tensor<i32>, %b: tensor<i32>, %s: tensor<1xi32>) -> tensor<7xi32> {
  // CHECK: xla.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi32>) -> tensor<7xi32>
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi32>) -> tensor<7xi32>
  func.return %0 : tensor<7xi32>
}

// CHECK-LABEL: func.func @rng_uniform_pred
func.func @rng_uniform_pred(%a: tensor<i1>, %b: tensor<i1>, %s: tensor<0xi64>) -> tensor<i1> {
  // CHECK: xla.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : (tensor<i1>, tensor<i1>, tensor<0xi64>) -> tensor<i1>
  %0 = xla.rng %a, %b, %s, distribution = UNIFORM : (tensor<i1>, tensor<i1>, tensor<0xi64>) -> tensor<i1>
  func.return %0 : tensor<i1>
}

// CHECK-LABEL: func.func @rng_normal
func.func @rng_normal(%mu: tensor<f64>, %sigma: tensor<f64>, %s: tensor<3xi64>) -> tensor<2x3x4xf64> {
  // CHECK: xla.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<3xi64>) -> tensor<2x3x4xf64>
  %0 = xla.rng %mu, %sigma, %s, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<3xi64>) -> tensor<2x3x4xf64>
  func.return %0 : tensor<2x3x4xf64>
}

// The StableHLO generic spelling reads too.
// CHECK-LABEL: func.func @rng_generic
func.func @rng_generic(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>) -> tensor<3x4xf32> {
  // CHECK: xla.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %0 = "xla.rng"(%a, %b, %s) {rng_distribution = #xla<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @rng_bernoulli
func.func @rng_bernoulli(%p: tensor<f32>) -> tensor<2x3xui32> {
  // CHECK: "xla.rng_bernoulli"(%{{.*}}) <{shape = array<i64: 2, 3>}> : (tensor<f32>) -> tensor<2x3xui32>
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2, 3>} : (tensor<f32>) -> tensor<2x3xui32>
  func.return %0 : tensor<2x3xui32>
}

// CHECK-LABEL: func.func @rng_bit_generator_three_fry
func.func @rng_bit_generator_three_fry(%state: tensor<2xui64>) -> tensor<4x4xui32> {
  // CHECK: %{{.*}}:2 = xla.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  %0, %1 = xla.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  func.return %1 : tensor<4x4xui32>
}

// CHECK-LABEL: func.func @rng_bit_generator_philox
func.func @rng_bit_generator_philox(%state: tensor<3xui64>) -> tensor<8xui64> {
  // CHECK: xla.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8xui64>)
  %0:2 = xla.rng_bit_generator %state, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<8xui64>)
  func.return %0#1 : tensor<8xui64>
}

// CHECK-LABEL: func.func @rng_bit_generator_default
func.func @rng_bit_generator_default(%state: tensor<4xui32>) -> tensor<2x2xf32> {
  // CHECK: xla.rng_bit_generator %{{.*}}, algorithm = DEFAULT : (tensor<4xui32>) -> (tensor<4xui32>, tensor<2x2xf32>)
  %0:2 = "xla.rng_bit_generator"(%state) {rng_algorithm = #xla<rng_algorithm DEFAULT>} : (tensor<4xui32>) -> (tensor<4xui32>, tensor<2x2xf32>)
  func.return %0#1 : tensor<2x2xf32>
}
