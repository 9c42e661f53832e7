// RUN: xla-opt %s --split-input-file --verify-diagnostics -p xla-flatten-tuples,convert-xla-to-linalg | FileCheck %s

// Tokens leave the signature; infeed/outfeed become calls to private runtime
// sites taking and returning tensors (signless), token results are dead `true`s.
// CHECK-LABEL: func.func @feed(%x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    %[[INFEED:[^ ]*]]:2 = func.call @[[IN:__xla_rt_infeed_[0-9]+]]() : () -> (tensor<2xf32>, tensor<3xi8>)
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK:         func.call @[[OUT:__xla_rt_outfeed_[0-9]+]](%[[S]], %[[INFEED]]#1) : (tensor<2xf32>, tensor<3xi8>) -> ()
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    func.return %[[S]] : tensor<2xf32>
// CHECK:       func.func private @[[IN]]() -> (tensor<2xf32>, tensor<3xi8>)
// CHECK-NEXT:  func.func private @[[OUT]](tensor<2xf32>, tensor<3xi8>) -> ()
func.func @feed(%x: tensor<2xf32>, %t: !xla.token) -> (tensor<2xf32>, !xla.token) {
  %0:3 = "xla.infeed"(%t) {layout = [[0], [0]]} : (!xla.token) -> (tensor<2xf32>, tensor<3xui8>, !xla.token)
  %1 = xla.add %0#0, %x : tensor<2xf32>
  %2 = "xla.outfeed"(%1, %0#1, %0#2) : (tensor<2xf32>, tensor<3xui8>, !xla.token) -> !xla.token
  func.return %1, %2 : tensor<2xf32>, !xla.token
}

// -----

// after_all and create_token are constants; send/recv are sites like the feeds.
// CHECK-LABEL: func.func @channels(%x: tensor<4xi64>) -> tensor<4xi64> {
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    func.call @[[SEND:__xla_rt_send_[0-9]+]](%x) : (tensor<4xi64>) -> ()
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    %[[R:.*]] = func.call @[[RECV:__xla_rt_recv_[0-9]+]]() : () -> tensor<4xi64>
// CHECK-NEXT:    %{{.*}} = arith.constant true
// CHECK-NEXT:    func.return %[[R]] : tensor<4xi64>
// CHECK:       func.func private @[[SEND]](tensor<4xi64>) -> ()
// CHECK-NEXT:  func.func private @[[RECV]]() -> tensor<4xi64>
func.func @channels(%x: tensor<4xi64>) -> tensor<4xi64> {
  %t0 = xla.create_token : !xla.token
  %t1 = xla.after_all : !xla.token
  %t2 = "xla.send"(%x, %t0) {channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (tensor<4xi64>, !xla.token) -> !xla.token
  %t3 = xla.after_all %t1, %t2 : !xla.token
  %r:2 = "xla.recv"(%t3) {channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (!xla.token) -> (tensor<4xi64>, !xla.token)
  func.return %r#0 : tensor<4xi64>
}

// -----

// A loop carrying a token carries the data only (the body gets a fresh token);
// its condition also asks the runtime whether a host op failed. A loop without
// host I/O is left alone.
// CHECK-LABEL: func.func @loop(%n: tensor<i32>) -> tensor<f32> {
// CHECK:         %{{.*}} = scf.while (%[[I:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>) {
// CHECK:           %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK-NEXT:      %[[OK:.*]] = func.call @__xla_rt_ok() : () -> i1
// CHECK-NEXT:      %[[BOTH:.*]] = arith.andi %[[C]], %[[OK]] : i1
// CHECK-NEXT:      scf.condition(%[[BOTH]]) %[[I]], %[[S]] : tensor<i32>, tensor<f32>
// CHECK:         } do {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: tensor<i32>, %{{.*}}: tensor<f32>):
// CHECK-NEXT:      %{{.*}} = arith.constant true
// CHECK-NEXT:      %{{.*}} = func.call @__xla_rt_infeed_{{[0-9]+}}() : () -> tensor<f32>
// CHECK-LABEL: func.func @plain_loop
// CHECK-NOT:     __xla_rt_ok
// CHECK:         func.return
// CHECK:       func.func private @__xla_rt_ok() -> i1
func.func @loop(%n: tensor<i32>) -> tensor<f32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %fzero = xla.constant dense<0.0> : tensor<f32>
  %t = xla.create_token : !xla.token
  %r:3 = xla.while(%i = %zero, %s = %fzero, %tok = %t) : tensor<i32>, tensor<f32>, !xla.token
  cond {
    %c = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %v:2 = "xla.infeed"(%tok) : (!xla.token) -> (tensor<f32>, !xla.token)
    %s2 = xla.add %s, %v#0 : tensor<f32>
    %i2 = xla.add %i, %one : tensor<i32>
    xla.return %i2, %s2, %v#1 : tensor<i32>, tensor<f32>, !xla.token
  }
  func.return %r#1 : tensor<f32>
}

func.func @plain_loop(%n: tensor<i32>) -> tensor<i32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %r = xla.while(%i = %zero) : tensor<i32>
  cond {
    %c = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    xla.return %n : tensor<i32>
  }
  func.return %r : tensor<i32>
}

// -----

// A loop reaching host I/O through a call is guarded too; tokens leave the
// callee's signature and the call.
// CHECK-LABEL: func.func @read(%x: tensor<i32>) -> tensor<i32> {
// CHECK-LABEL: func.func @caller(%n: tensor<i32>) -> tensor<i32> {
// CHECK:         func.call @__xla_rt_ok() : () -> i1
// CHECK:         %{{.*}} = func.call @read(%{{.*}}) : (tensor<i32>) -> tensor<i32>
func.func @read(%x: tensor<i32>, %t: !xla.token) -> (tensor<i32>, !xla.token) {
  %v:2 = "xla.infeed"(%t) : (!xla.token) -> (tensor<i32>, !xla.token)
  %s = xla.add %x, %v#0 : tensor<i32>
  func.return %s, %v#1 : tensor<i32>, !xla.token
}

func.func @caller(%n: tensor<i32>) -> tensor<i32> {
  %t = xla.create_token : !xla.token
  %r:2 = xla.while(%i = %n, %tok = %t) : tensor<i32>, !xla.token
  cond {
    %c = xla.compare GT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %v, %t2 = xla.call @read(%i, %tok) : (tensor<i32>, !xla.token) -> (tensor<i32>, !xla.token)
    xla.return %v, %t2 : tensor<i32>, !xla.token
  }
  func.return %r#0 : tensor<i32>
}

// -----

func.func @unregistered(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{custom_call target 'not_registered_anywhere' is not registered: register it with runtime.host_io.register_custom_call('not_registered_anywhere', fn) before compiling}}
  %0 = xla.custom_call @not_registered_anywhere(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @column_major(%t: !xla.token) -> tensor<2x3xf32> {
  // expected-error @+1 {{layout entry #0 [0, 1] is not the row-major layout: only row-major (minor_to_major = [rank-1, ..., 0]) buffers are passed to the host}}
  %0:2 = "xla.infeed"(%t) {layout = [[0, 1]]} : (!xla.token) -> (tensor<2x3xf32>, !xla.token)
  func.return %0#0 : tensor<2x3xf32>
}

// -----

func.func @dynamic(%x: tensor<10xf32>, %n: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{xla.set_dimension_size makes dimension 0 dynamic (bounded by 10); bounded dynamic shapes are not compiled: every shape must be static (pad and mask with iota/compare/select instead)}}
  %0 = xla.set_dimension_size %x, %n, dim = 0 : (tensor<10xf32>, tensor<i32>) -> tensor<?xf32>
  %z = xla.constant dense<0.0> : tensor<f32>
  func.return %z : tensor<f32>
}

// -----

// get_dimension_size of a static shape is a constant.
// CHECK-LABEL: func.func @dimension_size
// CHECK:         %[[N:.*]] = arith.constant 3 : i32
// CHECK:         linalg.fill ins(%[[N]] : i32)
func.func @dimension_size(%x: tensor<2x3xf32>) -> tensor<i32> {
  %0 = xla.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
