// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @reduce_shapes_differ(%x: tensor<2x3xi64>, %y: tensor<3x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{input #1 shape [3, 2] differs from input #0 shape [2, 3]}}
  %r:2 = "xla.reduce"(%x, %y, %c, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %e: tensor<i64>, %f: tensor<i64>):
    xla.return %a, %b : tensor<i64>, tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<3x2xi64>, tensor<i64>, tensor<i64>) -> (tensor<2xi64>, tensor<3xi64>)
  func.return
}

// -----

func.func @reduce_no_inputs() {
  // expected-error @+1 {{must have at least one input}}
  "xla.reduce"() ({
    xla.return
  }) {dimensions = array<i64>} : () -> ()
  func.return
}

// -----

func.func @reduce_dim_range(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{dimensions [2] has 2, out of range [0, 2)}}
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [2] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_dim_negative(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{dimensions [-1] has -1, out of range [0, 2)}}
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [-1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_dim_repeated(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{dimensions [1, 1] has repeated dimensions}}
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [1, 1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_init_not_scalar(%x: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{init value must be a 0-d tensor, got tensor<1xi64>}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<1xi64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_variadic_init_type(%x: tensor<2x3xi64>, %y: tensor<2x3xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer element type f32 cannot hold the init value #1 element type i64 (it must be the same kind, at least as wide)}}
  %r:2 = "xla.reduce"(%x, %y, %c, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<f32>, %e: tensor<i64>, %f: tensor<f32>):
    xla.return %a, %b : tensor<i64>, tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> (tensor<2xi64>, tensor<2xf32>)
  func.return
}

// -----

func.func @reduce_reducer_arg_count(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer must take 2 arguments, takes 3}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %e: tensor<i64>):
    xla.return %a : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_reducer_arg_type(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer argument #1 has type tensor<i32>, expected tensor<i64>}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i32>):
    xla.return %a : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_reducer_arg_not_scalar(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer argument #0 has type tensor<1xi64>, expected tensor<i64>}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<1xi64>, %b: tensor<i64>):
    xla.return %b : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_reducer_result_count(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer must return 1 values, returns 2}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return %a, %b : tensor<i64>, tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_reducer_result_type(%x: tensor<2x3xi64>, %c: tensor<i64>, %d: tensor<f32>) {
  // expected-error @+1 {{reducer result #0 has type tensor<f32>, expected tensor<i64>}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return %d : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_reducer_terminator(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer must end with xla.return, ends with test.termop}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    "test.termop"() : () -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
  func.return
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{result type tensor<3xi64> does not match the inferred tensor<2xi64>}}
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<3xi64>
  func.return
}

// -----

func.func @reduce_result_type(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{result type tensor<2xi32> does not match the inferred tensor<2xi64>}}
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi32>
  func.return
}

// -----

func.func @reduce_result_count(%x: tensor<2x3xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{expected 1 results but the op declares 2}}
  %r:2 = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return
}

// -----

func.func @rw_window_size(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dimensions [2] must have one entry per dimension (rank 2)}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_window_zero(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dimensions [0, 2] has 0; entries must be >= 1}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 0, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_strides_size(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_strides [2, 2, 2] must have one entry per dimension (rank 2)}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_strides_zero(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_strides [2, 0] has 0; entries must be >= 1}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 0>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_base_dilation(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{base_dilations [1, 0] has 0; entries must be >= 1}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 1, 0>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_base_dilation_size(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{base_dilations [1] must have one entry per dimension (rank 2)}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_window_dilation(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dilations [-1, 1] has -1; entries must be >= 1}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_dilations = array<i64: -1, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_window_dilation_size(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dilations [1, 1, 1] must have one entry per dimension (rank 2)}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_dilations = array<i64: 1, 1, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_padding_shape(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{padding must have shape [2, 2] (a (low, high) pair per dimension), got [2]}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, padding = dense<[0, 0]> : tensor<2xi64>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_padding_rows(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{padding must have shape [2, 2] (a (low, high) pair per dimension), got [1, 2]}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_result(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{result type tensor<2x2xi64> does not match the inferred tensor<3x3xi64>}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_result_strided(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{result type tensor<3x3xi64> does not match the inferred tensor<2x2xi64>}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<3x3xi64>
  func.return
}

// -----

func.func @rw_init_not_scalar(%x: tensor<4x4xi64>, %c: tensor<2xi64>) {
  // expected-error @+1 {{init value must be a 0-d tensor, got tensor<2xi64>}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_init_type(%x: tensor<4x4xi64>, %c: tensor<f32>) {
  // expected-error @+1 {{reducer element type i64 cannot hold the init value element type f32 (it must be the same kind, at least as wide)}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = xla.add %a, %b : tensor<i64>
    xla.return %s : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<f32>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_shapes(%x: tensor<4x4xi64>, %y: tensor<4x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{input #1 shape [4, 2] differs from input #0 shape [4, 4]}}
  %r:2 = "xla.reduce_window"(%x, %y, %c, %c) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %e: tensor<i64>, %f: tensor<i64>):
    xla.return %a, %b : tensor<i64>, tensor<i64>
  }) : (tensor<4x4xi64>, tensor<4x2xi64>, tensor<i64>, tensor<i64>) -> (tensor<3x3xi64>, tensor<3x1xi64>)
  func.return
}

// -----

func.func @rw_reducer(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer argument #1 has type tensor<i64>, expected tensor<f32>}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i64>):
    xla.return %b : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_reducer_results(%x: tensor<4x4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer must return 1 values, returns 0}}
  %r = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return
  }) : (tensor<4x4xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @rw_no_inputs() {
  // expected-error @+1 {{must have at least one input}}
  "xla.reduce_window"() <{window_dimensions = array<i64>}> ({
    xla.return
  }) : () -> ()
  func.return
}

// -----

func.func @sas_window_size(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dimensions [2] must have one entry per dimension (rank 2)}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_window_zero(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_dimensions [2, 0] has 0; entries must be >= 1}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 0>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_strides_zero(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_strides [0, 2] has 0; entries must be >= 1}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 0, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_strides_size(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{window_strides [2] must have one entry per dimension (rank 2)}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_padding(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{padding must have shape [2, 2] (a (low, high) pair per dimension), got [3, 2]}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<0> : tensor<3x2xi64>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_source_shape(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{source shape [2, 2] must be the windowed shape of the operand [3, 3]}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_source_rank(%x: tensor<4x4xi64>, %s: tensor<4xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{source shape [4] must be the windowed shape of the operand [2, 2]}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<4xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_source_type(%x: tensor<4x4xi64>, %s: tensor<2x2xf32>, %c: tensor<i64>) {
  // expected-error @+1 {{source element type f32 differs from operand element type i64}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_init_not_scalar(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{init_value must be a 0-d tensor, got tensor<1xi64>}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<1xi64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_init_type(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i32>) {
  // expected-error @+1 {{init_value element type i32 differs from the operand's element type i64}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i32>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_select_result(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{select result #0 has type tensor<i64>, expected tensor<i1>}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %a : tensor<i64>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_select_args(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{select must take 2 arguments, takes 1}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>):
    %p = xla.compare GE, %a, %a : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_scatter_arg_type(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{scatter argument #1 has type tensor<f32>, expected tensor<i64>}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<f32>):
    %sum = xla.add %a, %a : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_scatter_result(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{scatter result #0 has type tensor<i1>, expected tensor<i64>}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    %q = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %q : tensor<i1>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi64>
  func.return
}

// -----

func.func @sas_result(%x: tensor<4x4xi64>, %s: tensor<2x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{result type tensor<4x4xi32> does not match the inferred tensor<4x4xi64>}}
  %r = "xla.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %sum = xla.add %a, %b : tensor<i64>
    xla.return %sum : tensor<i64>
  }) : (tensor<4x4xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x4xi32>
  func.return
}

// -----

func.func @map_dims_order(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{dimensions [1, 0] must be [0, 1] (map applies to every dimension)}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 1, 0>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = xla.multiply %a, %b : tensor<i64>
    xla.return %m : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_dims_partial(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{dimensions [0] must be [0, 1] (map applies to every dimension)}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = xla.multiply %a, %b : tensor<i64>
    xla.return %m : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_shapes(%x: tensor<2x2xi64>, %y: tensor<2x3xi64>) {
  // expected-error @+1 {{input #1 shape [2, 3] differs from input #0 shape [2, 2]}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = xla.multiply %a, %b : tensor<i64>
    xla.return %m : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x3xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_arg_count(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{computation must take 2 arguments, takes 1}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>):
    xla.return %a : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_arg_type(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{computation argument #0 has type tensor<f32>, expected tensor<i64>}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i64>):
    xla.return %b : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_result_count(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{computation must return 1 value, returns 2}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return %a, %b : tensor<i64>, tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_result_not_scalar(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>, %v: tensor<2xi64>) {
  // expected-error @+1 {{computation result must be a 0-d tensor, got tensor<2xi64>}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return %v : tensor<2xi64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return
}

// -----

func.func @map_result_type(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) {
  // expected-error @+1 {{result type tensor<2x2xf32> does not match the inferred tensor<2x2xi64>}}
  %r = "xla.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %m = xla.multiply %a, %b : tensor<i64>
    xla.return %m : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @map_no_inputs(%v: tensor<f32>) {
  // expected-error @+1 {{must have at least one input}}
  %r = "xla.map"() <{dimensions = array<i64>}> ({
    xla.return %v : tensor<f32>
  }) : () -> tensor<f32>
  func.return
}

// -----

func.func @sort_dim_range(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{dimension 2 is out of range [-2, 2)}}
  %r = "xla.sort"(%x) <{dimension = 2 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return
}

// -----

func.func @sort_dim_negative(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{dimension -3 is out of range [-2, 2)}}
  %r = "xla.sort"(%x) <{dimension = -3 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return
}

// -----

func.func @sort_scalar(%x: tensor<i64>) {
  // expected-error @+1 {{dimension -1 is out of range [0, 0)}}
  %r = "xla.sort"(%x) <{is_stable = true}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<i64>) -> tensor<i64>
  func.return
}

// -----

func.func @sort_shapes(%x: tensor<2x3xi64>, %y: tensor<3x2xi64>) {
  // expected-error @+1 {{input #1 shape [3, 2] differs from input #0 shape [2, 3]}}
  %r:2 = "xla.sort"(%x, %y) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>, tensor<3x2xi64>) -> (tensor<2x3xi64>, tensor<3x2xi64>)
  func.return
}

// -----

func.func @sort_cmp_arg_count(%x: tensor<2x3xi64>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{comparator must take 4 arguments, takes 2}}
  %r:2 = "xla.sort"(%x, %y) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>, tensor<2x3xf32>) -> (tensor<2x3xi64>, tensor<2x3xf32>)
  func.return
}

// -----

func.func @sort_cmp_arg_type(%x: tensor<2x3xi64>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{comparator argument #2 has type tensor<i64>, expected tensor<f32>}}
  %r:2 = "xla.sort"(%x, %y) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>, %e: tensor<i64>, %f: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>, tensor<2x3xf32>) -> (tensor<2x3xi64>, tensor<2x3xf32>)
  func.return
}

// -----

func.func @sort_cmp_result(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{comparator result #0 has type tensor<i64>, expected tensor<i1>}}
  %r = "xla.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return %a : tensor<i64>
  }) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return
}

// -----

func.func @sort_cmp_result_count(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{comparator must return 1 values, returns 0}}
  %r = "xla.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.return
  }) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  func.return
}

// -----

func.func @sort_result(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{result type tensor<3x2xi64> does not match the inferred tensor<2x3xi64>}}
  %r = "xla.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = xla.compare LT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<2x3xi64>) -> tensor<3x2xi64>
  func.return
}

// -----

func.func @sort_no_inputs() {
  // expected-error @+1 {{must have at least one input}}
  "xla.sort"() ({
  ^bb0:
    xla.return
  }) : () -> ()
  func.return
}

// -----

// As StableHLO: the window gives one size per dimension; it is not implied.
func.func @select_and_scatter_without_window(%operand: tensor<4x2xi64>, %source: tensor<4x2xi64>, %init: tensor<i64>) -> tensor<4x2xi64> {
  // expected-error @+1 {{window_dimensions must give one size per dimension of the operand (rank 2)}}
  %r = "xla.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      xla.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.add %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) : (tensor<4x2xi64>, tensor<4x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  func.return %r : tensor<4x2xi64>
}

// -----

// A reducer may compute in a wider type of the same kind (StableHLO's promotable
// accumulator), never in a narrower one ...
func.func @reduce_reducer_narrower(%x: tensor<2x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{reducer element type bf16 cannot hold the input element type f32 (it must be the same kind, at least as wide)}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = xla.add %a, %b : tensor<bf16>
    xla.return %s : tensor<bf16>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xbf16>
  func.return
}

// -----

// ... nor of another kind, for the inputs and the init values alike.
func.func @reduce_window_reducer_kind(%x: tensor<4xi8>, %c: tensor<f32>) {
  // expected-error @+1 {{reducer element type f32 cannot hold the input element type i8 (it must be the same kind, at least as wide)}}
  %r = "xla.reduce_window"(%x, %c) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>} : (tensor<4xi8>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @reduce_init_narrower(%x: tensor<2x3xi8>, %c: tensor<i64>) {
  // expected-error @+1 {{reducer element type i32 cannot hold the init value element type i64 (it must be the same kind, at least as wide)}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xi8>, tensor<i64>) -> tensor<2xi32>
  func.return
}

// -----

func.func @reduce_promoted_result_type(%x: tensor<2x3xbf16>, %c: tensor<bf16>) {
  // expected-error @+1 {{result}}
  %r = "xla.reduce"(%x, %c) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2xbf16>
  func.return
}

// -----

func.func @select_and_scatter_narrower_scatter(%x: tensor<4xi8>, %s: tensor<2xi8>, %init: tensor<i8>) {
  // expected-error @+1 {{scatter element type i4 cannot hold the operand element type i8 (it must be the same kind, at least as wide)}}
  %0 = "xla.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = xla.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i4>, %b: tensor<i4>):
    %d = xla.add %a, %b : tensor<i4>
    xla.return %d : tensor<i4>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi8>, tensor<2xi8>, tensor<i8>) -> tensor<4xi4>
  func.return
}

// -----

func.func @select_and_scatter_scatter_of_another_kind(%x: tensor<4xi8>, %s: tensor<2xi8>, %init: tensor<i8>) {
  // expected-error @+1 {{scatter element type f32 cannot hold the operand element type i8 (it must be the same kind, at least as wide)}}
  %0 = "xla.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = xla.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %d = xla.add %a, %b : tensor<f32>
    xla.return %d : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi8>, tensor<2xi8>, tensor<i8>) -> tensor<4xf32>
  func.return
}

// -----

func.func @select_and_scatter_promoted_result(%x: tensor<4xi8>, %s: tensor<2xi8>, %init: tensor<i8>) {
  // expected-error @+1 {{result type tensor<4xi8> does not match the inferred tensor<4xi32>}}
  %0 = "xla.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = xla.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %d = xla.add %a, %b : tensor<i32>
    xla.return %d : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi8>, tensor<2xi8>, tensor<i8>) -> tensor<4xi8>
  func.return
}
