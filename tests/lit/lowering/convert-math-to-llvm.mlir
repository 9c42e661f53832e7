// RUN: xla-opt %s -p convert-math-to-llvm | FileCheck %s

// CHECK-DAG: llvm.func @tanhf(f32) -> f32
// CHECK-DAG: llvm.func @atan2(f64, f64) -> f64
// CHECK-DAG: llvm.func @erff(f32) -> f32

// CHECK-LABEL: func.func @floats
func.func @floats(%x: f32, %y: f64, %h: f16, %v: vector<4xf32>) {
  // CHECK: llvm.call_intrinsic "llvm.sqrt.f32"(%x) : (f32) -> f32
  %0 = math.sqrt %x : f32
  // CHECK: llvm.call_intrinsic "llvm.exp.f32"(%x) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %1 = math.exp %x fastmath<fast> : f32
  // CHECK: llvm.call_intrinsic "llvm.log.f64"(%y) : (f64) -> f64
  %2 = math.log %y : f64
  // CHECK: llvm.call_intrinsic "llvm.sin.v4f32"(%v) : (vector<4xf32>) -> vector<4xf32>
  %3 = math.sin %v : vector<4xf32>
  // CHECK: llvm.call_intrinsic "llvm.fabs.f16"(%h) : (f16) -> f16
  %4 = math.absf %h : f16
  // CHECK: llvm.call_intrinsic "llvm.floor.f32"(%x) : (f32) -> f32
  %5 = math.floor %x : f32
  // CHECK: llvm.call_intrinsic "llvm.roundeven.f32"(%x) : (f32) -> f32
  %6 = math.roundeven %x : f32
  // CHECK: llvm.call_intrinsic "llvm.copysign.f32"(%x, %x) : (f32, f32) -> f32
  %7 = math.copysign %x, %x : f32
  // CHECK: llvm.call_intrinsic "llvm.pow.f64"(%y, %y) : (f64, f64) -> f64
  %8 = math.powf %y, %y : f64
  // CHECK: llvm.call_intrinsic "llvm.fma.f32"(%x, %x, %x) : (f32, f32, f32) -> f32
  %9 = math.fma %x, %x, %x : f32
  // CHECK: llvm.call @tanhf(%x) : (f32) -> f32
  %10 = math.tanh %x : f32
  // CHECK: llvm.call @atan2(%y, %y) : (f64, f64) -> f64
  %11 = math.atan2 %y, %y : f64
  // f16 goes through f32
  // CHECK:      %[[E:.*]] = llvm.fpext %h : f16 to f32
  // CHECK-NEXT: %[[C:.*]] = llvm.call @erff(%[[E]]) : (f32) -> f32
  // CHECK-NEXT: llvm.fptrunc %[[C]] : f32 to f16
  %12 = math.erf %h : f16
  // CHECK:      %[[S:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%x) : (f32) -> f32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: llvm.fdiv %[[ONE]], %[[S]] : f32
  %13 = math.rsqrt %x : f32
  "test.op"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13) : (f32, f32, f64, vector<4xf32>, f16, f32, f32, f32, f64, f32, f32, f64, f16, f32) -> ()
  func.return
}

// CHECK-LABEL: func.func @ints
func.func @ints(%i: i32, %j: i64) {
  // CHECK: llvm.call_intrinsic "llvm.ctpop.i32"(%i) : (i32) -> i32
  %0 = math.ctpop %i : i32
  // CHECK: %[[F:.*]] = llvm.mlir.constant(false) : i1
  // CHECK-NEXT: llvm.call_intrinsic "llvm.ctlz.i64"(%j, %[[F]]) : (i64, i1) -> i64
  %1 = math.ctlz %j : i64
  // CHECK: llvm.call_intrinsic "llvm.cttz.i32"(%i, %{{.*}}) : (i32, i1) -> i32
  %2 = math.cttz %i : i32
  // CHECK: llvm.call_intrinsic "llvm.abs.i32"(%i, %{{.*}}) : (i32, i1) -> i32
  %3 = math.absi %i : i32
  "test.op"(%0, %1, %2, %3) : (i32, i64, i32, i32) -> ()
  func.return
}
