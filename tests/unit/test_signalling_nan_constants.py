"""Signalling NaNs in constants stay bit for bit through the lowering (issue 17): a
float attribute holds a Python float, and widening an f32/f16/bf16 signalling NaN to
it sets the quiet bit (`0x7F800001` ran as `0x7FC00001`); bf16 literals were read
through Python floats too. Scalars, splats and dense literals of each float width."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xla_tools import compile

CASES = [  # element type, NumPy type, its bits' type, a signalling NaN
    ("f32", np.float32, np.uint32, 0x7F800001),
    ("f64", np.float64, np.uint64, 0x7FF0000000000001),
    ("bf16", ml_dtypes.bfloat16, np.uint16, 0xFF81),
    ("f16", np.float16, np.uint16, 0x7C01),
]

TYPES = [f"tensor<{t}>, tensor<4x{t}>, tensor<2x{t}>" for t, *_ in CASES]
BODY = "\n".join(
    f"""  %s{i} = xla.constant dense<{bits:#x}> : tensor<{t}>
  %v{i} = xla.constant dense<{bits:#x}> : tensor<4x{t}>
  %d{i} = xla.constant dense<[{bits:#x}, 1.0]> : tensor<2x{t}>"""
    for i, (t, _, _, bits) in enumerate(CASES)
)
RESULTS = ", ".join(f"%s{i}, %v{i}, %d{i}" for i in range(len(CASES)))
PROGRAM = f"""func.func @main() -> ({", ".join(TYPES)}) {{
{BODY}
  return {RESULTS} : {", ".join(TYPES)}
}}"""


def test_signalling_nans_are_bit_exact() -> None:
    results = compile(PROGRAM)()
    for i, (t, _, bits_type, bits) in enumerate(CASES):
        scalar, splat, dense = (np.asarray(r).view(bits_type) for r in results[3 * i : 3 * i + 3])
        assert int(scalar) == bits, (t, hex(int(scalar)))
        assert [int(b) for b in splat] == [bits] * 4, (t, [hex(int(b)) for b in splat])
        assert int(dense[0]) == bits, (t, hex(int(dense[0])))


def test_linalg_level_scalar_constants_are_bit_exact() -> None:
    """A signalling NaN written as an `arith.constant` (linalg-level input) reaches the
    result bit for bit: the parser, the printer and the LLVM constant kept quieting it."""
    cases = [("f32", 0x7F800001), ("f16", 0x7C01), ("bf16", 0xFF81), ("f32", 0xFFA00005)]
    types = ", ".join(f"tensor<{t}>" for t, _ in cases)
    lines = [f"  %c{i} = arith.constant {bits:#x} : {t}\n  %t{i} = tensor.from_elements %c{i} : tensor<{t}>"
             for i, (t, bits) in enumerate(cases)]
    results = ", ".join(f"%t{i}" for i in range(len(cases)))
    program = f"func.func @main() -> ({types}) {{\n" + "\n".join(lines) + f"\n  return {results} : {types}\n}}"
    for (t, bits), result in zip(cases, compile(program)()):
        array = np.asarray(result)
        assert int(array.view(f"u{array.itemsize}")) == bits, (t, hex(int(array.view(f"u{array.itemsize}"))))
