// RUN: xla-opt %s --split-input-file -p scf-roll-outer-loops | FileCheck %s
// RUN: xla-opt %s --split-input-file -p 'scf-roll-outer-loops{max_unrolled=8}' | FileCheck %s --check-prefix=EIGHT
// RUN: xla-opt %s --split-input-file -p 'scf-roll-outer-loops{min_moved=1000}' | FileCheck %s --check-prefix=MOVED
// RUN: xla-opt %s --split-input-file -p 'scf-roll-outer-loops{max_reduction=16}' | FileCheck %s --check-prefix=REDUCTION
// RUN: xla-opt %s --split-input-file -p scf-roll-outer-loops,lower-scf-to-cf,convert-cf-to-llvm | FileCheck %s --check-prefix=BRANCH

// A static loop of more than 4 iterations around a loop that computes stays a loop
// (`no_unroll`: llvm.loop.unroll.disable); the inner loop, which LLVM vectorizes, gets
// `vectorized_no_unroll` (the vector loop LLVM makes of it is not unrolled after; rows
// of 128 are never unrolled completely).
// With max_unrolled=8 the 8 rows are LLVM's to unroll again. lower-scf-to-cf and
// convert-cf-to-llvm carry both hints to the latches.
// CHECK-LABEL: func.func @rows
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// CHECK:         } {llvm.loop_annotation = {no_unroll = true}}
// EIGHT-LABEL: func.func @rows
// EIGHT:         } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// EIGHT-NEXT:  }
// EIGHT-NEXT:  func.return
// BRANCH-LABEL: func.func @rows
// BRANCH:         llvm.br ^{{.*}}({{.*}}) {llvm.loop_annotation = {vectorized_no_unroll = true}}
// BRANCH:         llvm.br ^{{.*}}({{.*}}) {llvm.loop_annotation = {no_unroll = true}}
func.func @rows(%a: memref<8x128xf32>, %b: memref<8x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x128xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<8x128xf32>
    }
  }
  func.return
}

// -----

// A nest that only moves data (a contraction's pack: loads, an extension, a select on
// an index comparison, stores) is left to LLVM, which makes shuffles of its unrolled
// copies.
// CHECK-LABEL: func.func @pack
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         func.return
func.func @pack(%a: memref<16x8xi8>, %b: memref<16x8xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i16
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<16x8xi8>
      %w = arith.extsi %x : i8 to i16
      %in = arith.cmpi ult, %i, %c12 : index
      %v = arith.select %in, %w, %zero : i16
      memref.store %v, %b[%i, %j] : memref<16x8xi16>
    }
  }
  func.return
}

// -----

// A pack that LLVM would make straight code of stays a loop where it is long: the nest
// under the 6-row loop moves 6 x 16 x 6 = 576 elements (more than min_moved=128) and the
// 16-deep loop under it 96, so only the rows loop is kept rolled; the innermost loop is
// LLVM's to unroll into vector moves. A loop of more than 64 iterations (a big pack's
// rows, which LLVM unrolls by parts) is not marked; with min_moved=1000 neither is.
// CHECK-LABEL: func.func @small_pack
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.store
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    } {llvm.loop_annotation = {no_unroll = true}}
// CHECK-NEXT:    scf.for
// CHECK:           scf.for
// CHECK:             memref.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// MOVED-LABEL: func.func @small_pack
// MOVED-NOT:     llvm.loop_annotation
// MOVED:         func.return
func.func @small_pack(%a: memref<96x16xf32>, %b: memref<6x16x6xf32>, %c: memref<512x6xf32>, %d: memref<512x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        %row = arith.muli %i, %c6 : index
        %r = arith.addi %row, %j : index
        %x = memref.load %a[%r, %k] : memref<96x16xf32>
        memref.store %x, %b[%i, %k, %j] : memref<6x16x6xf32>
      }
    }
  }
  scf.for %k = %c0 to %c512 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %x = memref.load %c[%k, %j] : memref<512x6xf32>
      memref.store %x, %d[%k, %j] : memref<512x6xf32>
    }
  }
  func.return
}

// -----

// A reduction of 16 to 64 iterations (rows of 32) is not unrolled either, so that LLVM
// vectorizes it along its row instead of unrolling it and vectorizing the rows with
// gathers; a longer one (128) keeps LLVM's interleaving, and with max_reduction=16
// neither is marked.
// CHECK-LABEL: func.func @small_rows_sum
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true, no_unroll = true}}
// CHECK-NEXT:    } {llvm.loop_annotation = {no_unroll = true}}
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// CHECK-NEXT:    } {llvm.loop_annotation = {no_unroll = true}}
// REDUCTION-LABEL: func.func @small_rows_sum
// REDUCTION-NOT:   vectorized_no_unroll = true, no_unroll
// REDUCTION:       } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// REDUCTION-NEXT:  } {llvm.loop_annotation = {no_unroll = true}}
// REDUCTION:       } {llvm.loop_annotation = {vectorized_no_unroll = true}}
func.func @small_rows_sum(%a: memref<8x32xf32>, %s: memref<8xf32>, %b: memref<8x128xf32>, %t: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x32xf32>
      %acc = memref.load %s[%i] : memref<8xf32>
      %y = arith.addf %acc, %x fastmath<reassoc> : f32
      memref.store %y, %s[%i] : memref<8xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %x = memref.load %b[%i, %j] : memref<8x128xf32>
      %acc = memref.load %t[%i] : memref<8xf32>
      %y = arith.addf %acc, %x fastmath<reassoc> : f32
      memref.store %y, %t[%i] : memref<8xf32>
    }
  }
  func.return
}

// -----

// A window of 3 around a channel loop is LLVM's to unroll (it keeps the accumulator in
// registers that way); a loop of 4 or fewer iterations is never marked, nor is one whose
// bounds are not constants, nor one that already carries a hint.
// CHECK-LABEL: func.func @window
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for
// CHECK:         } {llvm.loop_annotation = {interleave_count = 2 : i32}}
// CHECK-NEXT:    scf.for
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         func.return
func.func @window(%a: memref<3x32xf32>, %acc: memref<32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %c = %c0 to %c32 step %c1 {
      %x = memref.load %a[%k, %c] : memref<3x32xf32>
      %s = memref.load %acc[%c] : memref<32xf32>
      %y = arith.addf %s, %x : f32
      memref.store %y, %acc[%c] : memref<32xf32>
    }
  }
  scf.for %c = %c0 to %c32 step %c1 {
    %s = memref.load %acc[%c] : memref<32xf32>
    %y = arith.mulf %s, %s : f32
    memref.store %y, %acc[%c] : memref<32xf32>
  } {llvm.loop_annotation = {interleave_count = 2 : i32}}
  scf.for %c = %c0 to %n step %c1 {
    %s = memref.load %acc[%c] : memref<32xf32>
    %y = arith.mulf %s, %s : f32
    memref.store %y, %acc[%c] : memref<32xf32>
  }
  func.return
}

// -----

// A map over rows of 16 to 64 inside a loop over more than 4 rows is not unrolled
// either: LLVM would unroll it completely, then vectorize the rows loop, with gathers and
// scatters a row apart. Its stores follow the rows loop's variable (here through the
// row's view). Inside a loop whose steps all write the same row (a matrix product's
// reduction loop, the accumulator then stays in registers), or a loop of 8 rows with
// max_unrolled=8, the inner loop is LLVM's to unroll.
// CHECK-LABEL: func.func @small_rows_map
// CHECK:             arith.mulf
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true, no_unroll = true}}
// CHECK-NEXT:    } {llvm.loop_annotation = {no_unroll = true}}
// CHECK:             arith.addf
// CHECK:           } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// CHECK-NEXT:    } {llvm.loop_annotation = {no_unroll = true}}
// EIGHT-LABEL: func.func @small_rows_map
// EIGHT:           } {llvm.loop_annotation = {vectorized_no_unroll = true}}
// EIGHT-NEXT:    }
func.func @small_rows_map(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %w: memref<8x32xf32>, %c: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %row = memref.subview %b[%i, 0] [1, 32] [1, 1] : memref<8x32xf32> to memref<32xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x32xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %row[%j] : memref<32xf32, strided<[1], offset: ?>>
    }
  }
  scf.for %k = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %x = memref.load %w[%k, %j] : memref<8x32xf32>
      %s = memref.load %c[%j] : memref<32xf32>
      %y = arith.addf %s, %x : f32
      memref.store %y, %c[%j] : memref<32xf32>
    }
  }
  func.return
}

// -----

// An im2col row of a 3-channel convolution's pack: 32 positions of 6 elements, 192
// moved (more than min_moved=128, fewer than the 256 of earlier sessions), so the
// positions loop stays rolled; LLVM would unroll it into 10-wide vector gathers.
// CHECK-LABEL: func.func @im2col_row
// CHECK:         scf.for
// CHECK:           memref.store
// CHECK-NEXT:    }
// CHECK-NEXT:  } {llvm.loop_annotation = {no_unroll = true}}
// MOVED-LABEL: func.func @im2col_row
// MOVED-NOT:     llvm.loop_annotation
// MOVED:         func.return
func.func @im2col_row(%a: memref<34x3xf32>, %b: memref<32x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  scf.for %p = %c0 to %c32 step %c1 {
    scf.for %k = %c0 to %c6 step %c1 {
      %dx = arith.divui %k, %c3 : index
      %ch = arith.remui %k, %c3 : index
      %x = arith.addi %p, %dx : index
      %v = memref.load %a[%x, %ch] : memref<34x3xf32>
      memref.store %v, %b[%p, %k] : memref<32x6xf32>
    }
  }
  func.return
}
