// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-reassociate-reductions,linalg-vectorize-reductions{vector_bits=128 stream_bytes=256}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-reassociate-reductions,linalg-vectorize-reductions{vector_bits=128 stream_bytes=256 streams=1}" | FileCheck %s --check-prefix=SINGLE
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-reassociate-reductions{reassociate=false},linalg-vectorize-reductions{vector_bits=128 stream_bytes=256 reassociate=false}" | FileCheck %s --check-prefix=ORDERED

// Rows of at least `stream_bytes` (133 f32: 532 bytes) are read as 4 streams side
// by side: segments of 32 elements (133 // (4 streams * 4 lanes) * 4), one
// accumulator each (the 4 shared), slot s reading [32 s, 32 s + 32); the slots
// combine as a balanced tree, then across lanes, then the initial value, then the
// 5 elements past 4 * 32 in order.
// CHECK-LABEL: func.func @sum_rows
// CHECK:         "scf.parallel"
// CHECK:           %[[ZERO:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK-NEXT:      %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[SEG:.*]] = arith.constant 32 : index
// CHECK-NEXT:      %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[A:.*]]:4 = scf.for %[[J:.*]] = %[[LO]] to %[[SEG]] step %[[STEP]] iter_args(%[[A0:.*]] = %[[ZERO]], %[[A1:.*]] = %[[ZERO]], %[[A2:.*]] = %[[ZERO]], %[[A3:.*]] = %[[ZERO]])
// CHECK-NEXT:        %[[X0:.*]] = vector.load %x[%{{.*}}, %[[J]]] : memref<2x133xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S0:.*]] = arith.addf %[[A0]], %[[X0]] fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:        %[[O1:.*]] = arith.constant 32 : index
// CHECK-NEXT:        %[[J1:.*]] = arith.addi %[[J]], %[[O1]] : index
// CHECK-NEXT:        %[[X1:.*]] = vector.load %x[%{{.*}}, %[[J1]]] : memref<2x133xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S1:.*]] = arith.addf %[[A1]], %[[X1]] fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:        %[[O2:.*]] = arith.constant 64 : index
// CHECK-NEXT:        %[[J2:.*]] = arith.addi %[[J]], %[[O2]] : index
// CHECK-NEXT:        %[[X2:.*]] = vector.load %x[%{{.*}}, %[[J2]]] : memref<2x133xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S2:.*]] = arith.addf %[[A2]], %[[X2]] fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:        %[[O3:.*]] = arith.constant 96 : index
// CHECK-NEXT:        %[[J3:.*]] = arith.addi %[[J]], %[[O3]] : index
// CHECK-NEXT:        %[[X3:.*]] = vector.load %x[%{{.*}}, %[[J3]]] : memref<2x133xf32>, vector<4xf32>
// CHECK-NEXT:        %[[S3:.*]] = arith.addf %[[A3]], %[[X3]] fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:        scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T01:.*]] = arith.addf %[[A]]#0, %[[A]]#1 fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:      %[[T23:.*]] = arith.addf %[[A]]#2, %[[A]]#3 fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[T01]], %[[T23]] fastmath<reassoc> : vector<4xf32>
// CHECK-NEXT:      %[[R:.*]] = vector.reduction <add>, %[[T]] fastmath<reassoc> : vector<4xf32> into f32
// CHECK-NEXT:      %[[INIT:.*]] = memref.load
// CHECK-NEXT:      %[[WITH:.*]] = arith.addf %[[INIT]], %[[R]] fastmath<reassoc> : f32
// CHECK-NEXT:      %[[REST:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[END:.*]] = arith.constant 133 : index
// CHECK-NEXT:      %[[UNIT:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %{{.*}} = %[[REST]] to %[[END]] step %[[UNIT]] iter_args(%{{.*}} = %[[WITH]]) -> (f32) {
// CHECK:         }) {vectorized = "row(4x1, 4 streams)"}
// SINGLE-LABEL: func.func @sum_rows
// SINGLE:        {vectorized = "row(4x4)"}
// ORDERED-LABEL: func.func @sum_rows
// ORDERED-NOT:   vectorized
func.func @sum_rows(%x: tensor<2x133xf32>) -> tensor<2xf32> {
  %zero = xla.constant dense<-0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<2x133xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}

// -----

// A max over 100 f32 (checked): both the ordered pass and the exact one in the
// `scf.if` read the 4 segments of 24 elements [0, 24), [24, 48), [48, 72),
// [72, 96); the 4 elements past 96 run in order after the initial value. With
// reassociate=false (exact in any order, still vectorized) one stream.
// CHECK-LABEL: func.func @max_all
// CHECK:         %[[SEG:.*]] = arith.constant 24 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %{{.*}}:8 = scf.for %[[J:.*]] = %{{.*}} to %[[SEG]] step %[[STEP]]
// CHECK-NEXT:      vector.load %x[%[[J]]] : memref<100xf32>, vector<4xf32>
// CHECK:           %[[O1:.*]] = arith.constant 24 : index
// CHECK-NEXT:      %[[J1:.*]] = arith.addi %[[J]], %[[O1]] : index
// CHECK-NEXT:      vector.load %x[%[[J1]]] : memref<100xf32>, vector<4xf32>
// CHECK:           %[[O2:.*]] = arith.constant 48 : index
// CHECK:           %[[O3:.*]] = arith.constant 72 : index
// CHECK:         } {vectorized = "row(4x1, 4 streams)"}
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           %[[SEG2:.*]] = arith.constant 24 : index
// CHECK-NEXT:      %[[STEP2:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %{{.*}}:12 = scf.for %{{.*}} = %{{.*}} to %[[SEG2]] step %[[STEP2]]
// CHECK:             arith.constant 72 : index
// CHECK:         arith.maximumf
// CHECK-NEXT:    %[[REST:.*]] = arith.constant 96 : index
// CHECK-NEXT:    %[[END:.*]] = arith.constant 100 : index
// ORDERED-LABEL: func.func @max_all
// ORDERED:       {vectorized = "row(4x4)"}
func.func @max_all(%x: tensor<100xf32>) -> tensor<f32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [0] : (tensor<100xf32>, tensor<f32>) -> tensor<f32>
  func.return %m : tensor<f32>
}

// -----

// Rows shorter than `stream_bytes` (60 f32: 240 bytes) are read in order.
// CHECK-LABEL: func.func @short_rows
// CHECK:         {vectorized = "row(4x4)"}
func.func @short_rows(%x: tensor<2x60xf32>) -> tensor<2xf32> {
  %zero = xla.constant dense<-0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<2x60xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
