// RUN: xla-opt %s --split-input-file --verify-diagnostics -p convert-xla-to-linalg | FileCheck %s

// A collective is a call into the collective runtime: operands in, results out.
// A region that is one add of its arguments is MPI's built-in sum: no function.
// CHECK-LABEL: func.func @sum
// CHECK-NEXT: %[[R:.*]] = func.call @__xla_rt_all_reduce_[[N:[0-9]+]](%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return %[[R]]
// CHECK-NOT: __xla_combine
// CHECK: func.func private @__xla_rt_all_reduce_[[N]](tensor<4xf32>) -> tensor<4xf32>
func.func @sum(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "xla.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Any other region is compiled into a combiner the runtime calls as an MPI
// user-defined operation: the region applied element by element to two
// flattened operands.
// CHECK-LABEL: func.func @mean_of_squares
// CHECK-NEXT: func.call @__xla_rt_all_reduce_{{[0-9]+}}(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: func.func @__xla_combine_0(%{{.*}}: tensor<6xf32>, %{{.*}}: tensor<6xf32>) -> tensor<6xf32>
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @mean_of_squares(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "xla.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = xla.multiply %a, %b : tensor<f32>
    %s = xla.add %p, %a : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// replica_id and partition_id come from the runtime (the device's rank); ui32 is signless i32 here.
// CHECK-LABEL: func.func @ids
// CHECK-NEXT: func.call @__xla_rt_replica_id_{{[0-9]+}}() : () -> tensor<i32>
// CHECK-NEXT: func.call @__xla_rt_partition_id_{{[0-9]+}}() : () -> tensor<i32>
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = xla.replica_id : tensor<ui32>
  %p = xla.partition_id : tensor<ui32>
  func.return %r, %p : tensor<ui32>, tensor<ui32>
}

// -----

// A grid of programs is one call that runs them, one device each.
func.func @program(%x: tensor<2xi64>) -> tensor<2xi64> {
  func.return %x : tensor<2xi64>
}
// CHECK-LABEL: func.func @grid
// CHECK-NEXT: func.call @__xla_rt_run_parallel_{{[0-9]+}}(%x, %y) : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
func.func @grid(%x: tensor<2xi64>, %y: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %r:2 = "interpreter.run_parallel"(%x, %y) {programs = [[@program], [@program]]} : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return %r#0, %r#1 : tensor<2xi64>, tensor<2xi64>
}
