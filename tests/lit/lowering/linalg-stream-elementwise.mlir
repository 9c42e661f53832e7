// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=1048576 vector_bits=512}" | FileCheck %s --check-prefix=SMALL
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 max_work_per_byte=1}" | FileCheck %s --check-prefix=WORK

// tanh(x) * y into a 37x41 f32 buffer (6068 bytes >= min_bytes), viewed as one row of
// 1517: the vectors start at the first output element on a 64-byte line (computed
// from the output's pointer at run time), 4 x 16 f32 a step, 23 steps in parallel,
// stored non-temporally; then one loop of 16-lane masked pieces, the peel first
// (at 0, `peel` lanes) and the rest from the end of the vectors, not unrolled.
// CHECK-LABEL: func.func @tanh_mul
// CHECK-SAME:  (%[[X:.*]]: memref<37x41xf32> {{.*}}, %[[Y:.*]]: memref<37x41xf32> {{.*}}, %[[OUT:.*]]: memref<37x41xf32> {{.*}})
// CHECK:       %[[FX:.*]] = memref.collapse_shape %[[X]] {{\[}}[0 : i64, 1 : i64]] : memref<37x41xf32> into memref<1517xf32>
// CHECK:       %[[FY:.*]] = memref.collapse_shape %[[Y]]
// CHECK:       %[[FO:.*]] = memref.collapse_shape %[[OUT]]
// CHECK:       %[[P:.*]] = "memref.extract_aligned_pointer_as_index"(%[[OUT]])
// CHECK:       %[[E:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:       %[[MIS:.*]] = arith.remui %[[E]], %[[C16:.*]] : index
// CHECK:       %[[PEEL:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK:       %[[C1472:.*]] = arith.constant 1472 : index
// CHECK:       %[[END:.*]] = arith.addi %[[PEEL]], %[[C1472]] : index
// CHECK:       %[[C23:.*]] = arith.constant 23 : index
// CHECK:       "scf.parallel"(%{{.*}}, %[[C23]], %{{.*}})
// CHECK-NEXT:  ^bb0(%[[J:.*]]: index):
// CHECK:         %[[AT:.*]] = arith.addi %[[PEEL]], %{{.*}} : index
// CHECK-NEXT:    %[[VX:.*]] = vector.load %[[FX]][%[[AT]]] : memref<1517xf32>, vector<64xf32>
// CHECK-NEXT:    %[[VY:.*]] = vector.load %[[FY]][%[[AT]]] : memref<1517xf32>, vector<64xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[VX]] : vector<64xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %[[T]], %[[VY]] : vector<64xf32>
// CHECK-NEXT:    vector.store %[[R]], %[[FO]][%[[AT]]] {nontemporal = true} : memref<1517xf32>, vector<64xf32>
// CHECK:       }) {streamed = "64x32 non-temporal"}
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK:         %[[LATER:.*]] = arith.addi %[[END]], %{{.*}} : index
// CHECK:         %[[AT2:.*]] = arith.select %[[FIRST]], %{{.*}}, %[[LATER]] : index
// CHECK:         %[[VALID:.*]] = arith.select %[[FIRST]], %[[PEEL]], %{{.*}} : index
// CHECK:         %[[MASK:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK:         vector.maskedload %[[FX]][%[[AT2]]], %[[MASK]], %{{.*}} : memref<1517xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:         vector.maskedload %[[FY]][%[[AT2]]], %[[MASK]]
// CHECK:         math.tanh %{{.*}} : vector<16xf32>
// CHECK:         vector.maskedstore %[[FO]][%[[AT2]]], %[[MASK]], %{{.*}} : memref<1517xf32>, vector<16xi1>, vector<16xf32>
// CHECK:       } {llvm.loop_annotation = {no_unroll = true}}
// CHECK-NOT:   linalg.generic
// SMALL-LABEL: func.func @tanh_mul
// SMALL-NOT:   nontemporal
// SMALL:       linalg.generic
// WORK-LABEL:  func.func @tanh_mul
// WORK-NOT:    nontemporal
// WORK:        linalg.generic
func.func @tanh_mul(%x: tensor<37x41xf32>, %y: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %t = xla.tanh %x : tensor<37x41xf32>
  %r = xla.multiply %t, %y : tensor<37x41xf32>
  func.return %r : tensor<37x41xf32>
}

// -----

// The intrinsics of earlier expansions are renamed for the vectors they now take
// (here `llvm.ldexp` on vector<64xf32>, then on the masked pieces' vector<16xf32>).
// CHECK-LABEL: func.func @intrinsic
// CHECK:       llvm.call_intrinsic "llvm.ldexp.v64f32.v64i32"
// CHECK:       vector.store {{.*}} {nontemporal = true}
// CHECK:       llvm.call_intrinsic "llvm.ldexp.v16f32.v16i32"
func.func @intrinsic(%x: memref<4096xf32>, %k: memref<4096xi32>, %out: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %k : memref<4096xf32>, memref<4096xi32>) outs(%out : memref<4096xf32>) {
  ^bb0(%a: f32, %b: i32, %o: f32):
    %r = llvm.call_intrinsic "llvm.ldexp.f32.i32"(%a, %b) : (f32, i32) -> f32
    linalg.yield %r : f32
  }
  func.return
}

// -----

// An operand read through a broadcast is not element-wise in this sense: left alone.
// CHECK-LABEL: func.func @broadcast
// CHECK-NOT:   nontemporal
// CHECK:       linalg.generic
func.func @broadcast(%x: tensor<64x64xf32>, %y: tensor<64xf32>) -> tensor<64x64xf32> {
  %b = xla.broadcast_in_dim %y, dims = [1] : (tensor<64xf32>) -> tensor<64x64xf32>
  %r = xla.add %x, %b : tensor<64x64xf32>
  func.return %r : tensor<64x64xf32>
}
