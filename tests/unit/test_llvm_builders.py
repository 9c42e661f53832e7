"""`lowering/to_llvm/builders.py` makes the ops xDSL's builders make from the same arguments."""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, VectorType, f32, i32, i64
from xdsl.ir import Block, Operation

from lowering.to_llvm import builders
from lowering.to_llvm.common import PTR


@pytest.fixture
def block() -> Block:
    return Block(arg_types=[PTR, i64, i64, f32, VectorType(i32, [8]), VectorType(i32, [8])])


def _same(ours: Operation, theirs: Operation) -> None:
    assert type(ours) is type(theirs)
    assert dict(ours.properties) == dict(theirs.properties)
    assert dict(ours.attributes) == dict(theirs.attributes)
    assert [r.type for r in ours.results] == [r.type for r in theirs.results]
    assert list(ours.operands) == list(theirs.operands)
    ours.verify()
    theirs.verify()


@pytest.mark.parametrize("inbounds", [True, False])
def test_gep_is_xdsl_s_gep_of_mixed_indices(block: Block, inbounds: bool) -> None:
    ptr, i, j = block.args[0], block.args[1], block.args[2]
    nested = llvm.LLVMArrayType(32, llvm.LLVMArrayType(64, f32))
    for indices in ([i, 3, j], [7], [i], [0, i, 0]):
        _same(
            builders.gep(ptr, indices, nested, inbounds=inbounds),
            llvm.GEPOp.from_mixed_indices(ptr, indices, nested, inbounds=inbounds),
        )


def test_load_and_store_are_xdsl_s(block: Block) -> None:
    ptr, value = block.args[0], block.args[3]
    _same(builders.load(ptr, f32), llvm.LoadOp(ptr, f32))
    _same(builders.load(ptr, f32, alignment=4), llvm.LoadOp(ptr, f32, alignment=4))
    _same(builders.store(value, ptr), llvm.StoreOp(value, ptr))
    _same(builders.store(value, ptr, alignment=64, nontemporal=True), llvm.StoreOp(value, ptr, alignment=64, nontemporal=True))


@pytest.mark.parametrize("predicate", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])
def test_icmp_is_xdsl_s_on_scalars_and_vectors(block: Block, predicate: str) -> None:
    flag = llvm.ICmpPredicateFlag(predicate)
    for a, b in ((block.args[1], block.args[2]), (block.args[4], block.args[5])):
        _same(builders.icmp(a, b, predicate), llvm.ICmpOp(a, b, IntegerAttr(flag.to_int(), 64)))


@pytest.mark.parametrize("cls", [llvm.AddOp, llvm.SubOp, llvm.MulOp, llvm.ShlOp])
@pytest.mark.parametrize("flags", [0, 1, 2, 3])
def test_overflow_binops_are_xdsl_s(block: Block, cls: type[llvm.ArithmeticBinOpOverflow], flags: int) -> None:
    a, b = block.args[1], block.args[2]
    _same(builders.overflow_binop(cls, a, b, flags), cls(a, b, overflow=llvm.OverflowAttr.from_int(flags)))


def test_the_ops_print_as_xdsl_s_in_a_module(block: Block) -> None:
    """Printed (with the shared attributes) as the builders' ops print."""
    ptr, i = block.args[0], block.args[1]
    ours = builders.gep(ptr, [i, 2], llvm.LLVMArrayType(8, f32))
    theirs = llvm.GEPOp.from_mixed_indices(ptr, [i, 2], llvm.LLVMArrayType(8, f32), inbounds=True)
    block.add_ops([ours, theirs])
    assert str(ours).split("=", 1)[1] == str(theirs).split("=", 1)[1]
