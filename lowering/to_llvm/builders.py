"""The llvm ops the conversions build by the thousand, made with `create` and shared
attributes.

xDSL's builders of `llvm.getelementptr`, `llvm.load`, `llvm.store`, `llvm.icmp` and the
integer arithmetic with overflow flags build and verify new attributes for every op
(an `IntegerAttr(0, 32)` builds its `IntegerType` too): on the small GPT's Adam step
those were a fifth of `convert-to-llvm`. The builders here make the same ops, with the
same properties, from attributes made once (attributes are immutable values, so ops
share them); `tests/unit/test_llvm_builders.py` compares them with xDSL's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from lowering.to_llvm.common import PTR, integer_attr

_ORDERING = IntegerAttr(0, i64)
_NO_WRAP = IntegerAttr(0, 32)
_INBOUNDS = UnitAttr()
_NONTEMPORAL = UnitAttr()


@functools.lru_cache(maxsize=1 << 16)
def _raw_indices(indices: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, indices)


def gep(ptr: SSAValue, indices: Sequence[int | SSAValue], element: Attribute, *, inbounds: bool = True) -> llvm.GEPOp:
    """`llvm.GEPOp.from_mixed_indices(ptr, indices, element, inbounds=inbounds)`."""
    raw: list[int] = []
    dynamic: list[SSAValue] = []
    for index in indices:
        if isinstance(index, int):
            raw.append(index)
        else:
            raw.append(llvm.GEP_USE_SSA_VAL)
            dynamic.append(index)
    properties: dict[str, Attribute] = {
        "rawConstantIndices": _raw_indices(tuple(raw)),
        "elem_type": element,
        "noWrapFlags": _NO_WRAP,
    }
    if inbounds:
        properties["inbounds"] = _INBOUNDS
    return llvm.GEPOp.create(operands=[ptr, *dynamic], result_types=[PTR], properties=properties)


def load(address: SSAValue, t: Attribute, alignment: int | None = None) -> llvm.LoadOp:
    """`llvm.LoadOp(address, t, alignment=alignment)`."""
    properties: dict[str, Attribute] = {"ordering": _ORDERING}
    if alignment is not None:
        properties["alignment"] = integer_attr(alignment, i64)
    return llvm.LoadOp.create(operands=[address], result_types=[t], properties=properties)


def store(value: SSAValue, address: SSAValue, alignment: int | None = None, *, nontemporal: bool = False) -> llvm.StoreOp:
    """`llvm.StoreOp(value, address, alignment=alignment, nontemporal=nontemporal)`."""
    properties: dict[str, Attribute] = {"ordering": _ORDERING}
    if alignment is not None:
        properties["alignment"] = integer_attr(alignment, i64)
    if nontemporal:
        properties["nontemporal"] = _NONTEMPORAL
    return llvm.StoreOp.create(operands=[value, address], properties=properties)


def icmp(lhs: SSAValue, rhs: SSAValue, predicate: str) -> llvm.ICmpOp:
    """`llvm.ICmpOp(lhs, rhs, <predicate>)`, of `i1` on scalars and of a vector of
    `i1` on vectors (xDSL's builder types it `i1` on vectors too)."""
    t = lhs.type
    result = VectorType(i1, t.get_shape()) if isinstance(t, VectorType) else i1
    flag = integer_attr(llvm.ICmpPredicateFlag(predicate).to_int(), i64)
    return llvm.ICmpOp.create(operands=[lhs, rhs], result_types=[result], properties={"predicate": flag})


def overflow_binop(cls: type[llvm.ArithmeticBinOpOverflow], lhs: SSAValue, rhs: SSAValue, flags: int = 0) -> llvm.ArithmeticBinOpOverflow:
    """`cls(lhs, rhs, overflow=llvm.OverflowAttr.from_int(flags))` (`llvm.add`, `sub`,
    `mul`, `shl`)."""
    return cls.create(operands=[lhs, rhs], result_types=[lhs.type], properties={"overflowFlags": integer_attr(flags, i32)})


__all__ = ["gep", "icmp", "load", "overflow_binop", "store"]
