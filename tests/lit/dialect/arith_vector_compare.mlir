// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --print-op-generic | xla-opt | FileCheck %s

// Upstream ops the lowering emits on vectors, as MLIR has them (xla_dialect/xdsl_compat.py):
// a vector compare gives a vector of i1, and arith.select takes it as its condition,
// printed with the condition's type first. Printed and read back unchanged.
// CHECK-LABEL: func.func @vector_max
// CHECK:       %[[GT:.*]] = arith.cmpf ogt, %x, %m : vector<16xf32>
// CHECK-NEXT:  %[[LT:.*]] = arith.cmpi slt, %i, %j : vector<16xi32>
// CHECK-NEXT:  %[[EITHER:.*]] = arith.ori %[[GT]], %[[LT]] : vector<16xi1>
// CHECK-NEXT:  %{{.*}} = arith.select %[[EITHER]], %x, %m : vector<16xi1>, vector<16xf32>
// CHECK-NEXT:  %{{.*}} = arith.select %c, %x, %m : vector<16xf32>
func.func @vector_max(%x: vector<16xf32>, %m: vector<16xf32>, %i: vector<16xi32>, %j: vector<16xi32>, %c: i1) -> (vector<16xf32>, vector<16xf32>) {
  %gt = arith.cmpf ogt, %x, %m : vector<16xf32>
  %lt = arith.cmpi slt, %i, %j : vector<16xi32>
  %either = arith.ori %gt, %lt : vector<16xi1>
  %r = arith.select %either, %x, %m : vector<16xi1>, vector<16xf32>
  %s = arith.select %c, %x, %m : vector<16xf32>
  func.return %r, %s : vector<16xf32>, vector<16xf32>
}
