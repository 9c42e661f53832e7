"""`linalg-pack-contractions`: data tiling of contractions, as IREE's mmt4d.

A contraction (see `contraction.py`) `C[b, m, n] += A[b, m, k] * B[b, k, n]`,
with each class of dimensions flattened (b, m, n and k may each stand for
several loops, and A and B may be read through any affine map, as a
convolution's input is), becomes, on buffers:

1. packs: `A4[b, m1, k, m0] = A[b, m1*mr + m0, k]` and `B4[b, n1, k, n0] =
   B[b, k, n1*nr + n0]`, generics over the packed iteration space reading their
   source with `memref.load`, in the accumulator type (bf16/f16/integer operands
   are widened here, once per element rather than once per product), zero past
   the edges so every tile is whole. A left operand contiguous along k, or an
   operand reused by at most two panels of the other side (a right operand with
   near rows: at most 32), is read in place through a strided view instead. With
   AVX512-BF16, bf16 operands of an f32 contraction stay bf16, packed in pairs
   along k (`[.., k / 2, tile, 2]`) for `vdpbf16ps`;
2. `C3[b, m, n] += A4[b, m / mr, k, m % mr] * B4[b, n / nr, k, n % nr]`: the
   contraction on the packed operands, whose panels a micro-kernel reads
   contiguously (`linalg-vectorize-contractions` turns it into one). C3 is a
   strided view of C when C's dimensions allow, else a scratch copy.

The scratch buffers are allocated once at the function's entry and freed at its
returns, never inside a loop. mr x nr is the target's register tile; the
vectorized side (n) is the longer of M and N and, if possible, C's contiguous
one (A and B are exchanged otherwise).

Small or odd contractions keep the simple path (the generic as it was): the
vectorized side shorter than one vector, a K shorter than 4, an M shorter than
the register tile's rows, or under 32K multiply-adds.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    BFloat16Type,
    FileLineColLoc,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.codegen.contraction import Contraction, match_contraction
from lowering.codegen.emitter import Emitter
from lowering.codegen.target import NEAR_ROW_BYTES, get_target
from lowering.codegen.tile_transposes import TILE as TRANSPOSE_TILE

MIN_MULTIPLY_ADDS = 1 << 15
MIN_K = 4
"""Shallower contractions keep the simple path: each k step of the micro-kernel must
repay the load and store of its register tile. At 4 (not 16) a K = 10 product with a
transposed right operand (an MLP's output layer, backwards) is packed rather than
read with a stride of 10 in its vectorized loop: 9% of an MLP training step."""


def _parallel(n: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr(IteratorType.PARALLEL)] * n


def _identity(rank: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(rank))


def _bits(t: Attribute) -> int | None:
    """Width of a supported accumulator type (f32, f64, i32, i64), else None."""
    if isinstance(t, Float32Type | Float64Type):
        return t.bitwidth
    if isinstance(t, IntegerType) and t.width.data in (32, 64):
        return t.width.data
    return None


@dataclass(frozen=True)
class Tiles:
    mr: int
    nr: int
    pairs: Attribute | None = None
    """The type operands are packed in as pairs along k: bf16 for AVX512-BF16's
    `vdpbf16ps`, i16 (i8 widened) for AVX512-VNNI's `vpdpwssd`; None: unpaired."""
    near_rows_in_place: bool = False
    """The target's `near_rows_in_place`: a right operand with near k rows may be read
    in place."""


WIDE_TILE_MIN_ROWS = 256
WIDE_TILE_MIN_DEPTH = 512
"""A target's tile of more than 4 rows (`Target.tile_rows`: 6 on Cascade Lake) is used
only when the contraction has at least `WIDE_TILE_MIN_ROWS` rows and a k of at least
`WIDE_TILE_MIN_DEPTH`: its gain is in the long k loops of large products (matmul 512
and 1024: 5-6% less time). 256 rows qualify since B's pack moved into the parts
(`Target.right_pack_in_parts`): the transformer block's 256 x 512 @ 512 x 2048, 256 x
2048 @ 2048 x 512 and 256 x 512 @ 512 x 512 with 6 rows (42 whole panels and a
4-row edge through the scratch tile) took 3-5% less time for the block (A/B in one
process). With fewer rows the last, partial row panel (the scratch tile, copied element
by element at each k block) and with a short k the reloads of 24 accumulators cost more
than 6 rows gained: the MLP step's 128-row products and its K = 128 weight gradients
(128 x 512^T @ 128 x 512: 7%, 128 x 784^T @ 128 x 512: 10% slower) and attention's
256-row heads of K = 256 (1%). They keep 4 rows, and so do contractions of several k
loops (convolutions): a 3x3 convolution's kernel with 6 rows (its packed A fused into
the parts) took LLVM 3.9 CPU s to compile instead of 1.2."""


def choose_tiles(c: Contraction, target_name: str | None) -> Tiles | None:
    """The register tile for `c`, exchanging A and B if that vectorizes better;
    None when the simple path is better."""
    target = get_target(target_name)
    bits = _bits(c.acc_type)
    if bits is None:
        return None
    lanes = target.lanes(bits)
    mt, nt, kt = c.extent(c.m), c.extent(c.n), c.extent(c.k)
    if (nt < lanes and mt >= lanes) or (mt >= lanes and _c_contiguous(c, c.m) and not _c_contiguous(c, c.n)):
        # Vectorize along the long side, and along C's contiguous side: then C is
        # updated in place rather than through a transposed copy.
        c.swap()
        mt, nt = nt, mt
    mr, nr = target.register_tile(bits)
    few = mt < WIDE_TILE_MIN_ROWS or kt < WIDE_TILE_MIN_DEPTH or len(c.k) > 1
    if target.vector_registers >= 32 and mr > 4 and few:
        mr = 4  # see WIDE_TILE_MIN_ROWS
    if nt < lanes or kt < MIN_K or mt * nt * kt * c.extent(c.batch) < MIN_MULTIPLY_ADDS:
        return None
    if nt < nr:
        # Fewer columns than the tile: narrow it to whole vectors, keep the accumulators.
        vectors = -(-nt // lanes)
        mr = min(8, mr * (nr // lanes) // vectors)
        nr = vectors * lanes
    if mt < mr:
        return None
    i16_pairs = (target.has_avx512_vnni and lanes == 16) or (target.has_avx2 and lanes == 8)
    pairs = _pair_type(c, target.has_avx512_bf16 and lanes == 16, i16_pairs)
    return Tiles(mr, nr, pairs, target.near_rows_in_place)


def _pair_type(c: Contraction, bf16_dot: bool, i16_dot: bool) -> Attribute | None:
    """The type to pack `c`'s operands in as pairs along k, when the target has a
    pairwise dot product for them: bf16 widened to f32 (one k loop), or integers of
    at most 16 bits widened to i32 (signed i8/i16, unsigned i8: exact in i16; one k
    loop, or several whose innermost has an even extent, as a convolution's input
    features mostly do), else None."""
    several = len(c.k) > 1
    if several and c.sizes[c.k[-1]] % 2:
        return None

    def widened_bf16(cast: Operation | None) -> bool:
        return isinstance(cast, arith.ExtFOp) and isinstance(cast.operands[0].type, BFloat16Type)

    def narrow_int(cast: Operation | None) -> bool:
        if not isinstance(cast, arith.ExtSIOp | arith.ExtUIOp):
            return False
        width = cast.operands[0].type.width.data  # pyright: ignore[reportAttributeAccessIssue]
        return width <= 8 or (width == 16 and isinstance(cast, arith.ExtSIOp))

    if bf16_dot and not several and isinstance(c.acc_type, Float32Type) and widened_bf16(c.a_cast) and widened_bf16(c.b_cast):
        return BFloat16Type()
    if i16_dot and c.acc_type == IntegerType(32) and narrow_int(c.a_cast) and narrow_int(c.b_cast):
        return IntegerType(16)
    return None


def _c_contiguous(c: Contraction, group: list[int]) -> bool:
    """Whether C's innermost dimension belongs to `group` (vectors along it are contiguous)."""
    return bool(c.c_map.results) and c.c_map.results[-1].used_dims() <= set(group)


def _body_block(arg_types: list[Attribute]) -> tuple[Block, Emitter]:
    block = Block(arg_types=arg_types)
    return block, Emitter(block=block)


def _group_indices(e: Emitter, flat: SSAValue | int, dims: list[int], sizes: list[int]) -> dict[int, SSAValue | int]:
    values = e.delinearize(flat, [sizes[d] for d in dims])
    return dict(zip(dims, values, strict=True))


def _rows_along_free(source: SSAValue, source_map: AffineMap, free: list[int], nk: int) -> bool:
    """Whether the packed operand is a matrix (one free and one k loop) whose innermost
    dimension, contiguous, is indexed by the free loop alone."""
    t = source.type
    if nk != 1 or len(free) != 1 or not isinstance(t, MemRefType) or not source_map.results:
        return False
    if isinstance(t.layout, StridedLayoutAttr) and t.layout.get_strides()[-1] != 1:
        return False
    innermost = source_map.results[-1]
    return isinstance(innermost, AffineDimExpr) and innermost.position == free[0]


def padded_depth(k: int) -> int:
    """The k extent allocated for packed panels: K rounded up to an odd number once
    K is long, so that successive panels (K x mr and K x nr elements apart) are not
    a multiple of 4 KiB apart and do not all fall into the same cache sets. The
    contraction sees a K-long view of them."""
    return k + 1 if k >= 64 and k % 2 == 0 else k


def _pack_operand(
    c: Contraction, source: SSAValue, source_map: AffineMap, cast: Operation | None,
    free: list[int], tile: int, packed: SSAValue, zero: SSAValue, window: SSAValue | None,
    *, rows_outer: bool = False,
) -> GenericOp:
    """`P[b, f1, k, f0] = cast(source[map(b, f1*tile + f0, k)])`, 0 past the edge of f.

    The k loops are the contraction's own (a convolution's window and input
    features), not one flattened loop, so no index is divided in the inner loops.
    As in MLIR's pooling ops, `window`, an unread operand shaped like the k loops,
    gives them their ranges when there are several (P's map flattens them, which
    no loop range can be read from). `rows_outer`: the k loop may go outside f1 (the
    right operand's pack; the left one's keeps f1 second for `pack_fusion`)."""
    sizes = c.sizes
    extent = c.extent(free)
    k_sizes = [sizes[d] for d in c.k]
    nk = len(c.k)
    # Iteration dimensions: b, f1, the k loops, f0. With f0 innermost, each step
    # stores a whole contiguous tile row of P (LLVM vectorizes the store; for a
    # convolution's input this is the im2col copy, four pixels at a time).
    f0_pos = 2 + nk
    k_pos = [2 + i for i in range(nk)]
    f1_pos = 1
    if rows_outer and _rows_along_free(source, source_map, free, nk):
        # A matrix read along f (`B[k, n]`, n contiguous): b, k, f1, f0, so that each k
        # step reads one whole source row in order and writes it into the panels. With
        # f1 outside k, each panel pass took nr elements of every row, rows a row
        # apart: a 512 x 512 weight packed at 2.4 GB/s inside the MLP step (the L2
        # streamer ramps up once per 4 KiB page, and each page gave it 2 x 256 B).
        k_pos, f1_pos = [1], 2
    rank = 3 + nk
    block, e = _body_block([c.acc_type])
    b_idx = e.value(IndexOp(0))
    f1_idx = e.value(IndexOp(f1_pos))
    f0_idx = e.value(IndexOp(f0_pos))
    flat = e.addi(e.muli(f1_idx, tile), f0_idx)
    padded = extent % tile != 0
    dims: dict[int, SSAValue | int] = {}
    dims.update(_group_indices(e, b_idx, c.batch, sizes))
    dims.update(_group_indices(e, e.minui(flat, extent - 1) if padded else flat, free, sizes))
    for d, pos in zip(c.k, k_pos, strict=True):
        dims[d] = e.value(IndexOp(pos))
    position = [dims.get(d, 0) for d in range(len(sizes))]
    indices = [e.materialize(e.affine(r, position)) for r in source_map.results]
    value = e.value(memref.LoadOp.get(source, indices))
    if cast is not None:
        value = e.value(type(cast)(value, c.acc_type))  # pyright: ignore[reportCallIssue]
    if padded:
        value = e.value(arith.SelectOp(e.ult(flat, extent), value, zero))
    block.add_op(YieldOp(value))
    d = AffineMap.identity(rank).results
    k_linear: AffineExpr = AffineExpr.constant(0)
    for pos, size in zip(k_pos, k_sizes, strict=True):
        k_linear = k_linear * size + d[pos]
    out_map = AffineMap(rank, 0, (d[0], d[f1_pos], k_linear, d[f0_pos]))
    if window is None:
        return GenericOp([], [packed], Region(block), [AffineMapAttr(out_map)], _parallel(rank))
    block.insert_arg(IntegerType(8), 0)
    window_map = AffineMap(rank, 0, tuple(d[pos] for pos in k_pos))
    maps = [AffineMapAttr(window_map), AffineMapAttr(out_map)]
    return GenericOp([window], [packed], Region(block), maps, _parallel(rank))


def _pack_pairs(
    c: Contraction, source: SSAValue, source_map: AffineMap, cast: Operation | None, free: list[int], tile: int,
    packed: SSAValue, zero: SSAValue, window: SSAValue | None,
) -> GenericOp:
    """`P[b, f1, kh, f0, p] = source[map(b, f1*tile + f0, 2*kh + p)]` in the pair type
    (bf16 as it is; i8 extended to i16 as `cast` extends it), 0 past the edges of f
    and k: pairs of k for `vdpbf16ps` or `vpdpwssd`.

    With several k loops (a convolution's window and input features) the pairs are
    taken along the innermost, of even extent, so that they are pairs of the
    flattened k too; the outer k loops stay loops, their ranges (and the pairs')
    given by `window`, an unread operand of their shape, as in `_pack_operand`."""
    sizes = c.sizes
    extent = c.extent(free)
    outer, last = c.k[:-1], c.k[-1]
    depth = sizes[last]
    nk = len(outer)
    rank = 5 + nk
    block, e = _body_block([zero.type])
    b_idx, f1 = e.value(IndexOp(0)), e.value(IndexOp(1))
    outer_idx = [e.value(IndexOp(2 + i)) for i in range(nk)]
    kh, f0, pair = (e.value(IndexOp(2 + nk + i)) for i in range(3))
    flat = e.addi(e.muli(f1, tile), f0)
    k = e.addi(e.muli(kh, 2), pair)
    dims: dict[int, SSAValue | int] = {}
    dims.update(_group_indices(e, b_idx, c.batch, sizes))
    dims.update(_group_indices(e, e.minui(flat, extent - 1) if extent % tile else flat, free, sizes))
    dims.update(zip(outer, outer_idx, strict=True))
    dims[last] = e.minui(k, depth - 1) if depth % 2 else k
    position = [dims.get(d, 0) for d in range(len(sizes))]
    indices = [e.materialize(e.affine(r, position)) for r in source_map.results]
    value = e.value(memref.LoadOp.get(source, indices))
    if value.type != zero.type:
        assert cast is not None
        value = e.value(type(cast)(value, zero.type))  # pyright: ignore[reportCallIssue]
    valid: SSAValue | None = e.ult(flat, extent) if extent % tile else None
    if depth % 2:
        in_k = e.ult(k, depth)
        valid = in_k if valid is None else e.value(arith.AndIOp(valid, in_k))
    if valid is not None:
        value = e.value(arith.SelectOp(valid, value, zero))
    block.add_op(YieldOp(value))
    if not outer:
        return GenericOp([], [packed], Region(block), [_identity(5)], _parallel(5))
    assert window is not None
    d = AffineMap.identity(rank).results
    k_linear: AffineExpr = AffineExpr.constant(0)
    for pos, size in zip(range(2, 3 + nk), [*(sizes[x] for x in outer), -(-depth // 2)], strict=True):
        k_linear = k_linear * size + d[pos]
    out_map = AffineMap(rank, 0, (d[0], d[1], k_linear, d[3 + nk], d[4 + nk]))
    window_map = AffineMap(rank, 0, tuple(d[2 : 3 + nk]))
    block.insert_arg(IntegerType(8), 0)
    maps = [AffineMapAttr(window_map), AffineMapAttr(out_map)]
    return GenericOp([window], [packed], Region(block), maps, _parallel(rank))


def _row_major_strides(shape: tuple[int, ...]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def operand_view(
    c: Contraction, source: SSAValue, source_map: AffineMap, cast: Operation | None, free: list[int],
    tile: int, *, vectorized: bool,
) -> memref.ReinterpretCastOp | None:
    """The operand itself seen as `P[b, f1, k, f0]` (a strided view) when no packing is
    needed to read it so: no conversion, whole tiles, one free, k and batch loop
    each, and (for the vectorized side) its f dimension contiguous."""
    t = source.type
    if cast is not None or not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr):
        return None
    if len(free) != 1 or len(c.k) != 1 or len(c.batch) > 1 or c.extent(free) % tile:
        return None
    if not all(isinstance(r, AffineDimExpr) for r in source_map.results):
        return None
    position = {r.position: j for j, r in enumerate(source_map.results) if isinstance(r, AffineDimExpr)}
    strides = _row_major_strides(t.get_shape())
    f_stride = strides[position[free[0]]]
    if vectorized and f_stride != 1:
        return None
    b_stride = strides[position[c.batch[0]]] if c.batch else 0
    shape = [c.extent(c.batch), c.extent(free) // tile, c.extent(c.k), tile]
    view_strides = [b_stride, tile * f_stride, strides[position[c.k[0]]], f_stride]
    result = MemRefType(t.get_element_type(), shape, StridedLayoutAttr(view_strides, 0))
    return memref.ReinterpretCastOp(source, [], [], [], [0], shape, view_strides, result)


def _flat_position(c: Contraction, n_dims: int) -> list[AffineExpr]:
    """Each original dimension as an affine expression of the flat (b, m, n)
    dimensions `d0, d1, d2` of C3 (row-major within each group)."""
    position: list[AffineExpr] = [AffineExpr.constant(0)] * n_dims
    for flat, group in enumerate((c.batch, c.m, c.n)):
        inner = 1
        for d in reversed(group):
            expr = AffineExpr.dimension(flat)
            if inner > 1:
                expr = expr // inner
            if d != group[0]:
                expr = expr % c.sizes[d]
            position[d] = expr
            inner *= c.sizes[d]
    return position


def _copy(source: SSAValue, source_map: AffineMap, dest: SSAValue, dest_map: AffineMap) -> GenericOp:
    """`dest[dest_map(i)] = source[source_map(i)]` for every point i."""
    element = dest.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    block = Block(arg_types=[element, element])
    block.add_op(YieldOp(block.args[0]))
    rank = source_map.num_dims
    return GenericOp(
        [source], [dest], Region(block), [AffineMapAttr(source_map), AffineMapAttr(dest_map)], _parallel(rank)
    )


def c_as_matrices(c: Contraction) -> tuple[SSAValue, list[Operation], list[Operation], MemRefType | None]:
    """C as a `[batch, m, n]` buffer: a strided view when each group of C's
    dimensions flattens to one stride and n's is 1 (any order of the groups: a
    `[q, heads, d]` result of batched matmuls is viewed as `[heads, q, d]`), else a
    scratch buffer (whose type is returned, to be allocated) with a copy in before
    and a copy out after."""
    c_type = c.c.type
    assert isinstance(c_type, MemRefType)
    shape = [c.extent(c.batch), c.extent(c.m), c.extent(c.n)]
    c3_type = MemRefType(c.acc_type, shape)
    order = [r.used_dims().pop() for r in c.c_map.results]
    if isinstance(c_type.layout, NoneAttr):
        c_shape = list(c_type.get_shape())
        strides = _row_major_strides(tuple(c_shape))
        group_strides = [_flattened_stride(order, c_shape, strides, g) for g in (c.batch, c.m, c.n)]
        if all(g is not None for g in group_strides) and group_strides[2] == 1:
            view_strides = [g for g in group_strides if g is not None]
            result = MemRefType(c.acc_type, shape, StridedLayoutAttr(view_strides, 0))
            view = memref.ReinterpretCastOp(c.c, [], [], [], [0], shape, view_strides, result)
            return view.result, [view], [], None
    # The scratch is bound later; a placeholder value is patched by the caller.
    return c.c, [], [], c3_type


def _flattened_stride(order: list[int], shape: list[int], strides: list[int], group: list[int]) -> int | None:
    """The one stride of a group of C's dimensions flattened row-major, when its
    dimensions lie in C in the group's order, each nested in the one before (else None)."""
    if not group:
        return 0
    positions = [order.index(d) for d in group]
    for outer, inner in itertools.pairwise(positions):
        if strides[outer] != strides[inner] * shape[inner]:
            return None
    return strides[positions[-1]]


def _packed_contraction(
    c: Contraction, tiles: Tiles, a4: SSAValue, b4: SSAValue, c3: SSAValue, window: SSAValue | None
) -> GenericOp:
    """`C3[b, m, n] += A4[b, m / mr, k, m % mr] * B4[b, n / nr, k, n % nr]` with the original body's ops."""
    operand_types = [a4.type.get_element_type(), b4.type.get_element_type()]  # pyright: ignore[reportAttributeAccessIssue]
    block = Block(arg_types=[*operand_types, c.acc_type])
    x, y, acc = block.args
    ops: list[Operation] = []
    if tiles.pairs is not None:  # the operands stay narrow: widen them here, as the original did
        for cast, value in ((c.a_cast, x), (c.b_cast, y)):
            assert cast is not None
            # The pairs are signed i16 whatever the source's signedness was.
            widened = arith.ExtSIOp(value, c.acc_type) if isinstance(cast, arith.ExtUIOp) else cast.clone()
            widened.operands = [value]
            ops.append(widened)
        x, y = (o.results[0] for o in ops)
    mul = c.mul.clone()
    mul.operands = [x, y]
    add = c.add.clone()
    add.operands = [acc, mul.results[0]] if c.add.operands[0] is c.op.body.block.args[2] else [mul.results[0], acc]
    block.add_ops([*ops, mul, add, YieldOp(add.results[0])])
    maps = list((packed_maps if tiles.pairs is None else pair_packed_maps)(tiles.mr, tiles.nr))
    inputs = [a4, b4]
    if window is not None:
        # k is read from the pair-packed operands only through k / 2 and k % 2: an
        # unread K-long operand gives its range.
        block.insert_arg(IntegerType(8), 2)
        maps.insert(2, AffineMap(4, 0, (AffineMap.identity(4).results[3],)))
        inputs.append(window)
    return GenericOp(
        inputs, [c3], Region(block), [AffineMapAttr(m) for m in maps],
        _parallel(3) + [IteratorTypeAttr(IteratorType.REDUCTION)],
    )


def pair_packed_maps(mr: int, nr: int) -> tuple[AffineMap, AffineMap, AffineMap]:
    """The indexing maps of a contraction on bf16-pair-packed operands, over (b, m, n, k)."""
    b, m, n, k = AffineMap.identity(4).results
    return (
        AffineMap(4, 0, (b, m // mr, k // 2, m % mr, k % 2)),
        AffineMap(4, 0, (b, n // nr, k // 2, n % nr, k % 2)),
        AffineMap(4, 0, (b, m, n)),
    )


def packed_maps(mr: int, nr: int) -> tuple[AffineMap, AffineMap, AffineMap]:
    """The indexing maps of a contraction on packed operands, over (b, m, n, k)."""
    b, m, n, k = AffineMap.identity(4).results
    return (
        AffineMap(4, 0, (b, m // mr, k, m % mr)),
        AffineMap(4, 0, (b, n // nr, k, n % nr)),
        AffineMap(4, 0, (b, m, n)),
    )


def _zero(t: Attribute) -> arith.ConstantOp:
    if isinstance(t, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, t))  # pyright: ignore[reportArgumentType]
    return arith.ConstantOp(FloatAttr(0.0, t))  # pyright: ignore[reportArgumentType]


def _function_of(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


WINDOW_STACK_BYTES = 1 << 16
"""The largest unread window operand put on the stack."""

VIEW_MAX_REUSE = 2
"""An operand is read in place, not packed, when at most this many register-tile
panels of the other side reuse it: packing would cost more than it saves."""

VIEW_NEAR_ROWS_REUSE = 32
"""On targets that read near rows in place (`Target.near_rows_in_place`: Zen), a right
operand whose k rows are at most `NEAR_ROW_BYTES` apart is read in
place when at most `VIEW_NEAR_ROWS_REUSE` row panels reuse it: the pack's write and
re-read of the whole operand cost more than reading near rows (measured on the MLP
step's 128 x 784 @ 784 x 512 and 128 x 512 @ 512 x 512, and 16 x 128 x 64 @ 64 x 128:
5% less time each). At 64 panels it gains nothing, and rows 4 KiB or more apart
(fewer L1 and L2 sets, one page each) ran 5-9% slower than packed."""


def _reads_in_place(
    view: memref.ReinterpretCastOp | None, reuse: int, *, vectorized: bool, near_rows: bool = False
) -> bool:
    """Whether the operand seen through `view` (`P[b, f1, k, f0]`, None: no such view)
    is read in place, with `reuse` panels of the other side reading each of its panels.
    `near_rows`: the target reads a right operand with near k rows in place.

    A left operand whose rows run along k (`A[m, k]`, k contiguous) is always read in
    place: the micro-kernel broadcasts one element of each of its mr rows per k step,
    mr sequential streams that the prefetcher follows and that stay in L2 between the
    column tiles reusing them, so its pack (a copy of all of A) bought nothing (matmul
    256 and 1024, the transformer block, the MLP step: 3-4% less time; 256 x 4096 @
    4096 x 256: 11%). Read along m instead (`A[k, m]`), each k step would take a new
    cache line for mr elements (K = 2048: 11% slower than packed): packed as before."""
    if view is None:
        return False
    if reuse <= VIEW_MAX_REUSE:
        return True
    t = view.result.type
    assert isinstance(t, MemRefType) and isinstance(t.layout, StridedLayoutAttr)
    k_stride = t.layout.get_strides()[2]
    if not vectorized:
        return k_stride == 1
    bits = _bits(t.get_element_type())  # a view's element is the accumulator type
    assert bits is not None and isinstance(k_stride, int)
    return near_rows and reuse <= VIEW_NEAR_ROWS_REUSE and k_stride * bits // 8 <= NEAR_ROW_BYTES


def _view_if(view: memref.ReinterpretCastOp | None, keep: bool) -> memref.ReinterpretCastOp | None:
    """`view` when it is kept; a dropped one (never inserted) releases its operand."""
    if view is not None and not keep:
        view.drop_all_references()
        return None
    return view


@dataclass(frozen=True)
class TransposedSource:
    """A vectorized-side operand read as `B[.., n, .., k]`: k contiguous, n strided."""

    batch_stride: int
    n_stride: int
    batch: int
    n: int
    k: int

    def scratch_type(self, element: Attribute, batched: bool) -> MemRefType:
        return MemRefType(element, [self.batch, self.k, self.n] if batched else [self.k, self.n])


def transposed_source(c: Contraction, source: SSAValue, source_map: AffineMap, free: list[int]) -> TransposedSource | None:
    """How `source`, the vectorized side's operand, is laid out when it is read as
    `B[n, k]` (or `B[b, n, k]`, `B[n, b, k]`: one batch dimension anywhere before k),
    n strided, k contiguous, both multiples of `linalg-tile-transposes`' tile; else
    None. Packing it directly would gather each panel row from nr rows a whole
    matrix row apart (rows 2 KiB apart fall into two L1 sets: the gathers miss L1),
    9% of an MLP training step, and attention's `Q K^T`; it is first copied
    transposed, tile by tile (per batch element), and packed from the copy."""
    t = source.type
    if not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr):
        return None
    if len(free) != 1 or len(c.k) != 1 or len(c.batch) > 1:
        return None
    if not all(isinstance(r, AffineDimExpr) for r in source_map.results):
        return None
    dims = [r.position for r in source_map.results if isinstance(r, AffineDimExpr)]
    if sorted(dims) != sorted([*c.batch, free[0], c.k[0]]) or dims[-1] != c.k[0]:
        return None
    n, k = c.sizes[free[0]], c.sizes[c.k[0]]
    if any(s % TRANSPOSE_TILE or s <= TRANSPOSE_TILE for s in (n, k)):
        return None
    strides = _row_major_strides(t.get_shape())
    batch_stride = strides[dims.index(c.batch[0])] if c.batch else 0
    return TransposedSource(batch_stride, strides[dims.index(free[0])], c.extent(c.batch), n, k)


def _transposing_copy(source: SSAValue, layout: TransposedSource, scratch: SSAValue) -> list[Operation]:
    """`scratch[(b,) k, n] = source[b, n, k]`: an element-wise generic per batch element
    (an `scf.for` over them, each reading a strided `[n, k]` view of its matrix), which
    `linalg-tile-transposes` runs tile by tile."""
    d = AffineMap.identity(2).results
    to_rows, identity = AffineMap(2, 0, (d[1], d[0])), AffineMap.identity(2)
    if layout.batch_stride == 0:
        return [_copy(source, to_rows, scratch, identity)]
    element = scratch.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    e = Emitter()

    def view(eb: Emitter, value: SSAValue, offset: SSAValue | int, shape: list[int], strides: list[int]) -> SSAValue:
        result = MemRefType(element, shape, StridedLayoutAttr(strides, None))
        return eb.value(
            memref.ReinterpretCastOp(value, [eb.materialize(offset)], [], [], [DYNAMIC_INDEX], shape, strides, result)
        )

    def one_matrix(eb: Emitter, b: SSAValue, _: object) -> list[SSAValue]:
        matrix = view(eb, source, eb.muli(b, layout.batch_stride), [layout.n, layout.k], [layout.n_stride, 1])
        rows = view(eb, scratch, eb.muli(b, layout.k * layout.n), [layout.k, layout.n], [layout.n, 1])
        eb.add(_copy(matrix, to_rows, rows, identity))
        return []

    e.loop(0, layout.batch, 1, one_matrix)
    return e.ops


def pack_contraction(c: Contraction, tiles: Tiles) -> None:
    """Rewrite the contraction's generic into packs (or views) and a contraction on
    packed operands."""
    op = c.op
    function = _function_of(op)
    assert function is not None
    mt, nt, kt, bt = c.extent(c.m), c.extent(c.n), c.extent(c.k), c.extent(c.batch)
    m1, n1 = -(-mt // tiles.mr), -(-nt // tiles.nr)
    pairs = tiles.pairs is not None
    depth = -(-kt // 2) if pairs else kt
    kp = padded_depth(depth)
    panel = [2] if pairs else []
    element = tiles.pairs or c.acc_type
    views = not pairs
    a_view = operand_view(c, c.a, c.a_map, c.a_cast, c.m, tiles.mr, vectorized=False) if views else None
    b_view = operand_view(c, c.b, c.b_map, c.b_cast, c.n, tiles.nr, vectorized=True) if views else None
    a_view = _view_if(a_view, _reads_in_place(a_view, n1, vectorized=False))
    b_view = _view_if(b_view, _reads_in_place(b_view, m1, vectorized=True, near_rows=tiles.near_rows_in_place))
    scratch: list[MemRefType] = []
    if a_view is None:
        scratch.append(MemRefType(element, [bt, m1, kp, tiles.mr, *panel]))
    if b_view is None:
        scratch.append(MemRefType(element, [bt, n1, kp, tiles.nr, *panel]))
    c3, before, after, c3_type = c_as_matrices(c)
    if c3_type is not None:
        scratch.append(c3_type)
    allocs = [memref.AllocOp([], [], t, IntegerAttr(64, 64)) for t in scratch]
    def unread(k_shape: list[int]) -> SSAValue:
        """An unread operand giving loops their ranges; on the stack unless it is large."""
        if math.prod(k_shape) <= WINDOW_STACK_BYTES:
            window_op = memref.AllocaOp.get(IntegerType(8), None, k_shape)
            Rewriter.insert_op(window_op, InsertPoint.at_start(function.body.block))
            return window_op.memref
        allocs.append(memref.AllocOp([], [], MemRefType(IntegerType(8), k_shape)))
        return allocs[-1].memref

    window: SSAValue | None = None
    pair_window: SSAValue | None = None
    if pairs:  # the k range of the contraction on pairs, and the pair packs' k loops
        window = unread([kt])
        if len(c.k) > 1:
            pair_window = unread([*(c.sizes[d] for d in c.k[:-1]), c.sizes[c.k[-1]] // 2])
    elif len(c.k) > 1:
        window = unread([c.sizes[d] for d in c.k])
    b_source, b_map = c.b, c.b_map
    transpose: list[Operation] = []
    layout = transposed_source(c, c.b, c.b_map, c.n) if b_view is None and not pairs else None
    if layout is not None:
        element = c.b.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
        allocs.append(memref.AllocOp([], [], layout.scratch_type(element, bool(c.batch)), IntegerAttr(64, 64)))
        b_source = allocs[-1].memref
        transpose = _transposing_copy(c.b, layout, b_source)
        dim = AffineMap.identity(c.b_map.num_dims).results
        b_map = AffineMap(c.b_map.num_dims, 0, tuple(dim[d] for d in [*c.batch, c.k[0], c.n[0]]))
    entry = function.body.block
    site = op.location  # a failed allocation names the contraction (xDSL's generalization
    if not isinstance(site, FileLineColLoc) and isinstance(c.c.owner, Operation):  # drops its
        site = c.c.owner.location  # location; its result buffer's allocation has it)
    for alloc in allocs:
        alloc.location = site
    Rewriter.insert_op(allocs, InsertPoint.at_start(entry))
    ret = entry.last_op  # (a return is its block's terminator: no scan of the block)
    if isinstance(ret, func.ReturnOp):
        Rewriter.insert_op([memref.DeallocOp.get(x) for x in allocs], InsertPoint.before(ret))
    buffers = iter(x.memref for x in allocs)
    zero = _zero(c.acc_type)
    zero_pair = _zero(tiles.pairs or c.acc_type)
    new_ops: list[Operation] = [zero, zero_pair, *transpose] if pairs else [zero, *transpose]
    packed: list[SSAValue] = []
    for view, source, source_map, cast, free, tile in (
        (a_view, c.a, c.a_map, c.a_cast, c.m, tiles.mr),
        (b_view, b_source, b_map, c.b_cast, c.n, tiles.nr),
    ):
        if view is not None:
            new_ops.append(view)
            packed.append(view.result)
            continue
        full = next(buffers)
        full_type = full.type
        assert isinstance(full_type, MemRefType)
        sizes = [bt, full_type.get_shape()[1], depth, tile, *panel]
        origin, unit = [0] * len(sizes), [1] * len(sizes)
        sub_type = memref.SubviewOp.infer_result_type(full_type, origin, sizes, unit)
        sub = memref.SubviewOp.get(full, origin, sizes, unit, sub_type)
        if pairs:
            pack = _pack_pairs(c, source, source_map, cast, free, tile, sub.result, zero_pair.result, pair_window)
        else:
            pack = _pack_operand(
                c, source, source_map, cast, free, tile, sub.result, zero.result, window, rows_outer=source is b_source
            )
        new_ops += [sub, pack]
        packed.append(sub.result)
    if c3_type is not None:
        c3 = next(buffers)
        flat = AffineMap(3, 0, tuple(_flat_position(c, len(c.sizes))))
        c_dims = [r.used_dims().pop() for r in c.c_map.results]
        to_c = AffineMap(3, 0, tuple(flat.results[d] for d in c_dims))
        before = [_copy(c.c, to_c, c3, AffineMap.identity(3))]
        after = [_copy(c3, AffineMap.identity(3), c.c, to_c)]
    new_ops[1:1] = before
    new_ops.append(_packed_contraction(c, tiles, packed[0], packed[1], c3, window if pairs else None))
    new_ops.extend(after)
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class LinalgPackContractionsPass(ModulePass):
    """Contractions → pack, an mmt4d-form generic on the packed buffers, unpack."""

    name = "linalg-pack-contractions"

    target: str = ""
    """The CPU (`host`, `avx512`, `avx512vnni`, `avx512bf16`, `znver4`, `avx2`, `sse`; empty: `$XLA_DIALECT_TARGET`, else the host) whose register tile sets mr x nr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            contraction = match_contraction(generic)
            if contraction is None or _function_of(generic) is None:
                continue
            tiles = choose_tiles(contraction, self.target)
            if tiles is not None:
                pack_contraction(contraction, tiles)


__all__ = ["LinalgPackContractionsPass", "choose_tiles", "pack_contraction"]
