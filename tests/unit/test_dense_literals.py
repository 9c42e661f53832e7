"""`dense<...>` literals: exact bits, range checks, and splats kept as one element (issue 17)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32, i8

from xla_dialect import parse_module
from xla_dialect.context import XlaProgramError
from xla_dialect.dense_literals import is_compact_splat
from xla_dialect.literals import from_numpy, splat_element, to_numpy


def constant_attr(text: str) -> DenseIntOrFPElementsAttr:
    module = parse_module(f"%0 = arith.constant {text}")
    attr = next(iter(module.body.block.ops)).properties["value"]
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return attr


def test_huge_splat_is_one_stored_element() -> None:
    attr = constant_attr("dense<7> : tensor<512x1x6400x6400xi8>")
    assert is_compact_splat(attr) and len(attr.data.data) == 1
    array = to_numpy(attr)
    assert array.shape == (512, 1, 6400, 6400) and array.strides == (0, 0, 0, 0)
    assert int(array[511, 0, 6399, 6399]) == 7


def test_small_splat_reads_as_every_value() -> None:
    attr = constant_attr("dense<3> : tensor<2x2xi64>")
    assert attr.get_values() == (3, 3, 3, 3)


def test_signalling_nan_keeps_its_payload() -> None:
    attr = constant_attr("dense<[0x7F800001, 1.0]> : tensor<2xf32>")
    assert to_numpy(attr).view(np.uint32)[0] == 0x7F800001
    assert "0x7F800001" in str(attr)


def test_negative_zero_beside_zero_is_not_a_splat() -> None:
    attr = constant_attr("dense<[-0.0, 0.0]> : tensor<2xf32>")
    assert not attr.is_splat()
    assert str(attr).startswith("dense<[-0.000000e+00, 0.000000e+00]>")
    again = from_numpy(to_numpy(attr), TensorType(f32, [2]))
    assert again.data.data == attr.data.data


def test_from_numpy_keeps_bitwise_splats_compact() -> None:
    attr = from_numpy(np.full((4, 4), -1, dtype=np.int8), TensorType(i8, [4, 4]))
    assert is_compact_splat(attr) and to_numpy(attr).tolist() == [[-1] * 4] * 4
    assert splat_element(np.array([np.nan, -np.nan], dtype=np.float32)) is None


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ("dense<[1, 300]> : tensor<2xi8>", "integer literal 300 is out of range for i8"),
        ("dense<8> : tensor<ui3>", "integer literal 8 is out of range for ui3"),
        ("dense<0x1FFFF> : tensor<f16>", "does not fit in 16 bits of f16"),
        ("dense<1.0e39> : tensor<f32>", "float literal 1.0e39 is out of range for f32"),
    ],
)
def test_out_of_range_literals_are_located_errors(literal: str, message: str) -> None:
    with pytest.raises(XlaProgramError, match=message) as info:
        parse_module(f"%0 = arith.constant {literal}")
    assert ":1:" in str(info.value)
