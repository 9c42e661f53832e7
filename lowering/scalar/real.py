"""XLA's element-wise semantics as scalar `arith`/`math` code.

`emit_scalar_op(emit, op, operands)` computes ONE element of an element-wise
`xla` op: the lowering of `xla` to linalg puts what it emits in the body of a
`linalg.generic`. The xla op is only read (its name, its properties and the xla
element types of its operands and results, which carry the signedness); the
operands are scalars of the SIGNLESS types (`ui32` arrives as `i32`, PRED is
`i1`) and the results are signless too.

The code is what XLA's CPU backend computes, including the corners the spec
leaves to the implementation, so that compiled programs agree with XLA:

* integer division and remainder never execute a trapping instruction: the
  divisor is replaced by 1 before `divsi/divui/remsi/remui` where it is 0 (x/0 is
  -1 signed, all ones unsigned; x%0 = x) or where INT_MIN/-1 would overflow
  (INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0);
* shift counts are unsigned; counts >= the bit width give 0 (left, logical right)
  or the sign fill (arithmetic right);
* float remainder is C's `fmod` (LLVM's `frem`, which XLA emits; xDSL 0.74 has no
  `arith.remf`, so the `llvm.frem` op is emitted directly);
* float maximum/minimum propagate NaN (`arith.maximumf/minimumf`, IEEE
  754-2019: -0 < +0, where XLA's compare-and-select returns the lhs of a tie);
* integer power is exponentiation by squaring over every exponent bit (wrapping
  like any integer product); a negative exponent gives 0, except for base 1 (1)
  and base -1 (+-1 by the exponent's parity);
* float -> integer conversion saturates: NaN -> 0, out-of-range values clamp to
  the target's min/max, in-range values truncate toward zero;
* comparisons of floats are IEEE (ordered, except NE which is unordered) or, with
  `compare_type = TOTALORDER`, the total order
  -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN on the bit patterns;
* `reduce_precision` is XLA's bit-level algorithm: round the mantissa to nearest
  even, then, with fewer exponent bits, overflow to +-inf and flush what would
  be a denormal of the reduced format to +-0. NaN stays NaN (also with 0
  mantissa bits, where XLA returns inf: the spec says NaNs are retained).

Float ops are emitted on their own type, bf16 included: the pass
`arith-emulate-unsupported-floats` (lowering.emulate_floats) later computes bf16
ops in f32 and rounds after each op, as XLA's CPU backend does.

This module is the real-valued half: booleans, integers and floats. Complex
element types are `complex.py` (the `complex` dialect, expanded later by
`convert-complex-to-standard`), which builds on this one; `lowering.scalar`
(the package) dispatches between the two, and is what the lowerings call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ReducedPrecisionFloatType,
    Signedness,
    TensorType,
    VectorType,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from lowering.math_approximation.builder import Emitter
from lowering.to_llvm.common import LoweringError, normalize_int
from xla_dialect.attributes import ComparisonDirectionAttr, ComparisonType, ComparisonTypeAttr
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_complex,
    is_float,
    is_pred,
    is_unsigned_integer,
)

Emit = Callable[[Operation], Operation]
"""Inserts an op at the current point and returns it."""


# ---------------------------------------------------------------------------
# Types and constants
# ---------------------------------------------------------------------------


def signless_type(t: Attribute) -> Attribute:
    """`t` with signed/unsigned integers made signless (`ui32` -> `i32`, also as
    the element type of tensors, vectors and memrefs); other types unchanged."""
    if isinstance(t, IntegerType):
        if t.signedness.data != Signedness.SIGNLESS:
            return IntegerType(t.width.data)
        return t
    if isinstance(t, TensorType):
        element = signless_type(t.element_type)
        if element != t.element_type:
            return TensorType(element, t.get_shape(), t.encoding)
        return t
    if isinstance(t, VectorType):
        element = signless_type(t.element_type)
        if element != t.element_type:
            return VectorType(element, t.get_shape(), t.scalable_dims)
        return t
    if isinstance(t, MemRefType):
        element = signless_type(t.element_type)
        if element != t.element_type:
            return MemRefType(element, t.get_shape(), t.layout, t.memory_space)
        return t
    return t


def _constant(emit: Emit, value: float, t: Attribute) -> SSAValue:
    """An `arith.constant` of the signless scalar type `t` (ints wrap to `t`)."""
    if isinstance(t, IntegerType):
        attr: Attribute = IntegerAttr(normalize_int(int(value), t.width.data), IntegerType(t.width.data))
    elif isinstance(t, AnyFloat):
        attr = FloatAttr(float(value), t)
    else:
        raise LoweringError(f"no scalar constant of type {format_type(t)}")
    return emit(arith.ConstantOp(attr)).results[0]  # type: ignore[arg-type]


def scalar_constant(emit: Emit, value: float, xla_element_type: Attribute) -> SSAValue:
    """The constant `value` of an xla element type, as its signless scalar
    (unsigned values wrap to the same bits; PRED is 0/1; a complex one is
    `value + 0i`, or `value.real + value.imag i` for a Python complex: see
    `lowering.scalar.scalar_constant`)."""
    if is_complex(xla_element_type):
        raise LoweringError(f"no real scalar constant of type {format_type(xla_element_type)}")
    if is_pred(xla_element_type):
        return _constant(emit, 1 if value else 0, IntegerType(1))
    return _constant(emit, value, signless_type(xla_element_type))


def _float_bits(t: Attribute) -> tuple[int, int]:
    """(exponent bits, explicit mantissa bits) of a float type."""
    if isinstance(t, Float16Type):
        return 5, 10
    if isinstance(t, BFloat16Type):
        return 8, 7
    if isinstance(t, Float32Type):
        return 8, 23
    if isinstance(t, Float64Type):
        return 11, 52
    if isinstance(t, ReducedPrecisionFloatType):  # f8/f6/f4 (emulated in f32)
        return t.SEMANTICS.exponent_bits, t.SEMANTICS.mantissa_bits
    raise LoweringError(f"unsupported float type {format_type(t)}")


def _float_max(t: Attribute) -> float:
    """The largest finite value of a float type."""
    exponent_bits, mantissa_bits = _float_bits(t)
    bias = (1 << (exponent_bits - 1)) - 1
    return (2.0 - 2.0**-mantissa_bits) * 2.0**bias


# ---------------------------------------------------------------------------
# The emitter
# ---------------------------------------------------------------------------


class _Scalar:
    """Helpers emitting through `emit`; `op` is named in every error."""

    def __init__(self, emit: Emit, op: Operation):
        self.emit = emit
        self.op = op

    # small builders -------------------------------------------------------

    def r(self, new: Operation) -> SSAValue:
        return self.emit(new).results[0]

    def c(self, value: float, t: Attribute) -> SSAValue:
        return _constant(self.emit, value, t)

    def cmpi(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.r(arith.CmpiOp(a, b, pred))

    def cmpf(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.r(arith.CmpfOp(a, b, pred))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.r(arith.SelectOp(cond, a, b))

    def error(self, what: str) -> LoweringError:
        return LoweringError(f"cannot lower '{self.op.name}': {what}", self.op)

    def unsupported(self, t: Attribute) -> LoweringError:
        return self.error(f"element type {format_type(t)} is not supported here")


def _element(value: SSAValue) -> Attribute:
    return element_type_of(value.type)


def _width(t: Attribute) -> int:
    assert isinstance(t, IntegerType)
    return t.width.data


# ---------------------------------------------------------------------------
# Unary ops
# ---------------------------------------------------------------------------

_FLOAT_UNARY: dict[str, type[Operation]] = {
    "xla.cbrt": math.CbrtOp,
    "xla.ceil": math.CeilOp,
    "xla.cosine": math.CosOp,
    "xla.exponential": math.ExpOp,
    "xla.exponential_minus_one": math.ExpM1Op,
    "xla.floor": math.FloorOp,
    "xla.log": math.LogOp,
    "xla.log_plus_one": math.Log1pOp,
    "xla.round_nearest_afz": math.RoundOp,
    "xla.round_nearest_even": math.RoundEvenOp,
    "xla.rsqrt": math.RsqrtOp,
    "xla.sine": math.SinOp,
    "xla.sqrt": math.SqrtOp,
    "xla.tan": math.TanOp,
    "xla.tanh": math.TanhOp,
}


def _unary(s: _Scalar, name: str, t: Attribute, x: SSAValue) -> SSAValue:
    if is_float(t):
        if name in _FLOAT_UNARY:
            return s.r(_FLOAT_UNARY[name](x))
        if name == "xla.abs":
            return s.r(math.AbsFOp(x))
        if name == "xla.negate":
            return s.r(arith.NegfOp(x))
        if name == "xla.sign":
            # NaN -> NaN, +-0 -> +-0, else +-1 with x's sign.
            one = s.r(math.CopySignOp(s.c(1.0, t), x))
            zero = s.c(0.0, t)
            keep = s.r(arith.OrIOp(s.cmpf("uno", x, x), s.cmpf("oeq", x, zero)))
            return s.select(keep, x, one)
        if name == "xla.is_finite":
            inf = s.c(float("inf"), t)
            return s.cmpf("one", s.r(math.AbsFOp(x)), inf)
        if name == "xla.logistic":
            # select(x < 0, e, 1) / (1 + e), e = exp(-|x|): no overflow of e^-x, one division.
            one = s.c(1.0, t)
            e = s.r(math.ExpOp(s.r(arith.NegfOp(s.r(math.AbsFOp(x))))))
            num = s.select(s.cmpf("olt", x, s.c(0.0, t)), e, one)
            den = s.r(arith.AddfOp(one, e))
            if not isinstance(t, Float32Type):
                return s.r(arith.DivfOp(num, den))
            ops: list[Operation] = []  # den in [1, 2]: a refined reciprocal where the target divides slowly
            q = Emitter(ops, t).quotient(num, den)
            for new in ops:
                s.emit(new)
            return q
        if name == "xla.real":
            return x
        if name == "xla.imag":
            return s.c(0.0, t)
        raise s.unsupported(t)
    if is_pred(t):
        if name == "xla.not":
            return s.r(arith.XOrIOp(x, s.c(1, t)))
        raise s.unsupported(t)
    if not isinstance(t, IntegerType):
        raise s.unsupported(t)
    it = signless_type(t)
    unsigned = is_unsigned_integer(t)
    if name == "xla.not":
        return s.r(arith.XOrIOp(x, s.c(-1, it)))
    if name == "xla.negate":
        return s.r(arith.SubiOp(s.c(0, it), x))
    if name == "xla.abs":
        return x if unsigned else s.r(math.AbsIOp(x))  # abs(INT_MIN) = INT_MIN
    if name == "xla.sign":
        zero = s.c(0, it)
        if unsigned:
            return s.r(arith.ExtUIOp(s.cmpi("ne", x, zero), it))
        positive = s.cmpi("sgt", x, zero)
        negative = s.cmpi("slt", x, zero)
        return s.r(arith.SubiOp(s.r(arith.ExtUIOp(positive, it)), s.r(arith.ExtUIOp(negative, it))))
    if name == "xla.count_leading_zeros":
        return s.r(math.CountLeadingZerosOp(x))
    if name == "xla.popcnt":
        return s.r(math.CtPopOp(x))
    raise s.unsupported(t)


# ---------------------------------------------------------------------------
# Binary ops
# ---------------------------------------------------------------------------


def _int_divide(s: _Scalar, t: IntegerType, a: SSAValue, b: SSAValue, *, remainder: bool) -> SSAValue:
    it = signless_type(t)
    w = _width(it)
    zero, one = s.c(0, it), s.c(1, it)
    b_zero = s.cmpi("eq", b, zero)
    if is_unsigned_integer(t):
        safe = s.select(b_zero, one, b)
        if remainder:
            return s.select(b_zero, a, s.r(arith.RemUIOp(a, safe)))
        return s.select(b_zero, s.c(-1, it), s.r(arith.DivUIOp(a, safe)))
    # INT_MIN / -1 overflows: divide by 1 instead, which gives INT_MIN and
    # remainder 0, XLA's results.
    overflow = s.r(
        arith.AndIOp(s.cmpi("eq", a, s.c(-(1 << (w - 1)), it)), s.cmpi("eq", b, s.c(-1, it)))
    )
    safe = s.select(s.r(arith.OrIOp(b_zero, overflow)), one, b)
    if remainder:
        return s.select(b_zero, a, s.r(arith.RemSIOp(a, safe)))
    return s.select(b_zero, s.c(-1, it), s.r(arith.DivSIOp(a, safe)))


def _shift(s: _Scalar, name: str, t: IntegerType, a: SSAValue, b: SSAValue) -> SSAValue:
    it = signless_type(t)
    w = _width(it)
    zero = s.c(0, it)
    too_big = s.cmpi("uge", b, s.c(w, it))  # the count is read as unsigned
    if name == "xla.shift_right_arithmetic":
        count = s.select(too_big, s.c(w - 1, it), b)  # sign fill
        return s.r(arith.ShRSIOp(a, count))
    count = s.select(too_big, zero, b)
    cls = arith.ShLIOp if name == "xla.shift_left" else arith.ShRUIOp
    return s.select(too_big, zero, s.r(cls(a, count)))


def _int_power(s: _Scalar, t: IntegerType, base: SSAValue, exponent: SSAValue) -> SSAValue:
    it = signless_type(t)
    w = _width(it)
    zero, one = s.c(0, it), s.c(1, it)
    acc = one
    square = base
    for bit in range(w):
        odd = s.cmpi("ne", s.r(arith.AndIOp(exponent, s.c(1 << bit, it))), zero)
        acc = s.select(odd, s.r(arith.MuliOp(acc, square)), acc)
        if bit + 1 < w:
            square = s.r(arith.MuliOp(square, square))
    if is_unsigned_integer(t):
        return acc
    # Negative exponents: 1/base^-e truncates to 0 except for |base| = 1.
    exponent_odd = s.cmpi("ne", s.r(arith.AndIOp(exponent, one)), zero)
    minus_one = s.c(-1, it)
    for_minus_one = s.select(exponent_odd, minus_one, one)
    negative = s.select(
        s.cmpi("eq", base, one), one, s.select(s.cmpi("eq", base, minus_one), for_minus_one, zero)
    )
    return s.select(s.cmpi("slt", exponent, zero), negative, acc)


def _binary(s: _Scalar, name: str, t: Attribute, a: SSAValue, b: SSAValue) -> SSAValue:
    if is_float(t):
        simple: dict[str, type[Operation]] = {
            "xla.add": arith.AddfOp,
            "xla.subtract": arith.SubfOp,
            "xla.multiply": arith.MulfOp,
            "xla.divide": arith.DivfOp,
            "xla.maximum": arith.MaximumfOp,
            "xla.minimum": arith.MinimumfOp,
            "xla.power": math.PowFOp,
            "xla.atan2": math.Atan2Op,
        }
        if name in simple:
            return s.r(simple[name](a, b))
        if name == "xla.remainder":
            return s.r(llvm.FRemOp(a, b))
        raise s.unsupported(t)
    if is_pred(t):
        pred_ops: dict[str, type[Operation]] = {
            "xla.add": arith.OrIOp,
            "xla.or": arith.OrIOp,
            "xla.maximum": arith.OrIOp,
            "xla.multiply": arith.AndIOp,
            "xla.and": arith.AndIOp,
            "xla.minimum": arith.AndIOp,
            "xla.xor": arith.XOrIOp,
        }
        if name in pred_ops:
            return s.r(pred_ops[name](a, b))
        raise s.unsupported(t)
    if not isinstance(t, IntegerType):
        raise s.unsupported(t)
    unsigned = is_unsigned_integer(t)
    int_ops: dict[str, type[Operation]] = {
        "xla.add": arith.AddiOp,
        "xla.subtract": arith.SubiOp,
        "xla.multiply": arith.MuliOp,
        "xla.and": arith.AndIOp,
        "xla.or": arith.OrIOp,
        "xla.xor": arith.XOrIOp,
        "xla.maximum": arith.MaxUIOp if unsigned else arith.MaxSIOp,
        "xla.minimum": arith.MinUIOp if unsigned else arith.MinSIOp,
    }
    if name in int_ops:
        return s.r(int_ops[name](a, b))
    if name in ("xla.divide", "xla.remainder"):
        return _int_divide(s, t, a, b, remainder=name == "xla.remainder")
    if name in ("xla.shift_left", "xla.shift_right_logical", "xla.shift_right_arithmetic"):
        return _shift(s, name, t, a, b)
    if name == "xla.power":
        return _int_power(s, t, a, b)
    raise s.unsupported(t)


# ---------------------------------------------------------------------------
# Compare, select, clamp
# ---------------------------------------------------------------------------

_FLOAT_PREDICATES = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
_SIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
_UNSIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}


def _total_order_key(s: _Scalar, t: Attribute, x: SSAValue) -> SSAValue:
    """An integer whose signed order is the total order of the float `x`: the bit
    pattern with every bit but the sign flipped when the sign is set."""
    exponent_bits, mantissa_bits = _float_bits(t)
    it = IntegerType(1 + exponent_bits + mantissa_bits)
    bits = s.r(arith.BitcastOp(x, it))
    sign_fill = s.r(arith.ShRSIOp(bits, s.c(_width(it) - 1, it)))
    flip = s.r(arith.ShRUIOp(sign_fill, s.c(1, it)))
    return s.r(arith.XOrIOp(bits, flip))


def total_order_key(emit: Emit, op: Operation, t: Attribute, x: SSAValue) -> SSAValue:
    """The integer whose signed order is the IEEE total order of the float `x`
    of type `t` (for the complex TOTALORDER compare; `op` is named in errors)."""
    return _total_order_key(_Scalar(emit, op), t, x)


def _compare(s: _Scalar, op: Operation, a: SSAValue, b: SSAValue) -> SSAValue:
    t = _element(op.operands[0])
    direction = op.properties["comparison_direction"]
    assert isinstance(direction, ComparisonDirectionAttr)
    d = direction.data.value
    compare_type = op.properties.get("compare_type")
    ct = compare_type.data if isinstance(compare_type, ComparisonTypeAttr) else None
    if is_float(t):
        if ct == ComparisonType.TOTALORDER:
            ka, kb = _total_order_key(s, t, a), _total_order_key(s, t, b)
            return s.cmpi(_SIGNED_PREDICATES[d], ka, kb)
        return s.cmpf(_FLOAT_PREDICATES[d], a, b)
    if is_pred(t) or is_unsigned_integer(t):
        return s.cmpi(_UNSIGNED_PREDICATES[d], a, b)
    if isinstance(t, IntegerType):
        return s.cmpi(_SIGNED_PREDICATES[d], a, b)
    raise s.unsupported(t)


def _clamp(s: _Scalar, t: Attribute, lo: SSAValue, x: SSAValue, hi: SSAValue) -> SSAValue:
    """min(max(x, lo), hi), NaN-propagating on floats."""
    if is_float(t):
        return s.r(arith.MinimumfOp(s.r(arith.MaximumfOp(x, lo)), hi))
    if isinstance(t, IntegerType) and not is_pred(t):
        if is_unsigned_integer(t):
            return s.r(arith.MinUIOp(s.r(arith.MaxUIOp(x, lo)), hi))
        return s.r(arith.MinSIOp(s.r(arith.MaxSIOp(x, lo)), hi))
    raise s.unsupported(t)


# ---------------------------------------------------------------------------
# Conversions
# ---------------------------------------------------------------------------


def _float_to_int(s: _Scalar, src: Attribute, dst: IntegerType, x: SSAValue) -> SSAValue:
    """Saturating float -> integer: NaN -> 0, beyond the range -> min/max,
    truncation toward zero otherwise (the selects keep fptosi/fptoui's poison for
    out-of-range inputs from ever being chosen)."""
    it = signless_type(dst)
    w = _width(it)
    unsigned = is_unsigned_integer(dst)
    limit = float(2**w if unsigned else 2 ** (w - 1))
    inf = float("inf")
    high_bound = s.c(limit if limit <= _float_max(src) else inf, src)
    too_high = s.cmpf("oge", x, high_bound)
    if unsigned:
        too_low = s.cmpf("olt", x, s.c(0.0, src))
        low_value, high_value = s.c(0, it), s.c(-1, it)
        converted = s.r(arith.FPToUIOp(x, it))
    else:
        if limit <= _float_max(src):
            too_low = s.cmpf("olt", x, s.c(-limit, src))
        else:  # every finite value fits: only -inf is out of range
            too_low = s.cmpf("oeq", x, s.c(-inf, src))
        low_value, high_value = s.c(-(1 << (w - 1)), it), s.c((1 << (w - 1)) - 1, it)
        converted = s.r(arith.FPToSIOp(x, it))
    result = s.select(too_high, high_value, converted)
    result = s.select(too_low, low_value, result)
    return s.select(s.cmpf("uno", x, x), s.c(0, it), result)


def _float_to_float(s: _Scalar, src: Attribute, dst: Attribute, x: SSAValue) -> SSAValue:
    sw, dw = _float_bits(src), _float_bits(dst)
    src_width, dst_width = 1 + sum(sw), 1 + sum(dw)
    if src_width == dst_width:
        # f16 <-> bf16: through f32, which holds both exactly (one rounding).
        return s.r(arith.TruncFOp(s.r(arith.ExtFOp(x, f32)), dst))
    if src_width < dst_width:
        return s.r(arith.ExtFOp(x, dst))
    return s.r(arith.TruncFOp(x, dst))


def _convert(s: _Scalar, src: Attribute, dst: Attribute, x: SSAValue) -> SSAValue:
    for t in (src, dst):
        if not (is_pred(t) or is_float(t) or isinstance(t, IntegerType)):
            raise s.unsupported(t)
    if is_pred(dst):
        if is_float(src):
            return s.cmpf("une", x, s.c(0.0, src))  # NaN converts to true
        if is_pred(src):
            return x
        return s.cmpi("ne", x, s.c(0, signless_type(src)))
    if is_float(dst):
        if is_float(src):
            return x if src == dst else _float_to_float(s, src, dst, x)
        if is_pred(src) or is_unsigned_integer(src):
            return s.r(arith.UIToFPOp(x, dst))  # type: ignore[arg-type]
        return s.r(arith.SIToFPOp(x, dst))  # type: ignore[arg-type]
    assert isinstance(dst, IntegerType)
    dst_it = signless_type(dst)
    assert isinstance(dst_it, IntegerType)
    if is_float(src):
        return _float_to_int(s, src, dst, x)
    assert isinstance(src, IntegerType)
    src_w, dst_w = src.width.data, dst_it.width.data
    if src_w == dst_w:
        return x
    if src_w > dst_w:
        return s.r(arith.TruncIOp(x, dst_it))
    if is_pred(src) or is_unsigned_integer(src):
        return s.r(arith.ExtUIOp(x, dst_it))
    return s.r(arith.ExtSIOp(x, dst_it))


def convert_element(emit: Emit, op: Operation, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """`x` (of xla element type `src`) converted to `dst` with `xla.convert`'s
    semantics; `op` is named in errors. For lowerings that convert as a step
    (complex types: `lowering.scalar.convert_element`)."""
    if is_complex(src) or is_complex(dst):
        raise LoweringError(f"'{op.name}': a complex conversion is not a real one", op)
    return _convert(_Scalar(emit, op), src, dst, x)


def _bitcast(s: _Scalar, src: Attribute, dst: Attribute, x: SSAValue) -> SSAValue:
    if is_complex(src) or is_complex(dst):
        raise s.error("complex element types are not compiled yet")
    src_t, dst_t = signless_type(src), signless_type(dst)
    if src_t == dst_t:
        return x
    width = _bit_width(src_t)
    if width != _bit_width(dst_t):
        raise s.error(
            f"bitcast between widths ({format_type(src)} to {format_type(dst)}) has no "
            "scalar form: the element-wise lowering regroups the elements"
        )
    if is_float(src_t) and is_float(dst_t):  # f16 <-> bf16: through the bits
        x = s.r(arith.BitcastOp(x, IntegerType(width)))
    return s.r(arith.BitcastOp(x, dst_t))


def _bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    exponent_bits, mantissa_bits = _float_bits(t)
    return 1 + exponent_bits + mantissa_bits


def _reduce_precision(s: _Scalar, t: Attribute, x: SSAValue, exponent_bits: int, mantissa_bits: int) -> SSAValue:
    """XLA's ReducePrecision on the bit pattern of `x` (see the module docstring)."""
    if not is_float(t):
        raise s.unsupported(t)
    src_exponent_bits, src_mantissa_bits = _float_bits(t)
    n = 1 + src_exponent_bits + src_mantissa_bits
    it = IntegerType(n)
    x_bits = bits = s.r(arith.BitcastOp(x, it))
    sign_mask = 1 << (n - 1)
    exponent_mask = ((1 << src_exponent_bits) - 1) << src_mantissa_bits
    abs_bits = s.r(arith.AndIOp(x_bits, s.c(sign_mask - 1, it)))
    is_nan = s.cmpi("ugt", abs_bits, s.c(exponent_mask, it))
    if mantissa_bits < src_mantissa_bits:
        shift = src_mantissa_bits - mantissa_bits
        last_bit = 1 << shift  # the last mantissa bit kept
        kept_lsb = s.r(arith.AndIOp(s.r(arith.ShRUIOp(bits, s.c(shift, it))), s.c(1, it)))
        # Round to nearest, ties to even: add 0111.. (+1 when the kept lsb is
        # set), then clear the dropped bits. A carry into the exponent is right.
        bias = s.r(arith.AddiOp(kept_lsb, s.c((last_bit >> 1) - 1, it)))
        bits = s.r(arith.AddiOp(bits, bias))
        bits = s.r(arith.AndIOp(bits, s.c(~(last_bit - 1), it)))
    if exponent_bits < src_exponent_bits:
        src_bias = (1 << (src_exponent_bits - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        max_exponent = (src_bias + reduced_bias) << src_mantissa_bits
        min_exponent = (src_bias - reduced_bias) << src_mantissa_bits
        exponent = s.r(arith.AndIOp(bits, s.c(exponent_mask, it)))
        overflows = s.cmpi("ugt", exponent, s.c(max_exponent, it))
        underflows = s.cmpi("ule", exponent, s.c(min_exponent, it))
        signed_zero = s.r(arith.AndIOp(bits, s.c(sign_mask, it)))
        signed_inf = s.r(arith.OrIOp(signed_zero, s.c(exponent_mask, it)))
        bits = s.select(overflows, signed_inf, bits)
        bits = s.select(underflows, signed_zero, bits)  # denormals flush to zero
    result = s.r(arith.BitcastOp(bits, t))
    if mantissa_bits == 0:
        # No mantissa bit is left to mark a NaN: it becomes the infinity of its sign
        # (as StableHLO's reference interpreter gives).
        sign = s.r(arith.AndIOp(x_bits, s.c(sign_mask, it)))
        infinity = s.r(arith.BitcastOp(s.r(arith.OrIOp(sign, s.c(exponent_mask, it))), t))
        return s.select(is_nan, infinity, result)
    return s.select(is_nan, x, result)


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------

UNARY_NAMES = frozenset(
    {
        *_FLOAT_UNARY,
        *(
            f"xla.{n}"
            for n in (
                "abs", "count_leading_zeros", "imag", "is_finite", "logistic", "not",
                "negate", "popcnt", "real", "sign",
            )
        ),
    }
)
"""The unary ops `emit_scalar_op` knows (every row of `UNARY_OPS`)."""

BINARY_NAMES = frozenset(
    f"xla.{n}"
    for n in (
        "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power",
        "atan2", "and", "or", "xor", "shift_left", "shift_right_arithmetic",
        "shift_right_logical",
    )
)
"""The binary ops `emit_scalar_op` knows (the real-valued rows of `BINARY_OPS`)."""


def emit_scalar_op(emit: Emit, op: Operation, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """Emit the scalar code of one element of the element-wise xla op `op` on the
    signless scalars `operands`; returns the result scalars (signless). Real
    element types only (complex ones: `lowering.scalar.emit_scalar_op`)."""
    s = _Scalar(emit, op)
    name = op.name
    if has_complex_elements(op):
        raise s.error("its complex elements are not real-valued (see lowering.scalar)")
    if len(operands) != len(op.operands):
        raise s.error(f"expected {len(op.operands)} scalar operands, got {len(operands)}")
    if name == "xla.compare":
        return [_compare(s, op, operands[0], operands[1])]
    if name == "xla.select":
        return [s.select(operands[0], operands[1], operands[2])]
    if name == "xla.clamp":
        return [_clamp(s, _element(op.operands[1]), operands[0], operands[1], operands[2])]
    if name == "xla.convert":
        return [_convert(s, _element(op.operands[0]), _element(op.results[0]), operands[0])]
    if name == "xla.bitcast_convert":
        return [_bitcast(s, _element(op.operands[0]), _element(op.results[0]), operands[0])]
    if name == "xla.reduce_precision":
        exponent_bits = op.properties["exponent_bits"]
        mantissa_bits = op.properties["mantissa_bits"]
        assert isinstance(exponent_bits, IntegerAttr) and isinstance(mantissa_bits, IntegerAttr)
        return [
            _reduce_precision(
                s, _element(op.operands[0]), operands[0], exponent_bits.value.data, mantissa_bits.value.data
            )
        ]
    if name in UNARY_NAMES:
        return [_unary(s, name, _element(op.operands[0]), operands[0])]
    if name in BINARY_NAMES:
        return [_binary(s, name, _element(op.operands[0]), operands[0], operands[1])]
    raise s.error("it is not an element-wise op with a scalar form")


def has_complex_elements(op: Operation) -> bool:
    """Whether an operand or result of `op` has a complex element type."""
    return any(is_complex(_element(v)) for v in (*op.operands, *op.results))


__all__ = [
    "BINARY_NAMES",
    "UNARY_NAMES",
    "Emit",
    "convert_element",
    "emit_scalar_op",
    "has_complex_elements",
    "scalar_constant",
    "signless_type",
    "total_order_key",
]
