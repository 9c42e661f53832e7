"""`lower-scf-to-cf`: structured control flow to unstructured control flow.

`scf.for` and `scf.if` are lowered as xDSL's `convert-scf-to-cf` lowers them, and:

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

Linear in the size of the module: the ops are lowered innermost first and, within a
block, last first, so that splitting a block before an op moves only the ops up to
the next (already lowered) one; a split inserts the new block beside the old one
(xDSL's `Block.split_before` looks the block up in the region's block list, which
made the pass quadratic in the number of loops of a function).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import DenseIntElementsAttr, ModuleOp, VectorType, i64
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.traits import IsTerminator

from lowering.loop_annotation import copy_loop_annotation


def split_block_before(op: Operation, arg_types: Iterable[Attribute] = ()) -> Block:
    """Move `op` and the ops after it in its block into a new block (with arguments
    of `arg_types`) placed right after that block, and return the new block. Costs
    the number of ops moved: no search of the region's block list."""
    block = op.parent_block()
    assert block is not None
    region = block.parent_region()
    assert region is not None
    continuation = Block(arg_types=arg_types)
    region.insert_block_after(continuation, block)
    current: Operation | None = op
    while current is not None:
        following = current.next_op
        current.detach()
        continuation.add_op(current)
        current = following
    return continuation


def _split_for_results(op: Operation, rewriter: PatternRewriter) -> tuple[Block, Block]:
    """Split `op`'s block before `op`; the continuation block gets one argument per
    result of `op`. Returns (block before, continuation)."""
    block = op.parent_block()
    assert block is not None
    return block, split_block_before(op, op.result_types)


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


class IfLowering(RewritePattern):
    """`scf.if` → `cf.cond_br` to the then and else blocks, which branch to the
    continuation with their yielded values (as xDSL's lowering)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        block = op.parent_block()
        assert block is not None
        remaining = split_block_before(op)
        if op.results:
            continuation = Block(arg_types=op.result_types)
            region = block.parent_region()
            assert region is not None
            region.insert_block_before(continuation, remaining)
            rewriter.insert(cf.BranchOp(remaining), InsertPoint.at_end(continuation))
        else:
            continuation = remaining
        then_block = self._inline_branch(op.true_region, continuation, rewriter)
        else_block = self._inline_branch(op.false_region, continuation, rewriter) or continuation
        assert then_block is not None
        rewriter.insert(
            cf.ConditionalBranchOp(op.cond, then_block, (), else_block, ()), InsertPoint.at_end(block)
        )
        rewriter.replace(op, [], list(continuation.args))

    @staticmethod
    def _inline_branch(region: Region, continuation: Block, rewriter: PatternRewriter) -> Block | None:
        first, last = region.first_block, region.last_block
        if first is None or last is None:
            return None
        terminator = last.last_op
        assert terminator is not None
        rewriter.insert(cf.BranchOp(continuation, *terminator.operands), InsertPoint.at_end(last))
        rewriter.erase(terminator)
        rewriter.inline_region(region, BlockInsertPoint.before(continuation))
        return first


class ForLowering(RewritePattern):
    """`scf.for` → a header block (induction variable and carried values as
    arguments) comparing with the upper bound, the body, a latch stepping the
    variable (as xDSL's lowering)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /) -> None:
        init_block = op.parent_block()
        assert init_block is not None
        end_block = split_block_before(op)
        header = op.body.first_block
        assert header is not None and header.first_op is not None
        first_body_block = split_block_before(header.first_op)
        last_body_block = op.body.last_block
        assert last_body_block is not None
        rewriter.inline_region(op.body, BlockInsertPoint.before(end_block))
        iv = header.args[0]
        terminator = last_body_block.last_op
        assert terminator is not None and terminator.has_trait(IsTerminator)
        stepped = arith.AddiOp(iv, op.step)
        rewriter.insert(stepped, InsertPoint.before(terminator))
        latch = cf.BranchOp(header, stepped, *terminator.operands)
        copy_loop_annotation(op, latch)  # LLVM reads loop hints from the branch back to the header
        rewriter.replace(terminator, latch)
        rewriter.insert(cf.BranchOp(header, op.lb, *op.iter_args), InsertPoint.at_end(init_block))
        comparison = arith.CmpiOp(iv, op.ub, "slt")
        rewriter.insert(comparison, InsertPoint.at_end(header))
        rewriter.insert(
            cf.ConditionalBranchOp(comparison, first_body_block, (), end_block, ()), InsertPoint.at_end(header)
        )
        rewriter.replace(op, [], list(header.args[1:]))


_LOWERED = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.IndexSwitchOp, scf.ExecuteRegionOp)


def scf_to_cf_patterns() -> list[RewritePattern]:
    return [WhileLowering(), IndexSwitchLowering(), ExecuteRegionLowering(), IfLowering(), ForLowering()]


def lower_scf_to_cf(root: Operation) -> None:
    """Lower every scf op under `root`: innermost first, and within a block last
    first (reversed pre-order), each once."""
    patterns = scf_to_cf_patterns()
    targets = [op for op in root.walk() if isinstance(op, _LOWERED)]
    for op in reversed(targets):
        rewriter = PatternRewriter(op)
        for pattern in patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                break


class LowerScfToCfPass(ModulePass):
    """Lower scf.for/if/while/index_switch/execute_region to cf."""

    name = "lower-scf-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_scf_to_cf(op)


__all__ = ["LowerScfToCfPass", "lower_scf_to_cf", "scf_to_cf_patterns", "split_block_before"]
