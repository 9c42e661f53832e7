"""`Emitter`: builds element-wise `arith`/`math` code on one float type, scalar or vector.

The expansions of `math-polynomial-approximation` are written once against
this class, so the same code serves `f32` and `vector<Nxf32>` (and the `f64`
intermediates of powf and cbrt): constants become splats of the operand's
shape, comparisons give `i1` of that shape, and the integer views used for
bit manipulation (`bits`, `from_bits`) have the same shape and width.
Polynomials are evaluated by Horner's rule with `math.fma`, which is an
LLVM intrinsic that vectorizes (a single instruction on any x86-64 with FMA).

`ldexp` (x 2^k, rounded once) is `llvm.ldexp` where the target has AVX-512: LLVM
vectorizes it and selects `vscalefps`, one instruction for what takes eight
otherwise (two normal factors `2^(k/2)`, built from their bits, and two
products); without AVX-512 it would be a libm call, so there the eight stay.

`quotient` (a / b for a finite, nonzero b) is a division, or where the target divides
slowly (`Target.reciprocal_division`: Intel's AVX-512 cores) the reciprocal `r = 1 / b`
marked `arcp ninf contract`, which LLVM computes in vectors as an estimate (`vrcp14ps`,
relative error 2^-14; `vrcpps`, 1.5 2^-12, in 256- and 128-bit epilogues) refined by
one Newton step (its error ~2^-24), then `q0 = a r`, its residual `t = b q0 - a` in one
fma, and `q = q0 - t r`: the error left is about the product of those of q0 and r,
~2^-47 relative, so the quotient is the division's except within that distance of a
rounding tie, where it may round the other way (1 ulp: logistic near x = 1e-7, where
`1 / (2 - 2^-23)` is 2^-49 above a tie; no difference on 1M random points of tanh and
erfc). LLVM does not estimate scalar divisions, so a loop's scalar remainder divides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import OperandDef, ResultDef
from xdsl.irdl.constraints import EqAttrConstraint, VerificationContext


def element_of(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def shaped_like(t: Attribute, element: Attribute) -> Attribute:
    """`element`, or a vector of it with the shape of `t`."""
    if isinstance(t, VectorType):
        return VectorType(element, t.get_shape(), t.scalable_dims)
    return element


def native_ldexp_default() -> bool:
    """Whether the code generator's target scales by powers of two in one instruction
    (AVX-512's `vscalefps`, which LLVM selects for a vectorized `llvm.ldexp`)."""
    from lowering.codegen.target import get_target

    return get_target().vector_bits >= 512


def reciprocal_division_default() -> bool:
    """Whether the code generator's target divides by a refined reciprocal (`Emitter.quotient`)."""
    from lowering.codegen.target import get_target

    return get_target().reciprocal_division


class Emitter:
    """Appends ops to `ops`, computing on values of the float type `ftype`.
    `native_ldexp`: emit `ldexp` as the `llvm.ldexp` intrinsic (None: when the
    target has AVX-512). `reciprocal`: `quotient` divides through a refined reciprocal
    (None: the target's `reciprocal_division`)."""

    def __init__(
        self,
        ops: list[Operation],
        ftype: Attribute,
        native_ldexp: bool | None = None,
        reciprocal: bool | None = None,
    ):
        element = element_of(ftype)
        assert isinstance(element, Float32Type | Float64Type)
        self.ops = ops
        self.ftype = ftype
        self.element: AnyFloat = element
        self.width = 32 if isinstance(element, Float32Type) else 64
        self.itype = shaped_like(ftype, IntegerType(self.width))
        self.btype = shaped_like(ftype, i1)
        self._consts: dict[tuple[str, float | int], SSAValue] = {}
        self.native_ldexp = native_ldexp_default() if native_ldexp is None else native_ldexp
        self.reciprocal = reciprocal_division_default() if reciprocal is None else reciprocal
        self._int_of: dict[SSAValue, SSAValue] = {}

    def like(self, element: AnyFloat) -> Emitter:
        """An emitter on `element` with this one's shape, sharing the op list."""
        return Emitter(self.ops, shaped_like(self.ftype, element), self.native_ldexp, self.reciprocal)

    def op(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    # -- constants -----------------------------------------------------------

    def _splat(self, attr: FloatAttr | IntegerAttr, t: Attribute) -> SSAValue:
        if isinstance(t, VectorType):
            dense = DenseIntOrFPElementsAttr.from_list(t, [attr.value.data])  # pyright: ignore
            return self.op(arith.ConstantOp(dense, t))
        return self.op(arith.ConstantOp(attr))

    def c(self, value: float) -> SSAValue:
        """A float constant (rounded to the element type)."""
        key = ("f", float(value))
        if key not in self._consts:
            self._consts[key] = self._splat(FloatAttr(float(value), self.element), self.ftype)
        return self._consts[key]

    def ci(self, value: int) -> SSAValue:
        """An integer constant of the element width (two's complement)."""
        value &= (1 << self.width) - 1
        if value >= 1 << (self.width - 1):
            value -= 1 << self.width
        key = ("i", value)
        if key not in self._consts:
            self._consts[key] = self._splat(IntegerAttr(value, IntegerType(self.width)), self.itype)
        return self._consts[key]

    # -- float arithmetic ----------------------------------------------------

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.AddfOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.SubfOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.MulfOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.DivfOp(a, b))

    def quotient(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a / b for b finite and nonzero (`ninf` makes an infinite b poison): a
        division, or with `reciprocal` (f32) the refined reciprocal and the correction
        step of the module docstring. A NaN goes through either."""
        if not self.reciprocal or self.width != 32:
            return self.div(a, b)
        flags = arith.FastMathFlagsAttr([FastMathFlag(name) for name in ("arcp", "ninf", "contract")])
        r = self.op(arith.DivfOp(self.c(1.0), b, flags))
        q0 = self.mul(a, r)
        residual = self.fma(b, q0, self.neg(a))
        return self.fma(self.neg(residual), r, q0)

    def neg(self, a: SSAValue) -> SSAValue:
        return self.op(arith.NegfOp(a))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        """a * b + c, rounded once."""
        return self.op(math.FmaOp(a, b, c))

    def abs(self, a: SSAValue) -> SSAValue:
        return self.op(math.AbsFOp(a))

    def copysign(self, magnitude: SSAValue, sign: SSAValue) -> SSAValue:
        return self.op(math.CopySignOp(magnitude, sign))

    def floor(self, a: SSAValue) -> SSAValue:
        return self.op(math.FloorOp(a))

    def roundeven(self, a: SSAValue) -> SSAValue:
        return self.op(math.RoundEvenOp(a))

    def sqrt(self, a: SSAValue) -> SSAValue:
        return self.op(math.SqrtOp(a))

    def min(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a < b ? a : b (b when either is NaN)."""
        return self.select(self.cmp("olt", a, b), a, b)

    def max(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a > b ? a : b (b when either is NaN)."""
        return self.select(self.cmp("ogt", a, b), a, b)

    def poly(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """sum c_i x^i (lowest degree first), Horner with fma."""
        acc = self.c(coefficients[-1])
        for coefficient in reversed(coefficients[:-1]):
            acc = self.fma(acc, x, self.c(coefficient))
        return acc

    # -- comparisons and selection ---------------------------------------------

    def cmp(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        op = arith.CmpfOp(a, b, predicate)
        if self.btype != i1:
            template, op = op, arith.CmpfOp.create(operands=[a, b], result_types=[self.btype], properties=dict(op.properties))
            template.drop_all_references()  # it only supplied the predicate: its uses of a and b go
        return self.op(op)

    def cmpi(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        op = arith.CmpiOp(a, b, predicate)
        if self.btype != i1:
            template, op = op, arith.CmpiOp.create(operands=[a, b], result_types=[self.btype], properties=dict(op.properties))
            template.drop_all_references()  # it only supplied the predicate: its uses of a and b go
        return self.op(op)

    def is_nan(self, a: SSAValue) -> SSAValue:
        return self.cmp("uno", a, a)

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.SelectOp(condition, a, b))

    def either(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.OrIOp(a, b))

    def both(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.AndIOp(a, b))

    # -- integers and bits -----------------------------------------------------

    def bits(self, a: SSAValue) -> SSAValue:
        """The bit pattern of a float as a signless integer."""
        return self.op(arith.BitcastOp(a, self.itype))

    def from_bits(self, a: SSAValue) -> SSAValue:
        return self.op(arith.BitcastOp(a, self.ftype))

    def to_int(self, a: SSAValue) -> SSAValue:
        """Float → signed integer (the value must be in range: callers clamp); the integer
        `rint` made `a` from, when it did."""
        known = self._int_of.get(a)
        if known is not None:
            return known
        return self.op(arith.FPToSIOp.create(operands=[a], result_types=[self.itype]))

    def rint(self, a: SSAValue) -> SSAValue:
        """a rounded to the nearest integer, ties to even, as a float (|a| < 2^31). With
        `native_ldexp`, `llvm.lrint` (`vcvtps2dq`) and back (`vcvtdq2ps`, which LLVM
        shares with `llvm.ldexp`'s own conversion): one instruction fewer than `roundeven`
        and the `fptosi` of `to_int`, which then returns the integer."""
        t = self.ftype
        if not self._native_for(t):
            return self.roundeven(a)
        suffix = (lambda e: f"v{t.get_shape()[0]}{e}") if isinstance(t, VectorType) else (lambda e: e)
        k = self.op(llvm.CallIntrinsicOp(f"llvm.lrint.{suffix('i32')}.{suffix('f32')}", [a], [self.itype]))
        result = self.to_float(k)
        self._int_of[result] = k
        return result

    def to_float(self, a: SSAValue) -> SSAValue:
        return self.op(arith.SIToFPOp.create(operands=[a], result_types=[self.ftype]))

    def addi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.AddiOp(a, b))

    def subi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.SubiOp(a, b))

    def muli(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.MuliOp(a, b))

    def andi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.AndIOp(a, b))

    def ori(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.OrIOp(a, b))

    def xori(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.XOrIOp(a, b))

    def shl(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.ShLIOp(a, b))

    def shr(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """Arithmetic (sign-filling) right shift."""
        return self.op(arith.ShRSIOp(a, b))

    def shru(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(arith.ShRUIOp(a, b))

    def convert(self, a: SSAValue, to: Emitter) -> SSAValue:
        """A float of this emitter's type to `to`'s (exact widening or one rounding)."""
        cls = arith.ExtFOp if to.width > self.width else arith.TruncFOp
        return self.op(cls(a, to.ftype))

    # -- helpers shared by the families -----------------------------------------

    def ldexp_exact(self, x: SSAValue, k: SSAValue) -> SSAValue:
        """x * 2^k for integer k in [-2 emin, 2 emax], rounded once: two factors 2^(k/2)
        that are normal numbers, so the result is subnormal, normal or inf as it should be."""
        bias, mantissa = (127, 23) if self.width == 32 else (1023, 52)
        half = self.shr(k, self.ci(1))
        rest = self.subi(k, half)
        first = self.from_bits(self.shl(self.addi(half, self.ci(bias)), self.ci(mantissa)))
        second = self.from_bits(self.shl(self.addi(rest, self.ci(bias)), self.ci(mantissa)))
        return self.mul(self.mul(x, first), second)

    def ldexp(self, x: SSAValue, k: SSAValue) -> SSAValue:
        """x * 2^k rounded once, k an integer of the element width in [-2 emin, 2 emax]:
        `llvm.ldexp` (f32 scalars and 1-D vectors, when `native_ldexp`), else
        `ldexp_exact`."""
        t = self.ftype
        if not self._native_for(t):
            return self.ldexp_exact(x, k)
        suffix = (lambda e: f"v{t.get_shape()[0]}{e}") if isinstance(t, VectorType) else (lambda e: e)
        return self.op(llvm.CallIntrinsicOp(f"llvm.ldexp.{suffix('f32')}.{suffix('i32')}", [x, k], [t]))

    def pow2(self, k: SSAValue) -> SSAValue:
        """2^k for integer k of the normal exponent range: `ldexp(1, k)` (one `vscalefps`,
        the conversion of k shared) when `native_ldexp`, else `pow2i`'s two integer ops."""
        return self.ldexp(self.c(1.0), k) if self._native_for(self.ftype) else self.pow2i(k)

    @property
    def nan_flows(self) -> bool:
        """Whether a NaN may go through `rint`/`to_int`/`ldexp` (`llvm.lrint` gives some
        integer for it, `llvm.ldexp` keeps the NaN), so that expansions need not select
        it back; `fptosi` of NaN is poison, so not with the bit-built form."""
        return self._native_for(self.ftype)

    def _native_for(self, t: Attribute) -> bool:
        return self.native_ldexp and self.width == 32 and not (isinstance(t, VectorType) and t.get_num_dims() != 1)

    def pow2i(self, k: SSAValue) -> SSAValue:
        """2^k for integer k of the normal exponent range."""
        bias, mantissa = (127, 23) if self.width == 32 else (1023, 52)
        return self.from_bits(self.shl(self.addi(k, self.ci(bias)), self.ci(mantissa)))


@dataclass(frozen=True)
class _BoolLike(EqAttrConstraint[Attribute]):
    """`i1`, or a vector of `i1`: infers `i1` (so the ops' textual forms still
    parse as before) but also accepts the vector form."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if isinstance(attr, VectorType) and attr.element_type == i1:
            return
        super().verify(attr, constraint_context)


def _allow_vector_operands() -> None:
    """Let `arith.cmpf/cmpi` give, and `arith.select` take, `vector<...xi1>`, and
    `arith.fptosi/sitofp` convert vectors, as in MLIR (xDSL 0.74 declares these for
    scalars only, so a vector expansion would not verify). Scalar IR is
    unaffected: the i1 constraints still infer i1 for the assembly formats."""

    def widen(defs: list[tuple[str, OperandDef]] | list[tuple[str, ResultDef]], name: str, constraint: object) -> None:
        for i, (n, d) in enumerate(defs):
            if n == name:
                defs[i] = (n, type(d)(constraint))  # pyright: ignore

    widen(arith.CmpfOp.get_irdl_definition().results, "result", _BoolLike(i1))
    widen(arith.CmpiOp.get_irdl_definition().results, "result", _BoolLike(i1))
    widen(arith.SelectOp.get_irdl_definition().operands, "cond", _BoolLike(i1))
    widen(arith.FPToSIOp.get_irdl_definition().operands, "input", arith.floatingPointLike)
    widen(arith.FPToSIOp.get_irdl_definition().results, "result", arith.signlessIntegerLike)
    widen(arith.SIToFPOp.get_irdl_definition().operands, "input", arith.signlessIntegerLike)
    widen(arith.SIToFPOp.get_irdl_definition().results, "result", arith.floatingPointLike)


_allow_vector_operands()
