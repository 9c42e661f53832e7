"""The interface every communicator implements, and what reductions are.

A `Communicator` is MPI's communicator, cut down to what the collective ops
need, on NumPy buffers: a group of devices with ranks `0..size-1`, built-in
or user-defined reductions, `split` into sub-communicators (collective over
the parent, as `MPI_Comm_split`) and `dup`. Two implementations:
`runtime/collectives/mpi.py` (mpi4py: one device per process, any number of
hosts) and `runtime/collectives/in_process.py` (threads of one process, for
`interpreter.run_parallel` and tests). The collective handlers are written once
against this interface, so both run the same semantics.

Every blocking operation gives up after `timeout()` seconds (a missing or
stopped peer is an error, never a hang): the in-process communicator raises
`CollectiveError`; MPI cannot interrupt a blocking call, so its watchdog
reports the timeout on the rank's stderr and aborts the job (non-zero exit).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from runtime.host_io import HostIOError

DEFAULT_TIMEOUT = 120.0
"""Seconds a collective may wait for its peers (`$XLA_DIALECT_COLLECTIVE_TIMEOUT`)."""


def timeout() -> float:
    """`$XLA_DIALECT_COLLECTIVE_TIMEOUT` seconds if set, else `DEFAULT_TIMEOUT`."""
    text = os.environ.get("XLA_DIALECT_COLLECTIVE_TIMEOUT", "").strip()
    try:
        value = float(text) if text else DEFAULT_TIMEOUT
    except ValueError:
        value = DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


class CollectiveError(HostIOError):
    """A collective could not run: peers disagree on shapes, a peer is missing or
    failed, the job's size does not match the program's replicas."""


Combine = Callable[[np.ndarray, np.ndarray, np.ndarray], None]
"""`combine(a, b, out)`: `out = a ∘ b` element-wise on 1-D arrays of equal size
(`a` from the lower rank); `out` may be `b`."""

_NUMPY_OPS: dict[str, Callable[..., object]] = {
    "sum": np.add,
    "prod": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


@dataclass(frozen=True)
class ReduceOp:
    """A reduction: MPI's built-in `builtin` (then `combine` is NumPy's same
    operation), or a user-defined `combine` (MPI_Op_create, non-commutative)."""

    builtin: str | None
    combine: Combine

    @staticmethod
    def of_builtin(name: str) -> ReduceOp:
        ufunc = _NUMPY_OPS[name]

        def combine(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
            ufunc(a, b, out=out)

        return ReduceOp(name, combine)


def fold(values: list[np.ndarray], op: ReduceOp, out: np.ndarray) -> None:
    """`out = values[0] ∘ values[1] ∘ ...`, left to right (group order)."""
    flat_out = out.reshape(-1)
    if len(values) == 1:
        flat_out[...] = values[0].reshape(-1)
        return
    op.combine(values[0].reshape(-1), values[1].reshape(-1), flat_out)
    for v in values[2:]:
        op.combine(flat_out.copy(), v.reshape(-1), flat_out)


class Communicator(ABC):
    """A group of devices; every method is called by all its members."""

    rank: int
    size: int

    @abstractmethod
    def split(self, color: int | None, key: int) -> Communicator | None:
        """The sub-communicator of the members that gave the same `color`, ranked
        by `key` (None for a member that gave None); collective over this one."""

    @abstractmethod
    def dup(self) -> Communicator:
        """A communicator of the same members whose messages cannot mix with this one's."""

    @abstractmethod
    def allgather_bytes(self, data: bytes) -> list[bytes]:
        """Every member's `data`, in rank order (small metadata, e.g. `agree`)."""

    @abstractmethod
    def allreduce(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        """`recv` = the members' `send` combined by `op` in rank order."""

    @abstractmethod
    def allgather(self, send: np.ndarray, recv: np.ndarray) -> None:
        """`recv[i]` = member i's `send` (`recv` has a leading axis of `size`)."""

    @abstractmethod
    def alltoall(self, send: np.ndarray, recv: np.ndarray) -> None:
        """`recv[i]` = member i's `send[rank]` (both have a leading axis of `size`)."""

    @abstractmethod
    def reduce_scatter(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        """`recv` = the members' `send[rank]` combined by `op` (`send` has a
        leading axis of `size`; MPI_Reduce_scatter_block)."""

    @abstractmethod
    def bcast(self, buffer: np.ndarray, root: int) -> None:
        """`buffer` on every member = `buffer` of member `root`."""

    @abstractmethod
    def sendrecv(
        self, send: np.ndarray | None, dest: int | None, recv: np.ndarray | None, source: int | None, tag: int = 0
    ) -> None:
        """Send `send` to `dest` and receive `recv` from `source` (either may be
        None); messages between two members with one `tag` arrive in order."""

    def agree(self, text: str, what: str) -> None:
        """Raise `CollectiveError` on every member unless all gave the same `text`
        (a description of the op and its shapes), saying who gave what."""
        texts = [b.decode() for b in self.allgather_bytes(text.encode())]
        if all(t == texts[0] for t in texts):
            return
        lines = "; ".join(f"rank {i}: {t}" for i, t in enumerate(texts))
        raise CollectiveError(f"{what}: the devices of the group disagree ({lines})")


__all__ = [
    "DEFAULT_TIMEOUT",
    "CollectiveError",
    "Combine",
    "Communicator",
    "ReduceOp",
    "fold",
    "timeout",
]
