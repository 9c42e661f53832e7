// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 stream_bytes=4096 streams=4}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 stream_bytes=4096}" | FileCheck %s --check-prefix=AUTO
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512}" | FileCheck %s --check-prefix=ONE
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fuse-elementwise,bufferize,linalg-stream-elementwise{min_bytes=4096 vector_bits=512 stream_bytes=4096 stream_work_per_byte=1}" | FileCheck %s --check-prefix=WORK

// tanh(x) * y into 37x41 f32 (1517 elements, 6068 bytes >= stream_bytes) as 4 segments:
// (1517 - 15) / 16 = 93 lines, 23 a segment; skewed to segments 4096 / 4 bytes apart
// modulo a page, 16 lines: 16 mod 64 -> 16 a segment. Segment s starts at peel + 256 s;
// an iteration loads one 16-lane vector from each segment of each input, joins them
// (vector.shuffle) into one vector<64xf32> for one copy of the body, and stores its
// four quarters non-temporally at the four segments. The masked edges start at
// peel + 4 x 256.
// CHECK-LABEL: func.func @tanh_mul
// CHECK:       %[[FX:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64]] : memref<37x41xf32> into memref<1517xf32>
// CHECK:       %[[FY:.*]] = memref.collapse_shape
// CHECK:       %[[FO:.*]] = memref.collapse_shape
// CHECK:       %[[MIS:.*]] = arith.remui %{{.*}}, %[[C16:.*]] : index
// CHECK:       %[[PEEL:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK:       %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:       %[[END:.*]] = arith.addi %[[PEEL]], %[[C1024]] : index
// CHECK:       "scf.parallel"(%{{.*}}, %[[C16]], %{{.*}})
// CHECK-NEXT:  ^bb0(%[[J:.*]]: index):
// CHECK-NEXT:    %[[C16B:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[J]], %[[C16B]] : index
// CHECK-NEXT:    %[[A0:.*]] = arith.addi %[[PEEL]], %[[OFF]] : index
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[A1:.*]] = arith.addi %[[A0]], %[[C256]] : index
// CHECK-NEXT:    %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %[[A2:.*]] = arith.addi %[[A0]], %[[C512]] : index
// CHECK-NEXT:    %[[C768:.*]] = arith.constant 768 : index
// CHECK-NEXT:    %[[A3:.*]] = arith.addi %[[A0]], %[[C768]] : index
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
// CHECK:       } {llvm.loop_annotation = {no_unroll = true}}
// Chosen by the pass: two inputs and the output in 2 segments (6 streams <= max_streams 8).
// AUTO-LABEL:   func.func @tanh_mul
// AUTO:         "scf.parallel"
// AUTO-COUNT-2:   vector.load %{{.*}} : memref<1517xf32>, vector<32xf32>
// AUTO:           vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 63] : vector<32xf32>, vector<32xf32>
// AUTO:           math.tanh %{{.*}} : vector<64xf32>
// AUTO-COUNT-2:   vector.store %{{.*}} {nontemporal = true} : memref<1517xf32>, vector<32xf32>
// AUTO:         }) {streamed = "32x32 non-temporal, 2 streams"}
// tanh counts 24 in stream_work: 25 for 12 bytes is more than stream_work_per_byte=1: one stream.
// WORK-LABEL:   func.func @tanh_mul
// WORK-NOT:     vector.shuffle
// WORK:         }) {streamed = "64x32 non-temporal"}
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
// write-combining buffers hold (max_streams 8): 2 segments of 32 lanes; 2 ops for 16
// bytes, within stream_work_per_byte=1 too.
// CHECK-LABEL:   func.func @fma3
// CHECK:         }) {streamed = "16x32 non-temporal, 4 streams"}
// AUTO-LABEL:    func.func @fma3
// AUTO:          "scf.parallel"
// AUTO-COUNT-6:    vector.load %{{.*}} : memref<4099xf32>, vector<32xf32>
// AUTO-COUNT-2:    vector.store %{{.*}} {nontemporal = true} : memref<4099xf32>, vector<32xf32>
// AUTO:          }) {streamed = "32x32 non-temporal, 2 streams"}
// ONE-LABEL:     func.func @fma3
// ONE:           }) {streamed = "64x32 non-temporal"}
// WORK-LABEL:    func.func @fma3
// WORK:          }) {streamed = "32x32 non-temporal, 2 streams"}
func.func @fma3(%a: tensor<4099xf32>, %b: tensor<4099xf32>, %c: tensor<4099xf32>) -> tensor<4099xf32> {
  %m = xla.multiply %a, %b : tensor<4099xf32>
  %r = xla.add %m, %c : tensor<4099xf32>
  func.return %r : tensor<4099xf32>
}

// -----

// sin counts TRIG_WORK (200) in stream_work: 201 for 8 bytes is more than
// stream_work_per_byte (6), arithmetic rather than memory bound: one stream, whatever
// `streams` says.
// CHECK-LABEL:   func.func @sine
// CHECK:         }) {streamed = "64x32 non-temporal"}
// AUTO-LABEL:    func.func @sine
// AUTO-NOT:      vector.shuffle
// AUTO:          }) {streamed = "64x32 non-temporal"}
// ONE-LABEL:     func.func @sine
// WORK-LABEL:    func.func @sine
// WORK:          }) {streamed = "64x32 non-temporal"}
func.func @sine(%x: tensor<4099xf32>) -> tensor<4099xf32> {
  %r = xla.sine %x : tensor<4099xf32>
  func.return %r : tensor<4099xf32>
}
