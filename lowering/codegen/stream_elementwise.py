"""`linalg-stream-elementwise`: element-wise loops into large outputs, vectorized here and
written with non-temporal stores.

An ordinary store to a line that is not in the cache first reads the line from memory
(read-for-ownership) and then leaves it in the cache: for `y = f(x)` over arrays far
larger than the last-level cache that read is a third of the memory traffic, and the
lines evict the inputs'. Non-temporal stores (`vmovntps`) go to memory through the
write-combining buffers, without the read; they need a whole register at an address
aligned to it, which the loop LLVM vectorizes from scalar code cannot promise (LLVM does
not vectorize a scalar store marked non-temporal at all), so this pass vectorizes such
loops itself.

It takes a `linalg.generic` on buffers with parallel iterators only, one output, every
operand read and written through the identity map, all of the same static shape with
the identity layout (contiguous: viewed as one flat row by `memref.collapse_shape`), and
a body of element-wise `arith`/`math` ops and the type-overloaded scalar
`llvm.call_intrinsic`s earlier expansions make (`llvm.lrint`, `llvm.ldexp`: renamed for
vectors); the output's buffer must be at least `min_bytes` (default: the target's
`streaming_store_bytes`, a quarter of the L3), and the body at most `max_work_per_byte`
ops per byte it moves (more is compute-bound; see the option). Over the flat row of `n`
elements, with `align` the elements of a 64-byte line (or of a register, if wider):

* `peel`, the elements before the first output address on a line boundary, computed at
  run time from the output's pointer (NumPy's buffers are only 16-byte aligned);
* an `scf.parallel` over `(n - align + 1) / wide` iterations (static, so the thread
  pool's cost model sees its work) of `wide = group` registers from `peel`: one
  `vector.load` per input, the body cloned on `vector<wide x T>` (`BodyCloner`), one
  `vector.store` marked `nontemporal`. LLVM splits each wide op into `group` register
  ops, independent chains that hide each other's latency, as its loop vectorizer's
  interleaving does for the scalar loop (with one register per iteration GELU tanh took
  17% longer than LLVM's loop);
* one `scf.for` (not unrolled) over the edges, each a `vector<align x T>` under a mask
  (`vector.maskedload`/`maskedstore`): the peel, then the rest from the end of the
  vectors. One copy of the body for both: each copy costs compile time.

Every element goes through the same ops as in the scalar loop (the same expansions, on
vectors), so the results are bitwise those of the loop LLVM would have vectorized.

Segments (`streams`): over outputs of at least `stream_bytes` whose loop is memory
bound (`stream_work_per_byte`), the vectors' range is read as S contiguous segments
side by side, as `linalg-vectorize-reductions` reads long rows: iteration `j` of the
`scf.parallel` takes `seg = wide / S` elements (whole lines) at `peel + s * length +
j * seg` for each segment `s`, joins each input's S parts with `vector.shuffle`s into
one `vector<wide x T>` for one copy of the body, and stores the result's S parts
non-temporally where they came from; `length` is a whole number of `seg`, shortened
so that the segments start about a page / S apart modulo a page, and what the
segments leave goes to the masked edges. One core then has more lines in flight
from memory. The pass picks S by the arrays (4 for one input, 2 for two or three,
1 from four: each segment's output is one more write-combining stream, and a core
has few). Measured (4M f32, one core, CPU time paired with XLA's call): the
element-wise chain 0.93 -> 0.87 of XLA's time, logistic 0.68-0.72 -> 0.62-0.66,
GELU tanh 0.70 -> 0.68, tanh(a) exp(-b^2) + a 0.60-0.62 -> 0.58-0.60. Element-wise
ops are not reordered, so the results are the one-stream kernel's bit for bit; every
iteration does the same work, so the thread pool's even split of the iterations is an
even split of the elements (a thread's chunk is the same range of every segment).

Measured on the Cascade Lake (one core, A/B in one process, CPU-time medians, 4M f32):
tanh(a) exp(-b^2) + a 6.33 -> 5.17 ms, GELU exact 10.0 -> 8.27, GELU tanh 5.10 -> 4.03,
logistic 3.86 -> 3.55 (the machine shared with other work: absolute times vary between
runs, the ratios less).

No fence follows the stores (as in `linalg-stream-copies`): a thread reads its own
non-temporal stores in order, and the thread pool ends each chunk with a locked atomic,
which orders them before anything another thread does after the join.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, llvm, memref, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from lowering.codegen.emitter import Emitter
from lowering.codegen.stream_copies import streamable_element_bits
from lowering.codegen.target import get_target
from lowering.codegen.vectorize_reductions import BodyCloner
from lowering.loop_annotation import set_no_unroll

_TYPE_SUFFIX = re.compile(r"^(i\d+|f\d+|bf16)$")
"""A component of an overloaded intrinsic's name that spells a scalar type (`.f32`)."""


def _vector_intrinsic(name: str, lanes: int) -> str | None:
    """The name of `name` (an intrinsic overloaded on scalar types, `llvm.lrint.i32.f32`)
    on vectors of `lanes` (`llvm.lrint.v16i32.v16f32`); None if it has no type suffix
    or is target-specific."""
    parts = name.split(".")
    count = 0
    while count < len(parts) - 2 and _TYPE_SUFFIX.match(parts[len(parts) - 1 - count]):
        count += 1
    if count == 0 or parts[1] in ("x86", "aarch64", "arm"):
        return None
    head, tail = parts[: len(parts) - count], parts[len(parts) - count :]
    return ".".join([*head, *(f"v{lanes}{t}" for t in tail)])


def _scalar_ok(t: Attribute) -> bool:
    return streamable_element_bits(MemRefType(t, [1])) is not None or (isinstance(t, IntegerType) and t.width.data == 1)


def _body_ok(op: GenericOp, rank: int) -> bool:
    """Element-wise ops only (see the module docstring); `linalg.index` of a rank-1
    loop only as converted to an integer."""
    for inner in op.body.block.ops:
        if isinstance(inner, YieldOp):
            continue
        if inner.regions:
            return False
        if isinstance(inner, IndexOp):
            if rank != 1 or not all(
                isinstance(u.operation, arith.IndexCastOp) and _scalar_ok(u.operation.result.type)
                for u in inner.result.uses
            ):
                return False
            continue
        if isinstance(inner, llvm.CallIntrinsicOp):
            if _vector_intrinsic(inner.intrin.data, 2) is None or len(inner.results) != 1:
                return False
        elif inner.dialect_name() not in ("arith", "math"):
            return False
        if any(not _scalar_ok(x.type) for x in (*inner.operands, *inner.results)):
            return False
    return True


FUNCTIONS = frozenset(
    {
        "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
        "math.tanh", "math.sin", "math.cos", "math.tan", "math.atan", "math.atan2", "math.erf",
        "math.powf", "math.cbrt", "math.rsqrt",
    }
)  # fmt: skip
"""The `math` ops `math-polynomial-approximation` expands (into about `FUNCTION_WORK` ops)."""

FUNCTION_WORK = 24
"""What an expanded function counts in `work` (`math_approximation.EXPANSION_SIZE`)."""


def work(op: GenericOp) -> int:
    """The ops of one element of `op`'s body but constants, an expanded function counting
    `FUNCTION_WORK`."""
    return sum(
        FUNCTION_WORK if inner.name in FUNCTIONS else 1
        for inner in op.body.block.ops
        if not isinstance(inner, arith.ConstantOp | YieldOp)
    )


TRIG = frozenset({"math.sin", "math.cos", "math.tan"})
"""Functions whose expansion is far longer than `FUNCTION_WORK` (their range reduction
computes in f64): sin(a) cos(b) is 1,674 instructions for 4 vectors of 16 f32 on
AVX-512 where `work` counts 49 an element (logistic: 79 for 27, GELU tanh: 135 for
32, tanh(a) exp(-b^2) + a: 248 for 52)."""

TRIG_WORK = 200
"""What a `TRIG` function counts in `stream_work`: ~200 instructions a vector."""


def stream_work(op: GenericOp) -> int:
    """`work`, the `TRIG` functions counted `TRIG_WORK`: the arithmetic measure that
    decides segments (`LinalgStreamElementwisePass.stream_work_per_byte`)."""
    return work(op) + sum(TRIG_WORK - FUNCTION_WORK for inner in op.body.block.ops if inner.name in TRIG)


def traffic(op: GenericOp) -> int:
    """The bytes one element of `op` reads and writes."""
    total = 0
    for x in op.operands:
        bits = streamable_element_bits(x.type) if isinstance(x.type, MemRefType) else None
        total += (bits or 0) // 8
    return total


def _contiguous(t: Attribute) -> bool:
    """A static memref with the identity layout (its view starts at element 0 of a
    row-major buffer: function arguments and allocations)."""
    return isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr) and all(s >= 1 for s in t.get_shape())


def streamable(op: Operation) -> bool:
    """Whether `op` is an element-wise generic this pass rewrites (before the size test)."""
    if not isinstance(op, GenericOp) or op.res or len(op.outputs) != 1:
        return False
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types.data):
        return False
    maps = [m.data for m in op.indexing_maps.data]
    if any(m.results != tuple(AffineDimExpr(d) for d in range(m.num_dims)) or m.num_symbols for m in maps):
        return False
    types = [x.type for x in op.operands]
    if not all(_contiguous(t) for t in types):
        return False
    shape = types[0].get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    if any(t.get_shape() != shape or streamable_element_bits(t) is None for t in types):  # pyright: ignore[reportAttributeAccessIssue]
        return False
    return _body_ok(op, len(shape))


def _flat(em: Emitter, value: SSAValue) -> SSAValue:
    """`value` (contiguous) as a rank-1 memref of all its elements."""
    t = value.type
    assert isinstance(t, MemRefType)
    shape = t.get_shape()
    if len(shape) == 1:
        return value
    count = 1
    for s in shape:
        count *= s
    collapse = memref.CollapseShapeOp.create(
        operands=[value],
        result_types=[MemRefType(t.get_element_type(), [count])],
        properties={"reassociation": ArrayAttr([ArrayAttr([IntegerAttr(d, i64) for d in range(len(shape))])])},
    )
    return em.value(collapse)


def _rename_intrinsics(ops: Iterable[Operation]) -> None:
    """Give the cloned `llvm.call_intrinsic`s on vectors their vector names (once)."""
    for op in ops:
        if isinstance(op, llvm.CallIntrinsicOp) and op.results and isinstance(op.results[0].type, VectorType):
            name = _vector_intrinsic(op.intrin.data, op.results[0].type.get_shape()[0])
            if name is not None:
                op.properties["intrin"] = StringAttr(name)


LINE_BYTES = 64
"""The vector stores are aligned to at least a cache line (`vmovntps` needs its
register's width; a wider vector is split into such stores)."""


def _concatenate(em: Emitter, parts: list[SSAValue]) -> SSAValue:
    """The vectors `parts` one after the other, as one vector (`vector.shuffle`s in a
    balanced tree; LLVM's legalization makes them register renames)."""
    while len(parts) > 1:
        joined: list[SSAValue] = []
        for a, b in zip(parts[::2], parts[1::2], strict=False):
            ta, tb = a.type, b.type
            assert isinstance(ta, VectorType) and isinstance(tb, VectorType)
            na, nb = ta.get_shape()[0], tb.get_shape()[0]
            if nb < na:  # LLVM shuffles two vectors of one type: widen `b` (3 segments)
                b = _slice(em, b, 0, na, nb)
            mask = DenseArrayBase.from_list(i64, [*range(na), *range(na, na + nb)])
            joined.append(em.value(vector.ShuffleOp(a, b, mask, result_type=VectorType(ta.element_type, [na + nb]))))
        if len(parts) % 2:
            joined.append(parts[-1])
        parts = joined
    return parts[0]


def _slice(em: Emitter, value: SSAValue, start: int, n: int, valid: int | None = None) -> SSAValue:
    """Lanes `[start, start + n)` of the vector `value` (a `vector.shuffle`); with
    `valid`, only the first `valid` of them exist, the rest repeat lane `start`."""
    t = value.type
    assert isinstance(t, VectorType)
    valid = n if valid is None else valid
    mask = DenseArrayBase.from_list(i64, [*range(start, start + valid), *[start] * (n - valid)])
    return em.value(vector.ShuffleOp(value, value, mask, result_type=VectorType(t.element_type, [n])))


PAGE = 4096
"""Addresses that differ by a multiple of this alias in the core's store-to-load
check (bits 0-11 compared first)."""


def _skewed(steps: int, seg_bytes: int, streams: int) -> int:
    """The largest count of at most `steps` iterations such that the segments start
    about `PAGE / streams` bytes apart modulo a page (the iterations dropped, fewer
    than a page's worth per segment, go to the masked edges; `steps` if none is left).
    Without it the segments lie about a whole number of pages apart (4M f32 in 4
    segments: 4 MiB less a line), so that a segment's loads meet the previous segment's
    stores at the same page offset one iteration later (our reading of why): the chain
    of 4M (three inputs, 2 segments) ran 6% slower so, the other cases the same."""
    per_page = PAGE // seg_bytes
    target = (PAGE // streams) // seg_bytes
    cut = (steps - target) % per_page
    return steps - cut if steps - cut > 0 else steps


def segments(arrays: int, streams: int, max_streams: int) -> int:
    """The segments read side by side for a loop over `arrays` arrays (those it reads
    and the one it writes): `streams` if given, else the largest of 4, 2, 1 that keeps
    `segments * arrays` within `max_streams` (see `LinalgStreamElementwisePass.streams`)."""
    if streams:
        return streams
    return next(s for s in (4, 2, 1) if s * arrays <= max_streams or s == 1)


def stream_elementwise(op: GenericOp, lanes: int, group: int = 4, streams: int = 1) -> None:
    """Replace the element-wise generic `op` by a masked peel, a parallel loop of
    `group` vectors of `lanes` with non-temporal stores (taken from `streams` segments
    side by side) and a masked remainder (see the module docstring)."""
    out = op.outputs[0]
    t = out.type
    assert isinstance(t, MemRefType)
    bits = streamable_element_bits(t)
    assert bits is not None
    count = math.prod(t.get_shape())
    align = max(lanes, LINE_BYTES * 8 // bits)  # elements of the peel's and the remainder's vectors
    wide = -(-lanes * group // align) * align  # elements of one iteration, a whole number of lines
    # Each segment's part of an iteration: a whole number of lines (every segment's
    # vectors stay aligned), together about `wide`; fewer segments if the row is short.
    seg = max(align, wide // streams // align * align)
    while streams > 1 and (count - align + 1) // seg < streams:
        streams //= 2
        seg = max(align, wide // streams // align * align)
    if streams == 1:
        seg = wide
    n_in = len(op.inputs)
    out_used = bool(op.body.block.args[n_in].uses)
    body = BodyCloner(op, 0)
    em = Emitter()
    inputs = [_flat(em, x) for x in op.inputs]
    dest = _flat(em, out)
    read = [*inputs, *([dest] if out_used else [])]
    # The output's first element in elements from address 0 (its view starts at offset 0).
    base = em.value(memref.ExtractAlignedPointerAsIndexOp.get(out))
    start = em.divui(base, bits // 8)
    peel = em.remui(em.addi(align, em.muli(em.remui(start, align), -1)), align)
    # `steps` iterations, each `seg` elements of every segment; segment `s` starts at
    # `peel + s * length`.
    steps = (count - align + 1) // seg // streams
    if streams > 1:
        steps = _skewed(steps, seg * bits // 8, streams)
    length = steps * seg
    end = em.addi(peel, streams * length)

    def compute(e: Emitter, at: SSAValue, n: int, mask: SSAValue | None) -> SSAValue:
        """The body on the `n` elements from `at` (the lanes off in `mask` not read)."""
        args: list[SSAValue] = []
        for x in read:
            vt = VectorType(x.type.get_element_type(), [n])  # pyright: ignore[reportAttributeAccessIssue]
            if mask is None:
                args.append(e.value(vector.LoadOp(x, [at], vt)))
            else:
                zero = e.value(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(vt, [0] * n)))
                args.append(e.value(vector.MaskedLoadOp(x, [at], mask, zero, vt)))
        if not out_used:
            args.append(args[0])
        (value,) = body.emit(e, args, [at], n)
        if not isinstance(value.type, VectorType):  # a value defined outside the body
            value = e.value(vector.BroadcastOp(value, VectorType(value.type, [n])))
        return value

    def vector_step(e: Emitter, j: SSAValue) -> None:
        first = e.addi(peel, e.muli(j, seg))
        if streams == 1:
            at = e.materialize(first)
            value = compute(e, at, seg, None)
            e.add(vector.StoreOp(value, dest, [at], nontemporal=BoolAttr.from_bool(True)))
            return
        ats = [e.materialize(e.addi(first, s * length)) for s in range(streams)]
        value = segmented(e, ats)
        for s, at in enumerate(ats):
            part = _slice(e, value, s * seg, seg)
            e.add(vector.StoreOp(part, dest, [at], nontemporal=BoolAttr.from_bool(True)))

    def segmented(e: Emitter, ats: list[SSAValue]) -> SSAValue:
        """The body once on the `seg` elements from each of `ats`, side by side (the
        body has no `linalg.index`: see the pass)."""
        n = seg * len(ats)
        args: list[SSAValue] = []
        for x in read:
            vt = VectorType(x.type.get_element_type(), [seg])  # pyright: ignore[reportAttributeAccessIssue]
            args.append(_concatenate(e, [e.value(vector.LoadOp(x, [at], vt)) for at in ats]))
        if not out_used:
            args.append(args[0])
        (value,) = body.emit(e, args, [ats[0]], n)
        if not isinstance(value.type, VectorType):  # a value defined outside the body
            value = e.value(vector.BroadcastOp(value, VectorType(value.type, [n])))
        return value

    def edge_step(e: Emitter, k: SSAValue, carried: object) -> list[SSAValue]:
        """Piece `k` of the edges: 0 is the peel [0, peel), then the remainder from `end`
        by `align`; each one vector under a mask of its valid lanes (one copy of the body
        for both: each copy costs compile time)."""
        first = e.value(arith.CmpiOp(k, e.index(0), "eq"))
        later = e.materialize(e.addi(end, e.muli(e.value(arith.SubiOp(k, e.index(1))), align)))
        at = e.value(arith.SelectOp(first, e.index(0), later))
        rest = e.materialize(e.minui(e.value(arith.SubiOp(e.index(count), at)), align))
        valid = e.value(arith.SelectOp(first, e.materialize(peel), rest))
        lane = e.value(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(VectorType(i32, [align]), list(range(align)))))
        limit = e.value(vector.BroadcastOp(e.value(arith.IndexCastOp(valid, i32)), VectorType(i32, [align])))
        mask = e.value(arith.CmpiOp(lane, limit, "ult"))
        e.add(vector.MaskedStoreOp(dest, [at], mask, compute(e, at, align, mask)))
        return []

    loop = em.parallel(0, steps, vector_step)
    shape = f"{seg}x{bits} non-temporal" + (f", {streams} streams" if streams > 1 else "")
    loop.attributes["streamed"] = StringAttr(shape)
    # 1 + ceil((count - end) / align) pieces: the peel, then the remainder.
    left = em.value(arith.SubiOp(em.index(count + align - 1), em.materialize(end)))
    em.loop(0, em.addi(em.divui(left, align), 1), 1, edge_step)
    set_no_unroll(em.ops[-1])
    for new in em.ops:
        _rename_intrinsics(new.walk())
    Rewriter().replace_op(op, em.ops, [])


@dataclass(frozen=True)
class LinalgStreamElementwisePass(ModulePass):
    """Element-wise generics into large buffers → vector loops with non-temporal stores."""

    name = "linalg-stream-elementwise"

    min_bytes: int = 0
    """The smallest output buffer (bytes) written with non-temporal stores (0: the
    target's `streaming_store_bytes`)."""

    vector_bits: int = 0
    """Width of a store (0: the target's vectors)."""

    max_work_per_byte: int = 12
    """Loops of more `work` per byte of `traffic` keep LLVM's vectorization: they wait
    for the arithmetic, not for memory (the chain of 10 functions, 298 ops for 8 bytes:
    4M in 60 ms, where memory would take 4), and the pass's two copies of the body (the
    vectors and the masked edges) would double their compile time (0.5 -> 1.2 s). Those
    it takes: tanh(a) exp(-b^2) + a 52 ops for 12 bytes, GELU exact (erf expanded
    earlier) 66 for 8, GELU tanh 32 for 8, sin(a) cos(b) 49 for 12."""

    group: int = 4
    """Vectors of `vector_bits` computed per iteration, as one wide vector: LLVM splits
    each of its ops into `group` independent ones that hide each other's latency (the
    interleaving LLVM's loop vectorizer does for scalar loops)."""

    streams: int = 0
    """Segments of the flat row read side by side, each iteration taking `group / streams`
    vectors (whole lines) from each, for outputs of at least `stream_bytes` and loops of
    at most `stream_work_per_byte`: more lines in flight than one stream gets. Each
    segment's output is another write-combining stream for the non-temporal stores, of
    which a core has few (~10-12), so 0 picks the largest of 4, 2 and 1 that keeps
    segments x arrays (read and written) within `max_streams`: 4 for one input, 2 for
    two or three, 1 from four. A body with `linalg.index` keeps one stream (its
    positions are one ramp)."""

    stream_bytes: int = 0
    """The smallest output buffer (bytes) read as `streams` segments (0: the target's
    `streaming_store_bytes`, so every loop this pass takes at the default threshold)."""

    max_streams: int = 8
    """With `streams=0`: the most memory streams (segments x arrays) to open. Measured
    (4M f32, one core): 4 segments of two inputs (12 streams) made tanh(a) exp(-b^2) + a
    1-3% and sin(a) cos(b) 6-10% slower, 2 segments (6) made the first 2-3% faster."""

    stream_work_per_byte: int = 6
    """Segments only for loops of at most this `stream_work` per byte of `traffic`:
    they gain where memory is the limit (4M f32, one core, CPU time: the element-wise
    chain, 0.25 a byte, 6%; logistic, 3.4, 8%; GELU tanh, 4.0, 2%; tanh(a) exp(-b^2) + a,
    4.3, 2-3%) and nothing or worse where arithmetic is (GELU exact, 8.3: nothing;
    sin(a) cos(b), 33: 2-4% slower with 2 segments, 6-10% with 4)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = get_target()
        bits = self.vector_bits or target.vector_bits
        threshold = self.min_bytes or target.streaming_threshold()
        stream_bytes = self.stream_bytes or target.streaming_threshold()
        for inner in list(op.walk()):
            if inner.parent is None or not isinstance(inner, GenericOp) or not streamable(inner):
                continue
            t = inner.outputs[0].type
            assert isinstance(t, MemRefType)
            element = streamable_element_bits(t)
            assert element is not None
            count = math.prod(t.get_shape())
            lanes = bits // element
            if count * element // 8 < threshold or lanes < 2 or count < 4 * lanes * self.group:
                continue
            if work(inner) > self.max_work_per_byte * traffic(inner):
                continue
            block = inner.body.block
            arrays = len(inner.operands) if block.args[len(inner.inputs)].uses else len(inner.inputs) + 1
            streams = 1
            if count * element // 8 >= stream_bytes and stream_work(inner) <= self.stream_work_per_byte * traffic(inner):
                streams = segments(arrays, self.streams, self.max_streams)
            if any(isinstance(x, IndexOp) for x in block.ops):
                streams = 1
            stream_elementwise(inner, lanes, self.group, streams)


__all__ = ["LinalgStreamElementwisePass", "segments", "stream_elementwise", "stream_work", "streamable"]
