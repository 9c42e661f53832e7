"""`convert-arith-to-llvm`: the `arith` dialect to the `llvm` dialect.

Integer/float arithmetic maps to the LLVM instruction of the same meaning (with
the overflow and fast-math flags carried over); `minimumf`/`maximumf`/`minnumf`/
`maxnumf` and `min*i`/`max*i` map to the `llvm.minimum`/`llvm.maximum`/
`llvm.minnum`/`llvm.maxnum`/`llvm.smin`/... intrinsics; `ceildivsi`,
`ceildivui` and `floordivsi` are expanded; `index` is `i64`. Division and
remainder are the plain LLVM instructions (division by zero and signed overflow
are undefined behaviour there: guard them before lowering).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.to_llvm.index import index_cast
from lowering.to_llvm.common import (
    ConversionPass,
    FPToSIOp,
    FPToUIOp,
    LoweringError,
    UIToFPOp,
    convert_type,
    int_constant,
    llvm_operands,
    normalize_int,
    replace_with_llvm,
    type_suffix,
)


def llvm_fastmath(attr: Attribute | None) -> llvm.FastMathAttr:
    """The `llvm.fastmath` flags of an `arith.fastmath` attribute."""
    flags = tuple(getattr(attr, "data", ()) or ())
    if not flags:
        return llvm.FastMathAttr(None)
    return llvm.FastMathAttr(flags)


def _overflow(op: Operation) -> llvm.OverflowAttr:
    flags = op.properties.get("overflowFlags")
    data = tuple(getattr(flags, "data", ()) or ())
    names = {str(getattr(f, "value", f)) for f in data}
    result = 0
    if "nsw" in names:
        result |= 1
    if "nuw" in names:
        result |= 2
    return llvm.OverflowAttr.from_int(result)


def intrinsic_call(name: str, args: Sequence[SSAValue], result_type: Attribute, fastmath: llvm.FastMathAttr | None = None) -> llvm.CallIntrinsicOp:
    """`llvm.call_intrinsic "llvm.<name>.<suffix>"` overloaded on `result_type`."""
    call = llvm.CallIntrinsicOp(f"llvm.{name}.{type_suffix(result_type)}", args, [result_type])
    if fastmath is not None and fastmath.data:
        call.properties["fastmathFlags"] = fastmath
    return call


# ---------------------------------------------------------------------------
# Handlers: (op, converted operands, converted result type) -> (ops, result)
# ---------------------------------------------------------------------------

Built = tuple[list[Operation], SSAValue]
Handler = Callable[[Operation, list[SSAValue], Attribute], Built]


def _single(op: Operation) -> Built:
    return [op], op.results[0]


def _int_overflow_binop(cls: type[Operation]) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        return _single(cls(args[0], args[1], overflow=_overflow(op)))  # type: ignore[call-arg]

    return build


def _int_binop(cls: type[Operation]) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        return _single(cls(args[0], args[1]))  # type: ignore[call-arg]

    return build


def _float_binop(cls: type[Operation]) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        return _single(cls(args[0], args[1], llvm_fastmath(op.properties.get("fastmath"))))  # type: ignore[call-arg]

    return build


def _intrinsic(name: str, *, float_op: bool = False) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        fm = llvm_fastmath(op.properties.get("fastmath")) if float_op else None
        return _single(intrinsic_call(name, args, t, fm))

    return build


def _cast(cls: type[Operation]) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        return _single(cls(args[0], t))  # type: ignore[call-arg]

    return build


def _negf(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _single(llvm.FNegOp(args[0], llvm_fastmath(op.properties.get("fastmath"))))


def _select(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _single(llvm.SelectOp(args[0], args[1], args[2]))


def _cmpi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    assert isinstance(op, arith.CmpiOp)
    predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    flag = llvm.ICmpPredicateFlag(predicate)
    return _single(llvm.ICmpOp(args[0], args[1], IntegerAttr(flag.to_int(), 64)))


def _cmpf(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    assert isinstance(op, arith.CmpfOp)
    predicate = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    if predicate in ("false", "true"):
        value = 1 if predicate == "true" else 0
        if isinstance(t, VectorType):
            const = llvm.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(t, [value] * t.get_shape()[0]), t  # type: ignore[arg-type]
            )
            return _single(const)
        return _single(int_constant(value, i1))
    cmp = llvm.FCmpOp(args[0], args[1], predicate)
    fm = llvm_fastmath(op.properties.get("fastmath"))
    if fm.data:
        cmp.properties["fastmathFlags"] = fm
    return _single(cmp)


def _bitcast(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    if args[0].type == t:
        return [], args[0]
    return _single(llvm.BitcastOp(args[0], t))


def _constant(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    assert isinstance(op, arith.ConstantOp)
    value = op.value
    if isinstance(value, IntegerAttr):
        assert isinstance(t, IntegerType)
        value = IntegerAttr(normalize_int(value.value.data, t.width.data), t)
    elif isinstance(value, FloatAttr):
        pass
    elif isinstance(value, DenseIntOrFPElementsAttr):
        if not isinstance(t, VectorType):
            raise LoweringError(f"cannot lower a constant of type {op.result.type}", op)
        if value.type != t:
            value = DenseIntOrFPElementsAttr.from_list(t, list(value.get_values()))  # type: ignore[arg-type]
    else:
        raise LoweringError(f"cannot lower constant {value}", op)
    return _single(llvm.ConstantOp(value, t))


# ceil/floor divisions, expanded as MLIR's arith-expand does -------------------


def _ceildivui(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    # a == 0 ? 0 : (a - 1) / b + 1
    a, b = args
    zero, one = int_constant(0, t), int_constant(1, t)
    is_zero = llvm.ICmpOp(a, zero.result, IntegerAttr(llvm.ICmpPredicateFlag.EQ.to_int(), 64))
    minus = llvm.SubOp(a, one.result)
    quot = llvm.UDivOp(minus.res, b)
    plus = llvm.AddOp(quot.res, one.result)
    sel = llvm.SelectOp(is_zero.res, zero.result, plus.res)
    return [zero, one, is_zero, minus, quot, plus, sel], sel.res


def _signed_div_adjust(args: list[SSAValue], t: Attribute, *, ceil: bool) -> Built:
    # q = a / b; r = a - q * b; adjust when r != 0 and the signs of a and b
    # agree (ceil: q + 1) or differ (floor: q - 1).
    a, b = args
    pred = lambda name: IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), 64)  # noqa: E731
    zero, one = int_constant(0, t), int_constant(1, t)
    quot = llvm.SDivOp(a, b)
    prod = llvm.MulOp(quot.res, b)
    rem = llvm.SubOp(a, prod.res)
    rem_nonzero = llvm.ICmpOp(rem.res, zero.result, pred("ne"))
    a_neg = llvm.ICmpOp(a, zero.result, pred("slt"))
    b_neg = llvm.ICmpOp(b, zero.result, pred("slt"))
    signs = llvm.ICmpOp(a_neg.res, b_neg.res, pred("eq" if ceil else "ne"))
    adjust = llvm.AndOp(rem_nonzero.res, signs.res)
    moved = (llvm.AddOp if ceil else llvm.SubOp)(quot.res, one.result)
    sel = llvm.SelectOp(adjust.res, moved.res, quot.res)
    ops: list[Operation] = [zero, one, quot, prod, rem, rem_nonzero, a_neg, b_neg, signs, adjust, moved, sel]
    return ops, sel.res


def _ceildivsi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _signed_div_adjust(args, t, ceil=True)


def _floordivsi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _signed_div_adjust(args, t, ceil=False)


HANDLERS: dict[type[Operation], Handler] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _int_overflow_binop(llvm.AddOp),
    arith.SubiOp: _int_overflow_binop(llvm.SubOp),
    arith.MuliOp: _int_overflow_binop(llvm.MulOp),
    arith.ShLIOp: _int_overflow_binop(llvm.ShlOp),
    arith.DivSIOp: _int_binop(llvm.SDivOp),
    arith.DivUIOp: _int_binop(llvm.UDivOp),
    arith.RemSIOp: _int_binop(llvm.SRemOp),
    arith.RemUIOp: _int_binop(llvm.URemOp),
    arith.AndIOp: _int_binop(llvm.AndOp),
    arith.OrIOp: _int_binop(llvm.OrOp),
    arith.XOrIOp: _int_binop(llvm.XOrOp),
    arith.ShRSIOp: _int_binop(llvm.AShrOp),
    arith.ShRUIOp: _int_binop(llvm.LShrOp),
    arith.CeilDivUIOp: _ceildivui,
    arith.CeilDivSIOp: _ceildivsi,
    arith.FloorDivSIOp: _floordivsi,
    arith.MinSIOp: _intrinsic("smin"),
    arith.MaxSIOp: _intrinsic("smax"),
    arith.MinUIOp: _intrinsic("umin"),
    arith.MaxUIOp: _intrinsic("umax"),
    arith.AddfOp: _float_binop(llvm.FAddOp),
    arith.SubfOp: _float_binop(llvm.FSubOp),
    arith.MulfOp: _float_binop(llvm.FMulOp),
    arith.DivfOp: _float_binop(llvm.FDivOp),
    arith.NegfOp: _negf,
    arith.MinimumfOp: _intrinsic("minimum", float_op=True),
    arith.MaximumfOp: _intrinsic("maximum", float_op=True),
    arith.MinnumfOp: _intrinsic("minnum", float_op=True),
    arith.MaxnumfOp: _intrinsic("maxnum", float_op=True),
    arith.CmpiOp: _cmpi,
    arith.CmpfOp: _cmpf,
    arith.SelectOp: _select,
    arith.ExtSIOp: _cast(llvm.SExtOp),
    arith.ExtUIOp: _cast(llvm.ZExtOp),
    arith.TruncIOp: _cast(llvm.TruncOp),
    arith.SIToFPOp: _cast(llvm.SIToFPOp),
    arith.UIToFPOp: _cast(UIToFPOp),
    arith.FPToSIOp: _cast(FPToSIOp),
    arith.FPToUIOp: _cast(FPToUIOp),
    arith.ExtFOp: _cast(llvm.FPExtOp),
    arith.TruncFOp: _cast(llvm.FPTruncOp),
    arith.BitcastOp: _bitcast,
    arith.IndexCastOp: index_cast,
}
if hasattr(arith, "RemFOp"):  # not in every xDSL version
    HANDLERS[arith.RemFOp] = _float_binop(llvm.FRemOp)  # type: ignore[attr-defined]


class ConvertArithOp(RewritePattern):
    """Rewrites each `arith` op of `handlers` to llvm ops."""

    def __init__(self, handlers: dict[type[Operation], Handler] | None = None):
        self.handlers = HANDLERS if handlers is None else handlers

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        handler = self.handlers.get(type(op))
        if handler is None:
            return
        for operand in op.operands:
            if not _is_lowerable(operand.type):
                raise LoweringError(f"cannot lower '{op.name}' on {operand.type} to LLVM", op)
        result_type = convert_type(op.results[0].type)
        if not _is_lowerable(op.results[0].type):
            raise LoweringError(f"cannot lower '{op.name}' producing {op.results[0].type} to LLVM", op)
        args = llvm_operands(op.operands, rewriter, op)
        new_ops, result = handler(op, args, result_type)
        replace_with_llvm(op, new_ops, [result], rewriter)


def _is_lowerable(t: Attribute) -> bool:
    if isinstance(t, VectorType):
        return t.get_num_dims() == 1 and not t.get_num_scalable_dims() and _is_lowerable(t.element_type)
    return isinstance(t, (IntegerType, IndexType, AnyFloat))


def arith_patterns() -> list[RewritePattern]:
    return [ConvertArithOp()]


class ConvertArithToLLVMPass(ConversionPass):
    """Lower `arith` to `llvm` (`index` → i64)."""

    name = "convert-arith-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return arith_patterns()


__all__ = ["ConvertArithOp", "ConvertArithToLLVMPass", "arith_patterns", "intrinsic_call", "llvm_fastmath"]
