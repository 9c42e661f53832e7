"""Shared machinery of the suites that time the project beside XLA-CPU (`jax.jit`) in one run.

A `Case` is a name, a JAX function, example inputs (NumPy arrays, possibly nested in
tuples/lists/dicts, made with a fixed seed) and a FLOP or byte count. For each case:

1. the function is exported as JAX hands it to XLA: `jax.jit(f).lower(*args).as_text()`;
2. that StableHLO text is compiled by the project's `compile()` (timed: "compile s");
3. our results are checked against JAX's (`allclose`, tolerance by result dtype, unless the
   case sets one); a mismatch is printed in the case's row and makes the run fail;
4. both are timed interleaved: after a warm-up, each repetition runs ours and JAX's once
   (alternating which goes first), for `--reps` repetitions or until `--budget` seconds
   have passed; the medians are reported. Our outputs are preallocated and reused
   (`f(*args, out=[...])`); JAX's inputs are device arrays placed beforehand and each
   call ends with `block_until_ready()`.

The table gives ours ms, jax ms, ours/jax (> 1: we are slower), the achieved GFLOP/s
(contractions) or GB/s (memory-bound: bytes read + written, minimal) of both, the compile
time, and the geometric mean of ours/jax over the cases that ran.

One core (the figures of the contraction and memory-bound issues): pin the process and
turn off XLA's Eigen thread pool,

    taskset -c 0 env XLA_FLAGS=--xla_cpu_multi_thread_eigen=false python benchmarks/bench_contractions.py

All cores: run without `taskset` and `XLA_FLAGS` (`--threads N` is passed to `compile()`
when it takes a `threads` argument). The machine's load shows in the medians: run on an
idle machine for figures to quote.

Other options: `--filter SUBSTR` (cases whose name contains it), `--markdown` (also print a
README-ready table), `--json FILE` (rows and the run's settings). Exit status 1 if any case
failed to export, compile or match.

A suite is a module that defines `cases() -> list[Case]` (importing JAX inside) and calls
`sys.exit(main(cases, __doc__))`.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import math
import os
import platform
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CompileFn = Callable[..., Any]


def load_compile() -> tuple[CompileFn, str]:
    """The project's `compile()` and where it came from (it is moving to `xla_tools`)."""
    try:
        from xla_tools import compile as compile_fn  # pyright: ignore[reportAttributeAccessIssue]

        return compile_fn, "xla_tools.compile"
    except ImportError:
        from lowering import compile as compile_fn

        return compile_fn, "lowering.compile"


@dataclass
class Case:
    """One program to time. `args` are NumPy arrays (pytrees allowed); exactly one of
    `flops` (contractions: GFLOP/s) and `bytes` (memory-bound: GB/s) is normally given.
    `rtol`/`atol` override the tolerance the result dtypes would get (`atol` is absolute;
    by default it is `rtol` times the largest magnitude of JAX's result)."""

    name: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    flops: float | None = None
    bytes: float | None = None
    rtol: float | None = None
    atol: float | None = None


@dataclass
class Row:
    """What a case gave; `error` is set (and times are None) when it failed."""

    name: str
    ours_ms: float | None = None
    jax_ms: float | None = None
    ratio: float | None = None
    ours_rate: float | None = None
    jax_rate: float | None = None
    unit: str = ""
    compile_s: float | None = None
    reps: int = 0
    max_error: float | None = None
    error: str | None = None
    ours_all_ms: list[float] = field(default_factory=list)
    jax_all_ms: list[float] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.error is not None


# --------------------------------------------------------------------------------------------
# pieces


def _jax() -> Any:
    import jax

    jax.config.update("jax_platforms", "cpu")
    return jax


def _leaves(tree: Any) -> list[Any]:
    return list(_jax().tree_util.tree_leaves(tree))


def _flatten_ours(result: Any) -> list[np.ndarray]:
    """The executable's result (an array, a tuple, nested tuples) as a flat list."""
    if isinstance(result, (tuple, list)):
        return [leaf for r in result for leaf in _flatten_ours(r)]
    return [result]


def _needs_x64(args: Any) -> bool:
    return any(np.asarray(a).dtype.itemsize == 8 and np.asarray(a).dtype.kind in "fiuc" for a in _leaves(args))


def jax_context(case: Case) -> Any:
    """The context to export and run `case` in: JAX's 64-bit mode when it has f64/c128
    arguments (JAX would otherwise export them as f32)."""
    jax = _jax()
    return jax.enable_x64(True) if _needs_x64(case.args) else _nullcontext()


def export(case: Case) -> str:
    """The StableHLO text JAX hands XLA for `case` (unused arguments kept, so that the
    exported parameters are exactly the leaves of `case.args`)."""
    jax = _jax()
    return jax.jit(case.fn, keep_unused=True).lower(*case.args).as_text()


def default_tolerance(dtype: np.dtype[Any]) -> float:
    """Relative tolerance for results of `dtype`: summation order differs between the two
    compilers (the spec leaves it open), so floats are compared to a few ulps of the
    accumulated magnitude; integers and booleans exactly."""
    if dtype.kind in "biu":
        return 0.0
    name = dtype.name
    if name == "float64" or name == "complex128":
        return 1e-9
    if name in ("float32", "complex64"):
        return 1e-4
    return 2e-2  # bf16, f16, f8: a couple of units in their last place


def check(ours: Sequence[Any], ref: Sequence[Any], case: Case) -> tuple[float, str | None]:
    """Compare our result leaves with JAX's. Returns (largest error relative to the
    allowed one, a message if any leaf mismatches)."""
    if len(ours) != len(ref):
        return math.inf, f"MISMATCH: {len(ours)} results, jax gives {len(ref)}"
    worst = 0.0
    for k, (o, r) in enumerate(zip(ours, ref)):
        o_arr, r_arr = np.asarray(o), np.asarray(r)
        if o_arr.shape != r_arr.shape:
            return math.inf, f"MISMATCH: result {k} has shape {o_arr.shape}, jax gives {r_arr.shape}"
        if o_arr.dtype != r_arr.dtype:
            return math.inf, f"MISMATCH: result {k} is {o_arr.dtype}, jax gives {r_arr.dtype}"
        kind = r_arr.dtype.kind
        if kind == "c":
            o64, r64 = o_arr.astype(np.complex128), r_arr.astype(np.complex128)
        elif kind in "biu":
            o64, r64 = o_arr.astype(np.int64), r_arr.astype(np.int64)
        else:
            o64, r64 = o_arr.astype(np.float64), r_arr.astype(np.float64)
        rtol = case.rtol if case.rtol is not None else default_tolerance(r_arr.dtype)
        floating = kind in "fcV"  # V: ml_dtypes' bf16, f8
        finite = np.isfinite(r64) if floating else np.ones(r64.shape, bool)
        scale = float(np.max(np.abs(r64[finite]))) if finite.any() else 0.0
        atol = case.atol if case.atol is not None else rtol * scale
        err = np.abs(o64 - r64)
        allowed = atol + rtol * np.abs(r64)
        same_nan = np.isnan(o64) & np.isnan(r64) if floating else None
        bad = ~(err <= allowed)
        if same_nan is not None:
            bad &= ~same_nan
        if np.any(bad):
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            return math.inf, (
                f"MISMATCH: result {k} ({r_arr.dtype}{list(r_arr.shape)}): {int(bad.sum())} of {bad.size} "
                f"elements off, first at {idx}: ours {o64[idx]!r}, jax {r64[idx]!r} "
                f"(rtol {rtol:g}, atol {atol:.3g})"
            )
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(allowed > 0, err / np.where(allowed > 0, allowed, 1), 0.0)
        if ratio.size:
            worst = max(worst, float(np.nanmax(ratio)))
    return worst, None


CLOCK: Callable[[], float] = time.perf_counter
"""What `time_interleaved` reads: wall time, or with `--cpu-time` the process's CPU
time (`time.process_time`), which other work sharing the core does not inflate.
CPU time is only a call's duration when the call runs on one core."""


def time_interleaved(
    ours: Callable[[], Any], theirs: Callable[[], Any], reps: int, budget: float, warmup: int = 2
) -> tuple[list[float], list[float]]:
    """Per-call seconds of `ours` and `theirs`, called alternately (which one goes first
    alternates too) after `warmup` calls each: `reps` repetitions, fewer (at least 3)
    if `budget` seconds run out."""
    for _ in range(warmup):
        ours()
        theirs()
    a: list[float] = []
    b: list[float] = []
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for i in range(reps):
            order = ((ours, a), (theirs, b)) if i % 2 == 0 else ((theirs, b), (ours, a))
            for fn, times in order:
                t0 = CLOCK()
                fn()
                times.append(CLOCK() - t0)
            if i >= 2 and time.perf_counter() - start > budget:
                break
    finally:
        if was_enabled:
            gc.enable()
    return a, b


class ThreadsOption:
    """How `--threads N` reaches `compile()`: as `threads=N` when compile takes it."""

    def __init__(self, compile_fn: CompileFn, threads: int | None):
        self.threads = threads
        self.note = ""
        self.kwargs: dict[str, Any] = {}
        self._maybe = False
        if threads is None:
            return
        try:
            params = inspect.signature(compile_fn).parameters
        except (TypeError, ValueError):
            params = {}  # pyright: ignore[reportAssignmentType]
        if "threads" in params:
            self.kwargs = {"threads": threads}
            self.note = f"compile(threads={threads})"
        elif any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            # compile forwards **kwargs (lowering.compile does): try, fall back on TypeError.
            self.kwargs = {"threads": threads}
            self._maybe = True
            self.note = f"compile(threads={threads}) tried through **kwargs"
        else:
            self.note = f"compile() takes no `threads`: --threads {threads} ignored"

    def compile(self, compile_fn: CompileFn, text: str) -> Any:
        try:
            return compile_fn(text, **self.kwargs)
        except TypeError as err:
            if not (self._maybe and "threads" in str(err)):
                raise
            self.kwargs, self._maybe = {}, False
            self.note = f"compile() takes no `threads`: --threads {self.threads} ignored"
            return compile_fn(text)


def _short(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}".strip()
    lines = [line for line in text.splitlines() if line.strip()]
    first = " | ".join(lines[:3])
    return first if len(first) <= 400 else first[:397] + "..."


def run_case(
    case: Case,
    compile_fn: CompileFn,
    *,
    reps: int = 100,
    budget: float = 5.0,
    threads: ThreadsOption | None = None,
    verbose: bool = False,
) -> Row:
    """Export, compile, check and time one case; never raises for a failing case."""
    jax = _jax()
    row = Row(case.name, unit="GFLOP/s" if case.flops is not None else "GB/s" if case.bytes is not None else "")
    with jax_context(case):
        stage = "export"
        try:
            text = export(case)
            stage = "compile"
            t0 = time.perf_counter()
            executable = threads.compile(compile_fn, text) if threads else compile_fn(text)
            row.compile_s = time.perf_counter() - t0
            stage = "jax"
            jitted = jax.jit(case.fn)
            device_args = jax.tree_util.tree_map(jax.device_put, case.args)
            ref = [np.asarray(x) for x in _leaves(jax.block_until_ready(jitted(*device_args)))]
            stage = "run"
            inputs = [np.asarray(x) for x in _leaves(case.args)]
            ours = _flatten_ours(executable(*inputs))
            stage = "check"
            worst, mismatch = check(ours, ref, case)
            if mismatch is not None:
                row.error = mismatch
                return row
            row.max_error = worst
            stage = "time"
            out = [np.empty_like(np.asarray(o)) for o in ours]
            a, b = time_interleaved(
                lambda: executable(*inputs, out=out),
                lambda: jax.block_until_ready(jitted(*device_args)),
                reps,
                budget,
            )
        except Exception as err:  # noqa: BLE001 - a failing case is a row, not the end of the run
            row.error = f"{stage}: {_short(err)}"
            if verbose:
                traceback.print_exc()
            return row
    row.reps = len(a)
    row.ours_all_ms = [t * 1e3 for t in a]
    row.jax_all_ms = [t * 1e3 for t in b]
    ours_s, jax_s = statistics.median(a), statistics.median(b)
    row.ours_ms, row.jax_ms, row.ratio = ours_s * 1e3, jax_s * 1e3, ours_s / jax_s
    work = case.flops if case.flops is not None else case.bytes
    if work is not None:
        row.ours_rate, row.jax_rate = work / ours_s / 1e9, work / jax_s / 1e9
    return row


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# --------------------------------------------------------------------------------------------
# tables


def geomean(values: Sequence[float]) -> float | None:
    values = [v for v in values if v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _rate_header(rows: Sequence[Row]) -> str:
    units = {r.unit for r in rows if r.unit}
    return units.pop() if len(units) == 1 else "rate"


def _fmt(x: float | None, spec: str) -> str:
    return "" if x is None else format(x, spec)


def _rate(r: Row, x: float | None, header: str) -> str:
    if x is None:
        return ""
    return f"{x:.1f}" if header != "rate" else f"{x:.1f} {r.unit}"


WIDTH = 34


def header_line(rows: Sequence[Row]) -> str:
    h = _rate_header(rows)
    return (
        f"{'case':{WIDTH}} {'ours ms':>9} {'jax ms':>9} {'ours/jax':>8} "
        f"{'ours ' + h:>13} {'jax ' + h:>13} {'compile s':>9}"
    )


def text_row(r: Row, header: str) -> str:
    if r.failed:
        return f"{r.name:{WIDTH}} FAILED {r.error}"
    return (
        f"{r.name:{WIDTH}} {_fmt(r.ours_ms, '9.3f')} {_fmt(r.jax_ms, '9.3f')} {_fmt(r.ratio, '8.2f')} "
        f"{_rate(r, r.ours_rate, header):>13} {_rate(r, r.jax_rate, header):>13} {_fmt(r.compile_s, '9.2f')}"
    )


def markdown_table(rows: Sequence[Row]) -> str:
    h = _rate_header(rows)
    lines = [
        f"| case | ours (ms) | XLA (ms) | ours/XLA | ours {h} | XLA {h} | compile (s) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.failed:
            error = (r.error or "").replace("|", "\\|")
            lines.append(f"| {r.name} | failed: {error} | | | | | |")
            continue
        lines.append(
            f"| {r.name} | {_fmt(r.ours_ms, '.3f')} | {_fmt(r.jax_ms, '.3f')} | {_fmt(r.ratio, '.2f')} | "
            f"{_rate(r, r.ours_rate, h)} | {_rate(r, r.jax_rate, h)} | {_fmt(r.compile_s, '.2f')} |"
        )
    g = geomean([r.ratio for r in rows if r.ratio is not None])
    if g is not None:
        lines.append(f"| geometric mean | | | {g:.2f} | | | |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# the command line


def _settings(compile_origin: str, threads: ThreadsOption) -> dict[str, Any]:
    jax = _jax()
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 0
    return {
        "cpu": cpu,
        "cores_allowed": cores,
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "jax": jax.__version__,
        "python": platform.python_version(),
        "compile": compile_origin,
        "threads": threads.note or "default",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def parser(description: str | None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--filter", metavar="SUBSTR", help="run only the cases whose name contains SUBSTR")
    p.add_argument("--reps", type=int, default=100, help="timed repetitions per case (default 100)")
    p.add_argument(
        "--budget", type=float, default=5.0, help="seconds of timing per case before stopping early (default 5)"
    )
    p.add_argument("--threads", type=int, help="passed to compile() as threads=N when it takes it")
    p.add_argument("--markdown", action="store_true", help="also print a README-ready markdown table")
    p.add_argument("--json", metavar="FILE", help="write the rows and the run's settings to FILE")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("--verbose", action="store_true", help="print tracebacks of failing cases")
    p.add_argument(
        "--cpu-time", action="store_true",
        help="time calls by the process's CPU time, not wall time: one-core runs on a loaded machine",
    )
    return p


def run(
    cases: Sequence[Case],
    *,
    reps: int = 100,
    budget: float = 5.0,
    threads: ThreadsOption | int | None = None,
    compile_fn: CompileFn | None = None,
    verbose: bool = False,
    print_fn: Callable[[str], None] | None = None,
) -> list[Row]:
    """Run `cases` in order, printing each row as it is done (through `print_fn`)."""
    if compile_fn is None:
        compile_fn = load_compile()[0]
    option = threads if isinstance(threads, ThreadsOption) else ThreadsOption(compile_fn, threads)
    rows: list[Row] = []
    header = _rate_header([Row(c.name, unit="GFLOP/s" if c.flops is not None else "GB/s") for c in cases])
    for case in cases:
        row = run_case(case, compile_fn, reps=reps, budget=budget, threads=option, verbose=verbose)
        rows.append(row)
        if print_fn is not None:
            print_fn(text_row(row, header))
    return rows


def main(make_cases: Callable[[], Sequence[Case]], description: str | None, argv: Sequence[str] | None = None) -> int:
    args = parser(description).parse_args(argv)
    try:
        _jax()
    except ImportError:
        print("these benchmarks need JAX: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    cases = [c for c in make_cases() if not args.filter or args.filter in c.name]
    if args.list:
        for c in cases:
            print(c.name)
        return 0
    global CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    compile_fn, origin = load_compile()
    option = ThreadsOption(compile_fn, args.threads)
    settings = _settings(origin, option)
    print(
        f"# {settings['cpu']}; {settings['cores_allowed']} core(s) allowed; "
        f"XLA_FLAGS={settings['xla_flags'] or '(unset)'}; jax {settings['jax']}; {origin}; "
        f"threads: {settings['threads']}; median of up to {args.reps} interleaved repetitions"
        + ("; CPU time" if args.cpu_time else "")
    )
    print(header_line([Row(c.name, unit="GFLOP/s" if c.flops is not None else "GB/s") for c in cases]))
    rows = run(
        cases,
        reps=args.reps,
        budget=args.budget,
        threads=option,
        compile_fn=compile_fn,
        verbose=args.verbose,
        print_fn=lambda s: print(s, flush=True),
    )
    g = geomean([r.ratio for r in rows if r.ratio is not None])
    failed = [r for r in rows if r.failed]
    print(f"geometric mean of ours/jax over {sum(r.ratio is not None for r in rows)} case(s): {_fmt(g, '.2f') or 'n/a'}")
    if failed:
        print(f"{len(failed)} case(s) FAILED: {', '.join(r.name for r in failed)}", file=sys.stderr)
    if args.markdown:
        print()
        print(markdown_table(rows))
    if args.json:
        settings["threads"] = option.note or "default"
        doc = {"settings": settings, "geomean": g, "rows": [asdict(r) | {"failed": r.failed} for r in rows]}
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
    return 1 if failed else 0
