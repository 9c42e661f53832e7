// RUN: xla-opt %s -p convert-complex-to-standard | FileCheck %s

// The textbook product on the parts; the result is rebuilt by complex.create,
// and a complex.re of it reads the part directly.
// CHECK-LABEL: func.func @mul
// CHECK-NEXT:    %[[A:.*]] = complex.re %a : complex<f32>
// CHECK-NEXT:    %[[B:.*]] = complex.im %a : complex<f32>
// CHECK-NEXT:    %[[C:.*]] = complex.re %b : complex<f32>
// CHECK-NEXT:    %[[D:.*]] = complex.im %b : complex<f32>
// CHECK-NEXT:    %[[AC:.*]] = arith.mulf %[[A]], %[[C]] : f32
// CHECK-NEXT:    %[[BD:.*]] = arith.mulf %[[B]], %[[D]] : f32
// CHECK-NEXT:    %[[RE:.*]] = arith.subf %[[AC]], %[[BD]] : f32
// CHECK-NEXT:    %[[AD:.*]] = arith.mulf %[[A]], %[[D]] : f32
// CHECK-NEXT:    %[[BC:.*]] = arith.mulf %[[B]], %[[C]] : f32
// CHECK-NEXT:    %[[IM:.*]] = arith.addf %[[AD]], %[[BC]] : f32
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[RE]], %[[RE]] : f32
// CHECK-NEXT:    %[[SUMI:.*]] = arith.addf %[[IM]], %[[IM]] : f32
// CHECK-NEXT:    %[[Z:.*]] = complex.create %[[SUM]], %[[SUMI]] : complex<f32>
// CHECK-NEXT:    func.return %[[SUM]], %[[Z]] : f32, complex<f32>
func.func @mul(%a: complex<f32>, %b: complex<f32>) -> (f32, complex<f32>) {
  %0 = complex.mul %a, %b : complex<f32>
  %1 = complex.add %0, %0 : complex<f32>
  %2 = complex.re %1 : complex<f32>
  func.return %2, %1 : f32, complex<f32>
}

// Smith's division: the branch on |c| >= |d|, then the Annex G recovery of
// NaN + NaN i results (z/0, inf/finite, finite/inf).
// CHECK-LABEL: func.func @div
// CHECK:         %[[ABSC:.*]] = math.absf %{{.*}} : f64
// CHECK-NEXT:    %[[ABSD:.*]] = math.absf %{{.*}} : f64
// CHECK-NEXT:    %[[LARGER:.*]] = arith.cmpf oge, %[[ABSC]], %[[ABSD]] : f64
// CHECK:         %[[RE:.*]] = arith.select %[[LARGER]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[IM:.*]] = arith.select %[[LARGER]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[RENAN:.*]] = arith.cmpf uno, %[[RE]], %[[RE]] : f64
// CHECK-NEXT:    %[[IMNAN:.*]] = arith.cmpf uno, %[[IM]], %[[IM]] : f64
// CHECK-NEXT:    %[[NAN:.*]] = arith.andi %[[RENAN]], %[[IMNAN]] : i1
// CHECK:         math.copysign
// CHECK:         arith.andi %[[NAN]], %{{.*}} : i1
// CHECK:         arith.andi %[[NAN]], %{{.*}} : i1
// CHECK:         %[[ZERO_DEN:.*]] = arith.andi %[[NAN]], %{{.*}} : i1
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[ZERO_DEN]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[I:.*]] = arith.select %[[ZERO_DEN]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    complex.create %[[R]], %[[I]] : complex<f64>
// CHECK-NOT:     complex.div
func.func @div(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %0 = complex.div %a, %b : complex<f64>
  func.return %0 : complex<f64>
}

// The modulus scales by the larger magnitude: max * sqrt(1 + (min/max)^2).
// CHECK-LABEL: func.func @abs
// CHECK:         %[[MAX:.*]] = arith.maximumf
// CHECK-NEXT:    %[[MIN:.*]] = arith.minimumf
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[MIN]], %[[MAX]] : f32
// CHECK-NEXT:    %[[Q2:.*]] = arith.mulf %[[Q]], %[[Q]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %{{.*}}, %[[Q2]] : f32
// CHECK-NEXT:    %[[ROOT:.*]] = math.sqrt %[[S]] : f32
// CHECK-NEXT:    arith.mulf %[[MAX]], %[[ROOT]] : f32
// CHECK-NOT:     complex.abs
func.func @abs(%a: complex<f32>) -> f32 {
  %0 = complex.abs %a : complex<f32>
  func.return %0 : f32
}

// select and eq/neq work part by part; constants become two arith constants.
// CHECK-LABEL: func.func @select_compare
// CHECK:         %[[RE:.*]] = arith.select %c, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[IM:.*]] = arith.select %c, %{{.*}}, %{{.*}} : f64
// CHECK:         %[[E1:.*]] = arith.cmpf oeq, %[[RE]], %{{.*}} : f64
// CHECK-NEXT:    %[[E2:.*]] = arith.cmpf oeq, %[[IM]], %{{.*}} : f64
// CHECK-NEXT:    %[[EQ:.*]] = arith.andi %[[E1]], %[[E2]] : i1
// CHECK:         %[[N1:.*]] = arith.cmpf une, %[[RE]], %{{.*}} : f64
// CHECK-NEXT:    %[[N2:.*]] = arith.cmpf une, %[[IM]], %{{.*}} : f64
// CHECK-NEXT:    %[[NE:.*]] = arith.ori %[[N1]], %[[N2]] : i1
// CHECK-NEXT:    func.return %[[EQ]], %[[NE]] : i1, i1
func.func @select_compare(%c: i1, %a: complex<f64>, %b: complex<f64>) -> (i1, i1) {
  %0 = arith.select %c, %a, %b : complex<f64>
  %1 = complex.eq %0, %b : complex<f64>
  %2 = complex.neq %0, %b : complex<f64>
  func.return %1, %2 : i1, i1
}

// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %[[RE:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %[[IM:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-NEXT:    %[[NRE:.*]] = arith.negf %[[RE]] : f32
// CHECK-NEXT:    %[[NIM:.*]] = arith.negf %[[IM]] : f32
// CHECK-NEXT:    complex.create %[[NRE]], %[[NIM]] : complex<f32>
func.func @constant() -> complex<f32> {
  %0 = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>
  %1 = complex.neg %0 : complex<f32>
  func.return %1 : complex<f32>
}

// Every transcendental op is expanded (nothing but create/re/im remains).
// CHECK-LABEL: func.func @transcendental
// CHECK-NOT:     complex.{{(exp|expm1|log|log1p|sqrt|rsqrt|sin|cos|tan|tanh|sign|pow|conj|angle)}}
// CHECK:         math.atan2
// CHECK:         math.log1p
// CHECK:         math.sinh
// CHECK:         math.cosh
// CHECK:         math.tan
// CHECK:         func.return
func.func @transcendental(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %0 = complex.exp %a : complex<f64>
  %1 = complex.expm1 %0 : complex<f64>
  %2 = complex.log %1 : complex<f64>
  %3 = complex.log1p %2 : complex<f64>
  %4 = complex.sqrt %3 : complex<f64>
  %5 = complex.rsqrt %4 : complex<f64>
  %6 = complex.sin %5 : complex<f64>
  %7 = complex.cos %6 : complex<f64>
  %8 = complex.tan %7 : complex<f64>
  %9 = complex.tanh %8 : complex<f64>
  %10 = complex.sign %9 : complex<f64>
  %11 = complex.pow %10, %b : complex<f64>
  %12 = complex.conj %11 : complex<f64>
  %13 = complex.angle %12 : complex<f64>
  %14 = complex.create %13, %13 : complex<f64>
  func.return %14 : complex<f64>
}

// complex<f32> pow computes exp(w log z) in f64 and rounds each part once (0.7 ulp
// normwise; in f32 the error grew as 1.5 |w log z| ulps); beyond |w log z| = 2^20, where
// f64's own error would reach the f32 rounding, in double words (the scf.if).
// CHECK-LABEL: func.func @pow_f32
// CHECK-COUNT-4: arith.extf {{.*}} : f32 to f64
// CHECK:         math.atan2 {{.*}} : f64
// CHECK:         math.exp {{.*}} : f64
// CHECK:         math.cos {{.*}} : f64
// CHECK:         %[[MIN_K:.*]] = arith.constant 0x4130000000000000 : f64
// CHECK-NEXT:    %[[LARGE:.*]] = arith.cmpf ogt, %{{.*}}, %[[MIN_K]] : f64
// CHECK-NEXT:    %[[TAKE:.*]] = arith.andi %{{.*}}, %[[LARGE]] : i1
// CHECK-NEXT:    %{{.*}}:2 = scf.if %[[TAKE]] -> (f64, f64) {
// CHECK-NEXT:      func.call @__xla_complex_pow_dw
// CHECK:         arith.truncf {{.*}} : f64 to f32
// CHECK-NEXT:    arith.truncf {{.*}} : f64 to f32
// CHECK-NOT:     math.atan2 {{.*}} : f32
// CHECK:         func.return
func.func @pow_f32(%a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %0 = complex.pow %a, %b : complex<f32>
  func.return %0 : complex<f32>
}

// complex<f64> pow: the f64 formula e^(Re t) (cos Im t + i sin Im t), t = w log z; where
// |Re t| + |Im t| > 0.5 (and t is in range) a call of the module's one double-word helper
// (below); a zero part keeps the f64 formula's sign.
// CHECK-LABEL: func.func @pow_f64
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK:         %[[THETA:.*]] = math.atan2 %[[ZI:.*]], %[[ZR:.*]] : f64
// CHECK:         %[[MAG:.*]] = math.exp %{{.*}} : f64
// CHECK:         %[[COS:.*]] = math.cos %[[TI:.*]] : f64
// CHECK-NEXT:    %[[RE:.*]] = arith.mulf %[[MAG]], %[[COS]] : f64
// CHECK-NEXT:    %[[SIN:.*]] = math.sin %[[TI]] : f64
// CHECK-NEXT:    %[[IM:.*]] = arith.mulf %[[MAG]], %[[SIN]] : f64
// CHECK:         %[[SIZE:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[LARGE:.*]] = arith.cmpf ogt, %[[SIZE]], %[[HALF]] : f64
// CHECK-NEXT:    %[[TAKE:.*]] = arith.andi %{{.*}}, %[[LARGE]] : i1
// CHECK-NEXT:    %[[R:.*]]:2 = scf.if %[[TAKE]] -> (f64, f64) {
// CHECK-NEXT:      %[[C:.*]] = func.call @__xla_complex_pow_dw(%[[ZR]], %[[ZI]], %{{.*}}, %{{.*}}, %{{.*}}, %[[THETA]]) : (f64, f64, f64, f64, f64, f64) -> complex<f64>
// CHECK-NEXT:      %[[CR:.*]] = complex.re %[[C]] : complex<f64>
// CHECK-NEXT:      %[[CI:.*]] = complex.im %[[C]] : complex<f64>
// CHECK-NEXT:      scf.yield %[[CR]], %[[CI]] : f64, f64
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[RE]], %[[IM]] : f64, f64
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Z0:.*]] = arith.cmpf oeq, %[[R]]#0, %{{.*}} : f64
// CHECK-NEXT:    %[[S0:.*]] = math.copysign %[[R]]#0, %[[RE]] : f64
// CHECK-NEXT:    arith.select %[[Z0]], %[[S0]], %[[R]]#0 : f64
// CHECK:         func.return
func.func @pow_f64(%a: complex<f64>, %b: complex<f64>) -> complex<f64> {
  %0 = complex.pow %a, %b : complex<f64>
  func.return %0 : complex<f64>
}

// One helper for the module's three pows (@transcendental's, @pow_f32's in f64 and
// @pow_f64's), appended to the module: log|z| and arg z refined by Newton steps, t = w log z
// and e^t in double words (reductions by ln2 and pi/2, Taylor series, cos r = sqrt(1 -
// sin^2 r)), without libm.
// CHECK-LABEL: func.func private @__xla_complex_pow_dw(
// CHECK-SAME:      %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64) -> complex<f64>
// CHECK-SAME:      attributes {llvm.linkage = "internal"}
// CHECK:           math.roundeven
// CHECK-NOT:       math.{{(exp|log|log1p|cos|sin|atan2)}}
// CHECK:           math.sqrt
// CHECK-NOT:       math.{{(exp|log|log1p|cos|sin|atan2)}}
// CHECK:           %[[Z:.*]] = complex.create %{{.*}}, %{{.*}} : complex<f64>
// CHECK-NEXT:      func.return %[[Z]] : complex<f64>
// CHECK-NEXT:    }
// CHECK-NOT:     func.func
