"""`xla-simplify`: canonicalization (the patterns of `passes/canonicalization/`),
common-subexpression elimination and dead-code elimination, repeated until the
module stops changing (at most `max_iterations` rounds).

xDSL's `cse` already reaches into the regions of `xla` ops (`while`, `if`, `case`,
`reduce`, ...: none is isolated from above), so values computed outside are reused
inside; `func.func` bodies stay separate scopes.

Each round canonicalizes with one sweep of xDSL's walker (its worklist still follows
every rewrite to the ops it affects), not with xDSL's `canonicalize`, which sweeps
the whole module again after any change until a sweep changes nothing: the rounds
already repeat until nothing changes, so that closing sweep was done twice (a
quarter of the pass at 10,000 ops).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination, region_dce

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


class _OneSweepWalker(PatternRewriteWalker):
    """xDSL's walker (patterns applied again to the ops each rewrite affects) for one
    sweep of the region and its `post_walk_func`, without the sweeps that follow a change."""

    def rewrite_region(self, region: Region) -> bool:
        listener = self._get_rewriter_listener()
        self._populate_worklist(region)
        changed = self._process_worklist(listener)
        if self.post_walk_func is not None:
            changed |= self.post_walk_func(region, listener)
        return changed


class _CanonicalizeSweep(ModulePass):
    """xDSL's `canonicalize` (the same patterns, folding, dead-code removal), one sweep."""

    name = "canonicalize-sweep"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GreedyRewritePatternApplier([CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True)
        _OneSweepWalker(pattern, post_walk_func=region_dce).rewrite_module(op)


@dataclass(frozen=True)
class SimplifyPass(ModulePass):
    """canonicalize, cse and dce to a fixed point."""

    name = "xla-simplify"

    max_iterations: int = 8
    """Rounds at most (each round runs all three passes)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        steps = (_CanonicalizeSweep(), CommonSubexpressionElimination(), DeadCodeElimination())
        before = _fingerprint(op)
        for _ in range(self.max_iterations):
            for step in steps:
                step.apply(ctx, op)
            after = _fingerprint(op)
            if after == before:
                return
            before = after
