// RUN: env XLA_DIALECT_TARGET=avx512 xla-opt %s -p lower-to-llvm -t llvm | FileCheck %s

// `-t llvm` prints the LLVM IR the JIT compiles, from the project's translation:
// comparisons and selects included (xDSL's own target lacks `llvm.fcmp`), fast-math
// flags in sorted order whatever Python's hash seed. For the avx512 target, whatever
// this CPU is (its tanh divides; on 256-bit targets it does not).
// CHECK:      define void @"main"(ptr noalias %".1", ptr noalias %".2", ptr noalias %".3")
// CHECK:        call ccc void @"main__{{.*}}kernel0"
// CHECK:      define internal void @"main__{{.*}}kernel0"
// CHECK:        fcmp olt float
// CHECK:        select i1
// CHECK:        fdiv arcp contract ninf float
// CHECK:        ret void
func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = xla.exponential %a : tensor<64xf32>
  %1 = xla.tanh %0 : tensor<64xf32>
  %2 = xla.multiply %1, %b : tensor<64xf32>
  return %2 : tensor<64xf32>
}
