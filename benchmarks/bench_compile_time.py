"""Compile time against program size: per-stage times, growth exponents, XLA's compile time.

    python benchmarks/bench_compile_time.py [--sizes 300,1000,3000,10000] [--kinds chain,mlp,transformer]
                                            [--opt-level 3] [--budget 600] [--clock cpu] [--profile FILE]
                                            [--repeat N]

For each kind of program and each size (the number of ops of the exported module), the
program is compiled by `compile()` with a `TimingReport` (the disk cache off), and the
table gives, per stage (every pass of `lower-to-llvm`, then the LLVM phases:
translation, parsing, optimization, MCJIT code generation), the wall (or, `--clock cpu`,
CPU) seconds at each
size and the fitted growth exponent (least squares of log time on log size), then the
total, the total CPU time and, when JAX imports, `jax.jit(f).lower(*args).compile()`'s
wall time and our total over it.

The programs, written in JAX and exported as JAX hands them to XLA
(`jax.jit(f).lower(*args).as_text()`):
- `chain`: an element-wise chain (add, multiply, maximum, subtract, tanh, ... on two
  vectors); without JAX, the same chain is generated as `xla` text;
- `mlp`: stacked dense layers (dot, bias, relu) on a batch;
- `transformer`: pre-norm blocks (layer norm, single-head attention with softmax, a
  GELU MLP, residuals);
- `gpt`, `cnn` (not run by default): issue 19's own examples, one Adam training step of a
  small GPT (d = 64, 4 heads, ~830 ops a layer: `--kinds gpt --sizes 1700` is 2 layers)
  and one SGD step of a small CNN (3x3 convolutions, pooling, a dense classifier).

Before a kind's sizes, a smaller program of that kind is compiled by both compilers and
its times printed but not tabled (`--no-warm-up` skips it): a process's first compile
pays one-time costs that do not grow with the program (ours: importing the lowering,
~0.1 s of Python here, and building the runtime's helpers; XLA's: its first-use work),
which would otherwise all land in the first cell of the first kind.

`--repeat N` compiles each program N times with each compiler, in alternating order (XLA
each time a program made anew: JAX caches what it compiled per function), and tables the
run of median CPU time: one compile lands in whatever phase a shared machine is in (this VM's CPython runs
up to 2x slower in some), the median of three rarely does.

A size whose predicted CPU time (the previous size's, scaled by the exponent measured
so far, at least linearly) exceeds `--budget` seconds is skipped; a program that fails
to compile or load is reported and skipped. On a shared machine compare the CPU rows
(ours and XLA's, `time.process_time` of the process: all its threads). `--profile FILE` writes
a cProfile of the largest compile that ran (read it with `python -m pstats FILE`).
"""

from __future__ import annotations

import argparse
import cProfile
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["XLA_DIALECT_CACHE"] = "0"  # time the compiler, not the disk cache

from runtime.timing import TimingReport
from xla_tools import compile

try:
    import jax
    import jax.numpy as jnp

    HAVE_JAX = True
except ImportError:  # pragma: no cover - depends on the environment
    HAVE_JAX = False


@dataclass
class Program:
    text: str
    ops: int
    jax_compile: Callable[[], None] | None = None
    inputs: list[np.ndarray] | None = None
    """The arguments the program was exported with, flattened as its `@main` takes them."""
    jax_outputs: Callable[[], list[np.ndarray]] | None = None
    """XLA's results on `inputs`, flattened as the program returns them."""


def count_ops(text: str) -> int:
    """Ops of a module's text: lines that define values or are known effect ops."""
    return sum(1 for line in text.splitlines() if " = " in line and ("stablehlo." in line or "xla." in line or "chlo." in line))


# -- programs written in JAX ------------------------------------------------------------


def _jax_program(f: Callable[..., Any], *args: Any) -> Program:
    lowered = jax.jit(f).lower(*args)
    text = lowered.as_text()

    def jax_compile() -> None:
        jax.jit(f).lower(*args).compile()

    def jax_outputs() -> list[np.ndarray]:
        return [np.asarray(x) for x in jax.tree_util.tree_leaves(jax.jit(f)(*args))]

    inputs = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    return Program(text, count_ops(text), jax_compile, inputs, jax_outputs)


def jax_chain(length: int) -> Program:
    def f(x: Any, y: Any) -> Any:
        for i in range(length // 2):
            step = i % 5
            if step == 0:
                x = x + y
            elif step == 1:
                x = x * y
            elif step == 2:
                x = jnp.maximum(x, y)
            elif step == 3:
                x = x - y
            else:
                x = jnp.tanh(x)
            y = y * x if i % 3 == 0 else y - x
        return x + y

    rng = np.random.default_rng(0)
    return _jax_program(f, *(rng.standard_normal(256, dtype=np.float32) for _ in range(2)))


def jax_mlp(layers: int, width: int = 64, batch: int = 16) -> Program:
    rng = np.random.default_rng(0)
    params = [
        (rng.standard_normal((width, width), dtype=np.float32) * 0.1, rng.standard_normal(width, dtype=np.float32) * 0.1)
        for _ in range(layers)
    ]

    def f(x: Any, params: Any) -> Any:
        for w, b in params:
            x = jax.nn.relu(x @ w + b)
        return x

    return _jax_program(f, rng.standard_normal((batch, width), dtype=np.float32), params)


def jax_transformer(blocks: int, seq: int = 16, d: int = 32) -> Program:
    rng = np.random.default_rng(0)

    def w(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape, dtype=np.float32) * 0.1

    params = [(w(d, d), w(d, d), w(d, d), w(d, d), w(d, 4 * d), w(4 * d, d)) for _ in range(blocks)]

    def layer_norm(x: Any) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + 1e-5)

    def f(x: Any, params: Any) -> Any:
        for wq, wk, wv, wo, w1, w2 in params:
            h = layer_norm(x)
            q, k, v = h @ wq, h @ wk, h @ wv
            a = jax.nn.softmax(q @ k.T / math.sqrt(d), axis=-1)
            x = x + (a @ v) @ wo
            x = x + jax.nn.gelu(layer_norm(x) @ w1) @ w2
        return x

    return _jax_program(f, w(seq, d), params)


def jax_gpt_adam(layers: int, d: int = 64, heads: int = 4, seq: int = 32, vocab: int = 128, batch: int = 4) -> Program:
    """The issue's own example: one Adam training step of a small GPT (token and position
    embeddings, pre-norm blocks of causal multi-head attention and a GELU MLP, a tied output
    layer, cross-entropy), forward, backward and update in one program."""
    rng = np.random.default_rng(0)

    def w(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape, dtype=np.float32) * 0.02

    def norm() -> tuple[np.ndarray, np.ndarray]:
        return np.ones(d, np.float32), np.zeros(d, np.float32)

    blocks = [
        {"ln1": norm(), "qkv": w(d, 3 * d), "o": w(d, d), "ln2": norm(), "fc1": w(d, 4 * d),
         "b1": np.zeros(4 * d, np.float32), "fc2": w(4 * d, d), "b2": np.zeros(d, np.float32)}
        for _ in range(layers)
    ]
    params = {"emb": w(vocab, d), "pos": w(seq, d), "blocks": blocks, "lnf": norm()}

    def layer_norm(x: Any, p: Any) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * p[0] + p[1]

    def heads_first(t: Any) -> Any:
        return t.reshape(batch, seq, heads, d // heads).transpose(0, 2, 1, 3)

    def loss(p: Any, tokens: Any, targets: Any) -> Any:
        x = p["emb"][tokens] + p["pos"]
        causal = jnp.tril(jnp.ones((seq, seq), bool))
        for b in p["blocks"]:
            q, k, v = (heads_first(t) for t in jnp.split(layer_norm(x, b["ln1"]) @ b["qkv"], 3, -1))
            a = jnp.where(causal, q @ k.transpose(0, 1, 3, 2) / math.sqrt(d // heads), -1e9)
            a = jax.nn.softmax(a, -1) @ v
            x = x + a.transpose(0, 2, 1, 3).reshape(batch, seq, d) @ b["o"]
            x = x + jax.nn.gelu(layer_norm(x, b["ln2"]) @ b["fc1"] + b["b1"]) @ b["fc2"] + b["b2"]
        logits = layer_norm(x, p["lnf"]) @ p["emb"].T
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), targets[..., None], -1))

    def step(p: Any, m: Any, v: Any, tokens: Any, targets: Any, t: Any) -> Any:
        value, g = jax.value_and_grad(loss)(p, tokens, targets)
        b1, b2, lr = 0.9, 0.999, 1e-3
        m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
        p = jax.tree_util.tree_map(
            lambda p, m, v: p - lr * (m / (1 - b1**t)) / (jnp.sqrt(v / (1 - b2**t)) + 1e-8), p, m, v
        )
        return value, p, m, v

    zeros = jax.tree_util.tree_map(np.zeros_like, params)
    tokens = rng.integers(0, vocab, (batch, seq)).astype(np.int32)
    return _jax_program(step, params, zeros, zeros, tokens, tokens, np.float32(1.0))


def jax_cnn_train(layers: int, channels: int = 16, side: int = 32, batch: int = 8, classes: int = 10) -> Program:
    """The issue's other example: one SGD training step of a small CNN (3x3 convolutions,
    ReLU, 2x2 max pooling, a dense classifier, cross-entropy)."""
    rng = np.random.default_rng(0)
    convs = [
        (rng.standard_normal((3, 3, 3 if i == 0 else channels, channels), dtype=np.float32) * 0.1,
         np.zeros(channels, np.float32))
        for i in range(layers)
    ]
    last = max(1, side // 2**layers)
    params = {"convs": convs, "fc": rng.standard_normal((last * last * channels, classes), dtype=np.float32) * 0.1,
              "fb": np.zeros(classes, np.float32)}

    def loss(p: Any, x: Any, y: Any) -> Any:
        for k, b in p["convs"]:
            x = jax.lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")) + b
            x = jax.nn.relu(x)
            if x.shape[1] > 1:
                x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        logits = x.reshape(x.shape[0], -1) @ p["fc"] + p["fb"]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], -1))

    def step(p: Any, x: Any, y: Any) -> Any:
        value, g = jax.value_and_grad(loss)(p, x, y)
        return value, jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, p, g)

    x = rng.standard_normal((batch, side, side, 3), dtype=np.float32)
    y = rng.integers(0, classes, batch).astype(np.int32)
    return _jax_program(step, params, x, y)


# -- without JAX: the element-wise chain as xla text -------------------------------------


def xla_chain(length: int, n: int = 256) -> Program:
    t = f"tensor<{n}xf32>"
    lines = [f"func.func @main(%x0: {t}, %y0: {t}) -> {t} {{"]
    x, y = "%x0", "%y0"
    for i in range(length // 2):
        op = ("add", "multiply", "maximum", "subtract", "tanh")[i % 5]
        if op == "tanh":
            lines.append(f"  %x{i + 1} = xla.tanh {x} : {t}")
        else:
            lines.append(f"  %x{i + 1} = xla.{op} {x}, {y} : {t}")
        x = f"%x{i + 1}"
        lines.append(f"  %y{i + 1} = xla.{'multiply' if i % 3 == 0 else 'subtract'} {y}, {x} : {t}")
        y = f"%y{i + 1}"
    lines.append(f"  %r = xla.add {x}, {y} : {t}")
    lines.append(f"  func.return %r : {t}\n}}")
    text = "\n".join(lines)
    return Program(text, count_ops(text))


# ops per unit of each kind (measured on the exports), to aim at a size
OPS_PER_UNIT = {"chain": 1.0, "mlp": 5.0, "transformer": 60.0, "gpt": 800.0, "cnn": 80.0}

BUILDERS: dict[str, Callable[[int], Program]] = {
    "mlp": jax_mlp,
    "transformer": jax_transformer,
    "gpt": jax_gpt_adam,
    "cnn": jax_cnn_train,
}
"""The kinds written in JAX; the size of `gpt` and `cnn` counts layers."""


def make(kind: str, size: int) -> Program:
    if kind == "chain":
        return jax_chain(size) if HAVE_JAX else xla_chain(size)
    if not HAVE_JAX:
        raise RuntimeError(f"the {kind} programs are written in JAX, which does not import")
    build = BUILDERS[kind]
    probe = build(2 if kind in ("gpt", "cnn") else 4)
    per_unit = max(probe.ops / (2 if kind in ("gpt", "cnn") else 4), 1.0)
    units = max(1, round(size / per_unit))
    return build(units)


def growth_exponent(sizes: list[float], times: list[float]) -> float:
    """Least-squares slope of log(time) on log(size)."""
    pts = [(math.log(s), math.log(t)) for s, t in zip(sizes, times) if t > 0]
    if len(pts) < 2:
        return float("nan")
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    var = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / var if var else float("nan")


@dataclass
class Run:
    ops: int
    report: TimingReport
    total_cpu: float
    jax_s: float | None
    jax_cpu: float | None


def warm_up(kind: str, sizes: list[int], opt_level: int) -> None:
    """Compile a smaller program of `kind` with both compilers, untimed by the table, and
    print what it took: a process's first compile pays one-time costs that do not grow
    with the program (ours: importing the lowering's modules, ~0.1 s of Python, and
    building the runtime's helpers; XLA's: its own first-use work), which would
    otherwise all land in the first cell."""
    program = make(kind, max(1, min(sizes) // 3))
    cpu = time.process_time()
    try:
        compile(program.text, opt_level=opt_level, filename=f"{kind}-warm-up.mlir")
    except Exception as err:  # noqa: BLE001 - the sweep reports the failure on its own programs
        print(f"  {kind} warm-up ({program.ops} ops): failed: {type(err).__name__}: {str(err)[:80]}", flush=True)
        return
    ours = time.process_time() - cpu
    timed = _compile_xla(program, f"{kind} warm-up")
    xla = f", XLA {timed[1]:.2f} s CPU" if timed is not None else ""
    print(f"  {kind} warm-up ({program.ops} ops, not in the table): ours {ours:.2f} s CPU{xla}", flush=True)


def _compile_ours(program: Program, opt_level: int, name: str, profile: str | None) -> tuple[TimingReport, float] | None:
    """Our compile of `program`: its timing report and CPU seconds, or None (reported) if it failed."""
    report = TimingReport()
    cpu = time.process_time()
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    try:
        compile(program.text, opt_level=opt_level, timing=report, filename=f"{name}.mlir")
    except Exception as err:  # noqa: BLE001 - a program we cannot run is a missing cell, not the end of the sweep
        print(f"  {name} ({program.ops} ops): failed: {type(err).__name__}: {str(err)[:80]}", flush=True)
        return None
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile)  # pyright: ignore[reportArgumentType]
    return report, time.process_time() - cpu


def _compile_xla(program: Program, name: str) -> tuple[float, float] | None:
    """XLA's compile of `program`: wall and CPU seconds, or None. (JAX caches what it
    compiled per function: a repeat takes a program made anew, whose functions it has
    not seen; `jax.clear_caches()` would also drop the tracing and lowering caches a
    fresh program meets warm, and make XLA's side slower than it is.)"""
    if program.jax_compile is None:
        return None
    start, start_cpu = time.perf_counter(), time.process_time()
    try:
        program.jax_compile()
    except Exception as err:  # noqa: BLE001 - XLA's failure is a missing cell, not the end of the sweep
        print(f"  {name} ({program.ops} ops): XLA failed to compile: {str(err)[:80]}", flush=True)
        return None
    return time.perf_counter() - start, time.process_time() - start_cpu


def run_kind(
    kind: str,
    sizes: list[int],
    opt_level: int,
    budget: float,
    profile: str | None,
    warm: bool = True,
    repeat: int = 1,
) -> list[Run]:
    """Compile each size of `kind` with both compilers, `repeat` times in alternating
    order; a cell is the run of median CPU time (ours: its whole report), so a slow
    phase of a shared machine during one compile does not make the cell."""
    runs: list[Run] = []
    if warm:
        warm_up(kind, sizes, opt_level)
    for size in sizes:
        if runs:
            prev = runs[-1]
            exponent = max(1.0, growth_exponent([r.ops for r in runs], [r.total_cpu for r in runs]) if len(runs) > 1 else 1.0)
            predicted = prev.total_cpu * (size / prev.ops) ** exponent * repeat
            if predicted > budget:
                print(f"  {kind} {size}: skipped (predicted {predicted:.0f} s > budget {budget:.0f} s)", flush=True)
                continue
        program = make(kind, size)
        name = f"{kind}-{size}"
        ours: list[tuple[TimingReport, float]] = []
        xla: list[tuple[float, float]] = []
        failed = False
        for attempt in range(repeat):
            first_ours = attempt % 2 == 0
            for side in ("ours", "xla") if first_ours else ("xla", "ours"):
                if side == "ours":
                    got = _compile_ours(program, opt_level, name, profile)
                    if got is None:
                        failed = True
                        break
                    ours.append(got)
                else:
                    timed = _compile_xla(program if attempt == 0 else make(kind, size), name)
                    if timed is not None:
                        xla.append(timed)
            if failed:
                break
        if failed or not ours:
            continue
        report, total_cpu = sorted(ours, key=lambda r: r[1])[len(ours) // 2]
        jax_s = statistics.median(t[0] for t in xla) if xla else None
        jax_cpu = statistics.median(t[1] for t in xla) if xla else None
        runs.append(Run(program.ops, report, total_cpu, jax_s, jax_cpu))
        jax_text = f", XLA {jax_s:.2f} s wall, {jax_cpu:.2f} s CPU" if jax_s is not None and jax_cpu is not None else ""
        spread = ""
        if repeat > 1 and len(xla) == len(ours):
            spread = " (CPU, ours / XLA per repeat: " + ", ".join(f"{o[1]:.2f} / {x[1]:.2f}" for o, x in zip(ours, xla)) + ")"
        elif repeat > 1:
            spread = " (CPU, ours per repeat: " + ", ".join(f"{o[1]:.2f}" for o in ours) + ")"
        print(f"  {kind} {program.ops} ops: {report.total_wall:.2f} s wall, {total_cpu:.2f} s CPU{jax_text}{spread}", flush=True)
    return runs


def _stage_time(report: TimingReport, name: str, clock: str) -> float:
    phase = report.phases.get(name)
    return 0.0 if phase is None else (phase.cpu if clock == "cpu" else phase.wall)


def print_table(kind: str, runs: list[Run], clock: str = "wall") -> None:
    if not runs:
        return
    sizes = [r.ops for r in runs]
    stages: list[str] = []
    for r in runs:
        stages += [name for name in r.report.phases if name not in stages]
    width = max(len(s) for s in stages + ["stage"])
    head = f"{'stage':<{width}}" + "".join(f"{n:>10}" for n in sizes) + f"{'exponent':>10}"
    print(f"\n{kind} ({clock} seconds; columns: ops)")
    print(head)
    print("-" * len(head))

    def row(name: str, values: list[float | None]) -> None:
        cells = "".join(f"{v:10.3f}" if v is not None else f"{'-':>10}" for v in values)
        known = [(s, v) for s, v in zip(sizes, values) if v is not None and v > 0]
        exp = growth_exponent([k[0] for k in known], [k[1] for k in known]) if len(known) > 1 else float("nan")
        print(f"{name:<{width}}{cells}{exp:10.2f}")

    for name in stages:
        row(name, [_stage_time(r.report, name, clock) for r in runs])
    print("-" * len(head))
    row("total", [r.report.total_wall for r in runs])
    row("total CPU", [r.total_cpu for r in runs])
    if any(r.jax_s is not None for r in runs):
        row("XLA (jax .compile())", [r.jax_s for r in runs])
        row("XLA CPU", [r.jax_cpu for r in runs])
        row("ours / XLA (wall)", [r.report.total_wall / r.jax_s if r.jax_s else None for r in runs])
        row("ours / XLA (CPU)", [r.total_cpu / r.jax_cpu if r.jax_cpu else None for r in runs])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="300,1000,3000,10000", help="program sizes in ops (default 300,1000,3000,10000)")
    p.add_argument("--kinds", default="chain,mlp,transformer",
                   help="chain, mlp, transformer (the default), gpt (a small GPT's Adam step), cnn (a CNN's SGD step)")
    p.add_argument("--opt-level", type=int, default=3, help="LLVM optimization level (default 3)")
    p.add_argument("--budget", type=float, default=600.0, help="skip sizes predicted to take longer (s)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="the stage table's clock: wall, or CPU (steadier on a shared machine)")
    p.add_argument("--profile", help="write a cProfile of the last compile of each kind to FILE.<kind>")
    p.add_argument("--repeat", type=int, default=1,
                   help="compile each program N times with each compiler, alternating, and table the median (default 1)")
    p.add_argument("--no-warm-up", action="store_true",
                   help="time each kind's first program as the process's first compile (no untimed warm-up)")
    args = p.parse_args(argv)
    # time the compiler, not the in-memory cache: a kind's warm-up program may be one of its sizes
    os.environ["XLA_DIALECT_CACHE_ENTRIES"] = "0"
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = [k for k in args.kinds.split(",") if k]
    if not HAVE_JAX:
        print("JAX does not import: only the element-wise chain (as xla text), no XLA column")
        kinds = [k for k in kinds if k == "chain"]
    for kind in kinds:
        print(f"{kind}:", flush=True)
        profile = f"{args.profile}.{kind}" if args.profile else None
        runs = run_kind(kind, sizes, args.opt_level, args.budget, profile, warm=not args.no_warm_up, repeat=max(1, args.repeat))
        print_table(kind, runs, args.clock)
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
