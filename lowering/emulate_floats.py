"""`arith-emulate-unsupported-floats`: compute on float types the target cannot
compute on (by default bf16) in a wider type (by default f32), as MLIR's pass of
that name does.

Every `arith`/`math` op that computes on a source type (an operand or a result
of a source type, or a vector/tensor of it) is rebuilt on the target type: its
source-typed operands are widened with `arith.extf`, the op runs on the target
type, and each source-typed result is rounded back with `arith.truncf`. Ops that
only move bits keep the source type: `arith.constant`, `arith.select`,
`arith.bitcast`, and `arith.extf`/`arith.truncf` themselves (so are loads,
stores and every op of another dialect). `llvm.frem` is treated like an arith
op: xDSL 0.74 has no `arith.remf`, so the scalar lowering of `xla.remainder`
emits it.

Rounding after each op gives XLA's numbers: its CPU backend computes bf16
element-wise ops in f32 and rounds each result to bf16. Integer → bf16
conversions therefore round twice (to f32, then to bf16), as XLA's do.

The f8/f6/f4 types (`f8E4M3FN`, `f8E5M2`, `f6E2M3FN`, ... - every
`ReducedPrecisionFloatType` with a sign) are sources by default too, and go one
step further, because LLVM has no such types (the LLVM conversion stores them as
their bits in an i8): every `arith.extf` from and `arith.truncf` to one of them
(the pass's own and those already in the IR) is expanded into integer code on
the bit patterns, driven by a table of the format's parameters (`NarrowFormat`:
exponent and mantissa bits, bias, and which of the four encodings of the
specials it uses):

* widening decodes sign, exponent and mantissa and computes the value exactly
  in f32 (significand times a power of two; f32 holds every such value), then
  extends to the wider destination;
* narrowing rounds the f32/f64 bits to nearest even in one step (normal
  results by rebiasing and rounding the mantissa, subnormal ones by shifting the
  significand with its implicit bit), then applies the format's rules:
  `ieee` (e5m2, e4m3, e3m4) overflows to +-inf and has quiet NaNs; `fn`
  (e4m3fn) has no inf, overflow and inf become NaN (S.1111.111); `fnuz`
  (e4m3fnuz, e5m2fnuz, e4m3b11fnuz) has one NaN 0x80 for overflow, inf and NaN,
  and no -0; `finite` (f6e2m3fn, f6e3m2fn, f4e2m1fn) saturates to +-max and has
  no NaN. These are ml_dtypes' conversions bit for bit (XLA's), NaN sign and
  all; an f16/bf16 source is widened to f32 first (exactly) and an f64 source
  is rounded to f32 first, as ml_dtypes does (so a value just off a tie of
  the narrow format can round twice: ml_dtypes' numbers, kept on purpose).
  The encoder itself also takes f64 bits (`_source_layout`).

The bits move between the float type and i8 through
`builtin.unrealized_conversion_cast`: the LLVM conversion represents these
types as i8, so the casts cancel out there.

Options: `source-types` (type names, default `bf16` and the f8/f6/f4 types),
`target-type` (default `f32`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatNanEncoding,
    FloatNonfiniteBehavior,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    ReducedPrecisionFloatType,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.to_llvm.common import normalize_int
from xla_dialect.diagnostics import LoweringError

BIT_OPS = frozenset(
    {"arith.constant", "arith.select", "arith.bitcast", "arith.extf", "arith.truncf"}
)
"""Ops that keep the source type: they move or convert bits, never compute."""

EXTRA_COMPUTING_OPS = frozenset({"llvm.frem"})
"""Ops outside arith/math that compute on floats and are emulated too."""


def element_of(t: Attribute) -> Attribute:
    """The scalar type of a scalar, vector or tensor type."""
    if isinstance(t, VectorType | TensorType):
        return t.element_type
    return t


def with_element(t: Attribute, element: Attribute) -> Attribute:
    """`t` with its scalar type replaced by `element`."""
    if isinstance(t, VectorType):
        return VectorType(element, t.get_shape(), t.scalable_dims)
    if isinstance(t, TensorType):
        return TensorType(element, t.get_shape(), t.encoding)
    return element


def _parse_float_type(name: str, ctx: Context) -> AnyFloat:
    try:
        t = Parser(ctx, name).parse_type()
    except Exception as err:  # the parser's own error type varies
        raise LoweringError(f"arith-emulate-unsupported-floats: '{name}' is not a type") from err
    if not isinstance(t, AnyFloat):
        raise LoweringError(f"arith-emulate-unsupported-floats: '{name}' is not a float type")
    return t


@dataclass(frozen=True)
class EmulateUnsupportedFloatsPass(ModulePass):
    """Compute the arith/math ops on `source_types` in `target_type`."""

    name = "arith-emulate-unsupported-floats"

    source_types: tuple[str, ...] = (
        "bf16",
        "f8E5M2",
        "f8E4M3",
        "f8E4M3FN",
        "f8E5M2FNUZ",
        "f8E4M3FNUZ",
        "f8E4M3B11FNUZ",
        "f8E3M4",
        "f6E2M3FN",
        "f6E3M2FN",
        "f4E2M1FN",
    )
    target_type: str = "f32"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sources = {_parse_float_type(n, ctx) for n in self.source_types}
        target = _parse_float_type(self.target_type, ctx)
        if target in sources:
            raise LoweringError(
                f"arith-emulate-unsupported-floats: the target type {self.target_type} "
                "cannot also be a source type"
            )
        for inner in list(op.walk()):
            if needs_emulation(inner, sources):
                emulate(inner, sources, target)
        for inner in list(op.walk()):
            if isinstance(inner, arith.ExtFOp | arith.TruncFOp):
                expand_narrow_conversion(inner)


def needs_emulation(op: Operation, sources: set[AnyFloat]) -> bool:
    """Whether `op` computes on one of the `sources` float types."""
    dialect = op.name.split(".", 1)[0]
    if op.name in BIT_OPS or (dialect not in ("arith", "math") and op.name not in EXTRA_COMPUTING_OPS):
        return False
    if op.regions:
        return False
    return any(
        element_of(v.type) in sources and not isinstance(v.type, MemRefType)
        for v in (*op.operands, *op.results)
    )


def emulate(op: Operation, sources: set[AnyFloat], target: AnyFloat) -> None:
    """Rebuild `op` on `target`: widen its source-typed operands, narrow its
    source-typed results back."""
    before = InsertPoint.before(op)
    widened: dict[SSAValue, SSAValue] = {}
    operands: list[SSAValue] = []
    for value in op.operands:
        if element_of(value.type) in sources:
            if value not in widened:
                ext = arith.ExtFOp(value, with_element(value.type, target))
                Rewriter.insert_op(ext, before)
                widened[value] = ext.result
            operands.append(widened[value])
        else:
            operands.append(value)
    result_types = [
        with_element(r.type, target) if element_of(r.type) in sources else r.type for r in op.results
    ]
    new = type(op).create(
        operands=operands,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    Rewriter.insert_op(new, before)
    results: list[SSAValue] = []
    for old, value in zip(op.results, new.results, strict=True):
        if old.type != value.type:
            trunc = arith.TruncFOp(value, old.type)
            Rewriter.insert_op(trunc, before)
            results.append(trunc.result)
        else:
            results.append(value)
    Rewriter.replace_op(op, [], results)


# ---------------------------------------------------------------------------
# f8/f6/f4 <-> wider floats as integer code
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NarrowFormat:
    """The parameters of an f8/f6/f4 format that its conversions depend on."""

    exponent_bits: int
    mantissa_bits: int
    bias: int
    kind: str
    """`ieee` (inf and NaNs), `fn` (NaN only, all ones), `fnuz` (NaN = 0x80,
    no -0) or `finite` (neither)."""

    @property
    def width(self) -> int:
        return 1 + self.exponent_bits + self.mantissa_bits


def narrow_format(t: Attribute) -> NarrowFormat | None:
    """The format of an f8/f6/f4 type (None for other types and for the
    unsigned e8m0, which no conversion here supports)."""
    if not isinstance(t, ReducedPrecisionFloatType) or not t.SEMANTICS.has_sign:
        return None
    sem = t.SEMANTICS
    if sem.exponent_bits + sem.mantissa_bits + 1 > 8 or sem.mantissa_bits == 0:
        return None
    if sem.nonfinite == FloatNonfiniteBehavior.IEEE:
        kind = "ieee"
    elif sem.nonfinite == FloatNonfiniteBehavior.FINITE_ONLY:
        kind = "finite"
    elif sem.nan_encoding == FloatNanEncoding.NEGATIVE_ZERO:
        kind = "fnuz"
    else:
        kind = "fn"
    return NarrowFormat(sem.exponent_bits, sem.mantissa_bits, sem.exponent_bias, kind)


_I8 = IntegerType(8)


class _Emitter:
    """Inserts integer/float ops before a fixed op."""

    def __init__(self, before: Operation):
        self.point = InsertPoint.before(before)

    def r(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def c(self, value: int, t: IntegerType) -> SSAValue:
        return self.r(arith.ConstantOp(IntegerAttr(normalize_int(value, t.width.data), t)))

    def cast(self, value: SSAValue, t: Attribute) -> SSAValue:
        return self.r(UnrealizedConversionCastOp.get([value], [t]))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.r(arith.SelectOp(cond, a, b))

    def cmpi(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.r(arith.CmpiOp(a, b, pred))


def _decode(e: _Emitter, fmt: NarrowFormat, x: SSAValue) -> SSAValue:
    """The f8/f6/f4 value `x` as the f32 of the same value (exact)."""
    i32 = IntegerType(32)
    m, w = fmt.mantissa_bits, fmt.width
    bits = e.r(arith.ExtUIOp(e.cast(x, _I8), i32))
    sign = e.r(arith.AndIOp(e.r(arith.ShRUIOp(bits, e.c(w - 1, i32))), e.c(1, i32)))
    exponent = e.r(arith.AndIOp(e.r(arith.ShRUIOp(bits, e.c(m, i32))), e.c((1 << fmt.exponent_bits) - 1, i32)))
    mantissa = e.r(arith.AndIOp(bits, e.c((1 << m) - 1, i32)))
    normal = e.cmpi("ne", exponent, e.c(0, i32))
    significand = e.r(arith.OrIOp(mantissa, e.select(normal, e.c(1 << m, i32), e.c(0, i32))))
    exponent = e.select(normal, exponent, e.c(1, i32))
    # value = significand * 2^(exponent - bias - m); the power of two built as f32 bits
    scale_bits = e.r(arith.ShLIOp(e.r(arith.AddiOp(exponent, e.c(127 - fmt.bias - m, i32))), e.c(23, i32)))
    scale = e.r(arith.BitcastOp(scale_bits, f32))
    magnitude = e.r(arith.MulfOp(e.r(arith.UIToFPOp(significand, f32)), scale))
    negative = e.r(arith.TruncIOp(sign, IntegerType(1)))
    value = e.select(negative, e.r(arith.NegfOp(magnitude)), magnitude)
    sign31 = e.r(arith.ShLIOp(sign, e.c(31, i32)))
    nan = e.r(arith.BitcastOp(e.r(arith.OrIOp(sign31, e.c(0x7FC00000, i32))), f32))
    magnitude_bits = e.r(arith.AndIOp(bits, e.c((1 << (w - 1)) - 1, i32)))
    if fmt.kind == "ieee":
        special = e.cmpi("eq", exponent, e.c((1 << fmt.exponent_bits) - 1, i32))
        inf = e.r(arith.BitcastOp(e.r(arith.OrIOp(sign31, e.c(0x7F800000, i32))), f32))
        nonfinite = e.select(e.cmpi("eq", mantissa, e.c(0, i32)), inf, nan)
        value = e.select(special, nonfinite, value)
    elif fmt.kind == "fn":
        value = e.select(e.cmpi("eq", magnitude_bits, e.c((1 << (w - 1)) - 1, i32)), nan, value)
    elif fmt.kind == "fnuz":
        value = e.select(e.cmpi("eq", bits, e.c(1 << (w - 1), i32)), nan, value)
    return value


def _source_layout(t: Attribute) -> tuple[IntegerType, int, int]:
    """(bits type, mantissa bits, bias) of f32 or f64."""
    if isinstance(t, Float64Type):
        return IntegerType(64), 52, 1023
    return IntegerType(32), 23, 127


def _encode(e: _Emitter, fmt: NarrowFormat, x: SSAValue) -> SSAValue:
    """The f32/f64 `x` rounded to nearest even in `fmt`, as its i8 bits."""
    it, ms, bs = _source_layout(x.type)
    n = it.width.data
    m, w = fmt.mantissa_bits, fmt.width
    bits = e.r(arith.BitcastOp(x, it))
    sign = e.r(arith.ShRUIOp(bits, e.c(n - 1, it)))
    magnitude = e.r(arith.AndIOp(bits, e.c((1 << (n - 1)) - 1, it)))
    exponent = e.r(arith.ShRUIOp(magnitude, e.c(ms, it)))
    rebias = bs - fmt.bias
    shift = ms - m
    # Normal in the narrow format: rebias the exponent, round off `shift` bits.
    normal = e.cmpi("ugt", exponent, e.c(rebias, it))
    rebased = e.r(arith.SubiOp(magnitude, e.c(rebias << ms, it)))
    # Subnormal: the significand (implicit bit set) shifted further by the
    # exponent deficit, at most until nothing is left (ms + 2).
    significand = e.r(arith.OrIOp(e.r(arith.AndIOp(magnitude, e.c((1 << ms) - 1, it))), e.c(1 << ms, it)))
    deficit = e.r(arith.SubiOp(e.c(shift + 1 + rebias, it), exponent))
    deficit = e.r(arith.MinSIOp(e.r(arith.MaxSIOp(deficit, e.c(shift + 1, it))), e.c(ms + 2, it)))
    value = e.select(normal, rebased, significand)
    amount = e.select(normal, e.c(shift, it), deficit)
    one = e.c(1, it)
    half_minus_one = e.r(arith.SubiOp(e.r(arith.ShLIOp(one, e.r(arith.SubiOp(amount, one)))), one))
    odd = e.r(arith.AndIOp(e.r(arith.ShRUIOp(value, amount)), one))
    rounded = e.r(arith.ShRUIOp(e.r(arith.AddiOp(e.r(arith.AddiOp(value, half_minus_one)), odd)), amount))
    # The format's rules for overflow (and inf), NaN and the sign.
    sign_bit = e.r(arith.ShLIOp(e.r(arith.TruncIOp(sign, _I8)), e.c(w - 1, _I8)))
    all_ones = (1 << (w - 1)) - 1
    inf_code = ((1 << fmt.exponent_bits) - 1) << m
    is_nan = e.cmpi("ugt", magnitude, e.c(((1 << (n - ms - 1)) - 1) << ms, it))
    if fmt.kind == "ieee":
        overflow = e.cmpi("uge", rounded, e.c(inf_code, it))
        overflow_code = e.r(arith.OrIOp(sign_bit, e.c(inf_code, _I8)))
        nan_code = e.r(arith.OrIOp(sign_bit, e.c(inf_code | 1 << (m - 1), _I8)))
    elif fmt.kind == "fn":
        overflow = e.cmpi("uge", rounded, e.c(all_ones, it))
        overflow_code = nan_code = e.r(arith.OrIOp(sign_bit, e.c(all_ones, _I8)))
    elif fmt.kind == "fnuz":
        overflow = e.cmpi("ugt", rounded, e.c(all_ones, it))
        overflow_code = nan_code = e.c(1 << (w - 1), _I8)
    else:
        overflow = e.cmpi("ugt", rounded, e.c(all_ones, it))
        overflow_code = e.r(arith.OrIOp(sign_bit, e.c(all_ones, _I8)))
        nan_code = e.r(arith.XOrIOp(sign_bit, e.c(1 << (w - 1), _I8)))  # ml_dtypes' choice
    small = e.r(arith.TruncIOp(e.r(arith.MinUIOp(rounded, e.c(all_ones, it))), _I8))
    result = e.r(arith.OrIOp(sign_bit, small))
    if fmt.kind == "fnuz":  # no negative zero
        result = e.select(e.cmpi("eq", small, e.c(0, _I8)), small, result)
    result = e.select(overflow, overflow_code, result)
    return e.select(is_nan, nan_code, result)


def expand_narrow_conversion(op: arith.ExtFOp | arith.TruncFOp) -> None:
    """Rewrite an `extf`/`truncf` with an f8/f6/f4 side as integer code (scalars
    only: the pass runs after the loops are scalar)."""
    source, dest = op.operands[0].type, op.results[0].type
    source_format, dest_format = narrow_format(source), narrow_format(dest)
    if source_format is None and dest_format is None:
        return
    for t in (source, dest):
        if isinstance(t, VectorType | TensorType):
            raise LoweringError(f"'{op.name}' on {t}: f8/f6/f4 conversions are expanded on scalars only", op)
    e = _Emitter(op)
    x = op.operands[0]
    if source_format is not None:
        x = _decode(e, source_format, x)
    elif isinstance(source, BFloat16Type | Float16Type):
        x = e.r(arith.ExtFOp(x, f32))
    elif isinstance(source, Float64Type) and dest_format is not None:
        x = e.r(arith.TruncFOp(x, f32))  # ml_dtypes rounds f64 through f32
    if dest_format is not None:
        result = e.cast(_encode(e, dest_format, x), dest)
    elif isinstance(dest, Float32Type):
        result = x
    elif isinstance(dest, Float64Type):
        result = e.r(arith.ExtFOp(x, dest))
    else:  # f16/bf16: f32 holds the value exactly; one rounding
        result = e.r(arith.TruncFOp(x, dest))
    Rewriter.replace_op(op, [], [result])


__all__ = [
    "EmulateUnsupportedFloatsPass",
    "NarrowFormat",
    "emulate",
    "expand_narrow_conversion",
    "narrow_format",
    "needs_emulation",
]
