"""`linalg-vectorize-contractions`: cache-blocked loops around a vector micro-kernel.

Takes the contraction on packed operands that `linalg-pack-contractions` emits,
`C3[b, m, n] += A4[b, m / mr, k, m % mr] * B4[b, n / nr, k, n % nr]` on f32, f64,
i32 or i64 buffers (or on bf16 or i16 pairs along k), and emits, as BLIS/GotoBLAS order their loops (with the ic/jc loops outermost,
as BLIS parallelizes them):

    scf.parallel over the parts (b, a block of columns, a block of rows of C3),
      for pc (kc deep: a kc x nr micro-panel of B4 stays in L1),
        for n1 in the part's columns,
          for m1 in the part's rows: micro-kernel on the tile (m1, n1)

A part covers at most one cache block (mc rows, nc columns) and at least
`PART_ROWS` rows when there are that many; the columns are split too when there
would be fewer than `PARTS` parts. When each part covers all columns, A's pack
moves into the parts (`pack_fusion.py`): a part first packs its own rows of A
into a per-thread buffer, which stays in L2 (a convolution's im2col copy no
longer goes through DRAM), then multiplies them. The parts write disjoint blocks of C3 and only
read the packed operands, so they are independent: `convert-parallel-loops-to-calls`
runs them on the thread pool when the contraction is worth it. Each part computes
its elements exactly as a serial run does, so results do not depend on the
thread count.

The micro-kernel holds the mr x nr tile of C3 in mr * nr / lanes vector
registers across its k loop (an `scf.for` carrying them): per k step it loads
the nr / lanes vectors of B4's row, broadcasts each of A4's mr values and issues
one `vector.fma` per accumulator (integers: `arith.muli` and `arith.addi` on
vectors; pairs: one `x86vector.avx512.dot` or `.dot.i16` per accumulator); then it
stores the tile back. A tile that
overhangs C3's edge (the last rows or columns when mr or nr does not divide
them) goes through an mr x nr scratch tile on the stack (a `memref.alloca` first
in the parallel body, so each thread gets its own): its valid part is copied in,
the same micro-kernel runs, and the valid part is copied back. The
block sizes and the vector width come from the target (`target.py`).

Summation order: each product is fused with its sum (`fma`: one rounding
instead of two), and a result element sums its products in increasing k, the
order of the original loop; kc blocking only stores and reloads the partial
sum. So results differ from the unfused loop by at most one rounding per term.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    VectorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.codegen.emitter import Emitter
from lowering.codegen.pack_contractions import packed_maps, pair_packed_maps
from lowering.codegen.pack_fusion import (
    MAX_PART_BYTES,
    FusablePack,
    erase_whole_pack,
    fusable_pack,
    pack_part,
    part_buffer,
    part_bytes,
)
from lowering.codegen.target import NEAR_ROW_BYTES, Target, get_target
from lowering.codegen.x86vector import DotBF16Op, DotI16Op, MulAddI16Op


@dataclass(frozen=True)
class PackedContraction:
    """The operands and extents of a contraction on packed operands."""

    a4: SSAValue
    b4: SSAValue
    c3: SSAValue
    batch: int
    m: int
    n: int
    k: int
    mr: int
    nr: int
    element: Attribute
    pairs: Attribute | None = None
    """A4 and B4 hold pairs along k (`[.., k / 2, tile, 2]`) of this type: bf16 for
    `x86vector.avx512.dot` (f32 sums), i16 for `x86vector.avx512.dot.i16` (i32)."""

    @property
    def m1(self) -> int:
        return -(-self.m // self.mr)

    @property
    def n1(self) -> int:
        return -(-self.n // self.nr)


def match_packed_contraction(op: GenericOp) -> PackedContraction | None:
    """The contraction on packed operands `op` computes, or None: f32/f64/i32/i64
    panels, or bf16-pair (i16-pair) panels, with their unread k-range operand,
    accumulated in f32 (i32)."""
    if len(op.inputs) not in (2, 3) or len(op.outputs) != 1 or op.res:
        return None
    pairs = len(op.inputs) == 3
    types = [v.type for v in (*op.inputs[:2], op.outputs[0])]
    if not all(isinstance(t, MemRefType) for t in types):
        return None
    ta, tb, tc = types
    assert isinstance(ta, MemRefType) and isinstance(tb, MemRefType) and isinstance(tc, MemRefType)
    rank = 5 if pairs else 4
    if ta.get_num_dims() != rank or tb.get_num_dims() != rank or tc.get_num_dims() != 3:
        return None
    element = tc.get_element_type()
    operand = _PAIRS.get(element) if pairs else element
    if operand is None or element not in _ELEMENTS:
        return None
    integer = isinstance(element, IntegerType)
    cast_type, mul_type, add_type = (
        (arith.ExtSIOp, arith.MuliOp, arith.AddiOp) if integer else (arith.ExtFOp, arith.MulfOp, arith.AddfOp)
    )
    if ta.get_element_type() != operand or tb.get_element_type() != operand:
        return None
    mr, nr = ta.get_shape()[3], tb.get_shape()[3]
    if mr <= 0 or nr <= 0:
        return None
    maps = tuple(m.data for m in op.indexing_maps.data)
    if pairs:
        a_map, b_map, c_map = pair_packed_maps(mr, nr)
        k_map = AffineMap(4, 0, (AffineMap.identity(4).results[3],))
        if maps != (a_map, b_map, k_map, c_map) or (pairs and tb.get_shape()[4] != 2):
            return None
    elif maps != packed_maps(mr, nr):
        return None
    iterators = [it.data for it in op.iterator_types.data]
    if iterators != [IteratorType.PARALLEL] * 3 + [IteratorType.REDUCTION]:
        return None
    block = op.body.block
    ops = list(block.ops)
    x, y = block.args[0], block.args[1]
    acc = block.args[-1]
    if pairs:
        if len(ops) != 5 or not all(isinstance(o, cast_type) for o in ops[:2]):
            return None
        if {ops[0].operands[0], ops[1].operands[0]} != {x, y} or x is y:
            return None
        x, y = ops[0].results[0], ops[1].results[0]
        ops = ops[2:]
    if len(ops) != 3 or not isinstance(ops[0], mul_type) or not isinstance(ops[1], add_type):
        return None
    mul, add, yield_op = ops
    if x is y or set(mul.operands) != {x, y} or set(add.operands) != {acc, mul.results[0]}:
        return None
    if not isinstance(yield_op, YieldOp) or yield_op.operands[0] is not add.results[0]:
        return None
    batch, m, n = tc.get_shape()
    k = op.inputs[2].type.get_shape()[0] if pairs else ta.get_shape()[2]  # pyright: ignore[reportAttributeAccessIssue]
    if min(batch, m, n, k) <= 0 or ta.get_shape()[1] != -(-m // mr) or tb.get_shape()[1] != -(-n // nr):
        return None
    return PackedContraction(
        op.inputs[0], op.inputs[1], op.outputs[0], batch, m, n, k, mr, nr, element, operand if pairs else None
    )


_ELEMENTS = (Float32Type(), Float64Type(), IntegerType(32), IntegerType(64))
"""The accumulator types the micro-kernel computes in."""

_PAIRS: dict[Attribute, Attribute] = {Float32Type(): BFloat16Type(), IntegerType(32): IntegerType(16)}
"""Pair-packed operand type by accumulator type: `vdpbf16ps`, `vpdpwssd`."""


APanel = tuple[SSAValue, SSAValue, SSAValue]
"""A packed A and the (batch, row panel) indices of a tile's panel in it."""

TileIndex = Callable[[Emitter, int, int], list[SSAValue]]
"""The indices of the tile element (row r, column j) in the buffer the kernel updates."""


def _micro_kernel(
    e: Emitter, pc: PackedContraction, lanes: int, b: SSAValue, m1: SSAValue, n1: SSAValue,
    k_lo: SSAValue | int, k_hi: SSAValue | int, tile: SSAValue, tile_index: TileIndex, first: First = False,
    a_panel: APanel | None = None, b_panel: APanel | None = None,
) -> None:
    """tile += A4[b, m1, k_lo:k_hi] . B4[b, n1, k_lo:k_hi], accumulating in vector registers;
    tile = ... instead when `first` (the tile's zeros are not loaded; an `i1` value: an
    `scf.if` chooses at run time between zeros and the loaded tile). `a_panel` is where
    A's panel is read when not from A4[b, m1] (a part's own packed rows); `b_panel`, B's,
    when not from B4[b, n1] (a part's own packed columns)."""
    a4, a_b, a_m1 = a_panel if a_panel is not None else (pc.a4, b, m1)
    b4, b_b, b_n1 = b_panel if b_panel is not None else (pc.b4, b, n1)
    vt = VectorType(pc.element, [lanes])
    nv = pc.nr // lanes
    positions = [(r, v * lanes) for r in range(pc.mr) for v in range(nv)]
    integer = isinstance(pc.element, IntegerType)

    def zeros(ez: Emitter) -> list[SSAValue]:
        scalar = IntegerAttr(0, pc.element) if integer else FloatAttr(0.0, pc.element)  # pyright: ignore[reportArgumentType]
        zero = ez.value(vector.BroadcastOp(ez.value(arith.ConstantOp(scalar)), vt))  # pyright: ignore[reportArgumentType]
        return [zero] * len(positions)

    def loads(el: Emitter) -> list[SSAValue]:
        return [el.value(vector.LoadOp(tile, tile_index(el, r, j), vt)) for r, j in positions]

    if isinstance(first, SSAValue):
        acc0 = list(e.if_(first, zeros, loads, [vt] * len(positions)))
    else:
        acc0 = zeros(e) if first else loads(e)

    def k_step(body: Emitter, k: SSAValue, acc: Sequence[SSAValue]) -> list[SSAValue]:
        row = [body.value(vector.LoadOp(b4, [b_b, b_n1, k, body.index(v * lanes)], vt)) for v in range(nv)]
        out = list(acc)
        for r in range(pc.mr):
            a = body.value(memref.LoadOp.get(a4, [a_b, a_m1, k, body.index(r)]))
            broadcast = body.value(vector.BroadcastOp(a, vt))
            for v in range(nv):
                if integer:
                    product = body.value(arith.MuliOp(broadcast, row[v]))
                    out[r * nv + v] = body.value(arith.AddiOp(out[r * nv + v], product))
                else:
                    out[r * nv + v] = body.value(vector.FMAOp(broadcast, row[v], out[r * nv + v]))
        return out

    def pair_step(body: Emitter, kh: SSAValue, acc: Sequence[SSAValue]) -> list[SSAValue]:
        """One pair of k: `vdpbf16ps` (`vpdpwssd`) on B4's 2 x nr row and each row's broadcast pair."""
        assert pc.pairs is not None
        pair_row = VectorType(pc.pairs, [2 * lanes])
        dot = DotI16Op if integer else DotBF16Op
        zero = body.index(0)
        row = [body.value(vector.LoadOp(b4, [b_b, b_n1, kh, body.index(v * lanes), zero], pair_row)) for v in range(nv)]
        out = list(acc)
        for r in range(pc.mr):
            pair = body.value(vector.LoadOp(a4, [a_b, a_m1, kh, body.index(r), zero], VectorType(pc.pairs, [2])))
            word = body.value(vector.BitcastOp(pair, VectorType(IntegerType(32), [1])))
            words = body.value(vector.BroadcastOp(word, VectorType(IntegerType(32), [lanes])))
            broadcast = body.value(vector.BitcastOp(words, pair_row))
            for v in range(nv):
                if integer and lanes == 8:  # AVX2: `vpmaddwd`, then the sum
                    products = body.value(MulAddI16Op(broadcast, row[v]))
                    out[r * nv + v] = body.value(arith.AddiOp(out[r * nv + v], products))
                else:
                    out[r * nv + v] = body.value(dot(out[r * nv + v], broadcast, row[v]))
        return out

    if pc.pairs is not None:
        # k_lo is a multiple of the (even) k block; the last pair may hold a padding zero.
        pair_lo = e.divui(k_lo, 2)
        pair_hi = e.divui(e.addi(k_hi, 1), 2)
        results = e.loop(pair_lo, pair_hi, 1, pair_step, acc0)
    else:
        results = e.loop(k_lo, k_hi, 1, k_step, acc0)
    for (r, j), value in zip(positions, results, strict=True):
        e.add(vector.StoreOp(value, tile, tile_index(e, r, j)))


Index = Callable[[Emitter, SSAValue, SSAValue], list[SSAValue]]

First = bool | SSAValue
"""Whether a k block is the first of a zero-started contraction: known when emitted, or
an `i1` computed in the k-block loop."""


"""The indices of element (row, column) of a tile in some buffer."""


def _copy_tile(e: Emitter, rows: SSAValue | int, cols: SSAValue | int, source: SSAValue, source_index: Index,
               dest: SSAValue, dest_index: Index) -> None:
    """dest[tile element] = source[tile element] for the first `rows` x `cols` elements."""
    def over_rows(er: Emitter, r: SSAValue, _: Sequence[SSAValue]) -> list[SSAValue]:
        def over_cols(ej: Emitter, j: SSAValue, _: Sequence[SSAValue]) -> list[SSAValue]:
            value = ej.value(memref.LoadOp.get(source, source_index(ej, r, j)))
            ej.add(memref.StoreOp.get(value, dest, dest_index(ej, r, j)))
            return []

        er.loop(0, cols, 1, over_cols)
        return []

    e.loop(0, rows, 1, over_rows)


def _tile(e: Emitter, pc: PackedContraction, lanes: int, scratch: SSAValue | None, b: SSAValue, m1: SSAValue,
          n1: SSAValue, k_lo: SSAValue | int, k_hi: SSAValue | int, first: First = False,
          a_panel: APanel | None = None, b_panel: APanel | None = None) -> None:
    """The micro-kernel on C3's tile (m1, n1): in place when whole, through `scratch` at an edge
    (copied in unless `first`: then C3 holds no partial sums yet)."""
    row0 = e.muli(m1, pc.mr)
    col0 = e.muli(n1, pc.nr)

    def in_c3(em: Emitter, r: int, j: int) -> list[SSAValue]:
        return [b, em.materialize(em.addi(row0, r)), em.materialize(em.addi(col0, j))]

    def in_scratch(em: Emitter, r: int, j: int) -> list[SSAValue]:
        return [em.index(r), em.index(j)]

    whole_rows, whole_cols = pc.m // pc.mr, pc.n // pc.nr
    if whole_rows == pc.m1 and whole_cols == pc.n1:
        _micro_kernel(e, pc, lanes, b, m1, n1, k_lo, k_hi, pc.c3, in_c3, first, a_panel, b_panel)
        return
    assert scratch is not None
    then_block, else_block = Block(), Block()
    then_e, else_e = Emitter(block=then_block), Emitter(block=else_block)
    if whole_rows and whole_cols:
        _micro_kernel(then_e, pc, lanes, b, m1, n1, k_lo, k_hi, pc.c3, in_c3, first, a_panel, b_panel)
    else:
        else_e = e  # every tile overhangs an edge
    rows = else_e.minui(pc.mr, else_e.value(arith.SubiOp(else_e.index(pc.m), else_e.materialize(row0))))
    cols = else_e.minui(pc.nr, else_e.value(arith.SubiOp(else_e.index(pc.n), else_e.materialize(col0))))

    def c3_at(em: Emitter, r: SSAValue, j: SSAValue) -> list[SSAValue]:
        return [b, em.materialize(em.addi(row0, r)), em.materialize(em.addi(col0, j))]

    def scratch_at(em: Emitter, r: SSAValue, j: SSAValue) -> list[SSAValue]:
        return [r, j]

    def copy_in(ec: Emitter) -> list[SSAValue]:
        _copy_tile(ec, rows, cols, pc.c3, c3_at, scratch, scratch_at)
        return []

    if isinstance(first, SSAValue):
        else_e.if_(first, lambda _: [], copy_in)
    elif not first:
        copy_in(else_e)
    _micro_kernel(else_e, pc, lanes, b, m1, n1, k_lo, k_hi, scratch, in_scratch, first, a_panel, b_panel)
    _copy_tile(else_e, rows, cols, scratch, scratch_at, pc.c3, c3_at)
    if else_e is e:
        return
    then_block.add_op(scf.YieldOp())
    else_block.add_op(scf.YieldOp())
    whole = e.value(arith.AndIOp(e.ult(m1, whole_rows), e.ult(n1, whole_cols)))
    e.add(scf.IfOp(whole, [], Region(then_block), Region(else_block)))


PART_ROWS = 64
"""The fewest output rows a parallel part covers: each kc x nr micro-panel of B4
it loads into L1 is reused by the tiles of this many rows."""

PARTS = 16
"""Parts wanted when the batch and the row parts give fewer: the columns are then
split too (a skinny product, 8 x 4096 by 4096 x 4096, has one part of rows)."""


def parallel_parts(pc: PackedContraction, mb: int, nb: int, whole_rows: bool = False) -> tuple[int, int]:
    """(pm, pn): the register tiles of rows and of columns one parallel part covers,
    at most one cache block (mb x nb tiles) each. `whole_rows`: all rows in one part
    (they fit a block: see `blocking`; B's pack then moves into the parts)."""
    pm = min(pc.m1, mb, max(1, -(-PART_ROWS // pc.mr)))
    if whole_rows:
        pm = pc.m1
    wanted = -(-PARTS // (pc.batch * -(-pc.m1 // pm)))
    pn = min(nb, pc.n1 if wanted <= 1 else -(-pc.n1 // wanted))
    return pm, pn


_FILL_VIEWS = (memref.ReinterpretCastOp, memref.SubviewOp)
"""The views of C's buffer `zero_fill_before` looks through; an op using the buffer in
any other way counts as touching it (conservative: the fill stays)."""


def _is_zero_fill(op: Operation, buffer: SSAValue) -> bool:
    """Whether `op` fills all of `buffer` with a constant (+)zero: a `linalg.fill`, or
    the generic `linalg-generalize-named-ops` makes of one."""
    if not isinstance(op, GenericOp | FillOp) or len(op.inputs) != 1 or list(op.outputs) != [buffer]:
        return False
    if isinstance(op, GenericOp):
        maps = [m.data for m in op.indexing_maps.data]
        if maps[0].results or maps[1] != AffineMap.identity(maps[1].num_dims):
            return False
        body = list(op.body.block.ops)
        if len(body) != 1 or not isinstance(body[0], YieldOp) or body[0].operands[0] is not op.body.block.args[0]:
            return False
    constant = op.inputs[0].owner
    if not isinstance(constant, arith.ConstantOp):
        return False
    if isinstance(constant.value, IntegerAttr):
        return constant.value.value.data == 0
    return (
        isinstance(constant.value, FloatAttr)
        and constant.value.value.data == 0.0
        and not math.copysign(1.0, constant.value.value.data) < 0
    )


def _same_extent(x: SSAValue, y: SSAValue) -> bool:
    tx, ty = x.type, y.type
    return isinstance(tx, MemRefType) and isinstance(ty, MemRefType) and (
        math.prod(tx.get_shape()) == math.prod(ty.get_shape())
    )


def zero_fill_before(op: GenericOp, c3: SSAValue) -> GenericOp | FillOp | None:
    """The generic filling the buffer `c3` views with +0.0 that is the last op before
    `op` in its block to touch that buffer (views of it aside), or None. The
    contraction then starts its tiles from zero and the fill can go: one pass over
    C fewer (4 MiB of stores for matmul 1024), and no loads of zeros."""
    root = c3
    while isinstance(root.owner, memref.ReinterpretCastOp) and list(root.owner.static_offsets.get_values()) == [0]:
        root = root.owner.source
    if isinstance(root.owner, memref.SubviewOp) or not _same_extent(root, c3):
        return None  # C3 is a part of some buffer: the fill reaches beyond it
    aliases = {root}
    for use in root.uses:
        if isinstance(use.operation, _FILL_VIEWS):
            aliases |= set(use.operation.results)
    current = op.prev_op
    while current is not None:
        if _is_zero_fill(current, root):
            return current
        if isinstance(current, _FILL_VIEWS) and current.source in aliases:
            current = current.prev_op
            continue
        touches = any(v in aliases for v in current.operands) or any(
            v in aliases for inner in current.walk() for v in inner.operands
        )
        if touches:
            return None
        current = current.prev_op
    return None


def balanced_depth(k: int, kc: int) -> int:
    """The k block depth: as few blocks as `kc` allows, of equal depth (rounded up to
    16, which keeps bf16 pairs whole). A last block much shallower than the others
    would store and reload the register tiles for few FMAs: K = 576 (a 3x3x64
    convolution) runs as 2 x 288, not 512 + 64."""
    if k <= kc:
        return k
    blocks = -(-k // kc)
    depth = -(-k // blocks)
    return min(kc, depth + -depth % 16)


def _rows_near(panels: SSAValue, element_bits: int) -> bool:
    """Whether the k rows of each panel of `panels` (`[b, n1, k, n0(, pair)]`) follow
    one another in memory, as in a packed buffer, or lie at most `NEAR_ROW_BYTES`
    apart, rather than far apart, as in a wide operand read in place through a
    strided view."""
    t = panels.type
    assert isinstance(t, MemRefType)
    if isinstance(t.layout, NoneAttr):
        return True
    if not isinstance(t.layout, StridedLayoutAttr):
        return False
    strides = t.layout.get_strides()
    shape = t.get_shape()
    k_stride = strides[2]
    if k_stride == math.prod(shape[3:]):
        return True
    return isinstance(k_stride, int) and k_stride * element_bits // 8 <= NEAR_ROW_BYTES


@dataclass(frozen=True)
class Blocking:
    """The k block depth and the parallel parts: pm x pn register tiles each,
    m_parts x n_parts of them per batch."""

    kc: int
    pm: int
    pn: int
    m_parts: int
    n_parts: int


def blocking(pc: PackedContraction, target: Target, whole_rows: bool = False) -> Blocking:
    """The blocking of `pc` for `target`'s caches (see the module docstring);
    `whole_rows`: one part of rows when they fit a cache block (`parallel_parts`)."""
    bits = pc.element.bitwidth  # pyright: ignore[reportAttributeAccessIssue]
    kc, mc, nc = target.cache_blocks(bits, packed=_rows_near(pc.b4, bits))
    # All rows in one part when asked and their k block fits the half of L2 a cache
    # block of A takes (mc is rounded to the target's tile rows, not to pc.mr).
    rows_fit = pc.m * min(kc, pc.k) * bits // 8 <= target.l2 // 2
    pm, pn = parallel_parts(pc, max(1, mc // pc.mr), max(1, nc // pc.nr), whole_rows and rows_fit)
    return Blocking(balanced_depth(pc.k, kc), pm, pn, -(-pc.m1 // pm), -(-pc.n1 // pn))


def _pack_in_part(ep: Emitter, fused: FusablePack, local: SSAValue, b: SSAValue, part: SSAValue | int,
                  lo: SSAValue | int, per_part: int, total: int, parts: int) -> None:
    """Pack the part's panels (`per_part` from `lo`: rows of A or columns of B, `total`
    in `parts` parts) into `local`; the last part, when shorter, packs fewer (each
    generic has static extents)."""
    last = total - (parts - 1) * per_part
    if last == per_part:
        pack_part(ep, fused, local, b, lo, per_part)
        return
    then_block, else_block = Block(), Block()
    pack_part(Emitter(block=then_block), fused, local, b, lo, last)
    pack_part(Emitter(block=else_block), fused, local, b, lo, per_part)
    then_block.add_op(scf.YieldOp())
    else_block.add_op(scf.YieldOp())
    is_last = ep.value(arith.CmpiOp(ep.materialize(part), ep.index(parts - 1), "eq"))
    ep.add(scf.IfOp(is_last, [], Region(then_block), Region(else_block)))


def emit_blocked_loops(e: Emitter, pc: PackedContraction, target: Target, zero_start: bool = False,
                       fused: FusablePack | None = None, fused_b: FusablePack | None = None) -> scf.ParallelOp:
    """The loop nest around the micro-kernel (see the module docstring). With
    `zero_start` (C3 was just filled with zeros, and that fill dropped), the first
    k block starts its tiles from zero instead of loading them: chosen at run time
    by an `scf.if` in front of each tile's k loop, not by peeling the first k block,
    which would emit every micro-kernel twice (compile time: LLVM optimizes and
    compiles each copy). With `fused`, A's pack, each part packs its own rows of A
    first (`pack_fusion.py`); with `fused_b`, B's pack: each part (all rows, a block
    of columns) packs its own columns of B first."""
    bits = pc.element.bitwidth  # pyright: ignore[reportAttributeAccessIssue]
    lanes = target.lanes(bits)
    blocks = blocking(pc, target, whole_rows=fused_b is not None)
    kc, pm, pn, m_parts, n_parts = blocks.kc, blocks.pm, blocks.pn, blocks.m_parts, blocks.n_parts
    assert fused is None or n_parts == 1
    assert fused_b is None or (m_parts == 1 and fused is None)
    edges = pc.m % pc.mr != 0 or pc.n % pc.nr != 0

    def upper(body: Emitter, start: SSAValue | int, block: int, total: int) -> SSAValue | int:
        if block >= total:
            return total
        end = body.addi(start, block)
        return end if total % block == 0 else body.minui(end, total)

    def part(ep: Emitter, t: SSAValue) -> None:
        scratch: SSAValue | None = None
        if edges:  # first in the body: one per thread once outlined
            scratch = ep.value(memref.AllocaOp.get(pc.element, 64, [pc.mr, pc.nr]))
        local = part_buffer(ep, fused, pm) if fused is not None else None
        local_b = part_buffer(ep, fused_b, pn) if fused_b is not None else None
        b, jp, ip = ep.delinearize(t, [pc.batch, n_parts, m_parts])
        m_lo = ep.muli(ip, pm)
        n_lo = ep.muli(jp, pn)
        m_hi = upper(ep, m_lo, pm, pc.m1)
        n_hi = upper(ep, n_lo, pn, pc.n1)
        b_index = ep.materialize(b)
        if fused is not None and local is not None:
            _pack_in_part(ep, fused, local, b_index, ip, m_lo, pm, pc.m1, m_parts)
        if fused_b is not None and local_b is not None:
            _pack_in_part(ep, fused_b, local_b, b_index, jp, n_lo, pn, pc.n1, n_parts)

        def k_block(ek: Emitter, k0: SSAValue | int, first: First) -> None:
            k_hi = upper(ek, k0, kc, pc.k)

            def over_n1(ej: Emitter, n1: SSAValue, _: Sequence[SSAValue]) -> list[SSAValue]:
                def over_m1(ei: Emitter, m1: SSAValue, _: Sequence[SSAValue]) -> list[SSAValue]:
                    a_panel: APanel | None = None
                    b_panel: APanel | None = None
                    if local is not None:
                        a_panel = (local, ei.index(0), ei.materialize(ei.value(arith.SubiOp(m1, ei.materialize(m_lo)))))
                    if local_b is not None:
                        b_panel = (local_b, ei.index(0), ei.materialize(ei.value(arith.SubiOp(n1, ei.materialize(n_lo)))))
                    _tile(ei, pc, lanes, scratch, b_index, m1, n1, k0, k_hi, first, a_panel, b_panel)
                    return []

                ej.loop(m_lo, m_hi, 1, over_m1)
                return []

            ek.loop(n_lo, n_hi, 1, over_n1)

        def over_pc(ek: Emitter, k0: SSAValue, _: Sequence[SSAValue]) -> list[SSAValue]:
            k_block(ek, k0, ek.value(arith.CmpiOp(k0, ek.index(0), "eq")) if zero_start else False)
            return []

        if zero_start and pc.k <= kc:
            k_block(ep, 0, True)
        else:
            ep.loop(0, pc.k, kc, over_pc)

    return e.parallel(0, pc.batch * n_parts * m_parts, part)


@dataclass(frozen=True)
class LinalgVectorizeContractionsPass(ModulePass):
    """Contractions on packed operands → cache-blocked loops around a vector micro-kernel."""

    name = "linalg-vectorize-contractions"

    target: str = ""
    """The CPU (`host`, `avx512`, `avx512vnni`, `avx512bf16`, `znver4`, `avx2`, `sse`; empty: `$XLA_DIALECT_TARGET`, else the host) whose vector width and caches set the blocking."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = get_target(self.target)
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            pc = match_packed_contraction(generic)
            if pc is None:
                continue
            lanes = target.lanes(pc.element.bitwidth)  # pyright: ignore[reportAttributeAccessIssue]
            if pc.nr % lanes:
                continue
            fill = zero_fill_before(generic, pc.c3)
            if fill is not None:
                Rewriter.erase_op(fill)
            fused, fused_b = self._fusable_packs(generic, pc, target)
            e = Emitter()
            emit_blocked_loops(e, pc, target, zero_start=fill is not None, fused=fused, fused_b=fused_b)
            Rewriter.insert_op(e.ops, InsertPoint.before(generic))
            Rewriter.erase_op(generic)
            for pack in (fused, fused_b):
                if pack is not None:
                    erase_whole_pack(pack)

    @staticmethod
    def _fusable_packs(
        generic: GenericOp, pc: PackedContraction, target: Target
    ) -> tuple[FusablePack | None, FusablePack | None]:
        """The packs that move into the parts, (A's, B's), at most one of them. A's when
        each part covers all columns (every row packed once) and its packed rows fit
        `MAX_PART_BYTES`; else, on targets with `right_pack_in_parts`, B's when all rows
        fit one part (every column packed once) and the part's columns fit
        `MAX_RIGHT_PART_BYTES` (a k block of them `MAX_PART_BYTES`)."""
        blocks = blocking(pc, target)
        if blocks.n_parts == 1:
            fused = fusable_pack(generic, pc.a4)
            if fused is not None and part_bytes(fused, blocks.pm) <= MAX_PART_BYTES:
                return fused, None
        if not target.right_pack_in_parts:
            return None, None
        whole = blocking(pc, target, whole_rows=True)
        if whole.m_parts != 1:
            return None, None
        fused_b = fusable_pack(generic, pc.b4)
        if fused_b is None:
            return None, None
        size = part_bytes(fused_b, whole.pn)
        block = size * min(whole.kc, pc.k) // max(1, fused_b.buffer_type.get_shape()[2])
        if size > MAX_RIGHT_PART_BYTES or block > MAX_PART_BYTES:
            return None, None
        return None, fused_b


MAX_RIGHT_PART_BYTES = 1 << 20
"""The largest per-thread packed B of a part (on the thread's stack): its columns are
read by every row tile of the part, a k block at a time (at most `MAX_PART_BYTES` of
them, which stay in L2)."""


__all__ = ["LinalgVectorizeContractionsPass", "PackedContraction", "emit_blocked_loops", "match_packed_contraction"]
