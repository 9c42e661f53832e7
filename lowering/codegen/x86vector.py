"""The `x86vector` dialect: x86 vector instructions the `vector` dialect cannot say,
as MLIR's X86Vector dialect has them.

* `x86vector.avx512.dot %acc, %a, %b : vector<32xbf16> -> vector<16xf32>`: AVX512-BF16's
  `vdpbf16ps`: each f32 lane i of the result is `acc[i] + a[2i] * b[2i] + a[2i+1] *
  b[2i+1]`, the bf16 products taken exactly and summed in f32 (the instruction
  flushes subnormal inputs and results to zero). Lowered to LLVM's
  `llvm.x86.avx512bf16.dpbf16ps.512` by `convert-vector-to-llvm`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BFloat16Type, Float32Type, VectorType
from xdsl.ir import Dialect, Operation, SSAValue
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


@irdl_op_definition
class DotBF16Op(IRDLOperation):
    """`acc + pairwise bf16 dot products`, 16 f32 lanes (see the module docstring)."""

    name = "x86vector.avx512.dot"

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
        f32x16 = VectorType(Float32Type(), [16])
        bf16x32 = VectorType(BFloat16Type(), [32])
        if self.src.type != f32x16 or self.dst.type != f32x16:
            raise VerifyException(f"'{self.name}' accumulates in vector<16xf32>, not {self.src.type}")
        if self.a.type != bf16x32 or self.b.type != bf16x32:
            raise VerifyException(f"'{self.name}' multiplies vector<32xbf16> operands")


X86Vector = Dialect("x86vector", [DotBF16Op])

__all__ = ["DotBF16Op", "X86Vector"]
