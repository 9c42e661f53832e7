// RUN: xla-opt %s -p convert-func-to-llvm --verify-diagnostics

// expected-error @+1 {{functions with 2 results cannot be lowered to LLVM}}
func.func @two(%x: f32) -> (f32, f32) {
  func.return %x, %x : f32, f32
}
