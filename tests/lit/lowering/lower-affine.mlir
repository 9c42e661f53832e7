// RUN: xla-opt %s -p lower-affine | FileCheck %s

// The project's `lower-affine` gives xDSL's result (the same patterns once per
// affine op, then trivially dead ops erased to a fixed point): maps expand into
// arith ops before the access, and the dead chain (%dead0, %dead1), the unused load,
// the loop that only reads and the constants only it used are gone.
// CHECK-LABEL: func.func @loads
// CHECK-NEXT:    %[[K8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %i, %[[K8]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[M]], %j : index
// CHECK-NEXT:    %[[K2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[K:.*]] = arith.addi %[[A]], %[[K2]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[J1:.*]] = arith.addi %j, %[[ONE]] : index
// CHECK-NEXT:    %x = memref.load %m[%i, %[[J1]]] : memref<8x8xf32>
// CHECK-NEXT:    memref.store %x, %m[%j, %i] : memref<8x8xf32>
// CHECK-NEXT:    %keep = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:    %f = arith.sitofp %keep : i64 to f32
// CHECK-NEXT:    %y = arith.addf %x, %f : f32
// CHECK-NEXT:    func.return %y : f32
// CHECK-NEXT:  }
func.func @loads(%m: memref<8x8xf32>, %i: index, %j: index) -> f32 {
  %k = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 + 2)>(%i, %j)
  %x = "affine.load"(%m, %i, %j) <{map = affine_map<(d0, d1) -> (d0, d1 + 1)>}> : (memref<8x8xf32>, index, index) -> f32
  "affine.store"(%x, %m, %j, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (f32, memref<8x8xf32>, index, index) -> ()
  %dead0 = arith.addi %k, %i : index
  %dead1 = arith.muli %dead0, %dead0 : index
  %unused = memref.load %m[%i, %j] : memref<8x8xf32>
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %c8 step %c1 {
    %r = memref.load %m[%t, %t] : memref<8x8xf32>
  }
  %keep = arith.index_cast %k : index to i64
  %f = arith.sitofp %keep : i64 to f32
  %y = arith.addf %x, %f : f32
  func.return %y : f32
}
