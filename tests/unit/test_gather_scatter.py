"""`xla.gather` and `xla.scatter` compiled through `lower-to-llvm` against loop
references that follow the spec's index arithmetic literally.

Gather: for every output index `Out`, the batch coordinates pick the index vector
`S` (Combine inserts the component at `index_vector_dim`), `start_index_map`
places it (`S_in`), clamped so the slice lies in the operand (the informal
description's dynamic slice), the offset coordinates are placed on the operand
dimensions that are neither collapsed nor batching dimensions (`O_in`), and the
batching coordinates on the operand's batching dimensions.

Scatter: the result starts as the operand; for every update index `U` in
row-major order, the same arithmetic gives the operand index `I`, and
`output[I] = computation(output[I], updates[U])` unless the update's whole window
(its start + the window sizes) does not lie in the operand, in which case every
element of that window is skipped (XLA's rule). bf16 scatters compute in f32 and
round once at the end (XLA's CPU backend).

Every case is one function of a single module compiled once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
import pytest

from xla_dialect.context import XlaProgramError
from xla_tools import compile

DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
}


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def _fields(pairs: Sequence[tuple[str, Sequence[int] | int]]) -> str:
    """`name = [..]` fields of a dimension-numbers attribute; empty lists omitted."""
    out = []
    for name, value in pairs:
        if isinstance(value, int):
            out.append(f"{name} = {value}")
        elif value:
            out.append(f"{name} = [{', '.join(map(str, value))}]")
    return ", ".join(out)


def _index_vector(indices: np.ndarray, batch: Sequence[int], count: int, ivd: int) -> list[int]:
    """The spec's S: S[i] = indices[Combine(batch, i)] (no component dimension when
    index_vector_dim is the implicit trailing one)."""
    if ivd == indices.ndim:
        return [int(indices[tuple(batch)])]
    return [int(indices[(*batch[:ivd], i, *batch[ivd:])]) for i in range(count)]


# ---------------------------------------------------------------------------
# Gather
# ---------------------------------------------------------------------------


@dataclass
class Gather:
    name: str
    operand: tuple[int, ...]
    indices: np.ndarray  # its dtype is the index element type
    index_type: str
    offset_dims: list[int]
    collapsed: list[int]
    start_index_map: list[int]
    ivd: int
    slice_sizes: list[int]
    type: str = "f32"
    operand_batching: list[int] = field(default_factory=list)
    indices_batching: list[int] = field(default_factory=list)
    sorted_hint: bool = False

    def batch_dims(self) -> list[int]:
        return [d for d in range(self.out_rank()) if d not in self.offset_dims]

    def out_rank(self) -> int:
        batch_rank = self.indices.ndim - (0 if self.ivd == self.indices.ndim else 1)
        return batch_rank + len(self.offset_dims)

    def out_shape(self) -> tuple[int, ...]:
        """The spec's bounds: batch dims from the index array (skipping
        index_vector_dim), offset dims from the adjusted slice sizes."""
        batch = [s for j, s in enumerate(self.indices.shape) if j != self.ivd]
        dropped = {*self.collapsed, *self.operand_batching}
        adjusted = [s for d, s in enumerate(self.slice_sizes) if d not in dropped]
        batch_it, offset_it = iter(batch), iter(adjusted)
        return tuple(next(offset_it) if d in self.offset_dims else next(batch_it) for d in range(self.out_rank()))

    def function(self) -> str:
        dn = _fields(
            [
                ("offset_dims", self.offset_dims),
                ("collapsed_slice_dims", self.collapsed),
                ("operand_batching_dims", self.operand_batching),
                ("start_indices_batching_dims", self.indices_batching),
                ("start_index_map", self.start_index_map),
                ("index_vector_dim", self.ivd),
            ]
        )
        xt = _tensor(self.operand, self.type)
        it = _tensor(self.indices.shape, self.index_type)
        rt = _tensor(self.out_shape(), self.type)
        sizes = ", ".join(map(str, self.slice_sizes))
        hint = ", indices_are_sorted = true" if self.sorted_hint else ""
        return f"""func.func @gather_{self.name}(%x: {xt}, %i: {it}) -> {rt} {{
  %r = "xla.gather"(%x, %i) <{{dimension_numbers = #xla.gather<{dn}>, slice_sizes = array<i64: {sizes}>{hint}}}> : ({xt}, {it}) -> {rt}
  func.return %r : {rt}
}}"""


def gather_reference(case: Gather, operand: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The spec's Gather by a loop over the output (module docstring)."""
    rank = operand.ndim
    out_shape = case.out_shape()
    batch_dims = case.batch_dims()
    indices_dims = [j for j in range(indices.ndim) if j != case.ivd]
    dropped = {*case.collapsed, *case.operand_batching}
    remapped_offset_dims = [d for d in range(rank) if d not in dropped]
    out = np.zeros(out_shape, dtype=operand.dtype)
    for o in itertools.product(*(range(n) for n in out_shape)):
        g = [o[d] for d in batch_dims]
        s = _index_vector(indices, g, len(case.start_index_map), case.ivd)
        s_in = [0] * rank
        for k, d in enumerate(case.start_index_map):
            s_in[d] = min(max(s[k], 0), operand.shape[d] - case.slice_sizes[d])
        o_in = [0] * rank
        for k, d in enumerate(remapped_offset_dims):
            o_in[d] = o[case.offset_dims[k]]
        b_in = [0] * rank
        for d, j in zip(case.operand_batching, case.indices_batching):
            b_in[d] = g[indices_dims.index(j)]
        out[o] = operand[tuple(a + b + c for a, b, c in zip(s_in, o_in, b_in))]
    return out


def _ints(rng: np.random.Generator, lo: int, hi: int, shape: Sequence[int], t: str) -> np.ndarray:
    return rng.integers(lo, hi, shape).astype(DTYPES[t])


_R = np.random.default_rng(7)

GATHERS = [
    # jnp `x[idx]`: rows of a matrix at a vector of indices (explicit trailing vector dim).
    Gather("take_rows", (5, 3), _ints(_R, 0, 5, (4, 1), "i32"), "i32", [1], [0], [0], 1, [1, 3]),
    # The same with the implicit trailing index-vector dimension (a rank-1 index array).
    Gather("take_rows_implicit", (5, 3), _ints(_R, 0, 5, (6,), "i32"), "i32", [1], [0], [0], 1, [1, 3]),
    # Embedding lookup: a (2, 3) batch of token ids, rows of width 8.
    Gather("embedding", (10, 8), _ints(_R, 0, 10, (2, 3), "i64"), "i64", [2], [0], [0], 2, [1, 8]),
    # Columns: x[:, idx] (offset dimension first in the result).
    Gather("take_columns", (4, 6), _ints(_R, 0, 6, (5,), "i32"), "i32", [0], [1], [1], 1, [4, 1], type="i32"),
    # The conformance example (start_index_map reversed, a clamped start 9).
    Gather(
        "spec_3d",
        (3, 4, 2),
        np.array([[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], dtype=np.int64),
        "i64",
        [2, 3],
        [0],
        [1, 0],
        2,
        [1, 2, 2],
        type="i64",
    ),
    # torch.gather(x, 1, idx) / take_along_axis: per-element gather with a batching dim.
    Gather(
        "take_along_axis",
        (3, 5),
        _ints(_R, 0, 5, (3, 4), "i32"),
        "i32",
        [],
        [1],
        [1],
        2,
        [1, 1],
        type="i32",
        operand_batching=[0],
        indices_batching=[0],
    ),
    # The conformance batching example: batching dims 0 (operand) and 1 (indices).
    Gather(
        "batching_3d",
        (2, 3, 4, 2),
        np.array(
            [[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
            dtype=np.int32,
        ),
        "i32",
        [3, 4],
        [1],
        [2, 1],
        3,
        [1, 1, 2, 2],
        operand_batching=[0],
        indices_batching=[1],
    ),
    # Two batching dims, batch order differing between operand and indices.
    Gather(
        "two_batching_dims",
        (3, 2, 6),
        _ints(_R, -2, 8, (2, 3, 4), "i32"),
        "i32",
        [3],
        [],
        [2],
        3,
        [1, 1, 3],
        operand_batching=[0, 1],
        indices_batching=[1, 0],
    ),
    # index_vector_dim in the middle of the index array; offset dims interleaved.
    Gather("index_vector_middle", (4, 5, 6), _ints(_R, -3, 9, (2, 2, 3), "i32"), "i32", [1, 3], [0], [0, 2], 1, [1, 3, 2]),
    # index_vector_dim first.
    Gather("index_vector_first", (7, 4), _ints(_R, -2, 9, (2, 3, 2), "i16"), "i16", [2, 3], [], [0, 1], 0, [2, 3]),
    # Clamping: negative and too large starts of a (3, 4) window in a (6, 7) operand.
    Gather("clamp_2d", (6, 7), _ints(_R, -6, 14, (8, 2), "i32"), "i32", [1, 2], [], [0, 1], 1, [3, 4]),
    # The slice is the whole operand: every start clamps to 0.
    Gather("whole_operand", (3, 4), _ints(_R, -5, 6, (3, 2), "i8"), "i8", [1, 2], [], [1, 0], 1, [3, 4]),
    # start_index_map covering only dim 1; dim 0 is a full offset dim.
    Gather("partial_index_map", (3, 8), _ints(_R, -4, 12, (5,), "i32"), "i32", [0, 2], [], [1], 1, [3, 2]),
    # Unsigned index types, values beyond the operand (clamped high).
    Gather("unsigned_ui8", (6, 2), np.array([0, 3, 5, 6, 200, 255], dtype=np.uint8), "ui8", [1], [0], [0], 1, [1, 2]),
    Gather("unsigned_ui32", (9,), np.array([[1], [8], [7], [4000000000]], dtype=np.uint32), "ui32", [1], [], [0], 1, [2]),
    Gather(
        "unsigned_ui64_huge",
        (6,),
        np.array([0, 2, 3, 2**63, 2**64 - 1], dtype=np.uint64),
        "ui64",
        [1],
        [],
        [0],
        1,
        [3],
        type="i32",
    ),
    # A rank-0 index array (index_vector_dim 0 is its implicit trailing dim).
    Gather("scalar_index", (5, 4), np.array(3, dtype=np.int32), "i32", [0], [0], [0], 0, [1, 4]),
    # Element types.
    Gather("bf16_rows", (6, 4), _ints(_R, -1, 7, (3, 1), "i32"), "i32", [1], [0], [0], 1, [1, 4], type="bf16"),
    Gather("pred_rows", (4, 5), _ints(_R, 0, 4, (3,), "i32"), "i32", [1], [0], [0], 1, [1, 5], type="i1", sorted_hint=True),
    # No index vectors: an empty result.
    Gather("empty_indices", (4, 3), np.zeros((0, 1), dtype=np.int32), "i32", [1], [0], [0], 1, [1, 3]),
]


def _values(rng: np.random.Generator, shape: Sequence[int], t: str) -> np.ndarray:
    if t == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    return rng.integers(-20, 20, shape).astype(DTYPES[t])


# ---------------------------------------------------------------------------
# Scatter
# ---------------------------------------------------------------------------

Computation = Callable[..., tuple[object, ...]]

COMPUTATIONS: dict[str, tuple[str, Computation]] = {
    # name -> (the region's op computing %c from %a (current) and %b (update), or
    # none for the computation returning %b; the reference)
    "add": ("%c = xla.add %a, %b : {s}", lambda a, b: (a + b,)),
    "set": ("", lambda a, b: (b,)),
    "sub": ("%c = xla.subtract %a, %b : {s}", lambda a, b: (a - b,)),
    "mul": ("%c = xla.multiply %a, %b : {s}", lambda a, b: (a * b,)),
    "min": ("%c = xla.minimum %a, %b : {s}", lambda a, b: (min(a, b),)),
    "max": ("%c = xla.maximum %a, %b : {s}", lambda a, b: (max(a, b),)),
    "or": ("%c = xla.or %a, %b : {s}", lambda a, b: (a or b,)),
}


@dataclass
class Scatter:
    name: str
    operand: tuple[int, ...]
    indices: np.ndarray
    index_type: str
    updates: tuple[int, ...]
    window_dims: list[int]
    inserted: list[int]
    index_map: list[int]
    ivd: int
    computation: str = "add"
    type: str = "f32"
    input_batching: list[int] = field(default_factory=list)
    indices_batching: list[int] = field(default_factory=list)
    variadic: bool = False  # (f32 values, i32 tags) updated by (max value, its tag)
    compute_type: str | None = None  # a wider computation type (promotion)
    hints: str = ""

    def function(self) -> str:
        dn = _fields(
            [
                ("update_window_dims", self.window_dims),
                ("inserted_window_dims", self.inserted),
                ("input_batching_dims", self.input_batching),
                ("scatter_indices_batching_dims", self.indices_batching),
                ("scatter_dims_to_operand_dims", self.index_map),
                ("index_vector_dim", self.ivd),
            ]
        )
        it = _tensor(self.indices.shape, self.index_type)
        attrs = f"scatter_dimension_numbers = #xla.scatter<{dn}>{self.hints}"
        if self.variadic:
            xv, xi = _tensor(self.operand, "f32"), _tensor(self.operand, "i32")
            uv, ui = _tensor(self.updates, "f32"), _tensor(self.updates, "i32")
            return f"""func.func @scatter_{self.name}(%x: {xv}, %t: {xi}, %i: {it}, %u: {uv}, %ut: {ui}) -> ({xv}, {xi}) {{
  %r:2 = "xla.scatter"(%x, %t, %i, %u, %ut) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %at: tensor<i32>, %b: tensor<f32>, %bt: tensor<i32>):
    %gt = xla.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = xla.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = xla.select %gt, %bt, %at : tensor<i1>, tensor<i32>
    xla.return %v, %k : tensor<f32>, tensor<i32>
  }}) : ({xv}, {xi}, {it}, {uv}, {ui}) -> ({xv}, {xi})
  func.return %r#0, %r#1 : {xv}, {xi}
}}"""
        ct = self.compute_type or self.type
        xt, ut, rt = _tensor(self.operand, self.type), _tensor(self.updates, self.type), _tensor(self.operand, ct)
        s = f"tensor<{ct}>"
        op = COMPUTATIONS[self.computation][0].format(s=s)
        body = f"{op}\n    xla.return %c : {s}" if op else f"xla.return %b : {s}"
        return f"""func.func @scatter_{self.name}(%x: {xt}, %i: {it}, %u: {ut}) -> {rt} {{
  %r = "xla.scatter"(%x, %i, %u) <{{{attrs}}}> ({{
  ^bb0(%a: {s}, %b: {s}):
    {body}
  }}) : ({xt}, {it}, {ut}) -> {rt}
  func.return %r : {rt}
}}"""


def scatter_reference(
    case: Scatter, operands: Sequence[np.ndarray], indices: np.ndarray, updates: Sequence[np.ndarray], fn: Computation
) -> list[np.ndarray]:
    """The spec's Scatter by a loop over the updates in row-major order (module
    docstring); an update whose window is not entirely in the operand is skipped."""
    rank = operands[0].ndim
    upd_shape = updates[0].shape
    scatter_dims = [d for d in range(len(upd_shape)) if d not in case.window_dims]
    indices_dims = [j for j in range(indices.ndim) if j != case.ivd]
    dropped = {*case.inserted, *case.input_batching}
    window_to_operand = [d for d in range(rank) if d not in dropped]
    window_size = [1] * rank
    for k, d in enumerate(window_to_operand):
        window_size[d] = upd_shape[case.window_dims[k]]
    out = [o.copy() for o in operands]
    for u in itertools.product(*(range(n) for n in upd_shape)):
        g = [u[d] for d in scatter_dims]
        s = _index_vector(indices, g, len(case.index_map), case.ivd)
        start = [0] * rank
        for k, d in enumerate(case.index_map):
            start[d] = s[k]
        for d, j in zip(case.input_batching, case.indices_batching):
            start[d] = g[indices_dims.index(j)]
        if any(st < 0 or st + w > n for st, w, n in zip(start, window_size, operands[0].shape)):
            continue
        w_in = [0] * rank
        for k, d in enumerate(window_to_operand):
            w_in[d] = u[case.window_dims[k]]
        index = tuple(a + b for a, b in zip(start, w_in))
        new = fn(*(o[index] for o in out), *(x[u] for x in updates))
        for o, v in zip(out, new):
            o[index] = v
    return out


def _idx(rows: Sequence[Sequence[int]] | Sequence[int], t: str = "i32") -> np.ndarray:
    return np.array(rows, dtype=np.int64).astype(DTYPES[t])


SCATTERS = [
    # Scatter-add into a vector with duplicate indices (jnp x.at[idx].add(v)).
    Scatter("add_duplicates", (8,), _idx([[1], [3], [1], [7], [1], [0], [3], [6], [2], [1]]), "i32", (10,), [], [0], [0], 1),
    # Scatter-set: the last update of an index wins (update order).
    Scatter("set_last_wins", (6,), _idx([4, 1, 4, 0, 1, 4], "i64"), "i64", (6,), [], [0], [0], 1, "set", type="i32"),
    # Rows: x.at[idx].add(rows) on a matrix, duplicates included.
    Scatter("add_rows", (6, 4), _idx([[5], [0], [5], [2], [5]]), "i32", (5, 4), [1], [0], [0], 1, type="i32"),
    # Non-commutative: output = current - update.
    Scatter("sub_rows", (5, 3), _idx([2, 4, 2, 0]), "i32", (4, 3), [1], [0], [0], 1, "sub", type="i32"),
    Scatter("mul_i32", (6,), _idx([[0], [2], [2], [5], [0]]), "i32", (5,), [], [0], [0], 1, "mul", type="i32"),
    Scatter("min_f32", (4, 5), _idx([[1, 2], [3, 0], [1, 2], [0, 4]]), "i32", (4,), [], [0, 1], [0, 1], 1, "min"),
    Scatter("max_f32", (4, 5), _idx([[1, 2], [3, 0], [1, 2], [0, 4]]), "i32", (4,), [], [0, 1], [1, 0], 1, "max"),
    # Windows partially out of bounds are skipped entirely (a (3, 2) window in (6, 5)):
    # starts (4, 0) and (0, 4) overhang, (-1, 1) is negative, (9, 9) is far outside.
    Scatter(
        "window_out_of_bounds",
        (6, 5),
        _idx([[0, 0], [4, 0], [3, 3], [0, 4], [-1, 1], [9, 9], [2, 1]]),
        "i32",
        (7, 3, 2),
        [1, 2],
        [],
        [0, 1],
        1,
        type="i32",
    ),
    # Fully and partially out of bounds single elements and rows, set semantics.
    Scatter("rows_out_of_bounds", (4, 3), _idx([[3], [4], [-1], [0], [100]], "i8"), "i8", (5, 3), [1], [0], [0], 1, "set"),
    # The conformance example (index map [1, 0], start 9 out of bounds).
    Scatter(
        "spec_3d",
        (3, 4, 2),
        np.array([[[0, 2], [1, 0], [2, 1]], [[0, 1], [1, 0], [0, 9]]], dtype=np.int64),
        "i64",
        (2, 3, 2, 2),
        [2, 3],
        [0],
        [1, 0],
        2,
        type="i64",
        hints=", indices_are_sorted = false, unique_indices = false",
    ),
    # The conformance batching example.
    Scatter(
        "batching_3d",
        (2, 3, 4, 2),
        np.array(
            [[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
            dtype=np.int64,
        ),
        "i64",
        (2, 2, 3, 2, 2),
        [3, 4],
        [1],
        [2, 1],
        3,
        type="i64",
        input_batching=[0],
        indices_batching=[1],
    ),
    # Per-element scatter with a batching dim (torch's scatter_add along dim 1).
    Scatter(
        "along_axis",
        (3, 5),
        _idx([[0, 4, 0, 2], [1, 1, 1, 3], [4, 9, 0, -1]]),
        "i32",
        (3, 4),
        [],
        [1],
        [1],
        2,
        type="i32",
        input_batching=[0],
        indices_batching=[0],
    ),
    # index_vector_dim in the middle; window dims after both scatter dims.
    Scatter(
        "index_vector_middle",
        (5, 4, 3),
        _idx([[[0, 1, 4], [1, 2, 2]], [[3, 0, 3], [1, 1, 1]]]),
        "i32",
        (2, 3, 3),
        [2],
        [0, 1],
        [0, 1],
        1,
        type="i32",
    ),
    # Window dims before the scatter dim: updates (2 rows, 4 index vectors); colliding
    # set updates resolve in row-major update order, not index-vector order.
    Scatter("window_first_set", (5,), _idx([[0], [1], [2], [1]]), "i32", (2, 4), [0], [], [0], 1, "set", type="i32"),
    # A rank-0 index array: one dynamic-update-slice-like window, clamping not applied.
    Scatter("scalar_index", (6, 4), _idx(2), "i32", (3, 4), [0, 1], [], [0], 0, "set"),
    Scatter("scalar_index_oob", (6, 4), _idx(4), "i32", (3, 4), [0, 1], [], [0], 0, "set"),
    # Unsigned index types: 255 and 2**63 are out of bounds (not negative).
    Scatter("unsigned_ui8", (6,), np.array([1, 255, 5, 1, 6], dtype=np.uint8), "ui8", (5,), [], [0], [0], 1, type="i32"),
    Scatter(
        "unsigned_ui64",
        (6,),
        np.array([[2], [2**63], [2**64 - 1], [3]], dtype=np.uint64),
        "ui64",
        (4,),
        [],
        [0],
        [0],
        1,
        type="i32",
    ),
    Scatter("signed_i16", (7,), np.array([[-1], [6], [7], [-32768], [0]], dtype=np.int16), "i16", (5,), [], [0], [0], 1),
    # Variadic: values and tags, the larger value wins with its tag.
    Scatter("variadic_argmax", (5,), _idx([[0], [3], [0], [4], [3], [7]]), "i32", (6,), [], [0], [0], 1, variadic=True),
    # bf16: the f32 sum rounded once (256 + 1 + 1 + 1 = 259 -> 260), not 256.
    Scatter("bf16_add", (2,), _idx([[0], [0], [0], [1]]), "i32", (4,), [], [0], [0], 1, type="bf16"),
    Scatter("bf16_set", (4, 2), _idx([[3], [1], [3]]), "i32", (3, 2), [1], [0], [0], 1, "set", type="bf16"),
    Scatter("pred_or", (6,), _idx([[0], [2], [2], [5], [9]]), "i32", (5,), [], [0], [0], 1, "or", type="i1"),
    Scatter("pred_set", (3, 2), _idx([[1], [0], [1]]), "i32", (3, 2), [1], [0], [0], 1, "set", type="i1"),
    # A computation in a wider type than the operand (f16 operand, f32 result).
    Scatter("promoted_f16", (4,), _idx([[1], [1], [3]]), "i32", (3,), [], [0], [0], 1, "max", type="f16", compute_type="f32"),
    Scatter("unique_hint", (5,), _idx([[4], [0], [2]]), "i32", (3,), [], [0], [0], 1, "set", hints=", unique_indices = true"),
    # Nothing to apply.
    Scatter("no_updates", (4,), np.zeros((0, 1), dtype=np.int32), "i32", (0,), [], [0], [0], 1),
]


def _scatter_inputs(case: Scatter, rng: np.random.Generator) -> list[np.ndarray]:
    if case.variadic:
        x = rng.integers(-5, 5, case.operand).astype(np.float32)
        tags = np.full(case.operand, -1, np.int32)
        u = rng.integers(-5, 5, case.updates).astype(np.float32)
        return [x, tags, case.indices, u, np.arange(u.size, dtype=np.int32).reshape(case.updates)]
    if case.name == "bf16_add":
        return [
            np.array([256, 8], dtype=ml_dtypes.bfloat16),
            case.indices,
            np.array([1, 1, 1, 1], dtype=ml_dtypes.bfloat16),
        ]
    if case.computation == "mul":
        return [_values(rng, case.operand, case.type), case.indices, rng.integers(-3, 4, case.updates).astype(DTYPES[case.type])]
    return [_values(rng, case.operand, case.type), case.indices, _values(rng, case.updates, case.type)]


def run_scatter_reference(case: Scatter, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    if case.variadic:
        x, tags, indices, u, ut = inputs

        def argmax(a: float, at: int, b: float, bt: int) -> tuple[object, ...]:
            return (b, bt) if b > a else (a, at)

        return scatter_reference(case, [x, tags], indices, [u, ut], argmax)
    x, indices, u = inputs
    fn = COMPUTATIONS[case.computation][1]
    result = DTYPES[case.compute_type or case.type]
    # bf16 computes in f32 and rounds once; f16 -> f32 promotion converts first.
    wide = np.dtype(np.float32) if result == DTYPES["bf16"] else result
    (out,) = scatter_reference(case, [x.astype(wide)], indices, [u.astype(wide)], lambda a, b: (wide.type(fn(a, b)[0]),))
    return [out.astype(result)]


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

# The updates are the operand itself (its buffer must not be written in place while
# it is still read), and a gather of a computed operand feeding a computation.
ALIASING = """func.func @scatter_self(%x: tensor<4xi32>, %i: tensor<4x1xi32>) -> tensor<4xi32> {
  %r = "xla.scatter"(%x, %i, %x) <{scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    xla.return %b : tensor<i32>
  }) : (tensor<4xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

func.func @gather_computed(%x: tensor<4xi32>, %i: tensor<3x1xi32>) -> (tensor<3xi32>, tensor<4xi32>) {
  %y = xla.add %x, %x : tensor<4xi32>
  %g = "xla.gather"(%y, %i) <{dimension_numbers = #xla.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4xi32>, tensor<3x1xi32>) -> tensor<3xi32>
  %n = xla.negate %g : tensor<3xi32>
  %s = "xla.scatter"(%y, %i, %n) <{scatter_dimension_numbers = #xla.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = xla.add %a, %b : tensor<i32>
    xla.return %c : tensor<i32>
  }) : (tensor<4xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<4xi32>
  func.return %n, %s : tensor<3xi32>, tensor<4xi32>
}"""

MODULE = "\n\n".join([*(c.function() for c in GATHERS), *(c.function() for c in SCATTERS), ALIASING])


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, "gather_" + GATHERS[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


@pytest.mark.parametrize("case", GATHERS, ids=[c.name for c in GATHERS])
def test_gather(module: str, case: Gather) -> None:
    f = compile(module, "gather_" + case.name)
    operand = _values(np.random.default_rng(len(case.name)), case.operand, case.type)
    got = np.asarray(f(operand, case.indices))
    want = gather_reference(case, operand, case.indices)
    assert got.shape == want.shape == case.out_shape()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case", SCATTERS, ids=[c.name for c in SCATTERS])
def test_scatter(module: str, case: Scatter) -> None:
    f = compile(module, "scatter_" + case.name)
    inputs = _scatter_inputs(case, np.random.default_rng(len(case.name)))
    originals = [x.copy() for x in inputs]
    got = f(*inputs)
    got_list = list(got) if case.variadic else [got]
    wants = run_scatter_reference(case, inputs)
    assert len(got_list) == len(wants)
    for g, want in zip(got_list, wants):
        g = np.asarray(g)
        assert g.shape == want.shape
        assert g.dtype == want.dtype
        np.testing.assert_array_equal(g, want)
    for x, original in zip(inputs, originals):
        np.testing.assert_array_equal(x, original)  # the inputs are not modified


def test_spec_examples(module: str) -> None:
    """The StableHLO interpreter's expected results for the two 3-d examples."""
    operand = np.arange(1, 25, dtype=np.int64).reshape(3, 4, 2)
    gather = next(c for c in GATHERS if c.name == "spec_3d")
    np.testing.assert_array_equal(
        compile(module, "gather_spec_3d")(operand, gather.indices),
        [
            [[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
            [[[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]]],
        ],
    )
    scatter = next(c for c in SCATTERS if c.name == "spec_3d")
    ones = np.ones(scatter.updates, np.int64)
    np.testing.assert_array_equal(
        compile(module, "scatter_spec_3d")(operand, scatter.indices, ones),
        [
            [[1, 2], [5, 6], [7, 8], [7, 8]],
            [[10, 11], [12, 13], [14, 15], [16, 17]],
            [[18, 19], [20, 21], [21, 22], [23, 24]],
        ],
    )


def test_scatter_reads_its_operand_as_updates(module: str) -> None:
    """scatter(x, i, x) with set: every update reads the ORIGINAL x (no in-place
    writes into the buffer that is still read)."""
    got = compile(module, "scatter_self")(np.array([10, 20, 30, 40], np.int32), _idx([[1], [2], [3], [0]]))
    np.testing.assert_array_equal(got, [40, 10, 20, 30])


def test_gather_and_scatter_of_a_computed_value(module: str) -> None:
    x = np.array([1, 2, 3, 4], np.int32)
    negated, scattered = compile(module, "gather_computed")(x, _idx([[3], [0], [3]]))
    np.testing.assert_array_equal(negated, [-8, -2, -8])
    np.testing.assert_array_equal(scattered, [0, 4, 6, -8])  # 8 - 8 - 8 at 3, 2 - 2 at 0


def test_bf16_accumulates_in_f32(module: str) -> None:
    """256 + 1 + 1 + 1 in f32 (259) rounds to 260 in bf16; step by step it stays 256."""
    case = next(c for c in SCATTERS if c.name == "bf16_add")
    got = compile(module, "scatter_" + case.name)(*_scatter_inputs(case, np.random.default_rng(0)))
    np.testing.assert_array_equal(np.asarray(got).astype(np.float32), [260, 9])


def test_partial_window_skipped(module: str) -> None:
    """A window hanging over the edge changes nothing, not even its in-bounds part."""
    case = next(c for c in SCATTERS if c.name == "window_out_of_bounds")
    x = np.zeros(case.operand, np.int32)
    indices = _idx([[4, 0], [0, 4], [-1, 1], [5, 4], [0, 0], [0, 0], [0, 0]])
    u = np.zeros(case.updates, np.int32)
    u[:4] = 1
    got = compile(module, "scatter_" + case.name)(x, indices, u)
    np.testing.assert_array_equal(got, np.zeros(case.operand, np.int32))


def test_reference_skips_whole_window() -> None:
    """The reference itself: a (2,) window starting at 3 of a (4,) operand is skipped."""
    case = Scatter("t", (4,), _idx([[3], [1]]), "i32", (2, 2), [1], [], [0], 1, type="i32")
    x = np.zeros(4, np.int32)
    (ref,) = run_scatter_reference(case, [x, case.indices, np.ones((2, 2), np.int32)])
    np.testing.assert_array_equal(ref, [0, 1, 1, 0])


def test_gather_from_empty_operand_is_an_error() -> None:
    """A size-0 collapsed slice of an empty operand has nothing to read for a
    non-empty result: a verifier error naming the op and its line (it was a compile
    error of the lowering; the verifier now says so for xla-opt too)."""
    src = """func.func @g(%x: tensor<0x3xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  %r = "xla.gather"(%x, %i) <{dimension_numbers = #xla.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 0, 3>}> : (tensor<0x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}"""
    with pytest.raises(XlaProgramError, match=r"<string>:2:3: .*operand dimension 0 \(in collapsed_slice_dims\) has size 0"):
        compile(src, "g")
