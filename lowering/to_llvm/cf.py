"""`convert-cf-to-llvm`: the `cf` dialect to the `llvm` dialect.

`cf.br`/`cf.cond_br`/`cf.switch` become `llvm.br`/`llvm.cond_br`/`llvm.switch`
(an `index` switch flag becomes i64), and the arguments of the blocks they branch
to get converted types (index → i64, memref → !llvm.ptr). `cf.assert` becomes a
branch to a block calling `llvm.trap`.
"""

from __future__ import annotations

from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import DenseIntElementsAttr, ModuleOp, VectorType
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from lowering.loop_annotation import copy_loop_annotation
from lowering.to_llvm.common import (
    ConversionPass,
    SwitchOp,
    convert_all_block_arguments,
    convert_block_arguments,
    llvm_operand,
    llvm_operands,
)


class BranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter, /) -> None:
        args = llvm_operands(op.arguments, rewriter, op)
        branch = llvm.BrOp(op.successor, *args)
        copy_loop_annotation(op, branch)
        rewriter.replace(op, branch)


class CondBranchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter, /) -> None:
        cond = llvm_operand(op.cond, rewriter, op)
        then_args = llvm_operands(op.then_arguments, rewriter, op)
        else_args = llvm_operands(op.else_arguments, rewriter, op)
        rewriter.replace(
            op, llvm.CondBrOp(cond, op.then_block, then_args, op.else_block, else_args)
        )


class SwitchLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter, /) -> None:
        flag = llvm_operand(op.flag, rewriter, op)
        default_args = llvm_operands(op.default_operands, rewriter, op)
        case_args = [llvm_operands(group, rewriter, op) for group in op.case_operand]
        values = None
        if op.case_values is not None:
            raw = [int(v) for v in op.case_values.get_values()]
            values = DenseIntElementsAttr.from_list(VectorType(flag.type, (len(raw),)), raw)
        rewriter.replace(
            op,
            SwitchOp(flag, op.default_block, default_args, values, list(op.case_blocks), case_args),
        )


class AssertLowering(RewritePattern):
    """`cf.assert %c` → `llvm.cond_br %c, ^continue, ^failed` with `^failed` trapping."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter, /) -> None:
        block = op.parent_block()
        region = block.parent if block is not None else None
        if block is None or region is None:
            return
        cond = llvm_operand(op.arg, rewriter, op)
        continuation = block.split_before(op)
        failed = Block()
        region.insert_block_after(failed, block)
        rewriter.insert(llvm.CallIntrinsicOp("llvm.trap", [], []), InsertPoint.at_end(failed))
        rewriter.insert(llvm.UnreachableOp(), InsertPoint.at_end(failed))
        rewriter.insert(llvm.CondBrOp(cond, continuation, [], failed, []), InsertPoint.at_end(block))
        rewriter.erase(op)


class SuccessorArgumentsLowering(RewritePattern):
    """Gives the blocks a terminator branches to their converted argument types."""

    op_types = (cf.BranchOp, cf.ConditionalBranchOp, cf.SwitchOp, llvm.BrOp, llvm.CondBrOp, SwitchOp)
    """The ops with successors that reach `convert-to-llvm` (the dispatcher tries the
    pattern on these only: on every op it was a tenth of the pass's calls)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for successor in op.successors:
            convert_block_arguments(successor, rewriter)


def cf_patterns() -> list[RewritePattern]:
    return [
        BranchLowering(),
        CondBranchLowering(),
        SwitchLowering(),
        AssertLowering(),
        SuccessorArgumentsLowering(),
    ]


class ConvertCfToLLVMPass(ConversionPass):
    """Lower `cf` to `llvm` and convert the types of block arguments."""

    name = "convert-cf-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return cf_patterns()

    def finalize(self, module: ModuleOp) -> None:
        convert_all_block_arguments(module)


__all__ = ["ConvertCfToLLVMPass", "cf_patterns"]
