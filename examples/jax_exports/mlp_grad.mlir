module @jit_mlp_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x10xf32>, %arg5: tensor<10xf32>, %arg6: tensor<8x16xf32>) -> (tensor<16x32xf32> {jax.result_info = "result[0][0]"}, tensor<32xf32> {jax.result_info = "result[0][1]"}, tensor<32x32xf32> {jax.result_info = "result[1][0]"}, tensor<32xf32> {jax.result_info = "result[1][1]"}, tensor<32x10xf32> {jax.result_info = "result[2][0]"}, tensor<10xf32> {jax.result_info = "result[2][1]"}) {
    %0 = stablehlo.dot_general %arg6, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x32xf32>
    %6 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %10 = stablehlo.multiply %9, %5 : tensor<8x32xf32>
    %11 = stablehlo.add %3, %10 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8x32xf32>
    %14 = stablehlo.tanh %13 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %16 = stablehlo.subtract %15, %14 : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %18 = stablehlo.add %17, %14 : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<8x32xf32>
    %21 = stablehlo.multiply %3, %20 : tensor<8x32xf32>
    %22 = stablehlo.dot_general %21, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %23 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %25 = stablehlo.add %22, %24 : tensor<8x32xf32>
    %26 = stablehlo.multiply %25, %25 : tensor<8x32xf32>
    %27 = stablehlo.multiply %26, %25 : tensor<8x32xf32>
    %28 = stablehlo.multiply %25, %25 : tensor<8x32xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %30 = stablehlo.multiply %29, %28 : tensor<8x32xf32>
    %cst_6 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %32 = stablehlo.multiply %31, %27 : tensor<8x32xf32>
    %33 = stablehlo.add %25, %32 : tensor<8x32xf32>
    %cst_7 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %35 = stablehlo.multiply %34, %33 : tensor<8x32xf32>
    %36 = stablehlo.tanh %35 : tensor<8x32xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %38 = stablehlo.subtract %37, %36 : tensor<8x32xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %40 = stablehlo.add %39, %36 : tensor<8x32xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %42 = stablehlo.multiply %41, %40 : tensor<8x32xf32>
    %43 = stablehlo.multiply %25, %42 : tensor<8x32xf32>
    %44 = stablehlo.dot_general %43, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %45 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %47 = stablehlo.add %44, %46 : tensor<8x10xf32>
    %48:3 = call @log_softmax(%47) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %50 = stablehlo.multiply %49, %48#0 : tensor<8x10xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %52 = stablehlo.multiply %51, %50 : tensor<8x10xf32>
    %53 = call @log_softmax_0(%48#1, %48#2, %52) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.reduce(%53 init: %cst_13) applies stablehlo.add across dimensions = [0] : (tensor<8x10xf32>, tensor<f32>) -> tensor<10xf32>
    %55 = stablehlo.reshape %54 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_14) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %57 = stablehlo.dot_general %53, %43, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x32xf32>) -> tensor<10x32xf32>
    %58 = stablehlo.transpose %57, dims = [1, 0] : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %59 = stablehlo.dot_general %53, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<32x10xf32>) -> tensor<8x32xf32>
    %60 = stablehlo.multiply %25, %59 : tensor<8x32xf32>
    %61 = stablehlo.multiply %59, %42 : tensor<8x32xf32>
    %cst_15 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %63 = stablehlo.multiply %62, %60 : tensor<8x32xf32>
    %64 = stablehlo.multiply %63, %38 : tensor<8x32xf32>
    %65 = stablehlo.multiply %64, %36 : tensor<8x32xf32>
    %66 = stablehlo.add %64, %65 : tensor<8x32xf32>
    %cst_16 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %68 = stablehlo.multiply %67, %66 : tensor<8x32xf32>
    %69 = stablehlo.add %61, %68 : tensor<8x32xf32>
    %cst_17 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %71 = stablehlo.multiply %70, %68 : tensor<8x32xf32>
    %72 = stablehlo.multiply %71, %30 : tensor<8x32xf32>
    %73 = stablehlo.add %69, %72 : tensor<8x32xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_18) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %75 = stablehlo.reshape %74 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76 = stablehlo.reduce(%75 init: %cst_19) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %77 = stablehlo.dot_general %73, %21, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<32x32xf32>
    %78 = stablehlo.transpose %77, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %79 = stablehlo.dot_general %73, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %80 = stablehlo.multiply %3, %79 : tensor<8x32xf32>
    %81 = stablehlo.multiply %79, %20 : tensor<8x32xf32>
    %cst_20 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %83 = stablehlo.multiply %82, %80 : tensor<8x32xf32>
    %84 = stablehlo.multiply %83, %16 : tensor<8x32xf32>
    %85 = stablehlo.multiply %84, %14 : tensor<8x32xf32>
    %86 = stablehlo.add %84, %85 : tensor<8x32xf32>
    %cst_21 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %88 = stablehlo.multiply %87, %86 : tensor<8x32xf32>
    %89 = stablehlo.add %81, %88 : tensor<8x32xf32>
    %cst_22 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %91 = stablehlo.multiply %90, %88 : tensor<8x32xf32>
    %92 = stablehlo.multiply %91, %8 : tensor<8x32xf32>
    %93 = stablehlo.add %89, %92 : tensor<8x32xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.reduce(%93 init: %cst_23) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %95 = stablehlo.reshape %94 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_24) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %97 = stablehlo.dot_general %93, %arg6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %98 = stablehlo.transpose %97, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    return %98, %96, %78, %76, %58, %56 : tensor<16x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @log_softmax_0(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
