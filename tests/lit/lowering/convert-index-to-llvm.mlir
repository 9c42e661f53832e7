// RUN: xla-opt %s -p convert-index-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @casts
func.func @casts(%i: index, %n: i32, %w: i64) {
  // CHECK:      %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK-NEXT: %[[T:.*]] = llvm.trunc %[[I]] : i64 to i32
  %0 = arith.index_cast %i : index to i32
  // CHECK-NEXT: %[[S:.*]] = llvm.sext %n : i32 to i64
  // CHECK-NEXT: %[[SI:.*]] = builtin.unrealized_conversion_cast %[[S]] : i64 to index
  %1 = arith.index_cast %n : i32 to index
  // same width: no op
  // CHECK-NEXT: %[[W:.*]] = builtin.unrealized_conversion_cast %w : i64 to index
  %2 = arith.index_cast %w : i64 to index
  // CHECK-NEXT: "test.op"(%[[T]], %[[SI]], %[[W]])
  "test.op"(%0, %1, %2) : (i32, index, index) -> ()
  // other arith ops are left alone
  // CHECK: arith.addi
  %3 = arith.addi %i, %i : index
  "test.op"(%3) : (index) -> ()
  func.return
}
