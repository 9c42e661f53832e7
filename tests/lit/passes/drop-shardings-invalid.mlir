// RUN: xla-opt %s -p xla-drop-shardings --verify-diagnostics

// A mesh of several devices is a partitioned program: reported, not run as one.
module @m {
  // expected-error @+1 {{'sdy.mesh' op mesh @mesh spans 4 devices; the project runs programs on one}}
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x", "y"}]> : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
