// RUN: xla-opt %s --split-input-file -p func-optsize-small-kernels | FileCheck %s
// RUN: xla-opt %s --split-input-file -p 'func-optsize-small-kernels{max_work=1000}' | FileCheck %s --check-prefix=LIMIT
// RUN: xla-opt %s --split-input-file -p func-optsize-small-kernels,lower-scf-to-cf,convert-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: xla-opt %s --split-input-file -p func-optsize-small-kernels,lower-scf-to-cf,convert-to-llvm -t llvm | FileCheck %s --check-prefix=IR

// A kernel of little static work (16 x 32 iterations of a load, an add and a store:
// 1,536) is optimized for size: `llvm.optsize`, which convert-func-to-llvm makes the
// function's `passthrough = ["optsize"]` and the translation LLVM's `optsize`. Above
// `max_work` it is not.
// CHECK-LABEL: func.func @small(
// CHECK-SAME:    attributes {llvm.optsize}
// LIMIT-LABEL: func.func @small(
// LIMIT-NOT:     llvm.optsize
// LIMIT:         func.return
// LLVM-LABEL: llvm.func @small(
// LLVM-SAME:    attributes {passthrough = ["optsize"]}
// IR-LABEL: define void @"small"(
// IR-SAME:    optsize
func.func @small(%a: memref<16x32xf32>, %b: memref<16x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i, %j] : memref<16x32xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<16x32xf32>
    }
  }
  func.return
}

// -----

// Vector ops count their lanes: 8 iterations of three 16-lane ops are 384.
// CHECK-LABEL: func.func @vectors(
// CHECK-SAME:    attributes {llvm.optsize}
// LIMIT-LABEL: func.func @vectors(
// LIMIT-SAME:    attributes {llvm.optsize}
func.func @vectors(%a: memref<128xf32>, %b: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c128 step %c16 {
    %x = vector.load %a[%i] : memref<128xf32>, vector<16xf32>
    %y = arith.addf %x, %x : vector<16xf32>
    vector.store %y, %b[%i] : memref<128xf32>, vector<16xf32>
  }
  func.return
}

// -----

// Large work, a loop whose trip count is not a constant, a call (its work unknown) and
// a function without loops (glue) keep O3's full effort, as does a function of several blocks (its branches may loop).
// CHECK-LABEL: func.func @large(
// CHECK-NOT:     llvm.optsize
// CHECK:         func.return
// CHECK-LABEL: func.func @dynamic(
// CHECK-NOT:     llvm.optsize
// CHECK:         func.return
// CHECK-LABEL: func.func @calls(
// CHECK-NOT:     llvm.optsize
// CHECK:         func.return
// CHECK-LABEL: func.func @no_loop(
// CHECK-NOT:     llvm.optsize
// CHECK:         func.return
// CHECK-LABEL: func.func @blocks(
// CHECK-NOT:     llvm.optsize
// CHECK:         func.return
// LLVM-LABEL: llvm.func @large(
// LLVM-NOT:     passthrough
// LLVM:         llvm.return
func.func @large(%a: memref<256x256xf32>, %b: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {
    scf.for %j = %c0 to %c256 step %c1 {
      %x = memref.load %a[%i, %j] : memref<256x256xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<256x256xf32>
    }
  }
  func.return
}
func.func @dynamic(%a: memref<64xf32>, %b: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %b[%i] : memref<64xf32>
  }
  func.return
}
func.func private @helper(%x: f32) -> f32
func.func @calls(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    %y = func.call @helper(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<4xf32>
  }
  func.return
}
func.func @no_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %y = arith.addf %x, %x : f32
  memref.store %y, %a[%c0] : memref<4xf32>
  func.return
}
func.func @blocks(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<4xf32>
    memref.store %x, %a[%i] : memref<4xf32>
  }
  cf.br ^loop(%c0 : index)
^loop(%j: index):
  %more = arith.cmpi slt, %j, %n : index
  %next = arith.addi %j, %c1 : index
  cf.cond_br %more, ^loop(%next : index), ^done
^done:
  func.return
}
