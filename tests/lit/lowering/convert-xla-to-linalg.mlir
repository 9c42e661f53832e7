// RUN: xla-opt %s -p xla-flatten-tuples,convert-xla-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32>
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK:      func.return %[[R]] : tensor<4xf32>
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %a, %b : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @broadcasting_add
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:      arith.addi
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:      arith.muli
func.func @broadcasting_add(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %s: tensor<i32>) -> tensor<2x3xi32> {
  %0 = xla.add %a, %b, broadcast_dimensions = [1] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = xla.multiply %0, %s : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  func.return %1 : tensor<2x3xi32>
}

// Unsigned element types become signless; the ops carry the signedness.
// CHECK-LABEL: func.func @unsigned(%a: tensor<4xi8>) -> tensor<4xf32>
// CHECK:      arith.uitofp %{{.*}} : i8 to f32
func.func @unsigned(%a: tensor<4xui8>) -> tensor<4xf32> {
  %0 = xla.convert %a : (tensor<4xui8>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// Splats fill, other constants stay dense, iota reads linalg.index.
// CHECK-LABEL: func.func @constants()
// CHECK:      %[[C:.*]] = arith.constant 1.500000e+00 : f32
// CHECK:      linalg.fill ins(%[[C]] : f32) outs(%{{.*}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK:      arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:        %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:   arith.sitofp %[[W]] : i64 to f32
func.func @constants() -> (tensor<3xf32>, tensor<2x2xi32>, tensor<2x3xf32>) {
  %0 = xla.constant dense<1.5> : tensor<3xf32>
  %1 = xla.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %2 = xla.iota dim = 1 : tensor<2x3xf32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<2x2xi32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @shapes
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:      %[[F:.*]] = tensor.collapse_shape %m {{\[\[}}0 : i64, 1 : i64]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT: tensor.expand_shape %[[F]] {{\[\[}}0 : i64, 1 : i64]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK:      %[[S:.*]] = tensor.extract_slice %a[1] [1] [1] : tensor<3xf32> to tensor<1xf32>
// CHECK-NEXT: tensor.collapse_shape %[[S]] [] : tensor<1xf32> into tensor<f32>
func.func @shapes(%a: tensor<3xf32>, %m: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>) {
  %0 = xla.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.transpose %m, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = xla.reshape %m : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = xla.slice %a [1:2] : (tensor<3xf32>) -> tensor<1xf32>
  %4 = xla.reshape %3 : (tensor<1xf32>) -> tensor<f32>
  func.return %0, %1, %2, %4 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>
}

// Negative low padding crops the operand; interior padding is the insert stride.
// Dynamic starts are clamped to [0, dim - size].
// CHECK-LABEL: func.func @slicing
// CHECK:      tensor.extract_slice %a[1] [3] [2] : tensor<8xf32> to tensor<3xf32>
// CHECK:      %[[P:.*]] = tensor.extract %p[] : tensor<f32>
// CHECK:      %[[FILL:.*]] = linalg.fill ins(%[[P]] : f32) outs(%{{.*}} : tensor<11xf32>)
// CHECK-NEXT: %[[CROP:.*]] = tensor.extract_slice %a[1] [5] [1] : tensor<8xf32> to tensor<5xf32>
// CHECK-NEXT: tensor.insert_slice %[[CROP]] into %[[FILL]][1] [5] [2] : tensor<5xf32> into tensor<11xf32>
// CHECK:      %[[REV:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (((d0 * -1) + 7))>, affine_map<(d0) -> (d0)>]
// CHECK:      %[[CAT:.*]] = tensor.insert_slice %a into %{{.*}}[0] [8] [1] : tensor<8xf32> into tensor<16xf32>
// CHECK-NEXT: tensor.insert_slice %[[REV]] into %[[CAT]][8] [8] [1] : tensor<8xf32> into tensor<16xf32>
// CHECK:      %[[I:.*]] = tensor.extract %i[] : tensor<i32>
// CHECK-NEXT: %[[I64:.*]] = arith.extui %[[I]] : i32 to i64
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[IDX]], %[[ZERO]] : index
// CHECK-NEXT: %[[TOP:.*]] = arith.constant 6 : index
// CHECK-NEXT: %[[START:.*]] = arith.minsi %[[LO]], %[[TOP]] : index
// CHECK-NEXT: tensor.extract_slice %a[%[[START]]] [2] [1] : tensor<8xf32> to tensor<2xf32>
func.func @slicing(%a: tensor<8xf32>, %p: tensor<f32>, %i: tensor<ui32>) -> (tensor<3xf32>, tensor<11xf32>, tensor<8xf32>, tensor<16xf32>, tensor<2xf32>) {
  %0 = xla.slice %a [1:7:2] : (tensor<8xf32>) -> tensor<3xf32>
  %1 = xla.pad %a, %p, low = [-1], high = [-3], interior = [1] : (tensor<8xf32>, tensor<f32>) -> tensor<11xf32>
  %2 = xla.reverse %a, dims = [0] : tensor<8xf32>
  %3 = xla.concatenate %a, %2, dim = 0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<16xf32>
  %4 = xla.dynamic_slice %a, %i, sizes = [2] : (tensor<8xf32>, tensor<ui32>) -> tensor<2xf32>
  func.return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<11xf32>, tensor<8xf32>, tensor<16xf32>, tensor<2xf32>
}

// Iteration order batch, lhs free, contracting, rhs free: the i-k-j loop nest.
// CHECK-LABEL: func.func @dot_general
// CHECK:      %[[Z:.*]] = linalg.fill
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%a, %b : tensor<5x2x3xf32>, tensor<5x3x4xf32>) outs(%[[Z]] : tensor<5x2x4xf32>)
// CHECK:        %[[M:.*]] = arith.mulf
// CHECK-NEXT:   arith.addf %{{.*}}, %[[M]] : f32
func.func @dot_general(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// A variadic reduce: the reducer region becomes the scalar body (accumulators come second in the block).
// CHECK-LABEL: func.func @argmax
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %i : tensor<4x6xf32>, tensor<4x6xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[I:.*]]: i32, %[[AX:.*]]: f32, %[[AI:.*]]: i32):
// CHECK-NEXT:   %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[AX]] : f32
// CHECK-NEXT:   %[[V:.*]] = arith.select %[[GT]], %[[X]], %[[AX]] : f32
// CHECK-NEXT:   %[[K:.*]] = arith.select %[[GT]], %[[I]], %[[AI]] : i32
// CHECK-NEXT:   linalg.yield %[[V]], %[[K]] : f32, i32
func.func @argmax(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %0:2 = xla.reduce(%x init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%av: tensor<f32>, %bv: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = xla.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = xla.select %gt, %bv, %av : tensor<i1>, tensor<f32>
    %k = xla.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    xla.return %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @loop
// CHECK:      scf.while (%[[I:.*]] = %c0, %[[V:.*]] = %x) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
// CHECK:        %[[LT:.*]] = linalg.generic
// CHECK:          arith.cmpi slt
// CHECK:        %[[C:.*]] = tensor.extract %[[LT]][] : tensor<i1>
// CHECK-NEXT:   scf.condition(%[[C]]) %[[I]], %[[V]] : tensor<i32>, tensor<4xf32>
// CHECK-NEXT: } do {
// CHECK:        scf.yield %i1, %v1 : tensor<i32>, tensor<4xf32>
func.func @loop(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = xla.constant dense<0> : tensor<i32>
  %0:2 = xla.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>
   cond {
    %lt = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  } do {
    %one = xla.constant dense<1> : tensor<i32>
    %i1 = xla.add %i, %one : tensor<i32>
    %v1 = xla.add %v, %v : tensor<4xf32>
    xla.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  func.return %0#1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @branches
// CHECK:      %[[P:.*]] = tensor.extract %p[] : tensor<i1>
// CHECK-NEXT: scf.if %[[P]] -> (tensor<4xf32>) {
// CHECK:        arith.negf
// CHECK:        scf.yield %n : tensor<4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %x : tensor<4xf32>
// The last branch is the default: it runs for any index out of range.
// CHECK:      %[[K:.*]] = tensor.extract %k[] : tensor<i32>
// CHECK-NEXT: %[[IDX:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK-NEXT: scf.index_switch %[[IDX]] -> tensor<4xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT:   scf.yield %x : tensor<4xf32>
// CHECK:      case 1 {
// CHECK:        math.absf
// CHECK:      default {
// CHECK:        math.exp
func.func @branches(%p: tensor<i1>, %k: tensor<i32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "xla.if"(%p) ({
    %n = xla.negate %x : tensor<4xf32>
    xla.return %n : tensor<4xf32>
  }, {
    xla.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %1 = "xla.case"(%k) ({
    xla.return %x : tensor<4xf32>
  }, {
    %a = xla.abs %x : tensor<4xf32>
    xla.return %a : tensor<4xf32>
  }, {
    %e = xla.exponential %x : tensor<4xf32>
    xla.return %e : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// bf16 reduce and dot accumulate in f32 (elements widened in the body) and round once.
// CHECK-LABEL: func.func @bf16_accumulation
// CHECK:      %[[INIT:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:      %[[ACC:.*]] = linalg.fill ins(%[[INIT]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK:      %[[SUM:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x8xbf16>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: bf16, %[[A:.*]]: f32):
// CHECK-NEXT:   %[[W:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK-NEXT:   arith.addf %[[A]], %[[W]] : f32
// CHECK:      linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xbf16>)
// CHECK:        arith.truncf %{{.*}} : f32 to bf16
// CHECK:      %[[DOT:.*]] = linalg.generic {{.*}} ins(%x, %y : tensor<4x8xbf16>, tensor<8x3xbf16>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK:        arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:      linalg.generic {{.*}} ins(%[[DOT]] : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xbf16>)
// CHECK:        arith.truncf %{{.*}} : f32 to bf16
func.func @bf16_accumulation(%x: tensor<4x8xbf16>, %y: tensor<8x3xbf16>) -> (tensor<4xbf16>, tensor<4x3xbf16>) {
  %z = xla.constant dense<0.0> : tensor<bf16>
  %0 = xla.reduce(%x init: %z) applies xla.add across dimensions = [1] : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %1 = xla.dot %x, %y : (tensor<4x8xbf16>, tensor<8x3xbf16>) -> tensor<4x3xbf16>
  func.return %0, %1 : tensor<4xbf16>, tensor<4x3xbf16>
}

// (after xla-flatten-tuples) the tuple result is two results
// CHECK-LABEL: func.func @calls(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[C:.*]] = func.call @add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return %[[C]], %x : tensor<4xf32>, tensor<4xf32>
func.func @calls(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %0 = xla.call @add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = xla.tuple %0, %x : tuple<tensor<4xf32>, tensor<4xf32>>
  func.return %1 : tuple<tensor<4xf32>, tensor<4xf32>>
}

// A composite calls its decomposition.
// CHECK-LABEL: func.func @composite(%x: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = func.call @add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.return %[[C]] : tensor<4xf32>
func.func @composite(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.composite "my.add" %x, %x {decomposition = @add, version = 2 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
