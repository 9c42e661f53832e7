// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-reassociate-reductions,linalg-vectorize-reductions{vector_bits=128 column_vectors=4}" | FileCheck %s
// RUN: xla-opt %s --split-input-file -p "convert-xla-to-linalg,linalg-fold-broadcasts,linalg-fuse-elementwise,bufferize,linalg-generalize-named-ops,linalg-interchange,linalg-reassociate-reductions{reassociate=false},linalg-vectorize-reductions{vector_bits=128 column_vectors=4 reassociate=false}" | FileCheck %s --check-prefix=ORDERED

// Max over rows (exact in any order), checked: 4 groups of accumulators of 4 lanes,
// each an ordered max by compare and select from -inf (skips NaNs, either zero
// may win) beside the AND of `x ord x` (no NaN so far, from true). The groups, then
// the halves of the lanes, combine the same way. The result stands when no NaN was
// seen and it is not a zero (then it equals the exact max, bit for bit); otherwise
// the row is reduced again exactly in one pass in the `scf.if`'s else branch: the
// last NaN seen (from 0.0) and the AND of the elements' bits (from -1), a zero
// result taking the sign bit of the AND, a NaN seen replacing the result. Then the
// initial value. The row loop stays parallel. Vectorized with reassociate=false too.
// CHECK-LABEL: func.func @max_rows
// CHECK:       "scf.parallel"
// CHECK:         %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[SPLAT:.*]] = vector.broadcast %[[NINF]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    %[[ALL:.*]] = vector.broadcast %[[TRUE]] : i1 to vector<4xi1>
// CHECK:         %[[ACCS:[^ ]*]]:8 = scf.for %[[J:[^ ]*]] = {{.*}} iter_args(%[[M:[^ ]*]] = %[[SPLAT]], %[[O:[^ ]*]] = %[[ALL]], {{.*}}) -> (vector<4xf32>, vector<4xi1>, {{.*}}) {
// CHECK-NEXT:      %[[X:.*]] = vector.load %x[%{{.*}}, %[[J]]] : memref<4x32xf32>, vector<4xf32>
// CHECK-NEXT:      %[[ORD:.*]] = arith.cmpf ord, %[[X]], %[[X]] : vector<4xf32>
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[M]] : vector<4xf32>
// CHECK-NEXT:      arith.select %[[GT]], %[[X]], %[[M]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:      arith.andi %[[O]], %[[ORD]] : vector<4xi1>
// CHECK-NOT:       arith.maximumf
// CHECK:         }
// CHECK-NOT:     scf.for
// CHECK-NOT:     arith.maximumf {{.*}} : vector
// CHECK:         vector.shuffle %{{.*}} [2, 3] : vector<4xf32>, vector<4xf32>
// CHECK:         %[[FAST:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<1xf32> into f32
// CHECK-NEXT:    %[[NONAN:.*]] = vector.reduction <and>, %{{.*}} : vector<4xi1> into i1
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[NONZERO:.*]] = arith.cmpf one, %[[FAST]], %[[C0]] : f32
// CHECK-NEXT:    %[[STANDS:.*]] = arith.andi %[[NONAN]], %[[NONZERO]] : i1
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[STANDS]] -> (f32) {
// CHECK-NEXT:      scf.yield %[[FAST]] : f32
// CHECK-NEXT:    } else {
// CHECK:           %[[Z0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[ZERO:.*]] = vector.broadcast %[[Z0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[ONES0:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[ONES:.*]] = vector.broadcast %[[ONES0]] : i32 to vector<4xi32>
// CHECK:           scf.for %[[J2:[^ ]*]] = {{.*}} iter_args(%[[M2:[^ ]*]] = %{{[^ ]*}}, %[[N:[^ ]*]] = %[[ZERO]], %[[B:[^ ]*]] = %[[ONES]], {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xi32>, {{.*}}) {
// CHECK-NEXT:        %[[X2:.*]] = vector.load %x[%{{.*}}, %[[J2]]] : memref<4x32xf32>, vector<4xf32>
// CHECK-NEXT:        %[[XB:.*]] = vector.bitcast %[[X2]] : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:        %[[GT2:.*]] = arith.cmpf ogt, %[[X2]], %[[M2]] : vector<4xf32>
// CHECK-NEXT:        arith.select %[[GT2]], %[[X2]], %[[M2]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        %[[UNO:.*]] = arith.cmpf uno, %[[X2]], %[[X2]] : vector<4xf32>
// CHECK-NEXT:        arith.select %[[UNO]], %[[X2]], %[[N]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:        arith.andi %[[B]], %[[XB]] : vector<4xi32>
// CHECK:           %[[EXACT:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<1xf32> into f32
// CHECK-NEXT:      %[[NAN:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<1xf32> into f32
// CHECK-NEXT:      %[[BITS:.*]] = vector.reduction <and>, %{{.*}} : vector<4xi32> into i32
// CHECK-NEXT:      %[[SIGN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:      %[[SB:.*]] = arith.andi %[[BITS]], %[[SIGN]] : i32
// CHECK-NEXT:      %[[SZ:.*]] = arith.bitcast %[[SB]] : i32 to f32
// CHECK-NEXT:      %[[F0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[IS0:.*]] = arith.cmpf oeq, %[[EXACT]], %[[F0]] : f32
// CHECK-NEXT:      %[[FIXED:.*]] = arith.select %[[IS0]], %[[SZ]], %[[EXACT]] : f32
// CHECK-NEXT:      %[[HASNAN:.*]] = arith.cmpf uno, %[[NAN]], %[[NAN]] : f32
// CHECK-NEXT:      %[[RE:.*]] = arith.select %[[HASNAN]], %[[NAN]], %[[FIXED]] : f32
// CHECK-NEXT:      scf.yield %[[RE]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[INIT:.*]] = memref.load
// CHECK-NEXT:    %[[OUT:.*]] = arith.maximumf %[[INIT]], %[[R]] fastmath<reassoc> : f32
// CHECK-NEXT:    memref.store %[[OUT]]
// CHECK:       }) {vectorized = "row(4x4)"}
// ORDERED-LABEL: func.func @max_rows
// ORDERED:       vector.reduction <maximumf>
// ORDERED:       {vectorized = "row(4x4)"}
func.func @max_rows(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %m : tensor<4xf32>
}

// -----

// A float sum is reordered only under reassoc: its accumulators start at -0.0
// (the identity: a sum of -0.0s stays -0.0) and the 5 elements past 32 run as a
// scalar loop in order. With reassociate=false it keeps the spec's order.
// CHECK-LABEL: func.func @sum_rows_tail
// CHECK:         arith.constant -0.000000e+00 : f32
// CHECK:         arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : vector<4xf32>
// CHECK:         vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<4xf32> into f32
// CHECK:         %[[HEAD:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK-NEXT:    %[[END:.*]] = arith.constant 37 : index
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} iter_args(%{{.*}} = %[[HEAD]]) -> (f32) {
// CHECK:         memref.store %[[SUM]]
// CHECK:       {vectorized = "row(4x4)"}
// ORDERED-LABEL: func.func @sum_rows_tail
// ORDERED-NOT:   vector.
// ORDERED:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// ORDERED-NOT:   vector.
// ORDERED:       func.return
func.func @sum_rows_tail(%x: tensor<4x37xf32>) -> tensor<4xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<4x37xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}

// -----

// A sum over rows into 38 columns: blocks of 16 columns live in 4 vectors across
// a group of 4 rows (`column_rows`), the blocks of the panel (all 32 columns: the
// outputs fit in L1) one after another, then the next group, so the matrix is
// read in order (each column sums in the spec's order: no reassoc needed); the
// panels run in parallel; then columns 32-35 as one vector, and the last 2 as
// scalars.
// CHECK-LABEL: func.func @sum_columns
// CHECK:       "scf.parallel"(%{{.*}}, %{{.*}}, %[[PANEL:.*]]) <{
// CHECK-NEXT:    ^bb0(%[[P:.*]]: index):
// CHECK:         scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step %[[FOUR:.*]] {
// CHECK:           %[[GE:.*]] = arith.addi %[[G]], %{{.*}} : index
// CHECK:           scf.for %[[C:.*]] = %[[P]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[O:.*]] = vector.load %{{.*}}[%[[C]]] : memref<38xf32>, vector<4xf32>
// CHECK-COUNT-3:     vector.load
// CHECK:             scf.for %[[R:.*]] = %[[G]] to %[[GE]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[O]], {{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT:          %[[V:.*]] = vector.load %x[%[[R]], %[[C]]] : memref<8x38xf32>, vector<4xf32>
// CHECK-NEXT:          arith.addf %[[ACC]], %[[V]] : vector<4xf32>
// CHECK:             vector.store
// CHECK:       }) {vectorized = "column(4x4, 4 rows x 32)"}
// CHECK:       %[[END:.*]] = arith.constant 36 : index
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} {
// CHECK:         scf.for {{.*}} -> (vector<4xf32>)
// CHECK:           arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:       scf.for
// CHECK:         memref.load
// CHECK:         scf.for
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// ORDERED-LABEL: func.func @sum_columns
// ORDERED:       {vectorized = "column(4x4, 4 rows x 32)"}
func.func @sum_columns(%x: tensor<8x38xf32>) -> tensor<38xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [0] : (tensor<8x38xf32>, tensor<f32>) -> tensor<38xf32>
  func.return %s : tensor<38xf32>
}

// -----

// argmax as JAX writes it: the iota operand is folded into the body as
// linalg.index 1, which becomes a vector of positions; partial results merge with
// the smaller position on the left (cmpi slt + selects), first the accumulators,
// then the halves of the lanes (vector.shuffle), then the initial value.
// CHECK-LABEL: func.func @argmax
// CHECK:       "scf.parallel"
// CHECK:         arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CHECK:         scf.for
// CHECK:           arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi32>
// CHECK:         arith.cmpi slt, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 1] : vector<4xi32>, vector<4xi32>
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [2, 3] : vector<4xi32>, vector<4xi32>
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0] : vector<2xi32>, vector<2xi32>
// CHECK:         vector.load %{{.*}} : memref<4xi32>, vector<1xi32>
// CHECK:         vector.store %{{.*}} : memref<4xi32>, vector<1xi32>
// CHECK:       }) {vectorized = "select(4x4)"}
// ORDERED-LABEL: func.func @argmax
// ORDERED-NOT:   vector.
// ORDERED:       linalg.index 1
// ORDERED-NOT:   vector.
// ORDERED:       func.return
func.func @argmax(%x: tensor<4x32xf32>) -> tensor<4xi32> {
  %iota = xla.iota dim = 1 : tensor<4x32xi32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce(%x init: %ninf), (%iota init: %zero) across dimensions = [1] : (tensor<4x32xf32>, tensor<4x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = xla.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = xla.or %gt, %nan : tensor<i1>
    %eq = xla.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = xla.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt : tensor<i1>
    %pick_i = xla.or %pick, %tie : tensor<i1>
    %rv = xla.select %pick, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %ri = xla.select %pick_i, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %rv, %ri : tensor<f32>, tensor<i32>
  }
  func.return %i : tensor<4xi32>
}

// -----

// A reduction to a scalar (rank 0) reads and writes its result as a vector of one
// through a memref<1xT> view: MLIR's vector.load/store need a memref of at least the
// vector's rank (iree-opt rejected `vector.load %m[] : memref<f32>, vector<1xf32>`).
// CHECK-LABEL: func.func @argmax_all
// CHECK:       %[[V:.*]] = memref.expand_shape %[[OUT:.*]] [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK-NEXT:  vector.load %[[V]][%{{.*}}] : memref<1xf32>, vector<1xf32>
// CHECK-NEXT:  %[[VI:.*]] = memref.expand_shape %[[OUTI:.*]] [] output_shape [1] : memref<i32> into memref<1xi32>
// CHECK-NEXT:  vector.load %[[VI]][%{{.*}}] : memref<1xi32>, vector<1xi32>
// CHECK:       %[[W:.*]] = memref.expand_shape %[[OUT]] [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK-NEXT:  vector.store %{{.*}}, %[[W]][%{{.*}}] : memref<1xf32>, vector<1xf32>
// CHECK-NOT:   vector.load %{{.*}}[] : memref<
// CHECK-NOT:   vector.store %{{.*}}[] : memref<
// ORDERED-LABEL: func.func @argmax_all
func.func @argmax_all(%x: tensor<64xf32>) -> (tensor<f32>, tensor<i32>) {
  %iota = xla.iota dim = 0 : tensor<64xi32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce(%x init: %ninf), (%iota init: %zero) across dimensions = [0] : (tensor<64xf32>, tensor<64xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = xla.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = xla.or %gt, %nan : tensor<i1>
    %eq = xla.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = xla.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt : tensor<i1>
    %pick_i = xla.or %pick, %tie : tensor<i1>
    %rv = xla.select %pick, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %ri = xla.select %pick_i, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %rv, %ri : tensor<f32>, tensor<i32>
  }
  func.return %v, %i : tensor<f32>, tensor<i32>
}
