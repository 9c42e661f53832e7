"""Measure the simplifier against a FileCheck test file of StableHLO's
simplification or folding passes (e.g. StableHLO's
`stablehlo/tests/transforms/stablehlo_aggressive_simplification.mlir`).

The file is read where it lies (it is never copied into the project). It is split
into its test functions (one per `CHECK-LABEL`, with the chunk's other functions
that precede it); each is run through `xla-opt -p <pipeline> -t stablehlo` in this
process and judged by FileCheck against its own CHECK lines. A test whose input
the project cannot read (an op, type or attribute it lacks) counts as
`unreadable` (and as not achieved).

    python benchmarks/measure_simplification.py FILE [FILE ...] [-p xla-simplify] [-v]

With `--count-ops`, the files are programs instead (e.g. examples/*.mlir,
examples/jax_exports/*.mlir): it prints how many `xla`/`chlo` ops each has before
and after the pipeline.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
LABEL = re.compile(r"^\s*//\s*CHECK-LABEL:\s*(?:func(?:\.func)?\s+)?@?([\w.$-]+)", re.MULTILINE)


@dataclass
class Case:
    name: str
    text: str


@dataclass
class Outcome:
    case: Case
    status: str  # "pass", "fail", "unreadable"
    detail: str


def split_cases(text: str) -> list[Case]:
    """One case per CHECK-LABEL: the label's lines up to the next label in its chunk,
    plus the chunk's lines before its first label (shared definitions)."""
    cases: list[Case] = []
    for chunk in SPLIT.split(text):
        lines = chunk.splitlines()
        starts = [i for i, line in enumerate(lines) if LABEL.match(line)]
        if not starts:
            continue
        prefix = [ln for ln in lines[: starts[0]] if not ln.lstrip().startswith("// RUN")]
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            body = lines[start:end]
            match = LABEL.match(lines[start])
            assert match is not None
            cases.append(Case(match.group(1), "\n".join(prefix + body) + "\n"))
    return cases


def run_xla_opt(path: str, pipeline: str) -> tuple[int, str, str]:
    """`xla-opt path -p pipeline -t stablehlo`, in this process."""
    from xla_tools.xla_opt import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([path, "-p", pipeline, "-t", "stablehlo"])
    return code, out.getvalue(), err.getvalue()


def judge(case: Case, pipeline: str, workdir: Path) -> Outcome:
    source = workdir / "case.mlir"
    source.write_text(case.text)
    code, out, err = run_xla_opt(str(source), pipeline)
    if code != 0:
        reason = err.strip().splitlines()[0] if err.strip() else f"exit {code}"
        return Outcome(case, "unreadable", reason)
    check = subprocess.run(
        ["filecheck", str(source)], input=out, capture_output=True, text=True, check=False
    )
    if check.returncode == 0:
        return Outcome(case, "pass", "")
    message = (check.stderr or check.stdout).strip().splitlines()
    return Outcome(case, "fail", message[0] if message else "FileCheck failed")


OP_LINE = re.compile(r'(= |^\s*|")(xla|chlo)\.\w+')


def count_ops(path: str, pipeline: str | None) -> int | None:
    """The number of `xla`/`chlo` ops of the program at `path` after `pipeline`."""
    from xla_tools.xla_opt import main as xla_opt

    out, err = io.StringIO(), io.StringIO()
    args = [path] + (["-p", pipeline] if pipeline else [])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if xla_opt(args) != 0:
            return None
    return sum(1 for line in out.getvalue().splitlines() if OP_LINE.search(line))


def print_op_counts(files: list[str], pipeline: str) -> None:
    before_total = after_total = 0
    for file in files:
        before, after = count_ops(file, None), count_ops(file, pipeline)
        if before is None or after is None:
            print(f"{file}: unreadable")
            continue
        before_total += before
        after_total += after
        print(f"{file}: {before} -> {after} ops")
    if before_total:
        print(f"total: {before_total} -> {after_total} ops ({100 * (before_total - after_total) / before_total:.1f}% fewer)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", help="StableHLO FileCheck test files")
    parser.add_argument(
        "-p", "--pipeline", default="xla-simplify", help="the xla-opt pass pipeline"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list every case")
    parser.add_argument("--count-ops", action="store_true", help="count ops of programs instead")
    args = parser.parse_args(argv)
    if args.count_ops:
        print_op_counts(args.files, args.pipeline)
        return 0
    totals = {"pass": 0, "fail": 0, "unreadable": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for file in args.files:
            cases = split_cases(Path(file).read_text())
            outcomes = [judge(case, args.pipeline, Path(tmp)) for case in cases]
            counts = {k: sum(o.status == k for o in outcomes) for k in totals}
            for key in totals:
                totals[key] += counts[key]
            readable = counts["pass"] + counts["fail"]
            print(
                f"{Path(file).name}: {counts['pass']}/{len(cases)} achieved "
                f"({counts['pass']}/{readable} of those the project reads; "
                f"{counts['unreadable']} unreadable)"
            )
            for o in outcomes:
                if o.status != "pass" or args.verbose:
                    print(f"  {o.status:10} {o.case.name}: {o.detail[:150]}")
    total = sum(totals.values())
    readable = totals["pass"] + totals["fail"]
    print(
        f"total: {totals['pass']}/{total} achieved = {100 * totals['pass'] / max(total, 1):.1f}%; "
        f"{totals['pass']}/{readable} of readable = {100 * totals['pass'] / max(readable, 1):.1f}%"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
