"""Printing as MLIR prints: float literals character for character, and the results of
an op with several unnamed results as one group `%0:2` (issue 16)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

from xla_dialect import parse_module
from xla_dialect.literals import to_numpy


def constant_attr(text: str) -> DenseIntOrFPElementsAttr:
    module = parse_module(f"%0 = arith.constant {text}")
    attr = next(iter(module.body.block.ops)).properties["value"]
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return attr


# What mlir-opt/stablehlo-opt print (spellings taken from StableHLO's and MLIR's tests).
@pytest.mark.parametrize(
    ("literal", "element", "printed"),
    [
        ("1.0", "f32", "1.000000e+00"),
        ("0.1", "f32", "1.000000e-01"),
        ("-2.5", "f64", "-2.500000e+00"),
        ("0.0", "f32", "0.000000e+00"),
        ("-0.0", "f32", "-0.000000e+00"),
        ("2147483584.0", "f32", "2.14748365E+9"),  # 2^31: six digits do not read back
        ("1.0e-12", "f32", "9.99999996E-13"),
        ("1.0e-5", "f32", "9.99999974E-6"),
        ("9.9999999999999998E-13", "f64", "9.9999999999999998E-13"),
        ("3.40282347E+38", "f32", "3.40282347E+38"),
        ("-0.52049988", "f32", "-0.520499885"),  # plain form: the point is within 3 places
        ("123456792.0", "f32", "0x4CEB79A3"),  # the short form has no point: hex
        ("2147483647.0", "f64", "0x41DFFFFFFFC00000"),
        ("0x7FC00000", "f32", "0x7FC00000"),  # NaN, upper-case hex
        ("0x7F800001", "f32", "0x7F800001"),  # a signalling NaN keeps its payload
        ("0xFF800000", "f32", "0xFF800000"),
        ("0x7C00", "f16", "0x7C00"),
        ("0.1", "bf16", "1.000980e-01"),
        ("0.1", "f16", "9.997550e-02"),
        ("1.0e-45", "f32", "1.401300e-45"),  # the smallest subnormal
        ("448.0", "f8E4M3FN", "4.480000e+02"),
    ],
)
def test_float_literals_print_as_mlir_does(literal: str, element: str, printed: str) -> None:
    assert str(constant_attr(f"dense<{literal}> : tensor<{element}>")).startswith(f"dense<{printed}>")


@pytest.mark.parametrize(
    ("dtype", "element"),
    [
        (np.float16, "f16"),
        (np.float32, "f32"),
        (np.float64, "f64"),
        (ml_dtypes.bfloat16, "bf16"),
        (ml_dtypes.float8_e5m2, "f8E5M2"),
    ],
)
def test_printed_floats_read_back_bit_for_bit(dtype: type, element: str) -> None:
    unsigned = f"u{np.dtype(dtype).itemsize}"
    bits = np.random.default_rng(16).integers(0, np.iinfo(unsigned).max, size=400, dtype=np.uint64)
    values = bits.astype(unsigned).view(dtype)
    with np.errstate(invalid="ignore"):
        values = values[np.isfinite(values.astype(np.float64))]
    hex_list = ", ".join(f"0x{int(b):X}" for b in values.view(unsigned))
    attr = constant_attr(f"dense<[{hex_list}]> : tensor<{len(values)}x{element}>")
    again = to_numpy(constant_attr(str(attr)))
    assert again.view(unsigned).tolist() == values.view(unsigned).tolist()


def test_unnamed_results_print_as_one_group() -> None:
    text = """
func.func @f(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0:2 = xla.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xi32>
  %r, %s = xla.optimization_barrier %x, %y : tensor<4xf32>, tensor<4xi32>
  func.return %0#1, %r : tensor<4xi32>, tensor<4xf32>
}
"""
    printed = str(parse_module(text))
    assert "%0:2 = xla.optimization_barrier %x, %y" in printed
    assert "%r, %s = xla.optimization_barrier %x, %y" in printed  # named results stay apart
    assert "func.return %0#1, %r" in printed
    assert str(parse_module(printed)) == printed
