"""Speed-up of the project's parallel loops: each case of a suite at 1 and at N threads, timed
interleaved in one process (the same compiled code), with a check that the results are identical.

    python benchmarks/bench_threads.py [--suite contractions|memory|transcendental|all] [--threads 2]
                                       [--filter SUBSTR] [--seconds 8]

Prints, per case, the median time at 1 and at N threads, the speed-up and whether the
results are bitwise equal. The first line measures how many cores the machine gives the
process right now (two NumPy threads running `exp` side by side): on a loaded machine
no speed-up can show, and the figures are only meaningful when it is close to N.
ours/jax at each thread count comes from the suites themselves (`--threads N`).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import Case, export

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


def run_case(case: Case, threads: int, seconds: float) -> str:
    import jax

    from xla_tools import compile

    text = export(case)
    args = [np.asarray(a) for a in jax.tree_util.tree_leaves(case.args)]
    one, many = compile(text, threads=1), compile(text, threads=threads)
    r1, rn = _flat(one(*args)), _flat(many(*args))
    same = all(a.tobytes() == b.tobytes() for a, b in zip(r1, rn))
    outs = {one: [np.empty_like(r) for r in r1], many: [np.empty_like(r) for r in rn]}
    times: dict[Any, list[float]] = {one: [], many: []}
    deadline = time.perf_counter() + seconds
    k = 0
    while k < 200 and (k < 10 or time.perf_counter() < deadline):
        for f in (one, many) if k % 2 else (many, one):
            start = time.perf_counter()
            f(*args, out=outs[f])
            times[f].append(time.perf_counter() - start)
        k += 1
    t1, tn = statistics.median(times[one]) * 1e3, statistics.median(times[many]) * 1e3
    return f"{case.name:36s} {t1:10.3f} {tn:10.3f} {t1 / tn:9.2f}x  {'yes' if same else 'NO'}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="all", choices=(*SUITES, "all"))
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--filter", default="")
    p.add_argument("--seconds", type=float, default=8.0, help="time budget per case")
    args = p.parse_args()
    print(f"# cores available to {args.threads} threads now: {available_cores(args.threads):.2f}")
    print(f"{'case':36s} {'1 thr ms':>10s} {f'{args.threads} thr ms':>10s} {'speed-up':>10s}  identical")
    ok = True
    for suite in SUITES if args.suite == "all" else (args.suite,):
        module = importlib.import_module(f"bench_{suite}")
        for case in module.cases():
            if args.filter and args.filter not in case.name:
                continue
            line = run_case(case, args.threads, args.seconds)
            ok = ok and line.endswith("yes")
            print(line, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
