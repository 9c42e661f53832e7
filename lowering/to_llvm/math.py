"""`convert-math-to-llvm`: the `math` dialect to the `llvm` dialect.

* LLVM intrinsics (scalars or 1-D vectors): absf → `llvm.fabs`, sqrt, exp, exp2,
  log, log2, log10, sin, cos, floor, ceil, round, roundeven, trunc, copysign,
  powf → `llvm.pow`, fma, fpowi → `llvm.powi`, absi → `llvm.abs`, ctpop, ctlz,
  cttz (zero input defined: the bit width); rsqrt → `1 / llvm.sqrt`.
* libm calls (scalars; 1-D vectors lane by lane): tanh, tan, atan2, atan, asin, acos, sinh, cosh, asinh,
  acosh, atanh, log1p, expm1, cbrt, erf: `tanhf` for f32, `tanh` for f64; f16
  is computed in f32 (bf16 never gets here: `arith-emulate-unsupported-floats`
  widens it first, and `llvm_operands` rejects bf16 arithmetic).
* fast-math flags are carried over to the intrinsic calls.

In `lower-to-llvm`, `math-polynomial-approximation` has already expanded the f32,
f16 and bf16 transcendental ops into vectorizable code; what reaches this pass
there is f64 (libm and intrinsics, scalar) and the intrinsics it emits.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import llvm, math
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    VectorType,
    f32,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.to_llvm.arith import intrinsic_call, llvm_fastmath
from lowering.to_llvm.common import (
    ConversionPass,
    convert_type,
    ensure_function,
    int_constant,
    llvm_operands,
    replace_with_llvm,
    type_suffix,
)
from lowering.to_llvm.vector_compare import ExtractElementOp
from xla_dialect.diagnostics import LoweringError

FLOAT_INTRINSICS: dict[type[Operation], str] = {
    math.AbsFOp: "fabs",
    math.SqrtOp: "sqrt",
    math.ExpOp: "exp",
    math.Exp2Op: "exp2",
    math.LogOp: "log",
    math.Log2Op: "log2",
    math.Log10Op: "log10",
    math.SinOp: "sin",
    math.CosOp: "cos",
    math.FloorOp: "floor",
    math.CeilOp: "ceil",
    math.RoundOp: "round",
    math.RoundEvenOp: "roundeven",
    math.TruncOp: "trunc",
    math.CopySignOp: "copysign",
    math.PowFOp: "pow",
    math.FmaOp: "fma",
}

INT_INTRINSICS: dict[type[Operation], tuple[str, bool]] = {
    # name, whether it takes the i1 "poison on zero/INT_MIN" flag (false here)
    math.CtPopOp: ("ctpop", False),
    math.CountLeadingZerosOp: ("ctlz", True),
    math.CountTrailingZerosOp: ("cttz", True),
    math.AbsIOp: ("abs", True),
}

LIBM_FUNCTIONS: dict[type[Operation], str] = {
    math.TanhOp: "tanh",
    math.TanOp: "tan",
    math.Atan2Op: "atan2",
    math.AtanOp: "atan",
    math.AsinOp: "asin",
    math.AcosOp: "acos",
    math.SinhOp: "sinh",
    math.CoshOp: "cosh",
    math.AsinhOp: "asinh",
    math.AcoshOp: "acosh",
    math.AtanhOp: "atanh",
    math.Log1pOp: "log1p",
    math.ExpM1Op: "expm1",
    math.CbrtOp: "cbrt",
    math.ErfOp: "erf",
}


def _check_type(op: Operation, t: Attribute) -> None:
    if isinstance(t, VectorType) and (t.get_num_dims() != 1 or t.get_num_scalable_dims()):
        raise LoweringError(f"cannot lower '{op.name}' on {t} (1-D vectors only)", op)


def _float_intrinsic(op: Operation, t: Attribute, rewriter: PatternRewriter) -> None:
    args = llvm_operands(op.operands, rewriter, op)
    call = intrinsic_call(FLOAT_INTRINSICS[type(op)], args, convert_type(t), llvm_fastmath(op.properties.get("fastmath")))
    replace_with_llvm(op, [call], [call.results[0]], rewriter)


def _int_intrinsic(op: Operation, t: Attribute, rewriter: PatternRewriter) -> None:
    name, has_flag = INT_INTRINSICS[type(op)]
    args = llvm_operands(op.operands, rewriter, op)
    ops: list[Operation] = []
    if has_flag:
        flag = int_constant(0, i1)
        ops.append(flag)
        args.append(flag.result)
    call = intrinsic_call(name, args, convert_type(t))
    replace_with_llvm(op, [*ops, call], [call.results[0]], rewriter)


def _fpowi(op: Operation, t: Attribute, rewriter: PatternRewriter) -> None:
    base, exponent = llvm_operands(op.operands, rewriter, op)
    rt = convert_type(t)
    name = f"llvm.powi.{type_suffix(rt)}.{type_suffix(exponent.type)}"
    call = llvm.CallIntrinsicOp(name, [base, exponent], [rt])
    fm = llvm_fastmath(op.properties.get("fastmath"))
    if fm.data:
        call.properties["fastmathFlags"] = fm
    replace_with_llvm(op, [call], [call.results[0]], rewriter)


def _rsqrt(op: Operation, t: Attribute, rewriter: PatternRewriter) -> None:
    (x,) = llvm_operands(op.operands, rewriter, op)
    rt = convert_type(t)
    fm = llvm_fastmath(op.properties.get("fastmath"))
    sqrt = intrinsic_call("sqrt", [x], rt, fm)
    scalar = rt.element_type if isinstance(rt, VectorType) else rt
    if isinstance(rt, VectorType):
        from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

        one = llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(rt, [1.0] * rt.get_shape()[0]), rt)  # type: ignore[arg-type]
    else:
        one = llvm.ConstantOp(FloatAttr(1.0, scalar), rt)  # type: ignore[arg-type]
    div = llvm.FDivOp(one.result, sqrt.results[0], fm)
    replace_with_llvm(op, [sqrt, one, div], [div.res], rewriter)


_INTRINSIC_LOWERINGS: dict[type[Operation], Callable[[Operation, Attribute, PatternRewriter], None]] = {
    **dict.fromkeys(FLOAT_INTRINSICS, _float_intrinsic),
    **dict.fromkeys(INT_INTRINSICS, _int_intrinsic),
    math.FPowIOp: _fpowi,
    math.RsqrtOp: _rsqrt,
}
"""How each `math` op LLVM has an intrinsic for is lowered: the one table that both
dispatches and declares the pattern's op types."""


class MathIntrinsicLowering(RewritePattern):
    op_types = tuple(_INTRINSIC_LOWERINGS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        lowering = _INTRINSIC_LOWERINGS.get(type(op))
        if lowering is None or not op.results:
            return
        t = op.results[0].type
        _check_type(op, t)
        lowering(op, t, rewriter)


MAX_UNROLLED_LANES = 64
"""A libm call on a vector is unrolled into one call per lane up to this many lanes."""


class MathLibmLowering(RewritePattern):
    op_types = tuple(LIBM_FUNCTIONS)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        base = LIBM_FUNCTIONS.get(type(op))
        if base is None:
            return
        t = op.results[0].type
        args = llvm_operands(op.operands, rewriter, op)
        if isinstance(t, VectorType):  # lane by lane
            _check_type(op, t)
            lanes = t.get_shape()[0]
            if lanes > MAX_UNROLLED_LANES:
                raise LoweringError(f"cannot lower '{op.name}' on {t}: libm calls are scalar, "
                                    f"and more than {MAX_UNROLLED_LANES} lanes are not unrolled", op)
            vector = llvm.UndefOp(convert_type(t))
            ops: list[Operation] = [vector]
            result = vector.res
            for lane in range(lanes):
                index = int_constant(lane)
                extracts = [ExtractElementOp(a, index.result) for a in args]
                lane_ops, value = _libm_call(op, base, t.element_type, [e.res for e in extracts], rewriter)
                insert = llvm.InsertElementOp(result, value, index.result)
                ops += [index, *extracts, *lane_ops, insert]
                result = insert.res
            replace_with_llvm(op, ops, [result], rewriter)
            return
        ops, result = _libm_call(op, base, t, args, rewriter)
        replace_with_llvm(op, ops, [result], rewriter)


def _libm_call(
    op: Operation, base: str, t: Attribute, args: list[SSAValue], rewriter: PatternRewriter
) -> tuple[list[Operation], SSAValue]:
    """The scalar libm call `base` (`base` + "f" for f32; f16 through f32) on `args`."""
    ops: list[Operation] = []
    if isinstance(t, Float32Type):
        name, ct = base + "f", t
    elif isinstance(t, Float64Type):
        name, ct = base, t
    elif isinstance(t, Float16Type):
        name, ct = base + "f", f32
        widened: list[SSAValue] = []
        for a in args:
            ext = llvm.FPExtOp(a, f32)
            ops.append(ext)
            widened.append(ext.result)
        args = widened
    else:
        raise LoweringError(f"cannot lower '{op.name}' on {t}", op)
    ensure_function(op, name, [ct] * len(args), ct, rewriter)
    call = llvm.CallOp(name, *args, return_type=ct)
    ops.append(call)
    result = call.returned
    assert result is not None
    if ct != t:
        trunc = llvm.FPTruncOp(result, t)
        ops.append(trunc)
        result = trunc.result
    return ops, result


def math_patterns() -> list[RewritePattern]:
    return [MathIntrinsicLowering(), MathLibmLowering()]


class ConvertMathToLLVMPass(ConversionPass):
    """Lower `math` to LLVM intrinsics and libm calls."""

    name = "convert-math-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return math_patterns()


__all__ = ["ConvertMathToLLVMPass", "math_patterns"]
