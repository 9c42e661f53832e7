"""`arith-unique-constants`: one `arith.constant` per value and type in each function, at
the top of its entry block.

`outline-loop-nests` re-creates in each kernel the constants its nest used, and the
loop lowerings make their bounds and steps where they need them, so a kernel holds the
same `0`, `1` and vector splats many times (a small GPT's Adam step: 1,897 of the 3,166
constants reaching `convert-to-llvm` repeated one already in their function). Each costs
a conversion, a translation and an LLVM constant (which LLVM uniques anyway). As MLIR's
canonicalizer does with its folder, the first constant of each (value, type) moves to
the top of the function's entry block, where it dominates every use, and the others'
uses take it. Constants are pure, so nothing changes but their number and place.

Only the constants in the function's own blocks are moved (after `lower-scf-to-cf`,
where the pass runs, just before `convert-to-llvm`, that is all of them; in a loop or
another op's region they stay). Floats are compared by their attributes, which keep the bits
(`-0.0` and `0.0` stay apart, as NaN payloads do).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass


def unique_constants(fn: Operation) -> int:
    """Unique the `arith.constant`s of function `fn` (see the module docstring); returns
    how many were erased."""
    region = fn.regions[0] if fn.regions else None
    if region is None or not region.blocks:
        return 0
    entry = region.blocks.first
    assert entry is not None
    kept: dict[tuple[Attribute, Attribute], arith.ConstantOp] = {}
    order: list[arith.ConstantOp] = []
    erased = 0
    for op in [op for block in region.blocks for op in block.ops if isinstance(op, arith.ConstantOp)]:
        key = (op.value, op.result.type)
        first = kept.get(key)
        if first is None:
            kept[key] = op
            order.append(op)
            continue
        op.result.replace_all_uses_with(first.result)
        op.detach()
        op.erase()
        erased += 1
    anchor = entry.first_op
    for op in order:
        if op is anchor:
            anchor = op.next_op
            continue
        op.detach()
        if anchor is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, anchor)
    return erased


def unique_module_constants(module: ModuleOp) -> int:
    """`unique_constants` on every function of `module`; returns how many were erased."""
    return sum(unique_constants(op) for op in module.ops if isinstance(op, (func.FuncOp, llvm.FuncOp)))


@dataclass(frozen=True)
class UniqueConstantsPass(ModulePass):
    """One `arith.constant` per value and type in each function (see the module docstring)."""

    name = "arith-unique-constants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        unique_module_constants(op)


__all__ = ["UniqueConstantsPass", "unique_constants", "unique_module_constants"]
