// Kernels of tests/unit/test_bufferize.py: tensor programs that one-shot
// bufferization turns into memrefs; each function is called by a test there.
// (The affine maps #id1, #id2, #row, #all and #s0 come from MAPS in the test.)
func.func @ew(%a: tensor<5x7xf32>, %b: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %e = tensor.empty() : tensor<5x7xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<5x7xf32>, tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  } -> tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}

func.func @mm(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %z = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %r : tensor<4x5xf32>
}

func.func @tr(%a: tensor<4x3xi32>) -> tensor<3x4xi32> {
  %e = tensor.empty() : tensor<3x4xi32>
  %r = linalg.transpose ins(%a : tensor<4x3xi32>) outs(%e : tensor<3x4xi32>) permutation = [1, 0]
  func.return %r : tensor<3x4xi32>
}

func.func @rowsum(%a: tensor<6x9xf64>) -> (tensor<6xf64>, tensor<f64>) {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<6xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<6x9xf64>) outs(%f : tensor<6xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.addf %x, %o : f64
    linalg.yield %s : f64
  } -> tensor<6xf64>
  %e0 = tensor.empty() : tensor<f64>
  %f0 = linalg.fill ins(%z : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %t = linalg.generic {indexing_maps = [#id2, #all], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<6x9xf64>) outs(%f0 : tensor<f64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.addf %x, %o : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  func.return %r, %t : tensor<6xf64>, tensor<f64>
}

func.func @iota() -> tensor<3x4xi64> {
  %e = tensor.empty() : tensor<3x4xi64>
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<3x4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %k = arith.muli %i, %c10 : index
    %l = arith.addi %k, %j : index
    %v = arith.index_cast %l : index to i64
    linalg.yield %v : i64
  } -> tensor<3x4xi64>
  func.return %r : tensor<3x4xi64>
}

func.func @slices(%a: tensor<8x6xf32>) -> (tensor<2x3xf32>, tensor<8x6xf32>, tensor<3xf32>) {
  %s = tensor.extract_slice %a[1, 0] [2, 3] [3, 2] : tensor<8x6xf32> to tensor<2x3xf32>
  %row = tensor.extract_slice %a[3, 2] [1, 3] [1, 1] : tensor<8x6xf32> to tensor<3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  %ins = tensor.insert_slice %d into %a[3, 1] [2, 3] [2, 1] : tensor<2x3xf32> into tensor<8x6xf32>
  func.return %s, %ins, %row : tensor<2x3xf32>, tensor<8x6xf32>, tensor<3xf32>
}

func.func @reshapes(%a: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<2x2x6xf32>, tensor<6xf32>, tensor<3x2xf32>) {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %s = tensor.extract_slice %a[1, 0] [2, 3] [1, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %sc = tensor.collapse_shape %s [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %se = tensor.expand_shape %sc [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  func.return %c, %x, %sc, %se : tensor<24xf32>, tensor<2x2x6xf32>, tensor<6xf32>, tensor<3x2xf32>
}

func.func @select(%p: i1, %a: tensor<5xi32>, %b: tensor<5xi32>) -> tensor<5xi32> {
  %r = scf.if %p -> (tensor<5xi32>) {
    scf.yield %a : tensor<5xi32>
  } else {
    %e = tensor.empty() : tensor<5xi32>
    %n = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%b : tensor<5xi32>) outs(%e : tensor<5xi32>) {
    ^bb0(%x: i32, %o: i32):
      %y = arith.muli %x, %x : i32
      linalg.yield %y : i32
    } -> tensor<5xi32>
    scf.yield %n : tensor<5xi32>
  }
  func.return %r : tensor<5xi32>
}

func.func @switch(%k: index, %a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %r = scf.index_switch %k -> tensor<5xf32>
  case 0 {
    %e = tensor.empty() : tensor<5xf32>
    %s = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%a, %b : tensor<5xf32>, tensor<5xf32>) outs(%e : tensor<5xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    } -> tensor<5xf32>
    scf.yield %s : tensor<5xf32>
  }
  case 1 {
    scf.yield %b : tensor<5xf32>
  }
  default {
    %m = arith.constant -1.0 : f32
    %e = tensor.empty() : tensor<5xf32>
    %f = linalg.fill ins(%m : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
    scf.yield %f : tensor<5xf32>
  }
  func.return %r : tensor<5xf32>
}

// Vector Fibonacci: (x, y) <- (y, x + y) while x[0] < limit; counts the steps.
func.func @fib(%a: tensor<3xf32>, %b: tensor<3xf32>, %limit: f32) -> (tensor<3xf32>, tensor<3xf32>, i64) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:3 = scf.while (%x = %a, %y = %b, %n = %z) : (tensor<3xf32>, tensor<3xf32>, i64) -> (tensor<3xf32>, tensor<3xf32>, i64) {
    %x0 = tensor.extract %x[%c0] : tensor<3xf32>
    %go = arith.cmpf olt, %x0, %limit : f32
    scf.condition(%go) %x, %y, %n : tensor<3xf32>, tensor<3xf32>, i64
  } do {
  ^bb0(%x2: tensor<3xf32>, %y2: tensor<3xf32>, %n2: i64):
    %e = tensor.empty() : tensor<3xf32>
    %s = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%x2, %y2 : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %w = arith.addf %u, %v : f32
      linalg.yield %w : f32
    } -> tensor<3xf32>
    %n3 = arith.addi %n2, %one : i64
    scf.yield %y2, %s, %n3 : tensor<3xf32>, tensor<3xf32>, i64
  }
  func.return %r#0, %r#1, %r#2 : tensor<3xf32>, tensor<3xf32>, i64
}

// The condition forwards its arguments swapped: (x, y) <- (y + 1, x), n times.
func.func @while_swapped(%a: tensor<3xi32>, %b: tensor<3xi32>, %n: i32) -> (tensor<3xi32>, tensor<3xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%x = %a, %y = %b, %k = %c0) : (tensor<3xi32>, tensor<3xi32>, i32) -> (tensor<3xi32>, tensor<3xi32>, i32) {
    %go = arith.cmpi slt, %k, %n : i32
    scf.condition(%go) %y, %x, %k : tensor<3xi32>, tensor<3xi32>, i32
  } do {
  ^bb0(%p: tensor<3xi32>, %q: tensor<3xi32>, %k2: i32):
    %p2 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%p : tensor<3xi32>) {
    ^bb0(%o: i32):
      %w = arith.addi %o, %c1 : i32
      linalg.yield %w : i32
    } -> tensor<3xi32>
    %k3 = arith.addi %k2, %c1 : i32
    scf.yield %p2, %q, %k3 : tensor<3xi32>, tensor<3xi32>, i32
  }
  func.return %r#0, %r#1 : tensor<3xi32>, tensor<3xi32>
}

// acc += x * i (in place on the carried buffer); hist[i % 5] = i.
func.func @for_acc(%x: tensor<5xf32>, %n: index) -> (tensor<5xf32>, tensor<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %acc0 = linalg.fill ins(%z : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %hist = %x) -> (tensor<5xf32>, tensor<5xf32>) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %acc2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%x : tensor<5xf32>) outs(%acc : tensor<5xf32>) {
    ^bb0(%u: f32, %o: f32):
      %m = arith.mulf %u, %fi : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<5xf32>
    %k = arith.remui %i, %c5 : index
    %hist2 = tensor.insert %fi into %hist[%k] : tensor<5xf32>
    scf.yield %acc2, %hist2 : tensor<5xf32>, tensor<5xf32>
  }
  func.return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}

func.func @for_swap(%a: tensor<4xi16>, %b: tensor<4xi16>, %n: index) -> (tensor<4xi16>, tensor<4xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<4xi16>, tensor<4xi16>) {
    scf.yield %y, %x : tensor<4xi16>, tensor<4xi16>
  }
  func.return %r#0, %r#1 : tensor<4xi16>, tensor<4xi16>
}

// Dynamic indexing: tensor.extract of a captured tensor inside the generic body.
func.func @gather(%table: tensor<10xf32>, %idx: tensor<6xi32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%idx : tensor<6xi32>) outs(%e : tensor<6xf32>) {
  ^bb0(%i: i32, %o: f32):
    %k = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%k] : tensor<10xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}

// out = a * c + s + c where c, s are constants (written into a copy of c), plus
// a rank-0 constant and from_elements of extracted values.
func.func @consts(%a: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<i32>, tensor<4xi64>) {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %s = arith.constant dense<10> : tensor<2x3xi32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<2x3xi32>, tensor<2x3xi32>) outs(%c : tensor<2x3xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.muli %x, %o : i32
    %t = arith.addi %m, %y : i32
    %u = arith.addi %t, %o : i32
    linalg.yield %u : i32
  } -> tensor<2x3xi32>
  %z = arith.constant dense<42> : tensor<i32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %e0 = tensor.extract %a[%i0, %i0] : tensor<2x3xi32>
  %e1 = tensor.extract %a[%i1, %i2] : tensor<2x3xi32>
  %e2 = tensor.extract %c[%i1, %i0] : tensor<2x3xi32>
  %e3 = tensor.extract %r[%i0, %i1] : tensor<2x3xi32>
  %w0 = arith.extsi %e0 : i32 to i64
  %w1 = arith.extsi %e1 : i32 to i64
  %w2 = arith.extsi %e2 : i32 to i64
  %w3 = arith.extsi %e3 : i32 to i64
  %fe = tensor.from_elements %w0, %w1, %w2, %w3 : tensor<4xi64>
  func.return %r, %z, %fe : tensor<2x3xi32>, tensor<i32>, tensor<4xi64>
}

// i1 tensors: mask = a > b; out = mask ? a : b.
func.func @maxsel(%a: tensor<7xf64>, %b: tensor<7xf64>) -> (tensor<7xi1>, tensor<7xf64>) {
  %e = tensor.empty() : tensor<7xi1>
  %m = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%a, %b : tensor<7xf64>, tensor<7xf64>) outs(%e : tensor<7xi1>) {
  ^bb0(%x: f64, %y: f64, %o: i1):
    %g = arith.cmpf ogt, %x, %y : f64
    linalg.yield %g : i1
  } -> tensor<7xi1>
  %e2 = tensor.empty() : tensor<7xf64>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]} ins(%m, %a, %b : tensor<7xi1>, tensor<7xf64>, tensor<7xf64>) outs(%e2 : tensor<7xf64>) {
  ^bb0(%g: i1, %x: f64, %y: f64, %o: f64):
    %v = arith.select %g, %x, %y : f64
    linalg.yield %v : f64
  } -> tensor<7xf64>
  func.return %m, %r : tensor<7xi1>, tensor<7xf64>
}

func.func @scale(%x: tensor<2x3xf32>, %k: f32) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%u: f32, %o: f32):
    %m = arith.mulf %u, %k : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// Calls with a strided slice argument (copied to a contiguous buffer first).
func.func @caller(%a: tensor<4x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %s = tensor.extract_slice %a[0, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %r1 = func.call @scale(%s, %two) : (tensor<2x3xf32>, f32) -> tensor<2x3xf32>
  %r2 = func.call @scale(%r1, %three) : (tensor<2x3xf32>, f32) -> tensor<2x3xf32>
  func.return %r1, %r2 : tensor<2x3xf32>, tensor<2x3xf32>
}

// Destinations that are arguments: their buffers must not be written.
func.func @writes_args(%a: tensor<6xf32>, %b: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %c2 = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %r = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%a : tensor<6xf32>) {
  ^bb0(%o: f32):
    %m = arith.mulf %o, %c2 : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  %i = tensor.insert %c2 into %b[%c0] : tensor<6xf32>
  func.return %r, %i : tensor<6xf32>, tensor<6xf32>
}

// %t has two uses: the generic writing into it must not clobber what @two_uses
// reads afterwards.
func.func @two_uses(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %three = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.fill ins(%three : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %o : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %v = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %p = arith.addf %x, %three : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  func.return %u, %v : tensor<4xf32>, tensor<4xf32>
}

// %ones is defined outside the loop and used once, inside it: the body runs many
// times, so it must not update %ones' buffer in place. Result: x + n.
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

// scf.if (with a tensor.cast alias) inside scf.for: acc = 2 acc on odd steps,
// acc + 1 on even ones.
func.func @nested(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %m = arith.remui %i, %c2 : index
    %odd = arith.cmpi eq, %m, %c1 : index
    %s = scf.if %odd -> (tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %d = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.addf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      scf.yield %d : tensor<4xf32>
    } else {
      %c = tensor.cast %acc : tensor<4xf32> to tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %d = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %one = arith.constant 1.0 : f32
        %y = arith.addf %x, %one : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      scf.yield %d : tensor<4xf32>
    }
    scf.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// Rank 0: from_elements and a generic with no loops.
func.func @scalar_tensor(%x: f32) -> tensor<f32> {
  %t = tensor.from_elements %x : tensor<f32>
  %e = tensor.empty() : tensor<f32>
  %u = linalg.generic {indexing_maps = [#s0, #s0], iterator_types = []} ins(%t : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.mulf %v, %v : f32
    linalg.yield %w : f32
  } -> tensor<f32>
  func.return %u : tensor<f32>
}
