// RUN: xla-opt %s --split-input-file -p xla-simplify | FileCheck %s

// Control flow, tuples, reductions and zero-extent values
// (passes/canonicalization/control_flow.py, reduction.py, zero_extent.py).
// CHECK-LABEL: func.func @case_and_if
// CHECK-NEXT: %s = xla.add %a, %b : tensor<i32>
// CHECK-NEXT: func.return %s, %b, %b : tensor<i32>, tensor<i32>, tensor<i32>
func.func @case_and_if(%a: tensor<i32>, %b: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %i = xla.constant dense<7> : tensor<i32>
  %0 = "xla.case"(%i) ({
    xla.return %a : tensor<i32>
  }, {
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %t = xla.constant dense<false> : tensor<i1>
  %1 = "xla.if"(%t) ({
    xla.return %a : tensor<i32>
  }, {
    xla.return %b : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  %one = xla.constant dense<0> : tensor<i32>
  %2 = "xla.case"(%one) ({
    xla.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0, %1, %2 : tensor<i32>, tensor<i32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @whiles
// CHECK-NEXT: %n = xla.constant dense<10> : tensor<i64>
// CHECK-NEXT: %k = xla.constant dense<1> : tensor<i64>
// CHECK-NEXT: %0 = xla.while(%i = %x) : tensor<i64>
// CHECK-NEXT: cond {
// CHECK-NEXT: %p = xla.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT: xla.return %p : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %s = xla.add %i, %k : tensor<i64>
// CHECK-NEXT: xla.return %s : tensor<i64>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %0, %v : tensor<i64>, tensor<4xf32>
func.func @whiles(%x: tensor<i64>, %v: tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>) {
  %0 = xla.while(%it = %x) : tensor<i64>
    cond {
    %p = xla.compare LT, %it, %it : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  } do {
    xla.return %it : tensor<i64>
  }
  %n = xla.constant dense<10> : tensor<i64>
  %k = xla.constant dense<1> : tensor<i64>
  %1:2 = xla.while(%i = %x, %w = %v) : tensor<i64>, tensor<4xf32>
    cond {
    %p = xla.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  } do {
    %s = xla.add %i, %k : tensor<i64>
    xla.return %s, %w : tensor<i64>, tensor<4xf32>
  }
  func.return %1#0, %1#1 : tensor<i64>, tensor<4xf32>
}

// -----

// A loop-invariant value of no elements leaves the `while` as an empty constant
// (StableHLO's while_zero_extent), not as the operand it was.
// CHECK-LABEL: func.func @while_zero_extent
// CHECK-NEXT: %one = xla.constant dense<1> : tensor<i32>
// CHECK-NEXT: %n = xla.constant dense<75> : tensor<i32>
// CHECK-NEXT: %[[E:.*]] = xla.constant dense<> : tensor<75x0xf32>
// CHECK-NEXT: %[[R:.*]] = xla.while(%i = %x) : tensor<i32>
// CHECK:      func.return %[[R]], %[[E]] : tensor<i32>, tensor<75x0xf32>
func.func @while_zero_extent(%x: tensor<i32>, %e: tensor<75x0xf32>) -> (tensor<i32>, tensor<75x0xf32>) {
  %one = xla.constant dense<1> : tensor<i32>
  %n = xla.constant dense<75> : tensor<i32>
  %r:2 = xla.while(%i = %x, %w = %e) : tensor<i32>, tensor<75x0xf32>
    cond {
    %p = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  } do {
    %s = xla.add %i, %one : tensor<i32>
    xla.return %s, %w : tensor<i32>, tensor<75x0xf32>
  }
  func.return %r#0, %r#1 : tensor<i32>, tensor<75x0xf32>
}

// -----

// A `while` whose condition is constantly false: a pure one is its operands; one
// whose body has an outfeed stays (as StableHLO keeps it), its invariant value gone.
// CHECK-LABEL: func.func @never_runs
// CHECK-NEXT: %s = xla.while(%u = %t) : !xla.token
// CHECK: "xla.outfeed"(%x, %u)
// CHECK: func.return %x, %s : tensor<f32>, !xla.token
func.func @never_runs(%x: tensor<f32>, %t: !xla.token) -> (tensor<f32>, !xla.token) {
  %r = xla.while(%a = %x) : tensor<f32>
  cond {
    %f = xla.constant dense<false> : tensor<i1>
    xla.return %f : tensor<i1>
  } do {
    %n = xla.negate %a : tensor<f32>
    xla.return %n : tensor<f32>
  }
  %s:2 = xla.while(%a = %x, %u = %t) : tensor<f32>, !xla.token
  cond {
    %f = xla.constant dense<false> : tensor<i1>
    xla.return %f : tensor<i1>
  } do {
    %v = "xla.outfeed"(%a, %u) : (tensor<f32>, !xla.token) -> !xla.token
    xla.return %a, %v : tensor<f32>, !xla.token
  }
  func.return %r, %s#1 : tensor<f32>, !xla.token
}

// -----

// CHECK-LABEL: func.func @tuples
// CHECK-NEXT: func.return %t, %b : tuple<tensor<i32>, tensor<f32>>, tensor<f32>
func.func @tuples(%t: tuple<tensor<i32>, tensor<f32>>, %a: tensor<i32>, %b: tensor<f32>) -> (tuple<tensor<i32>, tensor<f32>>, tensor<f32>) {
  %0 = xla.get_tuple_element %t[0] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<i32>
  %1 = xla.get_tuple_element %t[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  %2 = xla.tuple %0, %1 : tuple<tensor<i32>, tensor<f32>>
  %u = xla.tuple %a, %b : tuple<tensor<i32>, tensor<f32>>
  %3 = xla.get_tuple_element %u[1] : (tuple<tensor<i32>, tensor<f32>>) -> tensor<f32>
  func.return %2, %3 : tuple<tensor<i32>, tensor<f32>>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %c = xla.constant dense<0> : tensor<i64>
// CHECK-NEXT: %0 = xla.reduce(%y init: %c) applies xla.maximum across dimensions = [0] : (tensor<8xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %1 = xla.constant dense<5> : tensor<3xi32>
// CHECK-NEXT: %i0 = xla.constant dense<0> : tensor<i32>
// CHECK-NEXT: %2 = xla.constant dense<10> : tensor<i32>
// CHECK-NEXT: %3 = xla.reduce(%m init: %i0) applies xla.add across dimensions = [1, 2] : (tensor<4x5x6xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT: func.return %x, %0, %1, %2, %3 : tensor<8xi64>, tensor<i64>, tensor<3xi32>, tensor<i32>, tensor<4xi32>
func.func @reductions(%x: tensor<8xi64>, %y: tensor<8xi64>, %e: tensor<0x3xi32>, %m: tensor<4x5x6xi32>) -> (tensor<8xi64>, tensor<i64>, tensor<3xi32>, tensor<i32>, tensor<4xi32>) {
  %c = xla.constant dense<0> : tensor<i64>
  %0 = xla.reduce(%x init: %c) applies xla.add across dimensions = [] : (tensor<8xi64>, tensor<i64>) -> tensor<8xi64>
  %1:2 = xla.reduce(%x init: %c), (%y init: %c) across dimensions = [0] : (tensor<8xi64>, tensor<8xi64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
    reducer(%a0: tensor<i64>, %b0: tensor<i64>) (%a1: tensor<i64>, %b1: tensor<i64>) {
    %s = xla.add %a0, %b0 : tensor<i64>
    %t = xla.maximum %a1, %b1 : tensor<i64>
    xla.return %s, %t : tensor<i64>, tensor<i64>
  }
  %z = xla.constant dense<5> : tensor<i32>
  %2 = xla.reduce(%e init: %z) applies xla.add across dimensions = [0] : (tensor<0x3xi32>, tensor<i32>) -> tensor<3xi32>
  %k = xla.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i0 = xla.constant dense<0> : tensor<i32>
  %3 = xla.reduce(%k init: %i0) applies xla.add across dimensions = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<i32>
  %r = xla.reduce(%m init: %i0) applies xla.add across dimensions = [1] : (tensor<4x5x6xi32>, tensor<i32>) -> tensor<4x6xi32>
  %4 = xla.reduce(%r init: %i0) applies xla.add across dimensions = [1] : (tensor<4x6xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0, %1#1, %2, %3, %4 : tensor<8xi64>, tensor<i64>, tensor<3xi32>, tensor<i32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @zero_extent
// CHECK-NEXT: %0 = xla.constant dense<> : tensor<5x0xi32>
// CHECK-NEXT: func.return %0 : tensor<5x0xi32>
func.func @zero_extent(%a: tensor<5x0xi32>, %b: tensor<5x0xi32>) -> tensor<5x0xi32> {
  %0 = xla.add %a, %b : tensor<5x0xi32>
  func.return %0 : tensor<5x0xi32>
}

