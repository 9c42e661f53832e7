// RUN: xla-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{value must have a tensor type, got vector<2xf32>}}
%0 = "xla.constant"() {value = dense<1.0> : vector<2xf32>} : () -> tensor<2xf32>

// -----

// expected-error @+1 {{result type tensor<2xi32> differs from the value's type tensor<2xi64>}}
%0 = "xla.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi32>

// -----

// expected-error @+1 {{result type tensor<3xi64> differs from the value's type tensor<2xi64>}}
%0 = "xla.constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<3xi64>

// -----

// expected-error @+1 {{result type tensor<?xi64> differs from the value's type tensor<2xi64>}}
%0 = "xla.constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<?xi64>

// -----

// expected-error @+1 {{value must be a tensor of a primitive type, got tensor<2xi7>}}
%0 = xla.constant dense<[1, 2]> : tensor<2xi7>

// -----

// expected-error @+1 {{value must be a tensor of a primitive type, got tensor<2xsi32>}}
%0 = xla.constant dense<[1, 2]> : tensor<2xsi32>

// -----

// expected-error @+1 {{value must be a tensor of a primitive type, got tensor<2xindex>}}
%0 = xla.constant dense<[1, 2]> : tensor<2xindex>

// -----

// expected-error @+1 {{expected a dense<...> : tensor<...> literal}}
%0 = xla.constant 1 : i32

// -----

// expected-error @+1 {{result must have rank at least 1, got tensor<i32>}}
%0 = xla.iota dim = 0 : tensor<i32>

// -----

// expected-error @+1 {{iota_dimension 1 is out of range [0, 1) of the result rank}}
%0 = xla.iota dim = 1 : tensor<4xi32>

// -----

// expected-error @+1 {{iota_dimension -1 is out of range [0, 2) of the result rank}}
%0 = xla.iota dim = -1 : tensor<4x3xi32>

// -----

// expected-error @+1 {{iota_dimension 3 is out of range [0, 2) of the result rank}}
%0 = "xla.iota"() {iota_dimension = 3 : i64} : () -> tensor<4x3xf32>

// -----

// expected-error @+1 {{result element type i1 is not integer, floating-point or complex}}
%0 = xla.iota dim = 0 : tensor<4xi1>

// -----

// expected-error @+1 {{result must be a tensor of a primitive type, got tensor<4xi7>}}
%0 = xla.iota dim = 0 : tensor<4xi7>

// -----

// expected-error @+1 {{result must have a static shape, got tensor<?xi32>}}
%0 = xla.iota dim = 0 : tensor<?xi32>

// -----

// Literals are range-checked where they are written (issue 17: these were tracebacks).
// expected-error @+1 {{integer literal 300 is out of range for i8 [-128, 255]}}
%0 = xla.constant dense<[1, 300]> : tensor<2xi8>

// -----

// expected-error @+1 {{integer literal 5 is out of range for i2 [-2, 3]}}
%0 = xla.constant dense<5> : tensor<i2>

// -----

// expected-error @+1 {{integer literal 4 is out of range for ui2 [0, 3]}}
%0 = xla.constant dense<4> : tensor<ui2>

// -----

// expected-error @+1 {{integer literal 99999999999999999999999 is out of range for i64}}
%0 = xla.constant dense<99999999999999999999999> : tensor<i64>

// -----

// expected-error @+1 {{hexadecimal float literal 0x1FFFF does not fit in 16 bits of f16}}
%0 = xla.constant dense<0x1FFFF> : tensor<f16>

// -----

// expected-error @+1 {{float literal 1.0e40 is out of range for f32}}
%0 = xla.constant dense<1.0e40> : tensor<f32>
