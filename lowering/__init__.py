"""Lowering of `xla` to the llvm dialect: xla → linalg/tensor/arith/math/scf →
memref → loops → cf → llvm. The passes are registered by name in
`xla_tools/registry.py`; the named pipeline `lower-to-llvm` is in
`xla_tools/pipelines.py`; the llvm dialect becomes native code in `runtime/`.

The top of the pipeline (from the xla dialect):

* `xla-flatten-tuples`: tuple values → their leaves;
* `convert-xla-to-linalg`: xla → linalg/tensor/arith/math/scf on tensors;
* `linalg-fuse-elementwise`: chains of element-wise generics → one generic;
* `bufferize`: tensors → memrefs, results → out-parameters, deallocation;
* xDSL's `linalg-generalize-named-ops`, then `linalg-interchange`: loop order
  with a streaming innermost loop (matmul in i-k-j order);
* `linalg-reassociate-reductions`: float reduction combiners marked `reassoc`
  (the spec leaves the order open), so LLVM vectorizes them;
* xDSL's `convert-linalg-to-loops`, then `lower-affine` (xDSL's patterns, applied by
  `lowering/lower_affine.py` without xDSL's walker): linalg → scf.for nests;
* `convert-complex-to-standard`: complex arithmetic → arith/math on the parts;
* `arith-emulate-unsupported-floats`: bf16 arithmetic computed in f32.

The bottom of the pipeline (independent of the xla dialect):

* `lower-scf-to-cf`: scf.for/if/while/index_switch/execute_region → cf;
* `convert-{arith,math,cf,func,memref,index,complex}-to-llvm`: each dialect → llvm;
* `convert-to-llvm`: all of those at once, checking nothing else is left.

`host_abi.py` is the contract of the calls compiled code makes into the host
runtime (`runtime/host_io.py`).
"""
