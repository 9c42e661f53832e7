"""What a collective call site does, described as data for the runtime.

The lowering (`lowering/collectives/ops.py`) turns each collective op into a
call site of `lowering/host_abi.py` whose action is one of these; the runtime
(`runtime/collectives/`) binds it to a handler that runs the collective on the
communicator of the replica the calling thread or process is. Process groups
follow StableHLO's spec: `mode` says how the written `groups` name devices
(`cross_replica`, `cross_partition`, `cross_replica_and_partition`,
`flattened_ids`), and the runtime expands them once it knows the number of
replicas and partitions.

Functions of the module the handler calls (a combiner compiled from a
reduction region, the programs of `interpreter.run_parallel`) are named in
`functions`; the JIT gives the runtime their addresses once the module is
compiled (`runtime.host_io.resolve_site_functions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import DictionaryAttr, StringAttr
from xdsl.ir import Operation

CROSS_REPLICA = "cross_replica"
CROSS_PARTITION = "cross_partition"
CROSS_REPLICA_AND_PARTITION = "cross_replica_and_partition"
FLATTENED_IDS = "flattened_ids"

BUILTIN_REDUCTIONS = ("sum", "prod", "max", "min", "and", "or", "xor")
"""Reductions MPI has built in (`and`/`or`/`xor` are bitwise, logical on i1)."""


@dataclass(frozen=True)
class Reduction:
    """How values of the group are combined: a built-in operation, or the
    module's function `combiner(a, b) -> c` on the flattened operand (the
    compiled reduction region, applied element by element)."""

    builtin: str | None
    combiner: str | None = None
    size: int = 0
    """Elements the combiner takes per argument."""


@dataclass(frozen=True)
class Collective:
    """One collective op: `kind` is the op's name without `xla.`; `groups` are the
    written replica groups (or `source_target_pairs` for `collective_permute`),
    read by `mode`; an empty `groups` means one group of every device."""

    kind: str
    mode: str
    groups: tuple[tuple[int, ...], ...] = ()
    reductions: tuple[Reduction, ...] = ()
    """One per operand, for all_reduce/reduce_scatter/cross_replica_sum."""
    dimension: int = 0
    """all_gather_dim, scatter_dimension."""
    split_dimension: int = 0
    concat_dimension: int = 0
    split_count: int = 0
    channel: int | None = None

    @property
    def functions(self) -> tuple[str, ...]:
        return tuple(r.combiner for r in self.reductions if r.combiner is not None)


@dataclass(frozen=True)
class DeviceId:
    """`replica_id` or `partition_id` of the device running the site."""

    which: str


@dataclass(frozen=True)
class Program:
    """One program of an `interpreter.run_parallel` grid: the module function and
    how many data leaves (token-free) it takes and returns."""

    function: str
    n_inputs: int
    n_outputs: int


@dataclass(frozen=True)
class RunParallel:
    """`interpreter.run_parallel`: run `programs[replica][partition]` on threads,
    one device each, with an in-process communicator between them."""

    programs: tuple[tuple[Program, ...], ...]

    @property
    def functions(self) -> tuple[str, ...]:
        return tuple(sorted({p.function for row in self.programs for p in row}))


def send_recv_pairs(op: Operation) -> tuple[tuple[int, int], ...]:
    """The (source, target) devices of a device-to-device `send`/`recv`, from XLA's
    `mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"}`
    (how XLA pairs a send with its recv across devices); () without it."""
    attrs = op.attributes.get("mhlo.frontend_attributes")
    if not isinstance(attrs, DictionaryAttr):
        return ()
    text = attrs.data.get("_xla_send_recv_source_target_pairs")
    if not isinstance(text, StringAttr):
        return ()
    return tuple((int(a), int(b)) for a, b in re.findall(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}", text.data))


__all__ = [
    "BUILTIN_REDUCTIONS",
    "CROSS_PARTITION",
    "CROSS_REPLICA",
    "CROSS_REPLICA_AND_PARTITION",
    "FLATTENED_IDS",
    "Collective",
    "DeviceId",
    "Program",
    "Reduction",
    "RunParallel",
    "send_recv_pairs",
]
