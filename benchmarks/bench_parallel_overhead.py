"""The cost of a parallel loop: `__xla_parallel_for` called from compiled code with an empty body.

    python benchmarks/bench_parallel_overhead.py [--repeats 2000]

Prints microseconds per call, the best of 5 rounds: `baseline` (a compiled function
that does nothing, called from Python), and on top of it `serial` (the call with one
thread: the ctypes callback and the body run inline) and `two chunks` (two threads:
one chunk handed to a worker, one run by the caller, then the wait). The cost model
of `convert-parallel-loops-to-calls` (`MIN_PARALLEL_WORK`, `MIN_CHUNK_WORK`) is chosen
against these figures.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runtime import threads
from runtime.jit import compile_llvm_ir

IR = f"""
declare void @{threads.PARALLEL_FOR_SYMBOL}(ptr, ptr, i64, i64)
define internal void @body(ptr %ctx, i64 %lo, i64 %hi) {{
  ret void
}}
define void @nothing() {{
  ret void
}}
define void @parallel(i64 %n) {{
  call void @{threads.PARALLEL_FOR_SYMBOL}(ptr @body, ptr null, i64 %n, i64 1)
  ret void
}}
"""


def measure(repeats: int = 2000) -> dict[str, float]:
    jit = compile_llvm_ir(IR)
    nothing = ctypes.CFUNCTYPE(None)(jit.get_function("nothing"))
    parallel = ctypes.CFUNCTYPE(None, ctypes.c_int64)(jit.get_function("parallel"))

    def per_call(fn: Any, *args: Any) -> float:
        for _ in range(100):
            fn(*args)
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(repeats):
                fn(*args)
            best = min(best, (time.perf_counter() - start) / repeats * 1e6)
        return best

    base = per_call(nothing)
    with threads.use_threads(1):
        serial = per_call(parallel, 2)
    with threads.use_threads(2):
        two = per_call(parallel, 2)
    return {"baseline": base, "serial": serial - base, "two chunks": two - base}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=2000)
    args = p.parse_args()
    for name, us in measure(args.repeats).items():
        print(f"{name:12s} {us:8.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
