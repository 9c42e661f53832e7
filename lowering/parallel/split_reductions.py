"""`linalg-split-reductions`: reductions with too little parallel work split into
per-part partial results, combined in a fixed order.

A full reduction (`sum(x)`), or one whose outermost loop is a reduction (a
column sum after `linalg-interchange`), or whose parallel extent is too small to
give each thread rows of its own (4 rows of 1M elements), runs on one thread:
`convert-linalg-to-parallel-loops` only runs parallel dimensions in parallel. As
MLIR's `linalg::splitReduction` does, this pass splits the outermost reduction
dimension `r` (extent R = P * Q) of such a generic on buffers into a new
parallel dimension `s` of P parts and `r'` of Q steps, `r = s * Q + r'`:

    partial = alloc [P, out shape...]
    partial[s, ...] = identity                      (the combiner's neutral element)
    partial[s, p] = fold over r' of the body        (parallel over s: a thread per part)
    out[p] = out[p] (+) partial[0, p] (+) ... (+) partial[P - 1, p]   (in order of s)
    dealloc partial

Each input whose axis along `r` is indexed by `r` alone is read through a view
(`memref.reinterpret_cast`) that splits that axis into [P, Q] with its strides
and offset: its map has plain dimensions, `s` and `r'`, and it stays contiguous
along `r'`, so `linalg-vectorize-reductions` takes the part's reduction (a full
sum: P rows of Q). Where an input cannot be viewed so (a layout that is not
static, `r` inside an expression), the inputs keep `s * Q + r'` in their maps and
the split loops' ranges come from an unread zero-stride [P, Q] view of one byte.

P is fixed at compile time (the largest divisor of R up to `max_parts` that
leaves each part at least `MIN_PART_WORK` of work), never by the thread
count, so the results are identical for every thread count. They differ from
the unsplit loop's by the reassociation, which the spec allows and
`linalg-reassociate-reductions` already makes; `reassociate=False` (bitwise the
spec's order) turns this pass off too (`max_parts=1`).

Handled: outputs of one shape (several when `linalg-fuse-reductions` merged
reductions of one input), no index ops in the body, each yielded value `acc (+) x`
with `(+)` one of the associative, commutative combiners with a neutral element:
`addf` (-0.0, which leaves every value, -0.0 included, unchanged), `mulf` (1),
`maximumf` (-inf), `minimumf` (+inf), integer `addi`, `muli`, `andi`, `ori`,
`xori`, `maxsi`, `minsi`, `maxui`, `minui`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.parallel.linalg_to_parallel_loops import parallel_dimension
from lowering.to_llvm.common import memref_offset, memref_strides, normalize_int

MAX_PARTS = 16
"""The most parts a reduction is split into."""

MIN_SPLIT_WORK = 1 << 23
"""Reductions with less work (the body's operations times the iterations) stay whole:
splitting reassociates, so only reductions long enough to gain much are split."""

MIN_PART_WORK = 1 << 22
"""The least work of one part."""

MIN_PARALLEL_EXTENT = 8
"""A reduction whose parallel loop has fewer iterations than this is split."""


def _float_identity(kind: type[Operation]) -> float | None:
    return {
        arith.AddfOp: -0.0,
        arith.MulfOp: 1.0,
        arith.MaximumfOp: -math.inf,
        arith.MinimumfOp: math.inf,
    }.get(kind)


def _int_identity(kind: type[Operation], width: int) -> int | None:
    """The neutral element as a signless value (all ones is -1)."""
    return {
        arith.AddiOp: 0,
        arith.MuliOp: 1,
        arith.AndIOp: -1,
        arith.OrIOp: 0,
        arith.XOrIOp: 0,
        arith.MaxSIOp: -(1 << (width - 1)),
        arith.MinSIOp: (1 << (width - 1)) - 1,
        arith.MaxUIOp: 0,
        arith.MinUIOp: -1,
    }.get(kind)


def identity(combiner: Operation) -> arith.ConstantOp | None:
    """The neutral element of `combiner` as a constant, None if it is not a known one."""
    t = combiner.results[0].type
    if isinstance(t, AnyFloat):
        value = _float_identity(type(combiner))
        return None if value is None else arith.ConstantOp(FloatAttr(value, t))
    if isinstance(t, IntegerType) and t.width.data > 1:
        value = _int_identity(type(combiner), t.width.data)
        return None if value is None else arith.ConstantOp(IntegerAttr(normalize_int(value, t.width.data), t))
    return None


@dataclass(frozen=True)
class SplitPlan:
    op: GenericOp
    combiners: list[Operation]
    """Per output, the op combining its accumulator with the new value."""
    acc_first: list[bool]
    """Per output, whether the accumulator is its combiner's first operand."""
    dim: int
    """The reduction dimension split."""
    parts: int


def _work(op: GenericOp, ranges: list[int]) -> int:
    """Iterations times the ops of one (its loads included)."""
    ops = sum(1 for o in op.body.block.ops if not isinstance(o, YieldOp)) + len(op.inputs)
    return math.prod(ranges) * max(1, ops)


def _combiners(op: GenericOp) -> tuple[list[Operation], list[bool]] | None:
    """Each output's combiner `acc (+) x` with a neutral element, or None."""
    block = op.body.block
    yielded = block.last_op
    if not isinstance(yielded, YieldOp) or len(yielded.operands) != len(op.outputs):
        return None
    combiners: list[Operation] = []
    acc_first: list[bool] = []
    for acc, value in zip(block.args[len(op.inputs) :], yielded.operands, strict=True):
        combiner = value.owner
        if not isinstance(combiner, Operation) or combiner.parent_block() is not block or len(combiner.operands) != 2:
            return None
        if acc not in combiner.operands or combiner.operands[0] is combiner.operands[1] or acc.uses.get_length() != 1:
            return None
        if identity(combiner) is None or combiner in combiners:
            return None
        combiners.append(combiner)
        acc_first.append(combiner.operands[0] is acc)
    return combiners, acc_first


def plan_split(op: GenericOp, max_parts: int) -> SplitPlan | None:
    """How to split `op` (see the module docstring), or None to leave it."""
    if not op.outputs or op.res or not all(isinstance(v.type, MemRefType) for v in op.operands):
        return None
    if any(o in op.inputs for o in op.outputs) or any(isinstance(o, IndexOp) for o in op.body.walk()):
        return None
    out_maps = op.indexing_maps.data[len(op.inputs) :]
    if len({(o.type.get_shape(), m) for o, m in zip(op.outputs, out_maps, strict=True)}) != 1:  # pyright: ignore[reportAttributeAccessIssue]
        return None  # several outputs: one shape and map
    try:
        ranges = op.get_static_loop_ranges()
    except (NotImplementedError, ValueError, IndexError):
        return None
    if any(r < 0 for r in ranges):
        return None
    iterators = [it.data for it in op.iterator_types.data]
    reductions = [d for d, it in enumerate(iterators) if it == IteratorType.REDUCTION and ranges[d] > 1]
    if not reductions:
        return None
    outer = parallel_dimension(op)
    if outer is not None and ranges[outer] >= MIN_PARALLEL_EXTENT:
        return None  # rows enough for the threads already
    found = _combiners(op)
    work = _work(op, ranges)
    if found is None or work < MIN_SPLIT_WORK:
        return None
    dim = reductions[0]
    limit = min(max_parts, work // MIN_PART_WORK, ranges[dim])
    parts = max((p for p in range(2, limit + 1) if ranges[dim] % p == 0), default=None)
    if parts is None:
        return None
    return SplitPlan(op, found[0], found[1], dim, parts)


def _shift(m: AffineMap, dim: int, steps: int) -> AffineMap:
    """`m` over the split iteration space: d_i -> d_(i+1), and the split dimension
    `dim` -> `d0 * steps + d_(dim+1)`."""
    n = m.num_dims + 1
    dims = [AffineExpr.dimension(i + 1) for i in range(m.num_dims)]
    dims[dim] = AffineExpr.dimension(0) * steps + AffineExpr.dimension(dim + 1)
    return AffineMap(n, 0, tuple(r.replace_dims_and_symbols(dims, []) for r in m.results))


def _split_view(value: SSAValue, m: AffineMap, dim: int, parts: int, steps: int) -> tuple[memref.ReinterpretCastOp, AffineMap] | None:
    """`value` (indexed by `m`) viewed with its axis indexed by `d_dim` alone split
    into [parts, steps], and its map over the split iteration space (`d0` the part,
    `d_(dim+1)` the step): None when no axis is `d_dim` alone, another one uses it,
    or the layout is not static."""
    t = value.type
    if not isinstance(t, MemRefType):
        return None
    axes = [i for i, e in enumerate(m.results) if isinstance(e, AffineDimExpr) and e.position == dim]
    if len(axes) != 1 or any(dim in e.used_dims() for i, e in enumerate(m.results) if i != axes[0]):
        return None
    try:
        strides, offset = list(memref_strides(t)), memref_offset(t)
    except ValueError:
        return None
    shape = list(t.get_shape())
    axis = axes[0]
    if any(s < 0 for s in shape) or shape[axis] != parts * steps:
        return None
    new_shape = [*shape[:axis], parts, steps, *shape[axis + 1 :]]
    new_strides = [*strides[:axis], strides[axis] * steps, strides[axis], *strides[axis + 1 :]]
    view_type = MemRefType(t.get_element_type(), new_shape, StridedLayoutAttr(new_strides, offset))
    cast = memref.ReinterpretCastOp(value, [], [], [], [offset], new_shape, new_strides, view_type)
    d = [AffineExpr.dimension(i + 1) for i in range(m.num_dims)]
    results: list[AffineExpr] = []
    for i, e in enumerate(m.results):
        if i == axis:
            results += [AffineExpr.dimension(0), d[dim]]
        else:
            results.append(e.replace_dims_and_symbols(d, []))
    return cast, AffineMap(m.num_dims + 1, 0, tuple(results))


def _parallel(n: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr(IteratorType.PARALLEL)] * n


def split(plan: SplitPlan) -> None:
    """Rewrite `plan.op` into the fills, the partial reduction and the combine."""
    op, parts = plan.op, plan.parts
    steps = op.get_static_loop_ranges()[plan.dim] // parts
    new_ops: list[Operation] = []
    partials: list[memref.AllocOp] = []
    for out, combiner in zip(op.outputs, plan.combiners, strict=True):
        out_type = out.type
        assert isinstance(out_type, MemRefType)
        shape = [parts, *out_type.get_shape()]
        partial = memref.AllocOp([], [], MemRefType(out_type.get_element_type(), shape), IntegerAttr(64, 64))
        fill_block = Block(arg_types=[out_type.get_element_type()])
        neutral = identity(combiner)
        assert neutral is not None
        fill_block.add_ops([neutral, YieldOp(neutral.result)])
        identity_map = AffineMapAttr(AffineMap.identity(len(shape)))
        fill = GenericOp([], [partial.memref], Region(fill_block), [identity_map], _parallel(len(shape)))
        partials.append(partial)
        new_ops += [partial, fill]

    maps = [m.data for m in op.indexing_maps.data]
    n_in = len(op.inputs)
    n_dims = 1 + len(op.iterator_types.data)
    views = [_split_view(x, m, plan.dim, parts, steps) for x, m in zip(op.inputs, maps[:n_in], strict=True)]
    out_maps: list[AffineMap] = []
    for out_map in maps[n_in:]:
        shifted = _shift(out_map, plan.dim, steps)
        out_maps.append(AffineMap(shifted.num_dims, 0, (AffineExpr.dimension(0), *shifted.results)))
    body = op.detach_region(op.body)
    if views and all(v is not None for v in views):
        # Every input indexed by [P, Q] views: plain dimensions, read contiguously
        # along the split one as before (`linalg-vectorize-reductions` takes it).
        casts = [v[0] for v in views if v is not None]
        new_ops += casts
        in_values: list[SSAValue] = [c.result for c in casts]
        in_maps = [v[1] for v in views if v is not None]
    else:
        # The split loops' ranges come from an unread operand of shape [P, Q] (a
        # zero-stride view of one byte): `r = s * Q + r'` in the inputs' maps gives none.
        byte = memref.AllocaOp.get(IntegerType(8), None, [1])
        function = op.parent_op()
        while function is not None and not isinstance(function, func.FuncOp):
            function = function.parent_op()
        assert function is not None
        Rewriter.insert_op(byte, InsertPoint.at_start(function.body.block))
        range_type = MemRefType(IntegerType(8), [parts, steps], StridedLayoutAttr([0, 0], 0))
        ranges = memref.ReinterpretCastOp(byte.memref, [], [], [], [0], [parts, steps], [0, 0], range_type)
        new_ops.append(ranges)
        range_map = AffineMap(n_dims, 0, (AffineExpr.dimension(0), AffineExpr.dimension(plan.dim + 1)))
        in_values = [ranges.result, *op.inputs]
        in_maps = [range_map, *(_shift(m, plan.dim, steps) for m in maps[:n_in])]
        body.block.insert_arg(IntegerType(8), 0)
    partial_op = GenericOp(
        in_values, [p.memref for p in partials], body,
        [AffineMapAttr(m) for m in [*in_maps, *out_maps]],
        [IteratorTypeAttr(IteratorType.PARALLEL), *op.iterator_types.data],
    )
    for name, attr in op.attributes.items():
        if name not in partial_op.attributes:
            partial_op.attributes[name] = attr
    new_ops.append(partial_op)

    # out[p] = out[p] (+) partial[s, p] over (p..., s), s innermost: combined in the order of s.
    rank = 1 + len(op.outputs[0].type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    elements = [o.type.get_element_type() for o in op.outputs]  # pyright: ignore[reportAttributeAccessIssue]
    block = Block(arg_types=[*elements, *elements])
    n_out = len(elements)
    results = []
    for k, (combiner, first) in enumerate(zip(plan.combiners, plan.acc_first, strict=True)):
        x, acc = block.args[k], block.args[n_out + k]
        combined = combiner.clone()
        combined.operands = [acc, x] if first else [x, acc]
        block.add_op(combined)
        results.append(combined.results[0])
    block.add_op(YieldOp(*results))
    d = AffineMap.identity(rank).results
    partial_map = AffineMapAttr(AffineMap(rank, 0, (d[-1], *d[:-1])))
    out_map_attr = AffineMapAttr(AffineMap(rank, 0, tuple(d[:-1])))
    combine = GenericOp(
        [p.memref for p in partials], list(op.outputs), Region(block),
        [partial_map] * n_out + [out_map_attr] * n_out,
        _parallel(rank - 1) + [IteratorTypeAttr(IteratorType.REDUCTION)],
    )
    new_ops.append(combine)
    new_ops += [memref.DeallocOp.get(p.memref) for p in partials]
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class LinalgSplitReductionsPass(ModulePass):
    """Reductions with little parallel work → per-part partials combined in order."""

    name = "linalg-split-reductions"

    max_parts: int = MAX_PARTS
    """The most parts (1: split nothing, as `compile(..., reassociate=False)` asks)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_parts < 2:
            return
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            plan = plan_split(generic, self.max_parts)
            if plan is not None:
                split(plan)


__all__ = ["MAX_PARTS", "LinalgSplitReductionsPass", "identity", "plan_split", "split"]
