// RUN: xla-opt %s --split-input-file -p memref-hoist-loop-allocations | FileCheck %s

// A temporary allocated and freed in every iteration of a nest of scf.for loops is
// allocated once before the outer loop and freed after it.
// CHECK-LABEL: func.func @per_iteration
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        memref.store %{{.*}}, %[[T]][%[[J]]] : memref<16xf32>
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[T]][%[[J]]] : memref<16xf32>
// CHECK-NEXT:        memref.store %[[V]], %out[%[[I]]] : memref<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32>
// CHECK-NEXT:    func.return
func.func @per_iteration(%x: f32, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %t = memref.alloc() : memref<16xf32>
      memref.store %x, %t[%j] : memref<16xf32>
      %v = memref.load %t[%j] : memref<16xf32>
      memref.store %v, %out[%i] : memref<4xf32>
      memref.dealloc %t : memref<16xf32>
    }
  }
  func.return
}

// -----

// Left in place: a dynamic size, a buffer the loop yields, no dealloc in the body.
// In the body of an scf.parallel (its iterations may run at once) the temporary stays
// unless the loop is a row-fusion loop (next case).
// CHECK-LABEL: func.func @kept
// CHECK:       scf.for
// CHECK-NEXT:    memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:       scf.for
// CHECK-NEXT:    memref.alloc() : memref<8xf32>
// CHECK:         scf.yield
// CHECK:       scf.for
// CHECK-NEXT:    memref.alloc() : memref<2xf32>
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:    memref.alloc() : memref<3xf32>
// CHECK-NEXT:    memref.dealloc
func.func @kept(%n: index, %b: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %d = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %d : memref<?xf32>
  }
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %b) -> (memref<8xf32>) {
    %y = memref.alloc() : memref<8xf32>
    scf.yield %y : memref<8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %k = memref.alloc() : memref<2xf32>
  }
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %p = memref.alloc() : memref<3xf32>
    memref.dealloc %p : memref<3xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return %r : memref<8xf32>
}

// -----

// In a row-fusion loop made parallel, small temporaries become scratch allocas, which
// convert-parallel-loops-to-calls makes once per chunk of rows (per thread).
// Scratch only within limits: a temporary of at most 64 KiB, at most 256 KiB per
// body (the fifth 64 KiB buffer stays on the heap), none of a dynamic size, none
// without its dealloc in the body; alignment and layout are kept.
// CHECK-LABEL: func.func @scratch_limits
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<4x4096xf32>
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<4x4096xf32>
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<4x4096xf32>
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<4x4096xf32>
// CHECK-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
// CHECK-NEXT:    memref.alloc() : memref<32768xf32>
// CHECK-NEXT:    memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    memref.alloc() : memref<5xf32>
// CHECK-NEXT:    memref.dealloc %{{.*}} : memref<4x4096xf32>
// CHECK-NEXT:    memref.dealloc %{{.*}} : memref<32768xf32>
// CHECK-NEXT:    memref.dealloc %{{.*}} : memref<?xf32>
// CHECK-NEXT:    scf.reduce
func.func @scratch_limits(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %a = memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
    %b = memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
    %c = memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
    %d = memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
    %e = memref.alloc() {alignment = 64 : i64} : memref<4x4096xf32>
    %big = memref.alloc() : memref<32768xf32>
    %dyn = memref.alloc(%n) : memref<?xf32>
    %kept = memref.alloc() : memref<5xf32>
    memref.dealloc %a : memref<4x4096xf32>
    memref.dealloc %b : memref<4x4096xf32>
    memref.dealloc %c : memref<4x4096xf32>
    memref.dealloc %d : memref<4x4096xf32>
    memref.dealloc %e : memref<4x4096xf32>
    memref.dealloc %big : memref<32768xf32>
    memref.dealloc %dyn : memref<?xf32>
    scf.reduce
  }) {fusion = "rows(1): reduce, map"} : (index, index, index) -> ()
  func.return
}

// -----

// An scf.while's temporaries, in its condition region and in its body, are allocated
// once before it and freed after it; one not freed in its region stays.
// CHECK-LABEL: func.func @while_loop
// CHECK:         %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<i1>
// CHECK-NEXT:    %[[N:.*]] = memref.alloc() {alignment = 64 : i64} : memref<i64>
// CHECK-NEXT:    scf.while
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<f32>
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.dealloc
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[N]]
// CHECK-NEXT:    memref.dealloc %[[C]]
// CHECK-NEXT:    func.return
func.func @while_loop(%i: memref<i64>, %bound: i64) {
  %one = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f32
  scf.while () : () -> () {
    %c = memref.alloc() {alignment = 64 : i64} : memref<i1>
    %both = memref.alloc() {alignment = 64 : i64} : memref<f32>
    memref.store %zero, %both[] : memref<f32>
    %v = memref.load %i[] : memref<i64>
    %lt = arith.cmpi slt, %v, %bound : i64
    memref.store %lt, %c[] : memref<i1>
    %p = memref.load %c[] : memref<i1>
    memref.dealloc %c : memref<i1>
    scf.condition(%p)
  } do {
    %n = memref.alloc() {alignment = 64 : i64} : memref<i64>
    %v = memref.load %i[] : memref<i64>
    %s = arith.addi %v, %one : i64
    memref.store %s, %n[] : memref<i64>
    "memref.copy"(%n, %i) : (memref<i64>, memref<i64>) -> ()
    memref.dealloc %n : memref<i64>
    scf.yield
  }
  func.return
}
