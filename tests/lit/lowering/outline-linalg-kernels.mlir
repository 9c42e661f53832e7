// RUN: xla-opt %s -p outline-linalg-kernels | FileCheck %s
// RUN: xla-opt %s -p 'outline-linalg-kernels{merge_identical=false}' | FileCheck %s --check-prefix=EACH

// Each run of computations on buffers with only constants and views between them (a
// fill and the generic accumulating into it) becomes one function; an allocation, a
// free or a call ends a run. The second layer's run is identical to the first's (the
// same ops on buffers of the same types, the same re-created constant), so it calls
// the function made for the first; the third reads a view (re-created inside, as the
// views of its arguments are) and gets its own. A run of scalar work only (a fill of a rank-0 buffer) stays in place.

// CHECK-LABEL: func.func @layers
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %t = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    func.call @layers__linalg0(%t, %a) : (memref<8xf32>, memref<8x4xf32>) -> ()
// CHECK-NEXT:    %u = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    func.call @layers__linalg0(%u, %b) : (memref<8xf32>, memref<8x4xf32>) -> ()
// CHECK-NEXT:    %r = memref.alloc() : memref<8xf32>
// CHECK-NEXT:    func.call @layers__linalg2(%u, %c, %r) : (memref<8xf32>, memref<8x4xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    %s = memref.alloc() : memref<f32>
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
// CHECK-NEXT:    memref.dealloc %s : memref<f32>
// CHECK-NEXT:    memref.dealloc %t : memref<8xf32>
// CHECK-NEXT:    memref.dealloc %u : memref<8xf32>
// CHECK-NEXT:    memref.dealloc %r : memref<8xf32>
// CHECK-NEXT:    func.return
// CHECK:       func.func private @layers__linalg0(%t: memref<8xf32> {llvm.noalias}, %a: memref<8x4xf32> {llvm.noalias}) attributes {llvm.linkage = "internal", llvm.no_inline, xla.kernel_group} {
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
// CHECK-NEXT:    linalg.generic
// CHECK:         func.return
// CHECK-NOT:   func.func private @layers__linalg1
// CHECK:       func.func private @layers__linalg2(%u: memref<8xf32> {llvm.noalias}, %c: memref<8x4xf32> {llvm.noalias}, %r: memref<8xf32> {llvm.noalias})
// CHECK-NEXT:    %v = memref.subview %c[0, 0] [8, 1] [1, 1]
// CHECK-NEXT:    %w = memref.collapse_shape %v
// CHECK-NEXT:    linalg.generic {{.*}} ins(%u, %w : memref<8xf32>, memref<8xf32, strided<[4]>>) outs(%r : memref<8xf32>)
// CHECK:         func.return

// EACH-LABEL: func.func @layers
// EACH:         func.call @layers__linalg0(%t, %a)
// EACH:         func.call @layers__linalg1(%u, %b)
// EACH:         func.call @layers__linalg2(%u, %c, %r)
// EACH:       func.func private @layers__linalg0(
// EACH:       func.func private @layers__linalg1(
// EACH:       func.func private @layers__linalg2(

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0) -> (d0)>
func.func @layers(%a: memref<8x4xf32> {llvm.noalias}, %b: memref<8x4xf32> {llvm.noalias}, %c: memref<8x4xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : memref<8x4xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  }
  %u = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%u : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%b : memref<8x4xf32>) outs(%u : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  }
  %r = memref.alloc() : memref<8xf32>
  %v = memref.subview %c[0, 0] [8, 1] [1, 1] : memref<8x4xf32> to memref<8x1xf32, strided<[4, 1]>>
  %w = memref.collapse_shape %v [[0, 1]] : memref<8x1xf32, strided<[4, 1]>> into memref<8xf32, strided<[4]>>
  linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%u, %w : memref<8xf32>, memref<8xf32, strided<[4]>>) outs(%r : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.mulf %x, %y : f32
    linalg.yield %z : f32
  }
  %s = memref.alloc() : memref<f32>
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  memref.dealloc %s : memref<f32>
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %u : memref<8xf32>
  memref.dealloc %r : memref<8xf32>
  func.return
}
