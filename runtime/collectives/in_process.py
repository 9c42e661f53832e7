"""A communicator between threads of one process (`interpreter.run_parallel`,
tests): N devices, one thread each, the same interface as MPI's.

Every collective is a rendezvous: each member leaves a copy of its
contribution in a slot keyed by (communicator, sequence number), waits until
the group's slots are full, reads what it needs, and the last reader frees the
slot. Point-to-point messages go through mailboxes keyed by (communicator,
source, destination). A wait gives up after the collective timeout, and as soon
as another device of the world has failed (`World.fail`): the device that
failed stops calling collectives, so its peers would otherwise wait for it.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from runtime.collectives.communicator import CollectiveError, Communicator, ReduceOp, fold, timeout


class World:
    """The state N in-process devices share."""

    def __init__(self, size: int):
        self.size = size
        self.condition = threading.Condition()
        self.slots: dict[tuple[Any, int], dict[int, Any]] = {}
        self.readers: dict[tuple[Any, int], int] = {}
        self.mailboxes: dict[tuple[Any, int, int, int], deque[np.ndarray]] = {}
        self.channels: dict[int, deque[tuple[np.ndarray, ...]]] = {}
        self.failure: str | None = None
        self._ids = itertools.count(1)

    def communicators(self) -> list[InProcessCommunicator]:
        """One communicator per device (rank = device id), to hand to its thread."""
        members = tuple(range(self.size))
        return [InProcessCommunicator(self, 0, members, rank) for rank in range(self.size)]

    def fail(self, reason: str) -> None:
        """A device failed: every wait of the others ends with an error."""
        with self.condition:
            if self.failure is None:
                self.failure = reason
            self.condition.notify_all()

    def wait_for(self, ready: Callable[[], bool], what: str) -> None:
        """Wait (holding `condition`) until `ready()`, a failure, or the timeout."""
        limit = timeout()
        deadline = time.monotonic() + limit
        while not ready():
            if self.failure is not None:
                raise CollectiveError(f"{what}: stopped because another device failed ({self.failure})")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CollectiveError(f"{what}: timed out after {limit:g} s waiting for its peers (a peer is missing)")
            self.condition.wait(min(remaining, 1.0))

    # -- channels of send/recv (device to device, and the interpreter's host transfers)

    def channel_send(self, handle: int, item: tuple[np.ndarray, ...]) -> None:
        with self.condition:
            self.channels.setdefault(handle, deque()).append(item)
            self.condition.notify_all()

    def channel_recv(self, handle: int, what: str) -> tuple[np.ndarray, ...]:
        with self.condition:
            queue = self.channels.setdefault(handle, deque())
            self.wait_for(lambda: bool(queue), f"{what} on channel {handle}")
            return queue.popleft()


class InProcessCommunicator(Communicator):
    """The view of one device (one thread) of a group of in-process devices."""

    def __init__(self, world: World, ident: Any, members: tuple[int, ...], rank: int):
        self.world = world
        self.ident = ident
        self.members = members
        self.rank = rank
        self.size = len(members)
        self._sequence = 0

    def _exchange(self, value: Any, what: str) -> list[Any]:
        """Every member's `value`, in rank order (the rendezvous all collectives use)."""
        key = (self.ident, self._sequence)
        self._sequence += 1
        world = self.world
        with world.condition:
            slot = world.slots.setdefault(key, {})
            slot[self.rank] = value
            world.condition.notify_all()
            world.wait_for(lambda: len(slot) == self.size, what)
            values = [slot[i] for i in range(self.size)]
            read = world.readers.get(key, 0) + 1
            if read == self.size:
                world.slots.pop(key, None)
                world.readers.pop(key, None)
            else:
                world.readers[key] = read
        return values

    def split(self, color: int | None, key: int) -> Communicator | None:
        tag = self._sequence
        entries = self._exchange((color, key), "creating a sub-communicator")
        if color is None:
            return None
        chosen = sorted((k, i) for i, (c, k) in enumerate(entries) if c == color)
        members = tuple(self.members[i] for _, i in chosen)
        rank = [i for _, i in chosen].index(self.rank)
        return InProcessCommunicator(self.world, (self.ident, tag, color), members, rank)

    def dup(self) -> Communicator:
        tag = self._sequence
        self._exchange(None, "duplicating a communicator")
        return InProcessCommunicator(self.world, (self.ident, tag, "dup"), self.members, self.rank)

    def allgather_bytes(self, data: bytes) -> list[bytes]:
        return self._exchange(data, "comparing the devices' operands")

    def allreduce(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        values = self._exchange(np.array(send), "all_reduce")
        fold(values, op, recv)

    def allgather(self, send: np.ndarray, recv: np.ndarray) -> None:
        for i, v in enumerate(self._exchange(np.array(send), "all_gather")):
            recv[i] = v

    def alltoall(self, send: np.ndarray, recv: np.ndarray) -> None:
        for i, v in enumerate(self._exchange(np.array(send), "all_to_all")):
            recv[i] = v[self.rank]

    def reduce_scatter(self, send: np.ndarray, recv: np.ndarray, op: ReduceOp) -> None:
        values = self._exchange(np.array(send), "reduce_scatter")
        fold([v[self.rank] for v in values], op, recv)

    def bcast(self, buffer: np.ndarray, root: int) -> None:
        values = self._exchange(np.array(buffer) if self.rank == root else None, "collective_broadcast")
        buffer[...] = values[root]

    def sendrecv(
        self, send: np.ndarray | None, dest: int | None, recv: np.ndarray | None, source: int | None, tag: int = 0
    ) -> None:
        world = self.world
        with world.condition:
            if send is not None and dest is not None:
                box = world.mailboxes.setdefault((self.ident, self.rank, dest, tag), deque())
                box.append(np.array(send))
                world.condition.notify_all()
            if recv is not None and source is not None:
                box = world.mailboxes.setdefault((self.ident, source, self.rank, tag), deque())
                world.wait_for(lambda: bool(box), f"receiving from device {self.members[source]}")
                recv[...] = box.popleft()


__all__ = ["InProcessCommunicator", "World"]
