// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{ldexp=bits division=divide}' | FileCheck %s
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{ldexp=native division=divide}' | FileCheck %s --check-prefix=NATIVE
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{ldexp=bits division=reciprocal}' | FileCheck %s --check-prefix=RECIP
// RUN: not xla-opt %s --split-input-file -p 'math-polynomial-approximation{division=foo}' 2>&1 | FileCheck %s --check-prefix=BADDIV
// BADDIV: error: math-polynomial-approximation: division=foo is not one of auto, divide, reciprocal
// RUN: not xla-opt %s --split-input-file -p 'math-polynomial-approximation{ldexp=foo}' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: math-polynomial-approximation: ldexp=foo is not one of auto, native, bits
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{functions=tanh}' | FileCheck %s --check-prefix=ONLY

// exp: clamp, Cody-Waite reduction with fmas, exp(r) as one polynomial from 1,
// 2^k built in the exponent field (two factors), NaN selected back in (fptosi of
// the NaN the clamp let through would be poison).
// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT:     math.exp
// CHECK:         arith.cmpf ogt
// CHECK:         math.roundeven
// CHECK:         math.fma
// CHECK:         arith.fptosi {{.*}} : f32 to i32
// CHECK:         arith.shli
// CHECK:         arith.bitcast {{.*}} : i32 to f32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %x, %x : f32
// CHECK:         arith.select %[[NAN]], %x, {{.*}} : f32
// CHECK-NOT:     math.exp
// CHECK:         func.return
// ONLY-LABEL: func.func @exp_f32
// ONLY:         math.exp
// ldexp=native: k by llvm.lrint (vcvtps2dq) and back, one llvm.ldexp (vscalefps on
// AVX-512) scales by 2^k instead of the factors built from bits. The clamp keeps a
// NaN (x is the select's false operand), which goes through to the result: no
// compare-and-select for it.
// NATIVE-LABEL: func.func @exp_f32
// NATIVE-NOT:     math.roundeven
// NATIVE:         %[[LOW:.*]] = arith.cmpf olt, %x, %{{.*}} : f32
// NATIVE-NEXT:    arith.select %[[LOW]], %{{.*}}, %x : f32
// NATIVE-NOT:     arith.cmpf uno
// NATIVE:         %[[K:.*]] = llvm.call_intrinsic "llvm.lrint.i32.f32"({{.*}}) : (f32) -> i32
// NATIVE-NEXT:    arith.sitofp %[[K]] : i32 to f32
// NATIVE-NOT:     arith.fptosi
// NATIVE-NOT:     arith.shli
// NATIVE-NOT:     arith.cmpf uno
// exp(r) is one Horner chain ending in `fma(.., r, 1)`: no `1 + p` add.
// NATIVE-NOT:     arith.addf
// NATIVE:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// NATIVE-NEXT:    %[[S:.*]] = math.fma %{{.*}}, %[[R:.*]], %[[ONE]] : f32
// NATIVE-NEXT:    %[[E:.*]] = math.fma %[[S]], %[[R]], %[[ONE]] : f32
// NATIVE-NEXT:    %[[Y:.*]] = llvm.call_intrinsic "llvm.ldexp.f32.i32"(%[[E]], %[[K]]) : (f32, i32) -> f32
// NATIVE-NEXT:    func.return %[[Y]] : f32
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  func.return %0 : f32
}

// -----

// The same code on vectors: splat constants, vector comparisons (vector<16xi1>) and selects.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT:     math.exp
// CHECK:         arith.constant dense<1.44269502> : vector<16xf32>
// CHECK:         math.fma {{.*}} : vector<16xf32>
// CHECK:         arith.fptosi {{.*}} : vector<16xf32> to vector<16xi32>
// CHECK:         arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:         arith.select {{.*}} : vector<16xi1>, vector<16xf32>
// NATIVE-LABEL: func.func @exp_vector
// NATIVE:         llvm.call_intrinsic "llvm.ldexp.v16f32.v16i32"({{.*}}) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  func.return %0 : vector<16xf32>
}

// -----

// log: the exponent from the bits (minus those of sqrt(1/2)), subnormals
// scaled first, special values by select.
// CHECK-LABEL: func.func @log_f32
// CHECK-NOT:     math.log
// CHECK:         arith.constant 1.17549435E-38 : f32
// CHECK:         arith.bitcast {{.*}} : f32 to i32
// CHECK:         arith.constant 1060439283 : i32
// CHECK:         arith.shrsi
// CHECK:         math.fma
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         arith.select
// CHECK:         func.return
func.func @log_f32(%x: f32) -> f32 {
  %0 = math.log %x : f32
  func.return %0 : f32
}

// -----

// tanh: odd polynomial for small |x|, above `1 - 2 / (1 + e^(2|x|))` with `1 + e^(2|x|)`
// one fma `t p + (1 + t)`, copysign.
// CHECK-LABEL: func.func @tanh_vector
// CHECK-NOT:     math.tanh
// CHECK:         math.absf {{.*}} : vector<16xf32>
// CHECK:         %[[A:.*]] = arith.select
// CHECK:         arith.addf %[[A]], %[[A]] : vector<16xf32>
// CHECK:         %[[T:.*]] = arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:         %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK:         %[[ONE_T:.*]] = arith.addf %{{.*}}, %[[T]] : vector<16xf32>
// CHECK-NEXT:    %[[DEN:.*]] = math.fma %[[T]], %{{.*}}, %[[ONE_T]] : vector<16xf32>
// CHECK-NEXT:    arith.divf %[[TWO]], %[[DEN]] : vector<16xf32>
// CHECK:         math.copysign {{.*}} : vector<16xf32>
// ONLY-LABEL: func.func @tanh_vector
// ONLY-NOT:     math.tanh
// division=reciprocal (Intel's AVX-512 targets): 2 / den as r = 1 / den marked for
// LLVM's refined estimate, q0 = 2 r, then q0 - (den q0 - 2) r; no exact division.
// RECIP-LABEL: func.func @tanh_vector
// RECIP:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// RECIP:         %[[TWO:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// RECIP:         %[[DEN:.*]] = math.fma
// RECIP-NEXT:    %[[R:.*]] = arith.divf %[[ONE]], %[[DEN]] fastmath<ninf,arcp,contract> : vector<16xf32>
// RECIP-NEXT:    %[[Q0:.*]] = arith.mulf %[[TWO]], %[[R]] : vector<16xf32>
// RECIP-NEXT:    %[[MTWO:.*]] = arith.negf %[[TWO]] : vector<16xf32>
// RECIP-NEXT:    %[[RES:.*]] = math.fma %[[DEN]], %[[Q0]], %[[MTWO]] : vector<16xf32>
// RECIP-NEXT:    %[[NRES:.*]] = arith.negf %[[RES]] : vector<16xf32>
// RECIP-NEXT:    %[[Q:.*]] = math.fma %[[NRES]], %[[R]], %[[Q0]] : vector<16xf32>
// RECIP-NEXT:    arith.subf %[[ONE]], %[[Q]] : vector<16xf32>
// RECIP-NOT:     arith.divf
// RECIP:         math.copysign
// ldexp=native: t = 2^k is ldexp(1, k), k by lrint; a NaN goes through (no
// compare-and-select for it): the copysign is the result.
// NATIVE-LABEL: func.func @tanh_vector
// NATIVE-NOT:     arith.cmpf uno
// NATIVE:         %[[K:.*]] = llvm.call_intrinsic "llvm.lrint.v16i32.v16f32"
// NATIVE:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// NATIVE:         %[[T:.*]] = llvm.call_intrinsic "llvm.ldexp.v16f32.v16i32"(%[[ONE]], %[[K]])
// NATIVE:         math.fma %[[T]], {{.*}} : vector<16xf32>
// NATIVE:         arith.divf
// NATIVE-NOT:     arith.cmpf uno
// NATIVE:         %[[Y:.*]] = math.copysign {{.*}} : vector<16xf32>
// NATIVE-NEXT:    func.return %[[Y]]
func.func @tanh_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.tanh %x : vector<16xf32>
  func.return %0 : vector<16xf32>
}

// -----

// sin: reduced in f64 (Cody-Waite and Payne-Hanek with i64 products, selected),
// rounded to f32 once.
// CHECK-LABEL: func.func @sin_f32
// CHECK-NOT:     math.sin
// CHECK:         arith.extf {{.*}} : f32 to f64
// CHECK:         arith.muli {{.*}} : i64
// CHECK:         arith.truncf {{.*}} : f64 to f32
// CHECK:         func.return
func.func @sin_f32(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  func.return %0 : f32
}

// -----

// erf: x P(x^2) below 1, `1 - exp(-x^2) M(|x| - 3/2)` on [1, 3.92] above (erf is 1
// beyond): no division (erfc's tail has two).
// CHECK-LABEL: func.func @erf_f32
// CHECK-NOT:     arith.divf
// CHECK:         arith.constant 3.920000e+00 : f32
// CHECK-NOT:     arith.divf
// CHECK:         arith.constant -3.88881745E-4 : f32
// CHECK-NOT:     arith.divf
// CHECK:         math.copysign
// CHECK-NOT:     arith.divf
// CHECK:         func.return
func.func @erf_f32(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  func.return %0 : f32
}

// -----

// f16 computes in f32 and rounds once; f64 is left to libm/intrinsics.
// CHECK-LABEL: func.func @widths
// CHECK:         arith.extf %h : f16 to f32
// CHECK-NOT:     math.erf {{.*}} : f32
// CHECK:         arith.truncf {{.*}} : f32 to f16
// CHECK:         math.erf %d : f64
// CHECK:         math.powf %d, %d : f64
func.func @widths(%h: f16, %d: f64) -> (f16, f64, f64) {
  %0 = math.erf %h : f16
  %1 = math.erf %d : f64
  %2 = math.powf %d, %d : f64
  func.return %0, %1, %2 : f16, f64, f64
}

// -----

// powf, atan2, cbrt, expm1, log1p, rsqrt: no math op of theirs is left.
// CHECK-LABEL: func.func @others
// CHECK-NOT:     math.powf
// CHECK-NOT:     math.atan2
// CHECK-NOT:     math.cbrt
// CHECK-NOT:     math.expm1
// CHECK-NOT:     math.log1p
// CHECK-NOT:     math.rsqrt
// CHECK:         func.return
func.func @others(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32) {
  %0 = math.powf %x, %y : f32
  %1 = math.atan2 %x, %y : f32
  %2 = math.cbrt %x : f32
  %3 = math.expm1 %x : f32
  %4 = math.log1p %x : f32
  %5 = math.rsqrt %x : f32
  func.return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// -----

// 1 + tanh(y) (tanh-GELU's), its tanh's one use: expanded with the add as
// 2 logistic(2y), `select(2y < 0, E, 1) / (1 + E)` with E = e^-|2y|: no tanh
// polynomial, clamp at 9.5 or copysign, and the add is gone. The constant 1.0 may
// be a broadcast scalar (as linalg vectorization leaves it).
// CHECK-LABEL: func.func @one_plus_tanh
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.copysign
// CHECK:         %[[Y2:.*]] = arith.addf %y, %y : vector<16xf32>
// CHECK:         math.absf %[[Y2]]
// CHECK:         %[[NEG:.*]] = arith.cmpf olt, %[[Y2]], %{{.*}} : vector<16xf32>
// CHECK:         %[[NUM:.*]] = arith.select %[[NEG]]
// CHECK:         arith.divf %[[NUM]], %{{.*}} : vector<16xf32>
// CHECK:         %[[R:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT:     math.copysign
// CHECK:         func.return %[[R]]
// ONLY-LABEL: func.func @one_plus_tanh
// ONLY-NOT:     math.tanh
// ONLY-NOT:     math.copysign
// ONLY:         func.return
func.func @one_plus_tanh(%y: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant 1.0 : f32
  %one = vector.broadcast %c : f32 to vector<16xf32>
  %t = math.tanh %y : vector<16xf32>
  %r = arith.addf %t, %one : vector<16xf32>
  func.return %r : vector<16xf32>
}

// -----

// A tanh with another use, or plus 2.0: expanded alone (its copysign), the add kept.
// CHECK-LABEL: func.func @tanh_used_twice
// CHECK-NOT:     math.tanh
// CHECK:         math.copysign
// CHECK:         %r = arith.addf %{{.*}}, %one : f32
// CHECK:         math.copysign
// CHECK:         %s = arith.addf %two, %{{.*}} : f32
func.func @tanh_used_twice(%y: f32) -> (f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %t = math.tanh %y : f32
  %r = arith.addf %t, %one : f32
  %u = math.tanh %y : f32
  %s = arith.addf %two, %u : f32
  func.return %r, %t, %s : f32, f32, f32
}

// -----

// tanh-GELU's `0.5 (1 + tanh(c u))`: 2y of y = c u is one multiply by 2c (no
// `y + y`), and the half of `2 logistic(2y)` is logistic(2y) itself (no doubling
// and halving: the 0.5 multiply is gone); exp's argument -|2y| is clamped only
// from below (no compare with 89). The other tanh (no 0.5 after it) keeps the doubling.
// NATIVE-LABEL: func.func @half_one_plus_tanh
// NATIVE-NOT:     math.tanh
// NATIVE:         %[[C2:.*]] = arith.constant 1.600000e+00 : f32
// NATIVE:         %[[Y2:.*]] = arith.mulf %u, %[[C2]] : f32
// NATIVE-NOT:     arith.addf
// NATIVE:         %[[A:.*]] = math.absf %[[Y2]] : f32
// NATIVE:         %[[N:.*]] = arith.negf %[[A]] : f32
// NATIVE:         arith.cmpf olt, %[[N]], %{{.*}} : f32
// NATIVE-NOT:     8.900000e+01
// NATIVE:         %[[Q:.*]] = arith.divf
// NATIVE-NOT:     arith.mulf
// NATIVE:         arith.addf %y2, %y2 : f32
// NATIVE:         %[[Q2:.*]] = arith.divf
// NATIVE:         %[[D:.*]] = arith.mulf %{{.*}}, %[[Q2]] : f32
// NATIVE:         func.return %[[Q]], %[[D]] : f32, f32
func.func @half_one_plus_tanh(%u: f32, %v: f32) -> (f32, f32) {
  %c = arith.constant 0.8 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %y = arith.mulf %u, %c : f32
  %t = math.tanh %y : f32
  %s = arith.addf %one, %t : f32
  %r = arith.mulf %half, %s : f32
  %z = arith.addf %v, %v : f32
  %y2 = arith.subf %z, %v : f32
  %t2 = math.tanh %y2 : f32
  %s2 = arith.addf %t2, %one : f32
  func.return %r, %s2 : f32, f32
}
