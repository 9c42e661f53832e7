"""`compile(program, entry="main")`: an `xla` program (text or parsed module) to
an `Executable`, callable on NumPy arrays.

    from xla_tools import compile
    f = compile(open("examples/mlp.mlir").read())
    y = f(x, w1, b1, w2, b2)              # NumPy in, NumPy out

The steps: parse and verify (`xla_dialect.parse_module`), read the functions'
`xla` signatures, run the `lower-to-llvm` pipeline (`xla_tools/pipelines.py`),
then JIT-compile and wrap the entry (`runtime.load`). Compiled code is cached by
the module's text, so compiling the same module twice compiles once, and every
function of it can then be had without compiling again.
"""

from __future__ import annotations

import threading
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from lowering.to_llvm.common import register_llvm_extensions
from runtime.executable import (
    CompiledModule,
    CompileError,
    Executable,
    entry_function,
    load,
    xla_signatures,
)
from xla_dialect.context import XlaProgramError, make_context, parse_module
from xla_tools.pipelines import lower_to_llvm

_CACHE: dict[str, CompiledModule] = {}
_CACHE_LOCK = threading.Lock()


def _compile_module(program: str | ModuleOp, filename: str, entry: str) -> CompiledModule:
    from xdsl.utils.exceptions import DiagnosticException

    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(program, filename, ctx) if isinstance(program, str) else program.clone()
    entry_function(module, entry)
    signatures = xla_signatures(module)
    try:
        lower_to_llvm(module, ctx)
    except DiagnosticException as err:
        op = getattr(err, "op", None)
        raise CompileError(_located(str(err.args[0]) if err.args else str(err), op)) from None
    return load(module, signatures)


def compile(program: str | ModuleOp, entry: str = "main", *, filename: str = "<string>") -> Executable:
    """Compile `program` (MLIR text or a parsed module) and return its `entry`
    function as an `Executable`. Raises `XlaProgramError` for text that does
    not parse or verify and `CompileError` for a program that cannot be compiled.

    A module is compiled once (cached by its text); every function of it can then
    be had without compiling again."""
    text = program if isinstance(program, str) else str(program)
    with _CACHE_LOCK:
        compiled = _CACHE.get(text)
    if compiled is None:
        compiled = _compile_module(program, filename, entry)
        with _CACHE_LOCK:
            compiled = _CACHE.setdefault(text, compiled)
    return compiled.executable(entry)


def _located(message: str, op: Any) -> str:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = getattr(op, "location", None)
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: {message}"
    return message


__all__ = ["CompileError", "Executable", "XlaProgramError", "compile"]
