"""Builders and type inference of the region ops (control flow and reductions)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, i1, i32, i64
from xdsl.dialects.func import FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from xla_dialect.ops.control_flow import (
    CallOp,
    CaseOp,
    IfOp,
    OptimizationBarrierOp,
    ReturnOp,
    WhileOp,
    conditional,
    conditional_indexed,
)
from xla_dialect.ops.elementwise import AddOp, MaxOp
from xla_dialect.ops.elementwise import MultiplyOp as MulOp
from xla_dialect.ops.reduction import (
    MapOp,
    ReduceOp,
    ReduceWindowOp,
    SelectAndScatterOp,
    SortOp,
    windowed_shape,
)
from xla_dialect.types import tensor


def value(shape: tuple[int, ...], element=f32) -> SSAValue:
    return create_ssa_value(TensorType(element, list(shape)))


def verify_in_func(*ops) -> None:
    """Verify ops placed in a function body (regions may capture the func's values)."""
    for op in ops:
        op.verify()


# -- control flow ------------------------------------------------------------


def test_while_builder_infers_results() -> None:
    i = value((), i64)
    acc = value((4,), f32)
    pred = value((), i1)
    op = WhileOp([i, acc], lambda a, b: pred, lambda a, b: [a, b])
    assert list(op.result_types) == [tensor((), i64), tensor((4,), f32)]
    op.verify()
    assert isinstance(op.body.block.last_op, ReturnOp)


def test_while_cond_must_return_pred() -> None:
    i = value((), i64)
    op = WhileOp([i], lambda a: a, lambda a: a)
    with pytest.raises(VerifyException, match="cond must return a single tensor<i1>"):
        op.verify()


def test_while_body_must_return_operand_types() -> None:
    i = value((), i64)
    pred = value((), i1)
    other = value((), f32)
    op = WhileOp([i], lambda a: pred, lambda a: other)
    with pytest.raises(VerifyException, match="body result #0 has type tensor<f32>"):
        op.verify()


def test_if_builder_infers_results_from_true_branch() -> None:
    pred = value((), i1)
    a, b = value((2,)), value((2,))
    op = IfOp(pred, lambda: [a], lambda: [b])
    assert list(op.result_types) == [tensor((2,), f32)]
    op.verify()


def test_if_rejects_non_pred() -> None:
    pred = value((), i32)
    a = value((2,))
    op = IfOp(pred, lambda: a, lambda: a)
    with pytest.raises(VerifyException, match="pred must be a tensor<i1> scalar"):
        op.verify()


def test_conditional_operand_form_captures_operands() -> None:
    pred = value((), i1)
    t, f = value((3,)), value((3,))
    op = conditional(pred, t, lambda x: AddOp(x, x).result, f, lambda x: x)
    assert isinstance(op, IfOp)
    assert list(op.result_types) == [tensor((3,), f32)]
    add = op.true_branch.block.first_op
    assert isinstance(add, AddOp) and add.lhs is t
    ret = op.false_branch.block.last_op
    assert isinstance(ret, ReturnOp) and list(ret.operands) == [f]
    op.verify()


def test_conditional_indexed_builds_case() -> None:
    index = value((), i32)
    ops = [value((2,)), value((2,)), value((2,))]
    op = conditional_indexed(index, [lambda x: x] * 3, ops)
    assert isinstance(op, CaseOp)
    assert len(op.branches) == 3
    assert list(op.result_types) == [tensor((2,), f32)]
    op.verify()
    with pytest.raises(ValueError):
        conditional_indexed(index, [lambda x: x], ops)


def test_case_rejects_mismatched_branches() -> None:
    index = value((), i32)
    a, b = value((2,)), value((3,))
    op = CaseOp(index, [lambda: a, lambda: b])
    with pytest.raises(VerifyException, match="branch #1 result #0 has type tensor<3xf32>"):
        op.verify()


def _module_with_callee() -> tuple[ModuleOp, FuncOp, Block]:
    t = tensor((), f32)
    callee = FuncOp("twice", ((t,), (t,)))
    with_arg = callee.body.block.args[0]
    add = AddOp(with_arg, with_arg)
    callee.body.block.add_ops([add, FuncReturnOp(add.result)])
    caller = FuncOp("main", ((t,), ()))
    module = ModuleOp([callee, caller])
    return module, callee, caller.body.block


def test_call_infers_results_from_callee() -> None:
    module, callee, block = _module_with_callee()
    call = CallOp(callee, [block.args[0]])
    block.add_ops([call, FuncReturnOp()])
    assert list(call.result_types) == [tensor((), f32)]
    module.verify()


def test_call_checks_callee() -> None:
    _module, _, block = _module_with_callee()
    call = CallOp("missing", [block.args[0]], [tensor((), f32)])
    block.add_ops([call, FuncReturnOp()])
    with pytest.raises(VerifyException, match="callee @missing is not defined"):
        call.verify()
    with pytest.raises(ValueError):
        CallOp("twice", [block.args[0]])


def test_call_checks_argument_types() -> None:
    _module, _, block = _module_with_callee()
    other = value((2,))
    call = CallOp("twice", [other], [tensor((), f32)])
    block.add_ops([call, FuncReturnOp()])
    with pytest.raises(VerifyException, match="argument #0 has type tensor<2xf32>"):
        call.verify()


def test_optimization_barrier_results_are_operand_types() -> None:
    a, b = value((), f32), value((2,), i32)
    op = OptimizationBarrierOp([a, b])
    assert list(op.result_types) == [a.type, b.type]
    op.verify()


# -- reductions --------------------------------------------------------------


def test_reduce_infers_shape() -> None:
    x, c = value((2, 3, 4)), value(())
    op = ReduceOp([x], [c], [0, 2], lambda a, b: AddOp(a, b).result)
    assert list(op.result_types) == [tensor((3,), f32)]
    op.verify()
    assert op._compact_op() is not None  # pyright: ignore[reportPrivateUsage]


def test_variadic_reduce() -> None:
    x, y = value((2, 3)), value((2, 3), i32)
    c, d = value(()), value((), i32)
    op = ReduceOp([x, y], [c, d], [1], lambda a, e, b, f: [MaxOp(a, b).result, AddOp(e, f).result])
    assert list(op.result_types) == [tensor((2,), f32), tensor((2,), i32)]
    assert [a.type for a in op.body.block.args] == [tensor((), f32), tensor((), i32)] * 2
    op.verify()
    assert op._compact_op() is None  # pyright: ignore[reportPrivateUsage]


def test_reduce_rejects_bad_dimension() -> None:
    x, c = value((2, 3)), value(())
    op = ReduceOp([x], [c], [0], lambda a, b: AddOp(a, b).result)
    op.dimensions = ReduceOp([x], [c], [5], lambda a, b: a).dimensions
    with pytest.raises(VerifyException, match=r"dimensions \[5\] has 5, out of range"):
        op.verify()


def test_windowed_shape() -> None:
    # The spec's example: 4x6 with a 2x3 window, stride 2x3 -> 2x2.
    assert windowed_shape((4, 6), (2, 3), (2, 3)) == (2, 2)
    # Dilation and padding (StableHLO's interpreter test).
    assert windowed_shape((3, 2), (2, 1), (4, 1), (2, 1), (3, 1), [(2, 1), (0, 0)]) == (2, 2)
    assert windowed_shape((2,), (5,)) == (0,)


def test_reduce_window_infers_shape() -> None:
    x, c = value((4, 6)), value(())
    op = ReduceWindowOp(
        [x], [c], [2, 3], lambda a, b: MaxOp(a, b).result, window_strides=[2, 3],
        padding=[(0, 0), (1, 1)],
    )
    assert list(op.result_types) == [tensor((2, 2), f32)]
    op.verify()


def test_reduce_window_rejects_zero_stride() -> None:
    x, c = value((4, 6)), value(())
    op = ReduceWindowOp([x], [c], [2, 3], lambda a, b: a, window_strides=[1, 1])
    op.window_strides = ReduceWindowOp([x], [c], [2, 3], lambda a, b: a, window_strides=[0, 1]).window_strides
    with pytest.raises(VerifyException, match="window_strides"):
        op.verify()


def test_select_and_scatter() -> None:
    from xla_dialect.attributes import ComparisonDirection
    from xla_dialect.ops.elementwise import CompareOp

    operand, source, init = value((4, 2), i64), value((2, 2), i64), value((), i64)
    op = SelectAndScatterOp(
        operand,
        source,
        init,
        lambda a, b: CompareOp(ComparisonDirection.GE, a, b).result,
        lambda a, b: AddOp(a, b).result,
        window_dimensions=[3, 1],
        window_strides=[2, 1],
        padding=[(0, 1), (0, 0)],
    )
    assert op.result.type == operand.type
    op.verify()
    bad = SelectAndScatterOp(
        operand, value((3, 3), i64), init, lambda a, b: value((), i1), lambda a, b: a,
        window_dimensions=[3, 1], window_strides=[2, 1],
    )
    with pytest.raises(VerifyException, match="source shape"):
        bad.verify()


def test_map_infers_element_type() -> None:
    x, y = value((2, 2)), value((2, 2))
    op = MapOp([x, y], lambda a, b: MulOp(a, b).result)
    assert op.result.type == tensor((2, 2), f32)
    from xla_dialect.syntax import ints_of

    assert ints_of(op.dimensions) == (0, 1)
    op.verify()
    bad = MapOp([x, y], lambda a, b: a, dimensions=[1, 0])
    with pytest.raises(VerifyException, match=r"dimensions \[1, 0\] must be \[0, 1\]"):
        bad.verify()


def test_sort_builder() -> None:
    from xla_dialect.attributes import ComparisonDirection
    from xla_dialect.ops.elementwise import CompareOp

    keys, vals = value((5, 7), i64), value((5, 7), f32)
    op = SortOp([keys, vals], lambda a, b, c, d: CompareOp(ComparisonDirection.LT, a, b).result, dimension=-2, is_stable=True)
    assert list(op.result_types) == [keys.type, vals.type]
    assert [a.type for a in op.comparator.block.args] == [tensor((), i64)] * 2 + [tensor((), f32)] * 2
    op.verify()
    bad = SortOp([keys], lambda a, b: CompareOp(ComparisonDirection.LT, a, b).result, dimension=2)
    with pytest.raises(VerifyException, match=r"dimension 2 is out of range \[-2, 2\)"):
        bad.verify()


def test_region_argument_types_are_0d_tensors() -> None:
    x, c = value((3,), i32), value((), i32)
    op = ReduceOp([x], [c], [0], lambda a, b: AddOp(a, b).result)
    for arg in op.body.block.args:
        assert arg.type == TensorType(i32, [])
    assert isinstance(op.body, Region)
