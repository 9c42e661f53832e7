// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,bufferize,linalg-generalize-named-ops,linalg-stream-copies{min_bytes=4096 vector_bits=512}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,bufferize,linalg-generalize-named-ops,linalg-stream-copies{min_bytes=1048576 vector_bits=512}" | FileCheck %s --check-prefix=SMALL

// A concatenation into a 32x40 f32 buffer (5120 bytes >= min_bytes): each part's
// copy into its subview runs row by row in parallel: scalar copies up to the first
// destination element on a 64-byte boundary (from the buffer's pointer and the
// view's offset, 24 for the second part), aligned vectors stored non-temporally,
// then the scalar rest.
// CHECK-LABEL: func.func @concatenate
// CHECK:       %[[LEFT:.*]] = memref.subview %[[OUT:.*]][0, 0] [32, 24] [1, 1]
// CHECK:       %[[P:.*]] = "memref.extract_aligned_pointer_as_index"(%[[OUT]])
// CHECK:       %[[E:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:       "scf.parallel"
// CHECK-NEXT:  ^bb0(%[[I:.*]]: index):
// CHECK:         %[[ROW:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:         %[[FIRST:.*]] = arith.addi %[[E]], %[[ROW]] : index
// CHECK:         %[[MIS:.*]] = arith.remui %[[FIRST]], %[[C16:.*]] : index
// CHECK:         %[[PEEL:.*]] = arith.minui
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %[[PEEL]] step %{{.*}} {
// CHECK-NEXT:      memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[LEFT]][%[[I]], %[[J]]]
// CHECK:         scf.for %[[K:.*]] = %[[PEEL]] to %[[END:.*]] step %[[C16]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %{{.*}}[%[[I]], %[[K]]] : memref<32x24xf32>, vector<16xf32>
// CHECK-NEXT:      vector.store %[[V]], %[[LEFT]][%[[I]], %[[K]]] {nontemporal = true} : memref<32x24xf32, strided<[40, 1]>>, vector<16xf32>
// CHECK:         scf.for %{{.*}} = %[[END]] to
// CHECK:       }) {streamed = "16x32 non-temporal"}
// CHECK:       %[[RIGHT:.*]] = memref.subview %[[OUT]][0, 24] [32, 16] [1, 1]
// CHECK:       "memref.extract_aligned_pointer_as_index"(%[[OUT]])
// CHECK:       %[[C24:.*]] = arith.constant 24 : index
// CHECK:       arith.addi %{{.*}}, %[[C24]] : index
// CHECK:       vector.store %{{.*}}, %[[RIGHT]][%{{.*}}, %{{.*}}] {nontemporal = true}
// CHECK:       }) {streamed = "16x32 non-temporal"}
// CHECK-NOT:   memref.copy
// SMALL-LABEL: func.func @concatenate
// SMALL-NOT:   nontemporal
// SMALL:       memref.copy
// SMALL:       memref.copy
func.func @concatenate(%x: tensor<32x24xf32>, %y: tensor<32x16xf32>) -> tensor<32x40xf32> {
  %r = xla.concatenate %x, %y, dim = 1 : (tensor<32x24xf32>, tensor<32x16xf32>) -> tensor<32x40xf32>
  func.return %r : tensor<32x40xf32>
}

// -----

// Not a copy: a transpose reads its input through a permutation.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:   nontemporal
// CHECK:       linalg.generic
func.func @transpose(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = xla.transpose %x, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %r : tensor<64x64xf32>
}

// -----

// bf16 (5120 bytes) is left to the ordinary copy (a later pass emulates it on i16).
// CHECK-LABEL: func.func @bf16
// CHECK-NOT:   nontemporal
// CHECK:       memref.copy
func.func @bf16(%x: tensor<64x24xbf16>, %y: tensor<64x16xbf16>) -> tensor<64x40xbf16> {
  %r = xla.concatenate %x, %y, dim = 1 : (tensor<64x24xbf16>, tensor<64x16xbf16>) -> tensor<64x40xbf16>
  func.return %r : tensor<64x40xbf16>
}
