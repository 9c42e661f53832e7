// RUN: xla-opt %s -p xla-decompose-chlo | FileCheck %s

// mulhi of i8: widened to i16, multiplied, shifted right (arithmetic: signed) by 8, narrowed.
// CHECK-LABEL: func.func @mulhi_i8
// CHECK-NEXT:    %[[A:.*]] = xla.convert %a : (tensor<3xi8>) -> tensor<3xi16>
// CHECK-NEXT:    %[[B:.*]] = xla.convert %b : (tensor<3xi8>) -> tensor<3xi16>
// CHECK-NEXT:    %[[P:.*]] = xla.multiply %[[A]], %[[B]] : tensor<3xi16>
// CHECK-NEXT:    %[[NS:.*]] = xla.constant dense<8> : tensor<i16>
// CHECK-NEXT:    %[[N:.*]] = xla.broadcast_in_dim %[[NS]], dims = [] : (tensor<i16>) -> tensor<3xi16>
// CHECK-NEXT:    %[[H:.*]] = xla.shift_right_arithmetic %[[P]], %[[N]] : tensor<3xi16>
// CHECK-NEXT:    %[[R:.*]] = xla.convert %[[H]] : (tensor<3xi16>) -> tensor<3xi8>
// CHECK-NEXT:    func.return %[[R]] : tensor<3xi8>
func.func @mulhi_i8(%a: tensor<3xi8>, %b: tensor<3xi8>) -> tensor<3xi8> {
  %0 = "chlo.mulhi"(%a, %b) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  func.return %0 : tensor<3xi8>
}

// f16 is computed in f32 and rounded back; atan(x) = atan2(x, 1).
// CHECK-LABEL: func.func @atan_f16
// CHECK-NEXT:    %[[X:.*]] = xla.convert %x : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[ONES:.*]] = xla.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[ONE:.*]] = xla.broadcast_in_dim %[[ONES]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[Y:.*]] = xla.atan2 %[[X]], %[[ONE]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.convert %[[Y]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf16>
func.func @atan_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = chlo.atan %x : tensor<4xf16> -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// erf_inv: Giles' form x P(w), w = -log((1 - |x|)(1 + |x|)) (exact next to +-1), +-inf at |x| = 1.
// CHECK-LABEL: func.func @erf_inv_f32
// CHECK-NEXT:    %[[ABS:.*]] = xla.abs %x : tensor<4xf32>
// CHECK-NEXT:    %[[ONES:.*]] = xla.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[ONE:.*]] = xla.broadcast_in_dim %[[ONES]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[OMX:.*]] = xla.subtract %[[ONE]], %[[ABS]] : tensor<4xf32>
// CHECK-NEXT:    %[[OPX:.*]] = xla.add %[[ONE]], %[[ABS]] : tensor<4xf32>
// CHECK-NEXT:    %[[T:.*]] = xla.multiply %[[OMX]], %[[OPX]] : tensor<4xf32>
// CHECK-NEXT:    %[[L:.*]] = xla.log %[[T]] : tensor<4xf32>
// CHECK-NEXT:    %[[W:.*]] = xla.negate %[[L]] : tensor<4xf32>
// CHECK:         xla.compare LT, %[[W]], %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK:         %[[P:.*]] = xla.multiply %{{.*}}, %x : tensor<4xf32>
// CHECK-NEXT:    %[[AT1:.*]] = xla.compare EQ, %[[ABS]], %[[ONE]]
// CHECK-NEXT:    %[[INFS:.*]] = xla.constant dense<0x7F800000> : tensor<f32>
// CHECK-NEXT:    %[[INF:.*]] = xla.broadcast_in_dim %[[INFS]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[SINF:.*]] = xla.multiply %x, %[[INF]] : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.select %[[AT1]], %[[SINF]], %[[P]]
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
func.func @erf_inv_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// top_k: a stable descending (total order) sort of (values, iota), then the first k.
// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:    %[[IOTA:.*]] = xla.iota dim = 1 : tensor<3x5xi32>
// CHECK-NEXT:    %[[SORTED:[^ ]*]]:2 = "xla.sort"(%x, %[[IOTA]]) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT:    ^bb0(%[[L:.*]]: tensor<f32>, %[[R:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT:      %[[GT:.*]] = xla.compare GT, %[[L]], %[[R]], TOTALORDER
// CHECK-NEXT:      xla.return %[[GT]] : tensor<i1>
// CHECK-NEXT:    })
// CHECK-NEXT:    %[[VS:.*]] = xla.slice %[[SORTED]]#0 [0:3, 0:2] : (tensor<3x5xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[IS:.*]] = xla.slice %[[SORTED]]#1 [0:3, 0:2] : (tensor<3x5xi32>) -> tensor<3x2xi32>
// CHECK-NEXT:    func.return %[[VS]], %[[IS]]
func.func @top_k(%x: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %v, %i = chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  func.return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// Broadcasting ops: numpy prefix padding (the rank-1 operand maps to dimension 1).
// CHECK-LABEL: func.func @bcast
// CHECK-NEXT:    %[[B:.*]] = xla.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = xla.add %[[B]], %m : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @bcast(%a: tensor<3xf32>, %m: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// scan: a while over (index, carries, outputs); the body slices the input at the
// position, inlines the scan body and writes the output slice.
// CHECK-LABEL: func.func @scan
// CHECK-NEXT:    %[[OUT0:.*]] = xla.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:    %[[I0:.*]] = xla.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[LOOP:[^ ]*]]:3 = xla.while(%[[I:.*]] = %[[I0]], %[[C:.*]] = %init, %[[O:.*]] = %[[OUT0]]) : tensor<i64>, tensor<i32>, tensor<4xi32>
// CHECK:           xla.compare LT, %[[I]]
// CHECK:         } do {
// CHECK:           %[[PIECE:.*]] = xla.dynamic_slice %x, %[[I]], sizes = [1] : (tensor<4xi32>, tensor<i64>) -> tensor<1xi32>
// CHECK-NEXT:      %[[ELEM:.*]] = xla.reshape %[[PIECE]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:      %[[SUM:.*]] = xla.add %[[ELEM]], %[[C]] : tensor<i32>
// CHECK-NEXT:      %[[UPD:.*]] = xla.reshape %[[SUM]] : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:      %[[NEW:.*]] = xla.dynamic_update_slice %[[O]], %[[UPD]], %[[I]]
// CHECK:           %[[NEXT:.*]] = xla.add %[[I]], %{{.*}} : tensor<i64>
// CHECK-NEXT:      xla.return %[[NEXT]], %[[SUM]], %[[NEW]] : tensor<i64>, tensor<i32>, tensor<4xi32>
// CHECK:         func.return %[[LOOP]]#2, %[[LOOP]]#1 : tensor<4xi32>, tensor<i32>
func.func @scan(%x: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%x) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// ragged_dot, mode 1: group ends by a masked reduce, a one-hot lhs [m, k, g] and
// one dot_general contracting (k, g) with the rhs (k, group).
// CHECK-LABEL: func.func @ragged
// CHECK:         %[[ENDS:.*]] = xla.reduce(%{{.*}} init: %{{.*}}) applies xla.add across dimensions = [1] : (tensor<3x3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[STARTS:.*]] = xla.subtract %[[ENDS]], %g : tensor<3xi64>
// CHECK-NEXT:    %[[POS:.*]] = xla.iota dim = 0 : tensor<11x5x3xi64>
// CHECK:         %[[MASK:.*]] = xla.and %{{.*}}, %{{.*}} : tensor<11x5x3xi1>
// CHECK-NEXT:    %[[LG:.*]] = xla.broadcast_in_dim %l, dims = [0, 1] : (tensor<11x5xf32>) -> tensor<11x5x3xf32>
// CHECK-NEXT:    %[[Z:.*]] = xla.constant dense<0.000000e+00> : tensor<11x5x3xf32>
// CHECK-NEXT:    %[[LM:.*]] = xla.select %[[MASK]], %[[LG]], %[[Z]]
// CHECK-NEXT:    %[[D:.*]] = xla.dot_general %[[LM]], %r, contracting_dims = [1, 2] x [1, 0] : (tensor<11x5x3xf32>, tensor<3x5x7xf32>) -> tensor<11x7xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @ragged(%l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi64>) -> tensor<11x7xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// ragged_dot, mode 3 (ragged batch dimension): a plain dot_general.
// CHECK-LABEL: func.func @ragged_batch
// CHECK-NEXT:    %[[D:.*]] = xla.dot_general %l, %r, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @ragged_batch(%l: tensor<4x2x3xf32>, %r: tensor<4x3x5xf32>, %g: tensor<2xi32>) -> tensor<4x2x5xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>, tensor<2xi32>) -> tensor<4x2x5xf32>
  func.return %0 : tensor<4x2x5xf32>
}

// Complex asin (Hull, Fairgrieve and Tang): complex<f32> splits into its components,
// computes in f64 and rounds each result component once before xla.complex.
// CHECK-LABEL: func.func @asin_c64
// CHECK-NEXT:    %[[RE:.*]] = xla.real %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT:    %[[IM:.*]] = xla.imag %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT:    %[[RE64:.*]] = xla.convert %[[RE]] : (tensor<2xf32>) -> tensor<2xf64>
// CHECK-NEXT:    %[[IM64:.*]] = xla.convert %[[IM]] : (tensor<2xf32>) -> tensor<2xf64>
// CHECK:         xla.atan2
// CHECK:         xla.log_plus_one
// CHECK:         %[[OUT_RE:.*]] = xla.convert %{{.*}} : (tensor<2xf64>) -> tensor<2xf32>
// CHECK-NEXT:    %[[OUT_IM:.*]] = xla.convert %{{.*}} : (tensor<2xf64>) -> tensor<2xf32>
// CHECK-NEXT:    %[[Z:.*]] = xla.complex %[[OUT_RE]], %[[OUT_IM]] : tensor<2xcomplex<f32>>
// CHECK-NEXT:    func.return %[[Z]] : tensor<2xcomplex<f32>>
func.func @asin_c64(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = chlo.asin %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// complex<f64> computes on its own components (no conversion).
// CHECK-LABEL: func.func @atanh_c128
// CHECK-NEXT:    %[[RE:.*]] = xla.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NEXT:    %[[IM:.*]] = xla.imag %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
// CHECK-NOT:     xla.convert
// CHECK:         xla.atan2
// CHECK:         %[[Z:.*]] = xla.complex %{{.*}}, %{{.*}} : tensor<2xcomplex<f64>>
// CHECK-NEXT:    func.return %[[Z]] : tensor<2xcomplex<f64>>
func.func @atanh_c128(%z: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %0 = chlo.atanh %z : tensor<2xcomplex<f64>> -> tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}
