"""Regenerate the JAX exports in this folder (needs `pip install jax`).

Each program is exported by `jax.export.export(jax.jit(f))(*args).mlir_module()`,
i.e. the StableHLO text JAX serializes, unchanged: pretty form, with debug
locations (`loc(#locN)` uses, `#locN = loc(...)` aliases defined at the end),
Shardy attributes, LAPACK custom calls for linear algebra. `data.npz` holds the
inputs and JAX's own results (computed by XLA on the CPU), which
tests/unit/test_jax_exports.py compares the compiled programs against, so the
tests need no JAX. Sizes are tiny: the data stays a few KB per program.

    python examples/jax_exports/export.py
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

HERE = Path(__file__).parent


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.gelu(x @ w + b)
    w, b = params[-1]
    logits = x @ w + b
    return jax.nn.log_softmax(logits), jnp.argmax(logits, axis=-1)


def mlp_grad(params, x):
    return jax.grad(lambda p: jnp.sum(mlp(p, x)[0] ** 2))(params)


def conv_block(x, w, scale):
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(y * scale)
    return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def _layer_norm(x, g):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g


def gpt_forward(p, tokens):
    """One pre-norm transformer block with causal attention over a tiny vocabulary."""
    seq = tokens.shape[0]
    x = p["embed"][tokens] + p["pos"][:seq]
    h = _layer_norm(x, p["ln1"])
    q, k, v = jnp.split(h @ p["qkv"], 3, axis=-1)
    heads = lambda t: t.reshape(seq, 2, -1).transpose(1, 0, 2)
    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.transpose(0, 2, 1) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    mask = jnp.tril(jnp.ones((seq, seq), bool))
    scores = jnp.where(mask, scores, -1e9)
    att = jax.nn.softmax(scores, axis=-1) @ v
    x = x + att.transpose(1, 0, 2).reshape(seq, -1) @ p["proj"]
    x = x + jax.nn.gelu(_layer_norm(x, p["ln2"]) @ p["up"]) @ p["down"]
    logits = x @ p["embed"].T
    return logits, jnp.argmax(logits[-1])


def sorting(x, keys):
    """argsort (its comparator's constants hoisted out of the region), sort, and a
    two-operand sort with a custom comparator."""
    by_key = jax.lax.sort((keys, x), num_keys=1)
    return jnp.argsort(x, axis=-1), jnp.sort(x, axis=0), by_key[1], jax.lax.top_k(x, 2)[0]


def vmapped(w, xs):
    """vmap, with transcendental ops that state their `result_accuracy`."""
    tolerance = jax.lax.Tolerance(atol=1e-5, rtol=1e-5, ulps=2)
    row = lambda x: jax.lax.tanh(w @ x, accuracy=jax.lax.AccuracyMode.HIGHEST) + jax.lax.exp(jnp.max(x), accuracy=tolerance)
    return jax.vmap(row)(xs)


def loops(x, n):
    """A scan (an RNN cell) and a data-dependent while loop (Newton's square root)."""

    def cell(h, xt):
        h = jnp.tanh(h * 0.5 + xt)
        return h, h.sum()

    h, ys = jax.lax.scan(cell, jnp.zeros(x.shape[1:], x.dtype), x)
    target = jnp.abs(x[0]) + 1.0

    def cond(s):
        return jnp.logical_and(s[1] < n, jnp.max(jnp.abs(s[0] * s[0] - target)) > 1e-6)

    root, steps = jax.lax.while_loop(cond, lambda s: (0.5 * (s[0] + target / s[0]), s[1] + 1), (target, 0))
    total = jax.lax.fori_loop(0, n, lambda i, acc: acc + i * i, 0)
    return h, ys, root, steps, total


def rng(key_data):
    key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
    k1, k2 = jax.random.split(key)
    return jax.random.normal(k1, (3, 4)), jax.random.uniform(k2, (5,)), jax.random.bits(k2, (4,))


def fft(x):
    spectrum = jnp.fft.rfft(x)
    return spectrum, jnp.fft.irfft(spectrum * 2.0, n=x.shape[-1]), jnp.abs(jnp.fft.fft2(x.astype(jnp.complex64)))


def mixed_precision(a8, b8, x, w):
    """int8 x int8 -> int32 matmul and bf16 matmul accumulated in f32."""
    i32 = jax.lax.dot(a8, b8, preferred_element_type=jnp.int32)
    bf = jax.lax.dot(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    return i32, bf, (x.astype(jnp.bfloat16) * 3).astype(jnp.float32)


def linalg_f32(a, b):
    """Linear algebra as LAPACK custom calls (potrf, getrf, trsm, geqrf/orgqr, syevd, gesdd)."""
    spd = a @ a.T + 4 * jnp.eye(a.shape[0], dtype=a.dtype)
    sym_eigvals = jnp.linalg.eigvalsh(spd)
    return (
        jnp.linalg.cholesky(spd),
        jnp.linalg.solve(a, b),
        jnp.linalg.det(a),
        jax.scipy.linalg.solve_triangular(spd, b, lower=True),
        jnp.abs(jnp.linalg.qr(a)[1]),
        sym_eigvals,
        jnp.linalg.svd(a, compute_uv=False),
    )


def linalg_f64_batched(a):
    spd = a @ jnp.swapaxes(a, -1, -2) + 3 * jnp.eye(a.shape[-1], dtype=a.dtype)
    return jnp.linalg.cholesky(spd), jnp.linalg.inv(a), jnp.linalg.slogdet(a)[1]


def linalg_c64(a, b):
    hpd = a @ jnp.conj(a.T) + 4 * jnp.eye(a.shape[0], dtype=a.dtype)
    return jnp.linalg.cholesky(hpd), jnp.linalg.solve(a, b), jnp.linalg.eigvalsh(hpd)


def linalg_vectors(a):
    """Eigenvectors, singular vectors and Q, compared through what does not depend
    on their signs: the reconstructions and the products with their adjoints."""
    w, v = jnp.linalg.eigh(a + a.T)
    u, s, vt = jnp.linalg.svd(a[:, :3] @ a[:3, :] + a)
    q, r = jnp.linalg.qr(a[:, :3], mode="complete")
    return (v * w) @ v.T, v.T @ v, (u * s) @ vt, u @ u.T, q @ r, q.T @ q, jnp.linalg.pinv(a[:4, :])


def sharded(a):
    """Shardy on one device: a mesh, argument shardings and a sharding constraint."""
    mesh = jax.make_mesh((1,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
    spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    return jnp.sin(jax.lax.with_sharding_constraint(a * 2, spec))


def main() -> None:
    key = jax.random.PRNGKey(0)
    rs = np.random.default_rng(0)
    f32 = lambda *shape: rs.standard_normal(shape).astype(np.float32)
    sizes = [16, 32, 32, 10]
    params = []
    for a, b in itertools.pairwise(sizes):
        key, k1, k2 = jax.random.split(key, 3)
        params.append((jax.random.normal(k1, (a, b)) * 0.3, jax.random.normal(k2, (b,)) * 0.1))
    key, kx, kc, kw = jax.random.split(key, 4)
    x = jax.random.normal(kx, (8, 16))
    image = jax.random.normal(kc, (2, 8, 8, 3))
    kernel = jax.random.normal(kw, (3, 3, 3, 4))
    scale = jnp.float32(0.5)
    d, vocab, seq = 8, 16, 6
    gpt = {
        "embed": f32(vocab, d) * 0.5, "pos": f32(seq, d) * 0.1, "ln1": 1 + 0.1 * f32(d), "ln2": 1 + 0.1 * f32(d),
        "qkv": f32(d, 3 * d) * 0.3, "proj": f32(d, d) * 0.3, "up": f32(d, 2 * d) * 0.3, "down": f32(2 * d, d) * 0.3,
    }
    tokens = rs.integers(0, vocab, seq).astype(np.int32)
    c64 = lambda *shape: (rs.standard_normal(shape) + 1j * rs.standard_normal(shape)).astype(np.complex64)

    programs: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "mlp": (mlp, (params, x)),
        "mlp_grad": (mlp_grad, (params, x)),
        "conv_block": (conv_block, (image, kernel, scale)),
        "gpt_forward": (gpt_forward, (gpt, tokens)),
        "sorting": (sorting, (np.round(f32(3, 5), 1), rs.integers(0, 3, (3, 5)).astype(np.int32))),
        "vmapped": (vmapped, (f32(4, 3), f32(5, 3))),
        "loops": (loops, (f32(4, 3), np.int32(20))),
        "rng": (rng, (np.array([0, 42], np.uint32),)),
        "fft": (fft, (f32(2, 8),)),
        "mixed_precision": (
            mixed_precision,
            (rs.integers(-128, 128, (3, 4)).astype(np.int8), rs.integers(-128, 128, (4, 2)).astype(np.int8), f32(3, 4), f32(4, 5)),
        ),
        "linalg_f32": (linalg_f32, (f32(4, 4), f32(4, 2))),
        "linalg_f64_batched": (linalg_f64_batched, (rs.standard_normal((2, 3, 3)),)),
        "linalg_c64": (linalg_c64, (c64(3, 3), c64(3, 2))),
        "sharded": (sharded, (f32(4, 3),)),
        "linalg_vectors": (linalg_vectors, (f32(5, 5),)),
    }
    data: dict[str, np.ndarray] = {}
    mesh = jax.make_mesh((1,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
    row_sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x"))
    jitted = {"sharded": jax.jit(sharded, in_shardings=row_sharding, out_shardings=row_sharding)}
    for name, (fn, args) in programs.items():
        with jax.enable_x64("f64" in name):
            exported = export.export(jitted.get(name, jax.jit(fn)))(*args)
            outputs = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
        # Source locations name this script by its name, not where the checkout is.
        text = exported.mlir_module().replace(f'"{Path(__file__).resolve()}"', '"export.py"')
        (HERE / f"{name}.mlir").write_text(text)
        for i, leaf in enumerate(jax.tree_util.tree_leaves(args)):
            data[f"{name}.arg{i}"] = np.asarray(leaf)
        for i, out in enumerate(outputs):
            data[f"{name}.out{i}"] = np.asarray(out)
    np.savez_compressed(HERE / "data.npz", **data)
    print(f"wrote {', '.join(programs)} with JAX {jax.__version__}")


if __name__ == "__main__":
    main()
