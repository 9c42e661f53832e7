"""The cost of a parallel loop: `__xla_parallel_for` called from compiled code with an empty body.

    python benchmarks/bench_parallel_overhead.py [--repeats 2000]

Prints microseconds per call, the best of 5 rounds: `baseline` (a compiled function
that does nothing, called from Python), and on top of it `serial` (the call with one
thread: the body runs inline) and `two chunks` (two threads: one chunk handed to a
worker, one run by the caller, then the wait) of a body of 20 iterations of 1,000
dependent multiply-adds each (`--work`): `overhead` is the two-chunk time
minus half the serial one.
`$XLA_DIALECT_POOL=python` measures the Python pool (the compiled grain is then
multiplied by 8, so the region is made of 160 iterations). The cost model of
`convert-parallel-loops-to-calls` (`MIN_PARALLEL_WORK`, `MIN_CHUNK_WORK`) is chosen
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

IR = """
declare void @{symbol}(ptr, ptr, i64, i64)
@sink = internal global i64 0
define internal void @body(ptr %ctx, i64 %lo, i64 %hi) {{
entry:
  %span = sub i64 %hi, %lo
  %steps = mul i64 %span, {work}
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %x = phi i64 [ %lo, %entry ], [ %x2, %loop ]
  %x1 = mul i64 %x, 6364136223846793005
  %x2 = add i64 %x1, 1442695040888963407
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %steps
  br i1 %more, label %loop, label %out
out:
  store volatile i64 %x2, ptr @sink
  ret void
}}
define void @nothing() {{
  ret void
}}
define void @parallel(i64 %n) {{
  call void @{symbol}(ptr @body, ptr null, i64 %n, i64 1)
  ret void
}}
"""


def measure(repeats: int = 2000, work: int = 1000) -> dict[str, float]:
    jit = compile_llvm_ir(IR.format(symbol=threads.PARALLEL_FOR_SYMBOL, work=work))
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

    n = 20 * (1 if threads.pool_kind() == "native" else threads.PYTHON_GRAIN_FACTOR)
    base = per_call(nothing)
    with threads.use_threads(1):
        serial = per_call(parallel, n)
    with threads.use_threads(2):
        two = per_call(parallel, n)
    return {
        "baseline": base,
        "serial": serial - base,
        "two chunks": two - base,
        "overhead": two - serial / 2 - base / 2,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=2000)
    p.add_argument("--work", type=int, default=1000, help="multiply-adds per iteration")
    args = p.parse_args()
    for name, us in measure(args.repeats, args.work).items():
        print(f"{name:12s} {us:8.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
