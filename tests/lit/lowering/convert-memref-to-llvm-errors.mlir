// RUN: xla-opt %s -p convert-memref-to-llvm --split-input-file --verify-diagnostics

// A stack buffer beyond the stack would run past it (SIGSEGV) rather than fail.
func.func @alloca_beyond_the_stack() {
  // expected-error @+1 {{memref.alloca of 4398046511104 bytes exceeds the 8 MiB stack (use memref.alloc)}}
  %a = memref.alloca() : memref<1099511627776xf32>
  func.return
}

// -----

// An i64 byte size would wrap: a tiny buffer, then writes past it.
func.func @alloc_beyond_64_bits() {
  // expected-error @+1 {{exceeds the 64-bit size range}}
  %a = memref.alloc() : memref<4611686018427387905xf32>
  func.return
}
