// RUN: xla-opt %s -p lower-to-llvm --print-ir-after-all | FileCheck %s

// The named pipeline expands to its passes; each stage is printed (and verified).
// CHECK:      // -----// IR Dump After xla-decompose-batch-norm //----- //
// CHECK:      // -----// IR Dump After xla-flatten-tuples //----- //
// CHECK:      // -----// IR Dump After convert-xla-to-linalg //----- //
// CHECK:        linalg.generic
// CHECK:      // -----// IR Dump After linalg-fuse-elementwise //----- //
// CHECK:      // -----// IR Dump After bufferize //----- //
// CHECK:        func.func @main(%x: memref<4xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}, %{{.*}}: memref<4xf32> {llvm.noalias}) {
// CHECK:      // -----// IR Dump After linalg-generalize-named-ops //----- //
// CHECK:      // -----// IR Dump After linalg-interchange //----- //
// CHECK:      // -----// IR Dump After linalg-reassociate-reductions //----- //
// CHECK:      // -----// IR Dump After convert-linalg-to-parallel-loops //----- //
// CHECK:        "scf.parallel"
// CHECK:      // -----// IR Dump After convert-linalg-to-loops //----- //
// CHECK:      // -----// IR Dump After lower-affine //----- //
// CHECK:      // -----// IR Dump After arith-emulate-unsupported-floats //----- //
// CHECK:      // -----// IR Dump After convert-parallel-loops-to-calls //----- //
// CHECK-NOT:    __xla_parallel_for
// CHECK:        scf.for
// CHECK:      // -----// IR Dump After lower-scf-to-cf //----- //
// CHECK:        cf.cond_br
// CHECK:      // -----// IR Dump After convert-to-llvm //----- //
// CHECK:        llvm.func @main(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}) {
// CHECK:          llvm.fadd
// CHECK:          llvm.fmul
// CHECK-NOT:  xla.
// CHECK-NOT:  memref.
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %x, %y : tensor<4xf32>
  %1 = xla.multiply %0, %x : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
