// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @ids
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  // CHECK: xla.replica_id : tensor<ui32>
  %0 = xla.replica_id : tensor<ui32>
  // CHECK: xla.partition_id : tensor<ui32>
  %1 = xla.partition_id : tensor<ui32>
  func.return %0, %1 : tensor<ui32>, tensor<ui32>
}

// CHECK-LABEL: func.func @all_reduce
func.func @all_reduce(%x: tensor<4xi64>, %y: tensor<5xi64>) -> tensor<4xi64> {
  // CHECK: "xla.all_reduce"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>, use_global_device_ids}> ({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i64>):
  // CHECK-NEXT: xla.add
  // CHECK-NEXT: xla.return %{{.*}} : tensor<i64>
  // CHECK-NEXT: }) : (tensor<4xi64>) -> tensor<4xi64>
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>, use_global_device_ids} : (tensor<4xi64>) -> tensor<4xi64>
  // CHECK: "xla.all_reduce"(%{{.*}}, %{{.*}}) <{replica_groups = dense<{{\[\[}}0, 1], [2, -1]]> : tensor<2x2xi64>}> ({
  // CHECK: }) : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
  %1:2 = "xla.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.maximum %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>} : (tensor<4xi64>, tensor<5xi64>) -> (tensor<4xi64>, tensor<5xi64>)
  func.return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @all_reduce_tuple
func.func @all_reduce_tuple(%x: tuple<tensor<2xf32>, tensor<f32>>) -> tuple<tensor<2xf32>, tensor<f32>> {
  // CHECK: }) : (tuple<tensor<2xf32>, tensor<f32>>) -> tuple<tensor<2xf32>, tensor<f32>>
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
  }) {replica_groups = dense<> : tensor<0x0xi64>} : (tuple<tensor<2xf32>, tensor<f32>>) -> tuple<tensor<2xf32>, tensor<f32>>
  func.return %0 : tuple<tensor<2xf32>, tensor<f32>>
}

// CHECK-LABEL: func.func @cross_replica_sum
func.func @cross_replica_sum(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "xla.cross_replica_sum"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "xla.cross_replica_sum"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "xla.cross_replica_sum"(%{{.*}}) <{replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "xla.cross_replica_sum"(%0) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @all_gather
func.func @all_gather(%x: tensor<2x2xi64>, %y: tensor<2x2xi32>) -> tensor<2x4xi64> {
  // CHECK: "xla.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xi64>) -> tensor<2x4xi64>
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi64>
  // Across replicas and partitions the result is a multiple of operand x group.
  // CHECK: "xla.all_gather"(%{{.*}}) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>}> : (tensor<2x2xi64>) -> tensor<2x8xi64>
  %1 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>} : (tensor<2x2xi64>) -> tensor<2x8xi64>
  // CHECK: "xla.all_gather"(%{{.*}}, %{{.*}}) <{all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<2x2xi64>, tensor<2x2xi32>) -> (tensor<6x2xi64>, tensor<6x2xi32>)
  %2:2 = "xla.all_gather"(%x, %y) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2x2xi64>, tensor<2x2xi32>) -> (tensor<6x2xi64>, tensor<6x2xi32>)
  func.return %0 : tensor<2x4xi64>
}

// CHECK-LABEL: func.func @all_to_all
func.func @all_to_all(%x: tensor<2x4xi64>, %y: tensor<3x4xi32>) -> tensor<4x2xi64> {
  // CHECK: "xla.all_to_all"(%{{.*}}) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>}> : (tensor<2x4xi64>) -> tensor<4x2xi64>
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  // CHECK: "xla.all_to_all"(%{{.*}}, %{{.*}}) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 2, type = 1>}> : (tensor<2x4xi64>, tensor<3x4xi32>) -> (tensor<4x2xi64>, tensor<6x2xi32>)
  %1:2 = "xla.all_to_all"(%x, %y) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 2, type = 1>} : (tensor<2x4xi64>, tensor<3x4xi32>) -> (tensor<4x2xi64>, tensor<6x2xi32>)
  // CHECK: "xla.all_to_all"(%{{.*}}) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xi64>) -> tensor<2x4xi64>
  %2 = "xla.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x4xi64>
  func.return %0 : tensor<4x2xi64>
}

// CHECK-LABEL: func.func @collective_permute
func.func @collective_permute(%x: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // CHECK: "xla.collective_permute"(%{{.*}}) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [3, 3]]> : tensor<3x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>}> : (tensor<2x2xi64>) -> tensor<2x2xi64>
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [3, 3]]> : tensor<3x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @collective_broadcast
func.func @collective_broadcast(%x: tensor<1x2xi64>) -> tensor<1x2xi64> {
  // CHECK: "xla.collective_broadcast"(%{{.*}}) <{replica_groups = dense<{{\[\[}}2, 1]]> : tensor<1x2xi64>}> : (tensor<1x2xi64>) -> tensor<1x2xi64>
  %0 = "xla.collective_broadcast"(%x) {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>} : (tensor<1x2xi64>) -> tensor<1x2xi64>
  func.return %0 : tensor<1x2xi64>
}

// CHECK-LABEL: func.func @reduce_scatter
func.func @reduce_scatter(%x: tensor<2x4xi64>) -> tensor<2x2xi64> {
  // CHECK: "xla.reduce_scatter"(%{{.*}}) <{scatter_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
  // CHECK: }) : (tensor<2x4xi64>) -> tensor<2x2xi64>
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>
  // CHECK: "xla.reduce_scatter"(%{{.*}}) <{scatter_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>}> ({
  // CHECK: }) : (tensor<2x4xi64>) -> tensor<2x1xi64>
  %1 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>} : (tensor<2x4xi64>) -> tensor<2x1xi64>
  func.return %0 : tensor<2x2xi64>
}

// all_reduce and reduce_scatter may compute in a wider type of the same kind
// (StableHLO's promotable accumulator); the results hold it.
// CHECK-LABEL: func.func @collectives_promoted
// CHECK:       : (tensor<3xbf16>) -> tensor<3xf32>
// CHECK:       : (tensor<4xi8>) -> tensor<2xi32>
func.func @collectives_promoted(%h: tensor<3xbf16>, %b: tensor<4xi8>) -> (tensor<3xf32>, tensor<2xi32>) {
  %0 = "xla.all_reduce"(%h) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xbf16>) -> tensor<3xf32>
  %1 = "xla.reduce_scatter"(%b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = xla.add %x, %y : tensor<i32>
    xla.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi8>) -> tensor<2xi32>
  func.return %0, %1 : tensor<3xf32>, tensor<2xi32>
}

