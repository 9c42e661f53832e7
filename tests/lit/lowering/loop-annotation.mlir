// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{tail=epilogue}' | FileCheck %s
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{interleave=false}' | FileCheck %s --check-prefix=OFF
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{tail=epilogue},lower-scf-to-cf,convert-cf-to-llvm' | FileCheck %s --check-prefix=BRANCH
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{tail=epilogue},convert-parallel-loops-to-calls' | FileCheck %s --check-prefix=SERIAL
// RUN: xla-opt %s --split-input-file -p 'math-polynomial-approximation{tail=masked},lower-scf-to-cf,convert-cf-to-llvm' | FileCheck %s --check-prefix=MASKED
// RUN: not xla-opt %s --split-input-file -p 'math-polynomial-approximation{tail=foo}' 2>&1 | FileCheck %s --check-prefix=BADTAIL
// BADTAIL: error: math-polynomial-approximation: tail=foo is not one of auto, masked, epilogue

// math-polynomial-approximation gives the innermost loop around scalar expansions an
// interleave count for LLVM's vectorizer: 4 around one expanded function, 2 around
// more; none with interleave=false. lower-scf-to-cf puts it on the branch back to
// the header, convert-cf-to-llvm keeps it on the llvm.br (the translation to LLVM IR
// makes it `!llvm.loop` metadata). With tail=masked (the default on AVX-512 targets)
// the annotation also asks for the last vectors masked (`fold_tail`:
// llvm.loop.vectorize.predicate.enable), all the way to the branch.
// MASKED-LABEL: func.func @one_function
// MASKED:         llvm.br ^{{.*}}({{.*}}) {llvm.loop_annotation = {interleave_count = 4 : i32, fold_tail = true}}
// MASKED-LABEL: func.func @two_functions
// MASKED:         llvm.br ^{{.*}}({{.*}}) {llvm.loop_annotation = {interleave_count = 2 : i32, fold_tail = true}}
// CHECK-LABEL: func.func @one_function
// CHECK:         scf.for
// CHECK:         } {llvm.loop_annotation = {interleave_count = 4 : i32}}
// OFF-LABEL: func.func @one_function
// OFF-NOT:     llvm.loop_annotation
// BRANCH-LABEL: func.func @one_function
// BRANCH:         llvm.cond_br
// BRANCH:         llvm.br ^{{.*}}({{.*}}) {llvm.loop_annotation = {interleave_count = 4 : i32}}
// BRANCH-NEXT:  ^{{.*}}:
// BRANCH-NEXT:    func.return
func.func @one_function(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = math.tanh %x : f32
    memref.store %y, %a[%i] : memref<64xf32>
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @two_functions
// CHECK:         } {llvm.loop_annotation = {interleave_count = 2 : i32}}
func.func @two_functions(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = math.tanh %x : f32
    %z = math.exp %y : f32
    memref.store %z, %a[%i] : memref<64xf32>
  }
  func.return
}

// -----

// A loop carrying a value (a reduction: LLVM interleaves those itself) and a vector
// expansion (already vectorized) get no count.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         func.return
func.func @left_alone(%a: memref<64xf32>, %v: vector<16xf32>) -> (f32, vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = math.exp %x : f32
    %n = arith.addf %acc, %y : f32
    scf.yield %n : f32
  }
  %w = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %v) -> (vector<16xf32>) {
    %e = math.exp %acc : vector<16xf32>
    scf.yield %e : vector<16xf32>
  }
  func.return %s, %w : f32, vector<16xf32>
}

// -----

// An scf.parallel is marked too; convert-parallel-loops-to-calls gives the count to
// the scf.for it becomes (here serialized: too little work for threads).
// CHECK-LABEL: func.func @parallel
// CHECK:         }) {llvm.loop_annotation = {interleave_count = 4 : i32}}
// SERIAL-LABEL: func.func @parallel
// SERIAL:         scf.for
// SERIAL:         } {llvm.loop_annotation = {interleave_count = 4 : i32}}
func.func @parallel(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %c64, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %x = memref.load %a[%i] : memref<64xf32>
    %y = math.exp %x : f32
    memref.store %y, %a[%i] : memref<64xf32>
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}

// -----

// A loop body already holding an expansion's worth of scalar f32 arithmetic (24 ops:
// chlo.erfc's, expanded by convert-xla-to-linalg before this pass) is interleaved as
// if this pass had expanded a function in it; one op fewer is left alone.
// CHECK-LABEL: func.func @long_body
// CHECK:         } {llvm.loop_annotation = {interleave_count = 4 : i32}}
// OFF-LABEL: func.func @long_body
// OFF-NOT:     llvm.loop_annotation
func.func @long_body(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1.5 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x0 = memref.load %a[%i] : memref<64xf32>
    %x1 = arith.mulf %x0, %k : f32
    %x2 = arith.addf %x1, %k : f32
    %x3 = arith.mulf %x2, %k : f32
    %x4 = arith.addf %x3, %k : f32
    %x5 = arith.mulf %x4, %k : f32
    %x6 = arith.addf %x5, %k : f32
    %x7 = arith.mulf %x6, %k : f32
    %x8 = arith.addf %x7, %k : f32
    %x9 = arith.mulf %x8, %k : f32
    %x10 = arith.addf %x9, %k : f32
    %x11 = arith.mulf %x10, %k : f32
    %x12 = arith.addf %x11, %k : f32
    %x13 = arith.mulf %x12, %k : f32
    %x14 = arith.addf %x13, %k : f32
    %x15 = arith.mulf %x14, %k : f32
    %x16 = arith.addf %x15, %k : f32
    %x17 = arith.mulf %x16, %k : f32
    %x18 = arith.addf %x17, %k : f32
    %x19 = arith.mulf %x18, %k : f32
    %x20 = arith.addf %x19, %k : f32
    %x21 = arith.mulf %x20, %k : f32
    %x22 = arith.addf %x21, %k : f32
    %x23 = arith.mulf %x22, %k : f32
    %x24 = arith.addf %x23, %k : f32
    memref.store %x24, %a[%i] : memref<64xf32>
  }
  func.return
}

// -----

// CHECK-LABEL: func.func @short_body
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         func.return
func.func @short_body(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1.5 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x0 = memref.load %a[%i] : memref<64xf32>
    %x1 = arith.mulf %x0, %k : f32
    %x2 = arith.addf %x1, %k : f32
    %x3 = arith.mulf %x2, %k : f32
    %x4 = arith.addf %x3, %k : f32
    %x5 = arith.mulf %x4, %k : f32
    %x6 = arith.addf %x5, %k : f32
    %x7 = arith.mulf %x6, %k : f32
    %x8 = arith.addf %x7, %k : f32
    %x9 = arith.mulf %x8, %k : f32
    %x10 = arith.addf %x9, %k : f32
    %x11 = arith.mulf %x10, %k : f32
    %x12 = arith.addf %x11, %k : f32
    %x13 = arith.mulf %x12, %k : f32
    %x14 = arith.addf %x13, %k : f32
    %x15 = arith.mulf %x14, %k : f32
    %x16 = arith.addf %x15, %k : f32
    %x17 = arith.mulf %x16, %k : f32
    %x18 = arith.addf %x17, %k : f32
    %x19 = arith.mulf %x18, %k : f32
    %x20 = arith.addf %x19, %k : f32
    %x21 = arith.mulf %x20, %k : f32
    %x22 = arith.addf %x21, %k : f32
    %x23 = arith.mulf %x22, %k : f32
    memref.store %x23, %a[%i] : memref<64xf32>
  }
  func.return
}
