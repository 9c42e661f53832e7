// RUN: xla-opt %s --split-input-file --verify-diagnostics

// Structural rules MLIR checks before any pass and later stages rely on (issue 17:
// each of these reached the lowering and failed there with a traceback).

func.func @use_before_def(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'xla.add' op operand #0 does not dominate this use}}
  %0 = xla.add %1, %a : tensor<f32>
  %1 = xla.add %a, %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @not_dominating(%c: i1, %f: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %f, %f : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  // expected-error-re @+1 {{operand #{{[0-9]+}} does not dominate this use}}
  return %x : i32
}

// -----

func.func @dominating(%c: i1, %f: i32) -> i32 {
  %x = arith.addi %f, %f : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  return %x : i32
}

// -----

// expected-error @+1 {{every block of a function body must end in a terminator}}
func.func @empty_body(%a: tensor<f32>) -> tensor<f32> {
}

// -----

// expected-error @+1 {{a function without a body is a declaration and must be private}}
func.func @public_declaration(%a: tensor<f32>) -> tensor<f32>

// -----

func.func @twice(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
// expected-error @+1 {{redefinition of symbol @twice}}
func.func @twice(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}

// -----

func.func @insert_slice_offsets(%a: tensor<4xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 1 offsets (one per dimension), got 2}}
  %0 = tensor.insert_slice %b into %a[0, 0] [2, 1] [1, 1] : tensor<2xf32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @too_few_operands(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'xla.add' takes 2 operand(s), got 1}}
  %0 = xla.add %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @too_many_operands(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'xla.negate' takes 1 operand(s), got 2}}
  %0 = xla.negate %a, %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Found by the fuzzer (xla_tools/fuzz.py): a KeyError in linalg-interchange.
func.func @index_out_of_range(%a: memref<8x4xi64>, %out: memref<4xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<8x4xi64>) outs(%out : memref<4xi64>) {
  ^bb0(%x: i64, %acc: i64):
    // expected-error @+1 {{dimension 2 is out of range for the 2 loop(s) of the enclosing linalg.generic}}
    %i = linalg.index 2 : index
    linalg.yield %x : i64
  }
  func.return
}

// -----

// Found by the fuzzer: a use of a name defined only in a nested region.
func.func @defined_only_inside(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %u = arith.addi %t, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = arith.addi %i, %i : index
  }
  func.return
}

// -----

// Found by the fuzzer (--every-level): a ValueError in convert-memref-to-llvm.
func.func @subview_offsets(%out: memref<6x8xf32>) {
  // expected-error @+1 {{expected 2 offsets (one per dimension), got 1}}
  %v = memref.subview %out[0] [2, 8] [1, 1] : memref<6x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
  func.return
}

// -----

// Found by the fuzzer (--every-level): an AssertionError in the loop lowering.
func.func @generic_without_yield(%sq: memref<32x32xf32>) {
  // expected-error @+1 {{the body must end in linalg.yield}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq : memref<32x32xf32>) outs(%sq : memref<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
  }
  func.return
}

// -----

// Found by the fuzzer: canonicalize inlined the region into invalid IR.
func.func @execute_region_types(%a: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{yields values whose types differ from the op's result types}}
  %r = scf.execute_region -> tensor<4xf32> {
    scf.yield %a : tensor<?xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// Found by the fuzzer: a case value beyond the flag's type was a struct.error.
func.func @switch_case_range(%i: index) {
  // expected-error @+1 {{malformed operation: a value out of range for its type}}
  cf.switch %i : index, [
    default: ^bb1,
    99999999999999999999999: ^bb1
  ]
^bb1:
  func.return
}

// -----

// Found by the fuzzer: a function nested in another one's body reached bufferization.
func.func @outer() -> tensor<2xi1> {
  // expected-error @+1 {{a function must be defined in a module (its symbol table), not inside an op}}
  func.func @inner() -> tensor<2xi1> {
    %0 = xla.constant dense<[true, false]> : tensor<2xi1>
    func.return %0 : tensor<2xi1>
  }
  %1 = xla.constant dense<[true, false]> : tensor<2xi1>
  func.return %1 : tensor<2xi1>
}
