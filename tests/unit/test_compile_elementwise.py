"""`clamp`, `select`, `compare`, implicit broadcasting, and a representative subset of the element-wise ops per element type (the scalar semantics of each op are `test_scalar_semantics.py`), compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from compile_ops_support import (
    ALL,
    DTYPES,
    FLOATS,
    INTS,
    NUMERIC,
    SINTS,
    Kernels,
    Module,
    array,
    assert_close,
    assert_same,
    fmt_ints,
    ids,
    int_range,
    ref_binary,
    rng_for,
    sample,
    scalar,
    ttype,
    width,
)

# ===========================================================================
# Element-wise: clamp, select, compare, implicit broadcasting, a representative
# subset of element-wise ops per type
# ===========================================================================

ELEMENTWISE = Module()


@dataclass(frozen=True)
class TernaryCase:
    name: str
    t: str
    shape: tuple[int, ...]
    scalar_sides: bool  # clamp: scalar bounds; select: scalar predicate


def _clamp_select_cases() -> tuple[list[TernaryCase], list[TernaryCase]]:
    clamps: list[TernaryCase] = []
    selects: list[TernaryCase] = []
    shapes = [(7,), (2, 1, 3), ()]
    for i, t in enumerate(ALL):
        for scalar_sides in (True, False):
            shape = shapes[(i + scalar_sides) % 3] if not scalar_sides else shapes[i % 2]
            kind = "scalar" if scalar_sides else "full"
            if t != "i1":
                c = TernaryCase(f"clamp_{t}_{kind}", t, shape, scalar_sides)
                clamps.append(c)
                x = ttype(t, shape)
                b = ttype(t, () if scalar_sides else shape)
                ELEMENTWISE.add(
                    c.name,
                    [b, x, b],
                    [f"%r = xla.clamp %a0, %a1, %a2 : ({b}, {x}, {b}) -> {x}"],
                    [("%r", x)],
                )
            s = TernaryCase(f"select_{t}_{kind}", t, shape, scalar_sides)
            selects.append(s)
            x = ttype(t, shape)
            p = ttype("i1", () if scalar_sides else shape)
            ELEMENTWISE.add(
                s.name,
                [p, x, x],
                [f"%r = xla.select %a0, %a1, %a2 : ({p}, {x}, {x}) -> {x}"],
                [("%r", x)],
            )
    # Mixed: a scalar lower bound with a full upper bound.
    c = TernaryCase("clamp_f32_mixed", "f32", (2, 3), True)
    x, s = ttype("f32", (2, 3)), ttype("f32", ())
    ELEMENTWISE.add(
        c.name, [s, x, x], [f"%r = xla.clamp %a0, %a1, %a2 : ({s}, {x}, {x}) -> {x}"], [("%r", x)]
    )
    clamps.append(c)
    return clamps, selects


CLAMP_CASES, SELECT_CASES = _clamp_select_cases()

DIRECTIONS = ["EQ", "NE", "LT", "LE", "GT", "GE"]


@dataclass(frozen=True)
class CompareCase:
    name: str
    t: str
    shape: tuple[int, ...]
    total_order: bool


def _compare_cases() -> list[CompareCase]:
    cases: list[CompareCase] = []
    shapes = [(16,), (2, 4, 2), ()]
    for i, t in enumerate(ALL):
        cases.append(CompareCase(f"compare_{t}", t, shapes[i % 3] if i % 3 != 2 else (16,), False))
        if t in FLOATS:
            cases.append(CompareCase(f"compare_{t}_totalorder", t, (18,), True))
    cases.append(CompareCase("compare_f32_scalar", "f32", (), False))
    cases.append(CompareCase("compare_ui16_scalar", "ui16", (), False))
    for c in cases:
        a, p = ttype(c.t, c.shape), ttype("i1", c.shape)
        tail = ", TOTALORDER" if c.total_order else ""
        ops = [f"%r{d} = xla.compare {d}, %a0, %a1{tail} : ({a}, {a}) -> {p}" for d in DIRECTIONS]
        ELEMENTWISE.add(c.name, [a, a], ops, [(f"%r{d}", p) for d in DIRECTIONS])
    return cases


COMPARE_CASES = _compare_cases()


def compare_inputs(c: CompareCase) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs with equal elements, NaNs of both signs and +-0 pairs."""
    a = sample(c.t, c.shape, c.name, "a", special=False, small=True)
    b = sample(c.t, c.shape, c.name, "b", special=False, small=True)
    if c.t in FLOATS and a.size >= 16:
        pairs = [
            (math.nan, 1.0),
            (1.0, math.nan),
            (math.nan, math.nan),
            (-math.nan, math.nan),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-0.0, -0.0),
            (math.inf, math.nan),
            (-math.inf, -math.nan),
            (2.0, 2.0),
            (-math.inf, -3.0),
        ]
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        for k, (x, y) in enumerate(pairs):
            flat_a[k], flat_b[k] = array(x, c.t), array(y, c.t)
    elif c.t not in FLOATS and a.size >= 4:
        lo, hi = int_range(c.t)
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        for k, (x, y) in enumerate([(lo, hi), (hi, lo), (lo, lo), (hi, 0)]):
            flat_a[k], flat_b[k] = array(x, c.t), array(y, c.t)
    return a, b


def total_order_key(x: np.ndarray, t: str) -> np.ndarray:
    """Integers ordered as the floats' total order (-NaN < -inf < -0 < +0 < +NaN)."""
    signed = x.view(f"i{DTYPES[t].itemsize}").astype(np.int64)
    magnitude_mask = (1 << (width(t) - 1)) - 1
    return np.where(signed < 0, signed ^ magnitude_mask, signed)


def ref_compare(
    a: np.ndarray, b: np.ndarray, t: str, direction: str, total_order: bool
) -> np.ndarray:
    if total_order:
        a, b = total_order_key(a, t), total_order_key(b, t)
    elif t in FLOATS:
        a, b = a.astype(np.float64), b.astype(np.float64)
    ops = {
        "EQ": np.equal,
        "NE": np.not_equal,
        "LT": np.less,
        "LE": np.less_equal,
        "GT": np.greater,
        "GE": np.greater_equal,
    }
    return np.asarray(ops[direction](a, b))


@dataclass(frozen=True)
class BroadcastingCase:
    name: str
    op: str
    t: str
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    dims: tuple[int, ...] | None
    result: tuple[int, ...]


def _broadcasting_cases() -> list[BroadcastingCase]:
    cases = [
        BroadcastingCase("bcast_add_scalar_rhs", "add", "f32", (2, 3), (), None, (2, 3)),
        BroadcastingCase(
            "bcast_subtract_scalar_lhs", "subtract", "i32", (), (2, 1, 3), None, (2, 1, 3)
        ),
        BroadcastingCase("bcast_multiply_row", "multiply", "f64", (2, 3), (3,), (1,), (2, 3)),
        BroadcastingCase("bcast_subtract_col", "subtract", "i16", (2, 3), (2,), (0,), (2, 3)),
        BroadcastingCase("bcast_add_degenerate_both", "add", "f32", (2, 1), (1, 3), None, (2, 3)),
        BroadcastingCase(
            "bcast_add_degenerate_rank3", "add", "i64", (4, 1, 3), (1, 5, 1), None, (4, 5, 3)
        ),
        BroadcastingCase(
            "bcast_maximum_rank3_dims02", "maximum", "ui32", (2, 3, 4), (2, 4), (0, 2), (2, 3, 4)
        ),
        BroadcastingCase(
            "bcast_minimum_low_degenerate", "minimum", "ui8", (1, 4), (2, 3, 4), (1, 2), (2, 3, 4)
        ),
        BroadcastingCase(
            "bcast_divide_high_degenerate", "divide", "i8", (2, 1), (3,), (1,), (2, 3)
        ),
        BroadcastingCase("bcast_add_identity_dims", "add", "bf16", (2, 3), (2, 3), (0, 1), (2, 3)),
        BroadcastingCase("bcast_divide_scalar_zero", "divide", "ui16", (5,), (), None, (5,)),
        BroadcastingCase("bcast_compare_row", "compare", "f32", (2, 3), (3,), (1,), (2, 3)),
        BroadcastingCase(
            "bcast_compare_unsigned_degenerate", "compare", "ui64", (3, 1), (1, 4), None, (3, 4)
        ),
        BroadcastingCase("bcast_shift_left_scalar", "shift_left", "i32", (2, 2), (), None, (2, 2)),
        BroadcastingCase("bcast_and_pred", "and", "i1", (3, 1), (4,), (1,), (3, 4)),
    ]
    for c in cases:
        a, b = ttype(c.t, c.lhs), ttype(c.t, c.rhs)
        r = ttype("i1" if c.op == "compare" else c.t, c.result)
        dims = "" if c.dims is None else f", broadcast_dimensions = {fmt_ints(c.dims)}"
        op = "xla.compare LT," if c.op == "compare" else f"xla.{c.op}"
        ELEMENTWISE.add(
            c.name, [a, b], [f"%r = {op} %a0, %a1{dims} : ({a}, {b}) -> {r}"], [("%r", r)]
        )
    return cases


BROADCASTING_CASES = _broadcasting_cases()


def expand_operand(x: np.ndarray, dims: Sequence[int] | None, result: Sequence[int]) -> np.ndarray:
    """An operand broadcast to the result shape as the spec says."""
    if x.ndim == len(result):
        return np.broadcast_to(x, result)
    if x.ndim == 0:
        return np.broadcast_to(x, result)
    assert dims is not None
    shape = [1] * len(result)
    for i, d in enumerate(dims):
        shape[d] = x.shape[i]
    return np.broadcast_to(x.reshape(shape), result)


# -- the representative element-wise subset ----------------------------------


def ref_unary(op: str, x: np.ndarray, t: str) -> np.ndarray:
    if op == "not":
        return np.logical_not(x) if t == "i1" else np.invert(x)
    if op == "popcnt":
        bits = x.view(f"u{x.itemsize}")
        return np.array([int(v).bit_count() for v in bits.reshape(-1)], dtype=x.dtype).reshape(
            x.shape
        )
    if op == "sign":
        if t in FLOATS:
            f = x.astype(np.float64)
            return np.where(np.isnan(f) | (f == 0), f, np.copysign(1.0, f)).astype(x.dtype)
        return (
            np.asarray(np.sign(x.astype(np.int64))).astype(x.dtype)
            if t in SINTS
            else (x != 0).astype(x.dtype)
        )
    with np.errstate(all="ignore"):
        f = x.astype(np.float64) if t == "f64" else x.astype(np.float32)
        result = {"exponential": np.exp, "sqrt": np.sqrt}[op](f)
        return result.astype(x.dtype)


@dataclass(frozen=True)
class OpCase:
    name: str
    op: str
    t: str
    shape: tuple[int, ...]
    arity: int


UNARY_SUBSET: dict[str, list[str]] = {
    "exponential": FLOATS,
    "sqrt": FLOATS,
    "sign": SINTS + FLOATS,
    "not": ["i1", *INTS],
    "popcnt": INTS,
}
BINARY_SUBSET: dict[str, list[str]] = {
    "add": ALL,
    "divide": NUMERIC,
    "remainder": NUMERIC,
    "maximum": NUMERIC,
    "shift_left": INTS,
}


def _subset_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    shapes = [(24,), (2, 3, 4), (), (3, 1, 8)]
    k = 0
    for table, arity in ((UNARY_SUBSET, 1), (BINARY_SUBSET, 2)):
        for op, types in table.items():
            for t in types:
                shape = shapes[k % len(shapes)]
                k += 1
                c = OpCase(f"{op}_{t}", op, t, shape, arity)
                cases.append(c)
                a = ttype(t, shape)
                operands = ", ".join(f"%a{i}" for i in range(arity))
                ELEMENTWISE.add(
                    c.name, [a] * arity, [f"%r = xla.{op} {operands} : {a}"], [("%r", a)]
                )
    return cases


SUBSET_CASES = _subset_cases()


def subset_inputs(c: OpCase) -> list[np.ndarray]:
    """Operands that hit each op's corners: zero divisors and INT_MIN / -1,
    shift counts past the width (and negative), NaN, +-inf, +-0."""
    a = sample(c.t, c.shape, c.name, "a", special=c.op not in ("exponential",))
    if c.op == "exponential" and c.t in FLOATS and a.size >= 4:
        a.reshape(-1)[:4] = array([math.nan, math.inf, -math.inf, -0.0], c.t)
    if c.arity == 1:
        return [a]
    b = sample(c.t, c.shape, c.name, "b")
    if c.t in FLOATS and b.size > 1:
        # Pair each special value with ordinary ones and with the other specials
        # (NaN against numbers, -0.0 against +0.0), not with itself.
        b = np.roll(b.reshape(-1), 3).reshape(c.shape)
        if b.size >= 6:  # a starts NaN, -NaN, inf, -inf, +0, -0
            b.reshape(-1)[[0, 4, 5]] = array([2.0, -0.0, 0.0], c.t)
    if c.op in ("divide", "remainder") and c.t in INTS and a.size > 1:
        lo, _ = int_range(c.t)
        flat_a, flat_b = a.reshape(-1), b.reshape(-1)
        flat_b[: a.size // 3] = 0
        if c.t in SINTS:
            flat_a[-1], flat_b[-1] = lo, -1
    if c.op == "shift_left" and a.size > 1:
        w = width(c.t)
        rng = rng_for(c.name, "counts")
        counts = list(rng.integers(0, w, b.size))
        corners = [w - 1, w, w + 1, 2 * w, int_range(c.t)[1], 0]
        if c.t in SINTS:
            corners += [-1, int_range(c.t)[0]]
        counts[: len(corners)] = corners[: b.size]
        b = array(counts, c.t).reshape(c.shape)
    return [a, b]


@pytest.fixture(scope="module")
def elementwise() -> Kernels:
    return Kernels(ELEMENTWISE)


@pytest.mark.parametrize("case", CLAMP_CASES, ids=ids(CLAMP_CASES))
def test_clamp(elementwise: Kernels, case: TernaryCase) -> None:
    f = elementwise[case.name]
    x = sample(case.t, case.shape, case.name, "x")
    lo_shape = () if case.scalar_sides else case.shape
    hi_shape = case.shape if case.name.endswith("mixed") else lo_shape
    if case.t in FLOATS:
        lo = array(-2.5, case.t) + np.zeros(lo_shape, DTYPES[case.t])
        hi = array(3.0, case.t) + np.zeros(hi_shape, DTYPES[case.t])
        if not case.scalar_sides and lo.size > 2:
            lo.reshape(-1)[1] = array(math.nan, case.t)  # a NaN bound gives NaN
            lo.reshape(-1)[2], hi.reshape(-1)[2] = (
                array(4.0, case.t),
                array(1.0, case.t),
            )  # lo > hi gives hi
    elif case.scalar_sides:
        # Unsigned values above the signed maximum would be clamped to `lo` if
        # they were compared as signed.
        lo_v, hi_v = int_range(case.t)
        lo, hi = scalar(lo_v // 3 if lo_v < 0 else 3, case.t), scalar(hi_v // 2, case.t)
    else:
        a = sample(case.t, lo_shape, case.name, "lo", special=False)
        b = sample(case.t, hi_shape, case.name, "hi", special=False)
        lo, hi = np.minimum(a, b), np.maximum(a, b)
    if case.t in FLOATS:
        expected = np.minimum(
            np.maximum(x.astype(np.float64), lo.astype(np.float64)), hi.astype(np.float64)
        ).astype(DTYPES[case.t])
    else:
        expected = np.minimum(np.maximum(x, lo), hi).astype(DTYPES[case.t])
    assert_same(f(lo, x, hi), expected, case.name)


@pytest.mark.parametrize("case", SELECT_CASES, ids=ids(SELECT_CASES))
def test_select(elementwise: Kernels, case: TernaryCase) -> None:
    f = elementwise[case.name]
    a = sample(case.t, case.shape, case.name, "a")
    b = sample(case.t, case.shape, case.name, "b")
    if case.scalar_sides:
        for p in (True, False):
            assert_same(f(np.array(p), a, b), a if p else b, f"{case.name} pred={p}")
    else:
        pred = sample("i1", case.shape, case.name, "p")
        assert_same(f(pred, a, b), np.where(pred, a, b).astype(DTYPES[case.t]), case.name)


@pytest.mark.parametrize("case", COMPARE_CASES, ids=ids(COMPARE_CASES))
def test_compare(elementwise: Kernels, case: CompareCase) -> None:
    a, b = compare_inputs(case)
    results = elementwise[case.name](a, b)
    for direction, actual in zip(DIRECTIONS, results):
        expected = ref_compare(a, b, case.t, direction, case.total_order)
        assert_same(actual, expected, f"{case.name} {direction}")


@pytest.mark.parametrize("case", BROADCASTING_CASES, ids=ids(BROADCASTING_CASES))
def test_implicit_broadcasting(elementwise: Kernels, case: BroadcastingCase) -> None:
    a = sample(case.t, case.lhs, case.name, "a", small=True)
    b = sample(case.t, case.rhs, case.name, "b", small=case.op != "shift_left")
    if case.op == "divide" and b.size:
        b.reshape(-1)[0] = array(0, case.t)
        if case.rhs == ():
            b = scalar(0, case.t)
    ea, eb = (
        expand_operand(a, case.dims if a.ndim < b.ndim else None, case.result),
        expand_operand(b, case.dims if b.ndim < a.ndim else None, case.result),
    )
    if case.op == "compare":
        expected = ref_compare(ea, eb, case.t, "LT", False)
    else:
        expected = ref_binary(case.op, ea, eb, case.t)
    assert_same(elementwise[case.name](a, b), np.array(expected), case.name)


@pytest.mark.parametrize("case", SUBSET_CASES, ids=ids(SUBSET_CASES))
def test_elementwise_subset(elementwise: Kernels, case: OpCase) -> None:
    inputs = subset_inputs(case)
    actual = elementwise[case.name](*inputs)
    if case.arity == 1:
        expected = ref_unary(case.op, inputs[0], case.t)
    else:
        expected = ref_binary(case.op, inputs[0], inputs[1], case.t)
    if case.op == "exponential" and case.t in ("f32", "f64"):
        assert_close(actual, expected, 1e-6 if case.t == "f32" else 1e-14, case.name)
    else:
        assert_same(actual, expected, case.name)
