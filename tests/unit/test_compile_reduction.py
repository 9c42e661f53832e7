"""Reductions: `reduce` (single and variadic) and `map`, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from compile_ops_support import (
    DTYPES,
    FLOATS,
    INTS,
    NUMERIC,
    Kernels,
    Module,
    array,
    assert_same,
    fmt_ints,
    ids,
    int_range,
    ref_binary,
    ref_convert,
    sample,
    scalar,
    ttype,
)

# Reduction: reduce (single and variadic), map
# ===========================================================================

REDUCTION = Module()


@dataclass(frozen=True)
class ReduceCase:
    name: str
    reducer: str
    t: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]


INITS: dict[str, Callable[[str], Any]] = {
    "add": lambda t: 0,
    "multiply": lambda t: 1,
    "maximum": lambda t: -math.inf if t in FLOATS else int_range(t)[0],
    "minimum": lambda t: math.inf if t in FLOATS else int_range(t)[1],
    "and": lambda t: True if t == "i1" else -1,
    "or": lambda t: 0,
}


def _reduce_cases() -> list[ReduceCase]:
    cases: list[ReduceCase] = []
    shape = (2, 3, 4)
    for n in range(4):
        for dims in combinations(range(3), n):
            for t in ("f32", "i32"):
                cases.append(
                    ReduceCase(
                        f"reduce_add_{t}_{''.join(map(str, dims)) or 'none'}", "add", t, shape, dims
                    )
                )
    reducers = {
        "add": NUMERIC + ["i1"],
        "maximum": NUMERIC + ["i1"],
        "minimum": NUMERIC,
        "multiply": ["i8", "ui16", "i64", "f64", "f16"],
        "and": ["i1", "i16", "ui32"],
        "or": ["i1", "ui8", "i64"],
    }
    shapes_dims = [((3, 5), (1,)), ((4, 1, 3), (0, 2)), ((6,), (0,)), ((2, 3, 2), (0,)), ((), ())]
    k = 0
    for reducer, types in reducers.items():
        for t in types:
            if reducer == "add" and t in ("f32", "i32"):
                continue
            s, dims = shapes_dims[k % len(shapes_dims)]
            k += 1
            cases.append(ReduceCase(f"reduce_{reducer}_{t}", reducer, t, s, dims))
    for c in cases:
        a, i = ttype(c.t, c.shape), ttype(c.t, ())
        r = ttype(c.t, [d for k2, d in enumerate(c.shape) if k2 not in c.dims])
        op = f"%r = xla.reduce(%a0 init: %a1) applies xla.{c.reducer} across dimensions = {fmt_ints(c.dims)} : ({a}, {i}) -> {r}"
        REDUCTION.add(c.name, [a, i], [op], [("%r", r)])
    return cases


REDUCE_CASES = _reduce_cases()


def ref_reduce(c: ReduceCase, x: np.ndarray, init: np.ndarray) -> np.ndarray:
    """The reducer applied in row-major order over each reduced group, in the
    element type (bf16 in f32, rounded once at the end, as XLA's CPU backend)."""
    t = "f32" if c.t == "bf16" else c.t
    kept = [d for d in range(x.ndim) if d not in c.dims]
    moved = (
        np.transpose(x, kept + list(c.dims))
        .reshape([x.shape[d] for d in kept] + [-1])
        .astype(DTYPES[t])
    )
    acc = np.full(moved.shape[:-1], init, dtype=DTYPES[t])
    for j in range(moved.shape[-1]):
        acc = ref_reducer(c.reducer, acc, moved[..., j], t)
    return acc.astype(x.dtype)


def ref_reducer(reducer: str, acc: np.ndarray, x: np.ndarray, t: str) -> np.ndarray:
    if reducer in ("and", "or"):
        if t == "i1":
            return np.logical_and(acc, x) if reducer == "and" else np.logical_or(acc, x)
        return np.bitwise_and(acc, x) if reducer == "and" else np.bitwise_or(acc, x)
    return (
        np.asarray(ref_binary(reducer, acc, x, t))
        if t in INTS or t == "i1" or reducer in ("maximum", "minimum")
        else _float_step(reducer, acc, x)
    )


def _float_step(reducer: str, acc: np.ndarray, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        f = np.add if reducer == "add" else np.multiply
        return f(acc.astype(np.float64), x.astype(np.float64)).astype(acc.dtype)


@dataclass(frozen=True)
class ArgCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dim: int
    direction: str  # GT: argmax, LT: argmin


def _arg_cases() -> list[ArgCase]:
    cases = [
        ArgCase("argmax_f32_d1", "f32", (3, 5), 1, "GT"),
        ArgCase("argmin_f32_d0", "f32", (4, 3), 0, "LT"),
        ArgCase("argmax_i8_d2", "i8", (2, 3, 6), 2, "GT"),
        ArgCase("argmin_ui16_d1", "ui16", (2, 7, 2), 1, "LT"),
        ArgCase("argmax_bf16_d0", "bf16", (6,), 0, "GT"),
        ArgCase("argmin_i64_d0", "i64", (5, 1), 0, "LT"),
    ]
    for c in cases:
        a, s = ttype(c.t, c.shape), ttype(c.t, ())
        out = [d for k, d in enumerate(c.shape) if k != c.dim]
        r, ri = ttype(c.t, out), ttype("i32", out)
        ai, si = ttype("i32", c.shape), ttype("i32", ())
        ops = [
            f"%idx = xla.iota dim = {c.dim} : {ai}",
            '%r:2 = "xla.reduce"(%a0, %idx, %a1, %a2) ({',
            f"  ^bb0(%av: {s}, %ai: {si}, %xv: {s}, %xi: {si}):",
            f"    %better = xla.compare {c.direction}, %av, %xv : ({s}, {s}) -> tensor<i1>",
            f"    %same = xla.compare EQ, %av, %xv : ({s}, {s}) -> tensor<i1>",
            f"    %first = xla.compare LT, %ai, %xi : ({si}, {si}) -> tensor<i1>",
            "    %tie = xla.and %same, %first : tensor<i1>",
            "    %keep = xla.or %better, %tie : tensor<i1>",
            f"    %v = xla.select %keep, %av, %xv : (tensor<i1>, {s}, {s}) -> {s}",
            f"    %i = xla.select %keep, %ai, %xi : (tensor<i1>, {si}, {si}) -> {si}",
            f"    xla.return %v, %i : {s}, {si}",
            f"  }}) {{dimensions = array<i64: {c.dim}>}} : ({a}, {ai}, {s}, {si}) -> ({r}, {ri})",
        ]
        REDUCTION.add(c.name, [a, s, si], ops, [("%r#0", r), ("%r#1", ri)])
    return cases


ARG_CASES = _arg_cases()


def _bf16_reducers() -> None:
    """bf16 reductions whose per-step bf16 rounding would stall at 256."""
    v, s = ttype("bf16", (1000,)), ttype("bf16", ())
    REDUCTION.add(
        "reduce_bf16_sum_1000",
        [v],
        [
            f"%z = xla.constant dense<0.0> : {s}",
            f"%r = xla.reduce(%a0 init: %z) applies xla.add across dimensions = [0] : ({v}, {s}) -> {s}",
        ],
        [("%r", s)],
    )
    ops = [
        f"%z = xla.constant dense<0.0> : {s}",
        '%r = "xla.reduce"(%a0, %z) ({',
        f"  ^bb0(%acc: {s}, %x: {s}):",
        f"    %half = xla.constant dense<0.5> : {s}",
        f"    %h = xla.multiply %x, %half : {s}",
        f"    %n = xla.add %acc, %h : {s}",
        f"    xla.return %n : {s}",
        f"  }}) {{dimensions = array<i64: 0>}} : ({v}, {s}) -> {s}",
    ]
    REDUCTION.add("reduce_bf16_region_constant", [v], ops, [("%r", s)])
    # A reducer reading bf16 bits cannot be widened: it rounds at each step. (It clears
    # the sign bit, which the positive sums here do not have: a bitcast round trip
    # alone would be simplified away.)
    i16 = ttype("i16", ())
    ops = [
        f"%z = xla.constant dense<0.0> : {s}",
        '%r = "xla.reduce"(%a0, %z) ({',
        f"  ^bb0(%acc: {s}, %x: {s}):",
        f"    %mask = xla.constant dense<32767> : {i16}",
        f"    %n = xla.add %acc, %x : {s}",
        f"    %raw = xla.bitcast_convert %n : ({s}) -> {i16}",
        f"    %bits = xla.and %raw, %mask : {i16}",
        f"    %back = xla.bitcast_convert %bits : ({i16}) -> {s}",
        f"    xla.return %back : {s}",
        f"  }}) {{dimensions = array<i64: 0>}} : ({v}, {s}) -> {s}",
    ]
    REDUCTION.add("reduce_bf16_region_bits", [v], ops, [("%r", s)])


_bf16_reducers()


@dataclass(frozen=True)
class MapCase:
    name: str
    t: str
    out_t: str
    shape: tuple[int, ...]
    body: str


def _map_cases() -> list[MapCase]:
    cases = [
        MapCase("map_f32_rank2", "f32", "f32", (3, 4), "float"),
        MapCase("map_f64_rank0", "f64", "f64", (), "float"),
        MapCase("map_i32_rank3", "i32", "i32", (2, 1, 3), "int"),
        MapCase("map_ui8_rank1", "ui8", "ui8", (9,), "int"),
        MapCase("map_bf16_rank1", "bf16", "bf16", (5,), "float"),
        MapCase("map_f32_to_i1", "f32", "i1", (2, 3), "pred"),
        MapCase("map_f32_to_i16", "f32", "i16", (7,), "convert"),
    ]
    for c in cases:
        a, r = ttype(c.t, c.shape), ttype(c.out_t, c.shape)
        s, so = ttype(c.t, ()), ttype(c.out_t, ())
        if c.body == "float":  # sqrt(|x|) + 2 * y
            region = [
                f"%m = xla.abs %x : {s}",
                f"%q = xla.sqrt %m : {s}",
                f"%two = xla.constant dense<2.0> : {s}",
                f"%t = xla.multiply %two, %y : {s}",
                f"%o = xla.add %q, %t : {s}",
            ]
        elif c.body == "int":  # max(x * y + 3, x)
            region = [
                f"%p = xla.multiply %x, %y : {s}",
                f"%three = xla.constant dense<3> : {s}",
                f"%q = xla.add %p, %three : {s}",
                f"%o = xla.maximum %q, %x : {s}",
            ]
        elif c.body == "pred":  # x < y or x is not finite
            region = [
                f"%lt = xla.compare LT, %x, %y : ({s}, {s}) -> {so}",
                f"%fin = xla.is_finite %x : ({s}) -> {so}",
                f"%inf = xla.not %fin : {so}",
                f"%o = xla.or %lt, %inf : {so}",
            ]
        else:  # convert(x - y)
            region = [f"%d = xla.subtract %x, %y : {s}", f"%o = xla.convert %d : ({s}) -> {so}"]
        dims = ", ".join(str(d) for d in range(len(c.shape)))
        ops = [
            f'%r = "xla.map"(%a0, %a1) <{{dimensions = array<i64{": " + dims if dims else ""}>}}> ({{',
            f"  ^bb0(%x: {s}, %y: {s}):",
            *[f"    {line}" for line in region],
            f"    xla.return %o : {so}",
            f"  }}) : ({a}, {a}) -> {r}",
        ]
        REDUCTION.add(c.name, [a, a], ops, [("%r", r)])
    return cases


MAP_CASES = _map_cases()


def ref_map(c: MapCase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if c.body == "float":
        if c.t == "bf16":  # each op rounds to bf16
            q = np.sqrt(np.abs(x).astype(np.float32)).astype(x.dtype)
            t = (np.float32(2) * y.astype(np.float32)).astype(x.dtype)
            return (q.astype(np.float32) + t.astype(np.float32)).astype(x.dtype)
        with np.errstate(invalid="ignore"):
            return (np.sqrt(np.abs(x)) + 2 * y).astype(x.dtype)
    if c.body == "int":
        p = ref_binary("add", ref_binary("multiply", x, y, c.t), np.full(x.shape, 3, x.dtype), c.t)
        return ref_binary("maximum", p, x, c.t)
    if c.body == "pred":
        return np.asarray((x < y) | ~np.isfinite(x))
    with np.errstate(over="ignore"):
        return ref_convert((x - y).astype(np.float32), "f32", c.out_t)


@pytest.fixture(scope="module")
def reduction_kernels() -> Kernels:
    return Kernels(REDUCTION)


@pytest.mark.parametrize("case", REDUCE_CASES, ids=ids(REDUCE_CASES))
def test_reduce(reduction_kernels: Kernels, case: ReduceCase) -> None:
    small = case.reducer in ("add", "multiply") and case.t in FLOATS
    x = sample(
        case.t,
        case.shape,
        case.name,
        special=case.reducer in ("maximum", "minimum", "and", "or") or case.t in INTS,
        small=small,
    )
    if case.reducer == "multiply" and case.t in FLOATS:
        x = array(np.clip(x.astype(np.float64), -2, 2), case.t)
    init = array(INITS[case.reducer](case.t), case.t).reshape(())
    expected = ref_reduce(case, x, init)
    actual = reduction_kernels[case.name](x, init)
    assert_same(actual, expected, case.name)
    if case.reducer == "add" and case.t in INTS and x.size > 1:
        # A non-neutral init is added once per output element.
        seven = array(7, case.t).reshape(())
        assert_same(
            reduction_kernels[case.name](x, seven),
            ref_reduce(case, x, seven),
            f"{case.name} init=7",
        )


@pytest.mark.parametrize("case", ARG_CASES, ids=ids(ARG_CASES))
def test_reduce_argmax_argmin(reduction_kernels: Kernels, case: ArgCase) -> None:
    x = sample(case.t, case.shape, case.name, special=False, small=True)  # small values: ties
    if case.direction == "GT":
        init = -math.inf if case.t in FLOATS else int_range(case.t)[0]
        expected_i = np.argmax(x.astype(np.float64), axis=case.dim)
    else:
        init = math.inf if case.t in FLOATS else int_range(case.t)[1]
        expected_i = np.argmin(x.astype(np.float64), axis=case.dim)
    values, indices = reduction_kernels[case.name](
        x, scalar(init, case.t), scalar(2**31 - 1, "i32")
    )
    assert_same(indices, expected_i.astype(np.int32), f"{case.name} indices")
    expected_v = np.take_along_axis(x, np.expand_dims(expected_i, case.dim), case.dim).squeeze(
        case.dim
    )
    assert_same(values, np.array(expected_v), f"{case.name} values")


def test_reduce_bf16_accumulates_in_f32(reduction_kernels: Kernels) -> None:
    ones = array(np.ones(1000), "bf16")
    assert_same(reduction_kernels["reduce_bf16_sum_1000"](ones), scalar(1000.0, "bf16"))
    assert_same(reduction_kernels["reduce_bf16_region_constant"](ones), scalar(500.0, "bf16"))
    assert_same(reduction_kernels["reduce_bf16_region_bits"](ones), scalar(256.0, "bf16"))


@pytest.mark.parametrize("case", MAP_CASES, ids=ids(MAP_CASES))
def test_map(reduction_kernels: Kernels, case: MapCase) -> None:
    x = sample(case.t, case.shape, case.name, "x", special=case.body == "pred")
    y = sample(case.t, case.shape, case.name, "y", special=False)
    assert_same(reduction_kernels[case.name](x, y), ref_map(case, x, y), case.name)


# ===========================================================================
