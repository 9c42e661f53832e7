"""Where a program's time goes, kernel by kernel: `perf` samples of the compiled code.

    python benchmarks/profile_kernels.py [--suite contractions|memory|transcendental] --filter NAME
                                         [--seconds 4] [--threads 1] [--top 15]
    python benchmarks/profile_kernels.py --file PROGRAM.mlir [--entry main] [...]

Compiles one benchmark case (or a StableHLO/xla file, run on random inputs of its
signature), writes a perf map of the JIT's functions (`/tmp/perf-PID.map`: each
function's address and extent, so that perf names MCJIT's code, which has no symbol
table perf can read), calls the program for `--seconds` under `perf record -e cpu-clock`
(a software clock: it works where the CPU's counters are not exposed, as in this
machine's VM) and prints, per function, its share of the samples, its time per call,
and for each kernel (`outline-loop-nests`' `<function>__kernel<N>`, its parallel body
`...__parallel0`) the buffers it takes, from the module as `merge-identical-functions`
leaves it: a kernel shared by several places in the program counts once, with their
time together. Needs `perf` (Debian's `linux-perf`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runtime.jit import JitModule
from xla_dialect.context import parse_module
from xla_tools import compile as compile_program
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

SYMBOL_PREFIX = "__xla_fn."
"""The prefix of the module's own functions' native symbols (`runtime.jit`)."""


def kernel_signatures(text: str) -> dict[str, str]:
    """Each function's buffers after `merge-identical-functions`, by name."""
    module = parse_module(text)
    run_passes(module, LOWER_TO_LLVM[: LOWER_TO_LLVM.index("merge-identical-functions") + 1])
    header = re.compile(r"^\s*func\.func (?:private )?@(\S+)\((.*?)\)(?: -> .*?)?(?: attributes .*)? \{$", re.MULTILINE)
    return {m.group(1): ", ".join(re.findall(r"memref<[^>]*>", m.group(2))) for m in header.finditer(str(module))}


def write_perf_map(jit: JitModule, path: Path) -> int:
    """A perf map of the JIT module's defined functions; their extents run to the next one."""
    names = re.findall(r'^define [^@]*@"?([^"(\s]+)"?\(', jit.optimized_ir, re.MULTILINE)
    starts = sorted({(jit.engine.get_function_address(n), n) for n in names} - {(0, n) for n in names})
    with path.open("w") as out:
        for (address, name), following in zip(starts, [*starts[1:], (starts[-1][0] + 4096, "")]):
            out.write(f"{address:x} {following[0] - address:x} {name}\n")
    return len(starts)


def case_program(suite: str, name: str) -> tuple[str, list[np.ndarray]]:
    import jax
    from harness import export

    cases = [c for c in importlib.import_module(f"bench_{suite}").cases() if name in c.name]
    if not cases:
        raise SystemExit(f"no case of bench_{suite} matches '{name}'")
    return export(cases[0]), [np.asarray(x) for x in jax.tree_util.tree_leaves(cases[0].args)]


def file_program(path: str, entry: str) -> tuple[str, list[np.ndarray]]:
    """The file's text and random leaves for its entry's parameters (integers 0 or 1)."""
    text = Path(path).read_text()
    f = compile_program(text, entry=entry)
    rng = np.random.default_rng(0)
    leaves = []
    for _, spec in f._named_input_leaves:  # pyright: ignore[reportAttributeAccessIssue]
        values = rng.standard_normal(spec.shape) if spec.dtype.kind in "fc" else rng.integers(0, 2, spec.shape)
        leaves.append(np.asarray(values).astype(spec.dtype))
    return text, leaves


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", default="contractions", choices=["contractions", "memory", "transcendental"])
    p.add_argument("--filter", default="", help="the first case whose name contains this")
    p.add_argument("--file", help="profile this program instead of a benchmark case")
    p.add_argument("--entry", default="main")
    p.add_argument("--seconds", type=float, default=4.0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--top", type=int, default=15)
    args = p.parse_args()
    if shutil.which("perf") is None:
        print("profile_kernels: needs `perf` (Debian's linux-perf)", file=sys.stderr)
        return 1
    # A module loaded from the disk cache has no optimized IR to name its functions by.
    os.environ["XLA_DIALECT_CACHE"] = "0"
    text, inputs = file_program(args.file, args.entry) if args.file else case_program(args.suite, args.filter)
    f = compile_program(text, entry=args.entry, threads=args.threads)
    jit: JitModule = f._jit  # pyright: ignore[reportAttributeAccessIssue]
    write_perf_map(jit, Path(f"/tmp/perf-{os.getpid()}.map"))
    signatures = kernel_signatures(text)
    f.run_leaves(inputs)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        record = subprocess.Popen(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999", "-p", str(os.getpid()), "-o", str(data)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)  # perf attaches
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            f.run_leaves(inputs)
            calls += 1
        elapsed = time.perf_counter() - start
        record.send_signal(signal.SIGINT)
        record.wait()
        report = subprocess.run(
            ["perf", "report", "-i", str(data), "--sort", "sym", "--stdio", "-q"],
            capture_output=True, text=True, check=False,
        ).stdout
    per_call = elapsed / calls
    print(f"# {calls} calls in {elapsed:.2f} s: {per_call * 1e3:.3f} ms per call (wall, {args.threads} thread(s))")
    print(f"{'share':>7} {'ms/call':>8}  function  [buffers]")
    shown = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m is None or shown >= args.top:
            continue
        share, symbol = float(m.group(1)), m.group(2)
        name = symbol.removeprefix(SYMBOL_PREFIX)
        buffers = signatures.get(re.sub(r"__parallel\d+$", "", name), "")
        print(f"{share:6.2f}% {share / 100 * per_call * 1e3:8.3f}  {name}  {buffers}")
        shown += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
