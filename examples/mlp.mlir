// A two-layer perceptron with a softmax head, as JAX would export it (in `xla` form):
// logits = relu(x @ w1 + b1) @ w2 + b2; probabilities = softmax(logits).
// `xla-opt examples/mlp.mlir -p canonicalize` verifies it and folds what is constant.
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2x4xf32> {jax.arg_info = "x"}) -> (tensor<2x3xf32> {jax.result_info = ""}) {
    %w1 = xla.constant dense<[[0.5, -0.25, 0.125, 1.0, 0.0], [-0.5, 0.75, 0.25, -1.0, 0.5], [0.25, 0.5, -0.75, 0.5, -0.25], [1.0, -1.0, 0.5, 0.25, 0.75]]> : tensor<4x5xf32>
    %b1 = xla.constant dense<[0.1, -0.1, 0.2, 0.0, -0.2]> : tensor<5xf32>
    %w2 = xla.constant dense<[[0.5, -0.5, 0.25], [0.25, 0.75, -0.5], [-1.0, 0.5, 0.5], [0.75, -0.25, 0.0], [0.0, 0.5, -0.75]]> : tensor<5x3xf32>
    %b2 = xla.constant dense<[0.0, 0.1, -0.1]> : tensor<3xf32>
    %zero = xla.constant dense<0.0> : tensor<f32>
    %neg_inf = xla.constant dense<0xFF800000> : tensor<f32>

    // Hidden layer: x @ w1 + b1, then relu.
    %h0 = xla.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
    %b1b = xla.broadcast_in_dim %b1, dims = [1] : (tensor<5xf32>) -> tensor<2x5xf32>
    %h1 = xla.add %h0, %b1b : tensor<2x5xf32>
    %h = xla.maximum %h1, %zero : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>

    // Output layer, with the bias added by the spec's implicit broadcasting.
    %l0 = xla.dot %h, %w2 : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
    %logits = xla.add %l0, %b2, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>

    // Softmax over the last dimension, stabilised by the row maximum.
    %max = xla.reduce(%logits init: %neg_inf) applies xla.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %shifted = xla.subtract %logits, %max, broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
    %e = xla.exponential %shifted : tensor<2x3xf32>
    %sum = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %p = xla.divide %e, %sum, broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
    func.return %p : tensor<2x3xf32>
  }
}
