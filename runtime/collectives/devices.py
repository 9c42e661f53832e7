"""Which device the running code is: its replica and partition, the world
communicator of all devices, and the process groups of StableHLO's spec.

Devices are numbered as StableHLO flattens them: `replica * num_partitions +
partition`, which is the rank in the world communicator. A thread of
`interpreter.run_parallel` runs as its device (`running_as`); an MPI process
is one device for its whole life (`set_process_device`, done by `xla-run`
under `mpiexec` or by `runtime.collectives.init_mpi`). Code that runs as no
device is one replica of one partition: its collectives are over a group of
one (all_reduce returns its operand, replica_id is 0), as XLA runs a program
compiled for one replica.

Sub-communicators are made once per call site and device (`Device.group`) and
kept with the device: under MPI, once per executable and process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from lowering.collectives.abi import (
    CROSS_PARTITION,
    CROSS_REPLICA,
    CROSS_REPLICA_AND_PARTITION,
    FLATTENED_IDS,
)
from runtime.collectives.communicator import CollectiveError, Communicator


@dataclass
class Device:
    """One device: its world communicator and the job's shape."""

    world: Communicator
    num_replicas: int
    num_partitions: int = 1
    channels: Any = None
    """The in-process `World` whose channels connect send and recv, if any."""
    p2p: Communicator | None = None
    """The communicator of device-to-device send/recv between processes (MPI)."""
    _groups: dict[Any, Communicator | None] = field(default_factory=dict[Any, "Communicator | None"])
    _checked: set[Any] = field(default_factory=set[Any])

    def __post_init__(self) -> None:
        if self.world.size != self.num_replicas * self.num_partitions:
            raise CollectiveError(
                f"the program runs {self.num_replicas} replica(s) × {self.num_partitions} partition(s) "
                f"but the job has {self.world.size} device(s)"
            )

    @property
    def replica_id(self) -> int:
        return self.world.rank // self.num_partitions

    @property
    def partition_id(self) -> int:
        return self.world.rank % self.num_partitions

    def group(self, site: Any, groups: Sequence[Sequence[int]]) -> Communicator | None:
        """The communicator of this device's group among `groups` (world ranks,
        in group order) for call site `site`, made on its first use (collective
        over the world); None when the device is in no group."""
        if site not in self._groups:
            mine = next((g for g in groups if self.world.rank in g), None)
            color = None if mine is None else groups.index(mine)
            key = 0 if mine is None else list(mine).index(self.world.rank)
            self._groups[site] = self.world.split(color, key)
        return self._groups[site]

    def first_use(self, site: Any) -> bool:
        """True the first time `site` runs on this device."""
        if site in self._checked:
            return False
        self._checked.add(site)
        return True


def device_groups(mode: str, groups: Sequence[Sequence[int]], replicas: int, partitions: int) -> list[list[int]]:
    """The process groups (flattened device ids, in order) of StableHLO's
    `cross_replica`, `cross_partition`, `cross_replica_and_partition` and
    `flattened_ids`; empty `groups` is one group of all."""

    def check(ids: Sequence[int], bound: int, what: str) -> None:
        bad = [i for i in ids if not 0 <= i < bound]
        if bad:
            raise CollectiveError(
                f"the groups name {what} {bad[0]}, but the job has {bound} {what}(s): run the program as "
                "more devices (mpiexec -n N xla-run ..., or runtime.collectives.run_replicas)"
            )

    if mode == CROSS_REPLICA:
        named = [list(g) for g in groups] or [list(range(replicas))]
        check([i for g in named for i in g], replicas, "replica")
        return [[r * partitions + p for r in g] for p in range(partitions) for g in named]
    if mode == CROSS_PARTITION:
        named = [list(g) for g in groups] or [list(range(partitions))]
        check([i for g in named for i in g], partitions, "partition")
        return [[r * partitions + p for p in g] for r in range(replicas) for g in named]
    if mode == CROSS_REPLICA_AND_PARTITION:
        named = [list(g) for g in groups] or [list(range(replicas))]
        check([i for g in named for i in g], replicas, "replica")
        return [[r * partitions + p for p in range(partitions) for r in g] for g in named]
    assert mode == FLATTENED_IDS, mode
    named = [list(g) for g in groups] or [list(range(replicas * partitions))]
    check([i for g in named for i in g], replicas * partitions, "device")
    return named


def device_pairs(mode: str, pairs: Sequence[Sequence[int]], replicas: int, partitions: int) -> list[tuple[int, int]]:
    """`source_target_pairs` of collective_permute as world ranks: for every
    partition (cross_replica) or every replica (cross_partition)."""
    out: list[tuple[int, int]] = []
    if mode == CROSS_PARTITION:
        for r in range(replicas):
            out += [(r * partitions + s, r * partitions + t) for s, t in pairs if s < partitions and t < partitions]
    else:
        for p in range(partitions):
            out += [(s * partitions + p, t * partitions + p) for s, t in pairs if s < replicas and t < replicas]
    return out


class _Local(threading.local):
    device: Device | None = None
    single: Device | None = None


_LOCAL = _Local()
_PROCESS: list[Device] = []


def current_device() -> Device | None:
    """The device the calling thread runs as (or the process's), if any."""
    return _LOCAL.device or (_PROCESS[0] if _PROCESS else None)


def single_device() -> Device:
    """The device of code that runs as none: one replica of one partition (per thread)."""
    if _LOCAL.single is None:
        from runtime.collectives.in_process import World

        _LOCAL.single = Device(World(1).communicators()[0], 1, 1)
    return _LOCAL.single


@contextmanager
def running_as(device: Device) -> Iterator[Device]:
    """Run the calling thread's code as `device`."""
    previous = _LOCAL.device
    _LOCAL.device = device
    try:
        yield device
    finally:
        _LOCAL.device = previous


def set_process_device(device: Device | None) -> None:
    """Make `device` what every thread of the process runs as (MPI: one device per process)."""
    _PROCESS.clear()
    if device is not None:
        _PROCESS.append(device)


__all__ = [
    "Device",
    "current_device",
    "device_groups",
    "device_pairs",
    "running_as",
    "set_process_device",
    "single_device",
]
