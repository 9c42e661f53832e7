"""`xla_dialect.fast_construction`: ops built by the fast builder are the ops xDSL's
own builder makes (same generic text: operands, results, regions, properties with
segment sizes and defaults, attributes), and bad arguments get xDSL's own errors."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import xdsl.irdl.operations as irdl
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    f32,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.printer import Printer

import xla_dialect  # noqa: F401  (installs the fast builder)
from xla_dialect.fast_construction import XDSL_OP_INIT, XDSL_POST_INIT


@contextmanager
def xdsl_builder() -> Iterator[None]:
    fast_init, fast_post = irdl.irdl_op_init, irdl.IRDLOperation.__post_init__
    irdl.irdl_op_init = XDSL_OP_INIT
    irdl.IRDLOperation.__post_init__ = XDSL_POST_INIT  # type: ignore[method-assign]
    try:
        yield
    finally:
        irdl.irdl_op_init = fast_init
        irdl.IRDLOperation.__post_init__ = fast_post  # type: ignore[method-assign]


def generic_text(build: Callable[[], list[Operation]]) -> str:
    """The ops `build` makes, in a module, printed in generic form."""
    import io

    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(ModuleOp(build()))
    return stream.getvalue()


def _memref_ops() -> list[Operation]:
    alloc = memref.AllocOp.get(f32, shape=[4, 8])
    i = arith.ConstantOp.from_int_and_width(1, IndexType())
    load = memref.LoadOp.get(alloc, [i, i])
    store = memref.StoreOp.get(load, alloc, [i, i])
    dyn = memref.AllocOp([i], [], MemRefType(f32, [-1]))
    return [alloc, i, load, store, dyn, memref.DeallocOp.get(alloc)]


def _loop_ops() -> list[Operation]:
    lb = arith.ConstantOp.from_int_and_width(0, IndexType())
    ub = arith.ConstantOp.from_int_and_width(8, IndexType())
    init = arith.ConstantOp.from_int_and_width(0, i32)
    body = Block(arg_types=[IndexType(), i32])
    add = arith.AddiOp(body.args[1], body.args[1])
    body.add_ops([add, scf.YieldOp(add)])
    loop = scf.ForOp(lb, ub, ub, [init], body)
    pbody = Block(arg_types=[IndexType()])
    pbody.add_op(scf.ReduceOp())
    par = scf.ParallelOp([lb], [ub], [ub], Region(pbody))
    cond = arith.CmpiOp(lb, ub, "slt")
    if_op = scf.IfOp(cond, [], [scf.YieldOp()], [scf.YieldOp()])
    return [lb, ub, init, loop, par, cond, if_op]


def _generic_ops() -> list[Operation]:
    a = memref.AllocOp.get(f32, shape=[4])
    b = memref.AllocOp.get(f32, shape=[4])
    body = Block(arg_types=[f32, f32])
    body.add_op(YieldOp(body.args[0]))
    identity = AffineMapAttr(AffineMap.identity(1))
    generic = GenericOp([a], [b], Region(body), [identity, identity], [IteratorTypeAttr.parallel()])
    zero = arith.ConstantOp(FloatAttr(0.0, f32))
    fill = FillOp([zero.result], [b.memref], [])
    transpose = TransposeOp(a.memref, b.memref, DenseArrayBase.from_list(i64, [0]))
    return [a, b, generic, zero, fill, transpose]


def _call_ops() -> list[Operation]:
    x = arith.ConstantOp.from_int_and_width(3, i32)
    call = func.CallOp("callee", [x, x], [i32])
    return [x, call, func.FuncOp("f", ((), ()), Region(Block([func.ReturnOp()])))]


@pytest.mark.parametrize("build", [_memref_ops, _loop_ops, _generic_ops, _call_ops])
def test_fast_builder_makes_xdsls_ops(build: Callable[[], list[Operation]]) -> None:
    fast = generic_text(build)
    with xdsl_builder():
        reference = generic_text(build)
    assert fast == reference
    assert "operandSegmentSizes" in fast or build in (_loop_ops, _call_ops)


def test_fast_builder_is_installed() -> None:
    assert irdl.irdl_op_init is not XDSL_OP_INIT


def _error(build: Callable[[], object]) -> str:
    with pytest.raises(ValueError) as err:
        build()
    return str(err.value)


@pytest.mark.parametrize(
    "build",
    [
        lambda: memref.LoadOp.build(operands=[None, []], result_types=[f32]),
        lambda: arith.AddiOp.build(operands=[[], []], result_types=[i32]),
        lambda: arith.AddiOp.build(operands=[], result_types=[i32]),
        lambda: scf.ForOp.build(operands=[[], [], [], []], result_types=[[]], regions=[[], []]),
    ],
)
def test_bad_arguments_get_xdsls_errors(build: Callable[[], object]) -> None:
    fast = _error(build)
    with xdsl_builder():
        reference = _error(build)
    assert fast == reference


def test_attribute_kind_is_still_checked() -> None:
    from dataclasses import dataclass

    from xdsl.ir import Attribute

    @dataclass(frozen=True)
    class NotAnAttributeKind(Attribute):
        name = "test.bad"

    with pytest.raises(TypeError, match="only be Data or ParametrizedAttribute"):
        NotAnAttributeKind()
    with pytest.raises(TypeError, match="only be Data or ParametrizedAttribute"):
        NotAnAttributeKind()
