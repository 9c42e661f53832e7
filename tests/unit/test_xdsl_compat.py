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


def test_signalling_nan_scalar_attributes_round_trip() -> None:
    """`arith.constant 0x7F800001 : f32` (a signalling NaN) was read through a C float,
    which set the quiet bit (`0x7FC00001`); f16 and bf16 alike. f64 was already exact."""
    from xla_dialect.xdsl_compat import float_bits

    lines = [
        "0x7F800001 : f32", "0xFFA00005 : f32", "0x7FC00000 : f32", "0x7C01 : f16", "0xFF81 : bf16",
        "0x7FF0000000000001 : f64",
    ]
    text = "\n".join(f"%{i} = arith.constant {line}" for i, line in enumerate(lines))
    module = parse_module(text)
    for op, line in zip(module.body.block.ops, lines):
        attr = op.properties["value"]
        assert float_bits(attr.value.data, attr.type) == int(line.split()[0], 16), line  # type: ignore[attr-defined]
        assert f"arith.constant {line}" in str(op)
    assert str(parse_module(str(module))) == str(module)
