"""`xla-simplify`: canonicalization (the patterns of `passes/canonicalization/`),
common-subexpression elimination and dead-code elimination, repeated until the
module stops changing (at most `max_iterations` rounds).

xDSL's `cse` already reaches into the regions of `xla` ops (`while`, `if`, `case`,
`reduce`, ...: none is isolated from above), so values computed outside are reused
inside; `func.func` bodies stay separate scopes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

import passes.canonicalization  # noqa: F401 (registers the patterns)


def _fingerprint(module: ModuleOp) -> list[tuple[object, ...]]:
    """What the printed module says, without printing it (which cost a quarter of the
    pass at 10,000 ops): per op in walk order, its name, properties, attributes,
    operands (numbered by first appearance), results' types and names, successors and
    regions' block arguments. Equal fingerprints are equal texts; attributes compare by
    value (floats bit for bit)."""
    numbers: dict[SSAValue, int] = {}
    blocks: dict[Block, int] = {}
    out: list[tuple[object, ...]] = []
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                blocks.setdefault(block, len(blocks))
                out.append(("^", len(region.blocks), tuple((a.type, a.name_hint) for a in block.args)))
                for arg in block.args:
                    numbers.setdefault(arg, len(numbers))
        out.append((
            op.name,
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
            tuple(numbers.setdefault(v, len(numbers)) for v in op.operands),
            tuple((r.type, r.name_hint) for r in op.results),
            tuple(blocks.setdefault(b, len(blocks)) for b in op.successors),
            tuple(len(r.blocks) for r in op.regions),
        ))
        for result in op.results:
            numbers.setdefault(result, len(numbers))
    return out


@dataclass(frozen=True)
class SimplifyPass(ModulePass):
    """canonicalize, cse and dce to a fixed point."""

    name = "xla-simplify"

    max_iterations: int = 8
    """Rounds at most (each round runs all three passes)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        steps = (CanonicalizePass(), CommonSubexpressionElimination(), DeadCodeElimination())
        before = _fingerprint(op)
        for _ in range(self.max_iterations):
            for step in steps:
                step.apply(ctx, op)
            after = _fingerprint(op)
            if after == before:
                return
            before = after
