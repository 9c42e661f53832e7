// RUN: xla-opt %s -p convert-vector-to-llvm | FileCheck %s

// A vector load is a GEP to its first element (through rows of 32) and a load of the
// LLVM vector type, aligned as one element (the memref may be a NumPy buffer).
// CHECK-LABEL: func.func @load_fma_store
func.func @load_fma_store(%m: memref<4x32xf32>, %i: index, %s: f32) {
  %c16 = arith.constant 16 : index
  // CHECK:      %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<32 x f32>
  // CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  %v = vector.load %m[%i, %c16] : memref<4x32xf32>, vector<16xf32>
  // A broadcast is an insertelement into lane 0 and an all-zero shuffle.
  // CHECK:      %[[U:.*]] = llvm.mlir.undef : vector<16xf32>
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[I:.*]] = llvm.insertelement %{{.*}}, %[[U]][%[[Z]] : i32] : vector<16xf32>
  // CHECK-NEXT: %[[B:.*]] = llvm.shufflevector %[[I]], %[[U]] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32>
  %b = vector.broadcast %s : f32 to vector<16xf32>
  // CHECK-NEXT: %[[F:.*]] = llvm.call_intrinsic "llvm.fma.v16f32"(%[[B]], %[[V]], %[[V]]) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
  %f = vector.fma %b, %v, %v : vector<16xf32>
  // CHECK:      %[[Q:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}, %{{.*}}] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<32 x f32>
  // CHECK-NEXT: llvm.store %[[F]], %[[Q]] {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
  vector.store %f, %m[%i, %c16] : memref<4x32xf32>, vector<16xf32>
  func.return
}

// A non-temporal store (`linalg-stream-copies`) keeps the flag and is aligned to its
// whole vector: x86 has no unaligned streaming vector store.
// CHECK-LABEL: func.func @nontemporal_store
// CHECK:       llvm.store %{{.*}}, %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK:       llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
func.func @nontemporal_store(%m: memref<4x32xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%i, %c0] : memref<4x32xf32>, vector<16xf32>
  vector.store %v, %m[%i, %c0] {nontemporal = true} : memref<4x32xf32>, vector<16xf32>
  vector.store %v, %m[%i, %c0] {nontemporal = false} : memref<4x32xf32>, vector<16xf32>
  func.return
}

// A non-temporal store of a vector wider than a register (`linalg-stream-elementwise`'s
// 4 x 16 f32) claims the alignment of a cache line only: its producer peels to a line,
// and each register-wide `vmovntps` LLVM splits it into needs no more.
// CHECK-LABEL: func.func @nontemporal_wide_store
// CHECK:       llvm.store %{{.*}}, %{{.*}} {alignment = 64 : i64, nontemporal} : vector<64xf32>, !llvm.ptr
func.func @nontemporal_wide_store(%m: memref<256xf32>, %i: index) {
  %v = vector.load %m[%i] : memref<256xf32>, vector<64xf32>
  vector.store %v, %m[%i] {nontemporal = true} : memref<256xf32>, vector<64xf32>
  func.return
}

// Masked loads and stores are LLVM's masked intrinsics, aligned as one element (the
// lanes off in the mask are neither read nor written).
// CHECK-LABEL: func.func @masked_load_store
// CHECK:       %[[ALIGN:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:       %[[V:.*]] = llvm.call_intrinsic "llvm.masked.load.v16f32.p0"(%{{.*}}, %[[ALIGN]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
// CHECK:       llvm.call_intrinsic "llvm.masked.store.v16f32.p0"(%[[V]], %{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xf32>, !llvm.ptr, i32, vector<16xi1>) -> ()
func.func @masked_load_store(%m: memref<100xf32>, %i: index, %mask: vector<16xi1>, %pass: vector<16xf32>) {
  %v = vector.maskedload %m[%i], %mask, %pass : memref<100xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  vector.maskedstore %m[%i], %mask, %v : memref<100xf32>, vector<16xi1>, vector<16xf32>
  func.return
}

// A broadcast to the operand's own type is the operand.
// CHECK-LABEL: func.func @identity_broadcast
// CHECK-NOT:   llvm.shufflevector
func.func @identity_broadcast(%v: vector<8xf32>) -> vector<8xf32> {
  %b = vector.broadcast %v : vector<8xf32> to vector<8xf32>
  func.return %b : vector<8xf32>
}

// Ordered float sums start from the identity, -0.0 (or the accumulator); fast-math lets
// LLVM reduce in a tree. Integer and max reductions take no start value.
// CHECK-LABEL: func.func @reductions
func.func @reductions(%v: vector<8xf32>, %w: vector<4xi32>, %acc: f32) -> (f32, f32, i32, f32) {
  // CHECK:      %[[Z:.*]] = llvm.mlir.constant(-0.000000e+00 : f32) : f32
  // CHECK-NEXT: llvm.call_intrinsic "llvm.vector.reduce.fadd.v8f32"(%[[Z]], %{{.*}}) : (f32, vector<8xf32>) -> f32
  %0 = vector.reduction <add>, %v : vector<8xf32> into f32
  // CHECK:      llvm.call_intrinsic "llvm.vector.reduce.fadd.v8f32"(%acc, %v) {fastmathFlags = #llvm.fastmath<fast>} : (f32, vector<8xf32>) -> f32
  %1 = vector.reduction <add>, %v, %acc fastmath<fast> : vector<8xf32> into f32
  // CHECK:      llvm.call_intrinsic "llvm.vector.reduce.add.v4i32"(%{{.*}}) : (vector<4xi32>) -> i32
  %2 = vector.reduction <add>, %w : vector<4xi32> into i32
  // CHECK:      llvm.call_intrinsic "llvm.vector.reduce.fmaximum.v8f32"(%{{.*}}) : (vector<8xf32>) -> f32
  %3 = vector.reduction <maximumf>, %v : vector<8xf32> into f32
  func.return %0, %1, %2, %3 : f32, f32, i32, f32
}

// A shuffle of 1-D vectors is LLVM's, mask unchanged.
// CHECK-LABEL: func.func @halves
// CHECK:       %[[H:.*]] = llvm.shufflevector %v, %v [2, 3] : vector<4xi32>
// CHECK:       func.return %[[H]]
func.func @halves(%v: vector<4xi32>) -> vector<2xi32> {
  %h = vector.shuffle %v, %v [2, 3] : vector<4xi32>, vector<4xi32>
  func.return %h : vector<2xi32>
}

// The bf16 pair kernel's pieces: a bf16 pair read as one i32, stretched to 16
// lanes, seen as 32 bf16, and AVX512-BF16's dot product (its bf16 operands are
// i16 vectors here; the backend bitcasts them to LLVM's bfloat at the call).
// CHECK-LABEL: func.func @bf16_pairs
func.func @bf16_pairs(%acc: vector<16xf32>, %pair: vector<2xbf16>, %row: vector<32xbf16>) -> vector<16xf32> {
  // CHECK:      %[[W:.*]] = llvm.bitcast %{{.*}} : vector<2xi16> to vector<1xi32>
  %w = vector.bitcast %pair : vector<2xbf16> to vector<1xi32>
  // CHECK-NEXT: %[[WS:.*]] = llvm.shufflevector %[[W]], %[[W]] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
  %ws = vector.broadcast %w : vector<1xi32> to vector<16xi32>
  // CHECK-NEXT: %[[A:.*]] = llvm.bitcast %[[WS]] : vector<16xi32> to vector<32xi16>
  %a = vector.bitcast %ws : vector<16xi32> to vector<32xbf16>
  // CHECK-NEXT: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%{{.*}}, %[[A]], %{{.*}}) : (vector<16xf32>, vector<32xi16>, vector<32xi16>) -> vector<16xf32>
  %r = x86vector.avx512.dot %acc, %a, %row : vector<32xbf16> -> vector<16xf32>
  func.return %r : vector<16xf32>
}

// AVX512-VNNI's i16 pair dot product (i8 x i8 -> i32 contractions pack i16 pairs).
// CHECK-LABEL: func.func @i16_pairs
func.func @i16_pairs(%acc: vector<16xi32>, %a: vector<32xi16>, %row: vector<32xi16>) -> vector<16xi32> {
  // CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.512"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<16xi32>, vector<32xi16>, vector<32xi16>) -> vector<16xi32>
  %r = x86vector.avx512.dot.i16 %acc, %a, %row : vector<32xi16> -> vector<16xi32>
  func.return %r : vector<16xi32>
}

// AVX2's vpmaddwd: i16 pairs summed into i32 lanes, no accumulator (the i8 x i8 -> i32
// contractions without VNNI add it to theirs).
// CHECK-LABEL: func.func @i16_pairs_avx2
func.func @i16_pairs_avx2(%a: vector<16xi16>, %row: vector<16xi16>) -> vector<8xi32> {
  // CHECK: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%{{.*}}, %{{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
  %r = x86vector.avx2.pmaddwd %a, %row : vector<16xi16> -> vector<8xi32>
  func.return %r : vector<8xi32>
}
