"""`llvm.fcmp` and `llvm.select` on vectors, as LLVM and MLIR's llvm dialect have them.

xDSL 0.74 types `llvm.fcmp` on scalar floats only (result `i1`) and `llvm.select`
with an `i1` condition only, though `llvm.icmp` already takes vectors. Element-wise
code on vectors (the polynomial approximations of tanh, exp, ...; the bf16 rounding
of `arith.truncf`) needs both on vectors: a vector of floats compares to a vector of
`i1`, which selects lane by lane. These ops keep the names, syntax and
properties of xDSL's and widen only the types (`runtime.llvm_backend` translates them;
llvmlite builds vector compares and selects):

* `llvm.fcmp`: operands of one float or vector-of-float type; result `i1`, or a
  vector of `i1` of the operands' shape;
* `llvm.select`: condition `i1` (all lanes) or a vector of `i1` of the result's shape;
* `llvm.extractelement`, which xDSL lacks (it has `llvm.insertelement`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import I1, AnyFloatConstr, IntegerAttr, IntegerType, VectorType, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

I1_OR_VECTOR = I1 | VectorType[I1]


def mask_type(t: Attribute) -> Attribute:
    """The type of a comparison of values of type `t`: `i1`, or a vector of `i1` shaped like `t`."""
    return VectorType(i1, t.get_shape()) if isinstance(t, VectorType) else i1


@irdl_op_definition
class FCmpOp(IRDLOperation):
    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", AnyFloatConstr | VectorType.constr(AnyFloatConstr))

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(I1_OR_VECTOR)
    predicate = prop_def(IntegerAttr[i64])
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: str | IntegerAttr[IntegerType],
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(predicate, str):
            predicate = IntegerAttr(llvm.FCmpPredicateFlag(predicate).to_int(), i64)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[mask_type(SSAValue.get(lhs).type)],
            attributes=attributes or {},
            properties={"predicate": predicate},
        )

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        predicate = parser.parse_str_literal()
        lhs = parser.parse_unresolved_operand()
        parser.parse_characters(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_characters(":")
        t = parser.parse_type()
        operands = parser.resolve_operands([lhs, rhs], [t, t], parser.pos)
        return cls(operands[0], operands[1], predicate, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{llvm.FCmpPredicateFlag.from_int(self.predicate.value.data)}" ')
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        if self.res.type != mask_type(self.lhs.type):
            raise VerifyException(f"result type {self.res.type} must be {mask_type(self.lhs.type)}")


@irdl_op_definition
class SelectOp(IRDLOperation):
    name = "llvm.select"

    T: ClassVar = VarConstraint("T", AnyAttr())

    cond = operand_def(I1_OR_VECTOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())

    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, cond: Operation | SSAValue, lhs: Operation | SSAValue, rhs: Operation | SSAValue):
        super().__init__(operands=[cond, lhs, rhs], result_types=[SSAValue.get(lhs).type])

    def verify_(self) -> None:
        if isinstance(self.cond.type, VectorType) and self.cond.type != mask_type(self.res.type):
            raise VerifyException(
                f"a vector condition {self.cond.type} must have the shape of the result {self.res.type}"
            )


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`llvm.extractelement %vector[%index : i64] : vector<NxT>`: one lane (xDSL has the
    insertion only). Scalar calls on vectors (libm) go lane by lane with it."""

    name = "llvm.extractelement"

    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()

    traits = traits_def(Pure())  # printed in the generic form, which MLIR reads too

    def __init__(self, vector: Operation | SSAValue, position: Operation | SSAValue):
        t = SSAValue.get(vector).type
        assert isinstance(t, VectorType)
        super().__init__(operands=[vector, position], result_types=[t.element_type])

    def verify_(self) -> None:
        t = self.vector.type
        assert isinstance(t, VectorType)
        if self.res.type != t.element_type:
            raise VerifyException(f"result type {self.res.type} must be the element type {t.element_type}")


__all__ = ["ExtractElementOp", "FCmpOp", "SelectOp", "mask_type"]
