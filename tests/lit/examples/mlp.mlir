// RUN: xla-opt %S/../../../examples/mlp.mlir -p canonicalize | FileCheck %s

// The README's main job: the bundled MLP verifies and canonicalizes; only the
// broadcast of the constant bias folds (into a constant), every other op stays.

// CHECK-LABEL: func.func public @main
// CHECK:       xla.dot_general %x, %w1, contracting_dims = [1] x [0]
// CHECK:       %b1b = xla.constant dense<{{\[\[}}1.000000e-01, -1.000000e-01, 2.000000e-01, 0.000000e+00, -2.000000e-01], [1.000000e-01
// CHECK-NEXT:  xla.add %h0, %b1b : tensor<2x5xf32>
// CHECK:       xla.maximum %h1, %zero
// CHECK:       xla.dot %h, %w2
// CHECK:       xla.add %l0, %b2, broadcast_dimensions = [1]
// CHECK:       xla.reduce(%logits init: %neg_inf) applies xla.maximum across dimensions = [1]
// CHECK:       xla.exponential %shifted
// CHECK:       xla.reduce(%e init: %zero) applies xla.add across dimensions = [1]
// CHECK:       xla.divide %e, %sum, broadcast_dimensions = [0]
// CHECK-NEXT:  func.return %p : tensor<2x3xf32>
