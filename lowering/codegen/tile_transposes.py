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
the other operands and on the buffer, now read in order. A 2-D generic of
vectorizable elements (not `i1`, not complex) with an `arith`/`math` body needs no
buffer: the tile's rows are loaded as vectors and transposed in registers by
shuffles, and the body runs on vectors of `T` lanes, a tile row at a time (`x.T + y`
on 1024x1024 f32: 1.37 ms to 0.97; through the buffer, its scalar stores stalled
the vector loads that read it back). `T` is 8 (`TILE`), and
must divide both extents (no remainder tiles).

The tiles run in blocks (`tile_block`: 64x64 elements of f32 with a 32 KiB L1,
half of it) where the extents allow: a row of blocks, block by block, each block
row of tiles by row of tiles. A row of tiles walks the transposed operand down a
whole column of tiles, 1024 rows 4 KiB apart for a 1024-wide f32 matrix: each of
their 64-byte lines is half used and evicted (lines 4 KiB apart share few L1 and
L2 sets, and no prefetcher follows a walk across pages) before the next row of
tiles comes back for its other half. In a block, its 64 rows of the transposed
operand are read by its 8 rows of tiles while still in L2.

In registers, the tiles of a row are placed by the first output's alignment
(`_aligned_columns`, read from its pointer at run time): from NumPy, whose arrays
start 16 bytes past a page, half of the 32-byte stores of 8x8 f32 tiles straddle
two cache lines, and on 4 KiB-strided rows that cost more than the transpose
itself. The first tile of a row starts at 0, the others at the first aligned
column plus multiples of the tile, one more at the end; the two at the ends
overlap their neighbours and write the same values again, which is why the
outputs must not be read by the body nor share a buffer with an input.

`x.T + y`, 1024x1024 f32 from NumPy, one core of a Cascade Lake, A/B in one
process: 4.24 ms as rows of tiles, 3.72 in blocks, 3.23 aligned, 2.68 both
(XLA 3.24). Tried and dropped (C experiments): 16x16 tiles in 512-bit registers
(slower: 16 rows of each operand per tile in one L1 set), loading every input
row of a tile before the first store (4 KiB aliasing of `y` and the output: no
difference), non-temporal stores, 16-byte halves of the loads and stores instead
of aligning (as slow as straddling).

The loop over rows of blocks is an `scf.parallel` when `t` is the outermost
dimension with more than one iteration; each row of blocks then has its own
buffer, all of them in one allocation made before the loop (an allocation and a
free per row would call the allocator `rows / 64` times).

A generic qualifies when it has no reduction and no `linalg.index`, every
operand is a static memref read through a map of loop dimensions, some input's
minor dimension is `t != v` (its map is 2-D: `(..., v, ..., t)`), and every
output indexes both with `v` minor.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    IntegerType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowering.codegen.emitter import INDEX, Emitter
from lowering.codegen.fuse_reductions import DYNAMIC
from lowering.codegen.target import DEFAULT_L1, get_target
from lowering.codegen.vectorize_reductions import BodyCloner
from lowering.memref_views import view_root
from lowering.to_llvm.common import memref_offset, memref_strides

TILE = 8
"""The side of a tile. Not wider: a copy loop of 16 or 32 iterations is vectorized by
LLVM with scatter stores into the buffer, which Zen 4 runs microcoded (`x.T + y`
on 1024x1024 f32: 15 ms with 16 or 32, 1.2 ms with 8, 4-9 ms untiled)."""


BLOCK_FRACTION = 2
"""A block of tiles covers at most this fraction (1/2) of the target's L1 in elements of
the transposed operand (64x64 f32 tiles in a 32 KiB L1)."""


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
    block: tuple[int, int]
    """Extents along `t` and `v` of a block of tiles run one after the other (the
    tiles of a block in rows along `v`): the block's rows of the transposed
    operand stay in L2 while all its tiles read them. `(tile, sizes[v])` is no
    blocking: a row of tiles at a time."""


def _dims(m: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in m.results):
        return None
    return [e.position for e in m.results if isinstance(e, AffineDimExpr)]


def tiling(op: GenericOp, l1: int = DEFAULT_L1) -> TransposeTiling | None:
    """How `op` is tiled for a target of `l1` bytes of L1 data cache, or None to
    leave it alone."""
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
    source = op.operands[candidates[0]].type
    assert isinstance(source, MemRefType)
    block = tile_block(sizes[t], sizes[v], _element_bytes(source), l1)
    return TransposeTiling(t, v, TILE, tuple(sizes), transposed, block)


def _element_bytes(t: MemRefType) -> int:
    element = t.get_element_type()
    width = getattr(element, "bitwidth", None)
    return max(1, width // 8) if isinstance(width, int) else 8


def tile_block(size_t: int, size_v: int, element_bytes: int, l1: int) -> tuple[int, int]:
    """The block of tiles (along `t`, along `v`): square, the largest power of two
    times `TILE` whose tile of the transposed operand fills at most
    `1 / BLOCK_FRACTION` of `l1`, then shrunk along each dimension to a power of two
    times `TILE` that divides its extent; a block one tile wide or high is none
    (`(TILE, size_v)`: a row of tiles at a time). Walking the tiles of a row of blocks in
    order, as without blocks, the transposed operand is read down a whole column of
    tiles (1024 rows of 4 KiB apart: each 64-byte line of it is fetched, half used,
    and evicted before the next row of tiles reads its other half; rows 4 KiB apart
    share few L1 and L2 sets). In a block, its `block_v` rows are read again by each
    of the block's rows of tiles while still in L2 (`x.T + y` on 1024x1024 f32 on a
    Cascade Lake: 64x64 blocks took 13-15% off the time in C)."""
    side = TILE
    while (2 * side) * (2 * side) * element_bytes <= l1 // BLOCK_FRACTION:
        side *= 2

    def fit(size: int) -> int:
        b = side
        while size % b:
            b //= 2
        return max(b, TILE)

    block = fit(size_t), fit(size_v)
    return (TILE, size_v) if TILE in block else block


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


def _vector_element(t: MemRefType) -> bool:
    """Whether tiles of `t`'s elements transpose in registers: f32, f64 and integers
    of 8 to 64 bits (not `i1`, complex, or the narrow floats, whose arithmetic
    `arith-emulate-unsupported-floats` lowers on scalars only)."""
    element = t.get_element_type()
    if isinstance(element, (Float32Type, Float64Type)):
        return True
    return isinstance(element, IntegerType) and element.bitwidth in (8, 16, 32, 64)


def _transposed_rows(em: Emitter, source: SSAValue, tile: int) -> list[SSAValue]:
    """The columns of the `tile x tile` view `source` as vectors: its rows loaded
    as vectors, transposed by `log2(tile)` rounds of two-vector shuffles (row `i`
    and row `i + tile/2` interleaved, their first halves into row `2i`, their
    second into row `2i + 1`: after the last round row `k` holds column `k`)."""
    t = source.type
    assert isinstance(t, MemRefType)
    vt = VectorType(t.get_element_type(), [tile])
    zero = em.index(0)
    rows = [em.value(vector.LoadOp(source, [em.index(a), zero], vt)) for a in range(tile)]
    half = tile // 2
    low = DenseArrayBase.from_list(i64, [x for p in range(half) for x in (p, tile + p)])
    high = DenseArrayBase.from_list(i64, [x for p in range(half, tile) for x in (p, tile + p)])
    for _ in range(tile.bit_length() - 1):
        mixed: list[SSAValue] = []
        for i in range(half):
            a, b = rows[i], rows[i + half]
            mixed.append(em.value(vector.ShuffleOp(a, b, low, result_type=vt)))
            mixed.append(em.value(vector.ShuffleOp(a, b, high, result_type=vt)))
        rows = mixed
    return rows


def _in_registers(op: GenericOp, plan: TransposeTiling) -> bool:
    """Whether a tile of `op` is computed in vector registers: a 2-D generic whose
    operands are vectorizable element types and whose body is `arith`/`math`."""
    if len(plan.sizes) != 2:
        return False
    if not all(isinstance(v.type, MemRefType) and _vector_element(v.type) for v in op.operands):
        return False
    return all(
        isinstance(o, YieldOp) or o.name.startswith(("arith.", "math.")) for o in op.body.block.ops
    )


def _vector_tile(em: Emitter, op: GenericOp, plan: TransposeTiling, views: list[SSAValue]) -> None:
    """One tile of `op` in vector registers, a row (`t` fixed) at a time along `v`:
    the transposed operands' columns come from `_transposed_rows`, in-order
    operands are loaded as vectors, operands indexed by `t` alone as scalars,
    and the body is cloned on vectors of `tile` lanes. Through a buffer instead,
    the tile's scalar stores stall the vector loads that read it back (store
    forwarding fails), and LLVM vectorizes the copy with gathers."""
    tile, n_in = plan.tile, len(op.inputs)
    dims = [_dims(m.data) or [] for m in op.indexing_maps.data]
    columns = {k: _transposed_rows(em, views[k], tile) for k in plan.transposed}
    zero = em.index(0)
    cloner = BodyCloner(op, plan.v)
    for i in range(tile):
        row = em.index(i)
        args: list[SSAValue] = []
        for k, (view, d) in enumerate(zip(views, dims)):
            element = view.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
            vt = VectorType(element, [tile])
            if k in columns:
                args.append(columns[k][i])
            elif k >= n_in and not op.body.block.args[k].uses:
                args.append(args[0])  # an output the body does not read: not loaded
            elif d == [plan.t, plan.v]:
                args.append(em.value(vector.LoadOp(view, [row, zero], vt)))
            elif d == [plan.v]:
                args.append(em.value(vector.LoadOp(view, [zero], vt)))
            else:  # [t] or []: a scalar the cloner broadcasts
                args.append(em.value(memref.LoadOp.get(view, [row] if d else [])))
        results = cloner.emit(em, args, [0, 0], tile)
        for value, view in zip(results, views[n_in:]):
            element = view.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
            if not isinstance(value.type, VectorType):
                value = em.value(vector.BroadcastOp(value, VectorType(element, [tile])))
            em.add(vector.StoreOp(value, view, [row, zero]))


def _shiftable(op: GenericOp, plan: TransposeTiling) -> SSAValue | None:
    """The output whose alignment places the tiles along `v`, if they may be placed by
    it (see `_aligned_columns`): a tile computed twice must write the same values, so
    no output is read by the body or is a view of a buffer an input views; its rows
    must all be aligned alike (a row a whole number of vectors apart) and its view's
    offset known (from an allocation or argument viewed from offset 0)."""
    n_in = len(op.inputs)
    if any(a.uses for a in op.body.block.args[n_in:]):
        return None
    roots = {view_root(v) for v in op.inputs}
    if any(view_root(v) in roots for v in op.outputs):
        return None
    anchor = op.outputs[0]
    t = anchor.type
    root = view_root(anchor).type
    if not isinstance(t, MemRefType) or not isinstance(root, MemRefType):
        return None
    try:
        strides = memref_strides(t)
        memref_offset(t)  # static
        if memref_offset(root) != 0 or strides[-1] != 1 or strides[0] % plan.tile:
            return None
    except ValueError:
        return None
    return anchor


def _aligned_columns(em: Emitter, anchor: SSAValue, plan: TransposeTiling) -> tuple[SSAValue | int, SSAValue | int]:
    """(shift, tile * min(shift, 1)): `shift` elements past its row's start, a row of
    `anchor` reaches an address aligned to a vector of `plan.tile` elements (0 to
    `tile - 1`, computed at run time: NumPy's arrays start 16 bytes past a page).
    The tiles of a row then start at 0 and at `shift + tile * k` (k >= 1), and one
    more at `size - tile` covers the end: both overlap their neighbour, computed
    twice. Their vector stores (and the loads of in-order operands aligned alike)
    then never straddle two cache lines: `x.T + y`, 1024x1024 f32 from NumPy on a
    Cascade Lake, 3.6 ms with its 32-byte stores 16 bytes off, 2.5 with them aligned
    (C experiments)."""
    t = anchor.type
    assert isinstance(t, MemRefType)
    element_bytes = _element_bytes(t)
    base = em.value(memref.ExtractAlignedPointerAsIndexOp.get(view_root(anchor)))
    first = em.addi(em.divui(base, element_bytes), memref_offset(t))
    tile = plan.tile
    shift = em.remui(em.addi(tile, em.muli(em.remui(first, tile), -1)), tile)
    return shift, em.muli(em.minui(shift, 1), tile)


def tile_transpose(op: GenericOp, plan: TransposeTiling) -> None:
    """Replace `op` by its loops over tiles."""
    em = Emitter()
    maps = [m.data for m in op.indexing_maps.data]
    dims = [_dims(m) or [] for m in maps]
    outer_t = next(d for d, s in enumerate(plan.sizes) if s > 1) == plan.t
    n = len(plan.sizes)

    registers = _in_registers(op, plan)
    block_t, block_v = plan.block
    anchor = _shiftable(op, plan) if registers else None
    shift, edge = _aligned_columns(em, anchor, plan) if anchor is not None else (0, 0)
    last = plan.sizes[plan.v] - plan.tile

    def placed(e: Emitter, tj: SSAValue) -> SSAValue:
        """The column where the tile at `tj` on the unshifted grid starts."""
        if anchor is None:
            return tj
        moved = e.value(arith.MaxUIOp(e.materialize(e.addi(tj, shift)), e.materialize(edge)))
        return e.materialize(e.addi(moved, e.muli(edge, -1)))

    def allocate(outer: Emitter, copies: int) -> list[SSAValue]:
        """The transposed operands' tile buffers: `copies` of each, one per row of tiles
        that may run at the same time, allocated once for all of them."""
        buffers = []
        for k in () if registers else plan.transposed:
            t = op.operands[k].type
            assert isinstance(t, MemRefType)
            shape = [copies, plan.tile, plan.tile] if copies > 1 else [plan.tile] * 2
            buffers.append(outer.value(memref.AllocOp([], [], MemRefType(t.get_element_type(), shape))))
        return buffers

    def row_buffer(inner: Emitter, buffer: SSAValue, ti: SSAValue) -> SSAValue:
        """The `tile x tile` buffer of the row of blocks starting at row `ti`."""
        element = buffer.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
        shape, strides = [plan.tile] * 2, [plan.tile, 1]
        first = ti if block_t == plan.tile else inner.divui(ti, block_t // plan.tile)
        offset = inner.materialize(inner.muli(first, plan.tile))
        result = MemRefType(element, shape, StridedLayoutAttr(strides, None))
        return inner.value(memref.ReinterpretCastOp(buffer, [offset], [], [], [DYNAMIC_INDEX], shape, strides, result))

    def tile_body(inner: Emitter, ivs: dict[int, SSAValue], buffers: list[SSAValue]) -> None:
        if registers:
            views = [_subview(inner, value, d, plan, ivs) for value, d in zip(op.operands, dims)]
            _vector_tile(inner, op, plan, views)
            return
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

    def columns(inner: Emitter, ti: SSAValue, tj0: SSAValue | int, buffers: list[SSAValue]) -> None:
        """The tiles of the row at `ti` from column `tj0` to the end of its block."""

        def step(e: Emitter, tj: SSAValue, _: object) -> list[SSAValue]:
            tile_body(e, {plan.t: ti, plan.v: placed(e, tj)}, buffers)
            return []

        inner.loop(tj0, inner.addi(tj0, block_v), plan.tile, step)

    def end_tiles(inner: Emitter, bi: SSAValue) -> None:
        """The tile at the end of each row of the row of blocks at `bi`, when shifted."""

        def once(e: Emitter, ti: SSAValue) -> None:
            def tile(f: Emitter, _: SSAValue, __: object) -> list[SSAValue]:
                tile_body(f, {plan.t: ti, plan.v: f.index(last)}, [])  # in registers: no buffers
                return []

            e.loop(0, edge, plan.tile, tile)

        if block_t == plan.tile:
            once(inner, bi)
            return

        def row(r: Emitter, ti: SSAValue, _: object) -> list[SSAValue]:
            once(r, ti)
            return []

        inner.loop(bi, inner.addi(bi, block_t), plan.tile, row)

    def block_rows(inner: Emitter, bi: SSAValue, buffers: list[SSAValue]) -> None:
        """The row of blocks at `bi`: block by block, each row of tiles by row."""

        def rows_of(e: Emitter, tj0: SSAValue | int) -> None:
            if block_t == plan.tile:
                columns(e, bi, tj0, buffers)
                return

            def row(r: Emitter, ti: SSAValue, _: object) -> list[SSAValue]:
                columns(r, ti, tj0, buffers)
                return []

            e.loop(bi, e.addi(bi, block_t), plan.tile, row)

        if block_v == plan.sizes[plan.v]:
            rows_of(inner, 0)
        else:

            def block(e: Emitter, bj: SSAValue, _: object) -> list[SSAValue]:
                rows_of(e, bj)
                return []

            inner.loop(0, plan.sizes[plan.v], block_v, block)
        if anchor is not None:
            end_tiles(inner, bi)

    if outer_t:
        # Each row of blocks has its buffer in one allocation made before the loop (not
        # an allocation and a free per row: the rows may run on several threads).
        buffers = allocate(em, plan.sizes[plan.t] // block_t)
        body = Block(arg_types=[INDEX])
        inner = Emitter(block=body)
        bi = body.args[0]
        block_rows(inner, bi, [row_buffer(inner, b, bi) for b in buffers])
        body.add_op(scf.ReduceOp())
        loop = scf.ParallelOp([em.index(0)], [em.index(plan.sizes[plan.t])], [em.index(block_t)], Region(body))
        em.add(loop)
    else:
        buffers = allocate(em, 1)

        def rows(r: Emitter, bi: SSAValue, _: object) -> list[SSAValue]:
            block_rows(r, bi, buffers)
            return []

        em.loop(0, plan.sizes[plan.t], block_t, rows)
        loop = next(o for o in em.ops if isinstance(o, scf.ForOp))
    for b in buffers:
        em.add(memref.DeallocOp.get(b))
    blocked = f" in {block_t}x{block_v}" if plan.block != (plan.tile, plan.sizes[plan.v]) else ""
    loop.attributes["tiled"] = StringAttr(f"transpose({plan.tile}x{plan.tile}{blocked})")
    Rewriter().replace_op(op, em.ops, [])


@dataclass(frozen=True)
class LinalgTileTransposesPass(ModulePass):
    """Element-wise generics reading an operand transposed → loops over square tiles,
    the transposed tiles copied through a buffer."""

    name = "linalg-tile-transposes"

    target: str = ""
    """The target whose L1 size sets the blocks of tiles (`target.py`; "" = the default)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        l1 = get_target(self.target).l1
        for inner in list(op.walk()):
            if isinstance(inner, GenericOp) and inner.parent is not None:
                plan = tiling(inner, l1)
                if plan is not None:
                    tile_transpose(inner, plan)


__all__ = ["LinalgTileTransposesPass", "TransposeTiling", "tile_block", "tile_transpose", "tiling"]
