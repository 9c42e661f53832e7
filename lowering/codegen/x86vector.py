"""The `x86vector` dialect: x86 vector instructions the `vector` dialect cannot say,
as MLIR's X86Vector dialect has them.

* `x86vector.avx512.dot %acc, %a, %b : vector<32xbf16> -> vector<16xf32>`: AVX512-BF16's
  `vdpbf16ps`: each f32 lane i of the result is `acc[i] + a[2i] * b[2i] + a[2i+1] *
  b[2i+1]`, the bf16 products taken exactly and summed in f32 (the instruction
  flushes subnormal inputs and results to zero). Lowered to LLVM's
  `llvm.x86.avx512bf16.dpbf16ps.512` by `convert-vector-to-llvm`.
* `x86vector.avx512.dot.i16 %acc, %a, %b : vector<32xi16> -> vector<16xi32>`:
  AVX512-VNNI's `vpdpwssd`: each i32 lane i of the result is `acc[i] + a[2i] * b[2i]
  + a[2i+1] * b[2i+1]`, the i16 operands signed, the products exact and the sums
  wrapping modulo 2^32 (as `arith.addi` wraps). Lowered to
  `llvm.x86.avx512.vpdpwssd.512`.
* `x86vector.avx2.pmaddwd %a, %b : vector<16xi16> -> vector<8xi32>`: AVX2's `vpmaddwd`:
  each i32 lane i is `a[2i] * b[2i] + a[2i+1] * b[2i+1]`, signed, wrapping (only
  -32768 * -32768 twice wraps). With an `arith.addi` it does what `vpdpwssd` does, on
  CPUs without AVX512-VNNI. Lowered to `llvm.x86.avx2.pmadd.wd`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BFloat16Type, Float32Type, IntegerType, VectorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


class _PairDot(IRDLOperation):
    """`acc + pairwise dot products` of 16 lanes; subclasses name the types."""

    ACC: ClassVar[Attribute]
    PAIRS: ClassVar[Attribute]

    _ACC: ClassVar = VarConstraint("ACC", base(VectorType))
    _IN: ClassVar = VarConstraint("IN", base(VectorType))

    src = operand_def(_ACC)
    a = operand_def(_IN)
    b = operand_def(_IN)
    dst = result_def(_ACC)

    traits = traits_def(Pure())

    assembly_format = "$src `,` $a `,` $b attr-dict `:` type($a) `->` type($src)"

    def __init__(self, src: SSAValue | Operation, a: SSAValue | Operation, b: SSAValue | Operation):
        super().__init__(operands=[src, a, b], result_types=[SSAValue.get(src).type])

    def verify_(self) -> None:
        acc, pairs = VectorType(self.ACC, [16]), VectorType(self.PAIRS, [32])
        if self.src.type != acc or self.dst.type != acc:
            raise VerifyException(f"'{self.name}' accumulates in {acc}, not {self.src.type}")
        if self.a.type != pairs or self.b.type != pairs:
            raise VerifyException(f"'{self.name}' multiplies {pairs} operands")


@irdl_op_definition
class DotBF16Op(_PairDot):
    """`vdpbf16ps`: bf16 pairs summed into f32 lanes (see the module docstring)."""

    name = "x86vector.avx512.dot"
    ACC: ClassVar[Attribute] = Float32Type()
    PAIRS: ClassVar[Attribute] = BFloat16Type()


@irdl_op_definition
class DotI16Op(_PairDot):
    """`vpdpwssd`: signed i16 pairs summed into i32 lanes (see the module docstring)."""

    name = "x86vector.avx512.dot.i16"
    ACC: ClassVar[Attribute] = IntegerType(32)
    PAIRS: ClassVar[Attribute] = IntegerType(16)


@irdl_op_definition
class MulAddI16Op(IRDLOperation):
    """`vpmaddwd`: signed i16 pairs summed into i32 lanes, no accumulator (see the
    module docstring)."""

    name = "x86vector.avx2.pmaddwd"

    _IN: ClassVar = VarConstraint("IN", base(VectorType))

    a = operand_def(_IN)
    b = operand_def(_IN)
    dst = result_def(VectorType)

    traits = traits_def(Pure())

    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($dst)"

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation):
        super().__init__(operands=[a, b], result_types=[VectorType(IntegerType(32), [8])])

    def verify_(self) -> None:
        pairs = VectorType(IntegerType(16), [16])
        if self.a.type != pairs or self.b.type != pairs:
            raise VerifyException(f"'{self.name}' multiplies {pairs} operands")
        if self.dst.type != VectorType(IntegerType(32), [8]):
            raise VerifyException(f"'{self.name}' gives vector<8xi32>, not {self.dst.type}")


X86Vector = Dialect("x86vector", [DotBF16Op, DotI16Op, MulAddI16Op])

__all__ = ["DotBF16Op", "DotI16Op", "MulAddI16Op", "X86Vector"]
