"""`convert-complex-to-llvm`: what `convert-complex-to-standard` leaves of the
`complex` dialect → the `llvm` dialect (MLIR's ComplexToLLVM).

A `complex<fT>` value is the literal struct `!llvm.struct<(fT, fT)>` (the type
conversion lives in `lowering.to_llvm.common.convert_type`): real part first,
the layout of C's `_Complex`, of NumPy's complex64/complex128 and of XLA's
buffers, so memrefs of complex elements are loaded and stored as whole structs.

* `complex.create %re, %im` → `llvm.mlir.undef` + two `llvm.insertvalue`;
* `complex.re`/`complex.im` → `llvm.extractvalue [0]`/`[1]`;
* `complex.constant` → the two float constants, inserted as above.

Complex arithmetic must be expanded first by `convert-complex-to-standard`;
`convert-to-llvm` names any complex op left over.
"""

from __future__ import annotations

from xdsl.dialects import complex, llvm
from xdsl.dialects.builtin import ComplexType, DenseArrayBase, FloatAttr, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from lowering.to_llvm.common import (
    ConversionPass,
    convert_type,
    float_constant,
    llvm_operand,
    replace_with_llvm,
)
from xla_dialect.diagnostics import LoweringError


def _position(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [index])


def _struct(re: SSAValue, im: SSAValue, t: ComplexType, ops: list[Operation]) -> SSAValue:
    struct_type = convert_type(t)
    undef = llvm.UndefOp(struct_type)
    with_re = llvm.InsertValueOp(_position(0), undef.res, re)
    with_im = llvm.InsertValueOp(_position(1), with_re.res, im)
    ops.extend([undef, with_re, with_im])
    return with_im.res


class ComplexToLLVM(RewritePattern):
    op_types = (complex.CreateOp, complex.ReOp, complex.ImOp, complex.ConstantOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        ops: list[Operation] = []
        if isinstance(op, complex.CreateOp):
            t = op.complex.type
            assert isinstance(t, ComplexType)
            re = llvm_operand(op.real, rewriter, op)
            im = llvm_operand(op.imaginary, rewriter, op)
            result = _struct(re, im, t, ops)
        elif isinstance(op, (complex.ReOp, complex.ImOp)):
            value = llvm_operand(op.complex, rewriter, op)
            index = 0 if isinstance(op, complex.ReOp) else 1
            extract = llvm.ExtractValueOp(_position(index), value, convert_type(op.result.type))
            ops.append(extract)
            result = extract.res
        elif isinstance(op, complex.ConstantOp):
            t = op.complex.type
            assert isinstance(t, ComplexType)
            re_attr, im_attr = op.value.data
            if not isinstance(re_attr, FloatAttr) or not isinstance(im_attr, FloatAttr):
                raise LoweringError("integer complex constants are not supported", op)
            re = float_constant(re_attr.value.data, t.element_type)
            im = float_constant(im_attr.value.data, t.element_type)
            ops.extend([re, im])
            result = _struct(re.result, im.result, t, ops)
        else:
            return
        replace_with_llvm(op, ops, [result], rewriter)


def complex_patterns() -> list[RewritePattern]:
    return [ComplexToLLVM()]


class ConvertComplexToLLVMPass(ConversionPass):
    """Lower `complex.create/re/im/constant` to llvm struct operations."""

    name = "convert-complex-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return complex_patterns()


__all__ = ["ConvertComplexToLLVMPass", "complex_patterns"]
