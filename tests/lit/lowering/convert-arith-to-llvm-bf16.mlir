// RUN: xla-opt %s -p convert-to-llvm --split-input-file --verify-diagnostics | FileCheck %s
// RUN: xla-opt %s -p convert-arith-to-llvm --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=ARITH

// bf16 is carried as its i16 bit pattern (llvmlite has no bfloat): in memrefs,
// function signatures, constants and selects. extf/truncf convert the bits; any
// other bf16 arithmetic must first go through arith-emulate-unsupported-floats.

// Constants are their bit patterns (-1.5 = 0xBFC0, 1.0 = 0x3F80, NaN = 0x7FC0);
// memref elements are i16.
// CHECK-LABEL: llvm.func @constants(%{{.*}}: !llvm.ptr) -> vector<2xi16> {
// CHECK-NEXT:    %[[C:.*]] = llvm.mlir.constant(-16448 : i16) : i16
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%[[ZERO]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK-NEXT:    llvm.store %[[C]], %[[P]] : i16, !llvm.ptr
// CHECK-NEXT:    %[[V:.*]] = llvm.mlir.constant(dense<[16256, 32704]> : vector<2xi16>) : vector<2xi16>
// CHECK-NEXT:    llvm.return %[[V]] : vector<2xi16>
func.func @constants(%m: memref<2xbf16>) -> vector<2xbf16> {
  %0 = arith.constant -1.5 : bf16
  %c0 = arith.constant 0 : index
  memref.store %0, %m[%c0] : memref<2xbf16>
  %1 = arith.constant dense<[1.0, 0x7FC0]> : vector<2xbf16>
  func.return %1 : vector<2xbf16>
}

// -----

// extf: the bits are the upper half of the f32 of the same value.
// CHECK-LABEL: llvm.func @extend(%{{.*}}: i16) -> f64 {
// CHECK-NEXT:    %[[W:.*]] = llvm.zext %[[A:.*]] : i16 to i32
// CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:    %[[S:.*]] = llvm.shl %[[W]], %[[C16]] : i32
// CHECK-NEXT:    %[[F:.*]] = llvm.bitcast %[[S]] : i32 to f32
// CHECK-NEXT:    %[[D:.*]] = llvm.fpext %[[F]] : f32 to f64
// CHECK-NEXT:    llvm.return %[[D]] : f64
// Alone, convert-arith-to-llvm bridges the bf16 argument with a cast:
// ARITH-LABEL: func.func @extend(%a: bf16) -> f64 {
// ARITH-NEXT:    %[[BITS:.*]] = builtin.unrealized_conversion_cast %a : bf16 to i16
// ARITH-NEXT:    %{{.*}} = llvm.zext %[[BITS]] : i16 to i32
func.func @extend(%a: bf16) -> f64 {
  %0 = arith.extf %a : bf16 to f64
  func.return %0 : f64
}

// -----

// truncf f32 → bf16: round to nearest even on the bits (add 0x7FFF plus the kept
// lsb, shift right 16); a NaN keeps its sign and upper payload and gets the quiet bit.
// CHECK-LABEL: llvm.func @truncate_f32(%{{.*}}: f32) -> i16 {
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %[[X:.*]] : f32 to i32
// CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:    %[[UP:.*]] = llvm.lshr %[[B]], %[[C16]] : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[LSB:.*]] = llvm.and %[[UP]], %[[ONE]] : i32
// CHECK-NEXT:    %[[HALF:.*]] = llvm.mlir.constant(32767 : i32) : i32
// CHECK-NEXT:    %[[BIAS:.*]] = llvm.add %[[LSB]], %[[HALF]] : i32
// CHECK-NEXT:    %[[SUM:.*]] = llvm.add %[[B]], %[[BIAS]] : i32
// CHECK-NEXT:    %[[SH:.*]] = llvm.lshr %[[SUM]], %[[C16]] : i32
// CHECK-NEXT:    %[[R:.*]] = llvm.trunc %[[SH]] : i32 to i16
// CHECK-NEXT:    %[[MASK:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
// CHECK-NEXT:    %[[MAG:.*]] = llvm.and %[[B]], %[[MASK]] : i32
// CHECK-NEXT:    %[[INF:.*]] = llvm.mlir.constant(2139095040 : i32) : i32
// CHECK-NEXT:    %[[NAN:.*]] = llvm.icmp "ugt" %[[MAG]], %[[INF]] : i32
// CHECK-NEXT:    %[[UP16:.*]] = llvm.trunc %[[UP]] : i32 to i16
// CHECK-NEXT:    %[[QBIT:.*]] = llvm.mlir.constant(64 : i16) : i16
// CHECK-NEXT:    %[[Q:.*]] = llvm.or %[[UP16]], %[[QBIT]] : i16
// CHECK-NEXT:    %[[SEL:.*]] = llvm.select %[[NAN]], %[[Q]], %[[R]] : i1, i16
// CHECK-NEXT:    llvm.return %[[SEL]] : i16
func.func @truncate_f32(%x: f32) -> bf16 {
  %0 = arith.truncf %x : f32 to bf16
  func.return %0 : bf16
}

// -----

// truncf f64 → bf16 rounds once: first to f32 rounding to odd (toward zero, lsb
// set when inexact), then as from f32.
// CHECK-LABEL: llvm.func @truncate_f64(%{{.*}}: f64) -> i16 {
// CHECK-NEXT:    %[[N:.*]] = llvm.fptrunc %[[D:.*]] : f64 to f32
// CHECK-NEXT:    %[[BACK:.*]] = llvm.fpext %[[N]] : f32 to f64
// CHECK-NEXT:    %[[BB:.*]] = llvm.bitcast %[[BACK]] : f64 to i64
// CHECK-NEXT:    %[[DB:.*]] = llvm.bitcast %[[D]] : f64 to i64
// CHECK-NEXT:    %[[INEXACT:.*]] = llvm.icmp "ne" %[[BB]], %[[DB]] : i64
// CHECK-NEXT:    %[[MAG:.*]] = llvm.mlir.constant(9223372036854775807) : i64
// CHECK-NEXT:    %[[BM:.*]] = llvm.and %[[BB]], %[[MAG]] : i64
// CHECK-NEXT:    %[[DM:.*]] = llvm.and %[[DB]], %[[MAG]] : i64
// CHECK-NEXT:    %[[AWAY:.*]] = llvm.icmp "ugt" %[[BM]], %[[DM]] : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.bitcast %[[N]] : f32 to i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[DOWN:.*]] = llvm.sub %[[B]], %[[ONE]] : i32
// CHECK-NEXT:    %[[TRUNC:.*]] = llvm.select %[[AWAY]], %[[DOWN]], %[[B]] : i1, i32
// CHECK-NEXT:    %[[ODD:.*]] = llvm.or %[[TRUNC]], %[[ONE]] : i32
// CHECK-NEXT:    %[[BITS:.*]] = llvm.select %[[INEXACT]], %[[ODD]], %[[TRUNC]] : i1, i32
// CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:    %{{.*}} = llvm.lshr %[[BITS]], %[[C16]] : i32
// CHECK:         llvm.return %{{.*}} : i16
func.func @truncate_f64(%d: f64) -> bf16 {
  %0 = arith.truncf %d : f64 to bf16
  func.return %0 : bf16
}

// -----

// select, bitcast to/from i16 (no-ops), loads and stores move the i16 bits.
// CHECK-LABEL: llvm.func @moves(%{{.*}}: i1, %{{.*}}: i16, %{{.*}}: i16, %{{.*}}: i16, %{{.*}}: !llvm.ptr) -> i16 {
// CHECK-NEXT:    %[[SEL:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i16
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[M:.*]][%[[ONE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> i16
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr inbounds %[[M]][%[[ONE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i16
// CHECK-NEXT:    llvm.store %[[V]], %[[P2]] : i16, !llvm.ptr
// CHECK-NEXT:    llvm.return %[[SEL]] : i16
func.func @moves(%c: i1, %a: bf16, %b: bf16, %i: i16, %m: memref<4xbf16>) -> i16 {
  %0 = arith.select %c, %a, %b : bf16
  %1 = arith.bitcast %0 : bf16 to i16
  %2 = arith.bitcast %1 : i16 to bf16
  %c1 = arith.constant 1 : index
  %3 = memref.load %m[%c1] : memref<4xbf16>
  memref.store %3, %m[%c1] : memref<4xbf16>
  func.return %1 : i16
}

// -----

// A bf16 global holds the same bytes, typed as i16 bit patterns.
// CHECK: llvm.mlir.global internal constant @g(dense<[16320, -16384, 16448]> : tensor<3xi16>) {{.*}} : !llvm.array<3 x i16>
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<3xbf16>, initial_value = dense<[1.5, -2.0, 3.0]> : tensor<3xbf16>, constant}> : () -> ()

// -----

// Arithmetic on bf16 is refused, naming the pass that makes it computable.
func.func @add(%a: bf16) -> bf16 {
  // expected-error @+1 {{'arith.addf' computes on bf16, which the LLVM lowering represents as i16 bits only: run arith-emulate-unsupported-floats first}}
  %0 = arith.addf %a, %a : bf16
  func.return %0 : bf16
}

// -----

func.func @compare(%a: bf16) -> i1 {
  // expected-error @+1 {{'arith.cmpf' computes on bf16}}
  %0 = arith.cmpf olt, %a, %a : bf16
  func.return %0 : i1
}

// -----

func.func @sitofp(%i: i32) -> bf16 {
  // expected-error @+1 {{'arith.sitofp' computes on bf16}}
  %0 = arith.sitofp %i : i32 to bf16
  func.return %0 : bf16
}
