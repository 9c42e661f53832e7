"""`bufferize`: one-shot bufferization of the linalg/tensor/scf/func programs that
`xla-to-linalg` produces: every tensor value becomes a memref buffer.

xDSL 0.74 has no bufferization, so this is our own, simplified version of what
MLIR's one-shot-bufferize with function-boundary bufferization,
buffer-results-to-out-params and buffer deallocation do, for static shapes.

Design
======

Each function is bufferized on its own, in one walk over its ops in program order
(regions are walked when their op is reached). `buffers` maps every tensor SSA
value to the memref value holding its contents. The old tensor ops stay in place
(so the use counts of tensor values stay those of the input program) and are
erased at the end, with the tensor block arguments.

* Function boundary: a tensor argument becomes a memref argument of the same
  shape (identity layout), read-only for the callee. Each tensor result becomes a
  memref out-parameter appended after the inputs, in result order; non-tensor
  results stay results. A `func.call` allocates the result buffers and passes them
  as the trailing arguments; an argument whose buffer has a non-identity layout is
  first copied into a contiguous buffer. Declarations are converted alike.
* Values: `tensor.empty` → `memref.alloc` (alignment 64); dense constants →
  private constant `memref.global`s (`__constant_N`, one per distinct type and
  value) + `memref.get_global`; `tensor.extract` → `memref.load`;
  `tensor.from_elements` → alloc + stores; `tensor.extract_slice` →
  `memref.subview` (a view, of strided layout; a dynamic offset makes the layout
  offset `?`); `collapse_shape`/`expand_shape` → the memref views of
  an identity-layout buffer, else of a contiguous copy; `tensor.cast` (static →
  static, i.e. the same type) → the same buffer.
* Writable tensors: a tensor's buffer may be written in place only if the tensor
  is *owned* — its buffer is a fresh allocation of this function (an alloc, a
  call/if/loop result buffer, or a destination written in place), not a function
  argument, a global or a view — and the tensor has exactly one use (the writer:
  SSA then guarantees nobody reads the old contents; other uses may only be
  `tensor.extract`s in earlier ops of the writer's block, whose loads run before
  the write: a loop's read-modify-write of a carried tensor), and no loop region (any
  region op other than `scf.if`/`scf.index_switch`/`scf.execute_region`) lies
  between the tensor's definition and the writer (otherwise the writer runs many
  times on one definition). Destination-style ops (every linalg op with tensor
  results: the trailing operands are the inits; `tensor.insert`,
  `tensor.insert_slice`) write into the destination's buffer when it is writable,
  else into a fresh buffer, after copying the old contents in unless the op never
  reads them (a linalg op whose body ignores the init's block argument, an
  `insert_slice` covering the whole destination, or a destination made by
  `tensor.empty`).
* Linalg ops are rebuilt generically: the same op class, properties, attributes
  and (moved) regions, tensor operands replaced by buffers and no results.
* `scf.if`/`scf.index_switch`: result buffers are allocated before the op; each
  branch copies its yielded tensors into them. A yielded buffer that is an alloc
  of that same branch block (and is yielded once) is *renamed* to the result
  buffer instead (the branch computes the result in place).
* `scf.for`/`scf.while`: the loops carry no buffers. One buffer per carried tensor
  is allocated before the loop (the init is copied in, or the init's buffer is
  reused when it is writable there); the region arguments and the loop results map
  to those buffers, and each `scf.yield` (and `scf.condition`, into the after
  buffers) copies its values into them at the end of the iteration. A yielded
  value that is already the slot's buffer needs no copy; the copies run in slot
  order, and a value overlapping its own target or the target of an earlier copy
  (e.g. `scf.yield %b, %a` swapping two carried tensors) is first saved into a
  temporary. For `scf.while`, an after-region buffer is the
  before-region buffer of the same position when `scf.condition` forwards that
  before-region argument unchanged, else a separate buffer.
* `func.return` copies each returned buffer into its out-parameter; a returned
  alloc of the entry block (of the out-parameter's type, returned once) is renamed
  to the out-parameter instead. Callers must pass out-parameters that alias no
  input (call sites here always allocate fresh ones).
* Deallocation: every remaining alloc made here is freed in its own block, right
  after the last op of that block using it or any view of it (uses in nested
  regions count for their ancestor op in the block); an alloc nobody uses is
  dropped. Buffers never escape their block except through the copies above, so
  this frees each buffer exactly once on every path.

Unsupported (a `LoweringError` naming the op): dynamic shapes, unranked tensors,
dynamic slice sizes or strides, any other op with tensor operands, results or
region arguments.
"""

from __future__ import annotations

from lowering.bufferize.analysis import ALIGNMENT, buffer_type
from lowering.bufferize.driver import BufferizePass, bufferize_module

__all__ = ["ALIGNMENT", "BufferizePass", "buffer_type", "bufferize_module"]
