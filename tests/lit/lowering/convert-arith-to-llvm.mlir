// RUN: xla-opt %s -p convert-arith-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @ints
func.func @ints(%a: i32, %b: i32) -> i32 {
  // CHECK:      %[[C:.*]] = llvm.mlir.constant(7 : i32) : i32
  %c7 = arith.constant 7 : i32
  // CHECK-NEXT: %[[ADD:.*]] = llvm.add %a, %b overflow<nsw> : i32
  %0 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %[[SUB:.*]] = llvm.sub %[[ADD]], %[[C]] : i32
  %1 = arith.subi %0, %c7 : i32
  // CHECK-NEXT: %[[MUL:.*]] = llvm.mul %[[SUB]], %b : i32
  %2 = arith.muli %1, %b : i32
  // CHECK-NEXT: %[[SDIV:.*]] = llvm.sdiv %[[MUL]], %b : i32
  %3 = arith.divsi %2, %b : i32
  // CHECK-NEXT: %[[UDIV:.*]] = llvm.udiv %[[SDIV]], %b : i32
  %4 = arith.divui %3, %b : i32
  // CHECK-NEXT: %[[SREM:.*]] = llvm.srem %[[UDIV]], %b : i32
  %5 = arith.remsi %4, %b : i32
  // CHECK-NEXT: %[[UREM:.*]] = llvm.urem %[[SREM]], %b : i32
  %6 = arith.remui %5, %b : i32
  // CHECK-NEXT: %[[AND:.*]] = llvm.and %[[UREM]], %a : i32
  %7 = arith.andi %6, %a : i32
  // CHECK-NEXT: %[[OR:.*]] = llvm.or %[[AND]], %a : i32
  %8 = arith.ori %7, %a : i32
  // CHECK-NEXT: %[[XOR:.*]] = llvm.xor %[[OR]], %a : i32
  %9 = arith.xori %8, %a : i32
  // CHECK-NEXT: %[[SHL:.*]] = llvm.shl %[[XOR]], %b : i32
  %10 = arith.shli %9, %b : i32
  // CHECK-NEXT: %[[ASHR:.*]] = llvm.ashr %[[SHL]], %b : i32
  %11 = arith.shrsi %10, %b : i32
  // CHECK-NEXT: %[[LSHR:.*]] = llvm.lshr %[[ASHR]], %b : i32
  %12 = arith.shrui %11, %b : i32
  // CHECK-NEXT: %[[SMIN:.*]] = llvm.call_intrinsic "llvm.smin.i32"(%[[LSHR]], %a) : (i32, i32) -> i32
  %13 = arith.minsi %12, %a : i32
  // CHECK-NEXT: %[[SMAX:.*]] = llvm.call_intrinsic "llvm.smax.i32"(%[[SMIN]], %a) : (i32, i32) -> i32
  %14 = arith.maxsi %13, %a : i32
  // CHECK-NEXT: %[[UMIN:.*]] = llvm.call_intrinsic "llvm.umin.i32"(%[[SMAX]], %a) : (i32, i32) -> i32
  %15 = arith.minui %14, %a : i32
  // CHECK-NEXT: %[[UMAX:.*]] = llvm.call_intrinsic "llvm.umax.i32"(%[[UMIN]], %a) : (i32, i32) -> i32
  %16 = arith.maxui %15, %a : i32
  // CHECK-NEXT: %[[CMP:.*]] = llvm.icmp "ult" %[[UMAX]], %a : i32
  %17 = arith.cmpi ult, %16, %a : i32
  // CHECK-NEXT: %[[SEL:.*]] = llvm.select %[[CMP]], %[[UMAX]], %a : i1, i32
  %18 = arith.select %17, %16, %a : i32
  // CHECK-NEXT: func.return %[[SEL]] : i32
  func.return %18 : i32
}

// CHECK-LABEL: func.func @floats
func.func @floats(%x: f32, %y: f32) -> f32 {
  // CHECK:      %[[ADD:.*]] = llvm.fadd %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
  %0 = arith.addf %x, %y fastmath<fast> : f32
  // CHECK-NEXT: %[[SUB:.*]] = llvm.fsub %[[ADD]], %y : f32
  %1 = arith.subf %0, %y : f32
  // CHECK-NEXT: %[[MUL:.*]] = llvm.fmul %[[SUB]], %y : f32
  %2 = arith.mulf %1, %y : f32
  // CHECK-NEXT: %[[DIV:.*]] = llvm.fdiv %[[MUL]], %y : f32
  %3 = arith.divf %2, %y : f32
  // CHECK-NEXT: %[[NEG:.*]] = llvm.fneg %[[DIV]] : f32
  %4 = arith.negf %3 : f32
  // CHECK-NEXT: %[[MIN:.*]] = llvm.call_intrinsic "llvm.minimum.f32"(%[[NEG]], %x) : (f32, f32) -> f32
  %5 = arith.minimumf %4, %x : f32
  // CHECK-NEXT: %[[MAX:.*]] = llvm.call_intrinsic "llvm.maximum.f32"(%[[MIN]], %x) : (f32, f32) -> f32
  %6 = arith.maximumf %5, %x : f32
  // CHECK-NEXT: %[[MINN:.*]] = llvm.call_intrinsic "llvm.minnum.f32"(%[[MAX]], %x) : (f32, f32) -> f32
  %7 = arith.minnumf %6, %x : f32
  // CHECK-NEXT: %[[MAXN:.*]] = llvm.call_intrinsic "llvm.maxnum.f32"(%[[MINN]], %x) : (f32, f32) -> f32
  %8 = arith.maxnumf %7, %x : f32
  // CHECK-NEXT: %[[CMP:.*]] = llvm.fcmp "uno" %[[MAXN]], %x : f32
  %9 = arith.cmpf uno, %8, %x : f32
  // CHECK-NEXT: %[[SEL:.*]] = llvm.select %[[CMP]], %[[MAXN]], %x : i1, f32
  %10 = arith.select %9, %8, %x : f32
  // CHECK-NEXT: %[[CST:.*]] = llvm.mlir.constant(1.500000e+00 : f32) : f32
  %c = arith.constant 1.5 : f32
  // CHECK-NEXT: %[[R:.*]] = llvm.fadd %[[SEL]], %[[CST]] : f32
  %11 = arith.addf %10, %c : f32
  func.return %11 : f32
}

// CHECK-LABEL: func.func @always
func.func @always(%x: f32) -> i1 {
  // CHECK: %[[T:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: func.return %[[T]] : i1
  %0 = arith.cmpf true, %x, %x : f32
  func.return %0 : i1
}

// CHECK-LABEL: func.func @casts
func.func @casts(%i: i32, %f: f32, %idx: index) -> i64 {
  // CHECK:      %[[IDX:.*]] = builtin.unrealized_conversion_cast %idx : index to i64
  // CHECK-NEXT: %[[C0:.*]] = llvm.sext %i : i32 to i64
  %0 = arith.extsi %i : i32 to i64
  // CHECK-NEXT: %[[C1:.*]] = llvm.zext %i : i32 to i64
  %1 = arith.extui %i : i32 to i64
  // CHECK-NEXT: %[[C2:.*]] = llvm.trunc %i : i32 to i8
  %2 = arith.trunci %i : i32 to i8
  // CHECK-NEXT: %[[C3:.*]] = llvm.sitofp %i : i32 to f64
  %3 = arith.sitofp %i : i32 to f64
  // CHECK-NEXT: %[[C4:.*]] = llvm.uitofp %i : i32 to f32
  %4 = arith.uitofp %i : i32 to f32
  // CHECK-NEXT: %[[C5:.*]] = llvm.fptosi %f : f32 to i16
  %5 = arith.fptosi %f : f32 to i16
  // CHECK-NEXT: %[[C6:.*]] = llvm.fptoui %f : f32 to i8
  %6 = arith.fptoui %f : f32 to i8
  // CHECK-NEXT: %[[C7:.*]] = llvm.fpext %f : f32 to f64
  %7 = arith.extf %f : f32 to f64
  // CHECK-NEXT: %[[C8:.*]] = llvm.fptrunc %f : f32 to f16
  %8 = arith.truncf %f : f32 to f16
  // CHECK-NEXT: %[[C9:.*]] = llvm.bitcast %f : f32 to i32
  %9 = arith.bitcast %f : f32 to i32
  // CHECK-NEXT: %[[C10:.*]] = llvm.trunc %[[IDX]] : i64 to i32
  %10 = arith.index_cast %idx : index to i32
  // CHECK-NEXT: "test.op"(%[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]], %[[C9]], %[[C10]])
  "test.op"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (i64, i64, i8, f64, f32, i16, i8, f64, f16, i32, i32) -> ()
  // index_cast to index and back folds away: a sign extension remains
  // CHECK-NEXT: %[[S:.*]] = llvm.sext %i : i32 to i64
  // CHECK-NEXT: func.return %[[S]] : i64
  %12 = arith.index_cast %i : i32 to index
  %13 = arith.index_cast %12 : index to i64
  func.return %13 : i64
}

// CHECK-LABEL: func.func @index_arith
func.func @index_arith(%a: index, %b: index) -> index {
  // CHECK-DAG:  %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
  // CHECK-DAG:  %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
  // CHECK:      %[[S:.*]] = llvm.add %[[A]], %[[B]] : i64
  // CHECK-NEXT: %[[R:.*]] = builtin.unrealized_conversion_cast %[[S]] : i64 to index
  // CHECK-NEXT: func.return %[[R]] : index
  %0 = arith.addi %a, %b : index
  func.return %0 : index
}

// CHECK-LABEL: func.func @divs
func.func @divs(%a: i32, %b: i32) -> i32 {
  // ceildivui: a == 0 ? 0 : (a - 1) / b + 1
  // CHECK:      %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[O:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[E:.*]] = llvm.icmp "eq" %a, %[[Z]] : i32
  // CHECK-NEXT: %[[M:.*]] = llvm.sub %a, %[[O]] : i32
  // CHECK-NEXT: %[[Q:.*]] = llvm.udiv %[[M]], %b : i32
  // CHECK-NEXT: %[[P:.*]] = llvm.add %[[Q]], %[[O]] : i32
  // CHECK-NEXT: %[[R:.*]] = llvm.select %[[E]], %[[Z]], %[[P]] : i1, i32
  %0 = arith.ceildivui %a, %b : i32
  // floordivsi: q - 1 when the remainder is non-zero and the signs differ
  // CHECK:      llvm.sdiv %[[R]], %b : i32
  // CHECK:      llvm.icmp "ne"
  // CHECK:      llvm.sub
  // CHECK:      llvm.select
  %1 = arith.floordivsi %0, %b : i32
  func.return %1 : i32
}
