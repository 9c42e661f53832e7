// RUN: xla-opt %s --split-input-file --verify-diagnostics

// The pairwise dot products check their lane types: vdpbf16ps sums bf16 pairs in
// f32, vpdpwssd i16 pairs in i32 (and vpmaddwd, at the end, its widths).
func.func @i16_dot_in_f32(%acc: vector<16xf32>, %a: vector<32xi16>, %b: vector<32xi16>) -> vector<16xf32> {
  // expected-error @+1 {{'x86vector.avx512.dot.i16' accumulates in vector<16xi32>, not vector<16xf32>}}
  %r = x86vector.avx512.dot.i16 %acc, %a, %b : vector<32xi16> -> vector<16xf32>
  func.return %r : vector<16xf32>
}

// -----

func.func @i16_dot_of_bytes(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>) -> vector<16xi32> {
  // expected-error @+1 {{'x86vector.avx512.dot.i16' multiplies vector<32xi16> operands}}
  %r = x86vector.avx512.dot.i16 %acc, %a, %b : vector<64xi8> -> vector<16xi32>
  func.return %r : vector<16xi32>
}

// -----

func.func @bf16_dot_in_i32(%acc: vector<16xi32>, %a: vector<32xbf16>, %b: vector<32xbf16>) -> vector<16xi32> {
  // expected-error @+1 {{'x86vector.avx512.dot' accumulates in vector<16xf32>, not vector<16xi32>}}
  %r = x86vector.avx512.dot %acc, %a, %b : vector<32xbf16> -> vector<16xi32>
  func.return %r : vector<16xi32>
}

// -----

// vpmaddwd takes 16 i16 lanes and gives 8 i32 lanes.
func.func @pmaddwd_of_bytes(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<8xi32> {
  // expected-error @+1 {{'x86vector.avx2.pmaddwd' multiplies vector<16xi16> operands}}
  %r = x86vector.avx2.pmaddwd %a, %b : vector<32xi8> -> vector<8xi32>
  func.return %r : vector<8xi32>
}

// -----

func.func @pmaddwd_into_i16(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  // expected-error @+1 {{'x86vector.avx2.pmaddwd' gives vector<8xi32>, not vector<16xi16>}}
  %r = x86vector.avx2.pmaddwd %a, %b : vector<16xi16> -> vector<16xi16>
  func.return %r : vector<16xi16>
}
