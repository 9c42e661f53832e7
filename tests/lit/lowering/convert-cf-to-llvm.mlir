// RUN: xla-opt %s -p convert-cf-to-llvm | FileCheck %s
// RUN: xla-opt %s -p convert-cf-to-llvm | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @branches
func.func @branches(%c: i1, %a: index, %b: i32) -> i32 {
  // CHECK:      %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
  // CHECK-NEXT: llvm.cond_br %c, ^[[BB1:.*]](%[[A]] : i64), ^[[BB2:.*]]
  cf.cond_br %c, ^bb1(%a : index), ^bb2
// CHECK:      ^[[BB1]](%[[K:.*]]: i64):
// CHECK-NEXT:   %[[KI:.*]] = builtin.unrealized_conversion_cast %[[K]] : i64 to index
// CHECK-NEXT:   "test.op"(%[[KI]]) : (index) -> ()
// CHECK-NEXT:   llvm.br ^[[BB3:.*]](%b : i32)
^bb1(%k: index):
  "test.op"(%k) : (index) -> ()
  cf.br ^bb3(%b : i32)
// CHECK:      ^[[BB2]]:
// CHECK-NEXT:   %[[F:.*]] = "test.op"() : () -> i32
// CHECK-NEXT:   llvm.switch %[[F]] : i32, ^[[BB3]](%b : i32) [
// CHECK-NEXT:     1: ^[[BB3]](%[[F]] : i32),
// CHECK-NEXT:     7: ^[[BB4:.*]]
// CHECK-NEXT:   ]
^bb2:
  %f = "test.op"() : () -> i32
  cf.switch %f : i32, [
    default: ^bb3(%b : i32),
    1: ^bb3(%f : i32),
    7: ^bb4
  ]
// CHECK:      ^[[BB3]](%[[R:.*]]: i32):
// CHECK-NEXT:   func.return %[[R]] : i32
^bb3(%r: i32):
  func.return %r : i32
// CHECK:      ^[[BB4]]:
// CHECK-NEXT:   %[[TRUE:.*]] = "test.op"() : () -> i1
// CHECK-NEXT:   llvm.cond_br %[[TRUE]], ^[[CONT:.*]], ^[[FAIL:.*]]
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT:   llvm.call_intrinsic "llvm.trap"() : () -> ()
// CHECK-NEXT:   llvm.unreachable
// CHECK-NEXT: ^[[CONT]]:
// CHECK-NEXT:   func.return %b : i32
^bb4:
  %t = "test.op"() : () -> i1
  cf.assert %t, "must hold"
  func.return %b : i32
}

// An index switch flag becomes i64.
// CHECK-LABEL: func.func @index_switch
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    llvm.switch %[[I]] : i64, ^[[DEFAULT:[a-z0-9]+]] [
// CHECK-NEXT:      3: ^[[DEFAULT]]
// CHECK-NEXT:    ]
func.func @index_switch(%i: index) {
  cf.switch %i : index, [
    default: ^bb1,
    3: ^bb1
  ]
^bb1:
  func.return
}
