// RUN: xla-opt %s --split-input-file -p arith-unique-constants | FileCheck %s

// After lower-scf-to-cf a kernel repeats its constants in several blocks: each value
// and type is kept once, at the top of the entry block, and its repeats' uses take it.
// Values of different types (0 : index and 0 : i32), and -0.0 and 0.0, stay apart.
// CHECK-LABEL: func.func @kernel(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[PZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    cf.br ^[[HEAD:.*]](%[[C0]] : index)
// CHECK:       ^[[HEAD]](%[[I:.*]]: index):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[C8]] : index
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK:       ^[[BODY]]:
// CHECK-NEXT:    memref.store %[[NZ]], %a[%[[I]]] : memref<8xf32>
// CHECK-NEXT:    memref.store %[[PZ]], %b[%[[I]]] : memref<8xf32>
// CHECK-NEXT:    memref.store %[[Z]], %c[%[[C0]]] : memref<1xi32>
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT:    cf.br ^[[HEAD]](%[[NEXT]] : index)
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    func.return
// CHECK-NOT:   arith.constant
func.func @kernel(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  cf.br ^head(%c0 : index)
^head(%i: index):
  %c8_again = arith.constant 8 : index
  %lt = arith.cmpi slt, %i, %c8_again : index
  cf.cond_br %lt, ^body, ^exit
^body:
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %c0_again = arith.constant 0 : index
  memref.store %nz, %a[%i] : memref<8xf32>
  memref.store %pz, %b[%i] : memref<8xf32>
  memref.store %z, %c[%c0_again] : memref<1xi32>
  %next = arith.addi %i, %c1 : index
  cf.br ^head(%next : index)
^exit:
  func.return
}

// -----

// A constant inside another op's region (here still an scf.for) stays where it is.
// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for
// CHECK-NEXT:      %{{.*}} = arith.constant 2.000000e+00 : f32
func.func @nested(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %two = arith.constant 2.0 : f32
    memref.store %two, %a[%i] : memref<8xf32>
  }
  func.return
}
