"""`linalg-tile-transposes`: element-wise generics that read an operand transposed
run tile by tile, the transposed tile copied through a small buffer (XLA's tiled
transpose emitter, with L1 in the role of GPU shared memory).

After `linalg-fold-broadcasts`, `x.T + y` is one generic reading `x` through
`(d0, d1) -> (d1, d0)`: its innermost loop walks `y` and the output along rows
but `x` down a column, one element per 4 KB row of a 1024-wide matrix. Every
access misses L1 and the TLB, and tiling alone does not help: rows 4 KB apart
share one L1 set, so a 32-row tile evicts itself. Here such a generic becomes
loops over `T x T` tiles of the two dimensions involved (the innermost one,
`v`, and the one the transposed operand has minor, `t`). Per tile, each
transposed operand's tile is read row by row (contiguously) into a `T x T`
buffer in transposed order, then the same generic runs on `memref.subview`s of
the other operands and on the buffer, now read in order. `T` is 8 (`TILE`), and
must divide both extents (no remainder tiles); the loop over tile rows
is an `scf.parallel` (each thread its own buffer) when `t` is the outermost
dimension with more than one iteration.

A generic qualifies when it has no reduction and no `linalg.index`, every
operand is a static memref read through a map of loop dimensions, some input's
minor dimension is `t != v` (its map is 2-D: `(..., v, ..., t)`), and every
output indexes both with `v` minor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowering.codegen.emitter import INDEX, Emitter
from lowering.codegen.fuse_reductions import DYNAMIC
from lowering.to_llvm.common import memref_strides

TILE = 8
"""The side of a tile. Not wider: a copy loop of 16 or 32 iterations is vectorized by
LLVM with scatter stores into the buffer, which Zen 4 runs microcoded (`x.T + y`
on 1024x1024 f32: 15 ms with 16 or 32, 1.2 ms with 8, 4-9 ms untiled)."""


@dataclass(frozen=True)
class TransposeTiling:
    t: int
    """The dimension the transposed inputs have minor."""
    v: int
    """The innermost dimension."""
    tile: int
    sizes: tuple[int, ...]
    transposed: tuple[int, ...]
    """The inputs copied through a buffer."""


def _dims(m: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in m.results):
        return None
    return [e.position for e in m.results if isinstance(e, AffineDimExpr)]


def tiling(op: GenericOp) -> TransposeTiling | None:
    """How `op` is tiled, or None to leave it alone."""
    iterators = [it.data for it in op.iterator_types.data]
    if op.res or len(iterators) < 2 or any(it != IteratorType.PARALLEL for it in iterators):
        return None
    if any(isinstance(o, IndexOp) for o in op.body.walk()):
        return None
    n = len(iterators)
    v = n - 1
    sizes = [-1] * n
    all_dims: list[list[int]] = []
    for value, m in zip(op.operands, op.indexing_maps.data):
        t = value.type
        dims = _dims(m.data)
        if dims is None or not isinstance(t, MemRefType) or any(s < 0 for s in t.get_shape()):
            return None
        try:
            memref_strides(t)
        except ValueError:
            return None
        for d, s in zip(dims, t.get_shape()):
            sizes[d] = s
        all_dims.append(dims)
    n_in = len(op.inputs)
    candidates = [k for k in range(n_in) if len(all_dims[k]) == 2 and all_dims[k][-1] != v and v in all_dims[k]]
    if not candidates or any(s < 1 for s in sizes):
        return None
    t = all_dims[candidates[0]][-1]
    transposed = tuple(k for k in candidates if all_dims[k] == [v, t])
    for dims in all_dims[n_in:]:
        if t not in dims or not dims or dims[-1] != v:
            return None
    if any(sizes[d] % TILE or sizes[d] <= TILE for d in (t, v)):
        return None
    return TransposeTiling(t, v, TILE, tuple(sizes), transposed)


def _subview(
    em: Emitter, value: SSAValue, dims: list[int], plan: TransposeTiling, ivs: dict[int, SSAValue]
) -> SSAValue:
    """The `tile`-sized view of `value` at the tile `ivs` (the other dimensions whole)."""
    t = value.type
    assert isinstance(t, MemRefType)
    shape = list(t.get_shape())
    offsets: list[SSAValue] = []
    static_offsets: list[int] = []
    sizes: list[int] = []
    for d, s in zip(dims, shape):
        if d in ivs:
            offsets.append(ivs[d])
            static_offsets.append(DYNAMIC)
            sizes.append(plan.tile)
        else:
            static_offsets.append(0)
            sizes.append(s)
    layout = StridedLayoutAttr(list(memref_strides(t)), None)
    result_type = MemRefType(t.get_element_type(), sizes, layout)
    return em.value(memref.SubviewOp(value, offsets, [], [], static_offsets, sizes, [1] * len(shape), result_type))


def _copy_transposed(em: Emitter, source: SSAValue, buffer: SSAValue) -> None:
    """`buffer[b, a] = source[a, b]`, reading `source` along its rows."""
    t = source.type
    assert isinstance(t, MemRefType)
    block = Block(arg_types=[t.get_element_type(), t.get_element_type()])
    block.add_op(YieldOp(block.args[0]))
    identity = AffineMap.identity(2)
    swapped = AffineMap(2, 0, (AffineDimExpr(1), AffineDimExpr(0)))
    parallel = IteratorTypeAttr(IteratorType.PARALLEL)
    em.add(
        GenericOp(
            [source],
            [buffer],
            Region(block),
            ArrayAttr([AffineMapAttr(identity), AffineMapAttr(swapped)]),
            ArrayAttr([parallel, parallel]),
            [],
        )
    )


def tile_transpose(op: GenericOp, plan: TransposeTiling) -> None:
    """Replace `op` by its loops over tiles."""
    em = Emitter()
    maps = [m.data for m in op.indexing_maps.data]
    dims = [_dims(m) or [] for m in maps]
    outer_t = next(d for d, s in enumerate(plan.sizes) if s > 1) == plan.t
    n = len(plan.sizes)

    def with_buffers(inner: Emitter, body: Callable[[Emitter, list[SSAValue]], None]) -> None:
        buffers = []
        for k in plan.transposed:
            t = op.operands[k].type
            assert isinstance(t, MemRefType)
            buffers.append(inner.value(memref.AllocOp([], [], MemRefType(t.get_element_type(), [plan.tile] * 2))))
        body(inner, buffers)
        for b in buffers:
            inner.add(memref.DeallocOp.get(b))

    def tile_body(inner: Emitter, ivs: dict[int, SSAValue], buffers: list[SSAValue]) -> None:
        operands: list[SSAValue] = []
        new_maps = list(op.indexing_maps.data)
        for k, (value, d) in enumerate(zip(op.operands, dims)):
            view = _subview(inner, value, d, plan, ivs)
            if k in plan.transposed:
                buffer = buffers[plan.transposed.index(k)]
                _copy_transposed(inner, view, buffer)
                view = buffer
                order = (AffineDimExpr(plan.t), AffineDimExpr(plan.v))
                new_maps[k] = AffineMapAttr(AffineMap(n, 0, order))
            operands.append(view)
        n_in = len(op.inputs)
        generic = GenericOp(operands[:n_in], operands[n_in:], op.body.clone(), ArrayAttr(new_maps), op.iterator_types, [])
        for name, attr in op.attributes.items():
            generic.attributes.setdefault(name, attr)
        inner.add(generic)

    def columns(inner: Emitter, ti: SSAValue, buffers: list[SSAValue]) -> None:
        def step(e: Emitter, tj: SSAValue, _: object) -> list[SSAValue]:
            tile_body(e, {plan.t: ti, plan.v: tj}, buffers)
            return []

        inner.loop(0, plan.sizes[plan.v], plan.tile, step)

    if outer_t:
        block = Block(arg_types=[INDEX])
        inner = Emitter(block=block)
        with_buffers(inner, lambda e, buffers: columns(e, block.args[0], buffers))
        block.add_op(scf.ReduceOp())
        loop = scf.ParallelOp([em.index(0)], [em.index(plan.sizes[plan.t])], [em.index(plan.tile)], Region(block))
        em.add(loop)
    else:

        def all_rows(e: Emitter, buffers: list[SSAValue]) -> None:
            def rows(r: Emitter, ti: SSAValue, _: object) -> list[SSAValue]:
                columns(r, ti, buffers)
                return []

            e.loop(0, plan.sizes[plan.t], plan.tile, rows)

        with_buffers(em, all_rows)
        loop = next(o for o in em.ops if isinstance(o, scf.ForOp))
    loop.attributes["tiled"] = StringAttr(f"transpose({plan.tile}x{plan.tile})")
    Rewriter().replace_op(op, em.ops, [])


@dataclass(frozen=True)
class LinalgTileTransposesPass(ModulePass):
    """Element-wise generics reading an operand transposed → loops over square tiles,
    the transposed tiles copied through a buffer."""

    name = "linalg-tile-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, GenericOp) and inner.parent is not None:
                plan = tiling(inner)
                if plan is not None:
                    tile_transpose(inner, plan)


__all__ = ["LinalgTileTransposesPass", "TransposeTiling", "tile_transpose", "tiling"]
