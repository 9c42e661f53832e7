// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// Single-branch case, dynamic_slice of everything and of a splat, sort (unused
// operands, negative dimension), a while that never runs, slices of iota,
// reductions of broadcasts, gather at a constant index (clamped), zero-extent
// operands, custom_call's backend config to the FFI form, and merging of
// discardable attributes into the op that survives (the removed op's win).
// CHECK-LABEL: func.func @single_branch_case
// CHECK-NEXT: %n = xla.negate %a : tensor<f32>
// CHECK-NEXT: func.return %n : tensor<f32>
func.func @single_branch_case(%i: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  %0 = "xla.case"(%i) ({
    %n = xla.negate %a : tensor<f32>
    xla.return %n : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @dynamic_slices
// CHECK-NEXT: %0 = xla.constant dense<2.500000e+00> : tensor<2xf32>
// CHECK-NEXT: func.return %x, %0 : tensor<4xi32>, tensor<2xf32>
func.func @dynamic_slices(%x: tensor<4xi32>, %i: tensor<i32>) -> (tensor<4xi32>, tensor<2xf32>) {
  %0 = xla.dynamic_slice %x, %i, sizes = [4] : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %c = xla.constant dense<2.5> : tensor<6xf32>
  %1 = xla.dynamic_slice %c, %i, sizes = [2] : (tensor<6xf32>, tensor<i32>) -> tensor<2xf32>
  func.return %0, %1 : tensor<4xi32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @sorts
// CHECK-NEXT: %0 = "xla.sort"(%a) <{dimension = 1 : i64, is_stable = false}> ({
// CHECK-NEXT: ^bb0(%l: tensor<i32>, %r: tensor<i32>):
// CHECK-NEXT: %c = xla.compare LT, %l, %r : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: xla.return %c : tensor<i1>
// CHECK-NEXT: }) : (tensor<3x5xi32>) -> tensor<3x5xi32>
// CHECK-NEXT: func.return %0 : tensor<3x5xi32>
func.func @sorts(%a: tensor<3x5xi32>, %b: tensor<3x5xi32>) -> tensor<3x5xi32> {
  %0:2 = "xla.sort"(%a, %b) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>, %l2: tensor<i32>, %r2: tensor<i32>):
    %c = xla.compare LT, %l, %r : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }) {dimension = -1 : i64, is_stable = false} : (tensor<3x5xi32>, tensor<3x5xi32>) -> (tensor<3x5xi32>, tensor<3x5xi32>)
  func.return %0#0 : tensor<3x5xi32>
}

// -----

// CHECK-LABEL: func.func @while_never_runs
// CHECK-NEXT: func.return %x : tensor<i64>
func.func @while_never_runs(%x: tensor<i64>) -> tensor<i64> {
  %0 = xla.while(%it = %x) : tensor<i64>
    cond {
    %p = xla.compare LT, %it, %it : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  } do {
    %s = xla.add %it, %it : tensor<i64>
    xla.return %s : tensor<i64>
  }
  func.return %0 : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @iota_slices_and_broadcast_reductions
// CHECK-NEXT: %0 = xla.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = xla.broadcast_in_dim %0, dims = [1] : (tensor<4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %1, %v : tensor<2x4xi32>, tensor<3xf32>
func.func @iota_slices_and_broadcast_reductions(%v: tensor<3xf32>) -> (tensor<2x4xi32>, tensor<3xf32>) {
  %i = xla.iota dim = 1 : tensor<5x8xi32>
  %0 = xla.slice %i [1:3, 0:4] : (tensor<5x8xi32>) -> tensor<2x4xi32>
  %b = xla.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %1 = xla.reduce(%b init: %ninf) applies xla.maximum across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0, %1 : tensor<2x4xi32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @gather_at_constant_index
// CHECK-NEXT: %0 = xla.slice %x [3:4, 0:2] : (tensor<4x2xui32>) -> tensor<1x2xui32>
// CHECK-NEXT: %1 = xla.reshape %0 : (tensor<1x2xui32>) -> tensor<2xui32>
// CHECK-NEXT: func.return %1 : tensor<2xui32>
func.func @gather_at_constant_index(%x: tensor<4x2xui32>) -> tensor<2xui32> {
  %k = xla.constant dense<7> : tensor<1xi32>
  %0 = "xla.gather"(%x, %k) <{dimension_numbers = #xla.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 2>}> : (tensor<4x2xui32>, tensor<1xi32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}

// -----

// A collapsed dimension of slice size 0 (StableHLO allows it): the slice would be
// empty and the result is not, so it stays a gather (a fuzzer finding: the fold
// reshaped 0 elements to 2, a ValueError).
// CHECK-LABEL: func.func @gather_collapsing_a_size_zero_slice
// CHECK-NEXT: %k = xla.constant dense<7> : tensor<1xi32>
// CHECK-NEXT: %0 = "xla.gather"(%x, %k)
// CHECK-SAME: slice_sizes = array<i64: 0, 2>
func.func @gather_collapsing_a_size_zero_slice(%x: tensor<4x2xui32>) -> tensor<2xui32> {
  %k = xla.constant dense<7> : tensor<1xi32>
  %0 = "xla.gather"(%x, %k) <{dimension_numbers = #xla.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 0, 2>}> : (tensor<4x2xui32>, tensor<1xi32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}

// -----

// CHECK-LABEL: func.func @zero_extent_operands
// CHECK-NEXT: %0 = xla.constant dense<> : tensor<1x0xi32>
// CHECK-NEXT: %1 = "xla.scatter"(%a, %0, %u) <{scatter_dimension_numbers = #xla.scatter<index_vector_dim = 1>, indices_are_sorted = true, unique_indices = true}> ({
// CHECK-NEXT: ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT: %s = xla.add %p, %q : tensor<f32>
// CHECK-NEXT: xla.return %s : tensor<f32>
// CHECK-NEXT: }) : (tensor<f32>, tensor<1x0xi32>, tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: func.return %1 : tensor<f32>
func.func @zero_extent_operands(%a: tensor<f32>, %i: tensor<1x0xi32>, %u: tensor<1xf32>) -> tensor<f32> {
  %0 = "xla.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #xla.scatter<index_vector_dim = 1>, indices_are_sorted = true, unique_indices = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = xla.add %p, %q : tensor<f32>
    xla.return %s : tensor<f32>
  }) : (tensor<f32>, tensor<1x0xi32>, tensor<1xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @custom_call_to_ffi
// CHECK-NEXT: %0 = xla.custom_call @foo(%x) {api_version = 4 : i32, backend_config = {bar = 1 : i32}} : (tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT: func.return %0 : tensor<1xf32>
func.func @custom_call_to_ffi(%x: tensor<1xf32>) -> tensor<1xf32> {
  %0 = xla.custom_call @foo(%x) {api_version = 1 : i32, mhlo.backend_config = {bar = 1 : i32}} : (tensor<1xf32>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// CHECK-LABEL: func.func @merged_attributes
// CHECK-NEXT: %0 = xla.broadcast_in_dim %x, dims = [1] {mhlo.sharding = "outer", mhlo.frontend_attributes = {a = "1", c = "3"}} : (tensor<111xf64>) -> tensor<1x111x112xf64>
// CHECK-NEXT: func.return %0 : tensor<1x111x112xf64>
func.func @merged_attributes(%x: tensor<111xf64>) -> tensor<1x111x112xf64> {
  %b = xla.broadcast_in_dim %x, dims = [0] {mhlo.sharding = "inner"} : (tensor<111xf64>) -> tensor<111x112xf64>
  %0 = xla.reshape %b {mhlo.sharding = "outer", mhlo.frontend_attributes = {a = "1"}} : (tensor<111x112xf64>) -> tensor<1x111x112xf64>
  %1 = xla.negate %0 {mhlo.frontend_attributes = {b = "2"}} : tensor<1x111x112xf64>
  %2 = xla.negate %1 {mhlo.frontend_attributes = {c = "3"}} : tensor<1x111x112xf64>
  func.return %2 : tensor<1x111x112xf64>
}

