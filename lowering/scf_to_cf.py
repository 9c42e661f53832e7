"""`lower-scf-to-cf`: structured control flow to unstructured control flow.

`scf.for` and `scf.if` use xDSL's lowerings (`convert-scf-to-cf`); added here:

* `scf.while`: the "before" region becomes the loop header, its `scf.condition`
  a `cf.cond_br` to the "after" region (the body) or out of the loop; the body's
  `scf.yield` branches back to the header.
* `scf.index_switch`: a `cf.switch` on the index (as i64) over the case regions,
  each branching to the continuation with its yielded values (i64 case values,
  unlike xDSL's lowering, which truncates to i32).
* `scf.execute_region`: its blocks inlined, `scf.yield` branching to the
  continuation.

All of them accept regions that are already multi-block (nested ops lowered
first).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import DenseIntElementsAttr, ModuleOp, VectorType, i64
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering


def _split_for_results(op: Operation, rewriter: PatternRewriter) -> tuple[Block, Block]:
    """Split `op`'s block before `op`; the continuation block gets one argument per
    result of `op`. Returns (block before, continuation)."""
    block = op.parent_block()
    assert block is not None
    continuation = block.split_before(op)
    for i, t in enumerate(op.result_types):
        rewriter.insert_block_argument(continuation, i, t)
    return block, continuation


def _inline_before(region: Region, target: Block, rewriter: PatternRewriter) -> Block:
    """Move the blocks of `region` before `target`; return the first one."""
    first = region.first_block
    assert first is not None
    rewriter.inline_region(region, BlockInsertPoint.before(target))
    return first


def _terminators(first: Block, stop: Block) -> list[Operation]:
    """The terminators of the blocks from `first` up to (excluding) `stop`."""
    result: list[Operation] = []
    block: Block | None = first
    while block is not None and block is not stop:
        if block.last_op is not None:
            result.append(block.last_op)
        block = block.next_block
    return result


def _yields_to(first: Block, stop: Block, continuation: Block, rewriter: PatternRewriter) -> None:
    for term in _terminators(first, stop):
        if isinstance(term, scf.YieldOp):
            rewriter.replace(term, cf.BranchOp(continuation, *term.operands), [])


class WhileLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /) -> None:
        block, continuation = _split_for_results(op, rewriter)
        before = _inline_before(op.before_region, continuation, rewriter)
        after = _inline_before(op.after_region, continuation, rewriter)
        for term in _terminators(before, after):
            if isinstance(term, scf.ConditionOp):
                rewriter.replace(
                    term,
                    cf.ConditionalBranchOp(term.condition, after, term.args, continuation, term.args),
                    [],
                )
        for term in _terminators(after, continuation):
            if isinstance(term, scf.YieldOp):
                rewriter.replace(term, cf.BranchOp(before, *term.operands), [])
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(block))
        rewriter.replace(op, [], list(continuation.args))


class IndexSwitchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter, /) -> None:
        block, continuation = _split_for_results(op, rewriter)
        case_blocks: list[Block] = []
        for region in op.case_regions:
            first = _inline_before(region, continuation, rewriter)
            _yields_to(first, continuation, continuation, rewriter)
            case_blocks.append(first)
        default = _inline_before(op.default_region, continuation, rewriter)
        _yields_to(default, continuation, continuation, rewriter)
        flag = arith.IndexCastOp(op.arg, i64)
        values = list(op.cases.get_values())
        switch = cf.SwitchOp(
            flag.result,
            default,
            (),
            DenseIntElementsAttr.from_list(VectorType(i64, (len(values),)), values) if values else None,
            case_blocks,
            [() for _ in case_blocks],
        )
        rewriter.insert([flag, switch], InsertPoint.at_end(block))
        rewriter.replace(op, [], list(continuation.args))


class ExecuteRegionLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /) -> None:
        block, continuation = _split_for_results(op, rewriter)
        first = _inline_before(op.region, continuation, rewriter)
        _yields_to(first, continuation, continuation, rewriter)
        rewriter.insert(cf.BranchOp(first), InsertPoint.at_end(block))
        rewriter.replace(op, [], list(continuation.args))


def scf_to_cf_patterns() -> list[RewritePattern]:
    return [WhileLowering(), IndexSwitchLowering(), ExecuteRegionLowering(), IfLowering(), ForLowering()]


class LowerScfToCfPass(ModulePass):
    """Lower scf.for/if/while/index_switch/execute_region to cf."""

    name = "lower-scf-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(scf_to_cf_patterns())).rewrite_module(op)


__all__ = ["LowerScfToCfPass", "scf_to_cf_patterns"]
