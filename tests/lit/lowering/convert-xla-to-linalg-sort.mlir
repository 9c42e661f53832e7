// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// Two operands sorted together by a TOTALORDER key, 5 elements: 3 merge passes.
// The result tensors A and the scratch tensors B are fresh; the odd pass count
// makes the first pass read the operands and write A, then one iteration of the
// pair loop merges A -> B -> A. Each merge loop carries the run heads of both
// ends (4 indices, 4 elements per operand) and the destinations; the
// comparator is inlined with (right, left) arguments (the total-order key is
// the bit pattern with the magnitude flipped when negative).
// CHECK-LABEL: func.func @sort_pair
// CHECK:      %[[A0:.*]] = tensor.empty() : tensor<5xf32>
// CHECK-NEXT: %[[A1:.*]] = tensor.empty() : tensor<5xi32>
// CHECK-NEXT: %[[B0:.*]] = tensor.empty() : tensor<5xf32>
// CHECK-NEXT: %[[B1:.*]] = tensor.empty() : tensor<5xi32>
// CHECK:      %[[PAIR:[^ ]*]]:2 = scf.for %[[LO:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[D0:.*]] = %[[A0]], %[[D1:.*]] = %[[A1]]) -> (tensor<5xf32>, tensor<5xi32>) {
// CHECK:        %[[L0:.*]] = tensor.extract %k[%[[LO]]] : tensor<5xf32>
// CHECK-NEXT:   %[[L1:.*]] = tensor.extract %v[%[[LO]]] : tensor<5xi32>
// CHECK:        scf.for %{{[0-9]+}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{[0-9]+}} = %[[LO]], {{.*}}, %[[FL0:[0-9]+]] = %[[L0]], %[[FL1:[0-9]+]] = %[[L1]], %[[FR0:[0-9]+]] = %{{[0-9]+}}, {{.*}} = %[[D0]], %{{[0-9]+}} = %[[D1]]) -> (index, index, index, index, f32, i32, f32, i32, f32, i32, f32, i32, tensor<5xf32>, tensor<5xi32>) {
// CHECK:          %[[RB:.*]] = arith.bitcast %[[FR0]] : f32 to i32
// CHECK:          %[[LB:.*]] = arith.bitcast %[[FL0]] : f32 to i32
// CHECK:          %[[BEFORE:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK:          %[[LEFT_DONE:.*]] = arith.cmpi uge
// CHECK-NEXT:     %[[RIGHT_OPEN:.*]] = arith.cmpi ult
// CHECK-NEXT:     %[[WANTS:.*]] = arith.ori %[[LEFT_DONE]], %[[BEFORE]] : i1
// CHECK:          %[[TAKE:.*]] = arith.andi %[[RIGHT_OPEN]], %[[WANTS]] : i1
// CHECK:          %[[V0:.*]] = arith.select %[[TAKE]], %[[FR0]], %[[FL0]] : f32
// CHECK-NEXT:     %[[I0:.*]] = tensor.insert %[[V0]] into %{{.*}}[%{{.*}}] : tensor<5xf32>
// CHECK-NEXT:     %[[W0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:     %{{.*}} = tensor.insert %[[W0]] into %[[I0]][%{{.*}}] : tensor<5xf32>
// CHECK:          %{{.*}} = tensor.extract %k[%{{.*}}] : tensor<5xf32>
// CHECK:          scf.yield
// CHECK:        }
// CHECK:        tensor.insert
// CHECK:        scf.yield %{{.*}}, %{{.*}} : tensor<5xf32>, tensor<5xi32>
// CHECK:      }
// CHECK:      %{{.*}}, %[[R0:.*]], %[[R1:.*]], %{{.*}}, %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[PAIR]]#0, %{{.*}} = %[[PAIR]]#1, %{{.*}} = %[[B0]], %{{.*}} = %[[B1]]) -> (index, tensor<5xf32>, tensor<5xi32>, tensor<5xf32>, tensor<5xi32>) {
// CHECK-COUNT-2: scf.for %{{.*}} iter_args({{.*}}) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xf32>, tensor<5xi32>) {
// CHECK:      func.return %[[R0]], %[[R1]] : tensor<5xf32>, tensor<5xi32>
func.func @sort_pair(%k: tensor<5xf32>, %v: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %r:2 = "xla.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = xla.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  func.return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}

// Sorting along dimension 0: one loop over the columns outside, carrying A and
// B; every access indexes [row, column]. 3 elements: 2 passes, so the first
// pass writes the scratch, a single pass B -> A follows and no pair loop.
// CHECK-LABEL: func.func @sort_columns
// CHECK:      %[[A:.*]] = tensor.empty() : tensor<3x4xi32>
// CHECK-NEXT: %[[B:.*]] = tensor.empty() : tensor<3x4xi32>
// CHECK:      %[[R:.*]], %{{.*}} = scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[RA:.*]] = %[[A]], %[[RB:.*]] = %[[B]]) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
// CHECK:        %[[S:.*]] = scf.for %[[LO:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[RB]]) -> (tensor<3x4xi32>) {
// CHECK:          tensor.extract %x[%[[LO]], %[[COL]]] : tensor<3x4xi32>
// CHECK:          arith.cmpi sgt
// CHECK:        %[[PASS:[^ ]*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %[[RA]], %{{.*}} = %[[S]]) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
// CHECK:        scf.yield %[[PASS]]#0, %{{.*}} : tensor<3x4xi32>, tensor<3x4xi32>
// CHECK:      func.return %[[R]] : tensor<3x4xi32>
func.func @sort_columns(%x: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %r = "xla.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = xla.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  func.return %r : tensor<3x4xi32>
}

// A sorted dimension of size 1: nothing to reorder.
// CHECK-LABEL: func.func @sort_one
// CHECK-NEXT:  func.return %x : tensor<4x1xf32>
func.func @sort_one(%x: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %r = "xla.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = xla.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  func.return %r : tensor<4x1xf32>
}
