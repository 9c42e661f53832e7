"""Parallel loops: where they come from and how compiled code runs them on all cores.

* `convert-linalg-to-parallel-loops` (`linalg_to_parallel_loops.py`): the
  `linalg.generic`s whose outermost (non-unit) loop is a parallel dimension become
  loop nests whose outer loop is an `scf.parallel` (the rest as xDSL's
  `convert-linalg-to-loops` makes them).
* `scf-fuse-parallel-loops` (`fuse_parallel_loops.py`): adjacent one-dimensional
  `scf.parallel` loops of one iteration space whose iterations touch disjoint slices of
  what they share become one loop (one region of the pool instead of two).
* `convert-parallel-loops-to-calls` (`parallel_loops_to_calls.py`): each outermost
  `scf.parallel` of a function that is worth it (a cost model: iterations times
  the estimated work of one) becomes a call into the runtime's thread pool; the
  others become `scf.for`.

The contract with the runtime (`runtime/threads.py`): the loop's body is outlined
into `void body(ptr ctx, i64 lo, i64 hi)`, which runs the iterations [lo, hi) of
the loop (numbered from 0) with the values it captures read from `ctx` (8-byte
slots), and the loop becomes

    __xla_parallel_for(ptr body, ptr ctx, i64 n, i64 grain)

which returns once every iteration of [0, n) has run; `grain` is the fewest
iterations worth giving a thread of their own.
"""

PARALLEL_FOR_SYMBOL = "__xla_parallel_for"
"""The runtime's entry point: `void (ptr body, ptr ctx, i64 n, i64 grain)`."""

__all__ = ["PARALLEL_FOR_SYMBOL"]
