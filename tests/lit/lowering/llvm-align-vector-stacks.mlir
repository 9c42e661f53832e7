// RUN: xla-opt %s -p 'llvm-align-vector-stacks{bytes=32}' | FileCheck %s
// RUN: xla-opt %s -p 'llvm-align-vector-stacks{bytes=64}' | FileCheck %s --check-prefix=ZMM
// RUN: xla-opt %s -p 'llvm-align-vector-stacks{bytes=32}' -t llvm | FileCheck %s --check-prefix=IR

// A function computing on vectors wider than the ABI's 16 bytes aligns its frame to
// its widest vector, at most the target's vector register (`bytes`): its spill slots
// are then aligned in every process, wherever the stack lands.
// CHECK-LABEL: llvm.func @ymm(
// CHECK-SAME:    passthrough = {{\[}}["alignstack", "32"]]
// ZMM-LABEL: llvm.func @ymm(
// ZMM-SAME:    passthrough = {{\[}}["alignstack", "32"]]
// IR-LABEL: define void @"ymm"(ptr %".1") alignstack(32)
llvm.func @ymm(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> vector<8xf32>
  %w = llvm.fadd %v, %v : vector<8xf32>
  llvm.store %w, %p : vector<8xf32>, !llvm.ptr
  llvm.return
}

// A 64-byte vector: 32 on a target of 256-bit registers, 64 on one of 512; other
// passthrough attributes stay.
// CHECK-LABEL: llvm.func @zmm(
// CHECK-SAME:    passthrough = ["optsize", ["alignstack", "32"]]
// ZMM-LABEL: llvm.func @zmm(
// ZMM-SAME:    passthrough = ["optsize", ["alignstack", "64"]]
// IR-LABEL: define void @"zmm"(ptr %".1") optsize alignstack(32)
llvm.func @zmm(%p: !llvm.ptr) attributes {passthrough = ["optsize"]} {
  %v = llvm.load %p : !llvm.ptr -> vector<16xf32>
  %w = llvm.fmul %v, %v : vector<16xf32>
  llvm.store %w, %p : vector<16xf32>, !llvm.ptr
  llvm.return
}

// 16-byte vectors and scalars need nothing beyond the ABI.
// CHECK-LABEL: llvm.func @xmm(
// CHECK-NOT:     passthrough
// CHECK:         llvm.return
// IR-LABEL: define void @"xmm"(ptr %".1")
// IR-NEXT:  {
llvm.func @xmm(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> vector<4xf32>
  %w = llvm.fadd %v, %v : vector<4xf32>
  llvm.store %w, %p : vector<4xf32>, !llvm.ptr
  llvm.return
}

// A parallel loop's wrapper calls its body, which LLVM inlines into it (the inliner
// drops the callee's `alignstack`): the wrapper gets the body's alignment. A caller of a
// `no_inline` kernel keeps its own frame, and glue (`optimize_none`) is left alone.
// CHECK-LABEL: llvm.func @wrapper(
// CHECK-SAME:    passthrough = {{\[}}["alignstack", "32"]]
// CHECK-LABEL: llvm.func internal @body(
// CHECK-SAME:    passthrough = {{\[}}["alignstack", "32"]]
// CHECK-LABEL: llvm.func @calls_kernel(
// CHECK-NOT:     passthrough
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @glue(
// CHECK-NOT:     passthrough
// CHECK:         llvm.return
llvm.func @wrapper(%p: !llvm.ptr) {
  llvm.call @body(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func internal @body(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> vector<8xf32>
  llvm.store %v, %p : vector<8xf32>, !llvm.ptr
  llvm.return
}
llvm.func @calls_kernel(%p: !llvm.ptr) {
  llvm.call @kernel(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func internal @kernel(%p: !llvm.ptr) attributes {no_inline} {
  %v = llvm.load %p : !llvm.ptr -> vector<8xf32>
  llvm.store %v, %p : vector<8xf32>, !llvm.ptr
  llvm.return
}
llvm.func @glue(%p: !llvm.ptr) attributes {no_inline, optimize_none} {
  %v = llvm.load %p : !llvm.ptr -> vector<8xf32>
  llvm.store %v, %p : vector<8xf32>, !llvm.ptr
  llvm.return
}
