"""`convert-arith-to-llvm`: the `arith` dialect to the `llvm` dialect.

Integer/float arithmetic maps to the LLVM instruction of the same meaning (with
the overflow and fast-math flags carried over); `minimumf`/`maximumf`/`minnumf`/
`maxnumf` and `min*i`/`max*i` map to the `llvm.minimum`/`llvm.maximum`/
`llvm.minnum`/`llvm.maxnum`/`llvm.smin`/... intrinsics; `ceildivsi`,
`ceildivui` and `floordivsi` are expanded; `index` is `i64`. Division and
remainder are the plain LLVM instructions (division by zero and signed overflow
are undefined behaviour there: guard them before lowering).

bf16 is carried as its i16 bit pattern (llvmlite has no bfloat type): constants
become their bits, `select` and `bitcast` move the bits, `extf` from bf16 is
`zext`/`shl 16`/`bitcast` (then `fpext` to f64), `truncf` to bf16 rounds to
nearest even on the f32 bits (NaN → a quiet NaN keeping the sign; from f64 the
value is first rounded to odd in f32, so it is rounded once; on vectors too, with
the vector `llvm.select` of `vector_compare`). Any other arith op on bf16 is an
error asking for `arith-emulate-unsupported-floats`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.to_llvm import builders
from lowering.to_llvm.common import (
    BF16_BIT_OPS,
    BF16_STORAGE_TYPE,
    ConversionPass,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    bf16_arithmetic_error,
    bf16_bits,
    convert_type,
    element_type,
    float_constant,
    int_constant,
    is_bf16,
    is_narrow_float,
    llvm_operands,
    normalize_int,
    replace_with_llvm,
    type_suffix,
)
from lowering.to_llvm.index import index_cast
from lowering.to_llvm.vector_compare import FCmpOp, SelectOp
from xla_dialect.diagnostics import LoweringError
from xla_dialect.xdsl_compat import float_bits


def llvm_fastmath(attr: Attribute | None) -> llvm.FastMathAttr:
    """The `llvm.fastmath` flags of an `arith.fastmath` attribute."""
    flags = tuple(getattr(attr, "data", ()) or ())
    if not flags:
        return llvm.FastMathAttr(None)
    return llvm.FastMathAttr(flags)


def _overflow(op: Operation) -> int:
    """The op's overflow flags as LLVM's integer (`llvm.OverflowAttr.to_int`)."""
    flags = op.properties.get("overflowFlags")
    data = tuple(getattr(flags, "data", ()) or ())
    names = {str(getattr(f, "value", f)) for f in data}
    result = 0
    if "nsw" in names:
        result |= 1
    if "nuw" in names:
        result |= 2
    return result


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


def _int_overflow_binop(cls: type[llvm.ArithmeticBinOpOverflow]) -> Handler:
    def build(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
        return _single(builders.overflow_binop(cls, args[0], args[1], _overflow(op)))

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
    return _single(SelectOp(args[0], args[1], args[2]))


def _cmpi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    assert isinstance(op, arith.CmpiOp)
    predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    return _single(_compare_of(builders.icmp(args[0], args[1], predicate), t))


def _compare_of(cmp: Operation, t: Attribute) -> Operation:
    """`cmp` with result type `t`: xDSL's builders type a comparison `i1` even on
    vectors, where it is a vector of `i1`."""
    if cmp.results[0].type == t:
        return cmp
    typed = type(cmp).create(operands=list(cmp.operands), result_types=[t], properties=dict(cmp.properties))
    cmp.drop_all_references()
    return typed


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
    cmp = _compare_of(FCmpOp(args[0], args[1], predicate), t)
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
    if is_bf16(op.result.type):  # the bit patterns, as i16
        if isinstance(value, FloatAttr):
            return _single(int_constant(float_bits(value.value.data, value.type), BF16_STORAGE_TYPE))
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(t, VectorType):
            bits = [normalize_int(bf16_bits(v), 16) for v in value.get_values()]  # type: ignore[arg-type]
            return _single(llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, bits), t))  # type: ignore[arg-type]
        raise LoweringError(f"cannot lower constant {value}", op)
    if is_narrow_float(op.result.type):  # f8/f6/f4: the bit pattern, as i8
        if isinstance(value, FloatAttr):
            return _single(float_constant(value.value.data, op.result.type))
        raise LoweringError(f"cannot lower constant {value}", op)
    if isinstance(value, IntegerAttr):
        assert isinstance(t, IntegerType)
        value = IntegerAttr(normalize_int(value.value.data, t.width.data), t)
    elif isinstance(value, FloatAttr):
        if math.isnan(value.value.data) and isinstance(t, Float32Type | Float16Type):
            # LLVM IR spells an f32 constant as the f64 it widens to, and llvmlite narrows
            # it through a C float first, which quiets a signalling NaN: use its bits
            bits = int_constant(float_bits(value.value.data, t), IntegerType(t.bitwidth))
            cast = llvm.BitcastOp(bits.result, t)
            return [bits, cast], cast.result
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
    is_zero = builders.icmp(a, zero.result, "eq")
    minus = llvm.SubOp(a, one.result)
    quot = llvm.UDivOp(minus.res, b)
    plus = llvm.AddOp(quot.res, one.result)
    sel = SelectOp(is_zero.res, zero.result, plus.res)
    return [zero, one, is_zero, minus, quot, plus, sel], sel.res


def _signed_div_adjust(args: list[SSAValue], t: Attribute, *, ceil: bool) -> Built:
    # q = a / b; r = a - q * b; adjust when r != 0 and the signs of a and b
    # agree (ceil: q + 1) or differ (floor: q - 1).
    a, b = args
    zero, one = int_constant(0, t), int_constant(1, t)
    quot = llvm.SDivOp(a, b)
    prod = llvm.MulOp(quot.res, b)
    rem = llvm.SubOp(a, prod.res)
    rem_nonzero = builders.icmp(rem.res, zero.result, "ne")
    a_neg = builders.icmp(a, zero.result, "slt")
    b_neg = builders.icmp(b, zero.result, "slt")
    signs = builders.icmp(a_neg.res, b_neg.res, "eq" if ceil else "ne")
    adjust = llvm.AndOp(rem_nonzero.res, signs.res)
    moved = (llvm.AddOp if ceil else llvm.SubOp)(quot.res, one.result)
    sel = SelectOp(adjust.res, moved.res, quot.res)
    ops: list[Operation] = [zero, one, quot, prod, rem, rem_nonzero, a_neg, b_neg, signs, adjust, moved, sel]
    return ops, sel.res


def _ceildivsi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _signed_div_adjust(args, t, ceil=True)


def _floordivsi(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    return _signed_div_adjust(args, t, ceil=False)


# bf16 (carried as i16) <-> wider floats ---------------------------------------


def _like(t: Attribute, element: Attribute) -> Attribute:
    """`element`, or a vector of it shaped like `t` when `t` is a vector."""
    if isinstance(t, VectorType):
        return VectorType(element, t.get_shape())
    return element


def _int_splat(value: int, t: Attribute) -> llvm.ConstantOp:
    """The integer constant `value` of the (vector of) integer type `t`."""
    if isinstance(t, VectorType):
        scalar = t.element_type
        assert isinstance(scalar, IntegerType)
        v = normalize_int(value, scalar.width.data)
        return llvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [v] * t.get_shape()[0]), t)  # type: ignore[arg-type]
    return int_constant(value, t)


def _icmp(name: str, a: SSAValue, b: SSAValue) -> llvm.ICmpOp:
    return builders.icmp(a, b, name)


def _bf16_to_float(x: SSAValue, t: Attribute) -> Built:
    """The bf16 bits `x` (i16) widened exactly to the float type `t`: the bits
    are the upper half of the f32 with the same value."""
    i32t, f32t = _like(t, i32), _like(t, f32)
    wide = llvm.ZExtOp(x, i32t)
    sixteen = _int_splat(16, i32t)
    shifted = llvm.ShlOp(wide.res, sixteen.result)
    as_f32 = llvm.BitcastOp(shifted.res, f32t)
    ops: list[Operation] = [wide, sixteen, shifted, as_f32]
    if isinstance(element_type(t), Float32Type):
        return ops, as_f32.result
    ext = llvm.FPExtOp(as_f32.result, t)
    return [*ops, ext], ext.result


def _f64_to_f32_round_to_odd_bits(x: SSAValue, t64: Attribute) -> Built:
    """The i32 bits of the f64 `x` rounded to f32 toward zero, with the last bit
    set when inexact ("round to odd"): rounding that to bf16 to nearest even
    equals rounding `x` once (f32 keeps more than 2 extra bits). Compared as
    integers (the magnitude bits order like the magnitudes), so vectors work too;
    a NaN stays a NaN."""
    f32t, i32t, i64t = _like(t64, f32), _like(t64, i32), _like(t64, i64)
    narrow = llvm.FPTruncOp(x, f32t)  # to nearest even
    back = llvm.FPExtOp(narrow.result, t64)
    back_bits = llvm.BitcastOp(back.result, i64t)
    x_bits = llvm.BitcastOp(x, i64t)
    inexact = _icmp("ne", back_bits.result, x_bits.result)
    magnitude = _int_splat(0x7FFF_FFFF_FFFF_FFFF, i64t)
    back_magnitude = llvm.AndOp(back_bits.result, magnitude.result)
    x_magnitude = llvm.AndOp(x_bits.result, magnitude.result)
    away = _icmp("ugt", back_magnitude.res, x_magnitude.res)  # rounded away from zero
    bits = llvm.BitcastOp(narrow.result, i32t)
    one = _int_splat(1, i32t)
    toward_zero = llvm.SubOp(bits.result, one.result)  # one step toward zero
    truncated = SelectOp(away.res, toward_zero.res, bits.result)
    odd = llvm.OrOp(truncated.res, one.result)
    result = SelectOp(inexact.res, odd.res, truncated.res)
    ops: list[Operation] = [
        narrow, back, back_bits, x_bits, inexact, magnitude, back_magnitude, x_magnitude, away,
        bits, one, toward_zero, truncated, odd, result,
    ]
    return ops, result.res


def _float_to_bf16(op: Operation, x: SSAValue, source: Attribute, t: Attribute) -> Built:
    """`x` (f32 or f64) rounded to nearest even bf16, as i16 bits."""
    i32t = _like(t, i32)
    ops: list[Operation] = []
    if isinstance(element_type(source), Float32Type):
        bitcast = llvm.BitcastOp(x, i32t)
        ops.append(bitcast)
        bits = bitcast.result
    elif isinstance(element_type(source), Float64Type):
        ops, bits = _f64_to_f32_round_to_odd_bits(x, source)
    else:
        raise LoweringError(f"cannot truncate {source} to bf16 (f32 and f64 only)", op)
    sixteen = _int_splat(16, i32t)
    upper = llvm.LShrOp(bits, sixteen.result)
    one = _int_splat(1, i32t)
    lsb = llvm.AndOp(upper.res, one.result)
    half = _int_splat(0x7FFF, i32t)
    bias = llvm.AddOp(lsb.res, half.result)  # 0x7FFF, or 0x8000 to round a tie to even
    biased = llvm.AddOp(bits, bias.res)
    rounded = llvm.LShrOp(biased.res, sixteen.result)
    result = llvm.TruncOp(rounded.res, t)
    # NaN: keep the sign and upper payload, set the quiet bit.
    magnitude_mask = _int_splat(0x7FFFFFFF, i32t)
    magnitude = llvm.AndOp(bits, magnitude_mask.result)
    inf_bits = _int_splat(0x7F800000, i32t)
    is_nan = _icmp("ugt", magnitude.res, inf_bits.result)
    upper16 = llvm.TruncOp(upper.res, t)
    quiet_bit = _int_splat(0x0040, t)
    quiet = llvm.OrOp(upper16.res, quiet_bit.result)
    select = SelectOp(is_nan.res, quiet.res, result.res)
    ops += [
        sixteen, upper, one, lsb, half, bias, biased, rounded, result,
        magnitude_mask, magnitude, inf_bits, is_nan, upper16, quiet_bit, quiet, select,
    ]
    return ops, select.res


def _extf(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    if is_bf16(op.operands[0].type):
        return _bf16_to_float(args[0], t)
    return _single(llvm.FPExtOp(args[0], t))


def _truncf(op: Operation, args: list[SSAValue], t: Attribute) -> Built:
    if is_bf16(op.results[0].type):
        return _float_to_bf16(op, args[0], op.operands[0].type, t)
    return _single(llvm.FPTruncOp(args[0], t))


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
    arith.ExtFOp: _extf,
    arith.TruncFOp: _truncf,
    arith.BitcastOp: _bitcast,
    arith.IndexCastOp: index_cast,
}
if hasattr(arith, "RemFOp"):  # not in every xDSL version
    HANDLERS[arith.RemFOp] = _float_binop(llvm.FRemOp)  # type: ignore[attr-defined]


class ConvertArithOp(RewritePattern):
    """Rewrites each `arith` op of `handlers` to llvm ops."""

    def __init__(self, handlers: dict[type[Operation], Handler] | None = None):
        self.handlers = HANDLERS if handlers is None else handlers
        self.op_types = tuple(self.handlers)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        handler = self.handlers.get(type(op))
        if handler is None:
            return
        for operand in op.operands:
            if not _is_lowerable(operand.type):
                raise LoweringError(f"cannot lower '{op.name}' on {operand.type} to LLVM", op)
        if is_bf16(op.results[0].type) and op.name not in BF16_BIT_OPS:
            raise bf16_arithmetic_error(op)
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
