module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x10xf32>, %arg3: tensor<10xf32>, %arg4: tensor<32x16xf32>, %arg5: tensor<32x10xf32>) -> (tensor<16x32xf32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]"}, tensor<32x10xf32> {jax.result_info = "result[2]"}, tensor<10xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<32x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<32x32xf32>
    %4 = stablehlo.tanh %3 : tensor<32x32xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %6 = stablehlo.subtract %5, %4 : tensor<32x32xf32>
    %7 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x32xf32>, tensor<32x10xf32>) -> tensor<32x10xf32>
    %8 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<32x10xf32>
    %10 = stablehlo.add %7, %9 : tensor<32x10xf32>
    %11:2 = call @log_softmax(%10) : (tensor<32x10xf32>) -> (tensor<32x10xf32>, tensor<32x1xf32>)
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.negate %cst_0 : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %14 = stablehlo.multiply %13, %arg5 : tensor<32x10xf32>
    %15 = call @log_softmax_0(%11#0, %11#1, %14) : (tensor<32x10xf32>, tensor<32x1xf32>, tensor<32x10xf32>) -> tensor<32x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<32x10xf32>, tensor<f32>) -> tensor<10xf32>
    %17 = stablehlo.reshape %16 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %19 = stablehlo.dot_general %15, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x10xf32>, tensor<32x32xf32>) -> tensor<10x32xf32>
    %20 = stablehlo.transpose %19, dims = [1, 0] : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %21 = stablehlo.dot_general %15, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x10xf32>, tensor<32x10xf32>) -> tensor<32x32xf32>
    %22 = stablehlo.multiply %21, %6 : tensor<32x32xf32>
    %23 = stablehlo.multiply %22, %4 : tensor<32x32xf32>
    %24 = stablehlo.add %22, %23 : tensor<32x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %26 = stablehlo.reshape %25 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %28 = stablehlo.dot_general %24, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %cst_5 = stablehlo.constant dense<1.562500e-03> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<16x32xf32>
    %32 = stablehlo.subtract %arg0, %31 : tensor<16x32xf32>
    %cst_6 = stablehlo.constant dense<1.562500e-03> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %34 = stablehlo.multiply %33, %27 : tensor<32xf32>
    %35 = stablehlo.subtract %arg1, %34 : tensor<32xf32>
    %cst_7 = stablehlo.constant dense<1.562500e-03> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %37 = stablehlo.multiply %36, %20 : tensor<32x10xf32>
    %38 = stablehlo.subtract %arg2, %37 : tensor<32x10xf32>
    %cst_8 = stablehlo.constant dense<1.562500e-03> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %40 = stablehlo.multiply %39, %18 : tensor<10xf32>
    %41 = stablehlo.subtract %arg3, %40 : tensor<10xf32>
    return %32, %35, %38, %41 : tensor<16x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  }
  func.func private @log_softmax(%arg0: tensor<32x10xf32>) -> (tensor<32x10xf32>, tensor<32x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<32x1xf32>) -> tensor<32x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<32x10xf32>
    %6 = stablehlo.exponential %5 : tensor<32x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<32xf32>) -> tensor<32x1xf32>
    return %6, %8 : tensor<32x10xf32>, tensor<32x1xf32>
  }
  func.func private @log_softmax_0(%arg0: tensor<32x10xf32>, %arg1: tensor<32x1xf32>, %arg2: tensor<32x10xf32>) -> tensor<32x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<32x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<32x10xf32>, tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.reshape %1 : (tensor<32xf32>) -> tensor<32x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<32x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<32x1xf32>, tensor<f32>) -> tensor<32xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<32xf32>) -> tensor<32x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<32x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<32x10xf32>
    return %7 : tensor<32x10xf32>
  }
}
