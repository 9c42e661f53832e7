"""Running test files of the StableHLO interpreter suite through the compiler.

A test file holds chunks separated by `// -----`; each chunk is a module whose
entry function (`@main`, else the only function) computes values and states
with `check.*` ops what they must be. A chunk passes when it parses, verifies,
compiles through `lower-to-llvm` (after `xla-inline-run-parallel` turns the
harness's one-program `interpreter.run_parallel` into a call; a grid of several
programs runs on threads, one device each, through the collective runtime), runs, and every
check holds on the values the native code computed (`xla-expose-checks` returns the checked values; the
expectations are evaluated here, on the results, never folded at compile time).

Chunks run in a worker process, one after another: a chunk that crashes the
process (a native fault) or runs past the time limit fails on its own line, the
worker is replaced, and the remaining chunks go on. Each outcome is one line:

    PASS add.mlir:3 @add_op_test_si8
    FAIL sort.mlir:1 @sort_issue_2440: check: expect_eq_const at sort.mlir:12:3: ...

with a stage saying where it failed (`parse`, `verify`, `lower`, `run`,
`check`, `timeout`, `crash`).
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.connection
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Self

import numpy as np
from xdsl.context import Context

from xla_dialect.context import split_input

DEFAULT_TIMEOUT = 60.0
"""Seconds a chunk may take to compile and run before it fails as `timeout`."""

STAGES = ("parse", "verify", "lower", "run", "check", "timeout", "crash")


@dataclass(frozen=True)
class ChunkOutcome:
    """What became of one chunk."""

    file: str
    index: int
    function: str
    stage: str  # "pass" or one of STAGES
    message: str = ""

    @property
    def passed(self) -> bool:
        return self.stage == "pass"

    @property
    def key(self) -> str:
        return f"{self.file}:{self.index}"

    def line(self) -> str:
        where = f"{self.key} @{self.function}" if self.function else self.key
        if self.passed:
            return f"PASS {where}"
        return f"FAIL {where}: {self.stage}: {self.message}"


def has_function(chunk: str) -> bool:
    return re.search(r"\bfunc\.func\b", chunk) is not None


def guess_entry(chunk: str) -> str:
    """The entry's name read from the text (for lines about chunks that never parsed)."""
    names = re.findall(r"\bfunc\.func\s+(?:public\s+|private\s+)?@([\w$.-]+)", chunk)
    return "main" if "main" in names else (names[0] if len(names) == 1 else "")


# ---------------------------------------------------------------------------
# Evaluating expectations
# ---------------------------------------------------------------------------


def _expected_array(value: object, actual: np.ndarray) -> np.ndarray:
    """The check's constant as an array comparable with `actual` (widened like it)."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from xla_dialect.literals import to_numpy

    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise TypeError(f"unsupported expected value {value}")
    try:
        array = to_numpy(value)
    except ValueError:
        # Element types NumPy lacks (sub-byte integers): the values themselves.
        array = np.array(list(value.get_values()), dtype=actual.dtype)  # pyright: ignore[reportUnknownArgumentType]
    shape = actual.shape
    if array.size == 1 and int(np.prod(shape)) != 1:
        array = np.full(shape, array.reshape(()), dtype=array.dtype)
    return array.reshape(shape)


def _fmt(array: np.ndarray) -> str:
    with np.printoptions(threshold=16, edgeitems=3, precision=8):
        text = np.array2string(array, separator=", ")
    return " ".join(text.split())


def _as_float_pair(array: np.ndarray) -> np.ndarray:
    """A float64 array; complex values as trailing (real, imag) pairs."""
    if array.dtype.kind == "c":
        return np.stack([array.real.astype(np.float64), array.imag.astype(np.float64)], axis=-1)
    return array.astype(np.float64)


def _equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind in "fc" or a.dtype.name == "bfloat16":
        fa, fb = _as_float_pair(a), _as_float_pair(b)
        same = (fa == fb) | (np.isnan(fa) & np.isnan(fb))
        return same.all(axis=-1) if a.dtype.kind == "c" else same
    return a == b


def _almost_equal(a: np.ndarray, b: np.ndarray, tolerance: float) -> np.ndarray:
    fa, fb = _as_float_pair(a), _as_float_pair(b)
    with np.errstate(invalid="ignore"):
        close = np.abs(fa - fb) <= tolerance
    both_nan = np.isnan(fa) & np.isnan(fb)
    infinite = np.isinf(fa) | np.isinf(fb)
    ok = np.where(infinite, fa == fb, close) | both_nan
    return ok.all(axis=-1) if a.dtype.kind == "c" else ok


_SIGNED_BITS = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def _ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Units in the last place between floats of one type, as StableHLO's interpreter
    counts them: the distance of the two bit patterns on the ordered number line
    (+0 and -0 are one point, the largest finite float and infinity are one apart);
    NaN and NaN are 0 apart, NaN and a number the largest distance. Complex values:
    one distance per component, in a trailing axis of 2."""
    if a.dtype.kind == "c":
        return np.stack([_ulp_distance(a.real, b.real), _ulp_distance(a.imag, b.imag)], axis=-1)
    bits = _SIGNED_BITS[a.dtype.itemsize]

    def ordered(x: np.ndarray) -> np.ndarray:
        i = np.ascontiguousarray(x).view(bits).astype(np.int64)
        magnitude = i & ((np.int64(1) << (8 * a.dtype.itemsize - 1)) - 1)
        return np.where(i < 0, -magnitude, magnitude)  # -0.0 and +0.0 both 0

    distance = np.abs(ordered(a) - ordered(b))
    nan_a, nan_b = np.isnan(a.astype(np.float64)), np.isnan(b.astype(np.float64))
    distance = np.where(nan_a & nan_b, 0, distance)
    return np.where(nan_a ^ nan_b, np.iinfo(np.int64).max, distance)


def evaluate_check(check: object, results: Sequence[np.ndarray]) -> str | None:
    """None if the expectation holds on `results`, else what went wrong."""
    from xdsl.dialects.builtin import FloatAttr, IntegerAttr

    from passes.expose_checks import ExposedCheck
    from xla_dialect.check import DEFAULT_MAX_ULP_DIFFERENCE, DEFAULT_TOLERANCE

    assert isinstance(check, ExposedCheck)
    values = [results[i] for i in check.results]
    kind = check.short_kind
    props = check.properties
    if kind in ("expect_eq_const", "expect_almost_eq_const"):
        actual, expected = values[0], _expected_array(props["value"], values[0])
    elif kind == "expect_serialized_eq":
        return "interpreter.probe values are not recorded by compiled programs"
    else:
        actual, expected = values[0], values[1]
    tolerance_attr = props.get("tolerance")
    tolerance = float(tolerance_attr.value.data) if isinstance(tolerance_attr, FloatAttr) else DEFAULT_TOLERANCE
    if kind in ("expect_eq", "expect_eq_const"):
        ok = _equal(actual, expected)
        rule = "equal"
    elif kind in ("expect_almost_eq", "expect_almost_eq_const"):
        ok = _almost_equal(actual, expected, tolerance)
        rule = f"within {tolerance:g}"
    elif kind == "expect_close":
        low = props.get("min_ulp_difference")
        high = props.get("max_ulp_difference")
        lo = int(low.value.data) if isinstance(low, IntegerAttr) else 0
        hi = int(high.value.data) if isinstance(high, IntegerAttr) else DEFAULT_MAX_ULP_DIFFERENCE
        distance = _ulp_distance(actual, expected)
        ok = (distance >= lo) & (distance <= hi)
        if actual.dtype.kind == "c":  # each component within the bounds
            ok = ok.all(axis=-1)
        rule = f"{lo} to {hi} ULPs apart" + (" in each component" if actual.dtype.kind == "c" else "")
    else:
        return f"unknown check {check.kind}"
    ok = np.asarray(ok)
    if bool(ok.all()):
        return None
    bad = np.argwhere(~ok)
    first = tuple(int(i) for i in bad[0]) if bad.size else ()
    return (
        f"{kind} at {check.location}: {bad.shape[0] if ok.ndim else 1} element(s) not {rule}"
        f" (first at index {list(first)}: got {actual[first]!r}, expected {expected[first]!r});"
        f" got {_fmt(actual)}, expected {_fmt(expected)}"
    )


# ---------------------------------------------------------------------------
# Running one chunk (in the current process)
# ---------------------------------------------------------------------------


def _entry_name(module: object) -> str | None:
    from xdsl.dialects import func

    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]  # pyright: ignore
    names = [f.sym_name.data for f in functions]
    if "main" in names:
        return "main"
    if len(functions) == 1:
        return names[0]
    return None


@functools.cache
def _context() -> Context:
    """One context per process: its dialects load once, not once per chunk."""
    from xla_dialect.context import make_context

    return make_context()


def run_chunk(chunk: str, offset: int, file: str, index: int) -> ChunkOutcome:
    """Parse, verify, compile and run one chunk; evaluate its checks."""
    from xdsl.dialects import func
    from xdsl.utils.exceptions import DiagnosticException, ParseError

    from passes.expose_checks import expose_checks
    from passes.inline_run_parallel import inline_run_parallel
    from xla_dialect.context import (
        LocatingParser,
        parse_error_diagnostic,
        verify_all,
    )
    from xla_dialect.interpreter import RunParallelOp
    from xla_tools.compiler import CompileError, compile

    name = guess_entry(chunk)
    parser = LocatingParser(_context(), chunk, file)
    parser.line_offset = offset
    try:
        module = parser.parse_module()
    except ParseError as err:
        d = parse_error_diagnostic(err, offset)
        return ChunkOutcome(file, index, name, "parse", f"{d.file}:{d.line}:{d.column}: {d.message}")
    entry = _entry_name(module)
    if entry is None:
        return ChunkOutcome(file, index, name, "parse", "no @main and more than one function")
    name = entry
    diagnostics = verify_all(module, "\n" * offset + chunk)
    if diagnostics:
        d = diagnostics[0]
        return ChunkOutcome(file, index, name, "verify", f"{d.file}:{d.line}:{d.column}: {d.message}")
    function = next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == entry)
    try:
        checks = expose_checks(function)
        for op in list(module.walk()):
            if isinstance(op, RunParallelOp):
                inline_run_parallel(op)
        executable = compile(module, entry, filename=file)
    except (CompileError, DiagnosticException) as err:
        return ChunkOutcome(file, index, name, "lower", str(err).splitlines()[0])
    except Exception as err:  # noqa: BLE001 - a compiler bug fails this chunk, named as such
        return ChunkOutcome(file, index, name, "lower", f"internal error: {type(err).__name__}: {err}")
    try:
        if executable.input_leaf_count:
            return ChunkOutcome(file, index, name, "run", f"@{entry} takes arguments; test entries take none")
        results = executable.run_leaves([])
    except Exception as err:  # noqa: BLE001 - a runtime error of the program is this chunk's failure
        return ChunkOutcome(file, index, name, "run", f"{type(err).__name__}: {err}")
    try:
        failures = [message for check in checks if (message := evaluate_check(check, results)) is not None]
    except (TypeError, ValueError) as err:
        return ChunkOutcome(file, index, name, "check", f"cannot evaluate the checks: {err}")
    if failures:
        return ChunkOutcome(file, index, name, "check", failures[0] + (f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""))
    return ChunkOutcome(file, index, name, "pass")


def _run_chunk_safely(chunk: str, offset: int, file: str, index: int) -> ChunkOutcome:
    try:
        return run_chunk(chunk, offset, file, index)
    except Exception as err:  # noqa: BLE001 - an internal error fails this chunk only
        return ChunkOutcome(file, index, guess_entry(chunk), "crash", f"internal error: {type(err).__name__}: {err}")


# ---------------------------------------------------------------------------
# Isolation: a worker process per run, replaced when a chunk kills or hangs it
# ---------------------------------------------------------------------------


def _worker(conn: multiprocessing.connection.Connection) -> None:
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        conn.send(_run_chunk_safely(*task))


class IsolatedRunner:
    """Runs chunks in a child process with a time limit per chunk."""

    def __init__(
        self,
        timeout: float = DEFAULT_TIMEOUT,
        worker: Callable[[multiprocessing.connection.Connection], None] | None = None,
    ):
        self.timeout = timeout
        self._worker = worker or _worker  # the child's loop (tests pass one that misbehaves)
        self._context = multiprocessing.get_context("spawn")
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None

    def _start(self) -> multiprocessing.connection.Connection:
        if self._conn is None:
            parent, child = self._context.Pipe()
            process = self._context.Process(target=self._worker, args=(child,), daemon=True)
            process.start()
            child.close()
            self._process, self._conn = process, parent
        return self._conn

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.send(None)
            except OSError:
                pass
            if self._process is not None:
                self._process.join(timeout=5)
        self._stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, chunk: str, offset: int, file: str, index: int) -> ChunkOutcome:
        conn = self._start()
        conn.send((chunk, offset, file, index))
        entry = guess_entry(chunk)
        deadline = time.monotonic() + self.timeout
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._stop()
                    return ChunkOutcome(file, index, entry, "timeout", f"no result after {self.timeout:g} s")
                if conn.poll(min(remaining, 1.0)):
                    return conn.recv()
                if self._process is not None and not self._process.is_alive():
                    raise EOFError
        except (EOFError, OSError):
            code = self._process.exitcode if self._process is not None else None
            self._stop()
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            return ChunkOutcome(file, index, entry, "crash", f"the process running the chunk died ({how})")


def run_file(path: str, runner: IsolatedRunner | None = None, display_name: str | None = None) -> Iterator[ChunkOutcome]:
    """The outcome of every chunk of the file at `path` that holds a function."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = display_name or os.path.basename(path)
    own = runner is None
    runner = runner or IsolatedRunner()
    try:
        for index, (chunk, offset) in enumerate(split_input(text)):
            if has_function(chunk):
                yield runner.run(chunk, offset, name, index)
    finally:
        if own:
            runner.close()


def summary(outcomes: Sequence[ChunkOutcome]) -> str:
    passed = sum(o.passed for o in outcomes)
    return f"{passed} passed, {len(outcomes) - passed} failed"


__all__ = [
    "ChunkOutcome",
    "IsolatedRunner",
    "evaluate_check",
    "run_chunk",
    "run_file",
    "summary",
]


# ---------------------------------------------------------------------------
# The suite: scope, pass list and report
# ---------------------------------------------------------------------------

OUT_OF_SCOPE_PREFIXES: tuple[str, ...] = (
    # Not compiled programs' business: quantized types, dynamic shapes, the
    # interpreter's own probe/print ops, argument passing and composites.
    "quantized_ops",
    "dynamic_",
    "probe",
    "printing",
    "api_input_arguments",
    "composite",
)


def suite_files(root: str) -> list[str]:
    """The in-scope test files under `root`, as paths relative to it, sorted."""
    found: list[str] = []
    for directory, _, files in os.walk(root):
        for name in files:
            if name.endswith(".mlir") and not name.startswith(OUT_OF_SCOPE_PREFIXES):
                found.append(os.path.relpath(os.path.join(directory, name), root))
    return sorted(found)


def read_pass_list(path: str) -> set[str]:
    """The `file:index` keys listed in a pass-list file (comments start with #)."""
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def write_pass_list(path: str, keys: set[str]) -> None:
    def order(key: str) -> tuple[str, int]:
        file, _, index = key.rpartition(":")
        return file, int(index)

    with open(path, "w", encoding="utf-8") as f:
        f.write("# Chunks of ../shared/conformance/stablehlo-interpret that must pass (file:chunk).\n")
        f.write("# Written by `python -m xla_tools.conformance --update`; the list only grows.\n")
        f.writelines(key + "\n" for key in sorted(keys, key=order))


TABLE_BEGIN = "<!-- conformance-table:begin (generated by python -m xla_tools.conformance --update) -->"
TABLE_END = "<!-- conformance-table:end -->"


def report_table(outcomes: Sequence[ChunkOutcome]) -> str:
    """A Markdown table: per file, chunks passed / total and the failures by stage."""
    by_file: dict[str, list[ChunkOutcome]] = {}
    for outcome in outcomes:
        by_file.setdefault(outcome.file, []).append(outcome)
    passed = sum(o.passed for o in outcomes)
    lines = [
        f"{passed} of {len(outcomes)} in-scope chunks pass ({100 * passed / max(len(outcomes), 1):.1f}%).",
        "",
        "| file | passed | failing chunks (stage) |",
        "|---|---|---|",
    ]
    for file in sorted(by_file):
        items = by_file[file]
        ok = sum(o.passed for o in items)
        failing = ", ".join(f"{o.index} ({o.stage})" for o in items if not o.passed)
        lines.append(f"| {file} | {ok}/{len(items)} | {failing} |")
    return "\n".join(lines)


def _replace_table(readme: str, table: str) -> str:
    begin, end = readme.find(TABLE_BEGIN), readme.find(TABLE_END)
    if begin < 0 or end < begin:
        raise ValueError(f"README has no {TABLE_BEGIN} ... {TABLE_END} section")
    return readme[: begin + len(TABLE_BEGIN)] + "\n" + table + "\n" + readme[end:]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import sys

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(
        prog="python -m xla_tools.conformance",
        description="Run the StableHLO interpreter suite through the compiler; print PASS/FAIL per chunk.",
    )
    p.add_argument("--suite", default=os.path.join(here, "..", "shared", "conformance", "stablehlo-interpret"))
    p.add_argument("--pass-list", default=os.path.join(here, "tests", "conformance", "expected_passes.txt"))
    p.add_argument("--readme", default=os.path.join(here, "README.md"))
    p.add_argument("--update", action="store_true", help="add new passes to the pass list and rewrite the README table")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    args = p.parse_args(argv)
    if not os.path.isdir(args.suite):
        sys.stderr.write(f"conformance: no suite at {args.suite}\n")
        return 1
    expected = read_pass_list(args.pass_list)
    outcomes: list[ChunkOutcome] = []
    with IsolatedRunner(timeout=args.timeout) as runner:
        for file in suite_files(args.suite):
            for outcome in run_file(os.path.join(args.suite, file), runner, display_name=file):
                outcomes.append(outcome)
                print(outcome.line(), flush=True)
    print(summary(outcomes))
    regressed = sorted(o.key for o in outcomes if not o.passed and o.key in expected)
    if regressed:
        print(f"{len(regressed)} chunk(s) of the pass list fail: {', '.join(regressed)}")
    if args.update:
        if regressed:
            print("not updating: the pass list only grows")
            return 1
        write_pass_list(args.pass_list, expected | {o.key for o in outcomes if o.passed})
        with open(args.readme, encoding="utf-8") as f:
            readme = f.read()
        with open(args.readme, "w", encoding="utf-8") as f:
            f.write(_replace_table(readme, report_table(outcomes)))
    return 1 if regressed else 0


if __name__ == "__main__":
    raise SystemExit(main())
