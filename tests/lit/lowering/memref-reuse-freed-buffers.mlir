// RUN: xla-opt %s --split-input-file -p memref-reuse-freed-buffers | FileCheck %s

// A chain of layers: each activation is freed after the next layer read it, and the
// allocation after that free takes the freed buffer (same type and alignment): two
// buffers in turn instead of one allocation and one free per layer.
// CHECK-LABEL: func.func @layers(
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
// CHECK-NEXT:    func.call @layer(%x, %[[A]])
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
// CHECK-NEXT:    func.call @layer(%[[A]], %[[B]])
// CHECK-NEXT:    func.call @layer(%[[B]], %[[A]])
// CHECK-NEXT:    func.call @layer(%[[A]], %[[B]])
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<16x64xf32>
// CHECK-NEXT:    func.call @layer(%[[B]], %y)
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<16x64xf32>
// CHECK-NEXT:    func.return
func.func private @layer(memref<16x64xf32>, memref<16x64xf32>)
func.func @layers(%x: memref<16x64xf32>, %y: memref<16x64xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  func.call @layer(%x, %a) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  %b = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  func.call @layer(%a, %b) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  memref.dealloc %a : memref<16x64xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  func.call @layer(%b, %c) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  memref.dealloc %b : memref<16x64xf32>
  %d = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  func.call @layer(%c, %d) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  memref.dealloc %c : memref<16x64xf32>
  func.call @layer(%d, %y) : (memref<16x64xf32>, memref<16x64xf32>) -> ()
  memref.dealloc %d : memref<16x64xf32>
  func.return
}

// -----

// Another type, another alignment, or an allocation before the free: each keeps its own
// buffer.
// CHECK-LABEL: func.func @apart(
// CHECK-COUNT-4: memref.alloc()
// CHECK-NOT:     memref.alloc()
// CHECK:         func.return
func.func private @use(memref<16x64xf32>)
func.func private @use_f64(memref<16x64xf64>)
func.func @apart() {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  func.call @use(%a) : (memref<16x64xf32>) -> ()
  %early = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
  memref.dealloc %a : memref<16x64xf32>
  func.call @use(%early) : (memref<16x64xf32>) -> ()
  %other = memref.alloc() {alignment = 64 : i64} : memref<16x64xf64>
  func.call @use_f64(%other) : (memref<16x64xf64>) -> ()
  memref.dealloc %other : memref<16x64xf64>
  %aligned = memref.alloc() {alignment = 128 : i64} : memref<16x64xf32>
  func.call @use(%aligned) : (memref<16x64xf32>) -> ()
  memref.dealloc %aligned : memref<16x64xf32>
  memref.dealloc %early : memref<16x64xf32>
  func.return
}
