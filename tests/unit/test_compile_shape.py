"""Shape ops: `broadcast`, `broadcast_in_dim`, `reshape`, `collapse`, `transpose`, `get_dimension_size`, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from compile_ops_support import (
    ALL,
    Kernels,
    Module,
    assert_same,
    fmt_ints,
    ids,
    sample,
    ttype,
)

# ===========================================================================
# Shape ops: broadcast, broadcast_in_dim, reshape, collapse, transpose,
# get_dimension_size
# ===========================================================================

SHAPE = Module()


@dataclass(frozen=True)
class ShapeCase:
    """`op` on an operand of `shape`; `params` is the op's attribute(s)."""

    name: str
    op: str
    t: str
    shape: tuple[int, ...]
    out: tuple[int, ...]
    params: tuple[int, ...] | None


SHAPE_CONFIGS: dict[str, list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]]] = {
    # (operand shape, result shape, attribute)
    "broadcast": [
        ((), (2, 3), None),
        ((4,), (2, 3, 4), None),
        ((2, 1), (3, 2, 1), None),
        ((3,), (3,), None),
        ((1, 2), (1, 1, 2), None),
    ],
    "broadcast_in_dim": [
        ((2,), (2, 3), (0,)),
        ((3, 1), (3, 2, 2), (0, 2)),
        ((2, 3), (3, 4, 2), (2, 0)),
        ((), (2, 2), ()),
        ((1,), (4,), (0,)),
        ((1, 1, 1), (2, 3, 4), (0, 1, 2)),
        ((3, 1), (2, 3, 1), (1, 2)),
        ((1, 3), (1, 3), (0, 1)),
    ],
    "reshape": [
        ((6,), (2, 3), None),
        ((2, 3), (3, 2), None),
        ((1, 1), (), None),
        ((), (1, 1, 1), None),
        ((2, 3, 4), (4, 6), None),
        ((2, 1, 3), (3, 2), None),
    ],
    "reshape_dims": [
        ((4, 2, 3), (2, 6, 2), (1, 2, 0)),
        ((2, 3), (6,), (1, 0)),
        ((2, 3, 4), (24,), (2, 0, 1)),
        ((2, 3), (3, 2), (0, 1)),
        ((3, 1, 2), (2, 3), (2, 1, 0)),
    ],
    "collapse": [
        ((4, 2, 3), (24,), (0, 1, 2)),
        ((4, 2, 3), (8, 3), (0, 1)),
        ((4, 2, 3), (4, 6), (1, 2)),
        ((2, 1, 3, 1), (2, 3, 1), (1, 2)),
        ((5,), (5,), (0,)),
    ],
    "transpose": [
        ((2, 3), (3, 2), (1, 0)),
        ((2, 3, 4), (4, 2, 3), (2, 0, 1)),
        ((2, 3, 4), (3, 4, 2), (1, 2, 0)),
        ((2, 3, 4), (2, 4, 3), (0, 2, 1)),
        ((1, 3, 1), (1, 3, 1), (2, 1, 0)),
        ((), (), ()),
        ((5,), (5,), (0,)),
    ],
    "get_dimension_size": [
        ((2, 3, 4), (), (0,)),
        ((2, 3, 4), (), (1,)),
        ((2, 3, 4), (), (2,)),
        ((0, 7), (), (1,)),
    ],
}


def shape_op_text(c: ShapeCase) -> str:
    a, r = ttype(c.t, c.shape), ttype(c.t, c.out)
    p = c.params
    if c.op == "broadcast":
        sizes = c.out[: len(c.out) - len(c.shape)]
        return f"%r = xla.broadcast %a0, sizes = {fmt_ints(sizes)} : ({a}) -> {r}"
    if c.op == "broadcast_in_dim":
        return f"%r = xla.broadcast_in_dim %a0, dims = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "reshape":
        return f"%r = xla.reshape %a0 : ({a}) -> {r}"
    if c.op == "reshape_dims":
        return f"%r = xla.reshape %a0, dimensions = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "collapse":
        return f"%r = xla.collapse %a0, dimensions = {fmt_ints(p or ())} : ({a}) -> {r}"
    if c.op == "transpose":
        return f"%r = xla.transpose %a0, dims = {fmt_ints(p or ())} : ({a}) -> {r}"
    assert c.op == "get_dimension_size" and p is not None
    return f"%r = xla.get_dimension_size %a0, dim = {p[0]} : ({a}) -> tensor<i32>"


def _shape_cases() -> list[ShapeCase]:
    """Every configuration in f32 and i8, and every element type in one of them."""
    cases: list[ShapeCase] = []
    for op, configs in SHAPE_CONFIGS.items():
        chosen: list[tuple[str, int]] = [(t, i) for i in range(len(configs)) for t in ("f32", "i8")]
        chosen += [(t, (j + 1) % len(configs)) for j, t in enumerate(ALL) if t not in ("f32", "i8")]
        for t, i in chosen:
            shape, out, params = configs[i]
            c = ShapeCase(f"{op}_{t}_{i}", op, t, shape, out, params)
            cases.append(c)
            r = "tensor<i32>" if op == "get_dimension_size" else ttype(t, out)
            SHAPE.add(c.name, [ttype(t, shape)], [shape_op_text(c)], [("%r", r)])
    return cases


SHAPE_CASES = _shape_cases()


def ref_shape_op(c: ShapeCase, x: np.ndarray) -> np.ndarray:
    p = c.params
    if c.op == "broadcast":
        return np.broadcast_to(x, c.out).copy()
    if c.op == "broadcast_in_dim":
        assert p is not None
        shape = [1] * len(c.out)
        for i, d in enumerate(p):
            shape[d] = x.shape[i]
        # dims need not be increasing: transpose the operand into result order first.
        order = sorted(range(len(p)), key=lambda i: p[i])
        return np.broadcast_to(np.transpose(x, order).reshape(shape), c.out).copy()
    if c.op in ("reshape", "collapse"):
        return x.reshape(c.out)
    if c.op == "reshape_dims":
        return np.transpose(x, p).reshape(c.out)
    if c.op == "transpose":
        return np.transpose(x, p).copy()
    assert p is not None
    return np.array(c.shape[p[0]], dtype=np.int32)


@pytest.fixture(scope="module")
def shape_kernels() -> Kernels:
    return Kernels(SHAPE)


@pytest.mark.parametrize("case", SHAPE_CASES, ids=ids(SHAPE_CASES))
def test_shape_op(shape_kernels: Kernels, case: ShapeCase) -> None:
    x = sample(case.t, case.shape, case.name)
    assert_same(shape_kernels[case.name](x), ref_shape_op(case, x), case.name)
