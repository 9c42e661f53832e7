"""The tools, on the top floor: `compile` (the Python API), the pass registry and
named pipelines (`registry.py`, `pipelines.py`), `xla-opt`, `xla-run`, the
conformance runner and the generator of `docs/ops.md`.

    from xla_tools import compile
    f = compile(open("examples/mlp.mlir").read())     # entry="main"
    y = f(x)                                          # NumPy in, NumPy out
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xla_tools.compiler import CompileError, compile

__all__ = ["CompileError", "compile"]


def __getattr__(name: str) -> Any:
    # Imported on first use: `xla-opt` needs neither the JIT nor llvmlite.
    if name in __all__:
        from xla_tools import compiler

        return getattr(compiler, name)
    raise AttributeError(f"module 'xla_tools' has no attribute {name!r}")
