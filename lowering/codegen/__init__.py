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
   vectorizes them;
6. `linalg-vectorize-reductions` (`vectorize_reductions.py`, its analysis in
   `reduction_forms.py`): row, selection (argmax) and column reductions as
   explicit `vector` loops with partial results in registers;
6b. `linalg-stream-copies` (`stream_copies.py`): copies into buffers larger than a
   quarter of the L3 as vector loops with non-temporal stores;
6c. `linalg-stream-elementwise` (`stream_elementwise.py`): element-wise generics into
   outputs of at least the target's `streaming_store_bytes`, vectorized here (4
   registers a step, masked edges) with non-temporal stores;
7. `linalg-tile-transposes` (`tile_transposes.py`): element-wise generics reading
   an operand transposed run over 8x8 tiles in blocks sized by the L1, transposed in
   registers (placed by the output's alignment) or through a buffer;
8. `memref-hoist-loop-allocations` (`hoist_allocations.py`): per-iteration
   temporaries of `scf.for` loops allocated once around them.

Then xDSL's `convert-linalg-to-loops` turns the generics into `scf.for` nests.
"""
