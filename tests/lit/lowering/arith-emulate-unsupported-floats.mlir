// RUN: xla-opt %s -p arith-emulate-unsupported-floats | FileCheck %s
// RUN: xla-opt %s -p 'arith-emulate-unsupported-floats{source-types=bf16,f16 target-type=f64}' | FileCheck %s --check-prefix=F64
// RUN: not xla-opt %s -p 'arith-emulate-unsupported-floats{target-type=i32}' 2>&1 | FileCheck %s --check-prefix=ERR

// Each bf16 op is computed in f32 and rounded back; constants and selects stay
// bf16, fast-math flags are kept.
// CHECK-LABEL: func.func @arith(
// CHECK-NEXT:    %[[CST:.*]] = arith.constant 1.500000e+00 : bf16
// CHECK-NEXT:    %[[A:.*]] = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %[[B:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[ADD:.*]] = arith.addf %[[A]], %[[B]] fastmath<fast> : f32
// CHECK-NEXT:    %[[ADD16:.*]] = arith.truncf %[[ADD]] : f32 to bf16
// CHECK-NEXT:    %[[X:.*]] = arith.extf %[[ADD16]] : bf16 to f32
// CHECK-NEXT:    %[[C:.*]] = arith.extf %[[CST]] : bf16 to f32
// CHECK-NEXT:    %[[MUL:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT:    %[[MUL16:.*]] = arith.truncf %[[MUL]] : f32 to bf16
// CHECK-NEXT:    %[[Y:.*]] = arith.extf %[[MUL16]] : bf16 to f32
// CHECK-NEXT:    %[[B2:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[MAX:.*]] = arith.maximumf %[[Y]], %[[B2]] : f32
// CHECK-NEXT:    %[[MAX16:.*]] = arith.truncf %[[MAX]] : f32 to bf16
// CHECK-NEXT:    %[[Z:.*]] = arith.extf %[[MAX16]] : bf16 to f32
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[Z]] : f32
// CHECK-NEXT:    %[[NEG16:.*]] = arith.truncf %[[NEG]] : f32 to bf16
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %c, %[[NEG16]], %a : bf16
// CHECK-NEXT:    %[[I:.*]] = arith.sitofp %i : i32 to f32
// CHECK-NEXT:    %[[I16:.*]] = arith.truncf %[[I]] : f32 to bf16
// CHECK-NEXT:    %[[S:.*]] = arith.extf %[[SEL]] : bf16 to f32
// CHECK-NEXT:    %[[D:.*]] = arith.extf %[[I16]] : bf16 to f32
// CHECK-NEXT:    %[[DIV:.*]] = arith.divf %[[S]], %[[D]] : f32
// CHECK-NEXT:    %[[DIV16:.*]] = arith.truncf %[[DIV]] : f32 to bf16
// CHECK-NEXT:    func.return %[[DIV16]] : bf16
func.func @arith(%a: bf16, %b: bf16, %i: i32, %c: i1) -> bf16 {
  %cst = arith.constant 1.5 : bf16
  %0 = arith.addf %a, %b fastmath<fast> : bf16
  %1 = arith.mulf %0, %cst : bf16
  %2 = arith.maximumf %1, %b : bf16
  %3 = arith.negf %2 : bf16
  %4 = arith.select %c, %3, %a : bf16
  %5 = arith.sitofp %i : i32 to bf16
  %6 = arith.divf %4, %5 : bf16
  func.return %6 : bf16
}

// Comparisons and float → int conversions widen their operands only; an operand
// used twice is widened once.
// CHECK-LABEL: func.func @compare(
// CHECK-NEXT:    %[[A:.*]] = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %[[B:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[A2:.*]] = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[A2]] : f32 to i32
// CHECK-NEXT:    %[[A3:.*]] = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %[[UNO:.*]] = arith.cmpf uno, %[[A3]], %[[A3]] : f32
// CHECK-NEXT:    func.return %[[LT]], %[[I]], %[[UNO]] : i1, i32, i1
func.func @compare(%a: bf16, %b: bf16) -> (i1, i32, i1) {
  %0 = arith.cmpf olt, %a, %b : bf16
  %1 = arith.fptosi %a : bf16 to i32
  %2 = arith.cmpf uno, %a, %a : bf16
  func.return %0, %1, %2 : i1, i32, i1
}

// math ops, on vectors too; llvm.frem (the float remainder of the scalar
// lowering of xla.remainder) as well.
// CHECK-LABEL: func.func @math(
// CHECK-NEXT:    %[[A:.*]] = arith.extf %a : vector<4xbf16> to vector<4xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[A]] : vector<4xf32>
// CHECK-NEXT:    %[[E16:.*]] = arith.truncf %[[E]] : vector<4xf32> to vector<4xbf16>
// CHECK-NEXT:    %[[X:.*]] = arith.extf %[[E16]] : vector<4xbf16> to vector<4xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[X]] : vector<4xf32>
// CHECK-NEXT:    %[[T16:.*]] = arith.truncf %[[T]] : vector<4xf32> to vector<4xbf16>
// CHECK-NEXT:    %[[S:.*]] = arith.extf %s : bf16 to f32
// CHECK-NEXT:    %[[R:.*]] = llvm.frem %[[S]], %[[S]] : f32
// CHECK-NEXT:    %[[R16:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT:    func.return %[[T16]], %[[R16]] : vector<4xbf16>, bf16
func.func @math(%a: vector<4xbf16>, %s: bf16) -> (vector<4xbf16>, bf16) {
  %0 = math.exp %a : vector<4xbf16>
  %1 = math.tanh %0 : vector<4xbf16>
  %2 = llvm.frem %s, %s : bf16
  func.return %1, %2 : vector<4xbf16>, bf16
}

// Ops that only move or convert bits keep bf16; other float types are left alone
// by default.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    %[[E:.*]] = arith.extf %a : bf16 to f32
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %x : f32 to bf16
// CHECK-NEXT:    %[[H:.*]] = arith.addf %y, %y : f16
// CHECK-NEXT:    %[[I:.*]] = arith.bitcast %a : bf16 to i16
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[T]], %m[%[[C0]]] : memref<4xbf16>
// CHECK-NEXT:    func.return %[[E]], %[[T]], %[[H]], %[[I]] : f32, bf16, f16, i16

// With source-types=bf16,f16 and target-type=f64, f16 ops are computed in f64:
// F64-LABEL: func.func @untouched(
// F64-NEXT:    %{{.*}} = arith.extf %a : bf16 to f32
// F64-NEXT:    %{{.*}} = arith.truncf %x : f32 to bf16
// F64-NEXT:    %[[Y:.*]] = arith.extf %y : f16 to f64
// F64-NEXT:    %[[ADD:.*]] = arith.addf %[[Y]], %[[Y]] : f64
// F64-NEXT:    %{{.*}} = arith.truncf %[[ADD]] : f64 to f16
func.func @untouched(%a: bf16, %x: f32, %y: f16, %m: memref<4xbf16>) -> (f32, bf16, f16, i16) {
  %0 = arith.extf %a : bf16 to f32
  %1 = arith.truncf %x : f32 to bf16
  %2 = arith.addf %y, %y : f16
  %3 = arith.bitcast %a : bf16 to i16
  %c0 = arith.constant 0 : index
  memref.store %1, %m[%c0] : memref<4xbf16>
  func.return %0, %1, %2, %3 : f32, bf16, f16, i16
}

// ERR: error: arith-emulate-unsupported-floats: 'i32' is not a float type

// f8/f6/f4 are sources by default. Their ops are computed in f32 like bf16,
// and every conversion from/to them is expanded into integer code on the bits
// (they reach LLVM as i8): decoding builds significand * 2^(e - bias - m) in
// f32 and picks the format's NaN; encoding rounds the f32 bits to nearest
// even and applies the format's overflow rule (f8E4M3FN: 127 = NaN).
// CHECK-LABEL: func.func @f8_add(
// CHECK-NEXT:    %[[ABITS:.*]] = builtin.unrealized_conversion_cast %a : f8E4M3FN to i8
// CHECK-NEXT:    %[[A32:.*]] = arith.extui %[[ABITS]] : i8 to i32
// CHECK:         %[[SIG:.*]] = arith.uitofp %{{.*}} : i32 to f32
// CHECK-NEXT:    %[[MAG:.*]] = arith.mulf %[[SIG]], %{{.*}} : f32
// CHECK:         builtin.unrealized_conversion_cast %b : f8E4M3FN to i8
// CHECK:         %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[NAN:.*]] = arith.constant 127 : i8
// CHECK:         %[[R:.*]] = builtin.unrealized_conversion_cast %{{.*}} : i8 to f8E4M3FN
// CHECK-NEXT:    func.return %[[R]] : f8E4M3FN
// CHECK-NOT:     arith.addf {{.*}} : f8E4M3FN
func.func @f8_add(%a: f8E4M3FN, %b: f8E4M3FN) -> f8E4M3FN {
  %0 = arith.addf %a, %b : f8E4M3FN
  func.return %0 : f8E4M3FN
}

// Conversions already in the IR: f64 is rounded to f32 first (as ml_dtypes
// does); f8E5M2 overflows to inf (124); widening to f64 decodes to f32 first.
// Constants and selects keep the narrow type (the LLVM conversion stores bits).
// CHECK-LABEL: func.func @f8_convert(
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.500000e+00 : f8E5M2
// CHECK-NEXT:    %[[X32:.*]] = arith.truncf %x : f64 to f32
// CHECK-NEXT:    %{{.*}} = arith.bitcast %[[X32]] : f32 to i32
// CHECK:         %{{.*}} = arith.constant 124 : i32
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %{{.*}} : i8 to f8E5M2
// CHECK-NEXT:    %[[S:.*]] = arith.select %p, %[[N]], %[[C]] : f8E5M2
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[S]] : f8E5M2 to i8
// CHECK:         %[[W:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:         %[[D:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:    func.return %[[D]] : f64
func.func @f8_convert(%x: f64, %p: i1) -> f64 {
  %c = arith.constant 1.5 : f8E5M2
  %0 = arith.truncf %x : f64 to f8E5M2
  %1 = arith.select %p, %0, %c : f8E5M2
  %2 = arith.extf %1 : f8E5M2 to f64
  func.return %2 : f64
}

// f6 types: no NaN, no inf; saturation to the largest finite value (31 = 7.5),
// NaN becomes the zero of the opposite sign (ml_dtypes' choice).
// CHECK-LABEL: func.func @f6_saturate(
// CHECK:         %[[MAX:.*]] = arith.constant 31 : i8
// CHECK-NEXT:    %[[SAT:.*]] = arith.ori %{{.*}}, %[[MAX]] : i8
// CHECK-NEXT:    %[[NANBIT:.*]] = arith.constant 32 : i8
// CHECK-NEXT:    %[[NAN:.*]] = arith.xori %{{.*}}, %[[NANBIT]] : i8
// CHECK:         %[[PICK:.*]] = arith.select %{{.*}}, %[[SAT]], %{{.*}} : i8
// CHECK-NEXT:    %[[OUT:.*]] = arith.select %{{.*}}, %[[NAN]], %[[PICK]] : i8
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[OUT]] : i8 to f6E2M3FN
func.func @f6_saturate(%x: f32) -> f6E2M3FN {
  %0 = arith.truncf %x : f32 to f6E2M3FN
  func.return %0 : f6E2M3FN
}
