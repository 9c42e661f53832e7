"""Edges: zero-size tensors, and values used again after an op that could have written over them, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from compile_ops_support import (
    DTYPES,
    Kernels,
    Module,
    assert_same,
    ids,
    sample,
    scalar,
    ttype,
)

# Edges: zero-size tensors, and values used again after an op that could
# update them in place (a bufferization hazard)
# ===========================================================================

EDGES = Module()


@dataclass(frozen=True)
class EdgeCase:
    """A function of `params` ((type, shape) pairs) running `ops`; `reference`
    maps the inputs to the expected results."""

    name: str
    params: tuple[tuple[str, tuple[int, ...]], ...]
    ops: tuple[str, ...]
    results: tuple[tuple[str, str, tuple[int, ...]], ...]
    reference: Callable[..., tuple[np.ndarray, ...]] = field(compare=False)
    inputs: Callable[[], list[np.ndarray]] | None = field(default=None, compare=False)


def _e(
    name: str,
    params: Sequence[tuple[str, tuple[int, ...]]],
    ops: Sequence[str],
    results: Sequence[tuple[str, str, tuple[int, ...]]],
    reference: Callable[..., Any],
    inputs: Callable[[], list[np.ndarray]] | None = None,
) -> EdgeCase:
    def ref(*args: np.ndarray) -> tuple[np.ndarray, ...]:
        out = reference(*args)
        return tuple(out) if isinstance(out, tuple) else (out,)

    return EdgeCase(name, tuple(params), tuple(ops), tuple(results), ref, inputs)


F32 = "f32"
T = ttype


def _edge_cases() -> list[EdgeCase]:
    z = np.zeros
    cases = [
        _e(
            "zs_add",
            [(F32, (0, 3)), (F32, (0, 3))],
            [f"%r = xla.add %a0, %a1 : {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a, b: a + b,
        ),
        _e(
            "zs_convert",
            [("i32", (2, 0))],
            [f"%r = xla.convert %a0 : ({T('i32', (2, 0))}) -> {T('f64', (2, 0))}"],
            [("%r", "f64", (2, 0))],
            lambda a: a.astype(np.float64),
        ),
        _e(
            "zs_iota",
            [],
            [f"%r = xla.iota dim = 0 : {T('i32', (0,))}"],
            [("%r", "i32", (0,))],
            lambda: z((0,), np.int32),
        ),
        _e(
            "zs_broadcast_in_dim",
            [(F32, (0,))],
            [f"%r = xla.broadcast_in_dim %a0, dims = [1] : ({T(F32, (0,))}) -> {T(F32, (2, 0))}"],
            [("%r", F32, (2, 0))],
            lambda a: z((2, 0), np.float32),
        ),
        _e(
            "zs_broadcast_to_empty",
            [(F32, (3,))],
            [f"%r = xla.broadcast_in_dim %a0, dims = [1] : ({T(F32, (3,))}) -> {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a: z((0, 3), np.float32),
        ),
        _e(
            "zs_transpose",
            [("i8", (0, 3))],
            [f"%r = xla.transpose %a0, dims = [1, 0] : ({T('i8', (0, 3))}) -> {T('i8', (3, 0))}"],
            [("%r", "i8", (3, 0))],
            lambda a: z((3, 0), np.int8),
        ),
        _e(
            "zs_reshape",
            [(F32, (0, 3))],
            [f"%r = xla.reshape %a0 : ({T(F32, (0, 3))}) -> {T(F32, (3, 0, 1))}"],
            [("%r", F32, (3, 0, 1))],
            lambda a: z((3, 0, 1), np.float32),
        ),
        _e(
            "zs_reverse",
            [(F32, (0, 2))],
            [f"%r = xla.reverse %a0, dims = [0, 1] : {T(F32, (0, 2))}"],
            [("%r", F32, (0, 2))],
            lambda a: a.copy(),
        ),
        _e(
            "zs_slice",
            [(F32, (4, 3))],
            [f"%r = xla.slice %a0 [2:2, 0:3] : ({T(F32, (4, 3))}) -> {T(F32, (0, 3))}"],
            [("%r", F32, (0, 3))],
            lambda a: z((0, 3), np.float32),
        ),
        _e(
            "zs_pad_all_padding",
            [(F32, (0,)), (F32, ())],
            [
                f"%r = xla.pad %a0, %a1, low = [1], high = [2], interior = [3] : ({T(F32, (0,))}, {T(F32, ())}) -> {T(F32, (3,))}"
            ],
            [("%r", F32, (3,))],
            lambda a, v: np.full((3,), v, np.float32),
        ),
        _e(
            "zs_concatenate",
            [(F32, (2, 0)), (F32, (1, 0)), (F32, (3, 0))],
            [
                f"%r = xla.concatenate %a0, %a1, %a2, dim = 0 : ({T(F32, (2, 0))}, {T(F32, (1, 0))}, {T(F32, (3, 0))}) -> {T(F32, (6, 0))}"
            ],
            [("%r", F32, (6, 0))],
            lambda a, b, c: z((6, 0), np.float32),
        ),
        _e(
            "zs_dynamic_slice",
            [(F32, (0,)), ("i32", ())],
            [
                f"%r = xla.dynamic_slice %a0, %a1, sizes = [0] : ({T(F32, (0,))}, {T('i32', ())}) -> {T(F32, (0,))}"
            ],
            [("%r", F32, (0,))],
            lambda a, i: z((0,), np.float32),
            lambda: [z((0,), np.float32), scalar(5, "i32")],
        ),
        _e(
            "zs_select",
            [("i1", (0, 2)), ("i64", (0, 2)), ("i64", (0, 2))],
            [
                f"%r = xla.select %a0, %a1, %a2 : ({T('i1', (0, 2))}, {T('i64', (0, 2))}, {T('i64', (0, 2))}) -> {T('i64', (0, 2))}"
            ],
            [("%r", "i64", (0, 2))],
            lambda p, a, b: a.copy(),
        ),
        _e(
            "zs_reduce_empty_dim",
            [(F32, (3, 0)), (F32, ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.add across dimensions = [1] : ({T(F32, (3, 0))}, {T(F32, ())}) -> {T(F32, (3,))}"
            ],
            [("%r", F32, (3,))],
            lambda a, i: np.full((3,), i, np.float32),
        ),
        _e(
            "zs_reduce_all",
            [("i32", (0, 4)), ("i32", ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.maximum across dimensions = [0, 1] : ({T('i32', (0, 4))}, {T('i32', ())}) -> {T('i32', ())}"
            ],
            [("%r", "i32", ())],
            lambda a, i: i.copy(),
        ),
        _e(
            "zs_reduce_kept_empty",
            [(F32, (0, 4)), (F32, ())],
            [
                f"%r = xla.reduce(%a0 init: %a1) applies xla.add across dimensions = [1] : ({T(F32, (0, 4))}, {T(F32, ())}) -> {T(F32, (0,))}"
            ],
            [("%r", F32, (0,))],
            lambda a, i: z((0,), np.float32),
        ),
        _e(
            "zs_dot_k0",
            [(F32, (3, 0)), (F32, (0, 4))],
            [f"%r = xla.dot %a0, %a1 : ({T(F32, (3, 0))}, {T(F32, (0, 4))}) -> {T(F32, (3, 4))}"],
            [("%r", F32, (3, 4))],
            lambda a, b: z((3, 4), np.float32),
        ),
        _e(
            "zs_dot_general_k0_i32",
            [("i32", (2, 0)), ("i32", (0,))],
            [
                f"%r = xla.dot_general %a0, %a1, contracting_dims = [1] x [0] : ({T('i32', (2, 0))}, {T('i32', (0,))}) -> {T('i32', (2,))}"
            ],
            [("%r", "i32", (2,))],
            lambda a, b: z((2,), np.int32),
        ),
        _e(
            "zs_dot_general_batch0",
            [(F32, (0, 2, 3)), (F32, (0, 3, 4))],
            [
                f"%r = xla.dot_general %a0, %a1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({T(F32, (0, 2, 3))}, {T(F32, (0, 3, 4))}) -> {T(F32, (0, 2, 4))}"
            ],
            [("%r", F32, (0, 2, 4))],
            lambda a, b: z((0, 2, 4), np.float32),
        ),
    ]

    # -- values read again after an op that could have updated them in place --
    v5, v2, s = T(F32, (5,)), T(F32, (2,)), T("i32", ())

    def dus(x: np.ndarray, u: np.ndarray, i: int) -> np.ndarray:
        out = x.copy()
        start = min(max(i, 0), x.shape[0] - u.shape[0])
        out[start : start + u.shape[0]] = u
        return out

    def five_two_start() -> list[np.ndarray]:
        return [
            np.arange(5, dtype=np.float32),
            np.array([10.0, 20.0], np.float32),
            scalar(1, "i32"),
        ]

    cases += [
        _e(
            "reuse_dus_argument",
            [(F32, (5,)), (F32, (2,)), ("i32", ())],
            [
                f"%d = xla.dynamic_update_slice %a0, %a1, %a2 : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.add %d, %a0 : {v5}",
            ],
            [("%r", F32, (5,)), ("%d", F32, (5,))],
            lambda x, u, i: (dus(x, u, int(i)) + x, dus(x, u, int(i))),
            five_two_start,
        ),
        _e(
            "reuse_dus_intermediate",
            [(F32, (5,)), (F32, (2,)), ("i32", ())],
            [
                f"%y = xla.add %a0, %a0 : {v5}",
                f"%d = xla.dynamic_update_slice %y, %a1, %a2 : ({v5}, {v2}, {s}) -> {v5}",
                f"%zero = xla.constant dense<0> : {s}",
                f"%e = xla.dynamic_update_slice %y, %a1, %zero : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.subtract %d, %e : {v5}",
            ],
            [("%r", F32, (5,)), ("%y", F32, (5,)), ("%d", F32, (5,))],
            lambda x, u, i: (
                dus(2 * x, u, int(i)) - dus(2 * x, u, 0),
                2 * x,
                dus(2 * x, u, int(i)),
            ),
            five_two_start,
        ),
        _e(
            "reuse_dus_constant",
            [(F32, (2,)), ("i32", ())],
            [
                f"%c = xla.constant dense<1.5> : {v5}",
                f"%d = xla.dynamic_update_slice %c, %a0, %a1 : ({v5}, {v2}, {s}) -> {v5}",
                f"%e = xla.dynamic_update_slice %c, %a0, %a1 : ({v5}, {v2}, {s}) -> {v5}",
                f"%r = xla.add %d, %c : {v5}",
            ],
            [("%r", F32, (5,)), ("%c", F32, (5,)), ("%e", F32, (5,))],
            lambda u, i: (
                dus(np.full(5, 1.5, np.float32), u, int(i)) + 1.5,
                np.full(5, 1.5, np.float32),
                dus(np.full(5, 1.5, np.float32), u, int(i)),
            ),
            lambda: [np.array([10.0, 20.0], np.float32), scalar(3, "i32")],
        ),
        _e(
            "reuse_pad_and_concatenate",
            [(F32, (3,)), (F32, ())],
            [
                f"%p = xla.pad %a0, %a1, low = [1], high = [1], interior = [1] : ({T(F32, (3,))}, {T(F32, ())}) -> {T(F32, (7,))}",
                f"%c = xla.concatenate %a0, %a0, %p, %a0, dim = 0 : ({T(F32, (3,))}, {T(F32, (3,))}, {T(F32, (7,))}, {T(F32, (3,))}) -> {T(F32, (16,))}",
                f"%s = xla.slice %c [3:10] : ({T(F32, (16,))}) -> {T(F32, (7,))}",
                f"%r = xla.add %s, %p : {T(F32, (7,))}",
            ],
            [("%r", F32, (7,)), ("%c", F32, (16,)), ("%p", F32, (7,))],
            lambda x, v: _pad_concat_reference(x, v),
        ),
        _e(
            "reuse_results_twice",
            [("i16", (2, 3))],
            [f"%t = xla.reshape %a0 : ({T('i16', (2, 3))}) -> {T('i16', (2, 3))}"],
            [("%a0", "i16", (2, 3)), ("%t", "i16", (2, 3)), ("%t", "i16", (2, 3))],
            lambda x: (x.copy(), x.copy(), x.copy()),
        ),
        _e(
            "reuse_dot_same_operand",
            [("i32", (3, 3))],
            [
                f"%r = xla.dot %a0, %a0 : ({T('i32', (3, 3))}, {T('i32', (3, 3))}) -> {T('i32', (3, 3))}"
            ],
            [("%r", "i32", (3, 3))],
            lambda x: (x.astype(np.int64) @ x.astype(np.int64)).astype(np.int32),
        ),
        _e(
            "chain_iota_reverse_slice_broadcast_reduce",
            [],
            [
                f"%i = xla.iota dim = 0 : {T('i64', (6,))}",
                f"%v = xla.reverse %i, dims = [0] : {T('i64', (6,))}",
                f"%s = xla.slice %v [1:6:2] : ({T('i64', (6,))}) -> {T('i64', (3,))}",
                f"%b = xla.broadcast_in_dim %s, dims = [1] : ({T('i64', (3,))}) -> {T('i64', (2, 3))}",
                f"%m = xla.multiply %b, %b : {T('i64', (2, 3))}",
                f"%z = xla.constant dense<0> : {T('i64', ())}",
                f"%r = xla.reduce(%m init: %z) applies xla.add across dimensions = [0] : ({T('i64', (2, 3))}, {T('i64', ())}) -> {T('i64', (3,))}",
            ],
            [("%r", "i64", (3,)), ("%s", "i64", (3,))],
            lambda: (2 * np.array([4, 2, 0], np.int64) ** 2, np.array([4, 2, 0], np.int64)),
        ),
    ]
    for c in cases:
        EDGES.add(
            c.name,
            [T(t, shape) for t, shape in c.params],
            list(c.ops),
            [(v, T(t, shape)) for v, t, shape in c.results],
        )
    return cases


def _pad_concat_reference(x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
    p = np.full(7, v, np.float32)
    p[1::2] = x
    c = np.concatenate([x, x, p, x])
    return c[3:10] + p, c, p


EDGE_CASES = _edge_cases()


@pytest.fixture(scope="module")
def edges() -> Kernels:
    return Kernels(EDGES)


@pytest.mark.parametrize("case", EDGE_CASES, ids=ids(EDGE_CASES))
def test_edge(edges: Kernels, case: EdgeCase) -> None:
    args = (
        case.inputs()
        if case.inputs
        else [sample(t, shape, case.name, k) for k, (t, shape) in enumerate(case.params)]
    )
    actual = edges[case.name](*args)
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = case.reference(*args)
    assert len(actual) == len(expected)
    for k, (a, e) in enumerate(zip(actual, expected)):
        assert_same(a, np.asarray(e).astype(DTYPES[case.results[k][1]]), f"{case.name} result {k}")
