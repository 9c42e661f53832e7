"""`xla-run` under `mpiexec`: every process is one device of the program's
collectives (replica `rank // partitions`, partition `rank % partitions`).

    mpiexec -n 4 xla-run prog.mlir --inputs 'in_{rank}.npz' --output 'out_{rank}.npz'
    mpiexec -n 4 xla-run prog.mlir --inputs batch.npz --split-inputs --output out.npz
    mpiexec -n 4 -f hosts xla-run prog.mlir --inputs 'in_{rank}.npz'     # several hosts

Inputs: `--inputs` may name a file per rank with `{rank}` (also `{replica}`,
`{partition}`); without a pattern every rank reads the same file, and with
`--split-inputs` each of its arrays has a leading axis of one entry per
process, of which rank r takes entry r. Outputs: `--output` with `{rank}`
writes a file per rank; without it, rank 0 gathers the results and writes (or
prints) each with a leading axis of one entry per process.

The job's shape: `--replicas`/`--partitions`, else the module's
`mhlo.num_replicas`/`mhlo.num_partitions`, else one replica per process; the
process count must be replicas × partitions.

Errors: the ranks prepare (read, compile, load inputs) and then compare notes
before anything runs: a rank that failed, a job of the wrong size, or ranks
whose programs or input shapes differ are reported on every rank (each prints
its own line: its error, or which rank failed) and every rank exits with status
1. The same exchange follows the run, so an error during it ends every rank: a
rank whose run failed says so at once and waits `FAILED_RUN_WAIT` seconds for
the others (which, if they wait in a collective it left, never come: the
watchdog then ends the job). A rank stuck in a collective (a peer missing or
stopped) is ended by the watchdog of `runtime/collectives/mpi.py` after the
collective timeout.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import re
import sys
from collections.abc import Callable
from typing import IO, Any

import numpy as np

from runtime.collectives.communicator import CollectiveError
from xla_tools.run_io import RunFailure, read_inputs, write_results

FAILED_RUN_WAIT = 10.0
"""Seconds a rank whose run failed waits for the others before the job is ended."""


def _module_count(text: str, name: str) -> int | None:
    """`mhlo.num_replicas = 4 : i32` and the like, read from the module's attributes."""
    found = re.search(rf"\b{re.escape(name)}\s*=\s*(\d+)", text)
    return int(found.group(1)) if found else None


class _Job:
    """This rank's view of the job, and the exchange every rank takes part in."""

    def __init__(self, args: argparse.Namespace):
        from runtime.collectives.mpi import MpiCommunicator, mpi_module

        self.mpi = mpi_module()
        self.world = MpiCommunicator(self.mpi.COMM_WORLD, self.mpi)
        self.rank, self.size = self.world.rank, self.world.size
        self.args = args
        self.partitions = 1

    def exchange(self, mine: Any) -> list[Any]:
        return [pickle.loads(b) for b in self.world.allgather_bytes(pickle.dumps(mine))]

    def settle(self, error: str | None, limit: float | None = None) -> str | None:
        """Every rank's error, compared: this rank's own line if any rank failed.
        `limit`: how long to wait for the others (default: the collective timeout)."""
        with self.world.watchdog.waiting("waiting for the other ranks to finish", limit):
            errors = [pickle.loads(b) for b in self.world.comm.allgather(pickle.dumps(error))]
        if error is not None:
            return f"rank {self.rank}: {error}"
        failed = [(r, e) for r, e in enumerate(errors) if e is not None]
        if failed:
            r, e = failed[0]
            return f"rank {self.rank}: stopped because rank {r} failed: {e}"
        return None


def _path(pattern: str, rank: int, replica: int, partition: int) -> str:
    if "{" not in pattern:
        return pattern
    try:
        return pattern.format(rank=rank, replica=replica, partition=partition)
    except (KeyError, IndexError, ValueError) as err:
        raise RunFailure(f"{pattern!r}: only {{rank}}, {{replica}} and {{partition}} can be filled in ({err})") from None


def _prepare(
    job: _Job, read: Callable[[], tuple[str, str]], build: Callable[[str, str], Any]
) -> tuple[Any, list[Any], int, int, str]:
    """Work out the job's shape, compile, load this rank's inputs."""
    args = job.args
    text, name = read()
    partitions = args.partitions or _module_count(text, "mhlo.num_partitions") or 1
    replicas = args.replicas or _module_count(text, "mhlo.num_replicas") or job.size // partitions
    if replicas * partitions != job.size:
        raise CollectiveError(
            f"the program runs {replicas} replica(s) × {partitions} partition(s) but the job has "
            f"{job.size} process(es): start it with mpiexec -n {replicas * partitions} (one replica per process)"
        )
    job.partitions = partitions
    executable = build(text, name)
    replica, partition = divmod(job.rank, partitions)
    inputs = _path(args.inputs, job.rank, replica, partition) if args.inputs else None
    leaves = read_inputs(inputs, executable)
    if args.split_inputs:
        split: list[Any] = []
        for k, leaf in enumerate(leaves):
            if leaf.ndim == 0 or leaf.shape[0] != job.size:
                raise RunFailure(f"--split-inputs: arg{k} has shape {leaf.shape}, not a leading axis of {job.size} (one per process)")
            split.append(np.ascontiguousarray(leaf[job.rank]))
        leaves = split
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    shapes = ", ".join(f"{np.asarray(v).dtype}{list(np.shape(v))}" for v in leaves)
    signature = f"program {digest}, @{args.entry}, inputs ({shapes})"
    return executable, leaves, replicas, partitions, signature


def run_mpi(
    args: argparse.Namespace, read: Callable[[], tuple[str, str]], build: Callable[[str, str], Any], stdout: IO[str]
) -> int:
    """Run the program as this process's device; 0, or 1 after an error on every rank."""
    from runtime.collectives.mpi import init_mpi

    try:
        job = _Job(args)
    except CollectiveError as err:
        sys.stderr.write(f"xla-run: error: {err}\n")
        return 1

    def fail(message: str) -> int:
        sys.stderr.write(f"xla-run: error: {message}\n")
        sys.stderr.flush()
        return 1

    error: str | None = None
    signature = ""
    try:
        executable, leaves, replicas, partitions, signature = _prepare(job, read, build)
    except (RunFailure, CollectiveError) as err:
        error = str(err)
    settled = job.settle(error)
    if settled is not None:
        return fail(settled)
    signatures = job.exchange(signature)
    if any(s != signatures[0] for s in signatures):
        listing = "; ".join(f"rank {r}: {s}" for r, s in enumerate(signatures))
        return fail(f"rank {job.rank}: the ranks run different programs or inputs of different shapes ({listing})")
    results: list[np.ndarray] = []
    try:
        init_mpi(replicas, partitions)
        results = executable.run_leaves(leaves)
    except ValueError as err:
        error = str(err).replace("argument", "input", 1)
    except RuntimeError as err:  # HostIOError, CollectiveError: the run's own errors
        error = str(err)
    if error is not None:
        # Said at once: if the other ranks wait in a collective this rank left, the
        # exchange below cannot finish, and the watchdog ends the job after FAILED_RUN_WAIT.
        fail(f"rank {job.rank}: {error}")
        job.settle(error, FAILED_RUN_WAIT)
        return 1
    settled = job.settle(None)
    if settled is not None:
        return fail(settled)
    try:
        _emit(job, results, stdout)
    except RunFailure as err:
        return fail(f"rank {job.rank}: {err}")
    return 0


def _emit(job: _Job, results: list[np.ndarray], stdout: IO[str]) -> None:
    output = job.args.output
    if output and "{" in output:
        replica, partition = divmod(job.rank, job.partitions)
        write_results(results, _path(output, job.rank, replica, partition), stdout)
        return
    gathered = job.exchange(results)
    if job.rank == 0:
        stacked = [np.stack([per_rank[k] for per_rank in gathered]) for k in range(len(results))]
        write_results(stacked, output, stdout)


__all__ = ["run_mpi"]
