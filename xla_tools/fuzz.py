"""A mutation fuzzer: valid modules, mutated, through every stage; no stage may crash.

    python -m xla_tools.fuzz --seconds 3600 --seed 7          # a developer, for hours
    python -m xla_tools.fuzz --seconds 40 --seed 0 --no-run   # CI (tests/unit/test_fuzz.py)

The corpus is the repository's own programs: the chunks of `tests/lit/**/*.mlir`
(annotations and CHECK lines stripped) and `examples/*.mlir` that parse and
verify. Each mutant changes one to three things in one chunk's text (a number
becomes an edge value, a dimension or element type changes, a line is deleted,
duplicated or swapped, an SSA name is replaced by another, an operand is dropped,
the text is cut short) and goes through the stages a user runs: parse and verify
(`parse_module`, as `xla-opt`), `-p canonicalize` and a re-verification,
`-p lower-to-llvm`, and (unless `--no-run`) `compile()` and a call with zeroed
arguments, in a forked child so that a crash or a hang is seen, not suffered.

With the compile stage, 70% of the mutants are gentle (`mutate_gently`: an element
type or a dimension changed everywhere it is written, a literal changed), which
keeps more of them valid; `compile()` lowers in the child (the parent does not
lower the same module twice); the parent compiles one module before forking, so
that no child repeats the JIT's setup; and each child may add at most
`CHILD_MEMORY` of address space (a larger buffer meets a failed allocation, which
must come back as a `MemoryError`).

Clean outcomes are a located diagnostic (`XlaProgramError`, `CompileError`, a
pass's `DiagnosticException`/`VerifyException`), a `ValueError`/`MemoryError`/`HostIOError` (located: an empty infeed, a missing replica)
from the executable's checks, or success. Anything else (another exception, a
signal, a timeout, a pass whose output does not verify) is a finding, reported
with its stage, its exception and the mutant; `--out DIR` writes each distinct one
to a file. Each finding fixed becomes a regression test (lit or unit).

A timeout is no finding only when the child had compiled and was running the program
and `fuzz_loops.long_running_while` proves that a `while` of it does not end (for
ever, or not within 2^40 iterations) on zeroed arguments: the program runs as written
(XLA sets no iteration limit either). Those are counted apart; a timeout while
compiling, or in a program without such a proof, is a finding.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from xla_tools.fuzz_loops import long_running_while

ROOT = Path(__file__).resolve().parent.parent

EDGE_INTEGERS = [
    "0", "1", "-1", "2", "3", "7", "8", "-8", "127", "128", "-129", "255", "256", "65536",
    "2147483647", "-2147483648", "4294967296", "4611686018427387905", "9223372036854775807",
    "18446744073709551616", "99999999999999999999999",
]
EDGE_FLOATS = ["0.0", "-0.0", "1.0e40", "1.0e-45", "0x7F800001", "0x7FC00000", "0xFF800000", "0x1FFFF", "1.5"]
ELEMENT_TYPES = ["f32", "f64", "f16", "bf16", "i1", "i2", "ui2", "i4", "ui4", "i8", "ui8", "i32", "i64",
                 "ui64", "f8E4M3FN", "complex<f32>", "index"]
DIMENSIONS = ["0", "1", "2", "3", "5", "4611686018427387905", "1099511627776", "?"]

_NUMBER = re.compile(r"(?<![\w%#@.])-?\d+(?:\.\d+(?:e[-+]?\d+)?)?(?![\w.])")
_SSA = re.compile(r"%[\w.$-]+")
_DIMS = re.compile(r"(?<=[<x])\d+(?=x)")
_ELEMENT = re.compile(r"\b(?:f16|f32|f64|bf16|i1|i8|i16|i32|i64|ui8|ui32|ui64)\b")
_ANNOTATION = re.compile(r"//.*$", re.MULTILINE)


# ---------------------------------------------------------------------------
# Corpus
# ---------------------------------------------------------------------------


XLA_LEVEL = re.compile(r"\b(?:xla|stablehlo|chlo|check|interpreter)\.")


def corpus(root: Path = ROOT, every_level: bool = False) -> list[str]:
    """The valid chunks of the repository's lit tests and examples: the programs of
    the `xla` level (what users write), or with `every_level` also the lit inputs of
    the lower levels (linalg, memref, vector), which only the lowering's own passes see."""
    from xla_dialect.context import parse_module, split_input

    files = sorted((root / "tests" / "lit").rglob("*.mlir")) + sorted((root / "examples").glob("*.mlir"))
    chunks: list[str] = []
    for path in files:
        for chunk, _ in split_input(path.read_text()):
            text = _ANNOTATION.sub("", chunk).strip()
            if not text or "llvm." in text or len(text) > 6000:
                continue
            if not every_level and not XLA_LEVEL.search(text):
                continue
            if _valid(text, parse_module):
                chunks.append(text)
    return chunks


def _valid(text: str, parse: Callable[[str], object]) -> bool:
    """Whether `text` parses and verifies (a seed the tools cannot read is no seed)."""
    try:
        parse(text)
    except Exception:  # noqa: BLE001
        return False
    return True


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def _replace_match(rng: random.Random, text: str, pattern: re.Pattern[str], choices: list[str]) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(choices) + text[m.end():]


def _lines(rng: random.Random, text: str, how: str) -> str:
    lines = text.splitlines()
    if len(lines) < 3:
        return text
    i, j = rng.randrange(1, len(lines) - 1), rng.randrange(1, len(lines) - 1)
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _rename(rng: random.Random, text: str) -> str:
    names = sorted(set(_SSA.findall(text)))
    if len(names) < 2:
        return text
    matches = list(_SSA.finditer(text))
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(names) + text[m.end():]


def _drop_operand(rng: random.Random, text: str) -> str:
    matches = list(re.finditer(r"%[\w.$-]+,\s*", text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + text[m.end():]


_TYPE_FAMILIES = [["f16", "bf16", "f32", "f64"], ["i8", "i16", "i32", "i64"], ["ui8", "ui32", "ui64"]]
_DENSE_VALUES = re.compile(r"(?<=dense<)[^<>]*?(?=>)")
_SMALL_VALUES = ["0", "1", "-1", "2", "3", "-7", "100", "0.5", "-2.5", "1.0e-30", "0x7F800001", "0xFF800000", "127"]


def _retype_everywhere(rng: random.Random, text: str) -> str:
    """One element type becomes another of its family in every place it is written,
    so that the operands of an op keep agreeing (most such mutants stay valid)."""
    present = [t for family in _TYPE_FAMILIES for t in family if re.search(rf"\b{t}\b", text)]
    if not present:
        return text
    old = rng.choice(present)
    family = next(f for f in _TYPE_FAMILIES if old in f)
    return re.sub(rf"\b{old}\b", rng.choice([t for t in family if t != old]), text)


def _resize_everywhere(rng: random.Random, text: str) -> str:
    """One dimension size becomes another in every shape that has it."""
    sizes = sorted(set(_DIMS.findall(text)))
    if not sizes:
        return text
    old = rng.choice(sizes)
    new = rng.choice(["1", "2", "3", "4", "7", "16", "33"])
    return re.sub(rf"(?<=[<x]){old}(?=x)", new, text)


def _revalue(rng: random.Random, text: str) -> str:
    """A literal in a `dense<...>` becomes another small value (as often valid as not)."""
    matches = [m for m in _DENSE_VALUES.finditer(text) if m.group(0).strip()]
    if not matches:
        return text
    m = rng.choice(matches)
    body = m.group(0)
    numbers = list(_NUMBER.finditer(body))
    if numbers:
        n = rng.choice(numbers)
        body = body[: n.start()] + rng.choice(_SMALL_VALUES) + body[n.end():]
    return text[: m.start()] + body + text[m.end():]


def mutate_gently(rng: random.Random, text: str) -> str:
    """One or two changes that keep most modules valid (a type or a size changed in
    every place, a literal value changed), so that more mutants reach `compile()`."""
    for _ in range(rng.randint(1, 2)):
        text = (_retype_everywhere, _resize_everywhere, _revalue)[rng.randrange(3)](rng, text)
    return text


def mutate(rng: random.Random, text: str) -> str:
    """One to three random changes of `text`."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(11)
        if kind == 0:
            text = _replace_match(rng, text, _NUMBER, EDGE_INTEGERS)
        elif kind == 1:
            text = _replace_match(rng, text, _NUMBER, EDGE_FLOATS)
        elif kind == 2:
            text = _replace_match(rng, text, _DIMS, DIMENSIONS)
        elif kind == 3:
            text = _replace_match(rng, text, _ELEMENT, ELEMENT_TYPES)
        elif kind in (4, 5, 6):
            text = _lines(rng, text, ("delete", "duplicate", "swap")[kind - 4])
        elif kind == 7:
            text = _rename(rng, text)
        elif kind == 8:
            text = _drop_operand(rng, text)
        elif kind == 9:
            text = text[: rng.randrange(len(text) + 1)]
        else:
            position = rng.randrange(len(text) + 1)
            text = text[:position] + rng.choice(["(", ")", "{", "}", "<", ">", ",", ":", "[", "]", "\xff"]) + text[position:]
    return text


# ---------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------


@dataclass
class Finding:
    stage: str
    kind: str
    detail: str
    mutant: str

    @property
    def signature(self) -> str:
        return f"{self.stage}: {self.kind}: {self.detail[:120]}"


@dataclass
class Report:
    mutants: int = 0
    parsed: int = 0
    lowered: int = 0
    compiled: int = 0
    findings: dict[str, Finding] = field(default_factory=dict[str, Finding])
    failures: int = 0
    long_running: int = 0
    """Timeouts explained by a `while` that provably does not end (`fuzz_loops`): not findings."""

    def add(self, finding: Finding) -> None:
        self.failures += 1
        self.findings.setdefault(finding.signature, finding)

    def summary(self) -> str:
        return (
            f"{self.mutants} mutants: {self.parsed} valid after parsing, {self.lowered} lowered, "
            f"{self.compiled} compiled ({self.long_running} ran a while that does not end); "
            f"{self.failures} failures, {len(self.findings)} distinct"
        )


def _clean_exceptions() -> tuple[type[BaseException], ...]:
    from xdsl.utils.exceptions import DiagnosticException, VerifyException

    from runtime.executable import CompileError
    from xla_dialect.context import XlaProgramError

    return (XlaProgramError, CompileError, DiagnosticException, VerifyException)


def _where(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    last = frames[-1] if frames else None
    place = f" at {Path(last.filename).name}:{last.lineno}" if last else ""
    return f"{err}"[:200] + place


def check_mutant(text: str, report: Report, run: bool, timeout: float) -> None:
    """Every stage on one mutant; findings go to `report`."""
    from xla_dialect.context import make_context, parse_module, verify_all
    from xla_tools.pipelines import lower_to_llvm, run_passes

    clean = _clean_exceptions()
    report.mutants += 1
    stage = "parse"
    try:
        module = parse_module(text)
        report.parsed += 1
        stage = "canonicalize"
        ctx = make_context()
        canonical = module.clone()
        run_passes(canonical, ["canonicalize"], ctx)
        broken = verify_all(canonical)
        if broken:
            report.add(Finding(stage, "invalid output", broken[0].message, text))
            return
        if not run:  # with `run`, compile() lowers in the child (the same pipeline, once)
            stage = "lower-to-llvm"
            lowered = module.clone()
            lower_to_llvm(lowered, ctx)
            report.lowered += 1
    except clean:
        return
    except RecursionError as err:
        report.add(Finding(stage, "RecursionError", _where(err), text))
        return
    except Exception as err:  # noqa: BLE001 - that is what the fuzzer looks for
        report.add(Finding(stage, type(err).__name__, _where(err), text))
        return
    if run:
        outcome = _compile_and_run_forked(text, timeout)
        if outcome == "compiled" or outcome.startswith(LONG_RUNNING):
            report.lowered += 1
            report.compiled += 1
            report.long_running += outcome != "compiled"
        elif outcome != "clean":
            report.add(Finding("compile/run", outcome.split(":", 1)[0], outcome, text))


def _compile_and_run_forked(text: str, timeout: float) -> str:
    """`compile()` and a call on zeroed arguments in a child: 'compiled', 'clean'
    (a clean error), or what went wrong (an exception, a signal, a timeout)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report in one line, exit without cleanup
        os.close(read)
        _limit_memory(CHILD_MEMORY)
        message = _compile_and_run(text, write)
        os.write(write, message.encode("utf-8", "replace")[:4000])
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(read, "rb") as pipe:
            running = pipe.read().startswith(RUNNING)
        if running and (why := long_running_while(text, _entry(text))) is not None:
            return f"{LONG_RUNNING}{why}"
        return f"timeout: no answer in {timeout:.0f} s" + ("" if running else " (compiling)")
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode("utf-8", "replace").removeprefix(RUNNING.decode())
    if status is not None and os.WIFSIGNALED(status):
        return f"signal: {signal.Signals(os.WTERMSIG(status)).name}"
    if not message and status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1:
        return "clean"  # compiled code reported a failed allocation and stopped (runtime/allocator.py)
    return message or "exit: the child said nothing"


CHILD_MEMORY = 2 << 30
"""How much address space a compile-and-run child may add to what it inherits: a mutant
asking for more (an 8 GiB transpose) meets a failed allocation, as on a full machine,
rather than taking the shared machine's memory."""


def _limit_memory(extra: int) -> None:
    import resource

    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (size + extra, size + extra))


_FUNCTION = re.compile(r"func\.func\s+(?!private\b)@([\w.$-]+)")


def _entry(text: str) -> str:
    """The function to compile and call: `main` if there is one, else the first public
    function (most lit chunks have no `main`; compiling for it only said so)."""
    names = _FUNCTION.findall(text)
    return "main" if "main" in names or not names else names[0]


RUNNING = b"running\n"
"""What a child writes once it has compiled and starts the call: a timeout after it is
in the program, before it in the compiler."""

LONG_RUNNING = "long-running: "


def _compile_and_run(text: str, report_fd: int | None = None) -> str:
    import numpy as np

    from runtime.host_io import HostIOError
    from xla_tools import compile

    clean = _clean_exceptions()
    try:
        executable = compile(text, _entry(text), opt_level=0)
    except clean:
        return "clean"
    except Exception as err:  # noqa: BLE001
        return f"{type(err).__name__}: {_where(err)}"
    if report_fd is not None:
        os.write(report_fd, RUNNING)
    try:
        leaves = [
            np.zeros(spec.shape, spec.dtype)
            for specs in executable._input_leaves  # pyright: ignore[reportPrivateUsage]
            for spec in specs
        ]
        executable.run_leaves(leaves)
    except (ValueError, MemoryError, HostIOError) + clean:  # HostIOError: located (an empty infeed, ...)
        return "compiled"
    except Exception as err:  # noqa: BLE001
        return f"{type(err).__name__}: {_where(err)}"
    return "compiled"


GENTLE = 0.7
"""The share of gentle mutants when compiling: compiling is what takes the time, and a
mutant rejected by the parser or the verifier before it adds little (the harsh
mutations keep testing those; `--no-run` campaigns use only them)."""


def fuzz(
    seconds: float,
    seed: int,
    run: bool = True,
    timeout: float = 60.0,
    limit: int | None = None,
    every_level: bool = False,
    progress: float = 0.0,
    out: Path | None = None,
) -> Report:
    """Mutate and check for `seconds` (or `limit` mutants), reproducibly from `seed`.
    With `run`, `GENTLE` of the mutants are gentle (`mutate_gently`): they keep the
    module valid more often, so that the compile stage sees more of them."""
    rng = random.Random(seed)
    seeds = corpus(every_level=every_level)
    report = Report()
    if run:
        _warm_up()
    end = time.monotonic() + seconds
    next_progress = time.monotonic() + progress if progress else None
    for text in _mutants(rng, seeds, gentle=GENTLE if run else 0.0):
        now = time.monotonic()
        if now >= end or (limit is not None and report.mutants >= limit):
            break
        known = len(report.findings)
        check_mutant(text, report, run, timeout)
        if len(report.findings) > known:
            finding = list(report.findings.values())[-1]
            print(f"finding [{known}]: {finding.signature}", file=sys.stderr, flush=True)
            if out is not None:
                _write_finding(out, known, finding)
        if next_progress is not None and now >= next_progress:
            print(report.summary(), file=sys.stderr, flush=True)
            next_progress = now + progress
    return report


def _write_finding(out: Path, index: int, finding: Finding) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"finding_{index}.mlir").write_text(f"// {finding.signature}\n{finding.mutant}\n")


def _mutants(rng: random.Random, seeds: list[str], gentle: float = 0.0) -> Iterator[str]:
    while seeds:
        text = rng.choice(seeds)
        yield mutate_gently(rng, text) if rng.random() < gentle else mutate(rng, text)


def _warm_up() -> None:
    """Compile and run one small module in this process before forking children: the
    JIT's setup and the native thread pool (most of a second) are then done once and
    inherited, not repeated by every child. The disk cache is turned off so that the
    mutants' code does not fill the user's cache."""
    import numpy as np

    from xla_tools import compile

    os.environ["XLA_DIALECT_CACHE"] = "0"
    text = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = xla.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}"
    compile(text, opt_level=0)(np.ones(4, np.float32))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xla_tools.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many mutants")
    parser.add_argument("--no-run", action="store_true", help="skip compile() and running (faster)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per compile and run")
    parser.add_argument("--every-level", action="store_true", help="seed with linalg/memref/vector lit inputs too")
    parser.add_argument("--out", type=Path, default=None, help="write each distinct finding to DIR")
    parser.add_argument("--progress", type=float, default=0.0, help="print the counts every N seconds (stderr)")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    report = fuzz(
        args.seconds, args.seed, run=not args.no_run, timeout=args.timeout, limit=args.limit,
        every_level=args.every_level, progress=args.progress, out=args.out,
    )
    print(report.summary())
    for index, finding in enumerate(report.findings.values()):
        print(f"[{index}] {finding.signature}")
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
