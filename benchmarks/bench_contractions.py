"""Contractions exported from JAX, compiled by the project and by XLA-CPU, timed in one run.

    python benchmarks/bench_contractions.py [--filter matmul] [--reps 30] [--markdown] [--json out.json]

One core (the figures of the contraction issue): pin the process and turn off XLA's
Eigen thread pool:

    taskset -c 0 env XLA_FLAGS=--xla_cpu_multi_thread_eigen=false python benchmarks/bench_contractions.py

All cores: the same without `taskset` and `XLA_FLAGS` (add `--threads N` once compile()
takes it). Cases: matmul 256/512/1024 f32, a batch-8 dense layer (8x4096 @ 4096x4096),
f64 matmul 512, batched matmul, bf16 x bf16 -> f32 and i8 x i8 -> i32 matmul 512, 3x3, 1x1 and depthwise
convolution (NHWC/HWIO), 8-head attention, a transformer block, an MLP training step.
FLOPs count a multiply-add as 2 (the contractions only, for the composite programs).
See benchmarks/harness.py for how the timing is done.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import itertools

from harness import Case, main

NHWC = ("NHWC", "HWIO", "NHWC")


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _normal(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float32, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(dtype)


def matmul(m: int, k: int, n: int, dtype: Any = np.float32, seed: int = 0) -> Case:
    import jax.numpy as jnp

    rng = _rng(seed)
    a, b = _normal(rng, (m, k), dtype), _normal(rng, (k, n), dtype)
    name = f"matmul {m}x{k}x{n} {np.dtype(dtype).name.replace('float', 'f')}"
    if m == k == n:
        name = f"matmul {n}^2 {np.dtype(dtype).name.replace('float', 'f')}"
    return Case(name, lambda a, b: jnp.dot(a, b), (a, b), flops=2.0 * m * k * n)


def dense_layer(batch: int = 8, d_in: int = 4096, d_out: int = 4096) -> Case:
    import jax.numpy as jnp

    rng = _rng(1)
    x, w = _normal(rng, (batch, d_in)), _normal(rng, (d_in, d_out), scale=d_in**-0.5)
    return Case(f"dense {batch}x{d_in} @ {d_in}x{d_out}", lambda x, w: jnp.dot(x, w), (x, w), flops=2.0 * batch * d_in * d_out)


def batched_matmul(b: int = 16, m: int = 128, k: int = 64, n: int = 128) -> Case:
    import jax.numpy as jnp

    rng = _rng(2)
    x, y = _normal(rng, (b, m, k)), _normal(rng, (b, k, n))
    return Case(
        f"batched matmul {b}x{m}x{k}x{n}",
        lambda x, y: jnp.einsum("bij,bjk->bik", x, y),
        (x, y),
        flops=2.0 * b * m * k * n,
    )


def bf16_matmul(n: int = 512) -> Case:
    import jax.numpy as jnp
    import ml_dtypes
    from jax import lax

    rng = _rng(3)
    a, b = _normal(rng, (n, n), ml_dtypes.bfloat16), _normal(rng, (n, n), ml_dtypes.bfloat16)
    return Case(
        f"matmul {n}^2 bf16->f32",
        lambda a, b: lax.dot(a, b, preferred_element_type=jnp.float32),
        (a, b),
        flops=2.0 * n**3,
    )


def i8_matmul(n: int = 512) -> Case:
    """i8 x i8 -> i32 (the integer multiply-adds counted as FLOPs)."""
    import jax.numpy as jnp
    from jax import lax

    rng = _rng(8)
    a, b = (rng.integers(-128, 128, (n, n)).astype(np.int8) for _ in range(2))
    return Case(
        f"matmul {n}^2 i8->i32",
        lambda a, b: lax.dot(a, b, preferred_element_type=jnp.int32),
        (a, b),
        flops=2.0 * n**3,
    )


def conv(h: int, w: int, c: int, o: int, kh: int, kw: int, groups: int = 1, seed: int = 4) -> Case:
    from jax import lax

    rng = _rng(seed)
    x = _normal(rng, (1, h, w, c))
    k = _normal(rng, (kh, kw, c // groups, o), scale=(kh * kw * c / groups) ** -0.5)
    kind = "depthwise " if groups == c and groups > 1 else ""
    return Case(
        f"conv {kind}{kh}x{kw} {h}x{w}x{c}->{o}",
        lambda x, k: lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=NHWC, feature_group_count=groups),
        (x, k),
        flops=2.0 * h * w * o * kh * kw * (c // groups),
    )


def _attention(q: Any, k: Any, v: Any, heads: int) -> Any:
    """softmax(Q K^T / sqrt(d)) V per head; q, k, v are [seq, d_model]."""
    import jax
    import jax.numpy as jnp

    seq, d_model = q.shape
    d = d_model // heads
    qh, kh, vh = (t.reshape(seq, heads, d) for t in (q, k, v))
    scores = jnp.einsum("qhd,khd->hqk", qh, kh) / np.sqrt(d).astype(np.float32)
    p = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("hqk,khd->qhd", p, vh).reshape(seq, d_model)


def attention(seq: int = 256, d_model: int = 512, heads: int = 8) -> Case:
    rng = _rng(5)
    q, k, v = (_normal(rng, (seq, d_model)) for _ in range(3))
    return Case(
        f"attention {heads} heads seq {seq} d {d_model}",
        lambda q, k, v: _attention(q, k, v, heads),
        (q, k, v),
        flops=2.0 * 2 * seq * seq * d_model,
    )


def _layer_norm(x: Any, g: Any, b: Any) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    d = x - mean
    var = (d * d).mean(axis=-1, keepdims=True)
    import jax

    return d * jax.lax.rsqrt(var + 1e-5) * g + b


def transformer_block(seq: int = 256, d_model: int = 512, heads: int = 8, hidden: int = 2048) -> Case:
    import jax

    rng = _rng(6)
    x = _normal(rng, (seq, d_model))
    s = d_model**-0.5
    params = {
        "ln1": (np.ones(d_model, np.float32), np.zeros(d_model, np.float32)),
        "wq": _normal(rng, (d_model, d_model), scale=s),
        "wk": _normal(rng, (d_model, d_model), scale=s),
        "wv": _normal(rng, (d_model, d_model), scale=s),
        "wo": _normal(rng, (d_model, d_model), scale=s),
        "ln2": (np.ones(d_model, np.float32), np.zeros(d_model, np.float32)),
        "w1": _normal(rng, (d_model, hidden), scale=s),
        "b1": np.zeros(hidden, np.float32),
        "w2": _normal(rng, (hidden, d_model), scale=hidden**-0.5),
        "b2": np.zeros(d_model, np.float32),
    }

    def block(x: Any, p: dict[str, Any]) -> Any:
        h = _layer_norm(x, *p["ln1"])
        a = _attention(h @ p["wq"], h @ p["wk"], h @ p["wv"], heads) @ p["wo"]
        x = x + a
        h = _layer_norm(x, *p["ln2"])
        return x + jax.nn.gelu(h @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    flops = 2.0 * seq * d_model * d_model * 4 + 2.0 * 2 * seq * seq * d_model + 2.0 * 2 * seq * d_model * hidden
    return Case(f"transformer block seq {seq} d {d_model}", block, (x, params), flops=flops)


def mlp_train_step(batch: int = 128, sizes: tuple[int, ...] = (784, 512, 512, 10), lr: float = 0.01) -> Case:
    import jax
    import jax.numpy as jnp

    rng = _rng(7)
    params = [
        (_normal(rng, (a, b), scale=a**-0.5), np.zeros(b, np.float32)) for a, b in itertools.pairwise(sizes)
    ]
    x = _normal(rng, (batch, sizes[0]))
    labels = rng.integers(0, sizes[-1], batch).astype(np.int32)

    def loss_fn(params: Any, x: Any, labels: Any) -> Any:
        for w, b in params[:-1]:
            x = jax.nn.relu(x @ w + b)
        w, b = params[-1]
        logp = jax.nn.log_softmax(x @ w + b)
        onehot = jax.nn.one_hot(labels, sizes[-1], dtype=jnp.float32)
        return -jnp.mean(jnp.sum(onehot * logp, axis=-1))

    def step(params: Any, x: Any, labels: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(params, x, labels)
        new = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        return loss, new

    forward = sum(2.0 * batch * a * b for a, b in itertools.pairwise(sizes))
    name = f"MLP train step {batch}x{'-'.join(map(str, sizes))}"
    return Case(name, step, (params, x, labels), flops=3 * forward)


def cases() -> list[Case]:
    return [
        matmul(256, 256, 256),
        matmul(512, 512, 512),
        matmul(1024, 1024, 1024),
        dense_layer(),
        matmul(512, 512, 512, np.float64),
        batched_matmul(),
        bf16_matmul(),
        i8_matmul(),
        conv(56, 56, 64, 64, 3, 3),
        conv(56, 56, 256, 64, 1, 1),
        conv(112, 112, 32, 32, 3, 3, groups=32),
        attention(),
        transformer_block(),
        mlp_train_step(),
    ]


if __name__ == "__main__":
    sys.exit(main(cases, __doc__))
