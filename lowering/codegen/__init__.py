"""Code generation on linalg: the passes that shape the loops before they become
loops, in the order `lower-to-llvm` runs them (`xla_tools/registry.py`):

1. `linalg-fuse-elementwise` (`linalg_fuse_elementwise.py`), on tensors, right
   after `convert-xla-to-linalg`: single-use element-wise producers (and splat
   fills) fused into their consumers, so a chain of element-wise ops is one loop;
2. (`bufferize` and xDSL's `linalg-generalize-named-ops` run between, outside
   this package);
3. contraction tiling, packing and vectorization (the micro-kernels of matmul
   and convolution, for the target of `target.py`): see the files added beside;
4. `linalg-interchange` (`linalg_interchange.py`): a reduction-innermost loop
   nest with a streaming parallel dimension is reordered (matmul runs i-k-j);
5. `linalg-reassociate-reductions` (`linalg_reassociate.py`): float reduction
   combiners get `reassoc` where the reduction is the innermost loop, so LLVM
   vectorizes them.

Then xDSL's `convert-linalg-to-loops` turns the generics into `scf.for` nests.
"""
