// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @infeed_no_token_result(%t: !xla.token) {
  // expected-error @+1 {{the last result must be a !xla.token, got tensor<2xi64>}}
  %0 = "xla.infeed"(%t) : (!xla.token) -> tensor<2xi64>
  func.return
}

// -----

func.func @infeed_no_results(%t: !xla.token) {
  // expected-error @+1 {{infeed must have at least one result, the token}}
  "xla.infeed"(%t) : (!xla.token) -> ()
  func.return
}

// -----

func.func @infeed_tuple_result(%t: !xla.token) {
  // expected-error @+1 {{result #0 is a tuple tuple<tensor<2xi64>>; nested tuple shapes are not supported}}
  %0:2 = "xla.infeed"(%t) : (!xla.token) -> (tuple<tensor<2xi64>>, !xla.token)
  func.return
}

// -----

func.func @infeed_token_data(%t: !xla.token) {
  // expected-error @+1 {{result #0 must be a tensor of a primitive type, got !xla.token}}
  %0:2 = "xla.infeed"(%t) : (!xla.token) -> (!xla.token, !xla.token)
  func.return
}

// -----

func.func @infeed_layout_count(%t: !xla.token) {
  // expected-error @+1 {{layout has 2 entries but there are 1 values to lay out}}
  %0:2 = "xla.infeed"(%t) {layout = [[1, 0], [0]]} : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  func.return
}

// -----

func.func @infeed_layout_permutation(%t: !xla.token) {
  // expected-error @+1 {{layout entry #0 [0, 0] is not a permutation of [0, 1] for tensor<2x2xi64>}}
  %0:2 = "xla.infeed"(%t) {layout = [[0, 0]]} : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  func.return
}

// -----

func.func @infeed_layout_entry(%t: !xla.token) {
  // expected-error @+1 {{layout entry #0 must be a list of integers}}
  %0:2 = "xla.infeed"(%t) {layout = ["x"]} : (!xla.token) -> (tensor<2x2xi64>, !xla.token)
  func.return
}

// -----

func.func @send_host_type(%x: tensor<2xi64>, %t: !xla.token) {
  // expected-error @+1 {{channel_handle type 1 must be DEVICE_TO_HOST (2) when is_host_transfer is true}}
  %0 = "xla.send"(%x, %t) {channel_handle = #xla.channel_handle<handle = 1, type = 1>, is_host_transfer = true} : (tensor<2xi64>, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @send_device_type(%x: tensor<2xi64>, %t: !xla.token) {
  // expected-error @+1 {{channel_handle type 2 must be DEVICE_TO_DEVICE (1) when is_host_transfer is false}}
  %0 = "xla.send"(%x, %t) {channel_handle = #xla.channel_handle<handle = 1, type = 2>} : (tensor<2xi64>, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @recv_host_type(%t: !xla.token) {
  // expected-error @+1 {{channel_handle type 2 must be HOST_TO_DEVICE (3) when is_host_transfer is true}}
  %0:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (!xla.token) -> (tensor<2xi64>, !xla.token)
  func.return
}

// -----

func.func @recv_device_type(%t: !xla.token) {
  // expected-error @+1 {{channel_handle type 3 must be DEVICE_TO_DEVICE (1) when is_host_transfer is false}}
  %0:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 1, type = 3>, is_host_transfer = false} : (!xla.token) -> (tensor<2xi64>, !xla.token)
  func.return
}

// -----

func.func @recv_last_not_token(%t: !xla.token) {
  // expected-error @+1 {{the last result must be a !xla.token, got tensor<2xi64>}}
  %0:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (!xla.token) -> (!xla.token, tensor<2xi64>)
  func.return
}

// -----

func.func @recv_tuple(%t: !xla.token) {
  // expected-error @+1 {{result #0 is a tuple tuple<tensor<2xi64>>}}
  %0:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (!xla.token) -> (tuple<tensor<2xi64>>, !xla.token)
  func.return
}

// -----

func.func @custom_call_empty_target(%a: tensor<f32>) {
  // expected-error @+1 {{call_target_name must not be empty}}
  %0 = "xla.custom_call"(%a) {call_target_name = ""} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_api_version(%a: tensor<f32>) {
  // expected-error @+1 {{api_version 7 is not one of [0, 1, 2, 3, 4]}}
  %0 = xla.custom_call @foo(%a) {api_version = 7 : i32} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_ffi_string_config(%a: tensor<f32>) {
  // expected-error @+1 {{backend_config must be a dictionary when api_version is 4 (API_VERSION_TYPED_FFI)}}
  %0 = xla.custom_call @foo(%a) {api_version = 4 : i32, backend_config = "cfg"} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_dict_config(%a: tensor<f32>) {
  // expected-error @+1 {{backend_config must be a string when api_version is 2}}
  %0 = xla.custom_call @foo(%a) {backend_config = {x = 1 : i64}} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_called_computations(%a: tensor<f32>) {
  // expected-error @+1 {{called_computations entry #0 must be a symbol reference}}
  %0 = xla.custom_call @foo(%a) {called_computations = ["bar"]} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_layouts_together(%a: tensor<f32>) {
  // expected-error @+1 {{operand_layouts and result_layouts must be given together or not at all}}
  %0 = xla.custom_call @foo(%a) {operand_layouts = [dense<> : tensor<0xindex>]} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func @custom_call_operand_layouts_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{operand_layouts has 2 entries but there are 1 values to lay out}}
  %0 = xla.custom_call @foo(%a) {operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @custom_call_result_layout_permutation(%a: tensor<2xf32>) {
  // expected-error @+1 {{result_layouts entry #0 [1, 0] is not a permutation of [0] for tensor<2xf32>}}
  %0 = xla.custom_call @foo(%a) {operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @custom_call_alias_operand_index(%a: tensor<2xf32>) {
  // expected-error @+1 {{output_operand_aliases entry #0 has operand_index 3, out of range [0, 1)}}
  %0 = xla.custom_call @foo(%a) {output_operand_aliases = [#xla.output_operand_alias<operand_index = 3>]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @custom_call_alias_operand_path(%a: tensor<2xf32>) {
  // expected-error @+1 {{output_operand_aliases entry #0 has operand_tuple_indices [0], not a valid index into operand #0}}
  %0 = xla.custom_call @foo(%a) {output_operand_aliases = [#xla.output_operand_alias<operand_tuple_indices = [0]>]} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @custom_call_alias_output_path(%a: tensor<2xf32>) {
  // expected-error @+1 {{output_operand_aliases entry #0 has output_tuple_indices [2], not a valid index into the results}}
  %0 = xla.custom_call @foo(%a) {output_operand_aliases = [#xla.output_operand_alias<output_tuple_indices = [2]>]} : (tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<i32>>
  func.return
}

// -----

func.func @custom_call_alias_types(%a: tensor<2xf32>) {
  // expected-error @+1 {{output_operand_aliases entry #0 aliases output type tensor<i32> with operand type tensor<2xf32>}}
  %0:2 = xla.custom_call @foo(%a) {output_operand_aliases = [#xla.output_operand_alias<output_tuple_indices = [1]>]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  func.return
}

// -----

func.func @custom_call_operand_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected 1 operand types but got 2}}
  %0 = xla.custom_call @foo(%a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @after_all_not_token(%x: tensor<2xi64>, %t: !xla.token) {
  // expected-error @+1 {{operand #1 must be a !xla.token, got tensor<2xi64>}}
  %0 = "xla.after_all"(%t, %x) : (!xla.token, tensor<2xi64>) -> !xla.token
  func.return
}

// -----

func.func @create_token_type() {
  // expected-error @+1 {{result must be a !xla.token, got tensor<i1>}}
  %0 = "xla.create_token"() : () -> tensor<i1>
  func.return
}

// -----

func.func @outfeed_token_input(%x: tensor<2xi64>, %t: !xla.token) {
  // expected-error @+1 {{input #1 must be a tensor of a primitive type, got !xla.token}}
  %0 = "xla.outfeed"(%x, %t, %t) : (tensor<2xi64>, !xla.token, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @outfeed_tuple_input(%x: tuple<tensor<2xi64>>, %t: !xla.token) {
  // expected-error @+1 {{input #0 must be a tensor of a primitive type, got tuple<tensor<2xi64>>}}
  %0 = "xla.outfeed"(%x, %t) : (tuple<tensor<2xi64>>, !xla.token) -> !xla.token
  func.return
}

// -----

func.func @send_token_input(%t: !xla.token) {
  // expected-error @+1 {{input #0 must be a tensor of a primitive type, got !xla.token}}
  %0 = "xla.send"(%t, %t) {channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (!xla.token, !xla.token) -> !xla.token
  func.return
}
