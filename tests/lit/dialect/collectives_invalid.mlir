// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @replica_id_type() {
  // expected-error @+1 {{result type tensor<i32> does not match the inferred tensor<ui32>}}
  %0 = xla.replica_id : tensor<i32>
  func.return
}

// -----

func.func @partition_id_type() {
  // expected-error @+1 {{result type tensor<1xui32> does not match the inferred tensor<ui32>}}
  %0 = xla.partition_id : tensor<1xui32>
  func.return
}

// -----

func.func @groups_repeated(%x: tensor<4xi64>) {
  // expected-error @+1 {{replica_groups holds replica id 1 more than once}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @groups_negative(%x: tensor<4xi64>) {
  // expected-error @+1 {{replica_groups holds -2; replica ids must be non-negative}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, -2]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @groups_gap(%x: tensor<4xi64>) {
  // expected-error @+1 {{replica_groups must hold each replica id of [0, 2) but lacks 1}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @groups_rank(%x: tensor<4xi64>) {
  // expected-error @+1 {{replica_groups must be a rank-2 integer tensor, got tensor<2xi64>}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[0, 1]> : tensor<2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @global_ids_no_channel(%x: tensor<4xi64>) {
  // expected-error @+1 {{use_global_device_ids requires a channel_handle with handle > 0}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @global_ids_channel_zero(%x: tensor<4xi64>) {
  // expected-error @+1 {{use_global_device_ids requires a channel_handle with handle > 0}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 0, type = 0>, use_global_device_ids} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @all_reduce_result_type(%x: tensor<4xi64>) {
  // expected-error @+1 {{result #0 type tensor<5xi64> differs from operand #0 type tensor<4xi64>}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<5xi64>
  func.return
}

// -----

// i32 summed in i64 is valid (a promotable accumulator), but the result then holds i64.
func.func @all_reduce_element_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{result #0 type tensor<4xi32> must be tensor<4xi64>: operand #0's shape and the computation's element type i64}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @all_reduce_region_args(%x: tensor<4xi64>) {
  // expected-error @+1 {{computation must take two tensor<i64> arguments, got (tensor<i64>)}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>):
      xla.return %a : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @all_reduce_region_return(%x: tensor<4xi64>) {
  // expected-error @+1 {{computation must return one tensor<i64>, got (tensor<i64>, tensor<i64>)}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      xla.return %a, %b : tensor<i64>, tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

func.func @all_reduce_empty_tuple(%x: tuple<>) {
  // expected-error @+1 {{operand #0 must be an array or a non-empty tuple of arrays}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tuple<>) -> tuple<>
  func.return
}

// -----

func.func @cross_replica_sum_pred(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand element type i1 is not integer, floating-point or complex}}
  %0 = "xla.cross_replica_sum"(%x) : (tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @cross_replica_sum_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf64> differs from operand type tensor<4xf32>}}
  %0 = "xla.cross_replica_sum"(%x) : (tensor<4xf32>) -> tensor<4xf64>
  func.return
}

// -----

func.func @cross_replica_sum_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{replica_groups holds replica id 0 more than once}}
  %0 = "xla.cross_replica_sum"(%x) {replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @all_gather_dim_range(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{all_gather_dim 2 is out of range [0, 2) of the operand #0 rank}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return
}

// -----

func.func @all_gather_dim_negative(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{all_gather_dim -1 is out of range [0, 2) of the operand #0 rank}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = -1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return
}

// -----

func.func @all_gather_size(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 dimension 1 (size 6) must be operand #0's (2) times the group size 2}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x6xi64>
  func.return
}

// -----

func.func @all_gather_multiple(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 dimension 1 (size 6) must be a multiple of operand #0's (2) times 2}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>} : (tensor<2x2xi64>) -> tensor<2x6xi64>
  func.return
}

// -----

func.func @all_gather_other_dim(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 shape [3, 4] differs from operand #0 shape [2, 2] in dimension 0}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<3x4xi64>
  func.return
}

// -----

func.func @all_gather_element(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 element type i32 differs from operand #0 element type i64}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi32>
  func.return
}

// -----

func.func @all_gather_rank(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{result #0 rank 3 differs from operand #0 rank 2}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4x1xi64>
  func.return
}

// -----

func.func @all_gather_padding(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{replica_groups may not hold -1: all groups must be the same size}}
  %0 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> tensor<2x4xi64>
  func.return
}

// -----

func.func @all_gather_result_count(%x: tensor<2x2xi64>) {
  // expected-error @+1 {{expected 1 results, one per operand, got 2}}
  %0:2 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>)
  func.return
}

// -----

func.func @all_to_all_split_range(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{split_dimension 2 is out of range [0, 2) of the operand #0 rank}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 2 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return
}

// -----

func.func @all_to_all_concat_range(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{concat_dimension 3 is out of range [0, 2) of the operand #0 rank}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 3 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return
}

// -----

func.func @all_to_all_count(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{split_count 0 must be positive}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return
}

// -----

func.func @all_to_all_divisible(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{operand #0 dimension 1 (size 4) is not divisible by split_count 3}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2x4xi64>) -> tensor<6x1xi64>
  func.return
}

// -----

func.func @all_to_all_group_size(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{split_count 2 must equal the size 3 of each replica group}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return
}

// -----

func.func @all_to_all_result(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{result type tensor<2x4xi64> does not match the inferred tensor<4x2xi64>}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x4xi64>
  func.return
}

// -----

func.func @permute_source_twice(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs has source 0 more than once}}
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @permute_target_twice(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs has target 1 more than once}}
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @permute_negative(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs has (-1, 1); replica ids must be non-negative}}
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[-1, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @permute_shape(%x: tensor<2xf32>) {
  // expected-error @+1 {{source_target_pairs must have shape [N, 2], got tensor<1x3xi64>}}
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @permute_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{result type tensor<3xf32> differs from operand type tensor<2xf32>}}
  %0 = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @broadcast_result(%x: tensor<2xf32>) {
  // expected-error @+1 {{result type tensor<2xf64> differs from operand type tensor<2xf32>}}
  %0 = "xla.collective_broadcast"(%x) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf64>
  func.return
}

// -----

func.func @broadcast_groups(%x: tensor<2xf32>) {
  // expected-error @+1 {{replica_groups holds replica id 1 more than once}}
  %0 = "xla.collective_broadcast"(%x) {replica_groups = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @reduce_scatter_dim(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{scatter_dimension 2 is out of range [0, 2) of the operand rank}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @reduce_scatter_size(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{operand dimension 1 (size 4) must be the result's (1) times the group size 2}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x1xi64>
  func.return
}

// -----

func.func @reduce_scatter_multiple(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{operand dimension 1 (size 4) must be a multiple of the result's (3) times 2}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 0>} : (tensor<2x4xi64>) -> tensor<2x3xi64>
  func.return
}

// -----

func.func @reduce_scatter_other_dim(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{result shape [1, 2] differs from operand shape [2, 4] in dimension 0}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<1x2xi64>
  func.return
}

// -----

func.func @reduce_scatter_element(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{result element type i32 differs from operand element type i64}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi32>
  func.return
}

// -----

func.func @reduce_scatter_region(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{operand element type i64 differs from the computation's f32, which must be the same kind, at least as wide}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @reduce_scatter_padding(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{replica_groups may not hold -1}}
  %0 = "xla.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = xla.add %a, %b : tensor<i64>
      xla.return %s : tensor<i64>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @all_reduce_two_blocks(%x: tensor<4xi64>) {
  // expected-error @+1 {{computation must have exactly one block, got 2}}
  %0 = "xla.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      xla.return %a : tensor<i64>
    ^bb1(%c: tensor<i64>, %d: tensor<i64>):
      xla.return %c : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  func.return
}

// -----

// As StableHLO: dim(replica_groups, 1) = split_count, so the groups may not be empty.
func.func @all_to_all_empty_groups(%x: tensor<2x4xi64>) {
  // expected-error @+1 {{split_count 2 must equal the size 0 of each replica group}}
  %0 = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<> : tensor<0x0xi64>} : (tensor<2x4xi64>) -> tensor<4x2xi64>
  func.return
}

// -----

func.func @all_reduce_narrower_computation(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand array #0 element type f32 differs from the computation's bf16, which must be the same kind, at least as wide}}
  %0 = "xla.all_reduce"(%a) ({
  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
    %s = xla.add %x, %y : tensor<bf16>
    xla.return %s : tensor<bf16>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xbf16>
  func.return
}

// -----

func.func @all_reduce_computation_of_another_kind(%a: tensor<3xi8>) {
  // expected-error @+1 {{operand array #0 element type i8 differs from the computation's f32, which must be the same kind, at least as wide}}
  %0 = "xla.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xi8>) -> tensor<3xf32>
  func.return
}

// -----

func.func @all_reduce_promoted_result(%a: tensor<3xbf16>) {
  // expected-error @+1 {{result #0 type tensor<3xbf16> must be tensor<3xf32>: operand #0's shape and the computation's element type f32}}
  %0 = "xla.all_reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xbf16>) -> tensor<3xbf16>
  func.return
}

// -----

func.func @reduce_scatter_narrower_computation(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand element type i32 differs from the computation's i8, which must be the same kind, at least as wide}}
  %0 = "xla.reduce_scatter"(%a) ({
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %s = xla.add %x, %y : tensor<i8>
    xla.return %s : tensor<i8>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<2xi8>
  func.return
}

// -----

func.func @reduce_scatter_promoted_result(%a: tensor<4xi8>) {
  // expected-error @+1 {{result element type i8 differs from the computation's element type i32}}
  %0 = "xla.reduce_scatter"(%a) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = xla.add %x, %y : tensor<i32>
    xla.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi8>) -> tensor<2xi8>
  func.return
}
