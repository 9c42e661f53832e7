// RUN: xla-opt %s -p "convert-xla-to-linalg,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-vectorize-reductions{vector_bits=128 column_vectors=2 column_bytes=64}" | FileCheck %s
// RUN: xla-opt %s -p "convert-xla-to-linalg,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-vectorize-reductions{vector_bits=128 column_vectors=2 column_rows=0}" | FileCheck %s --check-prefix=WHOLE

// The column form in groups of rows: 10 rows = two groups of 4 and one of 2; the
// 32 vectorized columns in panels of 16 (64 bytes of outputs: `column_bytes`),
// each two blocks of 8 columns (2 vectors). A panel runs a group of rows over
// both of its blocks before the next group; the group left over comes last, so
// every output sees rows 0..9 in order. Columns 32-37 keep the whole-reduction
// loop (one vector, then scalars).
// CHECK-LABEL: func.func @sum_columns
// CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
// CHECK:       "scf.parallel"(%{{.*}}, %[[C32]], %[[C16]])
// CHECK-NEXT:  ^bb0(%[[P:.*]]: index):
// CHECK:         %[[PE:.*]] = arith.addi %[[P]], %{{.*}} : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[G:.*]] = %{{.*}} to %[[C8]] step %[[C4]] {
// CHECK:           scf.for %[[C:.*]] = %[[P]] to %[[PE]] step %{{.*}} {
// CHECK:             vector.load %{{.*}}[%[[C]]] : memref<38xf32>, vector<4xf32>
// CHECK:             scf.for %{{.*}} = %[[G]] to %{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-COUNT-2:       vector.load %x
// CHECK:             vector.store
// CHECK:             vector.store
// CHECK:         scf.for %[[C2:.*]] = %[[P]] to %[[PE]] step %{{.*}} {
// CHECK:           vector.load %{{.*}}[%[[C2]]] : memref<38xf32>, vector<4xf32>
// CHECK:           %[[R8:.*]] = arith.constant 8 : index
// CHECK:           %[[C10:.*]] = arith.constant 10 : index
// CHECK:           scf.for %{{.*}} = %[[R8]] to %[[C10]] step %{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>) {
// CHECK:         scf.reduce
// CHECK-NEXT:  }) {vectorized = "column(4x2, 4 rows x 16)"}
// CHECK:       scf.for %{{.*}} = %[[C32]] to %{{.*}} step
// CHECK:         arith.constant 0 : index
// CHECK:         arith.constant 10 : index
// CHECK:         scf.for {{.*}} -> (vector<4xf32>)

// `column_rows=0`: each block of 8 columns walks all the rows.
// WHOLE-LABEL: func.func @sum_columns
// WHOLE:       "scf.parallel"
// WHOLE-NEXT:  ^bb0(%[[P:.*]]: index):
// WHOLE:         vector.load %{{.*}}[%[[P]]] : memref<38xf32>, vector<4xf32>
// WHOLE:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>) {
// WHOLE:       }) {vectorized = "column(4x2)"}
func.func @sum_columns(%x: tensor<10x38xf32>) -> tensor<38xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [0] : (tensor<10x38xf32>, tensor<f32>) -> tensor<38xf32>
  func.return %s : tensor<38xf32>
}
