"""Slicing: `slice`, `dynamic_slice`, `dynamic_update_slice`, `concatenate`, `pad`, `reverse`, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from compile_ops_support import (
    ALL,
    Kernels,
    Module,
    array,
    assert_same,
    fmt_ints,
    ids,
    int_range,
    sample,
    scalar,
    ttype,
)

# ===========================================================================
# Slicing: slice, dynamic_slice, dynamic_update_slice, concatenate, pad, reverse
# ===========================================================================

SLICING = Module()


@dataclass(frozen=True)
class SliceCase:
    name: str
    t: str
    shape: tuple[int, ...]
    starts: tuple[int, ...]
    limits: tuple[int, ...]
    strides: tuple[int, ...]


SLICE_CONFIGS = [
    ((10,), (1,), (9,), (3,)),
    ((3, 6), (0, 2), (3, 6), (2, 3)),
    ((2, 3, 4), (0, 1, 0), (2, 3, 4), (1, 1, 2)),
    ((5,), (3,), (3,), (1,)),
    ((), (), (), ()),
    ((4, 1, 5), (1, 0, 4), (4, 1, 5), (2, 1, 1)),
    ((7, 3), (6, 0), (7, 3), (5, 2)),
]


def _slice_cases() -> list[SliceCase]:
    cases: list[SliceCase] = []
    chosen = [(t, i) for i in range(len(SLICE_CONFIGS)) for t in ("f32",)]
    chosen += [(t, j % len(SLICE_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, starts, limits, strides = SLICE_CONFIGS[i]
        c = SliceCase(f"slice_{t}_{i}", t, shape, starts, limits, strides)
        cases.append(c)
        out = tuple(-(-(hi - lo) // s) for lo, hi, s in zip(starts, limits, strides))
        spec = ", ".join(f"{lo}:{hi}:{s}" for lo, hi, s in zip(starts, limits, strides))
        a, r = ttype(t, shape), ttype(t, out)
        SLICING.add(c.name, [a], [f"%r = xla.slice %a0 [{spec}] : ({a}) -> {r}"], [("%r", r)])
    return cases


SLICE_CASES = _slice_cases()


@dataclass(frozen=True)
class DynamicSliceCase:
    name: str
    t: str
    index_type: str
    shape: tuple[int, ...]
    sizes: tuple[int, ...]
    update: bool


DYNAMIC_CONFIGS = [
    ((5, 6), (2, 3)),
    ((4, 3, 2), (2, 1, 2)),
    ((), ()),
    ((5,), (5,)),
    ((7,), (3,)),
    ((3, 1), (1, 1)),
]
INDEX_TYPES = ["i32", "i64", "ui32", "ui64", "i8", "ui8", "i16", "ui16"]


def _dynamic_slice_cases() -> list[DynamicSliceCase]:
    cases: list[DynamicSliceCase] = []
    for update in (False, True):
        kind = "dus" if update else "ds"
        chosen = [("f32", "i32", i) for i in range(len(DYNAMIC_CONFIGS))]
        chosen += [
            ("i64", it, j % len(DYNAMIC_CONFIGS)) for j, it in enumerate(INDEX_TYPES) if it != "i32"
        ]
        chosen += [
            (t, INDEX_TYPES[j % len(INDEX_TYPES)], j % len(DYNAMIC_CONFIGS))
            for j, t in enumerate(ALL)
            if t not in ("f32", "i64")
        ]
        for t, it, i in chosen:
            shape, sizes = DYNAMIC_CONFIGS[i]
            if not shape and i != 2:
                continue
            c = DynamicSliceCase(f"{kind}_{t}_{it}_{i}", t, it, shape, sizes, update)
            cases.append(c)
            a, u, s = ttype(t, shape), ttype(t, sizes), ttype(it, ())
            starts = "".join(f", %a{k + (2 if update else 1)}" for k in range(len(shape)))
            index_types = "".join(f", {s}" for _ in shape)
            if update:
                op = f"%r = xla.dynamic_update_slice %a0, %a1{starts} : ({a}, {u}{index_types}) -> {a}"
                params = [a, u] + [s] * len(shape)
                SLICING.add(c.name, params, [op], [("%r", a)])
            else:
                op = f"%r = xla.dynamic_slice %a0{starts}, sizes = {fmt_ints(sizes)} : ({a}{index_types}) -> {u}"
                SLICING.add(c.name, [a] + [s] * len(shape), [op], [("%r", u)])
    return cases


DYNAMIC_SLICE_CASES = _dynamic_slice_cases()


def start_choices(c: DynamicSliceCase) -> list[tuple[int, ...]]:
    """Start indices in range, negative, past the end, and the extremes of the
    index type (unsigned ones read as huge positive values)."""
    lo, hi = int_range(c.index_type)
    rank = len(c.shape)
    choices = [
        tuple(1 for _ in range(rank)),
        tuple(0 for _ in range(rank)),
        tuple(d - s for d, s in zip(c.shape, c.sizes)),
        tuple(100 if k % 2 == 0 else 1 for k in range(rank)),
        tuple(hi for _ in range(rank)),
        tuple(lo if k % 2 == 0 else hi for k in range(rank)),
    ]
    if lo < 0:
        choices += [tuple(-1 for _ in range(rank)), tuple(-3 if k % 2 else 2 for k in range(rank))]
    else:
        choices += [tuple(hi - 1 for _ in range(rank))]
    return [tuple(min(max(v, lo), hi) for v in s) for s in choices]


def clamp_starts(starts: Sequence[int], shape: Sequence[int], sizes: Sequence[int]) -> list[int]:
    return [min(max(s, 0), d - n) for s, d, n in zip(starts, shape, sizes)]


@dataclass(frozen=True)
class ConcatCase:
    name: str
    t: str
    shapes: tuple[tuple[int, ...], ...]
    dim: int


def _concat_cases() -> list[ConcatCase]:
    cases: list[ConcatCase] = []
    base = (2, 3, 4)
    parts = [1, 2, 3]
    for dim in range(3):
        shapes = tuple(tuple(p if d == dim else base[d] for d in range(3)) for p in parts)
        for t in ("f32", "i8"):
            cases.append(ConcatCase(f"concat_{t}_d{dim}", t, shapes, dim))
    others = [t for t in ALL if t not in ("f32", "i8")]
    for j, t in enumerate(others):
        if j % 3 == 0:
            cases.append(ConcatCase(f"concat_{t}_1d", t, ((2,), (1,), (3,), (2,)), 0))
        elif j % 3 == 1:
            cases.append(ConcatCase(f"concat_{t}_d1", t, ((2, 1), (2, 3), (2, 2)), 1))
        else:
            cases.append(ConcatCase(f"concat_{t}_empty_part", t, ((3, 2), (0, 2), (1, 2)), 0))
    for c in cases:
        types = [ttype(c.t, s) for s in c.shapes]
        out = list(c.shapes[0])
        out[c.dim] = sum(s[c.dim] for s in c.shapes)
        r = ttype(c.t, out)
        operands = ", ".join(f"%a{i}" for i in range(len(types)))
        SLICING.add(
            c.name,
            types,
            [f"%r = xla.concatenate {operands}, dim = {c.dim} : ({', '.join(types)}) -> {r}"],
            [("%r", r)],
        )
    return cases


CONCAT_CASES = _concat_cases()


@dataclass(frozen=True)
class PadCase:
    name: str
    t: str
    shape: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    interior: tuple[int, ...]

    @property
    def out(self) -> tuple[int, ...]:
        return tuple(
            lo + hi + n + max(n - 1, 0) * i
            for n, lo, hi, i in zip(self.shape, self.low, self.high, self.interior)
        )


PAD_CONFIGS = [
    ((5, 4), (1, -1), (1, -1), (0, 1)),
    ((3,), (0,), (1,), (2,)),
    ((2,), (-1,), (-1,), (0,)),
    ((3, 2), (-2, 2), (3, -3), (0, 1)),
    ((4,), (-3,), (-1,), (2,)),
    ((2, 3, 4), (1, 0, -1), (0, 2, -2), (1, 0, 2)),
    ((), (), (), ()),
    ((2, 3), (0, -2), (0, -1), (0, 0)),
    ((3,), (-5,), (4,), (0,)),
    ((1, 3), (2, 0), (1, 0), (5, 0)),
    ((3,), (-4,), (0,), (1,)),
]


def _pad_cases() -> list[PadCase]:
    cases: list[PadCase] = []
    chosen = [("f32", i) for i in range(len(PAD_CONFIGS))]
    chosen += [(t, j % len(PAD_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, low, high, interior = PAD_CONFIGS[i]
        c = PadCase(f"pad_{t}_{i}", t, shape, low, high, interior)
        cases.append(c)
        a, v, r = ttype(t, shape), ttype(t, ()), ttype(t, c.out)
        op = f"%r = xla.pad %a0, %a1, low = {fmt_ints(low)}, high = {fmt_ints(high)}, interior = {fmt_ints(interior)} : ({a}, {v}) -> {r}"
        SLICING.add(c.name, [a, v], [op], [("%r", r)])
    return cases


PAD_CASES = _pad_cases()


def ref_pad(x: np.ndarray, value: np.ndarray, c: PadCase) -> np.ndarray:
    out = np.full(c.out, value, dtype=x.dtype)
    for index in np.ndindex(*x.shape):
        target = tuple(lo + k * (i + 1) for k, lo, i in zip(index, c.low, c.interior))
        if all(0 <= p < n for p, n in zip(target, c.out)):
            out[target] = x[index]
    return out


@dataclass(frozen=True)
class ReverseCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]


REVERSE_CONFIGS = [
    ((2, 3, 4), (0,)),
    ((2, 3, 4), (1, 2)),
    ((2, 3, 4), (0, 1, 2)),
    ((2, 3, 4), ()),
    ((5,), (0,)),
    ((), ()),
    ((3, 1, 2), (2, 1)),
]


def _reverse_cases() -> list[ReverseCase]:
    cases: list[ReverseCase] = []
    chosen = [("f32", i) for i in range(len(REVERSE_CONFIGS))]
    chosen += [(t, j % len(REVERSE_CONFIGS)) for j, t in enumerate(ALL) if t != "f32"]
    for t, i in chosen:
        shape, dims = REVERSE_CONFIGS[i]
        c = ReverseCase(f"reverse_{t}_{i}", t, shape, dims)
        cases.append(c)
        a = ttype(t, shape)
        SLICING.add(
            c.name, [a], [f"%r = xla.reverse %a0, dims = {fmt_ints(dims)} : {a}"], [("%r", a)]
        )
    return cases


REVERSE_CASES = _reverse_cases()


@pytest.fixture(scope="module")
def slicing() -> Kernels:
    return Kernels(SLICING)


@pytest.mark.parametrize("case", SLICE_CASES, ids=ids(SLICE_CASES))
def test_slice(slicing: Kernels, case: SliceCase) -> None:
    x = sample(case.t, case.shape, case.name)
    index = tuple(slice(lo, hi, s) for lo, hi, s in zip(case.starts, case.limits, case.strides))
    assert_same(slicing[case.name](x), np.array(x[index]), case.name)


@pytest.mark.parametrize("case", DYNAMIC_SLICE_CASES, ids=ids(DYNAMIC_SLICE_CASES))
def test_dynamic_slice(slicing: Kernels, case: DynamicSliceCase) -> None:
    f = slicing[case.name]
    x = sample(case.t, case.shape, case.name, "x")
    update = sample(case.t, case.sizes, case.name, "u")
    for starts in start_choices(case):
        args = [scalar(s, case.index_type) for s in starts]
        begin = clamp_starts(starts, case.shape, case.sizes)
        index = tuple(slice(b, b + n) for b, n in zip(begin, case.sizes))
        if case.update:
            expected = x.copy()
            expected[index] = update
            assert_same(f(x, update, *args), expected, f"{case.name} starts={starts}")
        else:
            assert_same(f(x, *args), np.array(x[index]), f"{case.name} starts={starts}")


@pytest.mark.parametrize("case", CONCAT_CASES, ids=ids(CONCAT_CASES))
def test_concatenate(slicing: Kernels, case: ConcatCase) -> None:
    parts = [sample(case.t, s, case.name, i) for i, s in enumerate(case.shapes)]
    assert_same(slicing[case.name](*parts), np.concatenate(parts, axis=case.dim), case.name)


@pytest.mark.parametrize("case", PAD_CASES, ids=ids(PAD_CASES))
def test_pad(slicing: Kernels, case: PadCase) -> None:
    x = sample(case.t, case.shape, case.name, special=False)
    value = array(1 if case.t == "i1" else 7, case.t).reshape(())
    if case.t == "i1":
        x = np.zeros(case.shape, np.bool_) | (np.arange(x.size).reshape(case.shape) % 3 == 0)
    assert_same(slicing[case.name](x, value), ref_pad(x, value, case), case.name)


@pytest.mark.parametrize("case", REVERSE_CASES, ids=ids(REVERSE_CASES))
def test_reverse(slicing: Kernels, case: ReverseCase) -> None:
    x = sample(case.t, case.shape, case.name)
    expected = np.flip(x, case.dims).copy() if case.dims else x.copy()
    assert_same(slicing[case.name](x), expected, case.name)


# ===========================================================================
