"""`gather` and `scatter`: data-dependent reads and writes through an index array.

Both follow the spec's index arithmetic directly (spec: Gather, Scatter), batching
dimensions included: an operand index is the sum of a *start* (an index vector read
from the index array, placed by `start_index_map` / `scatter_dims_to_operand_dims`),
the *window/offset* coordinates (placed on the operand dimensions that are neither
collapsed/inserted nor batching dimensions) and the *batching* coordinates (placed
on the operand's batching dimensions). Index values of every integer type are read
as `index` (sign-extended for signed types, zero-extended for unsigned ones).

`gather` → one all-parallel `linalg.generic` over the result, as MLIR's
stablehlo-to-linalg does: its body computes the operand index of its element from
the `linalg.index` values, reading the start indices with `tensor.extract` from the
index array, and reads the operand with `tensor.extract` (both become
`memref.load`s). Each start is clamped to `[0, operand_dim - slice_size]` (the
informal description's dynamic slice), so every slice lies in the operand. The
generic has no inputs (its iteration space is the result's), so nothing fuses into
it, and a consumer reads its result like any other tensor.

`scatter` → the result starts as the inputs (converted first where the update
computation works in a wider type), then an `scf.for` nest over the dimensions of
the updates, in order, carries the results: the updates are applied one element at
a time in row-major update-index order, which is a valid schedule for the spec's
unspecified order and makes `indices_are_sorted` / `unique_indices` mere hints
(colliding updates combine in update-index order). The index vector of an update
depends only on the scatter dimensions, so it is read, placed and bounds-checked
once, right after the loop of the last scatter dimension (at the top when there is
none); the loops of the remaining (window) dimensions run inside.

An update whose window would not lie entirely in the operand is skipped as a
whole, as XLA does (its HLO evaluator performs no part of an update whose region
is partly out of bounds; JAX documents its `FILL_OR_DROP` scatters, plain XLA
scatters, as discarding the entire window), whereas the spec's summary ("if O is
a valid index for output"), read element by element, would apply the part of an
overhanging window that fits. Start `s` of operand dimension `d` must satisfy
`0 <= s <= dim(d) - window(d)`: one unsigned comparison of the sign- or
zero-extended start. The skip is a *guard loop* of trip count 1 or 0 around the
window loops rather than an `scf.if`: `bufferize` carries a loop's tensors in one
buffer written in place, whereas an `scf.if` yielding a tensor gets a fresh
result buffer and a copy of the whole result per update. The innermost body reads
the current values and the updates, computes the update computation made scalar
(it receives `(current values..., update values...)` as the spec says) and
inserts the new values: `tensor.extract`/`tensor.insert` on the carried tensors,
which bufferize makes loads and stores in place (an extract before the insert in
the same block does not force a copy).

bf16 scatters compute in f32 and round once at the end, as XLA's CPU backend does
(its float normalization runs scatter, computation included, in f32), except when
the computation looks at bf16 bits (`reduction.f32_reducer`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    BFloat16Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.scalar import convert_element, signless_type
from lowering.xla_to_linalg.converter import (
    Converter,
    empty,
    generic,
    identity_map,
    lowers,
    map_tensor,
    parallel,
    result_tensor_type,
    round_floats,
)
from lowering.xla_to_linalg.elementwise import captured_scalars, scalar_region_results
from lowering.xla_to_linalg.reduction import f32_reducer
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.gather_scatter import GatherOp, ScatterOp
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, shape_of

# ---------------------------------------------------------------------------
# Index values
# ---------------------------------------------------------------------------


def _constant(b: Builder, value: int) -> SSAValue:
    return b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def _is_unsigned(element: Attribute) -> bool:
    """Indices of this xla element type are zero-extended (unsigned types, PRED)."""
    assert isinstance(element, IntegerType)
    return element.signedness.data == Signedness.UNSIGNED or element.width.data == 1


def _read_index(b: Builder, indices: SSAValue, position: Sequence[SSAValue], element: Attribute) -> SSAValue:
    """The element of the index array at `position` as an `index`: sign-extended for
    signed types, zero-extended for unsigned ones (a `ui64` above 2^63 keeps its
    bits, so it compares as a huge unsigned value)."""
    assert isinstance(element, IntegerType)
    scalar = b.insert(tensor.ExtractOp(indices, position, IntegerType(element.width.data))).result
    if _is_unsigned(element) and element.width.data < 64:
        scalar = b.insert(arith.ExtUIOp(scalar, i64)).result
    return b.insert(arith.IndexCastOp(scalar, IndexType())).result


def _clamp(b: Builder, constant: Callable[[int], SSAValue], start: SSAValue, high: int, unsigned: bool) -> SSAValue:
    """`start` clamped to `[0, high]` (an unsigned start is never below 0)."""
    start = b.insert((arith.MinUIOp if unsigned else arith.MinSIOp)(start, constant(high))).result
    if not unsigned:
        start = b.insert(arith.MaxSIOp(start, constant(0))).result
    return start


def _constants(b: Builder) -> Callable[[int], SSAValue]:
    """An index constant maker that creates each value once, at `b`."""
    made: dict[int, SSAValue] = {}

    def constant(value: int) -> SSAValue:
        if value not in made:
            made[value] = _constant(b, value)
        return made[value]

    return constant


def _add(b: Builder, a: SSAValue | None, c: SSAValue) -> SSAValue:
    return c if a is None else b.insert(arith.AddiOp(a, c)).result


def _index_vector_positions(
    constant: Callable[[int], SSAValue], batch: Sequence[SSAValue], count: int, index_vector_dim: int, indices_rank: int
) -> list[list[SSAValue]]:
    """The positions in the index array of the `count` components of the index vector
    at batch coordinates `batch`: component k sits at `index_vector_dim` (none when it
    is the implicit trailing dimension)."""
    if index_vector_dim == indices_rank:
        return [list(batch)]
    return [[*batch[:index_vector_dim], constant(k), *batch[index_vector_dim:]] for k in range(count)]


# ---------------------------------------------------------------------------
# Gather
# ---------------------------------------------------------------------------


@lowers(GatherOp)
def lower_gather(cx: Converter, op: GatherOp, builder: Builder) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    out_shape = result_type.get_shape()
    out_rank = len(out_shape)
    if 0 in out_shape:
        return [empty(builder, result_type)]
    operand_shape = shape_of(op.operand.type)
    if 0 in operand_shape:
        raise LoweringError("gather from an operand without elements into a non-empty result", op)
    dn = op.dimension_numbers
    offset_dims = dn.ints("offset_dims")
    collapsed = dn.ints("collapsed_slice_dims")
    operand_batching = dn.ints("operand_batching_dims")
    indices_batching = dn.ints("start_indices_batching_dims")
    start_index_map = dn.ints("start_index_map")
    index_vector_dim = dn.int_value("index_vector_dim")
    slice_sizes = ints_of(op.slice_sizes)
    indices_rank = len(shape_of(op.start_indices.type))
    index_element = element_type_of(op.start_indices.type)
    unsigned = _is_unsigned(index_element)

    # Result batch dimension k runs along index array dimension k (k + 1 past
    # index_vector_dim); the offset dimensions run along the operand dimensions that
    # are neither collapsed nor batching dimensions, in order.
    batch_dims = [d for d in range(out_rank) if d not in offset_dims]
    indices_dims = [j for j in range(indices_rank) if j != index_vector_dim]
    result_dim_of_indices_dim = dict(zip(indices_dims, batch_dims, strict=True))
    dropped = {*collapsed, *operand_batching}
    window_operand_dims = [d for d in range(len(operand_shape)) if d not in dropped]
    operand = cx.get(op.operand)
    indices = cx.get(op.start_indices)
    element = result_type.element_type

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        ivs = [b.insert(IndexOp(d)).result for d in range(out_rank)]
        coords: list[SSAValue | None] = [None] * len(operand_shape)
        for k, d in enumerate(window_operand_dims):
            coords[d] = ivs[offset_dims[k]]
        for d, j in zip(operand_batching, indices_batching, strict=True):
            coords[d] = ivs[result_dim_of_indices_dim[j]]
        batch = [ivs[d] for d in batch_dims]
        constant = _constants(b)
        positions = _index_vector_positions(constant, batch, len(start_index_map), index_vector_dim, indices_rank)
        for d, position in zip(start_index_map, positions, strict=True):
            start = _read_index(b, indices, position, index_element)
            # a collapsed dimension may have slice size 0 (StableHLO allows it) and still
            # be read at offset 0: clamp as for size 1, so the read stays in bounds
            high = operand_shape[d] - max(slice_sizes[d], 1)
            coords[d] = _add(b, coords[d], _clamp(b, constant, start, high, unsigned))
        index = [c if c is not None else constant(0) for c in coords]
        return [b.insert(tensor.ExtractOp(operand, index, element)).result]

    return generic(builder, [], [], [empty(builder, result_type)], [identity_map(out_rank)], parallel(out_rank), body)


# ---------------------------------------------------------------------------
# Scatter
# ---------------------------------------------------------------------------


def _is_bf16(t: Attribute) -> bool:
    return isinstance(t, BFloat16Type)


def _computation(op: ScatterOp) -> tuple[Region, list[Attribute]]:
    """The update computation to inline and the xla element type each result is
    computed in: the computation's own, or f32 for bf16 (XLA's CPU backend runs bf16
    scatters in f32) unless the computation reads bf16 bits."""
    args = op.update_computation.block.args
    elements = [element_type_of(a.type) for a in args[: len(op.inputs)]]
    if any(map(_is_bf16, elements)):
        region = f32_reducer(op.update_computation)
        if region is not None:
            return region, [f32 if _is_bf16(e) else e for e in elements]
    return op.update_computation, elements


def _converted(builder: Builder, op: ScatterOp, value: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """Tensor `value` of xla element type `src` converted element-wise to `dst`."""
    if src == dst:
        return value
    t = value.type
    assert isinstance(t, TensorType)
    return map_tensor(builder, value, TensorType(dst, t.get_shape()), lambda b, x: convert_element(b.insert, op, x, src, dst))


def _loop(
    builder: Builder,
    bounds: tuple[SSAValue, SSAValue, SSAValue],
    carried: Sequence[SSAValue],
    body: Callable[[Builder, SSAValue, list[SSAValue]], list[SSAValue]],
) -> list[SSAValue]:
    """`scf.for %i = lower to upper step step` (`bounds`) carrying `carried`;
    `body(b, i, carried)` returns the values to yield."""
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    b = Builder(InsertPoint.at_end(block))
    yielded = body(b, block.args[0], list(block.args[1:]))
    b.insert(scf.YieldOp(*yielded))
    loop = builder.insert(scf.ForOp(*bounds, list(carried), block))
    return list(loop.results)


@lowers(ScatterOp)
def lower_scatter(cx: Converter, op: ScatterOp, builder: Builder) -> Sequence[SSAValue]:
    region, compute_elements = _computation(op)
    input_elements = [element_type_of(v.type) for v in op.inputs]
    results = [
        _converted(builder, op, cx.get(v), e, c)
        for v, e, c in zip(op.inputs, input_elements, compute_elements, strict=True)
    ]
    if 0 not in shape_of(op.inputs[0].type) and 0 not in shape_of(op.updates[0].type):
        results = _ScatterNest(cx, op, region, compute_elements, builder).apply(results)
    outputs: list[SSAValue] = []
    for i, (r, c) in enumerate(zip(results, compute_elements, strict=True)):
        final = result_tensor_type(op, i)
        outputs.append(r if signless_type(c) == final.element_type else round_floats(builder, r, final))
    return outputs


class _ScatterNest:
    """Builds the loop nest applying every update (module docstring)."""

    def __init__(
        self, cx: Converter, op: ScatterOp, region: Region, compute_elements: Sequence[Attribute], builder: Builder
    ):
        self.op = op
        self.builder = builder
        self.const = _constants(builder)
        """Index constants, made once before the loop nest."""
        self.region = region
        self.captured = captured_scalars(cx, op, builder)
        self.compute_elements = list(compute_elements)
        self.input_elements = [element_type_of(v.type) for v in op.inputs]
        self.indices = cx.get(op.scatter_indices)
        self.updates = cx.get_all(op.updates)
        dn = op.scatter_dimension_numbers
        self.window_dims = dn.ints("update_window_dims")
        self.input_batching = dn.ints("input_batching_dims")
        self.indices_batching = dn.ints("scatter_indices_batching_dims")
        self.index_map = dn.ints("scatter_dims_to_operand_dims")
        self.index_vector_dim = dn.int_value("index_vector_dim")
        self.operand_shape = shape_of(op.inputs[0].type)
        self.updates_shape = shape_of(op.updates[0].type)
        self.indices_rank = len(shape_of(op.scatter_indices.type))
        self.index_element = element_type_of(op.scatter_indices.type)
        rank = len(self.operand_shape)
        # Update dimension k of update_scatter_dims runs along index array dimension
        # k (k + 1 past index_vector_dim); window dimension k along the k-th operand
        # dimension that is neither inserted nor a batching dimension.
        self.scatter_dims = [d for d in range(len(self.updates_shape)) if d not in self.window_dims]
        indices_dims = [j for j in range(self.indices_rank) if j != self.index_vector_dim]
        self.update_dim_of_indices_dim = dict(zip(indices_dims, self.scatter_dims, strict=True))
        dropped = {*dn.ints("inserted_window_dims"), *self.input_batching}
        self.window_operand_dims = [d for d in range(rank) if d not in dropped]
        self.window_size = [1] * rank
        for k, d in enumerate(self.window_operand_dims):
            self.window_size[d] = self.updates_shape[self.window_dims[k]]
        # The index vector is read once its scatter coordinates are all known.
        self.check_level = max(self.scatter_dims) + 1 if self.scatter_dims else 0

    def apply(self, results: list[SSAValue]) -> list[SSAValue]:
        return self.level(self.builder, 0, [], None, results)

    def loop(
        self,
        b: Builder,
        upper: SSAValue,
        carried: list[SSAValue],
        body: Callable[[Builder, SSAValue, list[SSAValue]], list[SSAValue]],
    ) -> list[SSAValue]:
        return _loop(b, (self.const(0), upper, self.const(1)), carried, body)

    def level(
        self,
        b: Builder,
        level: int,
        ivs: list[SSAValue],
        starts: list[SSAValue | None] | None,
        carried: list[SSAValue],
    ) -> list[SSAValue]:
        """The code for update dimensions `level...`, the outer ones at `ivs`;
        `starts` is the placed index vector once it has been read."""
        if starts is None and level == self.check_level:
            return self.check(b, ivs, carried, lambda bb, s, c: self.level(bb, level, ivs, s, c))
        if level == len(self.updates_shape):
            assert starts is not None
            return self.element(b, ivs, starts, carried)
        size = self.updates_shape[level]
        if size == 1:
            return self.level(b, level + 1, [*ivs, self.const(0)], starts, carried)
        return self.loop(b, self.const(size), carried, lambda bb, i, c: self.level(bb, level + 1, [*ivs, i], starts, c))

    def check(
        self,
        b: Builder,
        ivs: list[SSAValue],
        carried: list[SSAValue],
        inner: Callable[[Builder, list[SSAValue | None], list[SSAValue]], list[SSAValue]],
    ) -> list[SSAValue]:
        """Read and place the index vector of the updates at scatter coordinates
        `ivs`; run `inner` only when the whole window lies in the operand."""
        batch = [ivs[d] for d in self.scatter_dims]
        positions = _index_vector_positions(
            self.const, batch, len(self.index_map), self.index_vector_dim, self.indices_rank
        )
        starts: list[SSAValue | None] = [None] * len(self.operand_shape)
        in_bounds: SSAValue | None = None
        for d, position in zip(self.index_map, positions, strict=True):
            start = _read_index(b, self.indices, position, self.index_element)
            high = self.const(self.operand_shape[d] - self.window_size[d])
            fits = b.insert(arith.CmpiOp(start, high, "ule")).result
            in_bounds = fits if in_bounds is None else b.insert(arith.AndIOp(in_bounds, fits)).result
            starts[d] = start
        if in_bounds is None:
            return inner(b, starts, carried)
        trips = b.insert(arith.SelectOp(in_bounds, self.const(1), self.const(0))).result
        return self.loop(b, trips, carried, lambda bb, _, c: inner(bb, starts, c))

    def element(
        self, b: Builder, ivs: list[SSAValue], starts: list[SSAValue | None], carried: list[SSAValue]
    ) -> list[SSAValue]:
        """Apply the update at `ivs` to the carried results."""
        coords = list(starts)
        for k, d in enumerate(self.window_operand_dims):
            coords[d] = _add(b, coords[d], ivs[self.window_dims[k]])
        for d, j in zip(self.input_batching, self.indices_batching, strict=True):
            coords[d] = ivs[self.update_dim_of_indices_dim[j]]
        index = [c if c is not None else self.const(0) for c in coords]
        current = [
            b.insert(tensor.ExtractOp(r, index, signless_type(e))).result
            for r, e in zip(carried, self.compute_elements, strict=True)
        ]
        values: list[SSAValue] = []
        for u, src, dst in zip(self.updates, self.input_elements, self.compute_elements, strict=True):
            value = b.insert(tensor.ExtractOp(u, ivs, signless_type(src))).result
            values.append(value if src == dst else convert_element(b.insert, self.op, value, src, dst))
        new = scalar_region_results(self.op, [*current, *values], b, region=self.region, captured=self.captured)
        return [b.insert(tensor.InsertOp(v, r, index)).result for v, r in zip(new, carried, strict=True)]


__all__ = ["lower_gather", "lower_scatter"]
