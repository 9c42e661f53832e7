// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @while_loop
func.func @while_loop(%init_i: tensor<i64>, %init_sum: tensor<i64>, %one: tensor<i64>, %ten: tensor<i64>) -> tensor<i64> {
  // CHECK:      %{{.*}}, %{{.*}} = xla.while(%[[I:.*]] = %init_i, %[[S:.*]] = %init_sum) : tensor<i64>, tensor<i64>
  // CHECK-NEXT: cond {
  // CHECK-NEXT:   %[[C:.*]] = xla.compare LT, %[[I]], %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // CHECK-NEXT:   xla.return %[[C]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   %[[NS:.*]] = xla.add %[[S]], %one : tensor<i64>
  // CHECK-NEXT:   %[[NI:.*]] = xla.add %[[I]], %one : tensor<i64>
  // CHECK-NEXT:   xla.return %[[NI]], %[[NS]] : tensor<i64>, tensor<i64>
  // CHECK-NEXT: }
  %r0, %r1 = xla.while(%arg0 = %init_i, %arg1 = %init_sum) : tensor<i64>, tensor<i64>
  cond {
    %cond = xla.compare LT, %arg0, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %cond : tensor<i1>
  } do {
    %new_sum = xla.add %arg1, %one : tensor<i64>
    %new_i = xla.add %arg0, %one : tensor<i64>
    xla.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }
  func.return %r1 : tensor<i64>
}

// Generic form as StableHLO prints it.
// CHECK-LABEL: func.func @while_generic
func.func @while_generic(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  // CHECK:      %{{.*}} = xla.while(%[[A:.*]] = %x) : tensor<4xf32> attributes {foo = 1 : i64}
  // CHECK-NEXT: cond {
  // CHECK-NEXT:   xla.return %p : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   xla.return %[[A]] : tensor<4xf32>
  // CHECK-NEXT: }
  %r = "xla.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<4xf32>):
    "xla.return"(%b) : (tensor<4xf32>) -> ()
  }) {foo = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// A loop shadowing the function's argument names.
// CHECK-LABEL: func.func @while_shadow
func.func @while_shadow(%arg0: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  // CHECK: xla.while(%[[A:.*]] = %arg0) : tensor<i32>
  // CHECK: xla.return %[[A]] : tensor<i32>
  %r = xla.while(%it = %arg0) : tensor<i32>
  cond {
    xla.return %p : tensor<i1>
  } do {
    xla.return %it : tensor<i32>
  }
  func.return %r : tensor<i32>
}

// CHECK-LABEL: func.func @if_op
func.func @if_op(%pred: tensor<i1>, %a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
  // CHECK:      %{{.*}}, %{{.*}} = "xla.if"(%pred) ({
  // CHECK-NEXT:   xla.return %a, %a : tensor<2xi64>, tensor<2xi64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   xla.return %b, %b : tensor<2xi64>, tensor<2xi64>
  // CHECK-NEXT: }) : (tensor<i1>) -> (tensor<2xi64>, tensor<2xi64>)
  %r0, %r1 = "xla.if"(%pred) ({
    xla.return %a, %a : tensor<2xi64>, tensor<2xi64>
  }, {
    xla.return %b, %b : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i1>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return %r0 : tensor<2xi64>
}

// CHECK-LABEL: func.func @if_no_results
func.func @if_no_results(%pred: tensor<i1>) {
  // CHECK:      "xla.if"(%pred) ({
  // CHECK-NEXT:   xla.return
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   xla.return
  // CHECK-NEXT: }) : (tensor<i1>) -> ()
  "xla.if"(%pred) ({
    xla.return
  }, {
    xla.return
  }) : (tensor<i1>) -> ()
  func.return
}

// CHECK-LABEL: func.func @case_op
func.func @case_op(%index: tensor<i32>, %a: tensor<2xi64>, %b: tensor<2xi64>) -> tensor<2xi64> {
  // CHECK:      %{{.*}} = "xla.case"(%index) ({
  // CHECK-NEXT:   xla.return %a : tensor<2xi64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   xla.return %b : tensor<2xi64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   %[[S:.*]] = xla.add %a, %b : tensor<2xi64>
  // CHECK-NEXT:   xla.return %[[S]] : tensor<2xi64>
  // CHECK-NEXT: }) : (tensor<i32>) -> tensor<2xi64>
  %r = "xla.case"(%index) ({
    xla.return %a : tensor<2xi64>
  }, {
    xla.return %b : tensor<2xi64>
  }, {
    %s = xla.add %a, %b : tensor<2xi64>
    xla.return %s : tensor<2xi64>
  }) : (tensor<i32>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}

// CHECK-LABEL: func.func @case_single_branch
func.func @case_single_branch(%index: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  // CHECK:      %{{.*}} = "xla.case"(%index) ({
  // CHECK-NEXT:   xla.return %a : tensor<f32>
  // CHECK-NEXT: }) : (tensor<i32>) -> tensor<f32>
  %r = "xla.case"(%index) ({
    xla.return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

func.func @add_2(%arg0: tensor<i64>, %arg1: tensor<i64>) -> tensor<i64> {
  %0 = xla.add %arg0, %arg1 : tensor<i64>
  func.return %0 : tensor<i64>
}

func.func @pair(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  func.return %arg0, %arg0 : tensor<f32>, tensor<f32>
}

func.func @nothing() {
  func.return
}

// CHECK-LABEL: func.func @call_op
func.func @call_op(%a: tensor<i64>, %f: tensor<f32>) -> tensor<i64> {
  // CHECK:      %{{.*}} = xla.call @add_2(%a, %a) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK-NEXT: %{{.*}}:2 = xla.call @pair(%f) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  // CHECK-NEXT: xla.call @nothing() : () -> ()
  // CHECK-NEXT: xla.call @nothing() {note = "x"} : () -> ()
  %r = xla.call @add_2(%a, %a) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %p:2 = xla.call @pair(%f) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  xla.call @nothing() : () -> ()
  "xla.call"() {callee = @nothing, note = "x"} : () -> ()
  func.return %r : tensor<i64>
}

// CHECK-LABEL: func.func @call_generic
func.func @call_generic(%a: tensor<i64>) -> tensor<i64> {
  // CHECK: %{{.*}} = xla.call @add_2(%a, %a) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %r = "xla.call"(%a, %a) <{callee = @add_2}> : (tensor<i64>, tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// CHECK-LABEL: func.func @barrier
func.func @barrier(%a: tensor<f32>, %b: tensor<2xi32>, %t: !xla.token) -> tensor<f32> {
  // CHECK:      %{{.*}}, %{{.*}} = xla.optimization_barrier %a, %b : tensor<f32>, tensor<2xi32>
  // CHECK-NEXT: %{{.*}} = xla.optimization_barrier %t : !xla.token
  // CHECK-NEXT: %{{.*}} = xla.optimization_barrier %a : tensor<f32>
  %r0, %r1 = xla.optimization_barrier %a, %b : tensor<f32>, tensor<2xi32>
  %t1 = xla.optimization_barrier %t : !xla.token
  %g = "xla.optimization_barrier"(%a) : (tensor<f32>) -> tensor<f32>
  func.return %r0 : tensor<f32>
}

// CHECK-LABEL: func.func @return_attrs
func.func @return_attrs(%pred: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  // CHECK: xla.return %a {tag = 1 : i64} : tensor<f32>
  %r = "xla.if"(%pred) ({
    "xla.return"(%a) {tag = 1 : i64} : (tensor<f32>) -> ()
  }, {
    xla.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// StableHLO's composite: a named op given by its decomposition.
func.func private @add_n_impl(%x: tensor<i64>) -> tensor<i64>
// CHECK-LABEL: func.func @composite
func.func @composite(%x: tensor<i64>) -> tensor<i64> {
  // CHECK: xla.composite "my.add_n" %{{.*}} {composite_attributes = {n = 2 : i64}, decomposition = @add_n_impl, version = 1 : i32} : (tensor<i64>) -> tensor<i64>
  %0 = xla.composite "my.add_n" %x {composite_attributes = {n = 2 : i64}, decomposition = @add_n_impl, version = 1 : i32} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
