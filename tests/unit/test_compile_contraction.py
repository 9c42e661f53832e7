"""Contractions: `dot` and `dot_general`, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from compile_ops_support import (
    DTYPES,
    FLOATS,
    INTS,
    Kernels,
    Module,
    array,
    assert_same,
    fmt_ints,
    ids,
    int_range,
    sample,
    ttype,
)

# Contraction: dot, dot_general
# ===========================================================================

CONTRACTION = Module()


@dataclass(frozen=True)
class DotCase:
    """`dot_general` with the given dimension numbers (`dot` when `plain`)."""

    name: str
    lhs_t: str
    rhs_t: str
    out_t: str
    lhs: tuple[int, ...]
    rhs: tuple[int, ...]
    batch: tuple[tuple[int, ...], tuple[int, ...]]
    contracting: tuple[tuple[int, ...], tuple[int, ...]]
    plain: bool

    @property
    def out(self) -> tuple[int, ...]:
        lb, rb = self.batch
        lc, rc = self.contracting
        lf = [self.lhs[d] for d in range(len(self.lhs)) if d not in lb and d not in lc]
        rf = [self.rhs[d] for d in range(len(self.rhs)) if d not in rb and d not in rc]
        return (*[self.lhs[d] for d in lb], *lf, *rf)


def _dot_cases() -> list[DotCase]:
    cases: list[DotCase] = []
    forms = {
        "vv": ((5,), (5,)),
        "mv": ((3, 5), (5,)),
        "mm": ((3, 5), (5, 4)),
        "mm1": ((1, 3), (3, 1)),
    }
    for t in ["f32", "f64", "i32", "bf16", "i1", "f16", "ui32", "i64", "i8", "ui8"]:
        chosen = forms if t in ("f32", "f64", "i32", "bf16") else {"mm": forms["mm"]}
        for form, (lhs, rhs) in chosen.items():
            c = (len(lhs) - 1,), (0,)
            cases.append(DotCase(f"dot_{t}_{form}", t, t, t, lhs, rhs, ((), ()), c, True))
    # Mixed element types: the result type is the accumulation type.
    cases += [
        DotCase("dot_i8_i32_mm", "i8", "i8", "i32", (3, 4), (4, 2), ((), ()), ((1,), (0,)), True),
        DotCase(
            "dot_general_i8_i32", "i8", "i8", "i32", (4, 3), (4, 2), ((), ()), ((0,), (0,)), False
        ),
        DotCase(
            "dot_general_ui8_ui32",
            "ui8",
            "ui8",
            "ui32",
            (2, 6),
            (6, 3),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_bf16_f32",
            "bf16",
            "bf16",
            "f32",
            (3, 40),
            (40, 2),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_f16_f32",
            "f16",
            "f16",
            "f32",
            (2, 30),
            (30,),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_general_f32_f64",
            "f32",
            "f32",
            "f64",
            (2, 3),
            (3, 2),
            ((), ()),
            ((1,), (0,)),
            False,
        ),
        DotCase(
            "dot_bf16_long",
            "bf16",
            "bf16",
            "bf16",
            (1, 200),
            (200, 1),
            ((), ()),
            ((1,), (0,)),
            True,
        ),
    ]
    # dot_general: batch dimensions anywhere, several contracting dimensions, not last.
    general = [
        ("batch_front", (2, 3, 4), (2, 4, 5), ((0,), (0,)), ((2,), (1,))),
        ("batch_middle", (3, 2, 4), (4, 2, 5), ((1,), (1,)), ((2,), (0,))),
        ("batch_last", (3, 4, 2), (5, 2, 4), ((2,), (1,)), ((1,), (2,))),
        ("batch_two", (2, 3, 4, 5), (3, 2, 5, 6), ((1, 0), (0, 1)), ((3,), (2,))),
        ("contract_two", (2, 3, 4), (4, 3, 5), ((), ()), ((1, 2), (1, 0))),
        ("contract_first", (4, 3), (4, 5), ((), ()), ((0,), (0,))),
        ("contract_all", (2, 3), (2, 3), ((), ()), ((0, 1), (0, 1))),
        ("outer", (2,), (3,), ((), ()), ((), ())),
        ("batch_only", (2, 3), (2, 4), ((0,), (0,)), ((), ())),
        ("size_one", (1, 3, 1), (1, 1, 2), ((0,), (0,)), ((2,), (1,))),
    ]
    for label, lhs, rhs, batch, contracting in general:
        for t in (
            ("f32", "i32")
            if label in ("batch_middle", "contract_two")
            else ("f64",)
            if label == "batch_two"
            else ("f32",)
        ):
            cases.append(
                DotCase(f"dot_general_{label}_{t}", t, t, t, lhs, rhs, batch, contracting, False)
            )
    for c in cases:
        a, b, r = ttype(c.lhs_t, c.lhs), ttype(c.rhs_t, c.rhs), ttype(c.out_t, c.out)
        if c.plain:
            op = f"%r = xla.dot %a0, %a1 : ({a}, {b}) -> {r}"
        else:
            batch = (
                f"batching_dims = {fmt_ints(c.batch[0])} x {fmt_ints(c.batch[1])}, "
                if c.batch[0]
                else ""
            )
            op = f"%r = xla.dot_general %a0, %a1, {batch}contracting_dims = {fmt_ints(c.contracting[0])} x {fmt_ints(c.contracting[1])} : ({a}, {b}) -> {r}"
        CONTRACTION.add(c.name, [a, b], [op], [("%r", r)])
    return cases


DOT_CASES = _dot_cases()


def ref_dot(c: DotCase, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """einsum in float64 (exact for the small integers used) or object ints
    (wrapping to the result type)."""
    letters = iter("abcdefghijklmnop")
    ls = [""] * len(c.lhs)
    rs = [""] * len(c.rhs)
    for lb, rb in zip(*c.batch):
        ls[lb] = rs[rb] = next(letters)
    for lc, rc in zip(*c.contracting):
        ls[lc] = rs[rc] = next(letters)
    for i in range(len(ls)):
        ls[i] = ls[i] or next(letters)
    for i in range(len(rs)):
        rs[i] = rs[i] or next(letters)
    out = [ls[d] for d in c.batch[0]]
    out += [ls[d] for d in range(len(ls)) if d not in c.batch[0] and d not in c.contracting[0]]
    out += [rs[d] for d in range(len(rs)) if d not in c.batch[1] and d not in c.contracting[1]]
    spec = f"{''.join(ls)},{''.join(rs)}->{''.join(out)}"
    if c.out_t == "i1":
        return np.einsum(spec, x.astype(np.int64), y.astype(np.int64)) > 0
    if c.out_t in FLOATS:
        return np.asarray(np.einsum(spec, x.astype(np.float64), y.astype(np.float64))).astype(
            DTYPES[c.out_t]
        )
    result = np.einsum(spec, x.astype(object), y.astype(object))
    return array(np.asarray(result, dtype=object), c.out_t)


@pytest.fixture(scope="module")
def contraction() -> Kernels:
    return Kernels(CONTRACTION)


@pytest.mark.parametrize("case", DOT_CASES, ids=ids(DOT_CASES))
def test_dot(contraction: Kernels, case: DotCase) -> None:
    # Small integers keep float sums exact in any order (bf16 up to 256).
    widening = (
        case.lhs_t in INTS and case.out_t != case.lhs_t
    )  # full-range operands: their signedness shows
    x = sample(case.lhs_t, case.lhs, case.name, "x", special=False, small=not widening)
    y = sample(case.rhs_t, case.rhs, case.name, "y", special=False, small=not widening)
    if case.lhs_t in ("bf16", "f16") and case.out_t == case.lhs_t:
        x, y = (
            array(np.clip(x.astype(np.float64), -3, 3), case.lhs_t),
            array(np.clip(y.astype(np.float64), -3, 3), case.rhs_t),
        )
    if case.lhs_t in INTS and case.out_t == case.lhs_t and case.name.endswith("mm"):
        x.reshape(-1)[0] = array(int_range(case.lhs_t)[1], case.lhs_t)  # wraps in the result type
    assert_same(contraction[case.name](x, y), ref_dot(case, x, y), case.name)


def test_dot_bf16_accumulates_in_f32(contraction: Kernels) -> None:
    """bf16 products accumulate in f32: 40 x 1.0078125 is exact there, and a bf16
    result is rounded once (XLA's CPU backend computes bf16 dots in f32);
    rounding after each addition would give 201 for 200 terms instead of 202."""
    x = array(np.full((3, 40), 1.0078125), "bf16")
    y = array(np.ones((40, 2)), "bf16")
    assert_same(
        contraction["dot_general_bf16_f32"](x, y), np.full((3, 2), 40 * 1.0078125, np.float32)
    )
    a = array(np.full((1, 200), 1.0078125), "bf16")
    b = array(np.ones((200, 1)), "bf16")
    assert_same(contraction["dot_bf16_long"](a, b), array([[202.0]], "bf16"))


# ===========================================================================
