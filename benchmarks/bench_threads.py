"""Speed-up of the project's parallel loops beside XLA on all cores: each case of a suite run by
the project at 1 and at N threads and by JAX with all its threads, interleaved in one process.

    python benchmarks/bench_threads.py [--suite contractions|memory|transcendental|all] [--threads 2]
                                       [--filter SUBSTR] [--seconds 8] [--reps 200] [--markdown]
                                       [--fifo PRIORITY]

Run it without `taskset` or with the cores meant (`taskset -c 0,1`), and without
`XLA_FLAGS=--xla_cpu_multi_thread_eigen=false`: JAX then uses all the cores it may.
Per case, after a warm-up, each repetition calls ours at 1 thread, ours at N threads
and JAX once, in a rotating order, until `--reps` repetitions or `--seconds` have
passed. The table gives, for each, the minimum time (the run least disturbed by
other processes: on a shared machine the medians carry the load) and the median,
the speed-up (min at 1 / min at N), ours/jax at N (minima), and whether the results
at 1 and N threads are bitwise equal (they must be: exit status 1 otherwise). The
first line measures how many cores the machine gives N threads right now (N NumPy
threads running `exp` side by side): well below N, no speed-up can show.

`N warm` is ours at N threads called right after a call at N threads (its workers
still spinning), where `N thr` follows a call at 1 thread or JAX's (its workers asleep
on their futex, their cores idle): the difference is what waking the workers costs a
call, not the code's scaling (on the 2-core Cascade Lake VM ~70 us for the 1x1 and 3x3
convolutions, ~10 us of it the futex wake-up).

`--fifo PRIORITY` times each case with every thread of the process under
`SCHED_FIFO` at that priority (root or CAP_SYS_NICE; compilation stays at normal
priority): on a machine shared with other people's processes, ours and JAX's
threads then take the cores whenever they run, so the minima stop depending on the
load (the kernel still leaves 5% of each second to the others). It does not remove
the hypervisor's noise on a virtual machine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import Case, export, jax_context

SUITES = ("contractions", "transcendental", "memory")


def available_cores(threads: int) -> float:
    """How many cores `threads` NumPy threads get now (GIL-free work side by side)."""
    a = np.random.default_rng(0).random(1 << 20, dtype=np.float32)

    def work() -> None:
        for _ in range(20):
            np.exp(a)

    start = time.perf_counter()
    work()
    alone = time.perf_counter() - start
    workers = [threading.Thread(target=work) for _ in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return threads * alone / (time.perf_counter() - start)


def _flat(result: Any) -> list[np.ndarray]:
    return [np.asarray(r) for r in (result if isinstance(result, tuple) else (result,))]


def time_rotating(fns: list[Callable[[], Any]], reps: int, seconds: float) -> list[list[float]]:
    """Seconds per call of each of `fns`, called in turn (the first of a round rotates)."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    deadline = time.perf_counter() + seconds
    k = 0
    while k < reps and (k < 10 or time.perf_counter() < deadline):
        for j in range(len(fns)):
            i = (j + k) % len(fns)
            start = time.perf_counter()
            fns[i]()
            times[i].append(time.perf_counter() - start)
        k += 1
    return times


HEADER = (
    f"{'case':34s} {'1 thr min':>9s} {'N thr min':>9s} {'jax min':>9s} {'speed-up':>8s} {'ours/jax':>8s}"
    f" {'1 thr med':>9s} {'N thr med':>9s} {'jax med':>9s} {'N warm min':>10s} {'warm s-u':>8s}  identical"
)


class realtime:
    """Every thread of this process under `SCHED_FIFO` at `priority` for the `with`
    block (0: unchanged), then back to `SCHED_OTHER`."""

    def __init__(self, priority: int) -> None:
        self.priority = priority

    @staticmethod
    def _set(policy: int, priority: int) -> None:
        for tid in os.listdir("/proc/self/task"):
            try:
                os.sched_setscheduler(int(tid), policy, os.sched_param(priority))
            except (ProcessLookupError, PermissionError):
                pass  # a thread that just ended; or no right to it (then nothing changes)

    def __enter__(self) -> None:
        if self.priority:
            self._set(os.SCHED_FIFO, self.priority)

    def __exit__(self, *exc: object) -> None:
        if self.priority:
            self._set(os.SCHED_OTHER, 0)


def run_case(case: Case, threads: int, reps: int, seconds: float, fifo: int = 0) -> tuple[str, bool, list[float]]:
    """The table row of `case`, whether its results agree across thread counts, and its minima."""
    with jax_context(case):
        return _run_case(case, threads, reps, seconds, fifo)


def _run_case(case: Case, threads: int, reps: int, seconds: float, fifo: int) -> tuple[str, bool, list[float]]:
    import jax

    from xla_tools import compile

    text = export(case)
    args = [np.asarray(a) for a in jax.tree_util.tree_leaves(case.args)]
    one, many = compile(text, threads=1), compile(text, threads=threads)
    r1, rn = _flat(one(*args)), _flat(many(*args))
    same = all(a.tobytes() == b.tobytes() for a, b in zip(r1, rn, strict=True))
    out1, outn = [np.empty_like(r) for r in r1], [np.empty_like(r) for r in rn]
    jitted = jax.jit(case.fn)
    device_args = jax.tree_util.tree_map(jax.device_put, case.args)
    many(*args, out=outn)  # the pool's workers exist before the threads' policy is set
    warm: list[float] = []

    def warm_call() -> None:
        many(*args, out=outn)
        start = time.perf_counter()
        many(*args, out=outn)
        warm.append(time.perf_counter() - start)

    with realtime(fifo):
        t1, tn, tj, _ = time_rotating(
            [
                lambda: one(*args, out=out1),
                lambda: many(*args, out=outn),
                lambda: jax.block_until_ready(jitted(*device_args)),
                warm_call,
            ],
            reps,
            seconds,
        )
    mins = [min(t) * 1e3 for t in (t1, tn, tj)]
    meds = [statistics.median(t) * 1e3 for t in (t1, tn, tj)]
    warm_min = min(warm) * 1e3
    row = (
        f"{case.name:34s} {mins[0]:9.3f} {mins[1]:9.3f} {mins[2]:9.3f} {mins[0] / mins[1]:7.2f}x {mins[1] / mins[2]:8.2f}"
        f" {meds[0]:9.3f} {meds[1]:9.3f} {meds[2]:9.3f} {warm_min:10.3f} {mins[0] / warm_min:7.2f}x"
        f"  {'yes' if same else 'NO'}"
    )
    return row, same, mins


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="all", choices=(*SUITES, "all"))
    p.add_argument("--threads", type=int, default=2, help="N, the thread count compared with 1")
    p.add_argument("--filter", default="", help="run the cases whose name contains this")
    p.add_argument("--seconds", type=float, default=8.0, help="time budget per case")
    p.add_argument("--reps", type=int, default=200, help="most repetitions per case")
    p.add_argument("--markdown", action="store_true", help="also print a README-ready table")
    p.add_argument("--fifo", type=int, default=0, metavar="PRIORITY",
                   help="time under SCHED_FIFO at this priority (1-99; needs root or CAP_SYS_NICE)")
    args = p.parse_args()
    print(f"# cores available to {args.threads} threads now: {available_cores(args.threads):.2f}")
    print(f"# minima and medians (ms) of up to {args.reps} interleaved repetitions; N = {args.threads}")
    print(HEADER)
    ok = True
    table: list[tuple[str, list[float]]] = []
    for suite in SUITES if args.suite == "all" else (args.suite,):
        module = importlib.import_module(f"bench_{suite}")
        for case in module.cases():
            if args.filter and args.filter not in case.name:
                continue
            line, same, mins = run_case(case, args.threads, args.reps, args.seconds, args.fifo)
            ok = ok and same
            table.append((case.name, mins))
            print(line, flush=True)
    if args.markdown:
        n = args.threads
        print(f"\n| case | ours 1 thread (ms) | ours {n} threads (ms) | speed-up | XLA all cores (ms) | ours/XLA |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, (a, b, j) in table:
            print(f"| {name} | {a:.3f} | {b:.3f} | {a / b:.2f}x | {j:.3f} | {b / j:.2f} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
