// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @reduce_compact
func.func @reduce_compact(%x: tensor<2x3xf32>, %c: tensor<f32>) -> tensor<2xf32> {
  // CHECK: %{{.*}} = xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %r = xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// The generic form StableHLO programs use prints compactly.
// CHECK-LABEL: func.func @reduce_generic
func.func @reduce_generic(%x: tensor<1x6xi64>, %c: tensor<i64>) -> tensor<1xi64> {
  // CHECK: %{{.*}} = xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
  %r = "xla.reduce"(%x, %c) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.add %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) {
    dimensions = array<i64: 1>
  } : (tensor<1x6xi64>, tensor<i64>) -> tensor<1xi64>
  func.return %r : tensor<1xi64>
}

// CHECK-LABEL: func.func @reduce_all_dims
func.func @reduce_all_dims(%x: tensor<2x3xf32>, %c: tensor<f32>) -> tensor<f32> {
  // CHECK: %{{.*}} = xla.reduce(%x init: %c) applies xla.maximum across dimensions = [0, 1] {tag = "t"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %r = xla.reduce(%x init: %c) applies xla.maximum across dimensions = [0, 1] {tag = "t"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// A reducer that is not a single op on its arguments keeps its region.
// CHECK-LABEL: func.func @reduce_region
func.func @reduce_region(%x: tensor<4x5xi32>, %c: tensor<i32>) -> tensor<5xi32> {
  // CHECK:      %{{.*}} = xla.reduce(%x init: %c) across dimensions = [0] : (tensor<4x5xi32>, tensor<i32>) -> tensor<5xi32>
  // CHECK-NEXT:  reducer(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>) {
  // CHECK-NEXT:   %[[S:.*]] = xla.add %[[B]], %[[A]] : tensor<i32>
  // CHECK-NEXT:   xla.return %[[S]] : tensor<i32>
  // CHECK-NEXT: }
  %r = xla.reduce(%x init: %c) across dimensions = [0] : (tensor<4x5xi32>, tensor<i32>) -> tensor<5xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %s = xla.add %b, %a : tensor<i32>
    xla.return %s : tensor<i32>
  }
  func.return %r : tensor<5xi32>
}

// Variadic Reduce: (value, index) argmax.
// CHECK-LABEL: func.func @reduce_variadic
func.func @reduce_variadic(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>, %c: tensor<f32>, %d: tensor<i32>) -> tensor<2xi32> {
  // CHECK:      %{{.*}}:2 = xla.reduce(%x init: %c), (%y init: %d) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  // CHECK-NEXT:  reducer(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) (%[[E:.*]]: tensor<i32>, %[[F:.*]]: tensor<i32>) {
  // CHECK-NEXT:   %[[GT:.*]] = xla.compare GT, %[[A]], %[[B]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
  // CHECK-NEXT:   %[[V:.*]] = xla.select %[[GT]], %[[A]], %[[B]] : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT:   %[[I:.*]] = xla.select %[[GT]], %[[E]], %[[F]] : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT:   xla.return %[[V]], %[[I]] : tensor<f32>, tensor<i32>
  // CHECK-NEXT: }
  %r:2 = xla.reduce(%x init: %c), (%y init: %d) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%e: tensor<i32>, %f: tensor<i32>) {
    %gt = xla.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = xla.select %gt, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = xla.select %gt, %e, %f : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %v, %i : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_window
func.func @reduce_window(%x: tensor<3x2xi64>, %c: tensor<i64>) -> tensor<2x2xi64> {
  // CHECK:      %{{.*}} = "xla.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<{{\[\[}}2, 1], [0, 0]]> : tensor<2x2xi64>}> ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<i64>, %[[B:.*]]: tensor<i64>):
  // CHECK-NEXT:   %[[S:.*]] = xla.add %[[A]], %[[B]] : tensor<i64>
  // CHECK-NEXT:   xla.return %[[S]] : tensor<i64>
  // CHECK-NEXT: }) : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  %r = "xla.reduce_window"(%x, %c) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.add %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) {
    base_dilations = array<i64: 2, 1>,
    padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>,
    window_dilations = array<i64: 3, 1>,
    window_dimensions = array<i64: 2, 1>,
    window_strides = array<i64: 4, 1>
  } : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}

// CHECK-LABEL: func.func @reduce_window_variadic
func.func @reduce_window_variadic(%x: tensor<4x4xf32>, %y: tensor<4x4xi32>, %c: tensor<f32>, %d: tensor<i32>) -> tensor<2x2xi32> {
  // CHECK: %{{.*}}:2 = "xla.reduce_window"(%x, %y, %c, %d) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  // CHECK: }) : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  %r:2 = "xla.reduce_window"(%x, %y, %c, %d) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %e: tensor<i32>, %b: tensor<f32>, %f: tensor<i32>):
    %s = xla.add %a, %b : tensor<f32>
    %t = xla.add %e, %f : tensor<i32>
    xla.return %s, %t : tensor<f32>, tensor<i32>
  }) : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
  func.return %r#1 : tensor<2x2xi32>
}

// CHECK-LABEL: func.func @select_and_scatter
func.func @select_and_scatter(%operand: tensor<4x2xi64>, %source: tensor<2x2xi64>, %init: tensor<i64>) -> tensor<4x2xi64> {
  // CHECK:      %{{.*}} = "xla.select_and_scatter"(%operand, %source, %init) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<{{\[\[}}0, 1], [0, 0]]> : tensor<2x2xi64>}> ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<i64>, %[[B:.*]]: tensor<i64>):
  // CHECK-NEXT:   %[[P:.*]] = xla.compare GE, %[[A]], %[[B]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // CHECK-NEXT:   xla.return %[[P]] : tensor<i1>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^{{.*}}(%[[C:.*]]: tensor<i64>, %[[D:.*]]: tensor<i64>):
  // CHECK-NEXT:   %[[S:.*]] = xla.add %[[C]], %[[D]] : tensor<i64>
  // CHECK-NEXT:   xla.return %[[S]] : tensor<i64>
  // CHECK-NEXT: }) : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  %r = "xla.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      xla.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.add %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  func.return %r : tensor<4x2xi64>
}

// CHECK-LABEL: func.func @map
func.func @map(%a: tensor<2x2xi64>, %b: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // CHECK:      %{{.*}} = "xla.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<i64>, %[[Y:.*]]: tensor<i64>):
  // CHECK-NEXT:   %[[M:.*]] = xla.multiply %[[X]], %[[Y]] : tensor<i64>
  // CHECK-NEXT:   xla.return %[[M]] : tensor<i64>
  // CHECK-NEXT: }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  %r = "xla.map"(%a, %b) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = xla.multiply %arg0, %arg1 : tensor<i64>
      xla.return %0 : tensor<i64>
  }) {
    dimensions = array<i64: 0, 1>
  } : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %r : tensor<2x2xi64>
}

// Map to another element type.
// CHECK-LABEL: func.func @map_to_pred
func.func @map_to_pred(%a: tensor<3xf32>) -> tensor<3xi1> {
  // CHECK: }) : (tensor<3xf32>) -> tensor<3xi1>
  %r = "xla.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    %p = xla.is_finite %x : (tensor<f32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<3xf32>) -> tensor<3xi1>
  func.return %r : tensor<3xi1>
}

// CHECK-LABEL: func.func @sort
func.func @sort(%a: tensor<2x3xi64>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK:      %{{.*}}, %{{.*}} = "xla.sort"(%a, %b) <{dimension = 0 : i64, is_stable = true}> ({
  // CHECK-NEXT: ^{{.*}}(%[[A0:.*]]: tensor<i64>, %[[A1:.*]]: tensor<i64>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>):
  // CHECK-NEXT:   %[[P:.*]] = xla.compare GT, %[[A0]], %[[A1]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // CHECK-NEXT:   xla.return %[[P]] : tensor<i1>
  // CHECK-NEXT: }) : (tensor<2x3xi64>, tensor<2x3xf32>) -> (tensor<2x3xi64>, tensor<2x3xf32>)
  %r0, %r1 = "xla.sort"(%a, %b) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<f32>, %arg3: tensor<f32>):
      %predicate = xla.compare GT, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      xla.return %predicate : tensor<i1>
  }) {
    dimension = 0 : i64,
    is_stable = true
  } : (tensor<2x3xi64>, tensor<2x3xf32>) -> (tensor<2x3xi64>, tensor<2x3xf32>)
  func.return %r1 : tensor<2x3xf32>
}

// Defaults (dimension -1, not stable) and a negative dimension.
// CHECK-LABEL: func.func @sort_defaults
func.func @sort_defaults(%a: tensor<5x7xi64>) -> tensor<5x7xi64> {
  // CHECK: %{{.*}} = "xla.sort"(%a) ({
  // CHECK: %{{.*}} = "xla.sort"(%a) <{dimension = -2 : i64}> ({
  %r = "xla.sort"(%a) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %1 = xla.compare LT, %x, %y, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %1 : tensor<i1>
  }) : (tensor<5x7xi64>) -> tensor<5x7xi64>
  %s = "xla.sort"(%a) <{dimension = -2 : i64}> ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    %1 = xla.compare LT, %x, %y, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %1 : tensor<i1>
  }) : (tensor<5x7xi64>) -> tensor<5x7xi64>
  func.return %s : tensor<5x7xi64>
}

// A reducer may compute in a wider element type of the same kind than its inputs
// and init values (StableHLO's promotable accumulator); the results hold it.
// CHECK-LABEL: func.func @reduce_promoted
// CHECK:       xla.reduce(%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<4x3xbf16>, tensor<bf16>) -> tensor<4xf32>
// CHECK-NEXT:  reducer(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>)
func.func @reduce_promoted(%a: tensor<4x3xbf16>, %init: tensor<bf16>) -> tensor<4xf32> {
  %0 = "xla.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = xla.add %x, %y : tensor<f32>
    xla.return %s : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<4x3xbf16>, tensor<bf16>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @reduce_window_promoted
// CHECK:       "xla.reduce_window"(%{{.*}}, %{{.*}})
// CHECK:       : (tensor<6xi8>, tensor<i16>) -> tensor<3xi32>
func.func @reduce_window_promoted(%a: tensor<6xi8>, %init: tensor<i16>) -> tensor<3xi32> {
  %0 = "xla.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = xla.add %x, %y : tensor<i32>
    xla.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<6xi8>, tensor<i16>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// select_and_scatter's scatter may compute in a wider type too (select stays in the
// operand's); the result holds the scatter's type.
// CHECK-LABEL: func.func @select_and_scatter_promoted
// CHECK:       : (tensor<4x2xi8>, tensor<2x2xi8>, tensor<i8>) -> tensor<4x2xi32>
func.func @select_and_scatter_promoted(%x: tensor<4x2xi8>, %s: tensor<2x2xi8>, %init: tensor<i8>) -> tensor<4x2xi32> {
  %0 = "xla.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = xla.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    xla.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %d = xla.add %a, %b : tensor<i32>
    xla.return %d : tensor<i32>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi8>, tensor<2x2xi8>, tensor<i8>) -> tensor<4x2xi32>
  func.return %0 : tensor<4x2xi32>
}
