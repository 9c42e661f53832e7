"""`convert-func-to-llvm`: the `func` dialect to the `llvm` dialect.

Calling convention: a memref argument or result is a bare `!llvm.ptr` to the
element `[0, ..., 0]` of the view; `index` is i64; other scalars keep their
types. A function has no result or one result; more are rejected (return them
through out-parameters). Every function gets external linkage (it can be looked
up in the JIT) unless it carries an `llvm.linkage` attribute (a string or an
`#llvm.linkage<...>`). Argument attributes named `llvm.*` (e.g. `llvm.noalias`)
are kept; a `llvm.no_inline` attribute makes the function `noinline`, and
`llvm.optsize` (`func-optsize-small-kernels`) gives it `passthrough = ["optsize"]`.
"""

from __future__ import annotations

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, UnitAttr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from lowering.to_llvm.common import (
    ConversionPass,
    convert_block_arguments,
    convert_function_type,
    convert_type,
    llvm_operands,
    replace_with_llvm,
)
from xla_dialect.diagnostics import LoweringError

_OPTSIZE = ArrayAttr([StringAttr("optsize")])


class FuncLowering(RewritePattern):
    """`glue`: also lower the function's allocations, frees and calls at once
    (`lowering/to_llvm/glue.py`; `convert-to-llvm` only, whose patterns lower the rest)."""

    def __init__(self, glue: bool = False) -> None:
        self.glue = glue

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter, /) -> None:
        ft = convert_function_type(op.function_type, op)
        linkage_attr = op.attributes.get("llvm.linkage")
        if isinstance(linkage_attr, llvm.LinkageAttr):
            linkage = linkage_attr
        elif isinstance(linkage_attr, StringAttr):
            linkage = llvm.LinkageAttr(linkage_attr.data)
        else:
            linkage = llvm.LinkageAttr("external")
        other: dict[str, object] = {}
        if op.arg_attrs is not None:
            kept = [
                DictionaryAttr({k: v for k, v in d.data.items() if k.startswith("llvm.")})
                for d in op.arg_attrs.data
            ]
            if any(d.data for d in kept):
                other["arg_attrs"] = ArrayAttr(kept)
        if "llvm.no_inline" in op.attributes:
            other["no_inline"] = UnitAttr()
        if "llvm.optsize" in op.attributes:
            other["passthrough"] = _OPTSIZE
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = llvm.FuncOp(
            op.sym_name.data,
            ft,
            linkage=linkage,
            body=body,
            other_props=other,  # type: ignore[arg-type]
        )
        if body.blocks:
            convert_block_arguments(body.blocks.first, rewriter)  # type: ignore[arg-type]
        rewriter.replace(op, new, [])
        if self.glue:
            from lowering.to_llvm.glue import lower_glue

            lower_glue(new.body, rewriter)


class CallLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter, /) -> None:
        if len(op.res) > 1:
            raise LoweringError(
                f"calls with {len(op.res)} results cannot be lowered to LLVM (0 or 1 only)", op
            )
        args = llvm_operands(op.arguments, rewriter, op)
        result_type = convert_type(op.res[0].type) if op.res else None
        call = llvm.CallOp(op.callee, *args, return_type=result_type)
        replace_with_llvm(op, [call], list(call.results), rewriter)


class ReturnLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter, /) -> None:
        if len(op.arguments) > 1:
            raise LoweringError(
                f"returning {len(op.arguments)} values cannot be lowered to LLVM (0 or 1 only)", op
            )
        args = llvm_operands(op.arguments, rewriter, op)
        rewriter.replace(op, llvm.ReturnOp(args[0] if args else None), [])


def func_patterns(glue: bool = False) -> list[RewritePattern]:
    """`glue`: `FuncLowering` lowers each function's allocations, frees and calls too
    (for `convert-to-llvm`, whose memref patterns would lower them otherwise)."""
    return [FuncLowering(glue), CallLowering(), ReturnLowering()]


class ConvertFuncToLLVMPass(ConversionPass):
    """Lower `func.func`/`func.call`/`func.return` to `llvm.func`/`llvm.call`/`llvm.return`."""

    name = "convert-func-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return func_patterns()


__all__ = ["ConvertFuncToLLVMPass", "func_patterns"]
