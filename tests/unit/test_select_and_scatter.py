"""`xla.select_and_scatter` compiled through `lower-to-llvm` against a loop reference.

The reference is XLA's evaluator written out: for each source element in
row-major order, walk its window in order over the in-bounds operand elements
(padding is never selected), keep the current selection unless
`select(current, candidate)` is false, then `output[selected] =
scatter(output[selected], source)`; a window entirely in the padding scatters
nothing. Operands hold small integers with many ties, so GE (first maximum) and
GT (last maximum) select differently and sums are exact. Every case is one
function of a single module compiled once.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.float32),
    "i32": np.dtype(np.int32),
    "bf16": np.dtype(ml_dtypes.bfloat16),
}
SELECTS: dict[str, Callable[[object, object], bool]] = {
    "GE": operator.ge,
    "GT": operator.gt,
    "LE": operator.le,
    "LT": operator.lt,
}
SCATTERS: dict[str, tuple[str, Callable[[object, object], object]]] = {
    "add": ("xla.add", operator.add),
    "max": ("xla.maximum", max),
    "mul": ("xla.multiply", operator.mul),
    "sub": ("xla.subtract", operator.sub),
}


@dataclass
class Case:
    name: str
    shape: tuple[int, ...]
    window: tuple[int, ...]
    strides: tuple[int, ...] | None = None
    padding: tuple[tuple[int, int], ...] | None = None
    select: str = "GE"
    scatter: str = "add"
    type: str = "f32"
    init: int = 0
    nan: bool = False  # put NaNs into the operand

    def params(self) -> tuple[list[int], list[tuple[int, int]]]:
        rank = len(self.shape)
        return list(self.strides or [1] * rank), list(self.padding or [(0, 0)] * rank)

    def source_shape(self) -> tuple[int, ...]:
        strides, padding = self.params()
        out = []
        for n, w, s, (lo, hi) in zip(self.shape, self.window, strides, padding):
            padded = n + lo + hi
            out.append(0 if padded < w else (padded - w) // s + 1)
        return tuple(out)


CASES = [
    Case("maxpool_2x2", (4, 6), (2, 2), strides=(2, 2)),
    Case("overlap_first_max_i32", (6, 7), (3, 3), type="i32"),
    Case("overlap_last_max_i32", (6, 7), (3, 3), select="GT", type="i32"),
    Case("strided_overlap", (7, 8), (3, 2), strides=(2, 1)),
    Case("padded_same", (5, 6), (3, 3), strides=(2, 2), padding=((1, 1), (1, 1))),
    Case("spec_1d", (7,), (3,), strides=(2,), padding=((1, 1),)),
    Case("lit_example_i32", (4, 2), (3, 1), strides=(2, 1), padding=((0, 1), (0, 0)), type="i32"),
    Case("nhwc", (2, 6, 6, 3), (1, 3, 3, 1), strides=(1, 2, 2, 1), padding=((0, 0), (1, 1), (1, 1), (0, 0))),
    Case("nhwc_valid_2x2", (2, 4, 6, 2), (1, 2, 2, 1), strides=(1, 2, 2, 1), select="GT", type="i32"),
    Case("minpool_max_scatter", (6, 6), (2, 3), strides=(1, 2), select="LE", scatter="max", init=-100),
    Case("minpool_last_min", (6, 6), (3, 2), select="LT", type="i32"),
    Case("mul_scatter_i32", (5, 5), (2, 2), type="i32", scatter="mul", init=1),
    Case("sub_scatter", (6,), (3,), scatter="sub", init=10),
    Case("stride_beyond_window", (9, 7), (2, 1), strides=(3, 2)),
    Case("window_all_padding", (3,), (2,), padding=((2, 2),), type="i32"),
    Case("padding_above_operand", (4, 5), (2, 3), padding=((1, 1), (2, 1)), type="i32", init=50),
    Case("negative_padding", (7, 6), (2, 2), padding=((-1, 1), (0, -1)), type="i32"),
    Case("window_covers_all", (3, 4), (3, 4)),
    Case("single_window_large", (3,), (3,), type="i32"),
    Case("bf16_add", (8,), (3,), type="bf16"),
    Case("nan_operand", (6, 5), (2, 2), nan=True),
]


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def _attrs(case: Case) -> str:
    strides, padding = case.params()
    parts = [f"window_dimensions = array<i64: {', '.join(map(str, case.window))}>"]
    if case.strides:
        parts.append(f"window_strides = array<i64: {', '.join(map(str, strides))}>")
    if case.padding:
        pairs = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
        parts.append(f"padding = dense<[{pairs}]> : tensor<{len(padding)}x2xi64>")
    return ", ".join(parts)


def function(case: Case) -> str:
    xt, st, s = _tensor(case.shape, case.type), _tensor(case.source_shape(), case.type), f"tensor<{case.type}>"
    scatter_op = SCATTERS[case.scatter][0]
    init = f"{case.init}.0" if case.type != "i32" else str(case.init)
    return f"""func.func @{case.name}(%x: {xt}, %src: {st}) -> {xt} {{
  %init = xla.constant dense<{init}> : {s}
  %r = "xla.select_and_scatter"(%x, %src, %init) <{{{_attrs(case)}}}> ({{
  ^bb0(%a: {s}, %b: {s}):
    %p = xla.compare {case.select}, %a, %b : ({s}, {s}) -> tensor<i1>
    xla.return %p : tensor<i1>
  }}, {{
  ^bb0(%c: {s}, %d: {s}):
    %e = {scatter_op} %c, %d : {s}
    xla.return %e : {s}
  }}) : ({xt}, {st}, {s}) -> {xt}
  func.return %r : {xt}
}}"""


BIG = Case("big_nhwc", (2, 17, 15, 4), (1, 3, 3, 1), strides=(1, 2, 2, 1), padding=((0, 0), (1, 1), (1, 1), (0, 0)))

MODULE = "\n\n".join(function(c) for c in [*CASES, BIG])


def reference(case: Case, operand: np.ndarray, source: np.ndarray) -> np.ndarray:
    """XLA's SelectAndScatter by loops (see the module docstring)."""
    strides, padding = case.params()
    select = SELECTS[case.select]
    scatter = SCATTERS[case.scatter][1]
    dtype = operand.dtype
    out = np.full(case.shape, case.init, dtype=dtype)
    for s in itertools.product(*(range(n) for n in case.source_shape())):
        selected: tuple[int, ...] | None = None
        for w in itertools.product(*(range(n) for n in case.window)):
            p = tuple(s[d] * strides[d] + w[d] - padding[d][0] for d in range(len(case.shape)))
            if any(q < 0 or q >= n for q, n in zip(p, case.shape)):
                continue
            if selected is None or not select(operand[selected], operand[p]):
                selected = p
        if selected is not None:
            out[selected] = dtype.type(scatter(out[selected], source[s]))
    return out


def make_inputs(case: Case, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    t = DTYPES[case.type]
    operand = rng.integers(-3, 4, case.shape).astype(t)
    if case.nan:
        operand.reshape(-1)[rng.choice(operand.size, operand.size // 4, replace=False)] = np.nan
    low, high = (1, 3) if case.scatter == "mul" else (-5, 6)
    source = rng.integers(low, high, case.source_shape()).astype(t)
    return operand, source


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, CASES[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_select_and_scatter(module: str, case: Case) -> None:
    operand, source = make_inputs(case, np.random.default_rng(len(case.name)))
    f = compile(module, case.name)
    result = f(operand, source)
    expected = reference(case, operand, source)
    assert result.shape == expected.shape and result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)


def test_first_and_last_maximum_differ(module: str) -> None:
    """GE keeps the first maximum of a window, GT moves to the last one."""
    ge = next(c for c in CASES if c.name == "overlap_first_max_i32")
    gt = next(c for c in CASES if c.name == "overlap_last_max_i32")
    operand = np.zeros(ge.shape, dtype=np.int32)
    source = np.ones(ge.source_shape(), dtype=np.int32)
    first = compile(module, ge.name)(operand, source)
    last = compile(module, gt.name)(operand, source)
    # All ties: each window selects its first (GE) or last (GT) element.
    assert first[0, 0] == 1 and first[-1, -1] == 0
    assert last[-1, -1] == 1 and last[0, 0] == 0
    np.testing.assert_array_equal(first, reference(ge, operand, source))
    np.testing.assert_array_equal(last, reference(gt, operand, source))


def test_large_max_pool_gradient(module: str) -> None:
    """A bigger NHWC max-pool gradient (3x3 windows, stride 2, SAME padding) with
    random floats: every window has a unique maximum, which gets the gradient."""
    f = compile(module, BIG.name)
    rng = np.random.default_rng(7)
    operand = rng.standard_normal(BIG.shape).astype(np.float32)
    source = rng.standard_normal(BIG.source_shape()).astype(np.float32)
    expected = reference(BIG, operand, source)
    np.testing.assert_allclose(f(operand, source), expected, rtol=1e-6, atol=1e-6)

