"""Each parallel region of a program, timed at one thread and at N, on the native pool.

    python benchmarks/bench_regions.py [--suite contractions|memory|transcendental] [--filter F]
                                       [--threads 2] [--reps 60] [--fifo PRIORITY]

`bench_serial_fraction.py` splits a call's time at one thread into its regions and the
rest, on the Python pool; this one times the regions the native pool actually runs, at
one thread and at N, so it tells which region scales and which does not (a region that
the worker joins late, one too small for its start-up cost, an uneven one), and what the
code outside the regions costs at N threads. `__xla_parallel_for` is bound to a ctypes
wrapper that calls the native pool and times the call (it adds a few microseconds to each
region, which the `outside` column absorbs). The two executables (1 and N threads, one
compile) are called alternately; each figure is the median of `--reps` calls. Prints, per
region, its trip count `n`, the grain the compiler chose, the two medians and their ratio;
then the sum of the regions and the time outside them. `--fifo` as in `bench_threads.py`.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import llvmlite.binding as llvm_binding
import numpy as np
from bench_threads import realtime
from harness import export

from runtime import threads
from xla_tools import compile

_PROTOTYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
_REGIONS: list[tuple[float, int, int]] = []
"""(seconds, n, grain) of each region of the current call."""


def bind_timed_pool() -> Any:
    """Bind `__xla_parallel_for` to a timed wrapper of the native pool (for the modules
    compiled from now on); returns the wrapper, which must stay alive."""
    import jax

    x = np.ones(4, np.float32)
    compile(jax.jit(lambda a: a + 1).lower(x).as_text(), threads=1)(x)  # binds the pool
    if threads._NATIVE is None:  # pyright: ignore[reportPrivateUsage]
        raise SystemExit("the native pool is not available here ($XLA_DIALECT_POOL=python?)")
    native = _PROTOTYPE(threads._NATIVE.parallel_for_address)  # pyright: ignore[reportPrivateUsage]

    @_PROTOTYPE
    def timed(body: int, ctx: int, n: int, grain: int) -> None:
        start = time.perf_counter()
        native(body, ctx, n, grain)
        _REGIONS.append((time.perf_counter() - start, n, grain))

    llvm_binding.add_symbol(threads.PARALLEL_FOR_SYMBOL, ctypes.cast(timed, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]
    return timed


def measure(case: Any, n_threads: int, reps: int, fifo: int) -> None:
    import jax

    text = export(case)
    fns = {1: compile(text, threads=1), n_threads: compile(text, threads=n_threads)}
    inputs = [np.asarray(x) for x in jax.tree_util.tree_leaves(case.args)]
    for fn in fns.values():
        fn(*inputs)
    totals: dict[int, list[float]] = {k: [] for k in fns}
    regions: dict[int, list[list[tuple[float, int, int]]]] = {k: [] for k in fns}
    with realtime(fifo):
        for r in range(reps):
            for k in (1, n_threads) if r % 2 == 0 else (n_threads, 1):
                _REGIONS.clear()
                start = time.perf_counter()
                fns[k](*inputs)
                totals[k].append(time.perf_counter() - start)
                regions[k].append(list(_REGIONS))
    one, many = statistics.median(totals[1]), statistics.median(totals[n_threads])
    print(f"{case.name}: {one * 1e3:.3f} ms at 1 thread, {many * 1e3:.3f} ms at {n_threads} ({one / many:.2f}x)")
    count = min(len(calls) for k in fns for calls in regions[k])
    print(f"  {'region':>6} {'n':>6} {'grain':>6} {'1 thr us':>9} {f'{n_threads} thr us':>9} {'ratio':>6}")
    sums = [0.0, 0.0]
    for i in range(count):
        a = statistics.median(calls[i][0] for calls in regions[1]) * 1e6
        b = statistics.median(calls[i][0] for calls in regions[n_threads]) * 1e6
        sums[0] += a
        sums[1] += b
        _, n, grain = regions[1][0][i]
        print(f"  {i:>6} {n:>6} {grain:>6} {a:>9.1f} {b:>9.1f} {a / b:>5.2f}x")
    print(f"  {'sum':>20} {sums[0]:>9.0f} {sums[1]:>9.0f} {sums[0] / max(sums[1], 1e-9):>5.2f}x")
    print(f"  {'outside':>20} {one * 1e6 - sums[0]:>9.0f} {many * 1e6 - sums[1]:>9.0f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="contractions", choices=["contractions", "memory", "transcendental"])
    p.add_argument("--filter", default="")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--reps", type=int, default=60)
    p.add_argument("--fifo", type=int, default=0, metavar="PRIORITY",
                   help="time under SCHED_FIFO at this priority (1-99; needs root or CAP_SYS_NICE)")
    args = p.parse_args()
    keep = bind_timed_pool()
    suite = importlib.import_module(f"bench_{args.suite}")
    for case in suite.cases():
        if args.filter in case.name:
            measure(case, args.threads, args.reps, args.fifo)
    del keep
    return 0


if __name__ == "__main__":
    sys.exit(main())
