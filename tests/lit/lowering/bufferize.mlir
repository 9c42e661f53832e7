// RUN: xla-opt %s -p bufferize | FileCheck %s
// RUN: xla-opt %s -p bufferize | FileCheck %s --check-prefix=NOTENSOR

// No tensor op or tensor-typed value is left after the globals (whose dense
// initializers are typed tensors, as in MLIR).
// NOTENSOR:     func.func @signature
// NOTENSOR-NOT: {{tensor\.[a-z]|[(:,] tensor<|-> tensor<|\(tensor<}}
// NOTENSOR:     {{^}}}{{$}}

// CHECK:      builtin.module {
// CHECK-NEXT:   "memref.global"() <{sym_name = "__constant_0", type = memref<3xi32>, initial_value = dense<[1, 2, 3]> : tensor<3xi32>, sym_visibility = "private", constant, alignment = 64 : i64}> : () -> ()
// CHECK-NEXT:   "memref.global"() <{sym_name = "__constant_1", type = memref<i32>, initial_value = dense<7> : tensor<i32>, sym_visibility = "private", constant, alignment = 64 : i64}> : () -> ()
// CHECK-NOT:    "memref.global"

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Arguments stay (as read-only memrefs), the tensor result becomes a trailing
// out-parameter, the scalar result stays. The fill goes into tensor.empty's alloc
// (one use: in place), the generic reads and writes the fill's buffer in place, and
// that entry-block alloc is renamed to the out-parameter (no copy, no dealloc).
// CHECK-LABEL: func.func @signature(%a: memref<4xf32> {llvm.noalias}, %s: f32, %0: memref<4xf32> {llvm.noalias}) -> f32 {
// CHECK-NEXT:    linalg.fill ins(%s : f32) outs(%0 : memref<4xf32>)
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a : memref<4xf32>) outs(%0 : memref<4xf32>) {
// CHECK:         }
// CHECK-NEXT:    func.return %s : f32
// CHECK-NEXT:  }
func.func @signature(%a: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  func.return %r, %s : tensor<4xf32>, f32
}

// Declarations are converted the same way.
// CHECK:       func.func private @external(memref<2x3xi8>, i32, memref<3xi8>) -> i1
func.func private @external(tensor<2x3xi8>, i32) -> (tensor<3xi8>, i1)

// A strided argument is copied into a contiguous buffer; the caller allocates the
// result buffer; both are freed right after their last use.
// CHECK-LABEL: func.func @call_site(%a: memref<4x6xi8> {llvm.noalias}, %k: i32, %0: memref<3xi8> {llvm.noalias}) {
// CHECK-NEXT:    %[[S:.*]] = memref.subview %a[0, 0] [2, 3] [2, 2] : memref<4x6xi8> to memref<2x3xi8, strided<[12, 2]>>
// CHECK-NEXT:    %[[ARG:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xi8>
// CHECK-NEXT:    "memref.copy"(%[[S]], %[[ARG]]) : (memref<2x3xi8, strided<[12, 2]>>, memref<2x3xi8>) -> ()
// CHECK-NEXT:    %[[RES:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi8>
// CHECK-NEXT:    %r = func.call @external(%[[ARG]], %k, %[[RES]]) : (memref<2x3xi8>, i32, memref<3xi8>) -> i1
// CHECK-NEXT:    memref.dealloc %[[ARG]] : memref<2x3xi8>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %x = memref.load %[[RES]][%c0] : memref<3xi8>
// CHECK-NEXT:    memref.dealloc %[[RES]] : memref<3xi8>
// CHECK-NEXT:    linalg.fill ins(%x : i8) outs(%0 : memref<3xi8>)
// CHECK-NEXT:    func.return
func.func @call_site(%a: tensor<4x6xi8>, %k: i32) -> tensor<3xi8> {
  %s = tensor.extract_slice %a[0, 0] [2, 3] [2, 2] : tensor<4x6xi8> to tensor<2x3xi8>
  %r:2 = func.call @external(%s, %k) : (tensor<2x3xi8>, i32) -> (tensor<3xi8>, i1)
  %c0 = arith.constant 0 : index
  %x = tensor.extract %r#0[%c0] : tensor<3xi8>
  %e = tensor.empty() : tensor<3xi8>
  %f = linalg.fill ins(%x : i8) outs(%e : tensor<3xi8>) -> tensor<3xi8>
  func.return %f : tensor<3xi8>
}

// A destination that is an argument is never written: a generic reading its init
// gets a copy, a fill (never reads) a fresh buffer without copy. A destination used
// twice is copied for each writer; a one-use owned destination is written in place.
// CHECK-LABEL: func.func @destinations(%a: memref<4xf32> {llvm.noalias}, %s: f32, %0: memref<4xf32> {llvm.noalias}, %1: memref<4xf32> {llvm.noalias}, %2: memref<4xf32> {llvm.noalias}) {
// CHECK-NEXT:    "memref.copy"(%a, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    linalg.generic {{.*}} outs(%0 : memref<4xf32>) {
// CHECK:         }
// CHECK-NEXT:    linalg.fill ins(%s : f32) outs(%1 : memref<4xf32>)
// CHECK-NEXT:    %[[TWICE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%s : f32) outs(%[[TWICE]] : memref<4xf32>)
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    "memref.copy"(%[[TWICE]], %2) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memref.store %s, %2[%c1] : memref<4xf32>
// CHECK-NEXT:    %[[I2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[TWICE]], %[[I2]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %[[TWICE]] : memref<4xf32>
// CHECK-NEXT:    memref.store %s, %[[I2]][%c1] : memref<4xf32>
// CHECK-NEXT:    memref.store %s, %[[I2]][%c1] : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[I2]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @destinations(%a: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %acc = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%a : tensor<4xf32>) {
  ^bb0(%o: f32):
    %y = arith.addf %o, %s : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %filled = linalg.fill ins(%s : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %twice = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c1 = arith.constant 1 : index
  %i1 = tensor.insert %s into %twice[%c1] : tensor<4xf32>
  %i2 = tensor.insert %s into %twice[%c1] : tensor<4xf32>
  %i3 = tensor.insert %s into %i2[%c1] : tensor<4xf32>
  func.return %acc, %filled, %i1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Dense constants become private constant globals, one per distinct value, read
// through memref.get_global; writing into one copies it first.
// CHECK-LABEL: func.func @constants(%0: memref<3xi32> {llvm.noalias}, %1: memref<3xi32> {llvm.noalias}, %2: memref<i32> {llvm.noalias}) {
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @__constant_0 : memref<3xi32>
// CHECK-NEXT:    %[[D:.*]] = memref.get_global @__constant_0 : memref<3xi32>
// CHECK-NEXT:    %[[Z:.*]] = memref.get_global @__constant_1 : memref<i32>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %v = arith.constant 5 : i32
// CHECK-NEXT:    "memref.copy"(%[[D]], %1) : (memref<3xi32>, memref<3xi32>) -> ()
// CHECK-NEXT:    memref.store %v, %1[%c0] : memref<3xi32>
// CHECK-NEXT:    "memref.copy"(%[[C]], %0) : (memref<3xi32>, memref<3xi32>) -> ()
// CHECK-NEXT:    "memref.copy"(%[[Z]], %2) : (memref<i32>, memref<i32>) -> ()
// CHECK-NEXT:    func.return
func.func @constants() -> (tensor<3xi32>, tensor<3xi32>, tensor<i32>) {
  %c = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %d = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %z = arith.constant dense<7> : tensor<i32>
  %c0 = arith.constant 0 : index
  %v = arith.constant 5 : i32
  %w = tensor.insert %v into %d[%c0] : tensor<3xi32>
  func.return %c, %w, %z : tensor<3xi32>, tensor<3xi32>, tensor<i32>
}

// Reshapes of an identity-layout buffer are views; of a strided slice, views of a
// contiguous copy. Slices are (rank-reducing, possibly dynamic-offset) subviews;
// insert_slice copies into a subview of its destination (here tensor.empty's
// buffer, renamed to the out-parameter: nothing to copy in first).
// CHECK-LABEL: func.func @views(%a: memref<4x6xf32> {llvm.noalias}, %i: index, %0: memref<24xf32> {llvm.noalias}, %1: memref<2x2x6xf32> {llvm.noalias}, %2: memref<6xf32> {llvm.noalias}, %3: memref<3xf32> {llvm.noalias}, %4: memref<4x6xf32> {llvm.noalias}) {
// CHECK-NEXT:    %[[C:.*]] = memref.collapse_shape %a {{\[\[}}0 : i64, 1 : i64]] : memref<4x6xf32> into memref<24xf32>
// CHECK-NEXT:    %[[X:.*]] = memref.expand_shape %a {{\[\[}}0 : i64, 1 : i64], [2 : i64]] output_shape [2, 2, 6] : memref<4x6xf32> into memref<2x2x6xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.subview %a[1, 0] [2, 3] [1, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 2], offset: 6>>
// CHECK-NEXT:    %[[SC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    "memref.copy"(%[[S]], %[[SC]]) : (memref<2x3xf32, strided<[6, 2], offset: 6>>, memref<2x3xf32>) -> ()
// CHECK-NEXT:    %[[FLAT:.*]] = memref.collapse_shape %[[SC]] {{\[\[}}0 : i64, 1 : i64]] : memref<2x3xf32> into memref<6xf32>
// CHECK-NEXT:    %[[ROW:.*]] = memref.subview %a[%i, 2] [1, 3] [1, 1] : memref<4x6xf32> to memref<3xf32, strided<[1], offset: ?>>
// CHECK-NEXT:    %[[DST:.*]] = memref.subview %4[0, 1] [2, 3] [2, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 1], offset: 1>>
// CHECK-NEXT:    "memref.copy"(%[[S]], %[[DST]])
// CHECK-NEXT:    "memref.copy"(%[[C]], %0)
// CHECK-NEXT:    "memref.copy"(%[[X]], %1)
// CHECK-NEXT:    "memref.copy"(%[[FLAT]], %2)
// CHECK-NEXT:    memref.dealloc %[[SC]] : memref<2x3xf32>
// CHECK-NEXT:    "memref.copy"(%[[ROW]], %3)
// CHECK-NEXT:    func.return
func.func @views(%a: tensor<4x6xf32>, %i: index) -> (tensor<24xf32>, tensor<2x2x6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4x6xf32>) {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %s = tensor.extract_slice %a[1, 0] [2, 3] [1, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %sc = tensor.collapse_shape %s [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %row = tensor.extract_slice %a[%i, 2] [1, 3] [1, 1] : tensor<4x6xf32> to tensor<3xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %f = tensor.insert_slice %s into %e[0, 1] [2, 3] [2, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  func.return %c, %x, %sc, %row, %f : tensor<24xf32>, tensor<2x2x6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4x6xf32>
}

// The result buffer is allocated before the scf.if; a branch yielding an argument
// copies it in, a branch yielding its own alloc computes into the result buffer.
// CHECK-LABEL: func.func @if(%p: i1, %a: memref<4xf32> {llvm.noalias}, %s: f32, %0: memref<4xf32> {llvm.noalias}) {
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    scf.if %p {
// CHECK-NEXT:      "memref.copy"(%a, %[[R]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      linalg.fill ins(%s : f32) outs(%[[R]] : memref<4xf32>)
// CHECK-NEXT:    }
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %x = memref.load %[[R]][%c0] : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[R]] : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%x : f32) outs(%0 : memref<4xf32>)
// CHECK-NEXT:    func.return
func.func @if(%p: i1, %a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %r = scf.if %p -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  }
  %c0 = arith.constant 0 : index
  %x = tensor.extract %r[%c0] : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %g = linalg.fill ins(%x : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  func.return %g : tensor<4xf32>
}

// Same for scf.index_switch; its scalar result stays. The result buffer, returned,
// is itself renamed to the out-parameter.
// CHECK-LABEL: func.func @switch(%k: index, %a: memref<4xf32> {llvm.noalias}, %s: f32, %0: memref<4xf32> {llvm.noalias}) -> f32 {
// CHECK-NEXT:    %r = scf.index_switch %k -> f32
// CHECK-NEXT:    case 0 {
// CHECK-NEXT:      linalg.fill ins(%s : f32) outs(%0 : memref<4xf32>)
// CHECK-NEXT:      scf.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      "memref.copy"(%a, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      scf.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : f32
func.func @switch(%k: index, %a: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32) {
  %r:2 = scf.index_switch %k -> tensor<4xf32>, f32
  case 0 {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f, %s : tensor<4xf32>, f32
  }
  default {
    scf.yield %a, %s : tensor<4xf32>, f32
  }
  func.return %r#0, %r#1 : tensor<4xf32>, f32
}

// The loop carries no tensor: the init is copied into the carried buffer (here the
// out-parameter) before the loop, the body updates it in place, and yielding it
// back needs no copy.
// CHECK-LABEL: func.func @for(%a: memref<4xf32> {llvm.noalias}, %n: index, %0: memref<4xf32> {llvm.noalias}) {
// CHECK:         "memref.copy"(%a, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      linalg.generic {{.*}} outs(%0 : memref<4xf32>) {
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @for(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %y = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%acc : tensor<4xf32>) {
    ^bb0(%o: f32):
      %t = arith.mulf %o, %o : f32
      linalg.yield %t : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// Swapping two carried tensors: the value whose buffer the first copy overwrites is
// saved into a temporary first.
// CHECK-LABEL: func.func @for_swap(%a: memref<4xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.noalias}, %n: index, %0: memref<4xf32> {llvm.noalias}) {
// CHECK:         "memref.copy"(%a, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%b, %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%0, %[[T]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      "memref.copy"(%[[Y]], %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      "memref.copy"(%[[T]], %[[Y]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      memref.dealloc %[[T]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %v = memref.load %[[Y]][%c2] : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[Y]] : memref<4xf32>
// CHECK-NEXT:    memref.store %v, %0[%c2] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @for_swap(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<4xf32>, tensor<4xf32>) {
    scf.yield %y, %x : tensor<4xf32>, tensor<4xf32>
  }
  %c2 = arith.constant 2 : index
  %v = tensor.extract %r#1[%c2] : tensor<4xf32>
  %w = tensor.insert %v into %r#0[%c2] : tensor<4xf32>
  func.return %w : tensor<4xf32>
}

// scf.condition forwards the before-region arguments unchanged: the after region
// and the results use the same buffers. The yield (%y2, %s) copies %y2's buffer
// before the second copy overwrites it; no temporary is needed.
// CHECK-LABEL: func.func @while(%a: memref<4xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.noalias}, %lim: f32, %0: memref<4xf32> {llvm.noalias}) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[X:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%a, %[[X]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    "memref.copy"(%b, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      %x0 = memref.load %[[X]][%c0] : memref<4xf32>
// CHECK-NEXT:      %go = arith.cmpf olt, %x0, %lim : f32
// CHECK-NEXT:      scf.condition(%go)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[X]], %0 : memref<4xf32>, memref<4xf32>) outs(%[[S]] : memref<4xf32>) {
// CHECK:           }
// CHECK-NEXT:      "memref.copy"(%0, %[[X]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      "memref.copy"(%[[S]], %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      memref.dealloc %[[S]] : memref<4xf32>
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[X]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @while(%a: tensor<4xf32>, %b: tensor<4xf32>, %lim: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%x = %a, %y = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %x0 = tensor.extract %x[%c0] : tensor<4xf32>
    %go = arith.cmpf olt, %x0, %lim : f32
    scf.condition(%go) %x, %y : tensor<4xf32>, tensor<4xf32>
  } do {
  ^bb0(%x2: tensor<4xf32>, %y2: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%x2, %y2 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %w = arith.addf %u, %v : f32
      linalg.yield %w : f32
    } -> tensor<4xf32>
    scf.yield %y2, %s : tensor<4xf32>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
}

// A buffer read inside a loop is freed after the loop.
// CHECK-LABEL: func.func @dealloc(%a: memref<4xf32> {llvm.noalias}, %n: index) -> f32 {
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %sum = scf.for
// CHECK-NEXT:      %v = memref.load %[[T]][%i] : memref<4xf32>
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<4xf32>
// CHECK-NEXT:    func.return %sum : f32
func.func @dealloc(%a: tensor<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (f32) {
    %v = tensor.extract %t[%i] : tensor<4xf32>
    %s2 = arith.addf %s, %v : f32
    scf.yield %s2 : f32
  }
  func.return %sum : f32
}

// %ones is defined outside the loop and used once, inside it: the body runs many
// times, so it writes into a fresh copy each iteration, never into %ones' buffer.
// CHECK-LABEL: func.func @loop_dest(%x: memref<4xf32> {llvm.noalias}, %n: index, %0: memref<4xf32> {llvm.noalias}) {
// CHECK:         %[[ONES:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%one : f32) outs(%[[ONES]] : memref<4xf32>)
// CHECK-NEXT:    "memref.copy"(%x, %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %[[D:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%[[ONES]], %[[D]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      linalg.generic {{.*}} ins(%0 : memref<4xf32>) outs(%[[D]] : memref<4xf32>) {
// CHECK:           }
// CHECK-NEXT:      "memref.copy"(%[[D]], %0) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      memref.dealloc %[[D]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[ONES]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @loop_dest(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %d = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%ones : tensor<4xf32>) {
    ^bb0(%u: f32, %o: f32):
      %s = arith.addf %u, %o : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
