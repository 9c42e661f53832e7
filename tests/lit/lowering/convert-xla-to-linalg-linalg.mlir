// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// Cholesky, lower: a zero-filled work tensor and a flag per matrix; rows i,
// columns j < i: L[i, j] = (a[i, j] - L[i, :j]·L[j, :j]) / L[j, j] (the dot
// product along two rows, summed reassoc), then L[i, i] = sqrt(...) with the
// NaN flag; the epilogue selects NaN for a failed matrix.
// CHECK-LABEL: func.func @cholesky_lower
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[W0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[FLAGS:.*]] = tensor.empty() : tensor<i1>
// CHECK:      %[[FALSE:.*]] = arith.constant false
// CHECK:      %[[LOOP:[^ ]*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[WI:.*]] = %[[W0]], %[[BI:.*]] = %[[FALSE]]) -> (tensor<4x4xf32>, i1) {
// CHECK:        %[[WR:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[I]] step %{{.*}} iter_args(%[[WJ:.*]] = %[[WI]]) -> (tensor<4x4xf32>) {
// CHECK:          %[[S:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[J]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:       %[[X:.*]] = tensor.extract %[[WJ]][%[[I]], %[[K]]] : tensor<4x4xf32>
// CHECK-NEXT:       %[[Y:.*]] = tensor.extract %[[WJ]][%[[J]], %[[K]]] : tensor<4x4xf32>
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:       %[[SUM:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc> : f32
// CHECK-NEXT:       scf.yield %[[SUM]] : f32
// CHECK:          %[[AIJ:.*]] = tensor.extract %a[%[[I]], %[[J]]] : tensor<4x4xf32>
// CHECK-NEXT:     %[[NUM:.*]] = arith.subf %[[AIJ]], %[[S]] : f32
// CHECK-NEXT:     %[[PIV:.*]] = tensor.extract %[[WJ]][%[[J]], %[[J]]] : tensor<4x4xf32>
// CHECK-NEXT:     %[[Q:.*]] = arith.divf %[[NUM]], %[[PIV]] : f32
// CHECK-NEXT:     %[[WN:.*]] = tensor.insert %[[Q]] into %[[WJ]][%[[I]], %[[J]]] : tensor<4x4xf32>
// CHECK-NEXT:     scf.yield %[[WN]] : tensor<4x4xf32>
// CHECK:        %[[SD:.*]] = scf.for %{{.*}} = %{{.*}} to %[[I]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:        %[[AII:.*]] = tensor.extract %a[%[[I]], %[[I]]] : tensor<4x4xf32>
// CHECK-NEXT:   %[[D:.*]] = arith.subf %[[AII]], %[[SD]] : f32
// CHECK-NEXT:   %[[ROOT:.*]] = math.sqrt %[[D]] : f32
// CHECK-NEXT:   %[[NAN:.*]] = arith.cmpf uno, %[[ROOT]], %[[ROOT]] : f32
// CHECK-NEXT:   %[[BN:.*]] = arith.ori %[[BI]], %[[NAN]] : i1
// CHECK-NEXT:   %[[WD:.*]] = tensor.insert %[[ROOT]] into %[[WR]][%[[I]], %[[I]]] : tensor<4x4xf32>
// CHECK-NEXT:   scf.yield %[[WD]], %[[BN]] : tensor<4x4xf32>, i1
// CHECK:      %[[F:.*]] = tensor.insert %[[LOOP]]#1 into %[[FLAGS]][] : tensor<i1>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[LOOP]]#0, %[[F]] : tensor<4x4xf32>, tensor<i1>)
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32, %[[FAILED:.*]]: i1, %{{.*}}: f32):
// CHECK-NEXT:   %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:   %[[R:.*]] = arith.select %[[FAILED]], %[[QNAN]], %[[E]] : f32
// CHECK-NEXT:   linalg.yield %[[R]] : f32
func.func @cholesky_lower(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = xla.cholesky %a, lower = true : tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// Upper (the default), batched, bf16: computed in f32 (one widening generic);
// one loop per batch dimension; a[j, i] read instead of a[i, j]; the epilogue
// reads the work tensor transposed and rounds to bf16.
// CHECK-LABEL: func.func @cholesky_upper_batched_bf16
// CHECK:      %[[A32:.*]] = linalg.generic
// CHECK:        arith.extf %{{.*}} : bf16 to f32
// CHECK:      %[[FLAGS:.*]] = tensor.empty() : tensor<2xi1>
// CHECK:      %[[OUTER:[^ ]*]]:2 = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[FB:.*]] = %[[FLAGS]]) -> (tensor<2x3x3xf32>, tensor<2xi1>) {
// CHECK:        %[[INNER:[^ ]*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<2x3x3xf32>, i1) {
// CHECK:          scf.for %[[J:.*]] = %{{.*}} to %[[I]] step
// CHECK:              tensor.extract %{{.*}}[%[[B]], %[[I]], %{{.*}}] : tensor<2x3x3xf32>
// CHECK:            tensor.extract %[[A32]][%[[B]], %[[J]], %[[I]]] : tensor<2x3x3xf32>
// CHECK:          tensor.extract %[[A32]][%[[B]], %[[I]], %[[I]]] : tensor<2x3x3xf32>
// CHECK:        tensor.insert %[[INNER]]#1 into %[[FB]][%[[B]]] : tensor<2xi1>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[OUTER]]#0, %[[OUTER]]#1 : tensor<2x3x3xf32>, tensor<2xi1>) outs(%{{.*}} : tensor<2x3x3xbf16>)
// CHECK:        arith.select
// CHECK-NEXT:   arith.truncf %{{.*}} : f32 to bf16
func.func @cholesky_upper_batched_bf16(%a: tensor<2x3x3xbf16>) -> tensor<2x3x3xbf16> {
  %0 = xla.cholesky %a : tensor<2x3x3xbf16>
  func.return %0 : tensor<2x3x3xbf16>
}

// Left side, a lower: rows ascending; x[i, :] -= a[i, k] x[k, :] for k < i (the
// innermost loop along rows of x), then x[i, :] /= a[i, i]. x starts as b.
// CHECK-LABEL: func.func @solve_left
// CHECK:      %[[M:.*]] = arith.constant 3 : index
// CHECK:      %[[K:.*]] = arith.constant 2 : index
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} iter_args(%[[X:.*]] = %b) -> (tensor<3x2xf64>) {
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %[[I]] step %{{.*}} iter_args(%{{.*}} = %[[X]]) -> (tensor<3x2xf64>) {
// CHECK-NEXT:     %[[C:.*]] = tensor.extract %a[%[[I]], %[[R]]] : tensor<3x3xf64>
// CHECK:          scf.for %[[COL:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[XC:.*]] = %{{.*}}) -> (tensor<3x2xf64>) {
// CHECK-NEXT:       %[[OLD:.*]] = tensor.extract %[[XC]][%[[I]], %[[COL]]] : tensor<3x2xf64>
// CHECK-NEXT:       %[[XK:.*]] = tensor.extract %[[XC]][%[[R]], %[[COL]]] : tensor<3x2xf64>
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[C]], %[[XK]] : f64
// CHECK-NEXT:       %[[NEW:.*]] = arith.subf %[[OLD]], %[[P]] : f64
// CHECK-NEXT:       tensor.insert %[[NEW]] into %[[XC]][%[[I]], %[[COL]]] : tensor<3x2xf64>
// CHECK:        %[[PIV:.*]] = tensor.extract %a[%[[I]], %[[I]]] : tensor<3x3xf64>
// CHECK:        scf.for %{{.*}} = %{{.*}} to %[[K]] step
// CHECK:          arith.divf %{{.*}}, %[[PIV]] : f64
func.func @solve_left(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = "xla.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  func.return %0 : tensor<3x2xf64>
}

// Left side, aᵀ with a lower (op(a) upper): rows descending (i = 2 - t), and
// right-looking: x[k, :] -= a[i, k] x[i, :] for k < i. Unit diagonal: no division.
// CHECK-LABEL: func.func @solve_left_transposed_unit
// CHECK-NOT:  arith.divf
// CHECK:      %[[LAST:.*]] = arith.constant 2 : index
// CHECK:      scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %b) -> (tensor<3x2xf64>) {
// CHECK-NEXT:   %[[I:.*]] = arith.subi %[[LAST]], %[[T]] : index
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %[[I]] step
// CHECK-NEXT:     %[[C:.*]] = tensor.extract %a[%[[I]], %[[R]]] : tensor<3x3xf64>
// CHECK:          scf.for %[[COL:.*]] = {{.*}} iter_args(%[[XC:.*]] = %{{.*}}) -> (tensor<3x2xf64>) {
// CHECK-NEXT:       %[[OLD:.*]] = tensor.extract %[[XC]][%[[R]], %[[COL]]] : tensor<3x2xf64>
// CHECK-NEXT:       %[[XI:.*]] = tensor.extract %[[XC]][%[[I]], %[[COL]]] : tensor<3x2xf64>
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[C]], %[[XI]] : f64
// CHECK-NEXT:       %[[NEW:.*]] = arith.subf %[[OLD]], %[[P]] : f64
// CHECK-NEXT:       tensor.insert %[[NEW]] into %[[XC]][%[[R]], %[[COL]]] : tensor<3x2xf64>
// CHECK-NOT:  arith.divf
// CHECK:      func.return
func.func @solve_left_transposed_unit(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = "xla.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = true, transpose_a = #xla<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  func.return %0 : tensor<3x2xf64>
}

// Right side, a upper: each row r of x in turn, columns ascending:
// x[r, i] /= a[i, i], then x[r, j] -= x[r, i] a[i, j] for j > i (row i of a).
// CHECK-LABEL: func.func @solve_right_upper
// CHECK:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK:      %[[M:.*]] = arith.constant 3 : index
// CHECK:      scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %b) -> (tensor<2x3xf32>) {
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (tensor<2x3xf32>) {
// CHECK-NEXT:     %[[XI:.*]] = tensor.extract %[[X]][%[[R]], %[[I]]] : tensor<2x3xf32>
// CHECK-NEXT:     %[[PIV:.*]] = tensor.extract %a[%[[I]], %[[I]]] : tensor<3x3xf32>
// CHECK-NEXT:     %[[Q:.*]] = arith.divf %[[XI]], %[[PIV]] : f32
// CHECK-NEXT:     %[[X1:.*]] = tensor.insert %[[Q]] into %[[X]][%[[R]], %[[I]]] : tensor<2x3xf32>
// CHECK-NEXT:     %[[LB:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK:          scf.for %[[J:.*]] = %[[LB]] to %[[M]] step %{{.*}} iter_args(%[[XJ:.*]] = %[[X1]]) -> (tensor<2x3xf32>) {
// CHECK-NEXT:       %[[OLD:.*]] = tensor.extract %[[XJ]][%[[R]], %[[J]]] : tensor<2x3xf32>
// CHECK-NEXT:       %[[AIJ:.*]] = tensor.extract %a[%[[I]], %[[J]]] : tensor<3x3xf32>
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[Q]], %[[AIJ]] : f32
// CHECK-NEXT:       %[[NEW:.*]] = arith.subf %[[OLD]], %[[P]] : f32
// CHECK-NEXT:       tensor.insert %[[NEW]] into %[[XJ]][%[[R]], %[[J]]] : tensor<2x3xf32>
func.func @solve_right_upper(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "xla.triangular_solve"(%a, %b) <{left_side = false, lower = false, unit_diagonal = false, transpose_a = #xla<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// Right side, ADJOINT (= TRANSPOSE for f32) of a lower, batched: a batch loop;
// per row, x[r, j] = (x[r, j] - x[r, :j]·a[j, :j]) / a[j, j], a dot product of
// two rows summed reassoc.
// CHECK-LABEL: func.func @solve_right_adjoint_batched
// CHECK:      scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %b) -> (tensor<5x2x3xf32>) {
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<5x2x3xf32>) {
// CHECK:          scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %{{.*}}) -> (tensor<5x2x3xf32>) {
// CHECK:            %[[S:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[J]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:         %[[XI:.*]] = tensor.extract %[[X]][%[[B]], %[[R]], %[[I]]] : tensor<5x2x3xf32>
// CHECK-NEXT:         %[[AJI:.*]] = tensor.extract %a[%[[B]], %[[J]], %[[I]]] : tensor<5x3x3xf32>
// CHECK-NEXT:         %[[P:.*]] = arith.mulf %[[XI]], %[[AJI]] : f32
// CHECK-NEXT:         arith.addf %[[ACC]], %[[P]] fastmath<reassoc> : f32
// CHECK:            %[[XJ:.*]] = tensor.extract %[[X]][%[[B]], %[[R]], %[[J]]] : tensor<5x2x3xf32>
// CHECK-NEXT:       %[[NUM:.*]] = arith.subf %[[XJ]], %[[S]] : f32
// CHECK-NEXT:       %[[PIV:.*]] = tensor.extract %a[%[[B]], %[[J]], %[[J]]] : tensor<5x3x3xf32>
// CHECK-NEXT:       %[[Q:.*]] = arith.divf %[[NUM]], %[[PIV]] : f32
// CHECK-NEXT:       tensor.insert %[[Q]] into %[[X]][%[[B]], %[[R]], %[[J]]] : tensor<5x2x3xf32>
func.func @solve_right_adjoint_batched(%a: tensor<5x3x3xf32>, %b: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  %0 = "xla.triangular_solve"(%a, %b) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #xla<transpose ADJOINT>}> : (tensor<5x3x3xf32>, tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  func.return %0 : tensor<5x2x3xf32>
}

// Complex: ADJOINT conjugates every element of a read (here a left solve with
// a upper: op(a) = aᴴ lower, rows ascending, right-looking); complex arithmetic
// in the complex dialect.
// CHECK-LABEL: func.func @solve_left_adjoint_complex
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %b) -> (tensor<3x1xcomplex<f64>>) {
// CHECK:        %[[D:.*]] = tensor.extract %a[%[[I]], %[[I]]] : tensor<3x3xcomplex<f64>>
// CHECK-NEXT:   %[[DC:.*]] = complex.conj %[[D]] : complex<f64>
// CHECK:          complex.div %{{.*}}, %[[DC]] : complex<f64>
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[C:.*]] = tensor.extract %a[%[[I]], %[[R]]] : tensor<3x3xcomplex<f64>>
// CHECK-NEXT:     %[[CC:.*]] = complex.conj %[[C]] : complex<f64>
// CHECK:            %[[P:.*]] = complex.mul %[[CC]], %{{.*}} : complex<f64>
// CHECK-NEXT:       complex.sub %{{.*}}, %[[P]] : complex<f64>
func.func @solve_left_adjoint_complex(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x1xcomplex<f64>>) -> tensor<3x1xcomplex<f64>> {
  %0 = "xla.triangular_solve"(%a, %b) <{left_side = true, lower = false, unit_diagonal = false, transpose_a = #xla<transpose ADJOINT>}> : (tensor<3x3xcomplex<f64>>, tensor<3x1xcomplex<f64>>) -> tensor<3x1xcomplex<f64>>
  func.return %0 : tensor<3x1xcomplex<f64>>
}

// Complex upper Cholesky: conj(a[j, i]) is read, the diagonal pivot is the real
// part, and the epilogue conjugates the transposed factor (U = Lᴴ).
// CHECK-LABEL: func.func @cholesky_upper_complex
// CHECK:        %[[AJI:.*]] = tensor.extract %a[%[[J:.*]], %[[I:.*]]] : tensor<2x2xcomplex<f32>>
// CHECK-NEXT:   complex.conj %[[AJI]] : complex<f32>
// CHECK:      %[[RE:.*]] = complex.re %{{.*}} : complex<f32>
// CHECK-NEXT: %[[ROOT:.*]] = math.sqrt %[[RE]] : f32
// CHECK:      complex.create %[[ROOT]], %{{.*}} : complex<f32>
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:        %[[UC:.*]] = complex.conj %{{.*}} : complex<f32>
// CHECK-NEXT:   arith.select %{{.*}}, %{{.*}}, %[[UC]] : complex<f32>
func.func @cholesky_upper_complex(%a: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  %0 = xla.cholesky %a, lower = false : tensor<2x2xcomplex<f32>>
  func.return %0 : tensor<2x2xcomplex<f32>>
}
