"""`xla-run`: compile a function of an `xla` module and run it on NumPy data.

    xla-run FILE.mlir [--entry main] [--inputs in.npz] [--output out.npz] [--threads N] [-O N] [--timing]
    xla-run FILE.mlir --split-input-file [--timeout 60]
    mpiexec -n 4 xla-run FILE.mlir --inputs 'in_{rank}.npz' [--output 'out_{rank}.npz']

Inputs are `arg0, arg1, ...` in the npz (a tuple parameter takes its leaves,
depth-first, as consecutive `argK` entries); results are flattened depth-first
to `out0, out1, ...`, written to `--output` or printed. npz has no bf16: a bf16
parameter takes uint16 (or 2-byte void) bit patterns and a bf16 result is
written as uint16 bit patterns. Any error is one line on stderr and exit 1.

With `--split-input-file` the file is a test file of the StableHLO interpreter
suite: every chunk runs in isolation (`xla_tools/conformance.py`) and prints
`PASS file:N @fn` or `FAIL file:N @fn: stage: reason`, then `N passed, M
failed`; the exit code is 1 if any chunk failed.

Under `mpiexec` every process is one device (replica) of the program's
collectives: see `xla_tools/mpi_run.py`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from xla_tools.run_io import RunFailure, read_inputs, write_results


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="xla-run", description="Compile an xla function and run it on NumPy data.")
    p.add_argument("file", help="the .mlir module ('-' for stdin)")
    p.add_argument("--entry", default="main", help="the function to run (default: main)")
    p.add_argument("--inputs", help="an .npz file holding arg0, arg1, ... (the leaves of the parameters)")
    p.add_argument("--output", help="write the results to this .npz as out0, out1, ... instead of printing them")
    p.add_argument(
        "--threads",
        type=int,
        help="threads the program's parallel loops run on (default: $XLA_DIALECT_THREADS, "
        "else the cores this process may use)",
    )
    p.add_argument(
        "-O",
        dest="opt_level",
        type=int,
        choices=(0, 1, 2, 3),
        help="LLVM optimization level (default: $XLA_DIALECT_OPT_LEVEL, else 3)",
    )
    p.add_argument(
        "--timing",
        action="store_true",
        help="print the wall and CPU time of every pass and LLVM phase on stderr",
    )
    p.add_argument(
        "--mpi",
        action="store_true",
        help="run as one device of an MPI job (implied under mpiexec/mpirun/srun): one replica per process",
    )
    p.add_argument("--replicas", type=int, help="under MPI: the program's replicas (default: mhlo.num_replicas, else one per process)")
    p.add_argument("--partitions", type=int, help="under MPI: the program's partitions (default: mhlo.num_partitions, else 1)")
    p.add_argument(
        "--split-inputs",
        action="store_true",
        help="under MPI: every input has a leading axis of one entry per process; each rank takes its own",
    )
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help="run every `// -----` chunk of a test file (StableHLO interpreter suite form): "
        "its @main (else its only function) with its check ops; one PASS/FAIL line per chunk, then a summary",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="with --split-input-file: seconds a chunk may take before it fails (default 60)",
    )
    return p


def _run_chunks(args: argparse.Namespace, stdout: IO[str]) -> int:
    """`--split-input-file`: each chunk in an isolated worker, its checks evaluated."""
    from xla_tools.conformance import IsolatedRunner, run_file, summary

    if args.file == "-" or args.inputs or args.output:
        raise _Failure("--split-input-file takes a file path and no --inputs/--output")
    if not os.path.isfile(args.file):
        raise _Failure(f"cannot read {args.file}: no such file")
    outcomes = []
    with IsolatedRunner(timeout=args.timeout) as runner:
        for outcome in run_file(args.file, runner, display_name=args.file):
            outcomes.append(outcome)
            stdout.write(outcome.line() + "\n")
            stdout.flush()
    stdout.write(summary(outcomes) + "\n")
    return 0 if all(o.passed for o in outcomes) else 1


_Failure = RunFailure


def run(argv: Sequence[str] | None, stdout: IO[str]) -> int:
    args = _parser().parse_args(argv)
    from runtime.host_io import HostIOError
    from xla_dialect.context import XlaProgramError
    from xla_tools.compiler import CompileError, compile

    def read() -> tuple[str, str]:
        """The program's text and name."""
        if args.file == "-":
            return sys.stdin.read(), "<stdin>"
        try:
            with open(args.file, encoding="utf-8") as f:
                return f.read(), args.file
        except OSError as err:
            raise _Failure(f"cannot read {args.file}: {err.strerror}") from None
        except UnicodeDecodeError as err:
            raise _Failure(f"cannot read {args.file}: not UTF-8 text (byte {err.start})") from None

    def build(text: str, name: str) -> Any:
        """The entry's executable (each MPI rank compiles it itself)."""
        if args.threads is not None and args.threads < 1:
            raise _Failure(f"--threads must be a positive integer, got {args.threads}")
        try:
            return compile(
                text,
                args.entry,
                filename=name,
                threads=args.threads,
                opt_level=args.opt_level,
                timing=True if args.timing else None,
            )
        except XlaProgramError as err:
            first = err.diagnostics[0]
            raise _Failure(f"{first.file}:{first.line}:{first.column}: error: {first.message}") from None
        except CompileError as err:
            raise _Failure(f"cannot compile @{args.entry}: {err}") from None

    try:
        if args.split_input_file:
            return _run_chunks(args, stdout)
        if mpi_job_size(args) is not None:
            from xla_tools.mpi_run import run_mpi

            return run_mpi(args, read, build, stdout)
        executable = build(*read())
        leaves = read_inputs(args.inputs, executable)
        try:
            results = executable.run_leaves(leaves)
        except ValueError as err:
            raise _Failure(str(err).replace("argument", "input", 1)) from None
        except HostIOError as err:  # a host or collective op failed while the program ran
            raise _Failure(str(err)) from None
        write_results(results, args.output, stdout)
        return 0
    except _Failure as err:
        sys.stderr.write(f"xla-run: error: {err}\n")
        return 1


def mpi_job_size(args: argparse.Namespace) -> int | None:
    """The MPI job's size when xla-run runs under mpiexec (or with --mpi), else None."""
    from runtime.collectives.mpi import launched_by_mpiexec

    size = launched_by_mpiexec()
    return size if size is not None else (1 if args.mpi else None)


def main(argv: Sequence[str] | None = None, stdout: IO[str] | None = None) -> int:
    try:
        return run(argv, stdout or sys.stdout)
    except KeyboardInterrupt:
        sys.stderr.write("xla-run: interrupted\n")
        return 130
    except Exception as err:  # noqa: BLE001 - an internal error: still one line, no traceback
        sys.stderr.write(f"xla-run: internal error: {type(err).__name__}: {err}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
