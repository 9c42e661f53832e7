// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-tile-transposes" | FileCheck %s

// x.T + y: 8x8 tiles; the loop over tile rows is parallel with its own buffer; per
// tile, x's tile is read row by row into the buffer transposed, then the add reads
// the buffer, y and the output in order.
// CHECK-LABEL: func.func @transpose_add
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^{{.*}}(%[[TI:.*]]: index):
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK:         scf.for %[[TJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XT:.*]] = memref.subview %x[%[[TJ]], %[[TI]]] [8, 8] [1, 1] : memref<16x24xf32> to memref<8x8xf32, strided<[24, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], {{.*}} ins(%[[XT]] : {{.*}}) outs(%[[BUF]] : memref<8x8xf32>)
// CHECK:           %[[YT:.*]] = memref.subview %y[%[[TI]], %[[TJ]]] [8, 8] [1, 1]
// CHECK-NEXT:      %[[OT:.*]] = memref.subview %{{.*}}[%[[TI]], %[[TJ]]] [8, 8] [1, 1]
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%[[BUF]], %[[YT]] : {{.*}}) outs(%[[OT]] : {{.*}})
// CHECK:             arith.addf
// CHECK:         memref.dealloc %[[BUF]] : memref<8x8xf32>
// CHECK:       }) {tiled = "transpose(8x8)"}
func.func @transpose_add(%x: tensor<16x24xf32>, %y: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x24xf32>) -> tensor<24x16xf32>
  %r = xla.add %t, %y : tensor<24x16xf32>
  func.return %r : tensor<24x16xf32>
}

// -----

// Extents that 8 does not divide, and an add in order, are left alone.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:   tiled
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NOT:   tiled
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NOT:   tiled
func.func @kept(%x: tensor<12x24xf32>, %a: tensor<16x16xf32>) -> (tensor<24x12xf32>, tensor<16x16xf32>) {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<12x24xf32>) -> tensor<24x12xf32>
  %r = xla.negate %t : tensor<24x12xf32>
  %s = xla.add %a, %a : tensor<16x16xf32>
  func.return %r, %s : tensor<24x12xf32>, tensor<16x16xf32>
}
