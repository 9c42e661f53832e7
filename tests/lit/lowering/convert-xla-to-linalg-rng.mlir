// RUN: xla-opt %s -p convert-xla-to-linalg | FileCheck %s

// The stateful ops share one public PHILOX state global [key, counter_lo, counter_hi].
// CHECK: "memref.global"() <{sym_name = "__xla_rng_state", type = memref<3xi64>, initial_value = dense<[-8846114313915602277, 0, 0]> : tensor<3xi64>, sym_visibility = "public"}>
// CHECK-NOT: "memref.global"

// THREE_FRY, 32-bit words: split along the first even dimension (4 = 2 pairs),
// one cipher per pair of output rows, straight-line inside (trailing size 1).
// CHECK-LABEL: func.func @three_fry(
// CHECK-SAME: %[[S:.*]]: tensor<2xi64>) -> (tensor<2xi64>, tensor<3x4xi32>)
// CHECK: %[[KEY:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK: %[[CTR:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK: %[[PARITY:.*]] = arith.constant 466688986 : i32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<12xi32>
// CHECK: %[[ROWS:.*]] = arith.constant 6 : index
// CHECK: %[[OUT:.*]] = scf.for %[[R:.*]] = %{{.*}} to %[[ROWS]] step %{{.*}} iter_args(%[[T:.*]] = %[[E]]) -> (tensor<12xi32>) {
// CHECK:   arith.remui %[[R]]
// CHECK:   arith.divui %[[R]]
// CHECK:   %[[OFF:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK:   arith.addi %[[CTR]], %[[OFF]] : i64
// CHECK:   arith.constant 13 : i32
// CHECK:   arith.constant 19 : i32
// CHECK-COUNT-20: arith.ori
// CHECK-NOT: arith.ori
// CHECK:   %[[T1:.*]] = tensor.insert %{{.*}} into %[[T]][%{{.*}}] : tensor<12xi32>
// CHECK:   %[[T2:.*]] = tensor.insert %{{.*}} into %[[T1]][%{{.*}}] : tensor<12xi32>
// CHECK:   scf.yield %[[T2]] : tensor<12xi32>
// CHECK: }
// CHECK: %[[USED:.*]] = arith.constant 6 : i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[CTR]], %[[USED]] : i64
// CHECK: %[[STATE:.*]] = tensor.from_elements %[[KEY]], %[[NEXT]] : tensor<2xi64>
// CHECK: %[[BITS:.*]] = tensor.expand_shape %[[OUT]] {{\[}}[0 : i64, 1 : i64]] output_shape [3, 4] : tensor<12xi32> into tensor<3x4xi32>
// CHECK: func.return %[[STATE]], %[[BITS]]
func.func @three_fry(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xui32>) {
  %0, %1 = xla.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xui32>)
  func.return %0, %1 : tensor<2xui64>, tensor<3x4xui32>
}

// PHILOX: a loop over the two whole 4-word blocks (one cipher of 10 rounds
// each, 128-bit counter + block), then the partial block straight-line; the
// counter advances by 3 blocks; f32 outputs are the bits.
// CHECK-LABEL: func.func @philox(
// CHECK-SAME: %[[S:.*]]: tensor<3xi64>) -> (tensor<3xi64>, tensor<10xf32>)
// CHECK: %[[KEY:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK: %[[LO:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK: %[[HI:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<3xi64>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<10xf32>
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[LOOP:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[TWO]] step %{{.*}} iter_args(%[[T:.*]] = %[[E]]) -> (tensor<10xf32>) {
// CHECK:   %[[JJ:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK:   %[[CLO:.*]] = arith.addi %[[LO]], %[[JJ]] : i64
// CHECK:   arith.cmpi ult, %[[CLO]], %[[LO]] : i64
// CHECK:   arith.constant 3528531795 : i64
// CHECK:   arith.constant 3449720151 : i64
// CHECK:   arith.constant -1640531527 : i32
// CHECK:   arith.constant -1150833019 : i32
// CHECK-COUNT-20: arith.muli {{.*}} : i64
// CHECK-NOT: arith.muli {{.*}} : i64
// CHECK-COUNT-4: arith.bitcast {{.*}} : i32 to f32
// CHECK:   %[[T1:.*]] = tensor.insert %{{.*}} into %[[T]]
// CHECK:   %[[T2:.*]] = tensor.insert %{{.*}} into %[[T1]]
// CHECK:   %[[T3:.*]] = tensor.insert %{{.*}} into %[[T2]]
// CHECK:   %[[T4:.*]] = tensor.insert %{{.*}} into %[[T3]]
// CHECK:   scf.yield %[[T4]] : tensor<10xf32>
// CHECK: }
// CHECK-COUNT-20: arith.muli {{.*}} : i64
// CHECK: %[[U1:.*]] = tensor.insert %{{.*}} into %[[LOOP]]
// CHECK: %[[U2:.*]] = tensor.insert %{{.*}} into %[[U1]]
// CHECK-NOT: tensor.insert
// CHECK: %[[BLOCKS:.*]] = arith.constant 3 : i64
// CHECK: %[[NLO:.*]] = arith.addi %[[LO]], %[[BLOCKS]] : i64
// CHECK: %[[NHI:.*]] = arith.addi %[[HI]], %{{.*}} : i64
// CHECK: %[[STATE:.*]] = tensor.from_elements %[[KEY]], %[[NLO]], %[[NHI]] : tensor<3xi64>
// CHECK: func.return %[[STATE]], %[[U2]]
func.func @philox(%state: tensor<3xui64>) -> (tensor<3xui64>, tensor<10xf32>) {
  %0, %1 = xla.rng_bit_generator %state, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<10xf32>)
  func.return %0, %1 : tensor<3xui64>, tensor<10xf32>
}

// DEFAULT is PHILOX; a u64[2] state's counter high word is the key, and the
// new state keeps [key, counter_lo]. A rank-0 u64 output is one 2-word block.
// CHECK-LABEL: func.func @default(
// CHECK-SAME: %[[S:.*]]: tensor<2xi64>) -> (tensor<2xi64>, tensor<i64>)
// CHECK: %[[KEY:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK: %[[LO:.*]] = tensor.extract %[[S]][%{{.*}}] : tensor<2xi64>
// CHECK-NOT: scf.for
// CHECK: %[[CLO:.*]] = arith.addi %[[LO]], %{{.*}} : i64
// CHECK: %[[CARRY:.*]] = arith.cmpi ult, %[[CLO]], %[[LO]] : i64
// CHECK: %[[C:.*]] = arith.extui %[[CARRY]] : i1 to i64
// CHECK: arith.addi %[[KEY]], %[[C]] : i64
// CHECK-COUNT-20: arith.muli {{.*}} : i64
// CHECK: %[[FLAT:.*]] = tensor.insert %{{.*}} into %{{.*}} : tensor<1xi64>
// CHECK: %[[NLO:.*]] = arith.addi %[[LO]], %{{.*}} : i64
// CHECK: %[[STATE:.*]] = tensor.from_elements %[[KEY]], %[[NLO]] : tensor<2xi64>
// CHECK: %[[BITS:.*]] = tensor.collapse_shape %[[FLAT]] [] : tensor<1xi64> into tensor<i64>
// CHECK: func.return %[[STATE]], %[[BITS]]
func.func @default(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>) {
  %0, %1 = xla.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>)
  func.return %0, %1 : tensor<2xui64>, tensor<ui64>
}

// UNIFORM: get-and-update of the global counter (6 elements = 2 blocks), then
// Philox words -> mantissa floats in [0, 1) -> a + u * (b - a), clamped below b.
// CHECK-LABEL: func.func @uniform(
// CHECK-SAME: %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) -> tensor<2x3xf32>
// CHECK: %[[LOW:.*]] = tensor.extract %[[A]][] : tensor<f32>
// CHECK: %[[HIGH:.*]] = tensor.extract %[[B]][] : tensor<f32>
// CHECK: %[[SPAN:.*]] = arith.subf %[[HIGH]], %[[LOW]] : f32
// CHECK: %[[BELOW:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[G:.*]] = memref.get_global @__xla_rng_state : memref<3xi64>
// CHECK: %[[KEY:.*]] = memref.load %[[G]][%{{.*}}] : memref<3xi64>
// CHECK: %[[LO:.*]] = memref.load %[[G]][%{{.*}}] : memref<3xi64>
// CHECK: %[[HI:.*]] = memref.load %[[G]][%{{.*}}] : memref<3xi64>
// CHECK: %[[N:.*]] = arith.constant 2 : i64
// CHECK: %[[NLO:.*]] = arith.addi %[[LO]], %[[N]] : i64
// CHECK: memref.store %[[NLO]], %[[G]][%{{.*}}] : memref<3xi64>
// CHECK: memref.store %{{.*}}, %[[G]][%{{.*}}] : memref<3xi64>
// CHECK: tensor.empty() : tensor<6xf32>
// CHECK-COUNT-20: arith.muli {{.*}} : i64
// CHECK: %[[TOP:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK: %[[F:.*]] = arith.uitofp %[[TOP]] : i32 to f32
// CHECK: %[[SCALE:.*]] = arith.constant 1.1920929E-7 : f32
// CHECK: %[[U:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
// CHECK: %[[X:.*]] = arith.mulf %[[U]], %[[SPAN]] : f32
// CHECK: %[[V:.*]] = arith.addf %[[X]], %[[LOW]] : f32
// CHECK: %[[OK:.*]] = arith.cmpf olt, %[[V]], %[[HIGH]] : f32
// CHECK: arith.select %[[OK]], %[[V]], %[[BELOW]] : f32
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0 : i64, 1 : i64]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %shape = xla.constant dense<[2, 3]> : tensor<2xi64>
  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// UNIFORM integers: a + bits mod (b - a), the divisor computed once.
// CHECK-LABEL: func.func @uniform_int(
// CHECK: %[[LOW:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[HIGH:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[SPAN:.*]] = arith.subi %[[HIGH]], %[[LOW]] : i64
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[SPAN]], %{{.*}} : i64
// CHECK: %[[DIV:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[SPAN]] : i64
// CHECK: memref.get_global @__xla_rng_state
// CHECK: scf.for
// CHECK: %[[REM:.*]] = arith.remui %{{.*}}, %[[DIV]] : i64
// CHECK: arith.addi %[[LOW]], %[[REM]] : i64
func.func @uniform_int(%a: tensor<i64>, %b: tensor<i64>) -> tensor<9xi64> {
  %shape = xla.constant dense<[9]> : tensor<1xi64>
  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : (tensor<i64>, tensor<i64>, tensor<1xi64>) -> tensor<9xi64>
  func.return %0 : tensor<9xi64>
}

// NORMAL: Box–Muller on pairs of 52-bit uniforms (one f64 pair per block).
// CHECK-LABEL: func.func @normal(
// CHECK: memref.get_global @__xla_rng_state
// CHECK: %[[U0:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[U1:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[ONE_MINUS:.*]] = arith.subf %{{.*}}, %[[U0]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[ONE_MINUS]] : f64
// CHECK: %[[M2LOG:.*]] = arith.mulf %{{.*}}, %[[LOG]] : f64
// CHECK: %[[RADIUS:.*]] = math.sqrt %[[M2LOG]] : f64
// CHECK: %[[THETA:.*]] = arith.mulf %{{.*}}, %[[U1]] : f64
// CHECK: math.sin %[[THETA]] : f64
// CHECK: math.cos %[[THETA]] : f64
func.func @normal(%m: tensor<f64>, %s: tensor<f64>) -> tensor<3xf64> {
  %shape = xla.constant dense<[3]> : tensor<1xi64>
  %0 = xla.rng %m, %s, %shape, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<3xf64>
  func.return %0 : tensor<3xf64>
}

// rng_bernoulli: u32 1 where the f32 uniform is below the mean.
// CHECK-LABEL: func.func @bernoulli(
// CHECK-SAME: %[[P:.*]]: tensor<f32>) -> tensor<4xi32>
// CHECK: %[[MEAN:.*]] = tensor.extract %[[P]][] : tensor<f32>
// CHECK: memref.get_global @__xla_rng_state
// CHECK: %[[U:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[BIT:.*]] = arith.cmpf olt, %[[U]], %[[MEAN]] : f32
// CHECK: arith.extui %[[BIT]] : i1 to i32
func.func @bernoulli(%p: tensor<f32>) -> tensor<4xui32> {
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 4>} : (tensor<f32>) -> tensor<4xui32>
  func.return %0 : tensor<4xui32>
}
