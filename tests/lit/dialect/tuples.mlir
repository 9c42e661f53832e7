// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @tuple
func.func @tuple(%a: tensor<f32>, %b: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  // CHECK: %{{.*}} = xla.tuple %{{.*}}, %{{.*}} : tuple<tensor<f32>, tensor<i32>>
  %0 = xla.tuple %a, %b : tuple<tensor<f32>, tensor<i32>>
  func.return %0 : tuple<tensor<f32>, tensor<i32>>
}

// CHECK-LABEL: func.func @tuple_empty
func.func @tuple_empty() -> tuple<> {
  // CHECK: xla.tuple : tuple<>
  %0 = xla.tuple : tuple<>
  func.return %0 : tuple<>
}

// CHECK-LABEL: func.func @tuple_nested
func.func @tuple_nested(%a: tensor<2xf64>, %b: tensor<i64>) -> tuple<tensor<2xf64>, tuple<tensor<i64>>> {
  // CHECK: xla.tuple %{{.*}} : tuple<tensor<i64>>
  // CHECK: xla.tuple %{{.*}}, %{{.*}} : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %0 = xla.tuple %b : tuple<tensor<i64>>
  %1 = xla.tuple %a, %0 : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  func.return %1 : tuple<tensor<2xf64>, tuple<tensor<i64>>>
}

// CHECK-LABEL: func.func @tuple_token
func.func @tuple_token(%a: tensor<3xi1>, %t: !xla.token) -> tuple<tensor<3xi1>, !xla.token> {
  // CHECK: xla.tuple %{{.*}}, %{{.*}} : tuple<tensor<3xi1>, !xla.token>
  %0 = "xla.tuple"(%a, %t) : (tensor<3xi1>, !xla.token) -> tuple<tensor<3xi1>, !xla.token>
  func.return %0 : tuple<tensor<3xi1>, !xla.token>
}

// CHECK-LABEL: func.func @tuple_function_type
func.func @tuple_function_type(%a: tensor<f32>) -> tuple<tensor<f32>> {
  // CHECK: xla.tuple %{{.*}} : tuple<tensor<f32>>
  %0 = xla.tuple %a : (tensor<f32>) -> tuple<tensor<f32>>
  func.return %0 : tuple<tensor<f32>>
}

// CHECK-LABEL: func.func @get_tuple_element
func.func @get_tuple_element(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  // CHECK: xla.get_tuple_element %{{.*}}[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  %0 = xla.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @get_tuple_element_nested
func.func @get_tuple_element_nested(%t: tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tensor<i64> {
  // CHECK: xla.get_tuple_element %{{.*}}[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  // CHECK: xla.get_tuple_element %{{.*}}[0] : (tuple<tensor<i64>>) -> tensor<i64>
  %0 = xla.get_tuple_element %t[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %1 = xla.get_tuple_element %0[0] : (tuple<tensor<i64>>) -> tensor<i64>
  func.return %1 : tensor<i64>
}

// CHECK-LABEL: func.func @get_tuple_element_generic
func.func @get_tuple_element_generic(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<i32> {
  // CHECK: xla.get_tuple_element %{{.*}}[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>
  %0 = "xla.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
