"""How close is a memory-bound program to the fastest loop that moves the same bytes?

    python benchmarks/bench_stream_limit.py [--filter logistic] [--reps 30]

One core (`taskset -c 1`, `XLA_FLAGS=--xla_cpu_multi_thread_eigen=false`). For each
single-input f32 case of `bench_transcendental.py` and `bench_memory.py` whose output
has its input's shape (logistic, GELU tanh, ...) or is one scalar (sum, mean and max of
16M), the same bytes are moved by programs with no arithmetic to speak of:

- element-wise cases: `ours negate` (the project's `y = -x` of the same size),
  `np.negative`, and `stream, plain stores` / `stream, NT stores`: a hand-written LLVM
  loop of 512-bit loads, negations and stores (ordinary, or non-temporal), four
  registers a turn, compiled by the project's JIT; `NT, 2 segments` / `NT, 4 segments`
  the same four registers a turn taken from 2 or 4 contiguous parts side by side (as
  `linalg-stream-elementwise` reads long rows, its `streams`): on this VM, right after
  XLA's logistic 4M, 4 parts took 0.54 of its time, 2 parts 0.55, one stream 0.61
  (session 13; see the README's Performance notes);
- full reductions: `np.add.reduce`, and `read`: a hand-written loop of 512-bit loads
  into eight accumulators (a sum in an order of its own: only its time matters),
  beside variants of it (`READS`) that read the array as 2, 4 or 8 contiguous parts
  side by side (a vector of each part a turn, each part with its own accumulators)
  and that `llvm.prefetch` 4 KiB ahead. On this 2-core Cascade Lake VM the parts
  read 64 MiB about 10% faster than one stream (more lines in flight); prefetching
  adds nothing measurable. `linalg-vectorize-reductions` reads long rows that way
  (its `streams` option).

Each is called right after XLA's call of the case, as the suites interleave the two, so
every one starts from the cache state XLA leaves; each figure is a median. The `/XLA`
column is the time over XLA's time for the case: where the arithmetic-free loops are
themselves near the target ratio, the target is a matter of this machine's memory
bandwidth, not of the case's code.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import export

from runtime.jit import compile_llvm_ir
from xla_tools import compile

STREAM_IR = """
define void @stream(ptr noalias %x, ptr noalias %y, i64 %n) {{
entry:
  %part = udiv i64 %n, {streams}
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
{body}
  %next = add i64 %i, {unroll}
  %more = icmp ult i64 %next, %part
  br i1 %more, label %loop, label %out
out:
  ret void
}}
!0 = !{{i32 1}}
"""

STEP = """  %j{u} = add i64 %c{s}, {k}
  %p{u} = getelementptr <16 x float>, ptr %x, i64 %j{u}
  %v{u} = load <16 x float>, ptr %p{u}, align 4
  %w{u} = fneg <16 x float> %v{u}
  %q{u} = getelementptr <16 x float>, ptr %y, i64 %j{u}
  store <16 x float> %w{u}, ptr %q{u}, align 64{nontemporal}"""


READ_IR = """
define float @read(ptr %x, i64 %n) {{
entry:
  %part = udiv i64 %n, {streams}
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
{phis}
{body}
  %next = add i64 %i, {unroll}
  %more = icmp ult i64 %next, %part
  br i1 %more, label %loop, label %out
out:
{total}
  ret float %t
}}
declare float @llvm.vector.reduce.fadd.v16f32(float, <16 x float>)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
"""


def read_loop(streams: int = 1, unroll: int = 8, prefetch_kib: int = 0) -> Callable[[int, int], float]:
    """`read(x, vectors)`: the sum of `vectors` 16-float vectors (a multiple of
    `streams * unroll`), read as `streams` contiguous parts side by side, `unroll`
    vectors of each part a turn, each into its own accumulator; with `prefetch_kib`,
    an `llvm.prefetch` of each line that far ahead in its part."""
    slots = [f"{s}_{u}" for s in range(streams) for u in range(unroll)]
    phis = "\n".join(f"  %a{k} = phi <16 x float> [ zeroinitializer, %entry ], [ %s{k}, %loop ]" for k in slots)
    lines: list[str] = []
    ahead = prefetch_kib * 1024 // 64
    for s in range(streams):
        lines.append(f"  %b{s} = mul i64 %part, {s}\n  %c{s} = add i64 %b{s}, %i")
        for u in range(unroll):
            k = f"{s}_{u}"
            lines.append(
                f"  %j{k} = add i64 %c{s}, {u}\n  %p{k} = getelementptr <16 x float>, ptr %x, i64 %j{k}\n"
                f"  %v{k} = load <16 x float>, ptr %p{k}, align 4\n  %s{k} = fadd <16 x float> %a{k}, %v{k}"
            )
            if ahead:
                lines.append(
                    f"  %f{k} = add i64 %j{k}, {ahead}\n  %q{k} = getelementptr <16 x float>, ptr %x, i64 %f{k}\n"
                    f"  call void @llvm.prefetch.p0(ptr %q{k}, i32 0, i32 3, i32 1)"
                )
    adds = [f"  %t1 = fadd <16 x float> %s{slots[0]}, %s{slots[1]}"] if len(slots) > 1 else []
    adds += [f"  %t{k} = fadd <16 x float> %t{k - 1}, %s{slots[k]}" for k in range(2, len(slots))]
    last = f"%t{len(slots) - 1}" if len(slots) > 1 else f"%s{slots[0]}"
    total = "\n".join([*adds, f"  %t = call float @llvm.vector.reduce.fadd.v16f32(float 0.0, <16 x float> {last})"])
    text = READ_IR.format(streams=streams, unroll=unroll, phis=phis, body="\n".join(lines), total=total)
    jit = compile_llvm_ir(text)
    fn = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_void_p, ctypes.c_int64)(jit.get_function("read"))
    fn.jit = jit  # type: ignore[attr-defined]  (keeps the code alive)
    return fn


READS = {
    "read": (1, 8, 0),
    "read, 2 streams x 4": (2, 4, 0),
    "read, 4 streams x 2": (4, 2, 0),
    "read, 8 streams x 1": (8, 1, 0),
    "read, 1 stream, pf 4K": (1, 8, 4),
    "read, 4 streams, pf 4K": (4, 2, 4),
}
"""The hand-written read loops: name -> (streams, vectors a turn per stream, prefetch KiB)."""


def stream_loop(nontemporal: bool, streams: int = 1) -> Callable[[int, int, int], None]:
    """`stream(x, y, vectors)`: y = -x over `vectors` (a multiple of 4) 16-float vectors,
    four a turn: from one stream, or `streams` (2 or 4) contiguous parts side by side,
    `4 / streams` vectors of each a turn (as `linalg-stream-elementwise` reads its
    segments); `y` must be 64-byte aligned."""
    tail = ", !nontemporal !0" if nontemporal else ""
    unroll = 4 // streams
    lines = [f"  %b{s} = mul i64 %part, {s}\n  %c{s} = add i64 %b{s}, %i" for s in range(streams)]
    lines += [
        STEP.format(u=f"{s}_{k}", s=s, k=k, nontemporal=tail) for s in range(streams) for k in range(unroll)
    ]
    jit = compile_llvm_ir(STREAM_IR.format(body="\n".join(lines), streams=streams, unroll=unroll))
    fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(jit.get_function("stream"))
    fn.jit = jit  # type: ignore[attr-defined]  (keeps the code alive)
    return fn


def aligned_like(x: np.ndarray) -> np.ndarray:
    """An uninitialised array like `x` whose data starts on a 64-byte line."""
    raw = np.empty(x.nbytes + 64, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start : start + x.nbytes].view(x.dtype).reshape(x.shape)


def negate_program(x: np.ndarray) -> Any:
    n = x.size
    return compile(
        f"func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{\n"
        f"  %0 = stablehlo.negate %x : tensor<{n}xf32>\n"
        f"  return %0 : tensor<{n}xf32>\n}}",
        threads=1,
    )


def _references(x: np.ndarray, scalar: bool) -> tuple[dict[str, Callable[[], object]], list[np.ndarray]]:
    """The arithmetic-free programs moving the bytes a case with input `x` moves (and the
    arrays they need alive)."""
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    if flat.size % 128:
        raise ValueError(f"{flat.size} elements, not a multiple of 128")
    vectors = flat.size // 16
    if scalar:
        runs: dict[str, Callable[[], object]] = {"np.add.reduce": lambda: np.add.reduce(flat)}
        for name, (streams, unroll, ahead) in READS.items():
            if vectors % (streams * unroll) == 0:
                read = read_loop(streams, unroll, ahead)
                runs[name] = lambda read=read: read(flat.ctypes.data, vectors)
        return runs, [flat]
    negate = negate_program(flat)
    plain, nontemporal = stream_loop(False), stream_loop(True)
    two, four = stream_loop(True, 2), stream_loop(True, 4)
    out = aligned_like(flat)
    runs = {
        "ours negate": lambda: negate(flat, out=[out]),
        "np.negative": lambda: np.negative(flat, out=out),
        "stream, plain stores": lambda: plain(flat.ctypes.data, out.ctypes.data, vectors),
        "stream, NT stores": lambda: nontemporal(flat.ctypes.data, out.ctypes.data, vectors),
        "NT, 2 segments": lambda: two(flat.ctypes.data, out.ctypes.data, vectors),
        "NT, 4 segments": lambda: four(flat.ctypes.data, out.ctypes.data, vectors),
    }
    return runs, [flat, out]


def measure(case: Any, reps: int) -> tuple[dict[str, float], int] | None:
    """Medians of the case (XLA's and ours) and of its references, and the bytes moved;
    None for a case whose result is neither of its input's shape nor a scalar."""
    import jax

    (x,) = (np.asarray(a) for a in case.args)
    jitted = jax.jit(case.fn)
    device_x = jax.device_put(x)
    result = np.asarray(jitted(device_x))
    scalar = result.shape == ()
    if not scalar and result.shape != x.shape:
        return None
    ours = compile(export(case), threads=1)
    out = aligned_like(result)
    references, _alive = _references(x, scalar)
    xla = lambda: jax.block_until_ready(jitted(device_x))
    runs: dict[str, Callable[[], object]] = {
        "XLA (the case)": xla,
        "ours (the case)": lambda: ours(x, out=[out]),
        **references,
    }
    for run in runs.values():
        run()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(reps):
        for name, run in runs.items():
            xla()  # every call starts from the cache XLA's call leaves, as in the suites
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    moved = x.nbytes + result.nbytes
    return {name: statistics.median(t) for name, t in times.items()}, moved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--filter", default="", help="cases whose name contains this")
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args(argv)
    import bench_memory
    import bench_transcendental

    def fits(case: Any) -> bool:
        if args.filter not in case.name or len(case.args) != 1:
            return False
        x = np.asarray(case.args[0])
        return x.dtype == np.float32 and x.size % 128 == 0

    chosen = [c for c in [*bench_transcendental.cases(), *bench_memory.cases()] if fits(c)]
    if not chosen:
        print(f"no single-input f32 case matches {args.filter!r}", file=sys.stderr)
        return 1
    for case in chosen:
        measured = measure(case, args.reps)
        if measured is None:
            continue
        medians, moved = measured
        reference = medians["XLA (the case)"]
        print(f"{case.name}: {moved / 2**20:.0f} MiB read and written")
        for name, seconds in medians.items():
            print(f"  {name:22s} {seconds * 1e3:8.3f} ms  {moved / seconds / 1e9:6.1f} GB/s  /XLA {seconds / reference:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
