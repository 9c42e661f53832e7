// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @unary
// CHECK:      %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %1 = chlo.erf_inv %h : tensor<2x3xbf16> -> tensor<2x3xbf16>
// CHECK-NEXT: %2 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %3 = chlo.acosh %d : tensor<f64> -> tensor<f64>
// CHECK-NEXT: %4 = chlo.tan %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
// CHECK-NEXT: %5 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
func.func @unary(%x: tensor<4xf32>, %h: tensor<2x3xbf16>, %d: tensor<f64>, %c: tensor<2xcomplex<f32>>) {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erf_inv %h : tensor<2x3xbf16> -> tensor<2x3xbf16>
  %2 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.acosh %d : tensor<f64> -> tensor<f64>
  %4 = chlo.tan %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %5 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  func.return
}

// CHECK-LABEL: func.func @binary
// CHECK:      %0 = chlo.next_after %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT: %1 = chlo.zeta %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT: %2 = chlo.polygamma %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT: %3 = chlo.mulhi %i, %i : tensor<3xui16>, tensor<3xui16> -> tensor<3xui16>
// CHECK-NEXT: %4 = chlo.mulhi %j, %j : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
func.func @binary(%a: tensor<3xf32>, %b: tensor<3xf32>, %i: tensor<3xui16>, %j: tensor<2xi64>) {
  %0 = chlo.next_after %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %1 = chlo.zeta %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %2 = chlo.polygamma %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %3 = chlo.mulhi %i, %i : tensor<3xui16>, tensor<3xui16> -> tensor<3xui16>
  %4 = "chlo.mulhi"(%j, %j) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  func.return
}

// CHECK-LABEL: func.func @broadcasting
// CHECK:      %0 = chlo.broadcast_add %a, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_multiply %r, %m {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_compare %a, %m {comparison_direction = #chlo<comparison_direction GE>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %3 = chlo.broadcast_and %p, %p : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
func.func @broadcasting(%a: tensor<3xf32>, %r: tensor<2xf32>, %m: tensor<2x3xf32>, %p: tensor<2xi1>) {
  %0 = chlo.broadcast_add %a, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_multiply %r, %m {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_compare %a, %m {comparison_direction = #chlo<comparison_direction GE>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = chlo.broadcast_and %p, %p : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return
}

// CHECK-LABEL: func.func @top_k
// CHECK:      %values, %indices = chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
// CHECK-NEXT: %v2, %i2 = chlo.top_k(%x, k = 5, is_stable = false) : tensor<3x5xf32> -> (tensor<3x5xf32>, tensor<3x5xi32>)
func.func @top_k(%x: tensor<3x5xf32>) {
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  %v2, %i2 = chlo.top_k(%x, k = 5, is_stable = false) : tensor<3x5xf32> -> (tensor<3x5xf32>, tensor<3x5xi32>)
  func.return
}

// CHECK-LABEL: func.func @scan
// CHECK:      %0:2 = chlo.scan(%x) inits(%init) dimension=1 attributes {is_reverse = true} {
// CHECK-NEXT: ^bb0(%a: tensor<2xi32>, %c: tensor<2xi32>):
// CHECK-NEXT:   %1 = xla.add %a, %c : tensor<2xi32>
// CHECK-NEXT:   xla.return %1, %1 : tensor<2xi32>, tensor<2xi32>
// CHECK-NEXT: } : (tensor<2x4xi32>, tensor<2xi32>) -> (tensor<2x4xi32>, tensor<2xi32>)
func.func @scan(%x: tensor<2x4xi32>, %init: tensor<2xi32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi32>, %c: tensor<2xi32>):
    %1 = stablehlo.add %a, %c : tensor<2xi32>
    stablehlo.return %1, %1 : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x4xi32>, tensor<2xi32>) -> (tensor<2x4xi32>, tensor<2xi32>)
  func.return
}

// CHECK-LABEL: func.func @ragged_dot
// CHECK: "chlo.ragged_dot"(%l, %r, %g) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]}> : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
func.func @ragged_dot(%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi64>) {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [],
      rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]
    >,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return
}
