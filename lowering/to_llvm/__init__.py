"""Conversions of xDSL's standard dialects to the `llvm` dialect.

One conversion per module (`arith`, `math`, `cf`, `func`, `memref`, `index`,
`complex`),
each a pass of its own (`convert-<dialect>-to-llvm`), and `convert-to-llvm`
running all of them in one greedy rewrite, converting the arguments of every
block, then reconciling the unrealized casts. `scf` must be lowered to `cf`
first (`lower-scf-to-cf`).

Shared type conversion, materialization and the llvm ops xDSL lacks live in
`lowering.to_llvm.common`.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

from lowering.to_llvm.common import (
    ConversionPass,
    convert_all_block_arguments,
    register_llvm_extensions,
)
from xla_dialect.diagnostics import LoweringError


def all_patterns(*, complex_ops: bool = True) -> list[RewritePattern]:
    """Every dialect's patterns; `complex_ops=False` leaves out the complex dialect's
    (and does not import it) for a module that holds no complex op."""
    from lowering.to_llvm.arith import arith_patterns
    from lowering.to_llvm.cf import cf_patterns
    from lowering.to_llvm.func import func_patterns
    from lowering.to_llvm.math import math_patterns
    from lowering.to_llvm.memref import memref_patterns
    from lowering.to_llvm.vector import vector_patterns

    # index_cast is part of the arith patterns
    patterns = [
        *func_patterns(glue=True), *memref_patterns(), *vector_patterns(), *arith_patterns(), *math_patterns(), *cf_patterns(),
    ]
    if complex_ops:
        from lowering.to_llvm.complex import complex_patterns

        patterns += complex_patterns()
    return patterns


class ConvertToLLVMPass(ConversionPass):
    """Lower func, arith, math, memref, cf and index to the llvm dialect in one go."""

    name = "convert-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return all_patterns()

    def finalize(self, module: ModuleOp) -> None:
        convert_all_block_arguments(module)

    def patterns_for(self, module: ModuleOp) -> list[RewritePattern]:
        """The complex dialect's patterns only for a module holding complex ops."""
        return all_patterns(complex_ops=any(o.name.startswith("complex.") for o in module.walk()))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        super().apply(ctx, op)
        _check_fully_lowered(op)


def _check_fully_lowered(module: ModuleOp) -> None:
    """Reject leftovers (ops of other dialects, unresolved casts) with a diagnostic."""
    casts: list[Operation] = []
    for op in module.walk():
        if op is module or op.name.startswith("llvm."):
            continue
        if isinstance(op, UnrealizedConversionCastOp):
            casts.append(op)
            continue
        hint = " (lower scf with lower-scf-to-cf first)" if op.name.startswith("scf.") else ""
        raise LoweringError(f"'{op.name}' was not lowered to the llvm dialect{hint}", op)
    if casts:
        cast = casts[0]
        raise LoweringError(
            f"unresolved type conversion from {cast.operands[0].type} to {cast.results[0].type}",
            cast,
        )


__all__ = ["ConvertToLLVMPass", "LoweringError", "all_patterns", "register_llvm_extensions"]
