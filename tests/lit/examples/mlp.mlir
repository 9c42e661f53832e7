// RUN: xla-opt %S/../../../examples/mlp.mlir -p canonicalize | FileCheck %s

// The README's main job: the bundled MLP verifies and canonicalizes; nothing in it
// is constant-foldable, so every op stays.

// CHECK-LABEL: func.func public @main
// CHECK:       xla.dot_general %x, %w1, contracting_dims = [1] x [0]
// CHECK:       xla.broadcast_in_dim %b1, dims = [1]
// CHECK:       xla.maximum %h1, %zero
// CHECK:       xla.dot %h, %w2
// CHECK:       xla.add %l0, %b2, broadcast_dimensions = [1]
// CHECK:       xla.reduce(%logits init: %neg_inf) applies xla.maximum across dimensions = [1]
// CHECK:       xla.exponential %shifted
// CHECK:       xla.reduce(%e init: %zero) applies xla.add across dimensions = [1]
// CHECK:       xla.divide %e, %sum, broadcast_dimensions = [0]
// CHECK-NEXT:  func.return %p : tensor<2x3xf32>
