"""Folding agrees with the compiled code: each function below is compiled with its
inputs as arguments (so the compiled code computes) and, with the same inputs as
constants, folded by `xla-simplify`; the two results must be bitwise equal (NaN
payloads aside), edge cases included: wrap-around, signed zero, NaN, infinities,
truncating division, shifts, convert's rounding."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from passes.canonicalization import constant_value
from xla_dialect import parse_module
from xla_dialect.literals import to_numpy
from xla_tools import compile
from xla_tools.pipelines import run_passes

I8 = np.array([-128, -7, -1, 0, 1, 7, 100, 127], dtype=np.int8)
I8_NONZERO = np.array([3, -2, 5, -1, 7, 2, -3, 4], dtype=np.int8)
SHIFTS = np.array([0, 1, 2, 3, 4, 5, 6, 7], dtype=np.int8)
F32 = np.array([-0.0, 0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 3e38], dtype=np.float32)
F32_B = np.array([0.0, -0.0, -1.5, 2.5, np.inf, 1.0, 2.0, 3e38], dtype=np.float32)
CONVERTIBLE = np.array([2.9, -2.9, 0.5, -0.5, 100.7, -127.9, 1e6, 16777217.0], dtype=np.float32)
BIG_INTS = np.array([16777217, -16777217, 2**31 - 1, -(2**31), 3, 0, 7, 33554431], dtype=np.int32)

# (name, op text with %a and %b, operand arrays, result type)
CASES: list[tuple[str, str, tuple[np.ndarray, ...], str]] = [
    ("add_i8", "xla.add %a, %b : tensor<8xi8>", (I8, I8_NONZERO), "tensor<8xi8>"),
    ("mul_i8", "xla.multiply %a, %b : tensor<8xi8>", (I8, I8_NONZERO), "tensor<8xi8>"),
    ("div_i8", "xla.divide %a, %b : tensor<8xi8>", (I8[1:].repeat(2)[:8], I8_NONZERO), "tensor<8xi8>"),
    ("rem_i8", "xla.remainder %a, %b : tensor<8xi8>", (I8[1:].repeat(2)[:8], I8_NONZERO), "tensor<8xi8>"),
    ("shl_i8", "xla.shift_left %a, %b : tensor<8xi8>", (I8, SHIFTS), "tensor<8xi8>"),
    ("shra_i8", "xla.shift_right_arithmetic %a, %b : tensor<8xi8>", (I8, SHIFTS), "tensor<8xi8>"),
    ("shrl_i8", "xla.shift_right_logical %a, %b : tensor<8xi8>", (I8, SHIFTS), "tensor<8xi8>"),
    ("neg_i8", "xla.negate %a : tensor<8xi8>", (I8,), "tensor<8xi8>"),
    ("abs_i8", "xla.abs %a : tensor<8xi8>", (I8,), "tensor<8xi8>"),
    ("add_f32", "xla.add %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("sub_f32", "xla.subtract %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("div_f32", "xla.divide %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("rem_f32", "xla.remainder %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("max_f32", "xla.maximum %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("min_f32", "xla.minimum %a, %b : tensor<8xf32>", (F32, F32_B), "tensor<8xf32>"),
    ("neg_f32", "xla.negate %a : tensor<8xf32>", (F32,), "tensor<8xf32>"),
    ("round_afz_f32", "xla.round_nearest_afz %a : tensor<8xf32>", (CONVERTIBLE,), "tensor<8xf32>"),
    ("round_even_f32", "xla.round_nearest_even %a : tensor<8xf32>", (CONVERTIBLE,), "tensor<8xf32>"),
    ("cmp_lt_f32", "xla.compare LT, %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>", (F32, F32_B), "tensor<8xi1>"),
    ("cmp_total_f32", "xla.compare LT, %a, %b, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>", (F32, F32_B), "tensor<8xi1>"),
    ("f32_to_i32", "xla.convert %a : (tensor<8xf32>) -> tensor<8xi32>", (CONVERTIBLE,), "tensor<8xi32>"),
    ("i32_to_f32", "xla.convert %a : (tensor<8xi32>) -> tensor<8xf32>", (BIG_INTS,), "tensor<8xf32>"),
    ("i32_to_i8", "xla.convert %a : (tensor<8xi32>) -> tensor<8xi8>", (BIG_INTS,), "tensor<8xi8>"),
    ("f32_to_bf16", "xla.convert %a : (tensor<8xf32>) -> tensor<8xbf16>", (CONVERTIBLE,), "tensor<8xbf16>"),
    ("f32_to_f16", "xla.convert %a : (tensor<8xf32>) -> tensor<8xf16>", (F32,), "tensor<8xf16>"),
]


RESULT_DTYPES = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i32": np.dtype(np.int32),
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
}


def _type(array: np.ndarray) -> str:
    names = {"int8": "i8", "int32": "i32", "float32": "f32"}
    return f"tensor<{array.size}x{names[array.dtype.name]}>"


def _literal(array: np.ndarray) -> str:
    if array.dtype.kind == "f":
        return "[" + ", ".join(f"0x{int(v):08X}" for v in array.view(np.uint32)) + "]"
    return "[" + ", ".join(str(int(v)) for v in array) + "]"


def _function(name: str, op: str, operands: tuple[np.ndarray, ...], result: str, constants: bool) -> str:
    names = ["a", "b"][: len(operands)]
    if constants:
        head = f"func.func @{name}() -> {result} {{\n"
        body = "".join(f"  %{n} = xla.constant dense<{_literal(v)}> : {_type(v)}\n" for n, v in zip(names, operands))
    else:
        args = ", ".join(f"%{n}: {_type(v)}" for n, v in zip(names, operands))
        head = f"func.func @{name}({args}) -> {result} {{\n"
        body = ""
    return head + body + f"  %r = {op}\n  func.return %r : {result}\n}}\n"


@pytest.fixture(scope="module")
def folded() -> dict[str, np.ndarray]:
    """Every case folded by xla-simplify: its function returns one constant."""
    module = parse_module("\n".join(_function(n, op, v, t, True) for n, op, v, t in CASES))
    assert isinstance(module, ModuleOp)
    run_passes(module, ["xla-simplify"])
    out: dict[str, np.ndarray] = {}
    for func in module.body.block.ops:
        ret = func.regions[0].block.last_op
        assert ret is not None
        value = constant_value(ret.operands[0])
        assert value is not None, f"{func.properties['sym_name']} was not folded"
        out[func.properties["sym_name"].data] = value  # pyright: ignore
    return out


@pytest.fixture(scope="module")
def program() -> str:
    return "\n".join(_function(n, op, v, t, False) for n, op, v, t in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_folding_matches_compiled_code(case, folded: dict[str, np.ndarray], program: str) -> None:
    name, _, operands, result = case
    computed = np.asarray(compile(program, name)(*operands))
    got = folded[name]
    assert got.dtype == RESULT_DTYPES[result.split("x")[-1].rstrip(">")]
    assert got.shape == computed.shape
    if got.dtype.kind in "iub":
        np.testing.assert_array_equal(got, computed.astype(got.dtype))
    else:
        wide_got, wide_computed = got.astype(np.float64), computed.astype(np.float64)
        np.testing.assert_array_equal(wide_got, wide_computed)  # NaN equals NaN here
        np.testing.assert_array_equal(np.signbit(wide_got[~np.isnan(wide_got)]), np.signbit(wide_computed[~np.isnan(wide_computed)]))


def test_implementation_defined_cases_are_left_to_run_time() -> None:
    """Division by zero, INT_MIN / -1, shifts by the width and non-finite converts stay."""
    module = parse_module(
        """
func.func @f() -> (tensor<2xi8>, tensor<i8>, tensor<i8>, tensor<2xi32>) {
  %a = xla.constant dense<[7, -128]> : tensor<2xi8>
  %b = xla.constant dense<[0, -1]> : tensor<2xi8>
  %0 = xla.divide %a, %b : tensor<2xi8>
  %one = xla.constant dense<1> : tensor<i8>
  %eight = xla.constant dense<8> : tensor<i8>
  %1 = xla.shift_left %one, %eight : tensor<i8>
  %2 = xla.remainder %one, %eight : tensor<i8>
  %f = xla.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
  %3 = xla.convert %f : (tensor<2xf32>) -> tensor<2xi32>
  func.return %0, %1, %2, %3 : tensor<2xi8>, tensor<i8>, tensor<i8>, tensor<2xi32>
}
"""
    )
    run_passes(module, ["xla-simplify"])
    names = [op.name for op in module.walk()]
    assert "xla.divide" in names and "xla.shift_left" in names and "xla.convert" in names
    assert "xla.remainder" not in names  # 1 % 8 is fixed by the spec: folded


I4 = np.array([-8, -7, -1, 0, 1, 3, 7, -8], dtype=ml_dtypes.int4)
I4_NONZERO = np.array([3, -2, 5, -1, 7, 2, -3, 1], dtype=ml_dtypes.int4)
U4 = np.array([0, 1, 3, 7, 8, 9, 15, 15], dtype=ml_dtypes.uint4)
U4_B = np.array([15, 2, 3, 1, 8, 4, 1, 15], dtype=ml_dtypes.uint4)
I4_SHIFTS = np.array([0, 1, 2, 3, 0, 1, 2, 3], dtype=ml_dtypes.int4)
I2 = np.array([-2, -1, 0, 1, -2, -1, 0, 1], dtype=ml_dtypes.int2)

# (name, op text, operand arrays, result type): sub-byte integers (sub_byte.py)
SUB_BYTE_CASES: list[tuple[str, str, tuple[np.ndarray, ...], str]] = [
    ("add_i4", "xla.add %a, %b : tensor<8xi4>", (I4, I4_NONZERO), "tensor<8xi4>"),
    ("sub_i4", "xla.subtract %a, %b : tensor<8xi4>", (I4, I4_NONZERO), "tensor<8xi4>"),
    ("mul_i4", "xla.multiply %a, %b : tensor<8xi4>", (I4, I4_NONZERO), "tensor<8xi4>"),
    ("div_i4", "xla.divide %a, %b : tensor<8xi4>", (I4[1:7].repeat(2)[:8], I4_NONZERO), "tensor<8xi4>"),
    ("rem_i4", "xla.remainder %a, %b : tensor<8xi4>", (I4[1:7].repeat(2)[:8], I4_NONZERO), "tensor<8xi4>"),
    ("shl_i4", "xla.shift_left %a, %b : tensor<8xi4>", (I4, I4_SHIFTS), "tensor<8xi4>"),
    ("shra_i4", "xla.shift_right_arithmetic %a, %b : tensor<8xi4>", (I4, I4_SHIFTS), "tensor<8xi4>"),
    ("shrl_i4", "xla.shift_right_logical %a, %b : tensor<8xi4>", (I4, I4_SHIFTS), "tensor<8xi4>"),
    ("neg_i4", "xla.negate %a : tensor<8xi4>", (I4,), "tensor<8xi4>"),
    ("abs_i4", "xla.abs %a : tensor<8xi4>", (I4,), "tensor<8xi4>"),
    ("not_i4", "xla.not %a : tensor<8xi4>", (I4,), "tensor<8xi4>"),
    ("popcnt_i4", "xla.popcnt %a : tensor<8xi4>", (I4,), "tensor<8xi4>"),
    ("clz_i4", "xla.count_leading_zeros %a : tensor<8xi4>", (I4,), "tensor<8xi4>"),
    ("max_i4", "xla.maximum %a, %b : tensor<8xi4>", (I4, I4_NONZERO), "tensor<8xi4>"),
    ("add_ui4", "xla.add %a, %b : tensor<8xui4>", (U4, U4_B), "tensor<8xui4>"),
    ("mul_ui4", "xla.multiply %a, %b : tensor<8xui4>", (U4, U4_B), "tensor<8xui4>"),
    ("div_ui4", "xla.divide %a, %b : tensor<8xui4>", (U4, U4_B), "tensor<8xui4>"),
    ("shra_ui4", "xla.shift_right_arithmetic %a, %b : tensor<8xui4>", (U4, np.array([3, 2, 3, 1, 0, 0, 1, 3], dtype=ml_dtypes.uint4)), "tensor<8xui4>"),
    ("neg_i2", "xla.negate %a : tensor<8xi2>", (I2,), "tensor<8xi2>"),
    ("cmp_lt_i4", "xla.compare LT, %a, %b : (tensor<8xi4>, tensor<8xi4>) -> tensor<8xi1>", (I4, I4_NONZERO), "tensor<8xi1>"),
    ("cmp_gt_ui4", "xla.compare GT, %a, %b : (tensor<8xui4>, tensor<8xui4>) -> tensor<8xi1>", (U4, U4_B), "tensor<8xi1>"),
    ("i4_to_ui8", "xla.convert %a : (tensor<8xi4>) -> tensor<8xui8>", (I4,), "tensor<8xui8>"),
    ("i4_to_f32", "xla.convert %a : (tensor<8xi4>) -> tensor<8xf32>", (I4,), "tensor<8xf32>"),
    ("ui4_to_i4", "xla.convert %a : (tensor<8xui4>) -> tensor<8xi4>", (U4,), "tensor<8xi4>"),
    ("i32_to_i4", "xla.convert %a : (tensor<8xi32>) -> tensor<8xi4>", (BIG_INTS,), "tensor<8xi4>"),
]


def _sub_byte_type(array: np.ndarray) -> str:
    names = {"int4": "i4", "uint4": "ui4", "int2": "i2", "int32": "i32"}
    return f"tensor<{array.size}x{names[array.dtype.name]}>"


def _sub_byte_function(name: str, op: str, operands: tuple[np.ndarray, ...], result: str, constants: bool) -> str:
    names = ["a", "b"][: len(operands)]
    if constants:
        head = f"func.func @{name}() -> {result} {{\n"
        body = "".join(
            f"  %{n} = xla.constant dense<[{', '.join(str(int(x)) for x in v)}]> : {_sub_byte_type(v)}\n"
            for n, v in zip(names, operands)
        )
    else:
        args = ", ".join(f"%{n}: {_sub_byte_type(v)}" for n, v in zip(names, operands))
        head, body = f"func.func @{name}({args}) -> {result} {{\n", ""
    return head + body + f"  %r = {op}\n  func.return %r : {result}\n}}\n"


@pytest.fixture(scope="module")
def sub_byte_folded() -> dict[str, np.ndarray]:
    """Every sub-byte case folded by xla-simplify to one constant (as int64)."""
    module = parse_module("\n".join(_sub_byte_function(n, op, v, t, True) for n, op, v, t in SUB_BYTE_CASES))
    run_passes(module, ["xla-simplify"])
    out: dict[str, np.ndarray] = {}
    for func in module.body.block.ops:
        ret = func.regions[0].block.last_op
        assert ret is not None
        owner = ret.operands[0].owner
        name = func.properties["sym_name"].data  # pyright: ignore
        assert getattr(owner, "name", None) == "xla.constant", f"{name} was not folded"
        out[name] = np.asarray(to_numpy(owner.properties["value"]))  # pyright: ignore
    return out


@pytest.mark.parametrize("case", SUB_BYTE_CASES, ids=[c[0] for c in SUB_BYTE_CASES])
def test_sub_byte_folding_matches_compiled_code(case, sub_byte_folded: dict[str, np.ndarray]) -> None:
    name, _, operands, _ = case
    program = "\n".join(_sub_byte_function(n, op, v, t, False) for n, op, v, t in SUB_BYTE_CASES)
    computed = np.asarray(compile(program, name)(*operands))
    got = sub_byte_folded[name]
    assert got.shape == computed.shape
    np.testing.assert_array_equal(got.astype(np.float64), computed.astype(np.float64))


def test_sub_byte_implementation_defined_cases_stay() -> None:
    """-8 / -1 and division by zero in i4, and shifts by 4 or more, stay to run time."""
    module = parse_module(
        """
func.func @f() -> (tensor<2xi4>, tensor<i4>) {
  %a = xla.constant dense<[-8, 7]> : tensor<2xi4>
  %b = xla.constant dense<[-1, 0]> : tensor<2xi4>
  %0 = xla.divide %a, %b : tensor<2xi4>
  %one = xla.constant dense<1> : tensor<i4>
  %four = xla.constant dense<4> : tensor<i4>
  %1 = xla.shift_left %one, %four : tensor<i4>
  func.return %0, %1 : tensor<2xi4>, tensor<i4>
}
"""
    )
    run_passes(module, ["xla-simplify"])
    names = [op.name for op in module.walk()]
    assert "xla.divide" in names and "xla.shift_left" in names
