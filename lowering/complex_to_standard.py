"""`convert-complex-to-standard`: the arithmetic of xDSL's `complex` dialect →
`arith`/`math` on the real and imaginary parts (MLIR's ComplexToStandard).

The expansion (the algorithms, the patterns) is `lowering/complex_expansion.py`. The
pass imports it, and with it the `complex` dialect, only when the module holds a
complex op or a select of complex values: most programs have none, and their first
compile does not pay for loading them (nor their later ones for the walk of the
patterns).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ComplexType, ModuleOp
from xdsl.passes import ModulePass


def holds_complex_arithmetic(module: ModuleOp) -> bool:
    """Whether the expansion has anything to rewrite in `module`: a `complex.*` op, or an
    `arith.select` of complex values (the ops its three patterns match)."""
    for op in module.walk():
        if op.name.startswith("complex.") or (op.name == "arith.select" and isinstance(op.results[0].type, ComplexType)):
            return True
    return False


@dataclass(frozen=True)
class ConvertComplexToStandardPass(ModulePass):
    """Expand complex arithmetic into arith/math on the parts."""

    name = "convert-complex-to-standard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not holds_complex_arithmetic(op):
            return
        from lowering.complex_expansion import expand_complex

        expand_complex(op)


__all__ = ["ConvertComplexToStandardPass", "holds_complex_arithmetic"]
