// RUN: xla-opt %s -p lower-scf-to-cf | FileCheck %s

// CHECK-LABEL: func.func @while_loop
func.func @while_loop(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // CHECK:      cf.br ^[[BEFORE:.*]](%n, %c0 : i64, i64)
  // CHECK-NEXT: ^[[BEFORE]](%[[X:.*]]: i64, %[[S:.*]]: i64):
  // CHECK-NEXT:   %[[COND:.*]] = arith.cmpi sgt, %[[X]], %c0 : i64
  // CHECK-NEXT:   cf.cond_br %[[COND]], ^[[AFTER:.*]](%[[X]], %[[S]] : i64, i64), ^[[EXIT:.*]](%[[X]], %[[S]] : i64, i64)
  // CHECK-NEXT: ^[[AFTER]](%[[Y:.*]]: i64, %[[T:.*]]: i64):
  // CHECK-NEXT:   %[[Y1:.*]] = arith.subi %[[Y]], %c1 : i64
  // CHECK-NEXT:   %[[T1:.*]] = arith.addi %[[T]], %[[Y]] : i64
  // CHECK-NEXT:   cf.br ^[[BEFORE]](%[[Y1]], %[[T1]] : i64, i64)
  // CHECK-NEXT: ^[[EXIT]](%{{.*}}: i64, %[[R:.*]]: i64):
  // CHECK-NEXT:   func.return %[[R]] : i64
  %r:2 = scf.while (%x = %n, %s = %c0) : (i64, i64) -> (i64, i64) {
    %cond = arith.cmpi sgt, %x, %c0 : i64
    scf.condition(%cond) %x, %s : i64, i64
  } do {
  ^bb0(%y: i64, %t: i64):
    %y1 = arith.subi %y, %c1 : i64
    %t1 = arith.addi %t, %y : i64
    scf.yield %y1, %t1 : i64, i64
  }
  func.return %r#1 : i64
}

// CHECK-LABEL: func.func @switch
func.func @switch(%i: index) -> i32 {
  // CHECK:      %[[F:.*]] = arith.index_cast %i : index to i64
  // CHECK-NEXT: cf.switch %[[F]] : i64, [
  // CHECK-NEXT:   default: ^[[DEF:.*]],
  // CHECK-NEXT:   2: ^[[C2:.*]],
  // CHECK-NEXT:   5000000000: ^[[C5:.*]]
  // CHECK-NEXT: ]
  // CHECK-NEXT: ^[[C2]]:
  // CHECK-NEXT:   %[[A:.*]] = arith.constant 20 : i32
  // CHECK-NEXT:   cf.br ^[[CONT:.*]](%[[A]] : i32)
  // CHECK-NEXT: ^[[C5]]:
  // CHECK-NEXT:   %[[B:.*]] = arith.constant 50 : i32
  // CHECK-NEXT:   cf.br ^[[CONT]](%[[B]] : i32)
  // CHECK-NEXT: ^[[DEF]]:
  // CHECK-NEXT:   %[[C:.*]] = arith.constant -1 : i32
  // CHECK-NEXT:   cf.br ^[[CONT]](%[[C]] : i32)
  // CHECK-NEXT: ^[[CONT]](%[[R:.*]]: i32):
  // CHECK-NEXT:   func.return %[[R]] : i32
  %r = scf.index_switch %i -> i32
  case 2 {
    %a = arith.constant 20 : i32
    scf.yield %a : i32
  }
  case 5000000000 {
    %b = arith.constant 50 : i32
    scf.yield %b : i32
  }
  default {
    %c = arith.constant -1 : i32
    scf.yield %c : i32
  }
  func.return %r : i32
}

// scf.for and scf.if use xDSL's lowerings.
// CHECK-LABEL: func.func @for_if
// CHECK-NOT:   scf.
// CHECK:       func.return
func.func @for_if(%lb: index, %ub: index, %c: i1) {
  %s = arith.constant 1 : index
  scf.for %iv = %lb to %ub step %s {
    scf.if %c {
      "test.op"(%iv) : (index) -> ()
    }
  }
  func.return
}

// CHECK-LABEL: func.func @execute_region
// CHECK:         cf.br ^[[BODY:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %[[V:.*]] = "test.op"() : () -> i32
// CHECK-NEXT:    cf.br ^[[CONT:.*]](%[[V]] : i32)
// CHECK-NEXT:  ^[[CONT]](%[[R:.*]]: i32):
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @execute_region() -> i32 {
  %r = scf.execute_region -> (i32) {
    %v = "test.op"() : () -> i32
    scf.yield %v : i32
  }
  func.return %r : i32
}
