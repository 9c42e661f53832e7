"""The handlers of collective call sites: each runs its op on the communicator
of the device executing it (`devices.current_device()`), following StableHLO's
semantics; written once against `Communicator`, so MPI and the in-process
communicator compute the same thing.

* Layouts: MPI moves contiguous blocks, so an op along dimension `d` moves the
  blocks `np.split(x, n, axis=d)` stacked on a leading axis and reassembles
  them (`all_gather` along dimension 0 gathers straight into the result).
* Checks: the first time a site runs on a device, the group compares what each
  member is about to do (the op, its location and its operand types): a
  device whose shapes differ is an error on every device, not a corrupt
  exchange or a hang.
* Code running as no device (no `mpiexec`, no `run_parallel`) is the only
  replica of one partition (`devices.single_device`): groups naming other
  devices are an error saying so.
* Devices in no group: `all_reduce` returns its operand, `collective_broadcast`
  and `collective_permute` (no source) give zeros, as the spec says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from lowering.collectives.abi import Collective, DeviceId, Reduction
from lowering.host_abi import SiteSpec
from runtime import guard
from runtime.collectives.communicator import CollectiveError, Communicator, ReduceOp
from runtime.collectives.devices import (
    Device,
    current_device,
    device_groups,
    device_pairs,
    single_device,
)

Lookup = Callable[[str], int]
"""A function name of the compiled module → the address of its code."""


def compiled_combine(address: int, size: int, dtype: np.dtype) -> Callable[[np.ndarray, np.ndarray, np.ndarray], None]:
    """`combine(a, b, out)` calling the compiled `@__xla_combine_<n>` on `size`
    elements; shorter pieces (MPI reduces long messages in segments) are padded."""
    fn = guard.guarded(address, 3, "all_reduce combiner")  # raises if its allocation fails

    def combine(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        n = a.size
        if n == size:
            left, right = np.ascontiguousarray(a), np.ascontiguousarray(b)
        else:
            left, right = np.zeros(size, dtype), np.zeros(size, dtype)
            left[:n], right[:n] = a, b
        result = np.empty(size, dtype)  # the code's parameters are noalias: never `out is b`
        fn(left.ctypes.data, right.ctypes.data, result.ctypes.data)
        out[...] = result[:n]

    return combine


class CollectiveHandler:
    """The handler of one collective site (see the module docstring)."""

    def __init__(self, spec: SiteSpec):
        action = spec.action
        assert isinstance(action, Collective)
        self.spec = spec
        self.action = action
        self.ops: list[ReduceOp] = [
            ReduceOp.of_builtin(r.builtin) if r.builtin is not None else ReduceOp(None, _unbound(spec, r))
            for r in action.reductions
        ]
        types = ", ".join(leaf.type_text for leaf in spec.inputs)
        self.description = f"{spec.where}: {action.kind} of ({types})"
        self._cached: tuple[Device, Communicator | None] | None = None

    def bind(self, lookup: Lookup) -> None:
        """Give the reductions compiled from regions their code."""
        for k, (reduction, leaf) in enumerate(zip(self.action.reductions, self.spec.inputs)):
            if reduction.combiner is not None:
                combine = compiled_combine(lookup(reduction.combiner), reduction.size, leaf.dtype)
                self.ops[k] = ReduceOp(None, combine)

    def __call__(self, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        device = current_device() or single_device()
        kind = self.action.kind
        if kind == "collective_permute":
            self._permute(device, ins, outs)
            return
        cached = self._cached  # one tuple, read and written at once: threads may share the handler
        if cached is not None and cached[0] is device:
            comm = cached[1]  # the last device's group: the common case
        else:
            groups = device_groups(self.action.mode, self.action.groups, device.num_replicas, device.num_partitions)
            comm = device.group(self.spec.symbol, groups)
            if comm is not None and device.first_use(self.spec.symbol):
                comm.agree(self.description, self.spec.where)
            if device.world.size > 1:  # not single_device(), which is per thread
                self._cached = (device, comm)
        if comm is None:
            _outside(self.action, ins, outs)
            return
        if kind == "all_reduce":
            for x, out, op in zip(ins, outs, self.ops):
                comm.allreduce(x, out, op)
        elif kind == "all_gather":
            for x, out in zip(ins, outs):
                _all_gather(comm, x, out, self.action.dimension)
        elif kind == "all_to_all":
            for x, out in zip(ins, outs):
                _all_to_all(comm, x, out, self.action)
        elif kind == "reduce_scatter":
            _reduce_scatter(comm, ins[0], outs[0], self.action.dimension, self.ops[0])
        elif kind == "collective_broadcast":
            outs[0][...] = ins[0]
            comm.bcast(outs[0], 0)
        else:
            raise CollectiveError(f"unknown collective {kind}")

    def _permute(self, device: Device, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        pairs = device_pairs(self.action.mode, self.action.groups, device.num_replicas, device.num_partitions)
        comm = device.group(self.spec.symbol, [list(range(device.world.size))])
        assert comm is not None
        if device.first_use(self.spec.symbol):
            comm.agree(self.description, self.spec.where)
        me = comm.rank
        dest = next((t for s, t in pairs if s == me), None)
        source = next((s for s, t in pairs if t == me), None)
        comm.sendrecv(ins[0], dest, outs[0] if source is not None else None, source)
        if source is None:
            outs[0][...] = 0


def _unbound(spec: SiteSpec, reduction: Reduction) -> Callable[[np.ndarray, np.ndarray, np.ndarray], None]:
    def combine(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        raise CollectiveError(f"{spec.where}: the reduction @{reduction.combiner} was never given its code")

    return combine


def _outside(action: Collective, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
    """A device in none of the groups."""
    for x, out in zip(ins, outs):
        out[...] = x if action.kind == "all_reduce" else 0


def _blocks(x: np.ndarray, n: int, axis: int) -> np.ndarray:
    """`x` cut in `n` blocks along `axis`, stacked on a new leading axis (contiguous)."""
    if axis == 0:
        return np.ascontiguousarray(x).reshape(n, x.shape[0] // n, *x.shape[1:])
    return np.ascontiguousarray(np.stack(np.split(x, n, axis=axis)))


def _join(blocks: np.ndarray, out: np.ndarray, axis: int) -> None:
    """`out` = the leading-axis `blocks` concatenated along `axis`."""
    out[...] = np.concatenate(list(blocks), axis=axis)


def _all_gather(comm: Communicator, x: np.ndarray, out: np.ndarray, axis: int) -> None:
    n = comm.size
    if out.shape[axis] != x.shape[axis] * n:
        raise CollectiveError(
            f"all_gather over a group of {n} gives dimension {axis} of size {x.shape[axis] * n}, "
            f"the result has {out.shape[axis]}"
        )
    if axis == 0:
        comm.allgather(x, out.reshape(n, *x.shape))
        return
    gathered = np.empty((n, *x.shape), x.dtype)
    comm.allgather(x, gathered)
    _join(gathered, out, axis)


def _all_to_all(comm: Communicator, x: np.ndarray, out: np.ndarray, action: Collective) -> None:
    n = comm.size
    if action.split_count != n:
        raise CollectiveError(f"all_to_all has split_count {action.split_count} but its group has {n} devices")
    send = _blocks(x, n, action.split_dimension)
    recv = np.empty_like(send)
    comm.alltoall(send, recv)
    _join(recv, out, action.concat_dimension)


def _reduce_scatter(comm: Communicator, x: np.ndarray, out: np.ndarray, axis: int, op: ReduceOp) -> None:
    n = comm.size
    if x.shape[axis] != out.shape[axis] * n:
        raise CollectiveError(
            f"reduce_scatter over a group of {n} cuts dimension {axis} ({x.shape[axis]}) in blocks of "
            f"{x.shape[axis] // n}, the result has {out.shape[axis]}"
        )
    send = _blocks(x, n, axis)
    if axis == 0:
        comm.reduce_scatter(send, out, op)
        return
    block = np.empty(send.shape[1:], x.dtype)
    comm.reduce_scatter(send, block, op)
    out[...] = block


class DeviceIdHandler:
    """`replica_id` / `partition_id`: from the device's rank and the partition count."""

    def __init__(self, spec: SiteSpec):
        action = spec.action
        assert isinstance(action, DeviceId)
        self.which = action.which

    def __call__(self, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        device = current_device()
        value = 0 if device is None else getattr(device, self.which)
        outs[0][...] = value


def channel_route(spec: SiteSpec, default: Callable[[list[np.ndarray], list[np.ndarray]], None]) -> Any:
    """A send/recv handler for devices: on a device of `run_parallel` or
    `run_replicas` the values pass between the devices through the channel
    (blocking, with the collective timeout); between MPI processes a
    device-to-device send goes to the targets its
    `_xla_send_recv_source_target_pairs` name, and a recv takes from its source.
    Elsewhere (and host transfers under MPI) the process's host queues."""
    from lowering.host_abi import ReadQueue

    queue = spec.action.queue
    handle, pairs = queue.handle, queue.pairs
    reading = isinstance(spec.action, ReadQueue)

    def in_process(world: Any, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        if reading:
            item = world.channel_recv(handle, spec.where)
            if len(item) != len(outs) or any(a.shape != o.shape or a.dtype != o.dtype for a, o in zip(item, outs)):
                raise CollectiveError(
                    f"channel {handle} carried {[a.shape for a in item]}, the recv reads {[o.shape for o in outs]}"
                )
            for a, o in zip(item, outs):
                o[...] = a
        else:
            world.channel_send(handle, tuple(np.array(a) for a in ins))

    def between_processes(device: Device, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        assert device.p2p is not None
        if not pairs:
            raise CollectiveError(
                f"a device-to-device {'recv' if reading else 'send'} between processes must say its peers: "
                'give it mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1}}"}'
            )
        me = device.world.rank
        if reading:
            source = next((s for s, t in pairs if t == me), None)
            if source is None:
                raise CollectiveError(f"channel {handle}: no pair of {list(pairs)} sends to device {me}")
            for o in outs:
                device.p2p.sendrecv(None, None, o, source, handle)
        else:
            for target in [t for s, t in pairs if s == me]:
                for a in ins:
                    device.p2p.sendrecv(a, target, None, None, handle)

    def handler(ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        device = current_device()
        if device is not None and device.channels is not None and handle is not None:
            in_process(device.channels, ins, outs)
        elif device is not None and device.p2p is not None and queue.kind == "channel" and device.world.size > 1:
            between_processes(device, ins, outs)
        else:
            default(ins, outs)

    return handler


__all__ = ["CollectiveHandler", "DeviceIdHandler", "channel_route", "compiled_combine"]
