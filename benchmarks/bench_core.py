"""Compiled `xla` programs against NumPy (and JAX/XLA when installed), in one run.

    python benchmarks/bench_core.py [--repeat 20] [--only matmul]

For each kernel: the compile time (xla text → native code), the best time of
the compiled code (output buffers reused across calls, as a serving loop
would), NumPy's best time on the same inputs, their ratio (> 1: the compiled
code is slower), and JAX's time and ratio when `jax` imports. Results are
checked against NumPy before timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xla_tools import compile


@dataclass
class Kernel:
    name: str
    mlir: str
    inputs: list[np.ndarray]
    numpy: Callable[..., Any]
    jax: Callable[..., Any] | None = None
    rtol: float = 1e-4


def matmul(n: int) -> Kernel:
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
    t = f"tensor<{n}x{n}xf32>"
    mlir = f"""func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %0 = xla.dot %a, %b : ({t}, {t}) -> {t}
  func.return %0 : {t}
}}"""
    return Kernel(f"matmul {n}", mlir, [a, b], lambda a, b: a @ b, lambda jnp: lambda a, b: jnp.dot(a, b), rtol=1e-3)


def elementwise_chain(n: int = 1 << 22) -> Kernel:
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(n, dtype=np.float32) for _ in range(3))
    t = f"tensor<{n}xf32>"
    mlir = f"""func.func @main(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %0 = xla.multiply %a, %b : {t}
  %1 = xla.add %0, %c : {t}
  %2 = xla.maximum %1, %zero : ({t}, tensor<f32>) -> {t}
  %3 = xla.multiply %2, %a : {t}
  func.return %3 : {t}
}}"""
    return Kernel(
        "elementwise chain 4M",
        mlir,
        [a, b, c],
        lambda a, b, c: np.maximum(a * b + c, 0) * a,
        lambda jnp: lambda a, b, c: jnp.maximum(a * b + c, 0) * a,
    )


def softmax(rows: int = 1024, cols: int = 1024) -> Kernel:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    t, r = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}xf32>"
    mlir = f"""func.func @main(%x: {t}) -> {t} {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %max = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %s = xla.subtract %x, %max, broadcast_dimensions = [0] : ({t}, {r}) -> {t}
  %e = xla.exponential %s : {t}
  %sum = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %p = xla.divide %e, %sum, broadcast_dimensions = [0] : ({t}, {r}) -> {t}
  func.return %p : {t}
}}"""

    def np_softmax(x: np.ndarray) -> np.ndarray:
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def jax_softmax(jnp: Any) -> Callable[..., Any]:
        def f(x: Any) -> Any:
            e = jnp.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

        return f

    return Kernel("softmax 1024x1024", mlir, [x], np_softmax, jax_softmax)


def total_sum(n: int = 1 << 24) -> Kernel:
    x = np.random.default_rng(3).random(n, dtype=np.float32)
    t = f"tensor<{n}xf32>"
    mlir = f"""func.func @main(%x: {t}) -> tensor<f32> {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [0] : ({t}, tensor<f32>) -> tensor<f32>
  func.return %s : tensor<f32>
}}"""
    return Kernel("sum 16M", mlir, [x], lambda x: x.sum(dtype=np.float32), lambda jnp: lambda x: jnp.sum(x), rtol=1e-3)


def layer_norm(rows: int = 1024, cols: int = 1024) -> Kernel:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    g, b = rng.standard_normal(cols, dtype=np.float32), rng.standard_normal(cols, dtype=np.float32)
    t, r, c = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}xf32>", f"tensor<{cols}xf32>"
    mlir = f"""func.func @main(%x: {t}, %g: {c}, %b: {c}) -> {t} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %n = xla.constant dense<{float(cols)}> : tensor<f32>
  %eps = xla.constant dense<1.0e-5> : tensor<f32>
  %sum = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %mean = xla.divide %sum, %n : ({r}, tensor<f32>) -> {r}
  %d = xla.subtract %x, %mean, broadcast_dimensions = [0] : ({t}, {r}) -> {t}
  %sq = xla.multiply %d, %d : {t}
  %ss = xla.reduce(%sq init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {r}
  %var = xla.divide %ss, %n : ({r}, tensor<f32>) -> {r}
  %ve = xla.add %var, %eps : ({r}, tensor<f32>) -> {r}
  %inv = xla.rsqrt %ve : {r}
  %y = xla.multiply %d, %inv, broadcast_dimensions = [0] : ({t}, {r}) -> {t}
  %yg = xla.multiply %y, %g, broadcast_dimensions = [1] : ({t}, {c}) -> {t}
  %out = xla.add %yg, %b, broadcast_dimensions = [1] : ({t}, {c}) -> {t}
  func.return %out : {t}
}}"""

    def np_ln(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
        mean = x.mean(axis=1, keepdims=True)
        d = x - mean
        var = (d * d).mean(axis=1, keepdims=True)
        return d / np.sqrt(var + np.float32(1e-5)) * g + b

    def jax_ln(jnp: Any) -> Callable[..., Any]:
        def f(x: Any, g: Any, b: Any) -> Any:
            mean = x.mean(axis=1, keepdims=True)
            d = x - mean
            var = (d * d).mean(axis=1, keepdims=True)
            return d / jnp.sqrt(var + 1e-5) * g + b

        return f

    return Kernel("layer norm 1024x1024", mlir, [x, g, b], np_ln, jax_ln, rtol=1e-3)


def max_pool(h: int = 112, w: int = 112, c: int = 64) -> Kernel:
    """A ResNet-stem max pool: NHWC, 3x3 window, stride 2, padded by 1 with -inf."""
    x = np.random.default_rng(5).standard_normal((1, h, w, c), dtype=np.float32)
    oh, ow = (h + 2 - 3) // 2 + 1, (w + 2 - 3) // 2 + 1
    t, r = f"tensor<1x{h}x{w}x{c}xf32>", f"tensor<1x{oh}x{ow}x{c}xf32>"
    mlir = f"""func.func @main(%x: {t}) -> {r} {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %p = "xla.reduce_window"(%x, %ninf) <{{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }}) : ({t}, tensor<f32>) -> {r}
  func.return %p : {r}
}}"""

    def np_pool(x: np.ndarray) -> np.ndarray:
        padded = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)], constant_values=-np.inf)
        windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
        return windows[:, ::2, ::2].max(axis=(-2, -1))

    def jax_pool(jnp: Any) -> Callable[..., Any]:
        from jax import lax

        return lambda x: lax.reduce_window(
            x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), [(0, 0), (1, 1), (1, 1), (0, 0)]
        )

    return Kernel(f"max pool {h}x{w}x{c}", mlir, [x], np_pool, jax_pool)


def conv2d(h: int = 56, w: int = 56, c: int = 64, o: int = 64) -> Kernel:
    """A ResNet 3x3 convolution: NHWC input, HWIO kernel, stride 1, SAME padding."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((1, h, w, c), dtype=np.float32)
    k = rng.standard_normal((3, 3, c, o), dtype=np.float32)
    t, kt, r = f"tensor<1x{h}x{w}x{c}xf32>", f"tensor<3x3x{c}x{o}xf32>", f"tensor<1x{h}x{w}x{o}xf32>"
    mlir = f"""func.func @main(%x: {t}, %k: {kt}) -> {r} {{
  %y = xla.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{pad = SAME}} : ({t}, {kt}) -> {r}
  func.return %y : {r}
}}"""

    def np_conv(x: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Per window tap, the shifted padded input times that tap's [c, o] matrix
        (faster here than one im2col matmul, whose copy costs more than it saves)."""
        padded = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
        out = np.zeros((1, h, w, o), np.float32)
        for dy in range(3):
            for dx in range(3):
                out += padded[:, dy : dy + h, dx : dx + w, :] @ k[dy, dx]
        return out

    def jax_conv(jnp: Any) -> Callable[..., Any]:
        from jax import lax

        return lambda x, k: lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    return Kernel(f"conv {h}x{w}x{c} 3x3x{o}", mlir, [x, k], np_conv, jax_conv, rtol=1e-3)


KERNELS: list[Callable[[], Kernel]] = [
    lambda: matmul(256),
    lambda: matmul(512),
    lambda: matmul(1024),
    elementwise_chain,
    softmax,
    total_sum,
    layer_norm,
    max_pool,
    conv2d,
]


def best_time(fn: Callable[[], Any], repeat: int, budget: float = 5.0) -> float:
    fn()  # warm up (page faults, caches)
    best = float("inf")
    start = time.perf_counter()
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
        if time.perf_counter() - start > budget:
            break
    return best


def measure(k: Kernel, repeat: int, jax: Any, jnp: Any) -> str:
    """One line of the table: compile, check against NumPy, time all three."""
    t0 = time.perf_counter()
    executable = compile(k.mlir)
    compile_s = time.perf_counter() - t0
    result = executable(*k.inputs)
    np.testing.assert_allclose(result, k.numpy(*k.inputs), rtol=k.rtol, atol=k.rtol)
    out = [np.empty_like(np.asarray(result))]
    ours = best_time(lambda: executable(*k.inputs, out=out), repeat)
    theirs = best_time(lambda: k.numpy(*k.inputs), repeat)
    line = f"{k.name:24} {compile_s:9.2f} {ours * 1e3:9.2f} {theirs * 1e3:9.2f} {ours / theirs:8.2f}"
    if jax is not None and k.jax is not None:
        jf = jax.jit(k.jax(jnp))
        jin = [jnp.asarray(x) for x in k.inputs]
        jt = best_time(lambda: jf(*jin).block_until_ready(), repeat)
        line += f" {jt * 1e3:9.2f} {ours / jt:9.2f}"
    return line


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--only", help="run the kernels whose name contains this")
    args = p.parse_args()
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_platforms", "cpu")
    except Exception:  # noqa: BLE001 - JAX is optional
        jax = jnp = None  # type: ignore[assignment]
    header = f"{'kernel':24} {'compile s':>9} {'ours ms':>9} {'numpy ms':>9} {'ours/np':>8}"
    if jax is not None:
        header += f" {'jax ms':>9} {'ours/jax':>9}"
    print(header)
    for make in KERNELS:
        k = make()
        if args.only and args.only not in k.name:
            continue
        print(measure(k, args.repeat, jax, jnp), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
