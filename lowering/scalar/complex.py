"""XLA's element-wise ops on complex elements as scalar `complex` dialect code.

`emit_complex_scalar_op` is `scalar.emit_scalar_op` for the ops that have a
complex operand or result (`complex<f32>`, `complex<f64>`). It follows MLIR's
split of the work: here each xla op becomes the matching op of xDSL's `complex`
dialect (`xla.multiply` → `complex.mul`, `xla.abs` → `complex.abs`,
`xla.real` → `complex.re`, `xla.complex` → `complex.create`, ...), and the
pass `convert-complex-to-standard` (lowering.complex_to_standard) later
expands them into `arith`/`math` on the real and imaginary parts, where the
numerically careful algorithms live (Smith's division, scaled modulus, ...).
Keeping the `complex` ops this long leaves the linalg bodies short and readable
in the intermediate IR.

Ops the `complex` dialect lacks are composed from its ops:

* `cbrt(z)` = `z ^ (1/3)` (principal root, as XLA's complex cbrt);
* `logistic(z)` = `1 / (1 + exp(-z))`;
* `atan2(y, x)` = `-i log((x + i y) / sqrt(x² + y²))`, XLA's complex atan2.

Conversions: complex → complex converts both parts; a real (float, integer or
PRED) becomes the real part (converted with `xla.convert`'s semantics) with a
zero imaginary part; complex → real keeps the real part, as XLA does.
`select` picks whole complex values (`arith.select`, split into the parts by
`convert-complex-to-standard`). `EQ`/`NE` compare both parts (IEEE).

Order: StableHLO defines `maximum`, `minimum` and `clamp` on complex numbers by
the lexicographic order of (real, imaginary), exactly as its reference
interpreter computes them: `max(a, b) = gt(a, b) ? a : b` with
`gt(a, b) = re(a) == re(b) ? im(a) > im(b) : re(a) > re(b)` (IEEE compares,
so -0 == +0 and a NaN part makes the compare false, picking `b`); `min` uses
`<` likewise and `clamp(lo, x, hi) = min(max(x, lo), hi)`. A `TOTALORDER`
compare (the only ordered compare the dialect accepts on complex numbers) is
lexicographic over the total order of each part (the integer keys of
`real.total_order_key`; `EQ`/`NE` then compare bit patterns).

`bitcast_convert` moves a complex value's bits as one integer of twice the
part's width, the real part in the low half (the memory layout, little-endian):
`complex_to_bits`/`bits_to_complex`. `remainder` is rejected with a diagnostic.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, complex
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, ComplexType, FloatAttr, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue

from lowering.scalar.real import Emit, convert_element, total_order_key
from lowering.to_llvm.common import bitwidth
from xla_dialect.attributes import ComparisonDirectionAttr, ComparisonType, ComparisonTypeAttr
from xla_dialect.diagnostics import LoweringError
from xla_dialect.types import element_type_of, format_type, is_complex

_UNARY: dict[str, type[Operation]] = {
    "xla.negate": complex.NegOp,
    "xla.exponential": complex.ExpOp,
    "xla.exponential_minus_one": complex.Expm1Op,
    "xla.log": complex.LogOp,
    "xla.log_plus_one": complex.Log1pOp,
    "xla.sqrt": complex.SqrtOp,
    "xla.rsqrt": complex.RsqrtOp,
    "xla.sine": complex.SinOp,
    "xla.cosine": complex.CosOp,
    "xla.tan": complex.TanOp,
    "xla.tanh": complex.TanhOp,
    "xla.sign": complex.SignOp,
}

_BINARY: dict[str, type[Operation]] = {
    "xla.add": complex.AddOp,
    "xla.subtract": complex.SubOp,
    "xla.multiply": complex.MulOp,
    "xla.divide": complex.DivOp,
    "xla.power": complex.PowOp,
}

_PARTS: dict[str, type[Operation]] = {
    "xla.real": complex.ReOp,
    "xla.imag": complex.ImOp,
    "xla.abs": complex.AbsOp,
}


def complex_constant(emit: Emit, real: float, imag: float, t: ComplexType) -> SSAValue:
    """The scalar `real + i*imag` of complex type `t` (`complex.constant`)."""
    part = t.element_type
    assert isinstance(part, AnyFloat)
    value = ArrayAttr([FloatAttr(float(real), part), FloatAttr(float(imag), part)])
    return emit(complex.ConstantOp(value, t)).results[0]


class _Complex:
    def __init__(self, emit: Emit, op: Operation):
        self.emit = emit
        self.op = op

    def r(self, new: Operation) -> SSAValue:
        return self.emit(new).results[0]

    def error(self, what: str) -> LoweringError:
        return LoweringError(f"cannot lower '{self.op.name}': {what}", self.op)

    def const(self, real: float, imag: float, t: Attribute) -> SSAValue:
        assert isinstance(t, ComplexType)
        return complex_constant(self.emit, real, imag, t)

    def convert(self, src: Attribute, dst: Attribute, x: SSAValue) -> SSAValue:
        if is_complex(src) and is_complex(dst):
            if src == dst:
                return x
            assert isinstance(src, ComplexType) and isinstance(dst, ComplexType)
            re = self.r(complex.ReOp(x))
            im = self.r(complex.ImOp(x))
            re = convert_element(self.emit, self.op, re, src.element_type, dst.element_type)
            im = convert_element(self.emit, self.op, im, src.element_type, dst.element_type)
            return self.r(complex.CreateOp(re, im, dst))
        if is_complex(dst):
            assert isinstance(dst, ComplexType)
            part = dst.element_type
            re = convert_element(self.emit, self.op, x, src, part)
            zero = self.r(arith.ConstantOp(FloatAttr(0.0, part)))  # pyright: ignore[reportArgumentType]
            return self.r(complex.CreateOp(re, zero, dst))
        assert isinstance(src, ComplexType)
        re = self.r(complex.ReOp(x))
        return convert_element(self.emit, self.op, re, src.element_type, dst)


def convert_complex_element(emit: Emit, op: Operation, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """`x` of element type `src` converted to `dst` (one of them complex) with
    `xla.convert`'s semantics."""
    return _Complex(emit, op).convert(src, dst, x)


def complex_to_bits(emit: Emit, x: SSAValue, t: ComplexType) -> SSAValue:
    """The bits of the complex scalar `x` as one integer: the real part's bits
    in the low half, the imaginary part's in the high half."""
    part = t.element_type
    assert isinstance(part, AnyFloat)
    half = IntegerType(part.bitwidth)
    whole = IntegerType(2 * part.bitwidth)

    def r(new: Operation) -> SSAValue:
        return emit(new).results[0]

    re = r(arith.ExtUIOp(r(arith.BitcastOp(r(complex.ReOp(x)), half)), whole))
    im = r(arith.ExtUIOp(r(arith.BitcastOp(r(complex.ImOp(x)), half)), whole))
    shift = r(arith.ConstantOp.from_int_and_width(part.bitwidth, whole))
    return r(arith.OrIOp(re, r(arith.ShLIOp(im, shift))))


def bits_to_complex(emit: Emit, bits: SSAValue, t: ComplexType) -> SSAValue:
    """The complex scalar of type `t` whose bits (as `complex_to_bits` lays
    them out) are the integer `bits`."""
    part = t.element_type
    assert isinstance(part, AnyFloat)
    half = IntegerType(part.bitwidth)
    whole = IntegerType(2 * part.bitwidth)

    def r(new: Operation) -> SSAValue:
        return emit(new).results[0]

    shift = r(arith.ConstantOp.from_int_and_width(part.bitwidth, whole))
    re = r(arith.BitcastOp(r(arith.TruncIOp(bits, half)), part))
    im = r(arith.BitcastOp(r(arith.TruncIOp(r(arith.ShRUIOp(bits, shift)), half)), part))
    return r(complex.CreateOp(re, im, t))


_STRICT_KEY_PREDICATES = {"GT": "sgt", "GE": "sgt", "LT": "slt", "LE": "slt"}
"""The strict order on total-order keys each ordered direction starts from."""


def _lexicographic(c: _Complex, strict: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """StableHLO's complex order: `re(a) == re(b) ? im(a) <strict> im(b) :
    re(a) <strict> re(b)` with IEEE compares (`strict` is `ogt` or `olt`)."""
    ra, rb = c.r(complex.ReOp(a)), c.r(complex.ReOp(b))
    ia, ib = c.r(complex.ImOp(a)), c.r(complex.ImOp(b))
    same_real = c.r(arith.CmpfOp(ra, rb, "oeq"))
    by_imag = c.r(arith.CmpfOp(ia, ib, strict))
    by_real = c.r(arith.CmpfOp(ra, rb, strict))
    return c.r(arith.SelectOp(same_real, by_imag, by_real))


def _pick(c: _Complex, strict: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a` if it comes first by `strict` (`ogt`: maximum, `olt`: minimum), else `b`."""
    return c.r(arith.SelectOp(_lexicographic(c, strict, a, b), a, b))


def _total_order_compare(c: _Complex, t: ComplexType, d: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a <d> b` lexicographically over the total order of the parts."""
    part = t.element_type
    keys = [
        total_order_key(c.emit, c.op, part, c.r(cls(v)))
        for v in (a, b)
        for cls in (complex.ReOp, complex.ImOp)
    ]
    ra, ia, rb, ib = keys
    same_real = c.r(arith.CmpiOp(ra, rb, "eq"))
    same_imag = c.r(arith.CmpiOp(ia, ib, "eq"))
    equal = c.r(arith.AndIOp(same_real, same_imag))
    if d == "EQ":
        return equal
    if d == "NE":
        return c.r(arith.XOrIOp(equal, c.r(arith.ConstantOp.from_int_and_width(1, 1))))
    strict = _STRICT_KEY_PREDICATES[d]
    by_imag = c.r(arith.CmpiOp(ia, ib, strict))
    by_real = c.r(arith.CmpiOp(ra, rb, strict))
    ordered = c.r(arith.SelectOp(same_real, by_imag, by_real))
    if d in ("GE", "LE"):
        return c.r(arith.OrIOp(ordered, equal))
    return ordered


def emit_complex_scalar_op(emit: Emit, op: Operation, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """One element of the element-wise xla op `op`, some of whose operand or
    result element types are complex, as `complex`/`arith` ops."""
    c = _Complex(emit, op)
    name = op.name
    in_types = [element_type_of(v.type) for v in op.operands]
    out_type = element_type_of(op.results[0].type)
    if len(operands) != len(op.operands):
        raise c.error(f"expected {len(op.operands)} scalar operands, got {len(operands)}")
    if name == "xla.complex":
        return [c.r(complex.CreateOp(operands[0], operands[1], out_type))]  # pyright: ignore[reportArgumentType]
    if name == "xla.convert":
        return [c.convert(in_types[0], out_type, operands[0])]
    if name == "xla.select":
        return [c.r(arith.SelectOp(operands[0], operands[1], operands[2]))]
    if name == "xla.compare":
        direction = op.properties["comparison_direction"]
        assert isinstance(direction, ComparisonDirectionAttr)
        d = direction.data.value
        compare_type = op.properties.get("compare_type")
        if isinstance(compare_type, ComparisonTypeAttr) and compare_type.data == ComparisonType.TOTALORDER:
            assert isinstance(in_types[0], ComplexType)
            return [_total_order_compare(c, in_types[0], d, operands[0], operands[1])]
        if d == "EQ":
            return [c.r(complex.EqualOp(operands[0], operands[1]))]
        if d == "NE":
            return [c.r(complex.NotEqualOp(operands[0], operands[1]))]
        raise c.error(f"comparison {d} of complex numbers is not supported (only EQ and NE, or TOTALORDER)")
    if name == "xla.maximum":
        return [_pick(c, "ogt", operands[0], operands[1])]
    if name == "xla.minimum":
        return [_pick(c, "olt", operands[0], operands[1])]
    if name == "xla.clamp":
        lo, x, hi = operands
        return [_pick(c, "olt", _pick(c, "ogt", x, lo), hi)]
    if name == "xla.bitcast_convert":
        return [_bitcast_complex(c, in_types[0], out_type, operands[0])]
    if name in _PARTS:
        return [c.r(_PARTS[name](operands[0]))]
    if name in _UNARY:
        return [c.r(_UNARY[name](operands[0]))]
    if name in _BINARY:
        return [c.r(_BINARY[name](operands[0], operands[1]))]
    t = in_types[0]
    if name == "xla.cbrt":
        third = c.const(1.0 / 3.0, 0.0, t)
        return [c.r(complex.PowOp(operands[0], third))]
    if name == "xla.logistic":
        one = c.const(1.0, 0.0, t)
        e = c.r(complex.ExpOp(c.r(complex.NegOp(operands[0]))))
        return [c.r(complex.DivOp(one, c.r(complex.AddOp(one, e))))]
    if name == "xla.atan2":
        y, x = operands
        i = c.const(0.0, 1.0, t)
        numerator = c.r(complex.AddOp(x, c.r(complex.MulOp(i, y))))
        norm = c.r(
            complex.SqrtOp(c.r(complex.AddOp(c.r(complex.MulOp(x, x)), c.r(complex.MulOp(y, y)))))
        )
        log = c.r(complex.LogOp(c.r(complex.DivOp(numerator, norm))))
        minus_i = c.const(0.0, -1.0, t)
        return [c.r(complex.MulOp(minus_i, log))]
    raise c.error(f"it is not defined on element type {format_type(t)}")


def _bitcast_complex(c: _Complex, src: Attribute, dst: Attribute, x: SSAValue) -> SSAValue:
    """A same-width bitcast with a complex side (through the integer bits)."""
    if bitwidth(src) != bitwidth(dst):
        raise c.error(
            f"bitcast between widths ({format_type(src)} to {format_type(dst)}) has no "
            "scalar form: the element-wise lowering regroups the elements"
        )
    width = IntegerType(bitwidth(src))
    bits = complex_to_bits(c.emit, x, src) if isinstance(src, ComplexType) else x
    if isinstance(bits.type, AnyFloat):
        bits = c.r(arith.BitcastOp(bits, width))
    if isinstance(dst, ComplexType):
        return bits_to_complex(c.emit, bits, dst)
    if isinstance(dst, AnyFloat):
        return c.r(arith.BitcastOp(bits, dst))
    return bits


__all__ = [
    "bits_to_complex",
    "complex_constant",
    "complex_to_bits",
    "convert_complex_element",
    "emit_complex_scalar_op",
]
