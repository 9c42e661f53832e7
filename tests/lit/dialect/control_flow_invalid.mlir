// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @while_cond_arg_count(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{cond must take 1 arguments, takes 2}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i64>):
    "xla.return"(%x) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @while_cond_arg_type(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{cond argument #0 has type tensor<i32>, expected tensor<i64>}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i64>):
    "xla.return"(%x) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @while_cond_not_pred(%a: tensor<i64>) {
  // expected-error @+1 {{cond must return a single tensor<i1>, returns (tensor<i64>)}}
  %r = xla.while(%x = %a) : tensor<i64>
  cond {
    xla.return %x : tensor<i64>
  } do {
    xla.return %x : tensor<i64>
  }
  func.return
}

// -----

func.func @while_cond_not_scalar(%a: tensor<i64>, %p: tensor<2xi1>) {
  // expected-error @+1 {{cond must return a single tensor<i1>, returns (tensor<2xi1>)}}
  %r = xla.while(%x = %a) : tensor<i64>
  cond {
    xla.return %p : tensor<2xi1>
  } do {
    xla.return %x : tensor<i64>
  }
  func.return
}

// -----

func.func @while_cond_two_results(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{cond must return a single tensor<i1>, returns (tensor<i1>, tensor<i1>)}}
  %r = xla.while(%x = %a) : tensor<i64>
  cond {
    xla.return %p, %p : tensor<i1>, tensor<i1>
  } do {
    xla.return %x : tensor<i64>
  }
  func.return
}

// -----

func.func @while_cond_no_return(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{cond must end with xla.return, ends with test.termop}}
  %r = xla.while(%x = %a) : tensor<i64>
  cond {
    "test.termop"() : () -> ()
  } do {
    xla.return %x : tensor<i64>
  }
  func.return
}

// -----

func.func @while_cond_two_blocks(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{cond must have exactly one block, has 2}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  ^bb1:
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i64>):
    "xla.return"(%x) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @while_body_arg_count(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{body must take 1 arguments, takes 0}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
    "xla.return"(%a) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @while_body_arg_type(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{body argument #0 has type tensor<f32>, expected tensor<i64>}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<f32>):
    "xla.return"(%a) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @while_body_result_count(%a: tensor<i64>, %b: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{body must return 2 values, returns 1}}
  %r:2 = xla.while(%x = %a, %y = %b) : tensor<i64>, tensor<f32>
  cond {
    xla.return %p : tensor<i1>
  } do {
    xla.return %x : tensor<i64>
  }
  func.return
}

// -----

func.func @while_body_result_type(%a: tensor<i64>, %b: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{body result #1 has type tensor<i64>, expected tensor<f32>}}
  %r:2 = xla.while(%x = %a, %y = %b) : tensor<i64>, tensor<f32>
  cond {
    xla.return %p : tensor<i1>
  } do {
    xla.return %x, %x : tensor<i64>, tensor<i64>
  }
  func.return
}

// -----

func.func @while_result_type(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{result type tensor<i32> does not match the inferred tensor<i64>}}
  %r = "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i64>):
    "xla.return"(%x) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i32>
  func.return
}

// -----

func.func @while_result_count(%a: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{expected 1 results but the op declares 0}}
  "xla.while"(%a) ({
  ^bb0(%x: tensor<i64>):
    "xla.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<i64>):
    "xla.return"(%x) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> ()
  func.return
}

// -----

func.func @if_pred_type(%p: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{pred must be a tensor<i1> scalar, got tensor<i32>}}
  %r = "xla.if"(%p) ({
    xla.return %a : tensor<f32>
  }, {
    xla.return %a : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return
}

// -----

func.func @if_pred_rank(%p: tensor<1xi1>, %a: tensor<f32>) {
  // expected-error @+1 {{pred must be a tensor<i1> scalar, got tensor<1xi1>}}
  %r = "xla.if"(%p) ({
    xla.return %a : tensor<f32>
  }, {
    xla.return %a : tensor<f32>
  }) : (tensor<1xi1>) -> tensor<f32>
  func.return
}

// -----

func.func @if_true_branch_args(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{true_branch must take no arguments, takes 1}}
  %r = "xla.if"(%p) ({
  ^bb0(%x: tensor<f32>):
    xla.return %x : tensor<f32>
  }, {
    xla.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @if_true_branch_type(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f64>) {
  // expected-error @+1 {{true_branch result #0 has type tensor<f64>, expected tensor<f32>}}
  %r = "xla.if"(%p) ({
    xla.return %b : tensor<f64>
  }, {
    xla.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @if_false_branch_count(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{false_branch must return 1 values, returns 2}}
  %r = "xla.if"(%p) ({
    xla.return %a : tensor<f32>
  }, {
    xla.return %a, %a : tensor<f32>, tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @if_false_branch_terminator(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{false_branch must end with xla.return, ends with test.termop}}
  %r = "xla.if"(%p) ({
    xla.return %a : tensor<f32>
  }, {
    "test.termop"() : () -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @if_branches_differ(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{false_branch result #0 has type tensor<2xf32>, expected tensor<f32>}}
  %r = "xla.if"(%p) ({
    xla.return %a : tensor<f32>
  }, {
    xla.return %b : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @case_index_type(%i: tensor<i64>, %a: tensor<f32>) {
  // expected-error @+1 {{index must be a tensor<i32> scalar, got tensor<i64>}}
  %r = "xla.case"(%i) ({
    xla.return %a : tensor<f32>
  }) : (tensor<i64>) -> tensor<f32>
  func.return
}

// -----

func.func @case_index_rank(%i: tensor<2xi32>, %a: tensor<f32>) {
  // expected-error @+1 {{index must be a tensor<i32> scalar, got tensor<2xi32>}}
  %r = "xla.case"(%i) ({
    xla.return %a : tensor<f32>
  }) : (tensor<2xi32>) -> tensor<f32>
  func.return
}

// -----

func.func @case_no_branches(%i: tensor<i32>) {
  // expected-error @+1 {{must have at least one branch}}
  "xla.case"(%i) : (tensor<i32>) -> ()
  func.return
}

// -----

func.func @case_branch_args(%i: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{branch #1 must take no arguments, takes 1}}
  %r = "xla.case"(%i) ({
    xla.return %a : tensor<f32>
  }, {
  ^bb0(%x: tensor<f32>):
    xla.return %x : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return
}

// -----

func.func @case_branch_type(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{branch #2 result #0 has type tensor<i32>, expected tensor<f32>}}
  %r = "xla.case"(%i) ({
    xla.return %a : tensor<f32>
  }, {
    xla.return %a : tensor<f32>
  }, {
    xla.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return
}

// -----

func.func @case_branch_count(%i: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{branch #0 must return 2 values, returns 1}}
  %r:2 = "xla.case"(%i) ({
    xla.return %a : tensor<f32>
  }) : (tensor<i32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func @case_branch_terminator(%i: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+1 {{branch #0 must end with xla.return, ends with test.termop}}
  %r = "xla.case"(%i) ({
    "test.termop"() : () -> ()
  }) : (tensor<i32>) -> tensor<f32>
  func.return
}

// -----

func.func @call_undefined(%a: tensor<f32>) {
  // expected-error @+1 {{callee @missing is not defined}}
  %r = xla.call @missing(%a) : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

builtin.module @inner {
}

func.func @call_not_func(%a: tensor<f32>) {
  // expected-error @+1 {{callee @inner is not a func.func}}
  %r = xla.call @inner(%a) : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @call_nested(%a: tensor<f32>) {
  // expected-error @+1 {{must be a flat symbol reference}}
  %r = "xla.call"(%a) <{callee = @callee::@x}> : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @call_arg_count(%a: tensor<f32>) {
  // expected-error @+1 {{callee @callee takes 1 arguments, the call passes 2}}
  %r = xla.call @callee(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @call_arg_type(%a: tensor<f64>) {
  // expected-error @+1 {{argument #0 has type tensor<f64> but the callee's parameter has type tensor<f32>}}
  %r = xla.call @callee(%a) : (tensor<f64>) -> tensor<f32>
  func.return
}

// -----

func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @call_result_type(%a: tensor<f32>) {
  // expected-error @+1 {{result type tensor<i32> does not match the inferred tensor<f32>}}
  %r = xla.call @callee(%a) : (tensor<f32>) -> tensor<i32>
  func.return
}

// -----

func.func @callee(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @call_result_count(%a: tensor<f32>) {
  // expected-error @+1 {{expected 1 results but the op declares 2}}
  %r:2 = xla.call @callee(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func @barrier_result_type(%a: tensor<f32>) {
  // expected-error @+1 {{result type tensor<f64> does not match the inferred tensor<f32>}}
  %r = "xla.optimization_barrier"(%a) : (tensor<f32>) -> tensor<f64>
  func.return
}

// -----

func.func @barrier_result_count(%a: tensor<f32>) {
  // expected-error @+1 {{expected 1 results but the op declares 2}}
  %r:2 = "xla.optimization_barrier"(%a) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  func.return
}

// -----

func.func private @impl(%x: tensor<i64>) -> tensor<i64>
func.func @composite_bad_arguments(%x: tensor<i32>) -> tensor<i64> {
  // expected-error @+1 {{argument #0 has type tensor<i32> but the decomposition's parameter has type tensor<i64>}}
  %0 = xla.composite "my.op" %x {decomposition = @impl} : (tensor<i32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func @composite_missing(%x: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{decomposition @nowhere is not defined}}
  %0 = xla.composite "my.op" %x {decomposition = @nowhere} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

func.func private @impl(%x: tensor<i64>) -> tensor<i64>
func.func @composite_without_namespace(%x: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{name "add_n" must be a namespaced op name (namespace.name)}}
  %0 = xla.composite "add_n" %x {decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}
