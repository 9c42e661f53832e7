"""Where a program's time goes at one thread: inside its parallel regions or outside them.

    python benchmarks/bench_serial_fraction.py [--suite contractions|memory|transcendental] [--filter F]

Runs each case of a suite at one thread on the Python pool (`$XLA_DIALECT_POOL=python`,
whose regions are Python calls this script can time) and prints, for the fastest of
`--reps` calls: the total time, the time inside the parallel regions, the serial
fraction `s` (everything else: the call, allocations, loops the cost model keeps
serial), Amdahl's bound on two threads `1 / (s + (1 - s) / 2)`, and the regions and
the gaps between them in microseconds. Unlike a two-thread timing it does not depend
on the machine's load, so it shows what holds a speed-up back: serial code, or (when
the bound is high and the measured speed-up is not) memory bandwidth or imbalance.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ["XLA_DIALECT_POOL"] = "python"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from harness import export

from runtime import threads
from xla_tools import compile

_REGIONS: list[tuple[float, float]] = []
_PARALLEL_FOR = threads.parallel_for


def _timed_parallel_for(body: int, ctx: int, n: int, grain: int) -> None:
    start = time.perf_counter()
    _PARALLEL_FOR(body, ctx, n, grain)
    _REGIONS.append((start, time.perf_counter()))


def measure(fn: Any, args: list[np.ndarray], reps: int) -> tuple[float, list[tuple[float, float]], float]:
    """The fastest call: (total seconds, its regions, its start)."""
    for _ in range(3):
        fn(*args)
    best: tuple[float, list[tuple[float, float]], float] | None = None
    for _ in range(reps):
        _REGIONS.clear()
        start = time.perf_counter()
        fn(*args)
        total = time.perf_counter() - start
        if best is None or total < best[0]:
            best = (total, list(_REGIONS), start)
    assert best is not None
    return best


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="contractions", choices=["contractions", "memory", "transcendental"])
    p.add_argument("--filter", default="")
    p.add_argument("--reps", type=int, default=15)
    args = p.parse_args()
    threads.parallel_for = _timed_parallel_for  # the Python pool's callback calls it by name
    import jax

    suite = importlib.import_module(f"bench_{args.suite}")
    for case in suite.cases():
        if args.filter not in case.name:
            continue
        fn = compile(export(case), threads=1)
        inputs = [np.asarray(x) for x in jax.tree_util.tree_leaves(case.args)]
        total, regions, start = measure(fn, inputs, args.reps)
        inside = sum(b - a for a, b in regions)
        s = 1 - inside / total
        marks = [start, *(t for r in regions for t in r), start + total]
        gaps = [round((marks[i + 1] - marks[i]) * 1e6) for i in range(0, len(marks) - 1, 2)]
        print(
            f"{case.name:40s} {total * 1e3:8.3f} ms  {len(regions):3d} regions {inside * 1e3:8.3f} ms  "
            f"serial {s * 100:5.1f}%  bound(2) {1 / (s + (1 - s) / 2):.2f}x\n"
            f"    regions (us) {[round((b - a) * 1e6) for a, b in regions]}\n    gaps (us) {gaps}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
