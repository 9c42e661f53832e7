"""`convert-index-to-llvm`: the `index` type to `i64`.

xDSL 0.74 has no `index` dialect; what touches `index` at the LLVM boundary is
`arith.index_cast` (sign-extending or truncating between `index` = i64 and iN),
lowered here, and `index`-typed block arguments/constants/arithmetic, which the
other conversions handle through `common.convert_type` (index → i64). This pass
lowers `arith.index_cast` alone; `convert-arith-to-llvm` includes it.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from lowering.to_llvm.common import (
    ConversionPass,
    bitwidth,
    convert_type,
    llvm_operands,
    replace_with_llvm,
)


def index_cast(op: Operation, args: list[SSAValue], t: Attribute) -> tuple[list[Operation], SSAValue]:
    """`arith.index_cast` (sign-extending/truncating; `index_castui`: zero-extending)
    on converted operands: (new ops, result)."""
    src_width = bitwidth(args[0].type)
    dst_width = bitwidth(t)
    if src_width == dst_width:
        return [], args[0]
    if src_width > dst_width:
        new: Operation = llvm.TruncOp(args[0], t)
    elif op.name.endswith("ui"):
        new = llvm.ZExtOp(args[0], t)
    else:
        new = llvm.SExtOp(args[0], t)
    return [new], new.results[0]


class IndexCastLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter, /) -> None:
        args = llvm_operands(op.operands, rewriter, op)
        new_ops, result = index_cast(op, args, convert_type(op.result.type))
        replace_with_llvm(op, new_ops, [result], rewriter)


def index_patterns() -> list[RewritePattern]:
    return [IndexCastLowering()]


class ConvertIndexToLLVMPass(ConversionPass):
    """Lower `arith.index_cast` to llvm (index = i64)."""

    name = "convert-index-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return index_patterns()


__all__ = ["ConvertIndexToLLVMPass", "IndexCastLowering", "index_cast", "index_patterns"]
