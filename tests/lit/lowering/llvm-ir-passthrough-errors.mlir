// RUN: xla-opt %s --split-input-file -t llvm --verify-diagnostics

// The translation to LLVM IR passes through the function attributes it knows
// (`optsize`, `minsize`, `cold`, `hot`, `noinline`, `alwaysinline`) and
// `["alignstack", "<power of two>"]`; anything else is an error at the function.

// expected-error @+1 {{'llvm.func' op cannot be translated to LLVM IR: passthrough entry "bogus" is not one of}}
llvm.func @unknown() attributes {passthrough = ["bogus"]} {
  llvm.return
}

// -----

// expected-error @+1 {{passthrough entry ["alignstack", "24"] is not one of}}
llvm.func @not_a_power_of_two() attributes {passthrough = [["alignstack", "24"]]} {
  llvm.return
}

// -----

// expected-error @+1 {{passthrough entry ["stack-probe-size", "4096"] is not one of}}
llvm.func @other_key() attributes {passthrough = [["stack-probe-size", "4096"]]} {
  llvm.return
}
