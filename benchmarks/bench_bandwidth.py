"""Is a program's speed-up held back by memory bandwidth? Its bytes per second at one and
at N threads beside STREAM-like kernels of the same sizes, compiled by the project.

    python benchmarks/bench_bandwidth.py [--threads 2] [--filter SUBSTR] [--seconds 3]

The reference kernels are hand-written `xla` programs with no arithmetic to speak of:
`copy` (y = -x: reads and writes each element once, as STREAM's copy) and `read` (the
sum of each row: reads only), on f32 matrices of 4 MiB (L3-resident: the L3 is 32 MiB),
16 MiB (input and output together fill the L3) and 64 MiB (DRAM). The programs are the
suites' cases that fall short of the 1.8x target. For each: the minimum time of
interleaved calls at 1 and at N threads (the same compiled code, outputs preallocated),
and the compulsory traffic (every input read once, every output written once) divided
by it. A program whose N-thread rate reaches the `copy` kernel's rate at its size is
bandwidth-bound: more threads cannot make it faster. Stores to a line not in cache also
read it first (write-allocate), so `copy` moves 3 bytes per 2 counted here.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_threads import available_cores, time_rotating
from harness import export

PROGRAMS = (
    ("transcendental", "logistic 4M"),
    ("transcendental", "log_softmax 2048x2048"),
    ("memory", "log-softmax 1024x1024 rows"),
    ("memory", "layer norm 1024x1024"),
    ("memory", "RMS norm 1024x1024"),
)


def stream_kernel(kind: str, rows: int, cols: int) -> tuple[str, str, list[np.ndarray]]:
    """A reference kernel: its name, its `xla` text and its argument."""
    t = f"tensor<{rows}x{cols}xf32>"
    x = np.random.default_rng(0).standard_normal((rows, cols), dtype=np.float32)
    if kind == "copy":
        body = f"  %y = xla.negate %x : {t}\n  func.return %y : {t}"
        result = t
    else:
        result = f"tensor<{rows}xf32>"
        body = (
            "  %zero = xla.constant dense<0.0> : tensor<f32>\n"
            f"  %y = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {result}\n"
            f"  func.return %y : {result}"
        )
    mb = rows * cols * 4 >> 20
    return f"{kind} {mb} MiB", f"func.func @main(%x: {t}) -> {result} {{\n{body}\n}}", [x]


def suite_program(suite: str, name: str) -> tuple[str, str, list[np.ndarray]]:
    import jax

    for case in importlib.import_module(f"bench_{suite}").cases():
        if case.name == name:
            return name, export(case), [np.asarray(a) for a in jax.tree_util.tree_leaves(case.args)]
    raise SystemExit(f"no case {name!r} in the {suite} suite")


def measure(name: str, text: str, args: list[np.ndarray], threads: int, seconds: float) -> str:
    from xla_tools import compile

    one, many = compile(text, threads=1), compile(text, threads=threads)
    results = one(*args)
    outs = [np.asarray(r) for r in (results if isinstance(results, tuple) else (results,))]
    nbytes = sum(a.nbytes for a in args) + sum(o.nbytes for o in outs)
    out1, outn = [np.empty_like(o) for o in outs], [np.empty_like(o) for o in outs]
    t1, tn = time_rotating([lambda: one(*args, out=out1), lambda: many(*args, out=outn)], 400, seconds)
    m1, mn = min(t1), min(tn)
    return (
        f"{name:30s} {nbytes / 2**20:8.1f} {m1 * 1e3:9.3f} {mn * 1e3:9.3f} {m1 / mn:7.2f}x"
        f" {nbytes / m1 / 1e9:9.1f} {nbytes / mn / 1e9:9.1f}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--filter", default="", help="run the kernels and programs whose name contains this")
    p.add_argument("--seconds", type=float, default=3.0, help="time budget per kernel or program")
    args = p.parse_args()
    n = args.threads
    print(f"# cores available to {n} threads now: {available_cores(n):.2f}")
    print(f"# minima of interleaved calls; GB/s = (inputs + outputs) bytes / time; N = {n}")
    print(f"{'kernel / program':30s} {'MiB':>8s} {'1 thr ms':>9s} {'N thr ms':>9s} {'speed-up':>8s} {'1 GB/s':>9s} {'N GB/s':>9s}")
    jobs: list[tuple[str, Any]] = [
        (f"{kind} {rows * rows * 4 >> 20} MiB", lambda k=kind, r=rows: stream_kernel(k, r, r))
        for kind in ("copy", "read")
        for rows in (1024, 2048, 4096)
    ]
    jobs += [(case, lambda s=suite, c=case: suite_program(s, c)) for suite, case in PROGRAMS]
    for label, job in jobs:
        if args.filter and args.filter not in label:
            continue
        name, text, inputs = job()
        print(measure(name, text, inputs, n, args.seconds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
