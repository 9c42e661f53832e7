// RUN: xla-opt %s -p lower-scf-to-cf,convert-to-llvm | FileCheck %s
// RUN: not xla-opt %s -p convert-to-llvm 2>&1 | FileCheck %s --check-prefix=SCF

// All of func, arith, memref and cf (from scf) in one go: no casts remain.
// CHECK-LABEL: llvm.func @sum(%{{.*}}: !llvm.ptr) -> f32 {
// CHECK-NOT:     unrealized_conversion_cast
// CHECK:         llvm.br ^[[HEADER:.*]](%{{.*}}, %{{.*}} : i64, f32)
// CHECK-NEXT:  ^[[HEADER]](%[[I:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[C:.*]] = llvm.icmp "slt" %[[I]], %{{.*}} : i64
// CHECK-NEXT:    llvm.cond_br %[[C]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NEXT:    %[[ACC1:.*]] = llvm.fadd %[[ACC]], %[[V]] : f32
// CHECK-NEXT:    %[[I1:.*]] = llvm.add %[[I]], %{{.*}} : i64
// CHECK-NEXT:    llvm.br ^[[HEADER]](%[[I1]], %[[ACC1]] : i64, f32)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.return %[[ACC]] : f32
// CHECK-NOT:   unrealized_conversion_cast
func.func @sum(%m: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  // Without lower-scf-to-cf first, the scf op is reported:
  // SCF: convert-to-llvm.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op 'scf.for' was not lowered to the llvm dialect {{.*}}lower-scf-to-cf first
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %m[%i] : memref<16xf32>
    %acc1 = arith.addf %acc, %v : f32
    scf.yield %acc1 : f32
  }
  func.return %r : f32
}
