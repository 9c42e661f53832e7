"""Memory-bound programs exported from JAX, compiled by the project and by XLA-CPU, timed in one run.

    python benchmarks/bench_memory.py [--filter softmax] [--reps 30] [--markdown] [--json out.json]

One core (the figures of the memory-bound issue): pin the process and turn off XLA's
Eigen thread pool:

    taskset -c 0 env XLA_FLAGS=--xla_cpu_multi_thread_eigen=false python benchmarks/bench_memory.py

All cores: the same without `taskset` and `XLA_FLAGS` (add `--threads N` once compile()
takes it). Cases: softmax, log-softmax, layer norm (scale and bias), RMS norm over the rows
of a 1024x1024 f32 matrix; sum, mean and max per row and over a 16M-element f32 vector;
sum per column; argmax per row and per column; a transpose feeding an add and a
concatenation of two matrices (no copy should be materialized beyond the result); an
element-wise chain over 4M f32. GB/s counts the bytes a
single pass must read and write (inputs once, outputs once), the minimum any
implementation moves. See benchmarks/harness.py for how the timing is done.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Case, main

ROWS = COLS = 1024
FULL = 1 << 24  # 16M f32: 64 MB, beyond the caches
CHAIN = 1 << 22  # 4M f32


def _matrix(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((ROWS, COLS), dtype=np.float32)


def _nbytes(*arrays: Any) -> float:
    return float(sum(np.dtype(a.dtype).itemsize * int(np.prod(a.shape)) for a in arrays))


def _case(name: str, fn: Any, args: tuple[Any, ...], rtol: float | None = None) -> Case:
    """A case whose byte count is its inputs plus its outputs (shapes from jax.eval_shape)."""
    import jax

    out = jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))
    return Case(name, fn, args, bytes=_nbytes(*jax.tree_util.tree_leaves(args), *out), rtol=rtol)


def cases() -> list[Case]:
    import jax
    import jax.numpy as jnp

    x = _matrix(0)
    y = _matrix(4)
    rng = np.random.default_rng(1)
    scale = rng.standard_normal(COLS, dtype=np.float32)
    bias = rng.standard_normal(COLS, dtype=np.float32)
    # Uniform [0, 1) for the full reductions: their sums are far from 0, so a relative
    # tolerance means something (f32 summation order differs between the two).
    big = np.random.default_rng(2).random(FULL, dtype=np.float32)
    a, b, c = (np.random.default_rng(3 + i).standard_normal(CHAIN, dtype=np.float32) for i in range(3))

    def layer_norm(x: Any, g: Any, b: Any) -> Any:
        mean = x.mean(axis=-1, keepdims=True)
        d = x - mean
        var = (d * d).mean(axis=-1, keepdims=True)
        return d * jax.lax.rsqrt(var + 1e-5) * g + b

    def rms_norm(x: Any, g: Any) -> Any:
        return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g

    m = f"{ROWS}x{COLS}"
    return [
        _case(f"softmax {m} rows", lambda x: jax.nn.softmax(x, axis=-1), (x,)),
        _case(f"log-softmax {m} rows", lambda x: jax.nn.log_softmax(x, axis=-1), (x,)),
        _case(f"layer norm {m}", layer_norm, (x, scale, bias)),
        _case(f"RMS norm {m}", rms_norm, (x, scale)),
        _case(f"sum {m} rows", lambda x: jnp.sum(x, axis=1), (x,)),
        _case(f"mean {m} rows", lambda x: jnp.mean(x, axis=1), (x,)),
        _case(f"max {m} rows", lambda x: jnp.max(x, axis=1), (x,)),
        _case(f"sum {m} columns", lambda x: jnp.sum(x, axis=0), (x,)),
        _case(f"argmax {m} rows", lambda x: jnp.argmax(x, axis=1), (x,)),
        _case(f"argmax {m} columns", lambda x: jnp.argmax(x, axis=0), (x,)),
        _case(f"transpose + add {m}", lambda x, y: x.T + y, (x, y)),
        _case(f"concatenate 2x {m}", lambda x, y: jnp.concatenate([x, y], axis=1), (x, y)),
        _case("sum 16M", jnp.sum, (big,), rtol=1e-3),
        _case("mean 16M", jnp.mean, (big,), rtol=1e-3),
        _case("max 16M", jnp.max, (big,)),
        _case("elementwise chain 4M", lambda a, b, c: jnp.maximum(a * b + c, 0) * a, (a, b, c)),
    ]


if __name__ == "__main__":
    sys.exit(main(cases, __doc__))
