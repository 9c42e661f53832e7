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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime import collectives, host_io
    from runtime.executable import CompiledModule, CompileError, Executable, load, xla_signatures
    from runtime.host_io import TOKEN, HostIOError, register_custom_call
    from runtime.jit import JitError, JitModule, compile_llvm_module

_HOMES = {
    "TOKEN": "runtime.host_io",
    "CompileError": "runtime.executable",
    "CompiledModule": "runtime.executable",
    "Executable": "runtime.executable",
    "HostIOError": "runtime.host_io",
    "JitError": "runtime.jit",
    "JitModule": "runtime.jit",
    "collectives": "runtime.collectives",
    "compile_llvm_module": "runtime.jit",
    "host_io": "runtime.host_io",
    "load": "runtime.executable",
    "register_custom_call": "runtime.host_io",
    "xla_signatures": "runtime.executable",
}
"""Where each name lives. They are imported on first use, so a tool that needs only
`runtime.timing` (xla-opt) does not load llvmlite, the JIT or the collectives."""

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'runtime' has no attribute {name!r}")
    module = importlib.import_module(home)
    return module if home == f"runtime.{name}" else getattr(module, name)
