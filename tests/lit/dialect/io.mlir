// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @tokens
func.func @tokens() -> !xla.token {
  // CHECK: %[[T0:.*]] = xla.after_all : !xla.token
  %t0 = xla.after_all : !xla.token
  // CHECK: %[[T1:.*]] = xla.create_token : !xla.token
  %t1 = xla.create_token : !xla.token
  // CHECK: xla.after_all %[[T0]], %[[T1]] : !xla.token
  %t2 = xla.after_all %t0, %t1 : !xla.token
  func.return %t2 : !xla.token
}

// CHECK-LABEL: func.func @infeed
func.func @infeed(%token: !xla.token) -> tensor<2x2xi64> {
  // CHECK: "xla.infeed"(%{{.*}}) : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  %0:2 = "xla.infeed"(%token) : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  // CHECK: "xla.infeed"(%{{.*}}) <{infeed_config = "cfg", layout = {{\[\[}}1 : i64, 0 : i64], []]}> : (!xla.token) -> (tensor<2x3xf32>, tensor<i1>, !xla.token)
  %1:3 = "xla.infeed"(%token) {infeed_config = "cfg", layout = [[1, 0], []]} : (!xla.token) -> (tensor<2x3xf32>, tensor<i1>, !xla.token)
  // CHECK: "xla.infeed"(%{{.*}}) : (!xla.token) -> !xla.token
  %2 = "xla.infeed"(%token) : (!xla.token) -> !xla.token
  func.return %0#0 : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @outfeed
func.func @outfeed(%x: tensor<2x2x2xi64>, %y: tensor<f32>, %token: !xla.token) -> !xla.token {
  // CHECK: "xla.outfeed"(%{{.*}}, %{{.*}}) : (tensor<2x2x2xi64>, !xla.token) -> !xla.token
  %0 = "xla.outfeed"(%x, %token) : (tensor<2x2x2xi64>, !xla.token) -> !xla.token
  // CHECK: "xla.outfeed"(%{{.*}}, %{{.*}}, %{{.*}}) <{outfeed_config = ""}> : (tensor<2x2x2xi64>, tensor<f32>, !xla.token) -> !xla.token
  %1 = "xla.outfeed"(%x, %y, %0) {outfeed_config = ""} : (tensor<2x2x2xi64>, tensor<f32>, !xla.token) -> !xla.token
  func.return %1 : !xla.token
}

// CHECK-LABEL: func.func @send_recv
func.func @send_recv(%x: tensor<2x2xi64>, %token: !xla.token) -> tensor<2x2xi64> {
  // CHECK: "xla.send"(%{{.*}}, %{{.*}}) <{channel_handle = #xla.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<2x2xi64>, !xla.token) -> !xla.token
  %0 = "xla.send"(%x, %token) {channel_handle = #xla.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2x2xi64>, !xla.token) -> !xla.token
  // CHECK: "xla.send"(%{{.*}}, %{{.*}}) <{channel_handle = #xla.channel_handle<handle = 5, type = 1>}> : (tensor<2x2xi64>, !xla.token) -> !xla.token
  %1 = "xla.send"(%x, %0) {channel_handle = #xla.channel_handle<handle = 5, type = 1>} : (tensor<2x2xi64>, !xla.token) -> !xla.token
  // CHECK: "xla.recv"(%{{.*}}) <{channel_handle = #xla.channel_handle<handle = 1, type = 3>, is_host_transfer = true}> : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  %2, %3 = "xla.recv"(%1) {channel_handle = #xla.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  // CHECK: "xla.recv"(%{{.*}}) <{channel_handle = #xla.channel_handle<handle = 5, type = 1>, is_host_transfer = false}> : (!xla.token) -> !xla.token
  %4 = "xla.recv"(%3) {channel_handle = #xla.channel_handle<handle = 5, type = 1>, is_host_transfer = false} : (!xla.token) -> !xla.token
  func.return %2 : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @custom_call
func.func @custom_call(%a: tensor<2xf32>, %t: !xla.token) -> tensor<2xf32> {
  // CHECK: xla.custom_call @foo(%{{.*}}) {backend_config = "", has_side_effect = false, api_version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = xla.custom_call @foo(%a) {backend_config = "", has_side_effect = false, api_version = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call @bar(%{{.*}}, %{{.*}}) : (tensor<2xf32>, !xla.token) -> tuple<tensor<2xf32>, !xla.token>
  %1 = xla.custom_call @bar(%a, %t) : (tensor<2xf32>, !xla.token) -> tuple<tensor<2xf32>, !xla.token>
  // CHECK: xla.custom_call @effect() {has_side_effect = true} : () -> ()
  xla.custom_call @effect() {has_side_effect = true} : () -> ()
  // CHECK: xla.custom_call @two(%{{.*}}) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  %2:2 = xla.custom_call @two(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  // CHECK: xla.custom_call @ffi(%{{.*}}) {backend_config = {scale = 2 : i64}, api_version = 4 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = xla.custom_call @ffi(%a) {backend_config = {scale = 2 : i64}, api_version = 4 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call @alias(%{{.*}}, %{{.*}}) {output_operand_aliases = [#xla.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = xla.custom_call @alias(%a, %a) {output_operand_aliases = [#xla.output_operand_alias<operand_index = 1>]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call @layouts(%{{.*}}) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  %5 = xla.custom_call @layouts(%a) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: xla.custom_call @calls(%{{.*}}) {called_computations = [@foo, @bar]} : (tensor<2xf32>) -> tensor<2xf32>
  %6 = xla.custom_call @calls(%a) {called_computations = [@foo, @bar]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// The StableHLO generic spelling of custom_call reads too.
// CHECK-LABEL: func.func @custom_call_generic
func.func @custom_call_generic(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: xla.custom_call @foo(%{{.*}}) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "xla.custom_call"(%a) {call_target_name = "foo", has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
