"""`xla.sort` compiled through `lower-to-llvm` against NumPy references.

The reference is `np.argsort(kind="stable")` of a key (XLA's total order for
TOTALORDER comparators, the negated key for descending ones) or `np.lexsort`
for a lexicographic comparator; every operand is then taken along the sort
dimension by that permutation. Payload operands (an index) show that the
operands move together and that ties keep their input order. Every case is one
function of a single module compiled once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "i32": np.dtype(np.int32),
    "ui32": np.dtype(np.uint32),
    "i1": np.dtype(np.bool_),
}


@dataclass
class Case:
    name: str
    shape: tuple[int, ...]
    types: tuple[str, ...]  # operand element types; operand 0 is the key
    comparator: str = "LT"  # LT | GT | TOTAL_LT | TOTAL_GT | LEX (keys 0, 1) | ABS_LT
    dimension: int = -1
    stable: bool = True
    make: str = "random"  # how operand 0 is filled: random | ties | special
    payload_index: bool = field(default=True)  # the last operand is i32 0, 1, 2, ... (checked)

    @property
    def dim(self) -> int:
        return self.dimension % len(self.shape)


CASES = [
    Case("f32_1d", (37,), ("f32", "i32")),
    Case("f32_1d_key_only", (37,), ("f32",), payload_index=False),
    Case("f32_1d_odd_passes", (5,), ("f32", "i32")),
    Case("f32_pow2", (64,), ("f32", "i32")),
    Case("f32_two", (2,), ("f32", "i32")),
    Case("f32_three", (3,), ("f32", "i32")),
    Case("f32_one", (1,), ("f32", "i32")),
    Case("f32_empty_rows", (0, 6), ("f32", "i32")),
    Case("f32_ties_stable", (1000,), ("f32", "i32"), make="ties"),
    Case("f32_zeros_default_compare", (40,), ("f32", "i32"), make="zeros"),
    Case("f32_totalorder", (48,), ("f32", "i32"), comparator="TOTAL_LT", make="special"),
    Case("f32_totalorder_desc", (48,), ("f32", "i32"), comparator="TOTAL_GT", make="special"),
    Case("f64_totalorder", (33,), ("f64", "i32"), comparator="TOTAL_LT", make="special"),
    Case("bf16_totalorder", (33,), ("bf16", "i32"), comparator="TOTAL_LT", make="special"),
    Case("bf16_ties", (50,), ("bf16", "i32"), make="ties"),
    Case("i32_desc", (6, 29), ("i32", "i32"), comparator="GT", make="ties"),
    Case("ui32_keys", (45,), ("ui32", "i32"), make="ties"),
    Case("pred_keys", (4, 23), ("i1", "i32"), make="ties"),
    Case("pred_keys_desc", (23,), ("i1", "i32"), comparator="GT", make="ties"),
    Case("lexicographic", (70,), ("i32", "f32", "i32"), comparator="LEX", make="ties"),
    Case("abs_key", (31,), ("f32", "i32"), comparator="ABS_LT", make="ties"),
    Case("dim0_3d", (13, 4, 3), ("f32", "i32"), dimension=0, make="ties"),
    Case("dim1_3d_negative", (3, 9, 4), ("i32", "i32"), dimension=-2, make="ties"),
    Case("last_dim_3d", (2, 3, 17), ("f64", "i32"), make="ties"),
    Case("unit_rows", (1, 11, 1), ("i32", "i32"), dimension=1, make="ties"),
    Case("unstable", (300,), ("f32", "i32"), stable=False, make="ties"),
    # LT on NaNs is no strict weak order: the result must still be a permutation.
    Case("nan_plain_lt", (4, 203), ("f32", "i32"), make="nan"),
]


# ---------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def _comparator(case: Case) -> str:
    """The comparator body of a case, on the block arguments %a0, %b0, %a1, ..."""
    s = [f"tensor<{t}>" for t in case.types]
    b = "tensor<i1>"
    kind = case.comparator
    if kind in ("LT", "GT"):
        return f"""    %p = xla.compare {kind}, %a0, %b0 : ({s[0]}, {s[0]}) -> {b}
    xla.return %p : {b}"""
    if kind in ("TOTAL_LT", "TOTAL_GT"):
        return f"""    %p = xla.compare {kind[-2:]}, %a0, %b0, TOTALORDER : ({s[0]}, {s[0]}) -> {b}
    xla.return %p : {b}"""
    if kind == "ABS_LT":
        return f"""    %x = xla.abs %a0 : {s[0]}
    %y = xla.abs %b0 : {s[0]}
    %p = xla.compare LT, %x, %y : ({s[0]}, {s[0]}) -> {b}
    xla.return %p : {b}"""
    assert kind == "LEX"
    return f"""    %lt0 = xla.compare LT, %a0, %b0 : ({s[0]}, {s[0]}) -> {b}
    %eq0 = xla.compare EQ, %a0, %b0 : ({s[0]}, {s[0]}) -> {b}
    %lt1 = xla.compare LT, %a1, %b1 : ({s[1]}, {s[1]}) -> {b}
    %tie = xla.and %eq0, %lt1 : {b}
    %p = xla.or %lt0, %tie : {b}
    xla.return %p : {b}"""


def function(case: Case) -> str:
    ts = [_tensor(case.shape, t) for t in case.types]
    params = ", ".join(f"%x{i}: {t}" for i, t in enumerate(ts))
    args = ", ".join(f"%x{i}" for i in range(len(ts)))
    block_args = ", ".join(f"%a{i}: tensor<{t}>, %b{i}: tensor<{t}>" for i, t in enumerate(case.types))
    results = ", ".join(f"%r#{i}" for i in range(len(ts))) if len(ts) > 1 else "%r"
    name = f"%r:{len(ts)}" if len(ts) > 1 else "%r"
    stable = "true" if case.stable else "false"
    return f"""func.func @{case.name}({params}) -> ({", ".join(ts)}) {{
  {name} = "xla.sort"({args}) ({{
  ^bb0({block_args}):
{_comparator(case)}
  }}) {{dimension = {case.dimension} : i64, is_stable = {stable}}} : ({", ".join(ts)}) -> ({", ".join(ts)})
  func.return {results} : {", ".join(ts)}
}}"""


MODULE = "\n\n".join(function(c) for c in CASES)

# ---------------------------------------------------------------------------
# Inputs and reference
# ---------------------------------------------------------------------------

SPECIALS = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -1.5, 3.0, -2.0, 1e-30, -1e-30]


def make_operand(case: Case, i: int, rng: np.random.Generator) -> np.ndarray:
    t = DTYPES[case.types[i]]
    shape = case.shape
    if i == len(case.types) - 1 and case.payload_index:
        return np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    if t == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if t == np.uint32:
        return rng.choice(np.array([0, 1, 7, 2**31 - 1, 2**31, 2**32 - 1], dtype=np.uint32), shape)
    if case.make == "special" and i == 0:
        values = np.array(SPECIALS, dtype=np.float64)
        x = rng.choice(values, shape).astype(t)
        # -NaN keeps its sign bit through the choice: mark some NaNs negative explicitly.
        flat = x.reshape(-1)
        nan_positions = np.flatnonzero(np.isnan(flat.astype(np.float64)))
        flat[nan_positions[::2]] = -np.abs(flat[nan_positions[::2]])
        return x
    if case.make == "nan" and i == 0:
        x = rng.integers(0, 10, shape).astype(t)
        x[rng.random(shape) < 0.2] = np.nan
        return x
    if case.make == "zeros" and i == 0:
        return rng.choice(np.array([0.0, -0.0, 1.0, -1.0]), shape).astype(t)
    if case.make == "ties":
        return rng.integers(-4, 5, shape).astype(t)
    return rng.standard_normal(shape).astype(t) if t.kind == "f" else rng.integers(-1000, 1000, shape).astype(t)


def total_order_key(x: np.ndarray) -> np.ndarray:
    """XLA's total order of floats as integers: -NaN < -inf < ... < -0 < +0 < ... < +NaN."""
    width = x.dtype.itemsize * 8
    bits = x.view(np.dtype(f"int{width}")).astype(np.int64)
    magnitude = (1 << (width - 1)) - 1
    return np.where(bits < 0, bits ^ magnitude, bits)


def permutation(case: Case, operands: Sequence[np.ndarray]) -> np.ndarray:
    """Per row (operands moved to the last axis), the stable sorting permutation."""
    keys = [np.moveaxis(x, case.dim, -1) for x in operands]
    k0 = keys[0]
    kind = case.comparator
    if kind in ("TOTAL_LT", "TOTAL_GT"):
        key = total_order_key(k0)
        return np.argsort(-key if kind == "TOTAL_GT" else key, axis=-1, kind="stable")
    if kind == "LEX":
        return np.lexsort((keys[1], k0), axis=-1)
    is_float = k0.dtype.kind in "fb" or k0.dtype == DTYPES["bf16"]
    wide = k0.astype(np.float64) if is_float else k0.astype(np.int64)
    if kind == "ABS_LT":
        wide = np.abs(wide)
    return np.argsort(-wide if kind == "GT" else wide, axis=-1, kind="stable")


def reference(case: Case, operands: Sequence[np.ndarray]) -> list[np.ndarray]:
    perm = permutation(case, operands)
    return [np.moveaxis(np.take_along_axis(np.moveaxis(x, case.dim, -1), perm, axis=-1), -1, case.dim) for x in operands]


def bits(x: np.ndarray) -> np.ndarray:
    """Bit patterns, so NaN payloads/signs and -0.0 are compared exactly."""
    if x.dtype.kind == "f" or x.dtype == DTYPES["bf16"]:
        return x.view(np.dtype(f"uint{x.dtype.itemsize * 8}"))
    return x


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, CASES[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


def _run(module: str, case: Case) -> tuple[list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(len(case.name) * 7 + 1)
    operands = [make_operand(case, i, rng) for i in range(len(case.types))]
    f = compile(module, case.name)
    out = f(*operands)
    results = list(out) if isinstance(out, tuple) else [out]
    return operands, results


STABLE_CASES = [c for c in CASES if c.stable and c.make != "nan"]


@pytest.mark.parametrize("case", STABLE_CASES, ids=[c.name for c in STABLE_CASES])
def test_sort(module: str, case: Case) -> None:
    operands, results = _run(module, case)
    expected = reference(case, operands)
    assert len(results) == len(expected)
    for r, e in zip(results, expected):
        assert r.shape == e.shape and r.dtype == e.dtype
        np.testing.assert_array_equal(bits(r), bits(e))


def test_unstable_sort_is_a_sorted_permutation(module: str) -> None:
    """Without `is_stable` the order of equal keys is free: the keys must be sorted
    and the (key, payload) pairs a permutation of the input's."""
    (case,) = [c for c in CASES if not c.stable]
    operands, results = _run(module, case)
    keys, payload = results
    assert np.all(keys[:-1] <= keys[1:])
    assert sorted(zip(operands[0].tolist(), operands[1].tolist())) == sorted(zip(keys.tolist(), payload.tolist()))


def test_total_order_placement(module: str) -> None:
    """-NaN first, then -inf, ..., -0.0 before +0.0, ..., +inf, +NaN last."""
    (case,) = [c for c in CASES if c.name == "f32_totalorder"]
    _, results = _run(module, case)
    keys = results[0]
    sign = np.signbit(keys)
    nan = np.isnan(keys)
    n_neg_nan = int(np.sum(nan & sign))
    assert n_neg_nan > 0 and np.all(nan[:n_neg_nan] & sign[:n_neg_nan])
    assert np.all(nan[-int(np.sum(nan & ~sign)) :] & ~sign[-int(np.sum(nan & ~sign)) :])
    zeros = np.flatnonzero(keys == 0)
    assert np.all(np.diff(sign[zeros].astype(int)) <= 0)  # all -0.0 before all +0.0
    finite = keys[~nan]
    assert np.all(finite[:-1] <= finite[1:])



def test_comparator_without_scalar_form_is_reported() -> None:
    from runtime import CompileError

    text = """func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "xla.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.custom_call @opaque(%a) : (tensor<f32>) -> tensor<f32>
    %p = xla.compare LT, %c, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %p : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}"""
    with pytest.raises(CompileError, match="'xla.custom_call' in the body of 'xla.sort' has no scalar form"):
        compile(text, "bad")


def test_inconsistent_comparator_gives_a_permutation(module: str) -> None:
    """With a comparator that is no strict weak order the order is unspecified,
    but each row must be a permutation of its input row, keys moving with their
    payload (the merge's two ends are checked to meet, else it is redone)."""
    (case,) = [c for c in CASES if c.make == "nan"]
    operands, (keys, payload) = _run(module, case)
    for row in range(case.shape[0]):
        assert sorted(payload[row].tolist()) == sorted(operands[1][row].tolist())
        np.testing.assert_array_equal(bits(keys[row]), bits(operands[0][row][payload[row] - payload[row].min()]))
