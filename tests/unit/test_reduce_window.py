"""`xla.reduce_window` compiled through `lower-to-llvm` against a loop reference.

The reference follows the spec (and StableHLO's definition) literally: the
operand is base-dilated and padded with the init value, and each output element
folds the reducer over its window, starting from the init value, in window
order. Every case is one function of a single module compiled once; inputs are
small integers (also in float types) so sums are exact whatever the order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.float32),
    "i32": np.dtype(np.int32),
    "bf16": np.dtype(ml_dtypes.bfloat16),
}

INITS: dict[tuple[str, str], tuple[str, float]] = {
    # (reducer, type) -> (MLIR literal, value)
    ("max", "f32"): ("0xFF800000", -np.inf),
    ("min", "f32"): ("0x7F800000", np.inf),
    ("sum", "f32"): ("0.0", 0.0),
    ("sum", "bf16"): ("0.0", 0.0),
    ("max", "i32"): ("-2147483648", -(2**31)),
    ("min", "i32"): ("2147483647", 2**31 - 1),
    ("sum", "i32"): ("0", 0),
}
XLA_OPS = {"max": "xla.maximum", "min": "xla.minimum", "sum": "xla.add"}
PY_OPS: dict[str, Callable[[float, float], float]] = {"max": max, "min": min, "sum": lambda a, b: a + b}


@dataclass
class Case:
    name: str
    shape: tuple[int, ...]
    window: tuple[int, ...]
    reducer: str = "max"
    type: str = "f32"
    strides: tuple[int, ...] | None = None
    base: tuple[int, ...] | None = None
    dilations: tuple[int, ...] | None = None
    padding: tuple[tuple[int, int], ...] | None = None
    variadic: bool = False  # argmax: (values, indices) inputs

    def params(self) -> tuple[list[int], list[int], list[int], list[tuple[int, int]]]:
        rank = len(self.shape)
        return (
            list(self.strides or [1] * rank),
            list(self.base or [1] * rank),
            list(self.dilations or [1] * rank),
            list(self.padding or [(0, 0)] * rank),
        )

    def out_shape(self) -> tuple[int, ...]:
        strides, base, dilations, padding = self.params()
        out = []
        for n, w, s, b, wd, (lo, hi) in zip(self.shape, self.window, strides, base, dilations, padding):
            padded = (0 if n == 0 else (n - 1) * b + 1) + lo + hi
            extent = (w - 1) * wd + 1
            out.append(0 if padded < extent else (padded - extent) // s + 1)
        return tuple(out)


CASES = [
    Case("max_pool_2x2", (4, 6), (2, 2), strides=(2, 2)),
    Case("max_pool_overlap_i32", (5, 5), (3, 3), type="i32", strides=(1, 2)),
    Case("sum_pool_i32", (4, 6), (2, 3), reducer="sum", type="i32", strides=(2, 3)),
    Case("min_pool_3d", (3, 4, 5), (2, 3, 2), reducer="min", strides=(1, 2, 1)),
    Case("min_pool_i32", (6, 5), (2, 2), reducer="min", type="i32", strides=(2, 1)),
    Case("sum_1d_padded", (5,), (3,), reducer="sum", type="i32", strides=(2,), padding=((1, 1),)),
    Case("sum_padded_2d", (4, 5), (3, 3), reducer="sum", strides=(1, 2), padding=((2, 1), (0, 3))),
    Case("max_negative_padding", (6, 7), (2, 2), type="i32", padding=((-1, 2), (1, -2))),
    Case("sum_negative_padding", (6, 7), (3, 2), reducer="sum", strides=(2, 1), padding=((-2, -1), (-3, 0))),
    Case("max_base_dilation", (3, 4), (2, 2), base=(2, 3), padding=((1, 0), (0, 1))),
    Case("sum_base_dilation_i32", (5,), (3,), reducer="sum", type="i32", base=(3,), strides=(2,)),
    Case("sum_window_dilation", (10,), (3,), reducer="sum", type="i32", dilations=(3,)),
    Case("max_window_dilation_2d", (7, 8), (2, 3), strides=(2, 1), dilations=(3, 2)),
    Case("nhwc_max_pool", (2, 7, 7, 3), (1, 3, 3, 1), strides=(1, 2, 2, 1), padding=((0, 0), (1, 1), (1, 1), (0, 0))),
    Case(
        "everything_3d",
        (4, 3, 5),
        (2, 2, 3),
        reducer="min",
        type="i32",
        strides=(2, 1, 3),
        base=(2, 1, 2),
        dilations=(1, 2, 2),
        padding=((1, -1), (2, 0), (-1, 3)),
    ),
    Case("subsample_1x1", (5, 6), (1, 1), reducer="sum", strides=(2, 3)),
    Case("window_covers_all", (3, 4), (3, 4), reducer="sum", type="i32"),
    Case("empty_output", (2, 3), (3, 1), reducer="sum", type="i32"),
    Case("empty_output_strided", (1, 4), (2, 2), reducer="sum", strides=(3, 1)),
    Case("argmax_2d", (6, 6), (3, 3), strides=(2, 2), padding=((1, 1), (1, 1)), variadic=True),
    Case("argmax_dilated", (3, 5), (2, 2), base=(2, 1), dilations=(1, 2), padding=((0, 1), (1, 0)), variadic=True),
    Case("bf16_sum", (8,), (4,), reducer="sum", type="bf16", strides=(4,)),
]


def _attrs(case: Case) -> str:
    strides, base, dilations, padding = case.params()
    parts = [f"window_dimensions = array<i64: {', '.join(map(str, case.window))}>"]
    if case.strides:
        parts.append(f"window_strides = array<i64: {', '.join(map(str, strides))}>")
    if case.base:
        parts.append(f"base_dilations = array<i64: {', '.join(map(str, base))}>")
    if case.dilations:
        parts.append(f"window_dilations = array<i64: {', '.join(map(str, dilations))}>")
    if case.padding:
        pairs = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
        parts.append(f"padding = dense<[{pairs}]> : tensor<{len(padding)}x2xi64>")
    return ", ".join(parts)


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def function(case: Case) -> str:
    """The MLIR function of a case: `@name(x) -> reduce_window(x)` (argmax: `(x, i)`)."""
    xt, rt = _tensor(case.shape, case.type), _tensor(case.out_shape(), case.type)
    s = f"tensor<{case.type}>"
    if case.variadic:
        it, ri = _tensor(case.shape, "i32"), _tensor(case.out_shape(), "i32")
        return f"""func.func @{case.name}(%x: {xt}, %i: {it}) -> ({rt}, {ri}) {{
  %ninf = xla.constant dense<0xFF800000> : {s}
  %zero = xla.constant dense<0> : tensor<i32>
  %r:2 = "xla.reduce_window"(%x, %i, %ninf, %zero) <{{{_attrs(case)}}}> ({{
  ^bb0(%av: {s}, %ai: tensor<i32>, %bv: {s}, %bi: tensor<i32>):
    %gt = xla.compare GT, %bv, %av : ({s}, {s}) -> tensor<i1>
    %v = xla.select %gt, %bv, %av : tensor<i1>, {s}
    %k = xla.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    xla.return %v, %k : {s}, tensor<i32>
  }}) : ({xt}, {it}, {s}, tensor<i32>) -> ({rt}, {ri})
  func.return %r#0, %r#1 : {rt}, {ri}
}}"""
    literal, _ = INITS[(case.reducer, case.type)]
    return f"""func.func @{case.name}(%x: {xt}) -> {rt} {{
  %init = xla.constant dense<{literal}> : {s}
  %r = "xla.reduce_window"(%x, %init) <{{{_attrs(case)}}}> ({{
  ^bb0(%a: {s}, %b: {s}):
    %c = {XLA_OPS[case.reducer]} %a, %b : {s}
    xla.return %c : {s}
  }}) : ({xt}, {s}) -> {rt}
  func.return %r : {rt}
}}"""


SPEC_EXAMPLE = """func.func @spec_min(%x: tensor<5xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  %inf = xla.constant dense<0x7F800000> : tensor<f32>
  %valid = "xla.reduce_window"(%x, %inf) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<2xf32>
  %same = "xla.reduce_window"(%x, %inf) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.minimum %a, %b : tensor<f32>
    xla.return %m : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %valid, %same : tensor<2xf32>, tensor<3xf32>
}"""

MODULE = "\n\n".join([SPEC_EXAMPLE, *(function(c) for c in CASES)])

# ---------------------------------------------------------------------------
# Reference
# ---------------------------------------------------------------------------


def reference(
    case: Case, inputs: Sequence[np.ndarray], inits: Sequence[object], reducer: Callable[..., tuple[object, ...]]
) -> list[np.ndarray]:
    """The spec's ReduceWindow by loops: a window position outside the operand, in
    the padding or in a base-dilation hole reads the init value."""
    strides, base, dilations, padding = case.params()
    out_shape = case.out_shape()
    results = [np.empty(out_shape, dtype=object) for _ in inputs]
    for o in itertools.product(*(range(n) for n in out_shape)):
        acc = tuple(inits)
        for w in itertools.product(*(range(n) for n in case.window)):
            index: list[int] | None = []
            for d in range(len(case.shape)):
                p = o[d] * strides[d] + w[d] * dilations[d] - padding[d][0]  # in the dilated operand
                if p < 0 or p % base[d] != 0 or p // base[d] >= case.shape[d]:
                    index = None
                    break
                index.append(p // base[d])
            elements = inits if index is None else tuple(x[tuple(index)] for x in inputs)
            acc = reducer(*acc, *elements)
        for r, a in zip(results, acc):
            r[o] = a
    return results


def argmax_reducer(av: float, ai: int, bv: float, bi: int) -> tuple[float, int]:
    return (bv, bi) if bv > av else (av, ai)


def run_reference(case: Case, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    if case.variadic:
        refs = reference(case, [inputs[0].astype(np.float64), inputs[1]], [-np.inf, 0], argmax_reducer)
        return [refs[0].astype(np.float32), refs[1].astype(np.int32)]
    fn = PY_OPS[case.reducer]
    # bf16 accumulates in f32 (XLA's CPU backend) and rounds once.
    wide = np.dtype(np.float32) if case.type == "bf16" else DTYPES[case.type]
    x = inputs[0].astype(wide)
    (ref,) = reference(case, [x], [INITS[(case.reducer, case.type)][1]], lambda a, b: (wide.type(fn(a, b)),))
    return [ref.astype(wide).astype(DTYPES[case.type])]


def make_inputs(case: Case, rng: np.random.Generator) -> list[np.ndarray]:
    if case.variadic:
        values = rng.integers(-20, 20, case.shape).astype(np.float32)
        return [values, np.arange(values.size, dtype=np.int32).reshape(case.shape)]
    if case.type == "bf16":
        # 256 + 1 + 1 + 1 is 259 in f32 (-> 260 in bf16) but 256 step by step in bf16.
        return [np.array([256, 1, 1, 1, 8, 1, 1, 1], dtype=ml_dtypes.bfloat16)]
    return [rng.integers(-50, 50, case.shape).astype(DTYPES[case.type])]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, CASES[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reduce_window(module: str, case: Case) -> None:
    f = compile(module, case.name)
    inputs = make_inputs(case, np.random.default_rng(len(case.name)))
    got = f(*inputs)
    got_list = list(got) if case.variadic else [got]
    for g, want in zip(got_list, run_reference(case, inputs)):
        g = np.asarray(g)
        assert g.shape == want.shape
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(g, want)


def test_spec_example(module: str) -> None:
    """The spec's min over [10000, 1000, 100, 10, 1], window 3, stride 2: kValid
    gives [100, 1]; kSame pads with the init value and gives [1000, 10, 1]."""
    f = compile(module, "spec_min")
    valid, same = f(np.array([10000, 1000, 100, 10, 1], dtype=np.float32))
    np.testing.assert_array_equal(valid, [100, 1])
    np.testing.assert_array_equal(same, [1000, 10, 1])


def test_bf16_accumulates_in_f32(module: str) -> None:
    """Not the bf16 step-by-step sum (256): the f32 sum rounded once."""
    f = compile(module, "bf16_sum")
    got = f(*make_inputs(next(c for c in CASES if c.name == "bf16_sum"), np.random.default_rng(0)))
    np.testing.assert_array_equal(np.asarray(got).astype(np.float32), [260, 11])


def test_reference_pads_with_init() -> None:
    """The reference itself: a padded window sum reads zeros outside the operand."""
    case = Case("t", (3,), (2,), reducer="sum", type="i32", padding=((1, 1),))
    (ref,) = run_reference(case, [np.array([1, 2, 3], dtype=np.int32)])
    np.testing.assert_array_equal(ref, [1, 3, 5, 3])
