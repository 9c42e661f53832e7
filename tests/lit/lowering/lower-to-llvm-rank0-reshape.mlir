// RUN: xla-opt %s --split-input-file -p lower-to-llvm | FileCheck %s

// A reshape from rank 0 expands with no reassociation groups, as MLIR allows
// (issue 17: xDSL's verifier rejected the tensor.expand_shape it produced).
// CHECK-LABEL: llvm.func @reshape_rank0
// CHECK: llvm.return
func.func @reshape_rank0(%a: tensor<i32>) -> tensor<1x1xi32> {
  %0 = xla.reshape %a : (tensor<i32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

// CHECK-LABEL: llvm.func @scan_rank1
// CHECK: llvm.return
func.func @scan_rank1(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}
