"""`interpreter.run_parallel` of several programs: the grid runs on threads, one
device each, connected by an in-process communicator (`in_process.World`).

The call site hands over every program's operands and out-buffers; each thread
runs its program's compiled code on its share (the bufferized convention:
inputs, then out-parameters) as device `replica * partitions + partition`.
Compiled code releases the GIL, so the devices run at once and block on each
other only in collectives. A device whose run fails (a host or collective
error) stops its peers' waits at once (`World.fail`); the site then raises the
first device's error, naming the device.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from lowering.collectives.abi import RunParallel
from lowering.host_abi import SiteSpec
from runtime import guard, host_io
from runtime import threads as _threads
from runtime.collectives.devices import Device, running_as
from runtime.collectives.in_process import World


class RunParallelHandler:
    """Runs the grid of one `interpreter.run_parallel` site."""

    def __init__(self, spec: SiteSpec):
        action = spec.action
        assert isinstance(action, RunParallel)
        self.spec = spec
        self.action = action
        self.functions: dict[str, Any] = {}

    def bind(self, lookup: Any) -> None:
        for row in self.action.programs:
            for program in row:
                n = program.n_inputs + program.n_outputs
                # under a return point: a failed allocation raises in its thread
                self.functions[program.function] = guard.guarded(lookup(program.function), n, program.function)

    def __call__(self, ins: list[np.ndarray], outs: list[np.ndarray]) -> None:
        grid = self.action.programs
        replicas, partitions = len(grid), len(grid[0])
        world = World(replicas * partitions)
        comms = world.communicators()
        errors: list[BaseException | None] = [None] * world.size
        threads: list[threading.Thread] = []
        next_in = next_out = 0
        for index, program in enumerate(p for row in grid for p in row):
            mine_in = ins[next_in : next_in + program.n_inputs]
            mine_out = outs[next_out : next_out + program.n_outputs]
            next_in += program.n_inputs
            next_out += program.n_outputs
            device = Device(comms[index], replicas, partitions, channels=world)
            function = self.functions.get(program.function)
            if function is None:
                raise host_io.HostIOError(f"@{program.function} was never given its code")
            args = (function, device, mine_in, mine_out, errors, index, world)
            threads.append(threading.Thread(target=_run_device, args=args, name=f"xla-device-{index}", daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        failed = [(i, e) for i, e in enumerate(errors) if e is not None]
        if failed:
            index, error = failed[0]
            r, p = divmod(index, partitions)
            raise host_io.HostIOError(f"replica {r}, partition {p}: {error}")


def _run_device(
    function: Any,
    device: Device,
    ins: list[np.ndarray],
    outs: list[np.ndarray],
    errors: list[BaseException | None],
    index: int,
    world: World,
) -> None:
    host_io.begin_run()
    try:
        with running_as(device), _threads.use_threads(1):
            function(*[_address(a) for a in ins], *[_address(o) for o in outs])
        error: BaseException | None = host_io.take_error()
    except BaseException as err:  # noqa: BLE001 - reported by the site, never lost in a thread
        error = err
    if error is not None:
        errors[index] = error
        world.fail(f"device {index}: {error}")


def _address(a: np.ndarray) -> int | None:
    return a.ctypes.data if a.size else None


__all__ = ["RunParallelHandler"]
