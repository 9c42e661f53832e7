"""`convert-xla-to-linalg`: the `xla` dialect → linalg/tensor/arith/math/scf on
tensors, the first step of the lowering.

One module per op family, mirroring `xla_dialect/ops/`: `elementwise`,
`constants`, `shape`, `slicing`, `contraction`, `reduction`, `control_flow`;
`scalar` holds the element-level semantics (division guards, NaN rules, total
order, saturating conversions) that the element-wise generics inline. The
driver (`converter`) rebuilds each function from its original ops, so every
lowering sees the xla types it needs (signedness) while it produces signless
IR. An op without a lowering is reported by name.

Tuples must be flattened first (`xla-flatten-tuples`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.passes import ModulePass

from lowering.xla_to_linalg import (  # noqa: F401  (they register their lowerings)
    constants,
    contraction,
    control_flow,
    elementwise,
    io,
    reduction,
    shape,
    slicing,
)
from lowering.xla_to_linalg.call_graph import check_acyclic, check_grids
from lowering.xla_to_linalg.converter import LOWERINGS, Converter, convert_type


@dataclass(frozen=True)
class ConvertXlaToLinalgPass(ModulePass):
    """Lower every `xla` op in the module's functions to linalg on tensors."""

    name = "convert-xla-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_acyclic(op)
        check_grids(op)
        reduction.widen_reducer_operands(op)
        for function in list(op.ops):
            if not isinstance(function, func.FuncOp):
                continue
            function_type = convert_type(function.function_type, function)
            assert isinstance(function_type, FunctionType)
            if function.body.blocks:
                converter = Converter()
                body = converter.convert_region(function.body, function)
                old = function.body
                while old.first_block is not None:
                    old.detach_block(old.first_block).drop_all_references()
                body.move_blocks(old)
            function.function_type = function_type
        io.guard_loops(op)  # loops reaching host I/O stop once a host op failed


__all__ = ["LOWERINGS", "ConvertXlaToLinalgPass"]
