// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @tuple_wrong_member(%a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{result type tuple<tensor<f32>, tensor<f32>> does not match the inferred tuple<tensor<f32>, tensor<i32>>}}
  %0 = "xla.tuple"(%a, %b) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<f32>>
  func.return
}

// -----

func.func @tuple_wrong_count(%a: tensor<f32>) {
  // expected-error @+1 {{result type tuple<tensor<f32>, tensor<f32>> does not match the inferred tuple<tensor<f32>>}}
  %0 = "xla.tuple"(%a) : (tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  func.return
}

// -----

func.func @tuple_not_tuple_type(%a: tensor<f32>) {
  // expected-error @+1 {{expected a tuple<...> type}}
  %0 = xla.tuple %a : tensor<f32>
  func.return
}

// -----

func.func @tuple_bad_member(%a: tensor<2xindex>) {
  // expected-error @+1 {{operand #0 must be a tensor of a primitive type, a token or a tuple, got tensor<2xindex>}}
  %0 = xla.tuple %a : tuple<tensor<2xindex>>
  func.return
}

// -----

func.func @tuple_bad_scalar_member(%a: f32) {
  // expected-error @+1 {{operand #0 must be a tensor of a primitive type, a token or a tuple, got f32}}
  %0 = xla.tuple %a : tuple<f32>
  func.return
}

// -----

func.func @tuple_bad_nested_member(%a: tuple<tensor<f32>, i32>) {
  // expected-error @+1 {{operand #0 member 1 must be a tensor of a primitive type, a token or a tuple, got i32}}
  %0 = xla.tuple %a : tuple<tuple<tensor<f32>, i32>>
  func.return
}

// -----

func.func @get_tuple_element_range(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{index 2 is out of range [0, 2) of the operand's 2 tuple members}}
  %0 = xla.get_tuple_element %t[2] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return
}

// -----

func.func @get_tuple_element_negative(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{index -1 is out of range [0, 2) of the operand's 2 tuple members}}
  %0 = "xla.get_tuple_element"(%t) {index = -1 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return
}

// -----

func.func @get_tuple_element_empty(%t: tuple<>) {
  // expected-error @+1 {{index 0 is out of range [0, 0) of the operand's 0 tuple members}}
  %0 = xla.get_tuple_element %t[0] : (tuple<>) -> tensor<f32>
  func.return
}

// -----

func.func @get_tuple_element_result(%t: tuple<tensor<f32>, tensor<i32>>) {
  // expected-error @+1 {{result type tensor<f32> does not match the inferred tensor<i32>}}
  %0 = xla.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return
}

// -----

func.func @get_tuple_element_nested_result(%t: tuple<tuple<tensor<f32>>>) {
  // expected-error @+1 {{result type tensor<f32> does not match the inferred tuple<tensor<f32>>}}
  %0 = xla.get_tuple_element %t[0] : (tuple<tuple<tensor<f32>>>) -> tensor<f32>
  func.return
}

// -----

func.func @get_tuple_element_not_tuple(%t: tensor<f32>) {
  // expected-error @+1 {{operand 'operand' at position 0 does not verify}}
  %0 = "xla.get_tuple_element"(%t) {index = 0 : i32} : (tensor<f32>) -> tensor<f32>
  func.return
}
