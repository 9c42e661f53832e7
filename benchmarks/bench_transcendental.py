"""Transcendental chains exported from JAX, compiled by the project and by XLA-CPU, timed in one run.

    python benchmarks/bench_transcendental.py [--filter gelu] [--reps 30] [--markdown] [--json out.json]

One core (the figures of issue 12): pin the process and turn off XLA's Eigen thread pool:

    taskset -c 0 env XLA_FLAGS=--xla_cpu_multi_thread_eigen=false python benchmarks/bench_transcendental.py

Cases over 4M f32 (log-softmax over the rows of a 2048x2048 matrix): `tanh(a) exp(-b^2)
+ a`, exact GELU (erf), tanh GELU, logistic, log-softmax, `sin(a) cos(b)`, a chain of 10
transcendental ops; and the compile time of each (the chain of 10 must compile in
under 0.5 s). GB/s counts inputs once and outputs once. The project's f32 functions
are `math-polynomial-approximation`'s (lowering/math_approximation/), which LLVM
vectorizes; see benchmarks/harness.py for how the timing is done.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Case, main

N = 1 << 22  # 4M f32: 16 MB per array, beyond the caches


def _nbytes(*arrays: Any) -> float:
    return float(sum(np.dtype(a.dtype).itemsize * int(np.prod(a.shape)) for a in arrays))


def _case(name: str, fn: Any, args: tuple[Any, ...], rtol: float | None = 1e-5) -> Case:
    import jax

    out = jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))
    return Case(name, fn, args, bytes=_nbytes(*args, *out), rtol=rtol)


def cases() -> list[Case]:
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    a = rng.standard_normal(N, dtype=np.float32)
    b = rng.standard_normal(N, dtype=np.float32)
    m = rng.standard_normal((2048, 2048), dtype=np.float32)

    def tanh_exp(a: Any, b: Any) -> Any:
        return jnp.tanh(a) * jnp.exp(-b * b) + a

    def gelu_exact(x: Any) -> Any:
        return jax.nn.gelu(x, approximate=False)

    def gelu_tanh(x: Any) -> Any:
        return jax.nn.gelu(x, approximate=True)

    def logistic(x: Any) -> Any:
        return jax.nn.sigmoid(x)

    def log_softmax(x: Any) -> Any:
        return jax.nn.log_softmax(x, axis=1)

    def sin_cos(a: Any, b: Any) -> Any:
        return jnp.sin(a) * jnp.cos(b)

    def chain10(x: Any) -> Any:
        y = jnp.exp(-jnp.abs(x))
        y = jnp.log1p(y) + jnp.tanh(x)
        y = jnp.sin(y) + jnp.cos(x)
        y = jax.scipy.special.erf(y) + jnp.expm1(-jnp.abs(y))
        y = jax.nn.sigmoid(y) + jnp.log(jnp.abs(y) + 1)
        return jnp.arctan2(y, x) + jnp.exp(y)

    return [
        _case("tanh(a)*exp(-b*b)+a 4M", tanh_exp, (a, b)),
        _case("gelu exact (erf) 4M", gelu_exact, (a,)),
        _case("gelu tanh 4M", gelu_tanh, (a,)),
        _case("logistic 4M", logistic, (a,)),
        _case("log_softmax 2048x2048", log_softmax, (m,)),
        _case("sin(a)*cos(b) 4M", sin_cos, (a, b)),
        _case("chain of 10 4M", chain10, (a,)),
    ]


if __name__ == "__main__":
    sys.exit(main(cases, __doc__))
