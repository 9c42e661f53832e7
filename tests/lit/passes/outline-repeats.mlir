// RUN: xla-opt %s --split-input-file -p "xla-outline-repeats{min_ops=4}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p xla-outline-repeats | FileCheck %s --check-prefix=SMALL

// Runs that save fewer ops than `min_ops` (64 by default) are left alone.
// SMALL-NOT: func.call
// SMALL-NOT: repeat

// Four dense layers: the first takes %x as it comes, the other three repeat it
// from the bias on; the weights become arguments, the activations flow through.
// CHECK-LABEL: func.func @main(
// CHECK:         %0 = xla.dot_general %x, %w0
// CHECK-NEXT:    %1 = func.call @main.repeat0(%b0, %0, %w1) : (tensor<4xf32>, tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %2 = func.call @main.repeat0(%b1, %1, %w2)
// CHECK-NEXT:    %3 = func.call @main.repeat0(%b2, %2, %w3)
// CHECK-NEXT:    %4 = xla.broadcast_in_dim %b3
// CHECK-NEXT:    %5 = xla.add %3, %4
// CHECK-NEXT:    %c3 = xla.constant
// CHECK-NEXT:    %6 = xla.maximum %5, %c3
// CHECK-NEXT:    func.return %6
// CHECK:       func.func private @main.repeat0(%0: tensor<4xf32>, %1: tensor<2x4xf32>, %2: tensor<4x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    %3 = xla.broadcast_in_dim %0, dims = [1]
// CHECK-NEXT:    %4 = xla.add %1, %3
// CHECK-NEXT:    %c0 = xla.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:    %5 = xla.maximum %4, %c0
// CHECK-NEXT:    %6 = xla.dot_general %5, %2
// CHECK-NEXT:    func.return %6 : tensor<2x4xf32>
func.func @main(%x: tensor<2x4xf32>, %w0: tensor<4x4xf32>, %b0: tensor<4xf32>, %w1: tensor<4x4xf32>, %b1: tensor<4xf32>, %w2: tensor<4x4xf32>, %b2: tensor<4xf32>, %w3: tensor<4x4xf32>, %b3: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.broadcast_in_dim %b0, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %3 = stablehlo.maximum %2, %c0 : tensor<2x4xf32>
  %4 = stablehlo.dot_general %3, %w1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %5 = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %6 = stablehlo.add %4, %5 : tensor<2x4xf32>
  %c1 = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %7 = stablehlo.maximum %6, %c1 : tensor<2x4xf32>
  %8 = stablehlo.dot_general %7, %w2, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %9 = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %10 = stablehlo.add %8, %9 : tensor<2x4xf32>
  %c2 = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %11 = stablehlo.maximum %10, %c2 : tensor<2x4xf32>
  %12 = stablehlo.dot_general %11, %w3, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %13 = stablehlo.broadcast_in_dim %b3, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %14 = stablehlo.add %12, %13 : tensor<2x4xf32>
  %c3 = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %15 = stablehlo.maximum %14, %c3 : tensor<2x4xf32>
  return %15 : tensor<2x4xf32>
}

// -----

// Blocks whose sum (a reduce with a body) is used after the run, and a constant
// shared from the top, which is cloned into the function. %y is read by every
// block, and so is %w: one argument each. The repeats are cut before the dot, the
// one place where no element-wise fusion is lost.
// CHECK-LABEL: func.func @shared(
// CHECK:         %0 = xla.dot_general %x, %w
// CHECK-NEXT:    %1 = xla.add %0, %y
// CHECK-NEXT:    %2 = xla.multiply %1, %two
// CHECK-NEXT:    %s0 = xla.reduce(%2 init: %zero)
// CHECK-NEXT:    %3:2 = func.call @shared.repeat0(%2, %w, %y) : (tensor<8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>)
// CHECK-NEXT:    %4:2 = func.call @shared.repeat0(%3#0, %w, %y)
// CHECK-NEXT:    %t0 = xla.add %s0, %3#1
// CHECK-NEXT:    %t1 = xla.add %t0, %4#1
// CHECK-NEXT:    func.return %4#0, %t1
// CHECK:       func.func private @shared.repeat0(%0: tensor<8xf32>, %1: tensor<8x8xf32>, %2: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
// CHECK-NEXT:    %two = xla.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %zero = xla.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %3 = xla.dot_general %0, %1
// CHECK-NEXT:    %4 = xla.add %3, %2
// CHECK-NEXT:    %5 = xla.multiply %4, %two
// CHECK-NEXT:    %s1 = xla.reduce(%5 init: %zero) applies xla.add across dimensions = [0]
// CHECK-NEXT:    func.return %5, %s1 : tensor<8xf32>, tensor<f32>
func.func @shared(%x: tensor<8xf32>, %y: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %y : tensor<8xf32>
  %2 = stablehlo.multiply %1, %two : tensor<8xf32>
  %s0 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %3 = stablehlo.dot_general %2, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %4 = stablehlo.add %3, %y : tensor<8xf32>
  %5 = stablehlo.multiply %4, %two : tensor<8xf32>
  %s1 = stablehlo.reduce(%5 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %6 = stablehlo.dot_general %5, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %7 = stablehlo.add %6, %y : tensor<8xf32>
  %8 = stablehlo.multiply %7, %two : tensor<8xf32>
  %s2 = stablehlo.reduce(%8 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %t0 = stablehlo.add %s0, %s1 : tensor<f32>
  %t1 = stablehlo.add %t0, %s2 : tensor<f32>
  return %8, %t1 : tensor<8xf32>, tensor<f32>
}

// -----

// Constants of different values are different ops: no repeats.
// CHECK-LABEL: func.func @differ(
// CHECK-NOT:     func.call
// CHECK:         func.return %5
func.func @differ(%x: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<8xf32> {
  %c0 = stablehlo.constant dense<1.0> : tensor<8xf32>
  %0 = stablehlo.add %x, %c0 : tensor<8xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %c1 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %2 = stablehlo.add %1, %c1 : tensor<8xf32>
  %3 = stablehlo.dot_general %2, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %c2 = stablehlo.constant dense<3.0> : tensor<8xf32>
  %4 = stablehlo.add %3, %c2 : tensor<8xf32>
  %5 = stablehlo.dot_general %4, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  return %5 : tensor<8xf32>
}

// -----

// Repeats without a contraction or convolution group periods up to a weight of
// 2,048 (a tanh 40, an add 1), about where linalg-fuse-elementwise cuts a fused loop
// anyway: this chain is far lighter, so it stays one loop.
// CHECK-LABEL: func.func @elementwise(
// CHECK-NOT:     func.call
// CHECK:         func.return %5
func.func @elementwise(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %x, %y : tensor<8xf32>
  %1 = stablehlo.tanh %0 : tensor<8xf32>
  %2 = stablehlo.add %1, %y : tensor<8xf32>
  %3 = stablehlo.tanh %2 : tensor<8xf32>
  %4 = stablehlo.add %3, %y : tensor<8xf32>
  %5 = stablehlo.tanh %4 : tensor<8xf32>
  return %5 : tensor<8xf32>
}

// -----

// The first block subtracts where the others add, so the periodic stretch starts
// at its tanh. Cutting there would put each add and the tanh it feeds in different
// functions; the repeats are cut before the dot instead, which passes one value
// that no fusion wants.
// CHECK-LABEL: func.func @phase(
// CHECK:         %0 = xla.dot_general %x, %w
// CHECK-NEXT:    %1 = xla.subtract %0, %y
// CHECK-NEXT:    %2 = xla.tanh %1
// CHECK-NEXT:    %3 = xla.multiply %2, %y
// CHECK-NEXT:    %4 = func.call @phase.repeat0(%3, %w, %y)
// CHECK-NEXT:    %5 = func.call @phase.repeat0(%4, %w, %y)
// CHECK-NEXT:    %6 = func.call @phase.repeat0(%5, %w, %y)
// CHECK-NEXT:    func.return %6
// CHECK:       func.func private @phase.repeat0(%0: tensor<8xf32>, %1: tensor<8x8xf32>, %2: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %3 = xla.dot_general %0, %1
// CHECK-NEXT:    %4 = xla.add %3, %2
// CHECK-NEXT:    %5 = xla.tanh %4
// CHECK-NEXT:    %6 = xla.multiply %5, %2
// CHECK-NEXT:    func.return %6
func.func @phase(%x: tensor<8xf32>, %w: tensor<8x8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %1 = stablehlo.subtract %0, %y : tensor<8xf32>
  %2 = stablehlo.tanh %1 : tensor<8xf32>
  %3 = stablehlo.multiply %2, %y : tensor<8xf32>
  %4 = stablehlo.dot_general %3, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %5 = stablehlo.add %4, %y : tensor<8xf32>
  %6 = stablehlo.tanh %5 : tensor<8xf32>
  %7 = stablehlo.multiply %6, %y : tensor<8xf32>
  %8 = stablehlo.dot_general %7, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %9 = stablehlo.add %8, %y : tensor<8xf32>
  %10 = stablehlo.tanh %9 : tensor<8xf32>
  %11 = stablehlo.multiply %10, %y : tensor<8xf32>
  %12 = stablehlo.dot_general %11, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %13 = stablehlo.add %12, %y : tensor<8xf32>
  %14 = stablehlo.tanh %13 : tensor<8xf32>
  %15 = stablehlo.multiply %14, %y : tensor<8xf32>
  return %15 : tensor<8xf32>
}
