"""Export a data-parallel MLP training step (needs jax: `pip install -e ".[bench]"`).

    python examples/data_parallel/export.py

Writes, beside this script:
* `mlp_train_step.mlir`: one SGD step on the whole batch, `jax.jit(step).lower(...)`
  as JAX exports it: `(w1, b1, w2, b2, x, y) -> (w1', b1', w2', b2')`;
* `mlp_train_step_dp.mlir`: the same step for one of 4 replicas, each holding a
  quarter of the batch: JAX's export of the gradient of the local loss
  (`@local_gradients`, renamed from its `@main`), then one `stablehlo.all_reduce`
  (sum over the replicas, as JAX's `psum` lowers) per gradient and the update,
  in a `@main` written here; `mhlo.num_replicas = 4`. (JAX lowers `pmap` and
  `shard_map` to Shardy or GSPMD partitioning, which this project does not
  read, so the collective step is assembled around JAX's gradient.)
* `train_data.npz`: `arg0..arg5` (parameters, the whole batch x and one-hot y)
  and `expected0..3`, the parameters after JAX's step on the whole batch.

Over the whole batch, the sum of the replicas' local gradients is the gradient
of the whole batch's loss (a sum over examples), so the 4-replica step gives the
one-process step's weights up to float rounding
(tests/unit/test_collectives_mpi.py checks it under mpiexec).
"""

from __future__ import annotations

import re
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

HERE = Path(__file__).parent
REPLICAS = 4
BATCH = 32
LEARNING_RATE = 0.05


def loss(params, x, y):
    (w1, b1), (w2, b2) = params
    h = jnp.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    return -jnp.sum(jax.nn.log_softmax(logits) * y)


def step(w1, b1, w2, b2, x, y):
    grads = jax.grad(loss)(((w1, b1), (w2, b2)), x, y)
    (g1, gb1), (g2, gb2) = grads
    scale = LEARNING_RATE / BATCH
    return w1 - scale * g1, b1 - scale * gb1, w2 - scale * g2, b2 - scale * gb2


def local_gradients(w1, b1, w2, b2, x, y):
    (g1, gb1), (g2, gb2) = jax.grad(loss)(((w1, b1), (w2, b2)), x, y)
    return g1, gb1, g2, gb2


def _type(a: jax.Array) -> str:
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + "f32>"


def data_parallel_module(local_text: str, params: list[jax.Array], x: jax.Array, y: jax.Array) -> str:
    """JAX's local-gradient module with its @main renamed, and a @main that
    all-reduces the gradients and applies the update."""
    body = re.sub(r"func\.func public @main\(", "func.func private @local_gradients(", local_text, count=1)
    body = re.sub(r"\bmhlo\.num_replicas = 1\b", f"mhlo.num_replicas = {REPLICAS}", body, count=1)
    assert "@local_gradients" in body and f"mhlo.num_replicas = {REPLICAS}" in body
    types = [_type(p) for p in params]
    args = [f"%p{i}: {t}" for i, t in enumerate(types)] + [f"%x: {_type(x)}", f"%y: {_type(y)}"]
    lines = [f"  func.func public @main({', '.join(args)}) -> ({', '.join(types)}) {{"]
    names = ", ".join(f"%p{i}" for i in range(len(params)))
    lines.append(
        f"    %g:{len(params)} = func.call @local_gradients({names}, %x, %y) : "
        f"({', '.join(types)}, {_type(x)}, {_type(y)}) -> ({', '.join(types)})"
    )
    scale = LEARNING_RATE / BATCH
    lines.append(f"    %scale = stablehlo.constant dense<{scale:.9e}> : tensor<f32>")
    for i, t in enumerate(types):
        lines += [
            f'    %s{i} = "stablehlo.all_reduce"(%g#{i}) ({{',
            "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):",
            "      %sum = stablehlo.add %a, %b : tensor<f32>",
            "      stablehlo.return %sum : tensor<f32>",
            f"    }}) {{replica_groups = dense<[{list(range(REPLICAS))}]> : tensor<1x{REPLICAS}xi64>}} : ({t}) -> {t}",
            f"    %k{i} = stablehlo.broadcast_in_dim %scale, dims = [] : (tensor<f32>) -> {t}",
            f"    %d{i} = stablehlo.multiply %k{i}, %s{i} : {t}",
            f"    %n{i} = stablehlo.subtract %p{i}, %d{i} : {t}",
        ]
    lines.append(f"    return {', '.join(f'%n{i}' for i in range(len(params)))} : {', '.join(types)}")
    lines.append("  }")
    end = body.rstrip().rfind("}")
    return body[:end] + "\n".join(lines) + "\n}\n"


def main() -> None:
    key = jax.random.PRNGKey(7)
    k1, k2, k3, k4, kx, ky = jax.random.split(key, 6)
    params = [
        jax.random.normal(k1, (16, 32)) * 0.3,
        jax.random.normal(k2, (32,)) * 0.1,
        jax.random.normal(k3, (32, 10)) * 0.3,
        jax.random.normal(k4, (10,)) * 0.1,
    ]
    x = jax.random.normal(kx, (BATCH, 16))
    y = jax.nn.one_hot(jax.random.randint(ky, (BATCH,), 0, 10), 10)
    (HERE / "mlp_train_step.mlir").write_text(jax.jit(step).lower(*params, x, y).as_text())
    shard_x, shard_y = x[: BATCH // REPLICAS], y[: BATCH // REPLICAS]
    local = jax.jit(local_gradients).lower(*params, shard_x, shard_y).as_text()
    (HERE / "mlp_train_step_dp.mlir").write_text(data_parallel_module(local, params, shard_x, shard_y))
    expected = jax.jit(step)(*params, x, y)
    data = {f"arg{i}": np.asarray(a) for i, a in enumerate([*params, x, y])}
    data |= {f"expected{i}": np.asarray(a) for i, a in enumerate(expected)}
    np.savez(HERE / "train_data.npz", **data)


if __name__ == "__main__":
    main()
