"""The collective runtime: cross-replica ops of compiled programs on MPI, or on
threads of one process, behind one interface.

* `communicator.py`: the interface (`Communicator`, `ReduceOp`, `CollectiveError`,
  the timeout);
* `mpi.py`: mpi4py, one device per process (`init_mpi`, the watchdog);
* `in_process.py`: N devices as threads of one process;
* `devices.py`: which device runs (replica, partition), StableHLO's process groups;
* `handlers.py`: what each call site does (`lowering/collectives/abi.py` says which);
* `run_parallel.py`: the interpreter's grid of programs, on threads;
* `replicas.py`: `run_replicas`, N replicas of an executable on threads.

Importing the package registers the handlers with `runtime.host_io`.
"""

from __future__ import annotations

from lowering.collectives.abi import Collective, DeviceId, RunParallel
from runtime import host_io
from runtime.collectives.communicator import CollectiveError, Communicator, ReduceOp, timeout
from runtime.collectives.devices import Device, current_device, running_as, set_process_device
from runtime.collectives.handlers import CollectiveHandler, DeviceIdHandler, channel_route
from runtime.collectives.in_process import InProcessCommunicator, World
from runtime.collectives.mpi import MpiCommunicator, init_mpi, launched_by_mpiexec
from runtime.collectives.replicas import run_replicas
from runtime.collectives.run_parallel import RunParallelHandler

host_io.register_action_handler(Collective, CollectiveHandler)
host_io.register_action_handler(DeviceId, DeviceIdHandler)
host_io.register_action_handler(RunParallel, RunParallelHandler)
host_io.register_channel_route(channel_route)

__all__ = [
    "CollectiveError",
    "Communicator",
    "Device",
    "InProcessCommunicator",
    "MpiCommunicator",
    "ReduceOp",
    "World",
    "current_device",
    "init_mpi",
    "launched_by_mpiexec",
    "run_replicas",
    "running_as",
    "set_process_device",
    "timeout",
]
