// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 stream_bytes=4096}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 stream_bytes=4096 streams=2}" | FileCheck %s --check-prefix=TWO
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512}" | FileCheck %s --check-prefix=ONE

// tanh(x) * y into 37x41 f32 (1517 elements, 6068 bytes >= stream_bytes): two inputs and
// an output, so 4 segments (12 streams <= max_streams). (1517 - 15) / 16 = 93 lines,
// 23 a segment: segment s starts at peel + 368 s; an iteration loads one 16-lane vector
// from each segment of each input, joins them (vector.shuffle) into one vector<64xf32>
// for one copy of the body, and stores its four quarters non-temporally at the four
// segments. The masked edges start at peel + 4 x 368.
// CHECK-LABEL: func.func @tanh_mul
// CHECK:       %[[FX:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64]] : memref<37x41xf32> into memref<1517xf32>
// CHECK:       %[[FY:.*]] = memref.collapse_shape
// CHECK:       %[[FO:.*]] = memref.collapse_shape
// CHECK:       %[[MIS:.*]] = arith.remui %{{.*}}, %[[C16:.*]] : index
// CHECK:       %[[PEEL:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK:       %[[C1472:.*]] = arith.constant 1472 : index
// CHECK:       %[[END:.*]] = arith.addi %[[PEEL]], %[[C1472]] : index
// CHECK:       %[[C23:.*]] = arith.constant 23 : index
// CHECK:       "scf.parallel"(%{{.*}}, %[[C23]], %{{.*}})
// CHECK-NEXT:  ^bb0(%[[J:.*]]: index):
// CHECK-NEXT:    %[[C16B:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[J]], %[[C16B]] : index
// CHECK-NEXT:    %[[A0:.*]] = arith.addi %[[PEEL]], %[[OFF]] : index
// CHECK-NEXT:    %[[C368:.*]] = arith.constant 368 : index
// CHECK-NEXT:    %[[A1:.*]] = arith.addi %[[A0]], %[[C368]] : index
// CHECK-NEXT:    %[[C736:.*]] = arith.constant 736 : index
// CHECK-NEXT:    %[[A2:.*]] = arith.addi %[[A0]], %[[C736]] : index
// CHECK-NEXT:    %[[C1104:.*]] = arith.constant 1104 : index
// CHECK-NEXT:    %[[A3:.*]] = arith.addi %[[A0]], %[[C1104]] : index
// CHECK-NEXT:    %[[X0:.*]] = vector.load %[[FX]][%[[A0]]] : memref<1517xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X1:.*]] = vector.load %[[FX]][%[[A1]]] : memref<1517xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X2:.*]] = vector.load %[[FX]][%[[A2]]] : memref<1517xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X3:.*]] = vector.load %[[FX]][%[[A3]]] : memref<1517xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X01:.*]] = vector.shuffle %[[X0]], %[[X1]] [0, 1, {{.*}}, 31] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X23:.*]] = vector.shuffle %[[X2]], %[[X3]] [0, 1, {{.*}}, 31] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT:    %[[X:.*]] = vector.shuffle %[[X01]], %[[X23]] [0, 1, {{.*}}, 63] : vector<32xf32>, vector<32xf32>
// CHECK:         %[[Y:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 63] : vector<32xf32>, vector<32xf32>
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[X]] : vector<64xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.mulf %[[T]], %[[Y]] : vector<64xf32>
// CHECK-NEXT:    %[[R0:.*]] = vector.shuffle %[[R]], %[[R]] [0, 1, {{.*}}, 15] : vector<64xf32>, vector<64xf32>
// CHECK-NEXT:    vector.store %[[R0]], %[[FO]][%[[A0]]] {nontemporal = true} : memref<1517xf32>, vector<16xf32>
// CHECK-NEXT:    %[[R1:.*]] = vector.shuffle %[[R]], %[[R]] [16, 17, {{.*}}, 31] : vector<64xf32>, vector<64xf32>
// CHECK-NEXT:    vector.store %[[R1]], %[[FO]][%[[A1]]] {nontemporal = true}
// CHECK-NEXT:    %[[R2:.*]] = vector.shuffle %[[R]], %[[R]] [32, 33, {{.*}}, 47] : vector<64xf32>, vector<64xf32>
// CHECK-NEXT:    vector.store %[[R2]], %[[FO]][%[[A2]]] {nontemporal = true}
// CHECK-NEXT:    %[[R3:.*]] = vector.shuffle %[[R]], %[[R]] [48, 49, {{.*}}, 63] : vector<64xf32>, vector<64xf32>
// CHECK-NEXT:    vector.store %[[R3]], %[[FO]][%[[A3]]] {nontemporal = true}
// CHECK:       }) {streamed = "16x32 non-temporal, 4 streams"}
// CHECK:       scf.for
// CHECK:         %[[LATER:.*]] = arith.addi %[[END]], %{{.*}} : index
// CHECK:         vector.maskedstore %[[FO]]
// TWO-LABEL:   func.func @tanh_mul
// TWO:         "scf.parallel"
// TWO-COUNT-2:   vector.load %{{.*}} : memref<1517xf32>, vector<32xf32>
// TWO:           vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 63] : vector<32xf32>, vector<32xf32>
// TWO:           math.tanh %{{.*}} : vector<64xf32>
// TWO-COUNT-2:   vector.store %{{.*}} {nontemporal = true} : memref<1517xf32>, vector<32xf32>
// TWO:         }) {streamed = "32x32 non-temporal, 2 streams"}
// ONE-LABEL:   func.func @tanh_mul
// ONE-NOT:     vector.shuffle
// ONE:         }) {streamed = "64x32 non-temporal"}
func.func @tanh_mul(%x: tensor<37x41xf32>, %y: tensor<37x41xf32>) -> tensor<37x41xf32> {
  %t = xla.tanh %x : tensor<37x41xf32>
  %r = xla.multiply %t, %y : tensor<37x41xf32>
  func.return %r : tensor<37x41xf32>
}

// -----

// Three inputs and an output: 4 segments would be 16 streams, more than the core's
// write-combining buffers hold (max_streams 12): 2 segments of 32 lanes.
// CHECK-LABEL: func.func @fma3
// CHECK:       "scf.parallel"
// CHECK-COUNT-6: vector.load %{{.*}} : memref<4099xf32>, vector<32xf32>
// CHECK-COUNT-2: vector.store %{{.*}} {nontemporal = true} : memref<4099xf32>, vector<32xf32>
// CHECK:       }) {streamed = "32x32 non-temporal, 2 streams"}
// TWO-LABEL:   func.func @fma3
// ONE-LABEL:   func.func @fma3
// ONE:         }) {streamed = "64x32 non-temporal"}
func.func @fma3(%a: tensor<4099xf32>, %b: tensor<4099xf32>, %c: tensor<4099xf32>) -> tensor<4099xf32> {
  %m = xla.multiply %a, %b : tensor<4099xf32>
  %r = xla.add %m, %c : tensor<4099xf32>
  func.return %r : tensor<4099xf32>
}
