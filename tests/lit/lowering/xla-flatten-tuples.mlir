// RUN: xla-opt %s -p xla-flatten-tuples | FileCheck %s

// A tuple parameter becomes its leaves, depth-first; get_tuple_element picks them.
// CHECK-LABEL: func.func @params
// CHECK-SAME:    (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<i32>, %[[X:.*]]: tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    func.return %[[X]] : tensor<3xi8>
func.func @params(%t: tuple<tensor<2xf32>, tuple<tensor<i32>, tensor<3xi8>>>) -> tensor<3xi8> {
  %inner = xla.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>, tensor<3xi8>>>) -> tuple<tensor<i32>, tensor<3xi8>>
  %x = xla.get_tuple_element %inner[1] : (tuple<tensor<i32>, tensor<3xi8>>) -> tensor<3xi8>
  func.return %x : tensor<3xi8>
}

// A returned tuple is returned as its leaves.
// CHECK-LABEL: func.func @results(%a: tensor<2xf32>, %b: tensor<i32>) -> (tensor<i32>, tensor<2xf32>, tensor<i32>)
// CHECK-NEXT:    func.return %b, %a, %b : tensor<i32>, tensor<2xf32>, tensor<i32>
func.func @results(%a: tensor<2xf32>, %b: tensor<i32>) -> tuple<tensor<i32>, tuple<tensor<2xf32>, tensor<i32>>> {
  %t0 = xla.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
  %t = xla.tuple %b, %t0 : tuple<tensor<i32>, tuple<tensor<2xf32>, tensor<i32>>>
  func.return %t : tuple<tensor<i32>, tuple<tensor<2xf32>, tensor<i32>>>
}

// The old While form carries one tuple: the loop carries its leaves.
// CHECK-LABEL: func.func @loop(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %{{.*}}, %[[W:.*]] = xla.while(%[[I:.*]] = %{{.*}}, %[[V:.*]] = %x) : tensor<i32>, tensor<4xf32>
// CHECK-NEXT:    cond {
// CHECK-NEXT:      %[[LT:.*]] = xla.compare LT, %[[I]], %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:      xla.return %[[LT]] : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[ONE:.*]] = xla.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %[[I1:.*]] = xla.add %[[I]], %[[ONE]] : tensor<i32>
// CHECK-NEXT:      %[[V1:.*]] = xla.add %[[V]], %[[V]] : tensor<4xf32>
// CHECK-NEXT:      xla.return %[[I1]], %[[V1]] : tensor<i32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[W]] : tensor<4xf32>
func.func @loop(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = xla.constant dense<0> : tensor<i32>
  %init = xla.tuple %c0, %x : tuple<tensor<i32>, tensor<4xf32>>
  %w = xla.while(%s = %init) : tuple<tensor<i32>, tensor<4xf32>>
   cond {
    %i = xla.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %lt = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } do {
    %i = xla.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %v = xla.get_tuple_element %s[1] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %one = xla.constant dense<1> : tensor<i32>
    %i1 = xla.add %i, %one : tensor<i32>
    %v1 = xla.add %v, %v : tensor<4xf32>
    %next = xla.tuple %i1, %v1 : tuple<tensor<i32>, tensor<4xf32>>
    xla.return %next : tuple<tensor<i32>, tensor<4xf32>>
  }
  %r = xla.get_tuple_element %w[1] : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// Calls pass and receive the leaves.
// CHECK-LABEL: func.func @caller(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %[[R:.*]] = func.call @results(%a, %b) : (tensor<2xf32>, tensor<i32>) -> (tensor<i32>, tensor<2xf32>, tensor<i32>)
// CHECK-NEXT:    func.return %[[R]] : tensor<i32>
func.func @caller(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<i32> {
  %t = func.call @results(%a, %b) : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<i32>, tuple<tensor<2xf32>, tensor<i32>>>
  %inner = xla.get_tuple_element %t[1] : (tuple<tensor<i32>, tuple<tensor<2xf32>, tensor<i32>>>) -> tuple<tensor<2xf32>, tensor<i32>>
  %x = xla.get_tuple_element %inner[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  func.return %x : tensor<i32>
}
