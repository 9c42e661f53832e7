"""Builders, result-type inference and verifier rules of the slicing family
(slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse) and of
gather and scatter."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f16, f32, i32, i64
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.utils.exceptions import VerifyException

from xla_dialect.ops.control_flow import ReturnOp, region_from
from xla_dialect.ops.elementwise import AddOp
from xla_dialect.ops.gather_scatter import GatherOp, ScatterOp, is_promotable
from xla_dialect.ops.slicing import (
    ConcatenateOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    PadOp,
    ReverseOp,
    SliceOp,
)
from xla_dialect.types import tensor


def values(*types: Attribute) -> list[SSAValue]:
    return list(Block(arg_types=list(types)).args)


def scalar_indices(n: int, element: Attribute = i64) -> list[SSAValue]:
    return values(*([tensor((), element)] * n))


# --------------------------------------------------------------------------- slice


def test_slice_infers_strided_shape() -> None:
    (x,) = values(tensor((3, 6), i64))
    op = SliceOp(x, [0, 2], [3, 6], [2, 3])
    assert op.result.type == tensor((2, 2), i64)
    op.verify()


def test_slice_default_strides_are_one() -> None:
    (x,) = values(tensor((4, 3), f32))
    op = SliceOp(x, [2, 1], [4, 3])
    assert op.result.type == tensor((2, 2), f32)
    assert tuple(op.strides.get_values()) == (1, 1)


@pytest.mark.parametrize(
    ("start", "limit", "strides", "message"),
    [
        ([0], [3], [1], "has 1 entries but the operand rank is 2"),
        ([-1, 0], [3, 6], [1, 1], "has -1 < 0"),
        ([0, 3], [3, 2], [1, 1], "less than the start index 3"),
        ([0, 0], [4, 6], [1, 1], "beyond the operand size 3"),
        ([0, 0], [3, 6], [1, 0], "strides must be >= 1"),
    ],
)
def test_slice_rejects_bad_bounds(start: list[int], limit: list[int], strides: list[int], message: str) -> None:
    (x,) = values(tensor((3, 6), f32))
    with pytest.raises(VerifyException, match=message):
        SliceOp(x, start, limit, strides)


def test_slice_verifier_checks_declared_result() -> None:
    (x,) = values(tensor((3, 6), f32))
    op = SliceOp.build(
        operands=[x],
        result_types=[tensor((3, 5), f32)],
        properties=SliceOp(x, [0, 0], [3, 6]).properties,
    )
    with pytest.raises(VerifyException, match="does not match the inferred"):
        op.verify()


# --------------------------------------------------------------------------- dynamic slices


def test_dynamic_slice_infers_slice_sizes() -> None:
    (x,) = values(tensor((4, 4), f32))
    op = DynamicSliceOp(x, scalar_indices(2), [2, 3])
    assert op.result.type == tensor((2, 3), f32)
    op.verify()


def test_dynamic_slice_rules() -> None:
    (x,) = values(tensor((4, 4), f32))
    with pytest.raises(VerifyException, match="expected 2 start indices"):
        DynamicSliceOp(x, scalar_indices(1), [2, 2])
    with pytest.raises(VerifyException, match="beyond the operand size 4"):
        DynamicSliceOp(x, scalar_indices(2), [2, 5])
    mixed = [*scalar_indices(1, i64), *scalar_indices(1, i32)]
    with pytest.raises(VerifyException, match="differs from start index #0"):
        DynamicSliceOp(x, mixed, [2, 2])
    with pytest.raises(VerifyException, match="0-d tensor of integers"):
        DynamicSliceOp(x, scalar_indices(2, f32), [2, 2])


def test_dynamic_update_slice_keeps_operand_type() -> None:
    x, u = values(tensor((4, 4), f32), tensor((2, 3), f32))
    op = DynamicUpdateSliceOp(x, u, scalar_indices(2, i32))
    assert op.result.type == tensor((4, 4), f32)
    op.verify()


def test_dynamic_update_slice_rules() -> None:
    x, big, narrow, other = values(
        tensor((4, 4), f32), tensor((5, 1), f32), tensor((2,), f32), tensor((2, 2), i32)
    )
    with pytest.raises(VerifyException, match="exceeds operand shape"):
        DynamicUpdateSliceOp(x, big, scalar_indices(2))
    with pytest.raises(VerifyException, match="update rank 1 differs"):
        DynamicUpdateSliceOp(x, narrow, scalar_indices(2))
    with pytest.raises(VerifyException, match="update element type i32"):
        DynamicUpdateSliceOp(x, other, scalar_indices(2))


# --------------------------------------------------------------------------- concatenate


def test_concatenate_sums_the_dimension() -> None:
    a, b, c = values(tensor((3, 2), i64), tensor((3, 1), i64), tensor((3, 4), i64))
    op = ConcatenateOp([a, b, c], 1)
    assert op.result.type == tensor((3, 7), i64)
    op.verify()


def test_concatenate_rules() -> None:
    a, b, s = values(tensor((3, 2), f32), tensor((2, 3), f32), tensor((), f32))
    with pytest.raises(VerifyException, match="in dimension 1, which is not the concatenated"):
        ConcatenateOp([a, b], 0)
    with pytest.raises(VerifyException, match=r"dimension 2 is out of range \[0, 2\)"):
        ConcatenateOp([a, a], 2)
    with pytest.raises(VerifyException, match="rank >= 1"):
        ConcatenateOp([s, s], 0)
    with pytest.raises(VerifyException, match="at least one operand"):
        ConcatenateOp([], 0)


# --------------------------------------------------------------------------- pad


def test_pad_infers_shape_with_negative_and_interior_padding() -> None:
    x, v = values(tensor((5, 4), i64), tensor((), i64))
    op = PadOp(x, v, [1, -1], [1, -1], [0, 1])
    assert op.result.type == tensor((7, 5), i64)
    op.verify()


def test_pad_default_interior_is_zero() -> None:
    x, v = values(tensor((3,), f32), tensor((), f32))
    assert PadOp(x, v, [2], [1]).result.type == tensor((6,), f32)


def test_pad_rules() -> None:
    x, v, vec, iv = values(tensor((3,), f32), tensor((), f32), tensor((1,), f32), tensor((), i32))
    with pytest.raises(VerifyException, match="interior_padding"):
        PadOp(x, v, [0], [0], [-1])
    with pytest.raises(VerifyException, match="padding removes more than the operand has"):
        PadOp(x, v, [-2], [-2], [0])
    with pytest.raises(VerifyException, match="padding_value must be a 0-d tensor"):
        PadOp(x, vec, [0], [0])
    with pytest.raises(VerifyException, match="padding_value element type i32"):
        PadOp(x, iv, [0], [0])


# --------------------------------------------------------------------------- reverse


def test_reverse() -> None:
    (x,) = values(tensor((3, 2), f32))
    op = ReverseOp(x, [1, 0])
    assert op.result.type == x.type
    op.verify()
    with pytest.raises(VerifyException, match="repeated dimensions"):
        ReverseOp(x, [0, 0]).verify()
    with pytest.raises(VerifyException, match="out of range"):
        ReverseOp(x, [2]).verify()


# --------------------------------------------------------------------------- gather


def gather_example(**overrides: object) -> GatherOp:
    operand, indices = values(tensor((3, 4, 2), i64), tensor((2, 3, 2), i64))
    kwargs: dict[str, object] = {
        "offset_dims": [2, 3],
        "collapsed_slice_dims": [0],
        "start_index_map": [1, 0],
        "index_vector_dim": 2,
        "slice_sizes": [1, 2, 2],
    }
    kwargs.update(overrides)
    return GatherOp(operand, indices, **kwargs)  # pyright: ignore[reportArgumentType]


def test_gather_infers_result_shape() -> None:
    op = gather_example(indices_are_sorted=False)
    assert op.result.type == tensor((2, 3, 2, 2), i64)
    op.verify()


def test_gather_with_batching_dims() -> None:
    operand, indices = values(tensor((2, 3, 4, 2), i64), tensor((2, 2, 3, 2), i64))
    op = GatherOp(
        operand,
        indices,
        offset_dims=[3, 4],
        collapsed_slice_dims=[1],
        operand_batching_dims=[0],
        start_indices_batching_dims=[1],
        start_index_map=[2, 1],
        index_vector_dim=3,
        slice_sizes=[1, 1, 2, 2],
    )
    assert op.result.type == tensor((2, 2, 3, 2, 2), i64)
    op.verify()


def test_gather_implicit_index_vector_dim_and_interleaved_offsets() -> None:
    operand, indices = values(tensor((5, 6, 7), f32), tensor((4, 3), i32))
    op = GatherOp(
        operand,
        indices,
        offset_dims=[1, 3],
        collapsed_slice_dims=[0],
        start_index_map=[0],
        index_vector_dim=2,
        slice_sizes=[1, 6, 7],
    )
    assert op.result.type == tensor((4, 6, 3, 7), f32)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"offset_dims": [3, 2]}, "sorted in ascending order"),
        ({"slice_sizes": [2, 2, 2]}, "must be at most 1"),
        ({"start_index_map": [1]}, "has 1 entries but dimension 2"),
        ({"start_index_map": [1, 1]}, "must not repeat a dimension"),
        ({"index_vector_dim": 5}, "index_vector_dim 5 is out of range"),
        ({"slice_sizes": [1, 9, 2]}, "beyond the operand size 4"),
        ({"collapsed_slice_dims": []}, "operand rank 3 must equal"),
    ],
)
def test_gather_rules(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(VerifyException, match=message):
        gather_example(**overrides)


# --------------------------------------------------------------------------- scatter


def add_region(element: Attribute, n: int = 1):
    scalar = tensor((), element)
    return region_from([scalar] * (2 * n), lambda *args: [AddOp(args[i], args[n + i]).result for i in range(n)])


def test_scatter_infers_input_types() -> None:
    inputs, indices, updates = values(
        tensor((3, 4, 2), i64), tensor((2, 3, 2), i64), tensor((2, 3, 2, 2), i64)
    )
    op = ScatterOp(
        [inputs],
        indices,
        [updates],
        add_region(i64),
        update_window_dims=[2, 3],
        inserted_window_dims=[0],
        scatter_dims_to_operand_dims=[1, 0],
        index_vector_dim=2,
        unique_indices=False,
    )
    assert [r.type for r in op.result] == [tensor((3, 4, 2), i64)]
    op.verify()
    assert isinstance(op.update_computation.block.last_op, ReturnOp)


def test_scatter_variadic_and_promoted() -> None:
    x, y, indices, ux, uy = values(
        tensor((4,), f16), tensor((4,), i32), tensor((2, 1), i32), tensor((2,), f16), tensor((2,), i32)
    )
    region = region_from(
        [tensor((), f32), tensor((), i32), tensor((), f32), tensor((), i32)],
        lambda a0, a1, b0, b1: [b0, b1],
    )
    op = ScatterOp(
        [x, y],
        indices,
        [ux, uy],
        region,
        update_window_dims=[],
        inserted_window_dims=[0],
        scatter_dims_to_operand_dims=[0],
        index_vector_dim=1,
    )
    assert [r.type for r in op.result] == [tensor((4,), f32), tensor((4,), i32)]
    op.verify()


def test_scatter_rules() -> None:
    inputs, indices, updates, bad_updates = values(
        tensor((3, 4, 2), i64), tensor((2, 3, 2), i64), tensor((2, 3, 2, 2), i64), tensor((2, 4, 2, 2), i64)
    )

    def make(upd: SSAValue, region_element: Attribute = i64, **dn: object) -> ScatterOp:
        kwargs: dict[str, object] = {
            "update_window_dims": [2, 3],
            "inserted_window_dims": [0],
            "scatter_dims_to_operand_dims": [1, 0],
            "index_vector_dim": 2,
        }
        kwargs.update(dn)
        return ScatterOp([inputs], indices, [upd], add_region(region_element), **kwargs)  # pyright: ignore[reportArgumentType]

    with pytest.raises(VerifyException, match="is a scatter dimension and must equal"):
        make(bad_updates).verify()
    with pytest.raises(VerifyException, match="sorted in ascending order"):
        make(updates, inserted_window_dims=[1, 0], update_window_dims=[3]).verify()
    with pytest.raises(VerifyException, match="cannot hold input #0 element type i64"):
        make(updates, region_element=i32).verify()
    with pytest.raises(VerifyException, match="scatter_dims_to_operand_dims"):
        make(updates, scatter_dims_to_operand_dims=[1]).verify()


def test_is_promotable() -> None:
    assert is_promotable(f16, f32)
    assert is_promotable(i32, i64)
    assert not is_promotable(i64, i32)
    assert not is_promotable(i32, f32)
