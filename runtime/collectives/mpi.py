"""The MPI communicator (mpi4py): one device per process, as many hosts as the
job spans. `pip install -e ".[mpi]"` brings mpi4py and MPICH from wheels.

    mpiexec -n 4 xla-run prog.mlir --inputs 'in_{rank}.npz'

`init_mpi()` makes the process device `rank` of `MPI.COMM_WORLD` (replica
`rank // partitions`, partition `rank % partitions`). The collective handlers
(`handlers.py`) then call MPI's collectives on the operands' own buffers:
`Allreduce` with MPI's built-in operation, or with a user-defined operation
(`MPI_Op_create`, non-commutative) that calls the reduction compiled from the
op's region; `Allgather`, `Alltoall`, `Reduce_scatter_block`, `Bcast` on
sub-communicators made by `Split` once per call site; `Sendrecv` on a
duplicate of the world for `collective_permute`.

Timeouts: a blocking MPI call cannot be interrupted, so a watchdog thread
watches the call in progress; past the collective timeout
(`$XLA_DIALECT_COLLECTIVE_TIMEOUT`, default 120 s) it prints, on that rank's
stderr, which op waited for how long, and aborts the job (`MPI_Abort`, exit
status 1 on every rank) instead of letting it hang. Checks that every rank can
make (the job's size against the program's replicas, the operands' shapes
compared by `agree`) are errors on every rank with a normal exit.
"""

from __future__ import annotations

import atexit
import faulthandler
import os
import sys
import threading
import time
from typing import Any

import numpy as np

from runtime.collectives.communicator import CollectiveError, Communicator, ReduceOp, timeout
from runtime.collectives.devices import Device, set_process_device

_SIZE_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS")


def launched_by_mpiexec() -> int | None:
    """The job's size if this process was started by an MPI launcher (`mpiexec`,
    `mpirun`, `srun`), read from the environment without starting MPI."""
    for name in _SIZE_VARIABLES:
        value = os.environ.get(name, "")
        if value.isdigit():
            return int(value)
    return None


def mpi_module() -> Any:
    """`mpi4py.MPI` (starting MPI), or a `CollectiveError` saying how to get it."""
    loaded = sys.modules.get("mpi4py.MPI")
    if loaded is not None:
        return loaded
    try:
        import mpi4py

        mpi4py.rc.initialize = False  # started below, under a time limit
        from mpi4py import MPI
    except ImportError as err:
        raise CollectiveError(
            f"MPI is not available ({err}): install it with pip install -e '.[mpi]' (mpi4py and MPICH wheels)"
        ) from None
    if not MPI.Is_initialized():
        mpi_init_waiting_for_every_process_of_the_job(MPI)
        atexit.register(_finalize, MPI)
    return MPI


def mpi_init_waiting_for_every_process_of_the_job(mpi: Any) -> None:
    """MPI_Init returns once every process of the job has started MPI; it holds
    the GIL, so only a C-level timer can end a job where one never will (a
    process missing, or not an MPI program): faulthandler's, which prints this
    function's name in the traceback and exits with status 1."""
    faulthandler.dump_traceback_later(timeout(), exit=True)
    try:
        mpi.Init_thread(mpi.THREAD_MULTIPLE)
    finally:
        faulthandler.cancel_dump_traceback_later()


def _finalize(mpi: Any) -> None:
    if mpi.Is_initialized() and not mpi.Is_finalized():
        mpi.Finalize()


class Watchdog:
    """Aborts the job when a blocking MPI call outlives the collective timeout."""

    def __init__(self, mpi: Any, rank: int):
        self.mpi = mpi
        self.rank = rank
        self.limit = timeout()
        self.current: tuple[str, float, float] | None = None
        thread = threading.Thread(target=self._watch, name="xla-mpi-watchdog", daemon=True)
        thread.start()

    def waiting(self, what: str, limit: float | None = None) -> _Waiting:
        """`with watchdog.waiting("op"):` around a blocking MPI call (`limit`: seconds,
        default the collective timeout)."""
        return _Waiting(self, what, self.limit if limit is None else limit)

    def _watch(self) -> None:
        while True:
            time.sleep(min(1.0, self.limit / 10))
            current = self.current
            if current is not None and time.monotonic() > current[1]:
                sys.stderr.write(
                    f"xla-run: error: rank {self.rank}: {current[0]}: timed out after {current[2]:g} s waiting "
                    "for its peers (a peer is missing, stopped or running another program); aborting the job\n"
                )
                sys.stderr.flush()
                self.mpi.COMM_WORLD.Abort(1)


class _Waiting:
    """The context of one blocking call the watchdog watches (a plain class: cheaper
    than a generator-based context manager, on every collective)."""

    __slots__ = ("limit", "watchdog", "what")

    def __init__(self, watchdog: Watchdog, what: str, limit: float):
        self.watchdog, self.what, self.limit = watchdog, what, limit

    def __enter__(self) -> None:
        self.watchdog.current = (self.what, time.monotonic() + self.limit, self.limit)

    def __exit__(self, *exc: object) -> None:
        self.watchdog.current = None


_WATCHDOG: list[Watchdog] = []


class MpiCommunicator(Communicator):
    """A `Communicator` on an mpi4py communicator."""

    def __init__(self, comm: Any, mpi: Any | None = None):
        self.mpi = mpi or mpi_module()
        self.comm = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        if not _WATCHDOG:
            _WATCHDOG.append(Watchdog(self.mpi, self.mpi.COMM_WORLD.Get_rank()))
        self.watchdog = _WATCHDOG[0]
        self._ops: dict[tuple[int, np.dtype], Any] = {}
        self._types: dict[tuple[np.dtype, bool], Any] = {}

    # -- types and operations

    def _type(self, dtype: np.dtype, op: ReduceOp | None = None) -> Any:
        """MPI's predefined type for `dtype` (built-in reductions), else contiguous bytes."""
        key = dtype, op is None or op.builtin is not None
        made = self._types.get(key)
        if made is None:
            predefined = self.mpi._typedict.get(dtype.char) if key[1] else None
            if predefined is None or dtype.name == "bfloat16":
                predefined = _bytes_type(self.mpi, dtype.itemsize)
            made = self._types[key] = predefined
        return made

    def _op(self, op: ReduceOp, dtype: np.dtype) -> Any:
        key = id(op), dtype
        made = self._ops.get(key)
        if made is not None:
            return made[0]
        mpi = self.mpi
        if op.builtin is not None and self._type(dtype, op) is not _bytes_type(mpi, dtype.itemsize):
            logical = dtype == np.dtype(np.bool_)
            table = {"sum": mpi.SUM, "prod": mpi.PROD, "max": mpi.MAX, "min": mpi.MIN}
            table |= {"and": mpi.LAND, "or": mpi.LOR, "xor": mpi.LXOR} if logical else {
                "and": mpi.BAND, "or": mpi.BOR, "xor": mpi.BXOR}
            made = self._ops[key] = (table[op.builtin], op)
            return made[0]
        combine = op.combine

        def user(inbuf: Any, inoutbuf: Any, datatype: Any) -> None:
            a = np.frombuffer(inbuf, dtype)
            b = np.frombuffer(inoutbuf, dtype)
            combine(a, b.copy(), b)  # inout = in ∘ inout (in comes from the lower rank)

        made = self._ops[key] = (mpi.Op.Create(user, commute=False), op)  # `op` kept alive with its id
        return made[0]

    def _buffer(self, a: np.ndarray, op: ReduceOp | None = None, parts: int = 1) -> list[Any]:
        """`[buffer, count, type]`; `parts`: the buffer holds one block per member
        and MPI counts the elements of one (Allgather's, Alltoall's)."""
        return [a, a.size // parts, self._type(a.dtype, op)]

    # -- the interface

    def split(self, color: int | None, key: int) -> Communicator | None:
        with self.watchdog.waiting("creating a sub-communicator (MPI_Comm_split)"):
            sub = self.comm.Split(self.mpi.UNDEFINED if color is None else color, key)
        if sub == self.mpi.COMM_NULL:
            return None
        return MpiCommunicator(sub, self.mpi)

    def dup(self) -> Communicator:
        with self.watchdog.waiting("duplicating a communicator (MPI_Comm_dup)"):
            return MpiCommunicator(self.comm.Dup(), self.mpi)

    def allgather_bytes(self, data: bytes) -> list[bytes]:
        with self.watchdog.waiting("comparing the ranks' operands"):
            return list(self.comm.allgather(data))

    def allreduce(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        mpi_op = self._op(op, send.dtype)
        with self.watchdog.waiting("all_reduce (MPI_Allreduce)"):
            self.comm.Allreduce(self._buffer(send, op), self._buffer(recv, op), mpi_op)

    def allgather(self, send: np.ndarray, recv: np.ndarray) -> None:
        with self.watchdog.waiting("all_gather (MPI_Allgather)"):
            self.comm.Allgather(self._buffer(send), self._buffer(recv, parts=self.size))

    def alltoall(self, send: np.ndarray, recv: np.ndarray) -> None:
        with self.watchdog.waiting("all_to_all (MPI_Alltoall)"):
            self.comm.Alltoall(self._buffer(send, parts=self.size), self._buffer(recv, parts=self.size))

    def reduce_scatter(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        mpi_op = self._op(op, send.dtype)
        with self.watchdog.waiting("reduce_scatter (MPI_Reduce_scatter_block)"):
            self.comm.Reduce_scatter_block(self._buffer(send, op), self._buffer(recv, op), mpi_op)

    def bcast(self, buffer: np.ndarray, root: int) -> None:
        with self.watchdog.waiting("collective_broadcast (MPI_Bcast)"):
            self.comm.Bcast(self._buffer(buffer), root)

    def sendrecv(
        self, send: np.ndarray | None, dest: int | None, recv: np.ndarray | None, source: int | None, tag: int = 0
    ) -> None:
        with self.watchdog.waiting(f"point-to-point transfer (MPI_Sendrecv, tag {tag})"):
            if send is not None and dest is not None and recv is not None and source is not None:
                self.comm.Sendrecv(self._buffer(np.ascontiguousarray(send)), dest, tag, self._buffer(recv), source, tag)
            elif send is not None and dest is not None:
                self.comm.Send(self._buffer(np.ascontiguousarray(send)), dest, tag)
            elif recv is not None and source is not None:
                self.comm.Recv(self._buffer(recv), source, tag)


_BYTE_TYPES: dict[int, Any] = {}


def _bytes_type(mpi: Any, itemsize: int) -> Any:
    made = _BYTE_TYPES.get(itemsize)
    if made is None:
        made = _BYTE_TYPES[itemsize] = mpi.BYTE.Create_contiguous(itemsize).Commit()
    return made


def init_mpi(num_replicas: int | None = None, num_partitions: int = 1) -> Device:
    """Make this process device `rank` of `MPI.COMM_WORLD` for every program it
    runs; the job must have `num_replicas × num_partitions` processes (default:
    one replica per process). Raises `CollectiveError` on every rank otherwise."""
    mpi = mpi_module()
    world = MpiCommunicator(mpi.COMM_WORLD, mpi)
    replicas = world.size // num_partitions if num_replicas is None else num_replicas
    device = Device(world, replicas, num_partitions)
    device.p2p = world.dup()  # send/recv: only their two ranks run them, so it is made now
    set_process_device(device)
    return device


__all__ = ["MpiCommunicator", "Watchdog", "init_mpi", "launched_by_mpiexec", "mpi_module"]
