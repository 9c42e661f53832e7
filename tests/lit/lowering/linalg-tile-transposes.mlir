// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-tile-transposes{target=avx512}" | FileCheck %s

// x.T + y: 8x8 tiles; the loop over tile rows is parallel. Per tile, x's 8 rows are
// loaded as vectors and transposed in registers (3 rounds of 8 shuffles), then each
// row of the result is the add on vectors of 8 lanes, y's row loaded in order; the
// output, which the add does not read, is only stored. The tiles of a row start where
// the output's rows reach a 32-byte boundary (SHIFT elements in, read from its
// pointer at run time), the first at 0 and one more at the end (16 - 8), so no
// vector store straddles two cache lines; the two overlap their neighbours.
// CHECK-LABEL: func.func @transpose_add
// CHECK:       %[[PTR:.*]] = "memref.extract_aligned_pointer_as_index"(%[[OUT:.*]]) : (memref<24x16xf32>) -> index
// CHECK:       %[[FIRST:.*]] = arith.divui %[[PTR]], %{{.*}} : index
// CHECK-NEXT:  %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[OFF:.*]] = arith.remui %[[FIRST]], %[[EIGHT]] : index
// CHECK-NEXT:  %{{.*}} = arith.constant -1 : index
// CHECK-NEXT:  %[[NOFF:.*]] = arith.muli %[[OFF]], %{{.*}} : index
// CHECK-NEXT:  %[[UP:.*]] = arith.addi %[[EIGHT]], %[[NOFF]] : index
// CHECK-NEXT:  %[[SHIFT:.*]] = arith.remui %[[UP]], %[[EIGHT]] : index
// CHECK-NEXT:  %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[SOME:.*]] = arith.minui %[[SHIFT]], %[[ONE]] : index
// CHECK-NEXT:  %[[EDGE:.*]] = arith.muli %[[SOME]], %{{.*}} : index
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^{{.*}}(%[[TI:.*]]: index):
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[TJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[TJ]], %[[SHIFT]] : index
// CHECK-NEXT:      %[[M:.*]] = arith.maxui %[[S]], %[[EDGE]] : index
// CHECK-NEXT:      %{{.*}} = arith.constant -1 : index
// CHECK-NEXT:      %[[BACK:.*]] = arith.muli %[[EDGE]], %{{.*}} : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %[[M]], %[[BACK]] : index
// CHECK-NEXT:      %[[XT:.*]] = memref.subview %x[%[[COL]], %[[TI]]] [8, 8] [1, 1] : memref<16x24xf32> to memref<8x8xf32, strided<[24, 1], offset: ?>>
// CHECK-NEXT:      %[[YT:.*]] = memref.subview %y[%[[TI]], %[[COL]]] [8, 8] [1, 1]
// CHECK-NEXT:      %[[OT:.*]] = memref.subview %[[OUT]][%[[TI]], %[[COL]]] [8, 8] [1, 1]
// CHECK-COUNT-8:   vector.load %[[XT]][%{{.*}}, %{{.*}}] : memref<8x8xf32, strided<[24, 1], offset: ?>>, vector<8xf32>
// CHECK-COUNT-24:  vector.shuffle %{{.*}}, %{{.*}} [{{0, 8, 1, 9, 2, 10, 3, 11|4, 12, 5, 13, 6, 14, 7, 15}}] : vector<8xf32>, vector<8xf32>
// CHECK-NOT:       vector.shuffle
// CHECK:           %[[Y0:.*]] = vector.load %[[YT]]
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %{{.*}}, %[[Y0]] : vector<8xf32>
// CHECK-NEXT:      vector.store %[[S0]], %[[OT]]
// CHECK-NOT:       vector.load %[[OT]]
// CHECK:         }
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[EDGE]] step %{{.*}} {
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 8 : index
// CHECK-NEXT:      memref.subview %x[%[[LAST]], %[[TI]]] [8, 8] [1, 1]
// CHECK-NEXT:      memref.subview %y[%[[TI]], %[[LAST]]] [8, 8] [1, 1]
// CHECK-NEXT:      memref.subview %[[OUT]][%[[TI]], %[[LAST]]] [8, 8] [1, 1]
// CHECK:       }) {tiled = "transpose(8x8)"}
func.func @transpose_add(%x: tensor<16x24xf32>, %y: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x24xf32>) -> tensor<24x16xf32>
  %r = xla.add %t, %y : tensor<24x16xf32>
  func.return %r : tensor<24x16xf32>
}

// -----

// Extents of 64 and more: 64x64 blocks of 8x8 tiles (half of a 32 KiB L1 of f32).
// The parallel loop steps over rows of blocks; in each, the blocks along the row,
// in a block its rows of tiles, in a row its tiles: the 64 rows of x a block reads
// are read again by each of its 8 rows of tiles while still in L2, not fetched
// anew for each row of tiles down the whole matrix.
// CHECK-LABEL: func.func @blocked
// CHECK:       %[[B64:.*]] = arith.constant 64 : index
// CHECK:       "scf.parallel"(%{{.*}}, %{{.*}}, %[[B64]])
// CHECK-NEXT:  ^{{.*}}(%[[BI:.*]]: index):
// CHECK:         scf.for %[[BJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[BIEND:.*]] = arith.addi %[[BI]], %{{.*}} : index
// CHECK:           scf.for %[[TI:.*]] = %[[BI]] to %[[BIEND]] step %{{.*}} {
// CHECK:             %[[BJEND:.*]] = arith.addi %[[BJ]], %{{.*}} : index
// CHECK:             scf.for %[[TJ:.*]] = %[[BJ]] to %[[BJEND]] step %{{.*}} {
// CHECK-NEXT:          arith.addi %[[TJ]], %{{.*}} : index
// CHECK:               memref.subview %x[%{{.*}}, %[[TI]]] [8, 8] [1, 1]
// CHECK-COUNT-24:      vector.shuffle
// CHECK:             }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:         scf.for %[[TE:.*]] = %[[BI]] to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[LAST:.*]] = arith.constant 120 : index
// CHECK-NEXT:        memref.subview %x[%[[LAST]], %[[TE]]] [8, 8] [1, 1]
// CHECK:       }) {tiled = "transpose(8x8 in 64x64)"}
func.func @blocked(%x: tensor<128x256xf32>, %y: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<128x256xf32>) -> tensor<256x128xf32>
  %r = xla.add %t, %y : tensor<256x128xf32>
  func.return %r : tensor<256x128xf32>
}

// -----

// Booleans (i1, no vector transposition): x's tile is read row by row into a
// buffer, transposed; the `and` then reads the buffer, y and the output in order.
// Each parallel row of tiles has its own buffer, all three in one allocation
// before the loop (no allocation or free inside it).
// CHECK-LABEL: func.func @transpose_and
// CHECK:       %[[BUFS:.*]] = memref.alloc() : memref<3x8x8xi1>
// CHECK-NOT:   memref.alloc
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^{{.*}}(%[[TI:.*]]: index):
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[AT:.*]] = arith.muli %[[TI]], %[[EIGHT]] : index
// CHECK-NEXT:    %[[BUF:.*]] = memref.reinterpret_cast %[[BUFS]] to offset: [%[[AT]]], sizes: [8, 8], strides: [8, 1]
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[TJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[XT:.*]] = memref.subview %x[%[[TJ]], %[[TI]]] [8, 8] [1, 1] : memref<16x24xi1> to memref<8x8xi1, strided<[24, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], {{.*}} ins(%[[XT]] : {{.*}}) outs(%[[BUF]] : memref<8x8xi1, strided<[8, 1], offset: ?>>)
// CHECK:           %[[YT:.*]] = memref.subview %y[%[[TI]], %[[TJ]]] [8, 8] [1, 1]
// CHECK-NEXT:      %[[OT:.*]] = memref.subview %{{.*}}[%[[TI]], %[[TJ]]] [8, 8] [1, 1]
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%[[BUF]], %[[YT]] : {{.*}}) outs(%[[OT]] : {{.*}})
// CHECK:             arith.andi
// CHECK-NOT:     memref.dealloc
// CHECK:       }) {tiled = "transpose(8x8)"}
// CHECK-NEXT:  memref.dealloc %[[BUFS]] : memref<3x8x8xi1>
func.func @transpose_and(%x: tensor<16x24xi1>, %y: tensor<24x16xi1>) -> tensor<24x16xi1> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x24xi1>) -> tensor<24x16xi1>
  %r = xla.and %t, %y : tensor<24x16xi1>
  func.return %r : tensor<24x16xi1>
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
