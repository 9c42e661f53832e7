// RUN: xla-opt %s -p bufferize --split-input-file --verify-diagnostics

func.func @unknown_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot bufferize 'test.op': unsupported op with tensor operands, results or region arguments}}
  %r = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot bufferize 'func.func': dynamic shape tensor<?xf32> is not supported}}
func.func @dynamic_argument(%a: tensor<?xf32>) {
  func.return
}

// -----

func.func @dynamic_empty(%n: index) {
  // expected-error @+1 {{cannot bufferize 'tensor.empty': dynamic shape tensor<?xf32> is not supported}}
  %e = tensor.empty(%n) : tensor<?xf32>
  func.return
}

// -----

func.func @dynamic_slice_size(%a: tensor<8xf32>, %n: index) {
  // expected-error @+1 {{cannot bufferize 'tensor.extract_slice': dynamic shape tensor<?xf32> is not supported}}
  %s = tensor.extract_slice %a[0] [%n] [1] : tensor<8xf32> to tensor<?xf32>
  func.return
}

// -----

func.func @tensor_region(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot bufferize 'scf.execute_region': unsupported op with tensor operands, results or region arguments}}
  %r = scf.execute_region -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @unranked(%a: tensor<4xf32>) {
  // expected-error @+1 {{cannot bufferize 'tensor.cast': unranked tensor type tensor<*xf32> is not supported}}
  %c = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  func.return
}
