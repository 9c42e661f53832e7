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

// -----

// The null check of an allocation needs blocks: scf must be lowered first.
func.func @alloc_in_a_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{needs a null check of its allocation but is not directly in a function body (lower scf to cf first)}}
    %a = memref.alloc() : memref<4xf32>
    memref.dealloc %a : memref<4xf32>
  }
  func.return
}
