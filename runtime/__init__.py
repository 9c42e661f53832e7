"""The execution engine: native code for modules lowered to the llvm dialect, and
the host side of the programs that run.

* `jit.py`: llvm dialect → LLVM IR (`llvm_backend.py`, xDSL's llvmlite backend
  with the ops it lacks) → O3 for the host CPU → MCJIT (`compile_llvm_module`);
* `executable.py`: `Executable`, an entry function of a lowered module checked
  against its `xla` signature and called on NumPy arrays (`load`);
* `host_io.py`: infeed/outfeed queues, send/recv channels, custom-call targets
  and the errors of host ops, bound to the call sites the lowering describes
  (`lowering/host_abi.py`);
* `collectives/`: the cross-replica collectives on MPI (one replica per process)
  or on threads of one process (`interpreter.run_parallel`).

Compiling from `xla` is the tools' job: `from xla_tools import compile`.
"""

from __future__ import annotations

from runtime import collectives, host_io
from runtime.executable import CompiledModule, CompileError, Executable, load, xla_signatures
from runtime.host_io import TOKEN, HostIOError, register_custom_call
from runtime.jit import JitError, JitModule, compile_llvm_module

__all__ = [
    "TOKEN",
    "CompileError",
    "CompiledModule",
    "Executable",
    "HostIOError",
    "JitError",
    "JitModule",
    "collectives",
    "compile_llvm_module",
    "host_io",
    "load",
    "register_custom_call",
    "xla_signatures",
]
