// RUN: xla-opt %s -t stablehlo | FileCheck %s
// RUN: xla-opt %s -t stablehlo | xla-opt -t stablehlo | FileCheck %s

// What upstream StableHLO requires of printed modules (issue 17): every field of
// channel_handle, output_operand_alias and dot_algorithm, `stablehlo.broadcast`,
// and the `()` of an optimization_barrier without operands.
// CHECK-LABEL: func.func @upstream_forms
func.func @upstream_forms(%x: tensor<4xf32>, %m: tensor<2x2xf32>) -> tensor<4xf32> {
  // CHECK: channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>
  %0 = "xla.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #xla.channel_handle<handle = 1>} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: stablehlo.broadcast %x, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  %1 = xla.broadcast %x, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: stablehlo.optimization_barrier()
  xla.optimization_barrier()
  // CHECK: #stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>
  %2 = xla.custom_call @alias(%x) {output_operand_aliases = [#xla.output_operand_alias<operand_index = 0>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
