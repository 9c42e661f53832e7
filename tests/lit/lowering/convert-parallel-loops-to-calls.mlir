// RUN: xla-opt %s -p 'convert-parallel-loops-to-calls{min_work=0 min_chunk_work=64}' --split-input-file | FileCheck %s
// RUN: xla-opt %s -p convert-parallel-loops-to-calls --split-input-file | FileCheck %s --check-prefix=SMALL

// The body is outlined: captures are stored into the context (pointers as i64),
// the loop becomes one call of the runtime with n = 1024 and grain = 64 / 9 (the
// load and the store count MEMORY_WEIGHT = 4 each, the multiply 1).
// Noalias arguments stay noalias in the body, which runs [lo, hi).
// CHECK-LABEL: func.func @scale
// CHECK:         %[[SLOTS:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[CTX:.*]] = llvm.alloca %[[SLOTS]] x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<1024xf32> to !llvm.ptr
// CHECK-NEXT:    %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
// CHECK-NEXT:    llvm.store %[[AI]], %[[CTX]] {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT:    %[[S1:.*]] = llvm.getelementptr %[[CTX]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %s, %[[S1]] {alignment = 8 : i64} : f32, !llvm.ptr
// CHECK:         llvm.getelementptr %[[CTX]][2]
// CHECK:         %[[FN:.*]] = llvm.mlir.addressof @scale__parallel0 : !llvm.ptr
// CHECK-NEXT:    %[[N:.*]] = arith.constant 1024 : i64
// CHECK-NEXT:    %[[GRAIN:.*]] = arith.constant 8 : i64
// CHECK-NEXT:    func.call @__xla_parallel_for(%[[FN]], %[[CTX]], %[[N]], %[[GRAIN]]) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
// CHECK-NOT:     scf.parallel
// CHECK-LABEL: func.func private @scale__parallel0(%ctx: !llvm.ptr, %lo: i64, %hi: i64) attributes {llvm.linkage = "internal"}
// CHECK:         llvm.load %ctx {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK:         func.call @scale__parallel0_body(
// CHECK-LABEL: func.func private @scale__parallel0_body(%a: memref<1024xf32> {llvm.noalias}, %s: f32, %out: memref<1024xf32> {llvm.noalias}, %lo: index, %hi: index) attributes {llvm.linkage = "internal"}
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step %{{.*}} {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<1024xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %s : f32
// CHECK-NEXT:      memref.store %[[Y]], %out[%[[I]]] : memref<1024xf32>
// CHECK-NEXT:    }
// CHECK:       func.func private @__xla_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64) -> ()

// With the default cost model, 1024 iterations of 3 operations stay serial.
// SMALL-LABEL: func.func @scale
// SMALL-NOT:     __xla_parallel_for
// SMALL:         scf.for %{{.*}} = %c0 to %n step %c1 {
// SMALL-NOT:     __xla_parallel_for
func.func @scale(%a: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %x = memref.load %a[%i] : memref<1024xf32>
    %y = arith.mulf %x, %s : f32
    memref.store %y, %out[%i] : memref<1024xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// Dynamic bounds and a step: n = max(ceildiv(ub - lb, step), 0) at run time;
// the body runs from lb + lo * step to lb + hi * step; the lower bound is captured,
// constants are re-created in the body.
// CHECK-LABEL: func.func @strided
// CHECK:         %[[SPAN:.*]] = arith.subi %ub, %lb : index
// CHECK-NEXT:    %[[Q:.*]] = arith.ceildivsi %[[SPAN]], %c4 : index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[M:.*]] = arith.maxsi %[[Q]], %[[Z]] : index
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK:         func.call @__xla_parallel_for(%{{.*}}, %{{.*}}, %[[N]], %{{.*}})
// CHECK-LABEL: func.func private @strided__parallel0_body(%a: memref<1024xf32>, %lb: index, %lo: index, %hi: index)
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[F:.*]] = arith.muli %lo, %[[C4]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi %lb, %[[F]] : index
// CHECK-NEXT:    %[[L:.*]] = arith.muli %hi, %[[C4]] : index
// CHECK-NEXT:    %[[STOP:.*]] = arith.addi %lb, %[[L]] : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[START]] to %[[STOP]] step %[[C4]] {

// Bounds that are not static: the runtime decides (a call even for small loops).
// SMALL-LABEL: func.func @strided
// SMALL:         func.call @__xla_parallel_for
func.func @strided(%a: memref<1024xf32>, %lb: index, %ub: index) {
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  "scf.parallel"(%lb, %ub, %c4) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %z, %a[%i] : memref<1024xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// Only the outermost loop runs in parallel: an inner scf.parallel, and the inner
// dimensions of a 2-d scf.parallel, become scf.for nests inside the body. Both
// arguments are views of the same buffer, so neither is noalias.
// CHECK-LABEL: func.func private @nested__parallel0_body(%v: memref<64x64xf32>, %a: memref<64x64xf32>, %lo: index, %hi: index)
// CHECK:         scf.for %[[I:.*]] = %lo to %hi step
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        scf.for %[[K:.*]] =
// CHECK-NEXT:          memref.load %v[%[[I]], %[[K]]]
// CHECK-NOT:     scf.parallel
func.func @nested(%a: memref<64x64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : index
  %v = "memref.cast"(%a) : (memref<64x64xf32>) -> memref<64x64xf32>
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb1(%k: index):
      %x = memref.load %v[%i, %k] : memref<64x64xf32>
      memref.store %x, %a[%j, %k] : memref<64x64xf32>
      scf.reduce
    }) : (index, index, index) -> ()
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// -----

// Host I/O keeps its order: a loop that calls the runtime's sites stays serial.
// CHECK-LABEL: func.func @host_call
// CHECK-NOT:     __xla_parallel_for
// CHECK:         scf.for
// CHECK-NEXT:      func.call @__xla_rt_outfeed_0
func.func private @__xla_rt_outfeed_0()
func.func @host_call() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    func.call @__xla_rt_outfeed_0() : () -> ()
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// A scratch buffer allocated at the top of the body is made once per chunk, in
// the body function before its loop (each thread gets its own).
// CHECK-LABEL: func.func private @scratch__parallel0_body(%out: memref<256x4xf32>, %lo: index, %hi: index)
// CHECK:         %[[T:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    scf.for %{{.*}} = %lo to %hi step
// CHECK-NOT:       memref.alloca
// CHECK:           memref.store %{{.*}}, %[[T]]

// Kept serial (the default cost model), the loop leaves it at the function's
// entry: an alloca in a loop would take stack space on every iteration.
// SMALL-LABEL: func.func @scratch
// SMALL-NEXT:    %[[T:.*]] = memref.alloca() : memref<4xf32>
// SMALL:         scf.for
// SMALL-NOT:       memref.alloca
// SMALL:           memref.store %{{.*}}, %[[T]]
func.func @scratch(%out: memref<256x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 256 : index
  %x = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %t = memref.alloca() : memref<4xf32>
    memref.store %x, %t[%c0] : memref<4xf32>
    %y = memref.load %t[%c0] : memref<4xf32>
    memref.store %y, %out[%i, %c0] : memref<256x4xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}
