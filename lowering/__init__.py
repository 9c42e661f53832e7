"""Lowering of `xla` to native code: xla → linalg/tensor/arith/math/scf → memref →
loops → cf → llvm → llvmlite.

`lowering_passes()` maps the pipeline's pass names to lazy factories.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def lowering_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}
