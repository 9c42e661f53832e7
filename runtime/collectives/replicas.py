"""N replicas of a compiled program in one process: threads, one device each,
over an in-process communicator; what `mpiexec -n N xla-run` does with N
processes, for tests and for trying a program without MPI.

    from runtime.collectives import run_replicas
    results = run_replicas(executable, [[x0], [x1], [x2], [x3]])   # one argument list per device
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from runtime.collectives.devices import Device, running_as
from runtime.collectives.in_process import World


def run_replicas(executable: Any, arguments: Sequence[Sequence[Any]], num_partitions: int = 1) -> list[Any]:
    """Run `executable` once per device with `arguments[device]` (devices are
    `replica * num_partitions + partition`); the results in device order. The
    first device's error is raised (naming the device) if any failed."""
    n = len(arguments)
    if n == 0 or n % num_partitions:
        raise ValueError(f"{n} argument lists do not make whole replicas of {num_partitions} partition(s)")
    world = World(n)
    comms = world.communicators()
    results: list[Any] = [None] * n
    errors: list[BaseException | None] = [None] * n

    def run(index: int) -> None:
        device = Device(comms[index], n // num_partitions, num_partitions, channels=world)
        try:
            with running_as(device):
                results[index] = executable(*arguments[index])
        except BaseException as err:  # noqa: BLE001 - raised below, naming the device
            errors[index] = err
            world.fail(f"device {index}: {err}")

    threads = [threading.Thread(target=run, args=(i,), name=f"xla-device-{i}", daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for index, error in enumerate(errors):
        if error is not None:
            error.add_note(f"(raised on device {index} of {n})")
            raise error
    return results


__all__ = ["run_replicas"]
