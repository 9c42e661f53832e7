"""Regenerate the JAX exports in this folder (needs `pip install jax`).

Each program is lowered by `jax.jit(f).lower(...).as_text()`, i.e. the StableHLO
text JAX hands to XLA, unchanged. `data.npz` holds the inputs and JAX's own
results (computed by XLA on the CPU), which tests/unit/test_jax_exports.py
compares the compiled programs against.

    python examples/jax_exports/export.py
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

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


def main() -> None:
    key = jax.random.PRNGKey(0)
    sizes = [16, 32, 32, 10]
    params = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        key, k1, k2 = jax.random.split(key, 3)
        params.append((jax.random.normal(k1, (a, b)) * 0.3, jax.random.normal(k2, (b,)) * 0.1))
    key, kx, kc, kw = jax.random.split(key, 4)
    x = jax.random.normal(kx, (8, 16))
    image = jax.random.normal(kc, (2, 8, 8, 3))
    kernel = jax.random.normal(kw, (3, 3, 3, 4))
    scale = jnp.float32(0.5)

    data: dict[str, np.ndarray] = {}
    programs = {
        "mlp": (mlp, (params, x)),
        "mlp_grad": (mlp_grad, (params, x)),
        "conv_block": (conv_block, (image, kernel, scale)),
    }
    for name, (fn, args) in programs.items():
        (HERE / f"{name}.mlir").write_text(jax.jit(fn).lower(*args).as_text())
        leaves = jax.tree_util.tree_leaves(args)
        for i, leaf in enumerate(leaves):
            data[f"{name}.arg{i}"] = np.asarray(leaf)
        for i, out in enumerate(jax.tree_util.tree_leaves(jax.jit(fn)(*args))):
            data[f"{name}.out{i}"] = np.asarray(out)
    np.savez(HERE / "data.npz", **data)
    print(f"wrote {', '.join(programs)} with JAX {jax.__version__}")


if __name__ == "__main__":
    main()
