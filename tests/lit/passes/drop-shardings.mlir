// RUN: xla-opt %s | FileCheck %s --check-prefix=READ
// RUN: xla-opt %s | xla-opt | FileCheck %s --check-prefix=READ
// RUN: xla-opt %s -p xla-drop-shardings | FileCheck %s --check-prefix=DROP

// Shardy as JAX exports it for one device: read and printed back verbatim.
// READ:       sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}}
// READ:       func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// READ:       %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<4xf32>
// READ-NEXT:  %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xf32>
// READ-NEXT:  %3 = xla.sine %2 : tensor<4xf32>

// On one device the mesh goes and the constraints are their operands; the
// argument attributes stay.
// DROP-NOT:   sdy.mesh
// DROP:       func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
// DROP-NEXT:    %0 = xla.multiply %arg0, %arg0 : tensor<4xf32>
// DROP-NEXT:    %1 = xla.sine %0 : tensor<4xf32>
// DROP-NEXT:    func.return %1 : tensor<4xf32>
module @m {
  sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}} loc(#loc)
  func.func public @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>} loc("a")) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32> loc(#loc1)
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<4xf32> loc(#loc1)
    %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xf32>
    %3 = stablehlo.sine %2 : tensor<4xf32>
    return %3 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("mul"(#loc))
