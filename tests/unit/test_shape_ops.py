"""Builders and result-type inference of the constants, shape and tuples families."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    TensorType,
    TupleType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from xla_dialect.ops.constants import ConstantOp, IotaOp, iota
from xla_dialect.ops.shape import (
    BroadcastInDimOp,
    BroadcastOp,
    CollapseOp,
    GetDimensionSizeOp,
    ReshapeOp,
    SetDimensionSizeOp,
    TransposeOp,
)
from xla_dialect.ops.tuples import GetTupleElementOp, TupleOp
from xla_dialect.types import tensor


def value(shape: list[int], element: Attribute = f32):
    return create_ssa_value(tensor(shape, element))


# --- constants --------------------------------------------------------------


def test_constant_result_is_value_type() -> None:
    op = ConstantOp.from_list([1, 2, 3], TensorType(i64, [3]))
    op.verify()
    assert op.output.type == tensor([3], i64)
    assert isinstance(op.value, DenseIntOrFPElementsAttr)


def test_constant_mismatched_result_fails() -> None:
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 2])
    op = ConstantOp.build(properties={"value": attr}, result_types=[tensor([2], i32)])
    with pytest.raises(VerifyException, match="differs from the value's type"):
        op.verify()


def test_iota_builder() -> None:
    op = iota(i32, 5)
    op.verify()
    assert op.output.type == tensor([5], i32)
    assert op.dimension == 0


def test_iota_bad_dimension() -> None:
    with pytest.raises(VerifyException, match="out of range"):
        IotaOp(tensor([2, 3], f32), 2).verify()


def test_iota_pred_rejected() -> None:
    with pytest.raises(VerifyException, match="is not integer, floating-point or complex"):
        IotaOp(tensor([4], i1), 0).verify()


# --- broadcast --------------------------------------------------------------


def test_broadcast_prepends_sizes() -> None:
    op = BroadcastOp(value([4]), [2, 3])
    op.verify()
    assert op.result.type == tensor([2, 3, 4], f32)


def test_broadcast_scalar() -> None:
    op = BroadcastOp(value([]), [2, 3])
    op.verify()
    assert op.result.type == tensor([2, 3], f32)


def test_broadcast_in_dim_uses_given_shape() -> None:
    op = BroadcastInDimOp(value([3, 1]), [3, 2, 2], [0, 2])
    op.verify()
    assert op.result.type == tensor([3, 2, 2], f32)


def test_broadcast_in_dim_unsorted_dims_allowed() -> None:
    BroadcastInDimOp(value([2, 3]), [3, 4, 2], [2, 0]).verify()


@pytest.mark.parametrize(
    ("shape", "out", "dims", "message"),
    [
        ([2, 3], [2, 3], [0], "one entry per operand dimension"),
        ([2], [2, 3], [2], "out of range"),
        ([2, 2], [2, 2, 2], [1, 1], "repeated"),
        ([3], [2, 4], [1], "neither 1 nor"),
    ],
)
def test_broadcast_in_dim_rules(
    shape: list[int], out: list[int], dims: list[int], message: str
) -> None:
    with pytest.raises(VerifyException, match=message):
        BroadcastInDimOp(value(shape), out, dims).verify()


# --- reshape / collapse / transpose ----------------------------------------


def test_reshape() -> None:
    op = ReshapeOp(value([6]), [2, 3])
    op.verify()
    assert op.result.type == tensor([2, 3], f32)
    assert op.dimensions is None


def test_reshape_with_dimensions() -> None:
    op = ReshapeOp(value([4, 2, 3]), [8, 3], dimensions=[1, 2, 0])
    op.verify()
    assert op.result.type == tensor([8, 3], f32)


def test_reshape_element_count() -> None:
    with pytest.raises(VerifyException, match="has 8 elements but operand shape"):
        ReshapeOp(value([6]), [2, 4]).verify()


def test_reshape_dimensions_must_permute() -> None:
    with pytest.raises(VerifyException, match=r"dimensions \[0, 0\] is not a permutation"):
        ReshapeOp(value([2, 3]), [6], dimensions=[0, 0]).verify()


@pytest.mark.parametrize(
    ("dims", "shape"),
    [([0, 1, 2], [24]), ([0, 1], [8, 3]), ([1, 2], [4, 6]), ([1], [4, 2, 3])],
)
def test_collapse_infers(dims: list[int], shape: list[int]) -> None:
    op = CollapseOp(value([4, 2, 3]), dims)
    op.verify()
    assert op.result.type == tensor(shape, f32)


def test_collapse_dynamic() -> None:
    op = CollapseOp(value([DYNAMIC_INDEX, 2, 3]), [0, 1])
    assert op.result.type == tensor([DYNAMIC_INDEX, 3], f32)


@pytest.mark.parametrize("dims", [[0, 2], [1, 0]])
def test_collapse_not_consecutive(dims: list[int]) -> None:
    with pytest.raises(VerifyException, match="consecutive"):
        CollapseOp(value([4, 2, 3]), dims)


def test_transpose_infers() -> None:
    op = TransposeOp(value([2, 3, 4]), [2, 0, 1])
    op.verify()
    assert op.result.type == tensor([4, 2, 3], f32)


def test_transpose_bad_permutation() -> None:
    with pytest.raises(VerifyException, match=r"permutation \[0, 0\] is not a permutation of \[0, 1\]"):
        TransposeOp(value([2, 3]), [0, 0])


# --- dimension sizes --------------------------------------------------------


def test_get_dimension_size() -> None:
    op = GetDimensionSizeOp(value([2, 3]), 1)
    op.verify()
    assert op.result.type == tensor([], i32)


def test_get_dimension_size_range() -> None:
    with pytest.raises(VerifyException, match=r"dimension 2 is out of range \[0, 2\)"):
        GetDimensionSizeOp(value([2, 3]), 2).verify()


def test_set_dimension_size_makes_dimension_dynamic() -> None:
    op = SetDimensionSizeOp(value([4, 5]), create_ssa_value(tensor([], i32)), 1)
    op.verify()
    assert op.result.type == tensor([4, DYNAMIC_INDEX], f32)


def test_set_dimension_size_size_type() -> None:
    op = SetDimensionSizeOp(value([4]), create_ssa_value(tensor([], i64)), 0)
    with pytest.raises(VerifyException, match="size must be a scalar tensor<i32>"):
        op.verify()


# --- tuples -----------------------------------------------------------------


def test_tuple_infers() -> None:
    a, b = value([], f32), value([2], i32)
    op = TupleOp([a, b])
    op.verify()
    assert op.result.type == TupleType(ArrayAttr([tensor([], f32), tensor([2], i32)]))


def test_get_tuple_element_infers() -> None:
    t = TupleOp([value([], f32), value([2], i32)])
    op = GetTupleElementOp(t.result, 1)
    op.verify()
    assert op.result.type == tensor([2], i32)


def test_get_tuple_element_range() -> None:
    t = TupleOp([value([], f32)])
    with pytest.raises(VerifyException, match=r"index 1 is out of range \[0, 1\)"):
        GetTupleElementOp(t.result, 1)


def test_hex_float_literal_is_bit_pattern() -> None:
    import math

    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin
    from xdsl.parser import Parser

    ctx = Context()
    ctx.load_dialect(Builtin)
    attr = Parser(ctx, "dense<[0x7F800000, 0x3F800000]> : tensor<2xf32>").parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    assert attr.get_values() == (math.inf, 1.0)
    nan = Parser(ctx, "dense<(0x7FF8000000000000,2.0)> : tensor<complex<f64>>").parse_attribute()
    assert isinstance(nan, DenseIntOrFPElementsAttr)
    (real, imag), = nan.get_values()  # pyright: ignore[reportGeneralTypeIssues]
    assert math.isnan(real) and imag == 2.0
