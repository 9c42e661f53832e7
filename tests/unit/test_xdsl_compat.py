"""The fixes `xla_dialect.xdsl_compat` applies to xDSL's builtin syntax."""

from __future__ import annotations

import math

from xla_dialect import parse_module


def constant_values(text: str) -> tuple[float, ...]:
    module = parse_module(f"%0 = arith.constant {text}")
    attr = next(iter(module.body.block.ops)).properties["value"]
    return tuple(attr.get_values())  # type: ignore[attr-defined]


def test_hex_float_splat_is_a_bit_pattern() -> None:
    (value,) = constant_values("dense<0x7FC00000> : tensor<f32>")
    assert math.isnan(value)


def test_hex_float_list_mixes_with_decimals() -> None:
    values = constant_values("dense<[0xFF800000, 1.5, 0x80000000]> : tensor<3xf32>")
    assert values[0] == -math.inf and values[1] == 1.5
    assert values[2] == 0.0 and math.copysign(1.0, values[2]) == -1.0


def test_hex_bf16_and_f64() -> None:
    assert constant_values("dense<0xFF80> : tensor<bf16>") == (-math.inf,)
    assert constant_values("dense<0x7FF0000000000000> : tensor<f64>") == (math.inf,)


def test_hex_integers_stay_integers() -> None:
    assert constant_values("dense<0x10> : tensor<i32>") == (16,)
