// RUN: xla-opt %s --split-input-file --verify-diagnostics

func.func @f(%c: vector<8xi1>, %x: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{the condition vector<8xi1> must have the shape of the result vector<16xf32>}}
  %r = arith.select %c, %x, %x : vector<8xi1>, vector<16xf32>
  func.return %r : vector<16xf32>
}

// -----

func.func @f(%c: vector<16xi32>, %x: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{expected i1 or a vector or tensor of i1, got vector<16xi32>}}
  %r = "arith.select"(%c, %x, %x) : (vector<16xi32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
  func.return %r : vector<16xf32>
}
