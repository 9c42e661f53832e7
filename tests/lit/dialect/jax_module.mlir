// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// A module as JAX exports it: foreign attributes on the module, its functions and
// their arguments, func.call between functions, hex float literals, mixed pretty and
// generic ops, and location aliases defined after their uses.

module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, jax.uses_shape_polymorphism = false} {
  func.func public @main(%arg0: tensor<4xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"}, %arg1: tensor<f32>) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = call @helper(%arg0, %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst = xla.constant dense<0x7FC00000> : tensor<f32>
    %1 = xla.add %0, %cst : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @helper(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = "xla.multiply"(%arg0, %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> loc(#loc3)
    return %0 : tensor<4xf32>
  }
}
#loc3 = loc("x.py":3:4)

// CHECK:      builtin.module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, jax.uses_shape_polymorphism = false} {
// CHECK-NEXT:   func.func public @main(%arg0: tensor<4xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"}, %arg1: tensor<f32>) -> (tensor<4xf32> {jax.result_info = ""}) {
// CHECK-NEXT:     %0 = func.call @helper(%arg0, %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %cst = xla.constant dense<0x7FC00000> : tensor<f32>
// CHECK-NEXT:     %1 = xla.add %0, %cst : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @helper(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
// CHECK-NEXT:     %0 = xla.multiply %arg0, %arg1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %0 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
