// RUN: xla-opt %s -p "convert-xla-to-linalg,linalg-fuse-elementwise{max_body_weight=84}" | FileCheck %s
// RUN: xla-opt %s -p "convert-xla-to-linalg,linalg-fuse-elementwise" | FileCheck %s --check-prefix=ALL

// A fused body weighs at most `max_body_weight`: an arith op 1, a math op 40 (what
// its polynomial expansion holds). Consumers absorb producers from the end of the
// chain: tanh (40) + add (1) + tanh (40) + multiply (1) = 82 is one generic; the first
// add and its tanh (41 more) would pass 84, so they stay a generic of their own.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[HEAD:.*]] = linalg.generic
// CHECK:           arith.addf
// CHECK-NEXT:      math.tanh
// CHECK-NEXT:      linalg.yield
// CHECK:         linalg.generic {{.*}} ins(%[[HEAD]], %y : tensor<8xf32>, tensor<8xf32>)
// CHECK:           arith.addf
// CHECK-NEXT:      math.tanh
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      math.tanh
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      linalg.yield
// CHECK-NOT:     linalg.generic
// Without the option (2,048) the chain is one generic.
// ALL-LABEL:     func.func @chain
// ALL-COUNT-1:   linalg.generic
// ALL-NOT:       linalg.generic
func.func @chain(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %x, %y : tensor<8xf32>
  %1 = stablehlo.tanh %0 : tensor<8xf32>
  %2 = stablehlo.add %1, %y : tensor<8xf32>
  %3 = stablehlo.tanh %2 : tensor<8xf32>
  %4 = stablehlo.add %3, %y : tensor<8xf32>
  %5 = stablehlo.tanh %4 : tensor<8xf32>
  %6 = stablehlo.multiply %5, %y : tensor<8xf32>
  return %6 : tensor<8xf32>
}
