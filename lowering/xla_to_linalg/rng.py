"""Random numbers: `rng_bit_generator`, `rng` (UNIFORM / NORMAL) and
`rng_bernoulli`.

Bit generators (shared by all three ops)
========================================

Both counter-based generators of Salmon et al. (SC 2011) are built here once, as
unrolled scalar `arith` code on `i32` words: Threefry-2x32 (20 rounds) and
Philox-4x32 (10 rounds). `rng_bit_generator` reproduces XLA's bits exactly (its
`RngBitGeneratorExpander` with the generators of `xla/hlo/builder/lib/prng.cc`),
for the same initial state:

* THREE_FRY, state `u64[2] = [key, counter]`: element `i` of a 64-bit output is
  `threefry(counter + i)` with the two output words joined low word first. For
  32-bit and narrower outputs XLA splits the shape along its first even
  dimension `s` (else its largest one) into halves: the half shape has
  `ceil(d_s / 2)` along `s`, each of its elements `L` (row-major) runs the
  cipher once on `counter + L`, and the two words land at positions `2h` and
  `2h + 1` along `s`. The new counter is `counter + (elements of the half shape)`
  (or `+ elements` for 64-bit outputs). A rank-0 output uses word 0 of block 0.
* PHILOX, state `u64[3] = [key, counter_lo, counter_hi]` (a 128-bit counter), or
  `u64[2] = [key, counter_lo]` whose high counter word is the key itself (XLA
  reverses the 2-element state) and whose output state drops the high word:
  block `j` runs the cipher on `counter + j` (128-bit add) and gives four 32-bit
  words, elements `4j .. 4j+3` of the row-major output; 64-bit outputs join the
  words pairwise (two elements per block). The counter advances by the number of
  blocks, `ceil(n / 4)` or `ceil(n / 2)`.
* DEFAULT is PHILOX, as on XLA's CPU backend (`RngBitGeneratorExpander(RNG_PHILOX)`).
  As an extension (the op's verifier allows any 1-D state for DEFAULT), a state
  of 32-bit integers with 4 or 6 elements is read as the `u64[2]`/`u64[3]` whose
  little-endian bytes it holds, as JAX passes its `u32[4]` keys.
* Narrower outputs (8 and 16 bits) keep the low bits of the 32-bit words; float
  outputs are the bits bitcast.

Each generator fills a flat row-major `tensor<n x T>` with `scf.for` loops
carrying the tensor, whose bodies run the cipher once per block and
`tensor.insert` all the words of the block (in place after bufferization; no
per-element allocation): Philox loops over whole blocks and then emits the last,
partial block straight-line (its length is static); Threefry-32 loops over the
pair rows and, inside, along the contiguous trailing dimensions (two output
streams), then over the unpaired last row when the split dimension is odd. The
flat tensor is reshaped to the result (an `expand_shape` view). No word is
computed twice.

Stateful `rng` and `rng_bernoulli`
==================================

The spec leaves their generator to the implementation; XLA expands them into the
Philox bit generator fed by a per-module global state that each op reads and
advances (`RngExpander` + `RngGetAndUpdateState`). Here the module holds one
public mutable global `@__xla_rng_state : memref<3xi64>`, initialised to
`[RNG_SEED, 0, 0]`: a PHILOX state `[key, counter_lo, counter_hi]`. Every
`rng`/`rng_bernoulli` op loads it, stores the counter advanced by the blocks it
consumes (right away, as a get-and-update), and converts the Philox words of
those blocks into its distribution. So every op of a module draws from one
stream without overlap, and successive calls (and loop iterations) get fresh
numbers. Determinism: the state lives in the JIT-compiled module, so it persists
for the module's lifetime (`lowering.compile` caches modules by their text:
compiling the same text again in one process continues the stream) and a new
process starts again from `RNG_SEED`, giving the same sequence for the same
sequence of calls. The global is public, so a host can read or reseed it through
the JIT (`JitModule.get_global`). Concurrent calls of one module from several
threads race on the counter (as any unsynchronised global would).

Distributions (following XLA's `prng.cc`):

* UNIFORM floats: `u = (bits >> (W - m)) * 2^-m` with `m` mantissa bits (23 for
  f32 from 32-bit words, 52 for f64 from 64-bit words) is exactly uniform on the
  grid of `[0, 1)`; the value is `u * (b - a) + a`, and a result rounded up to `b`
  is replaced by the largest float below `b`, so results stay in `[a, b)`. f16 and
  bf16 are computed in f32 and rounded (as XLA's expander does), then clamped the
  same way.
* UNIFORM integers (and PRED): `a + (bits mod (b - a))` with `b - a` taken as an
  unsigned number of the element width (XLA's formula; a slight modulo bias of
  order `(b - a) / 2^W` for W-bit words); `b == a` gives `a`. 64-bit types use
  64-bit words, narrower ones 32-bit words.
* NORMAL: the Box–Muller transform on pairs of uniforms,
  `r = sqrt(-2 log(1 - u0))`, `(r sin(2π u1), r cos(2π u1))`, then `mu + sigma z`;
  `1 - u0` lies in `(0, 1]`, so the logarithm is finite without XLA's clamp. f16
  and bf16 compute in f32.
* `rng_bernoulli(p)`: `1` where the f32 uniform `u < p`, else `0` (U32).

For `b <= a` (UNIFORM) the spec leaves the result implementation-defined.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf, tensor
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.to_llvm.common import normalize_int
from lowering.xla_to_linalg.converter import (
    Converter,
    empty,
    extract_scalar,
    index_constant,
    lowers,
    result_tensor_type,
)
from lowering.xla_to_linalg.shape import reshape
from xla_dialect.attributes import RngAlgorithm, RngDistribution
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.rng import RngBernoulliOp, RngBitGeneratorOp, RngOp
from xla_dialect.types import bit_width, format_type, is_float, shape_of

RNG_STATE_GLOBAL = "__xla_rng_state"
"""The module's global PHILOX state `[key, counter_lo, counter_hi]` of `rng` ops."""

RNG_SEED = 0x853C49E6748FEA9B
"""The Philox key of `rng`/`rng_bernoulli` (fixed: a compiled module is deterministic)."""

_PHILOX_MUL = (0xD2511F53, 0xCD9E8D57)
_PHILOX_WEYL = (0x9E3779B9, 0xBB67AE85)
_THREEFRY_PARITY = 0x1BD11BDA
_THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))

Words = list[SSAValue]
Convert = Callable[[Builder, Words], Words]
"""Turns the raw words of one block into the elements stored for it."""


# ---------------------------------------------------------------------------
# Scalar arithmetic
# ---------------------------------------------------------------------------


class _Arith:
    """Short spellings of the scalar `arith` ops the generators are made of."""

    def __init__(self, b: Builder):
        self.b = b

    def r(self, op: Operation) -> SSAValue:
        return self.b.insert(op).results[0]

    def c(self, value: int, t: IntegerType) -> SSAValue:
        return self.r(arith.ConstantOp(IntegerAttr(normalize_int(value, t.width.data), t)))

    def f(self, value: float, t: AnyFloat) -> SSAValue:
        return self.r(arith.ConstantOp(FloatAttr(value, t)))

    def add(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.AddiOp(x, y))

    def sub(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.SubiOp(x, y))

    def mul(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.MuliOp(x, y))

    def xor(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.XOrIOp(x, y))

    def or_(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.OrIOp(x, y))

    def shl(self, x: SSAValue, n: int) -> SSAValue:
        return self.r(arith.ShLIOp(x, self.c(n, _int(x))))

    def shr(self, x: SSAValue, n: int) -> SSAValue:
        return self.r(arith.ShRUIOp(x, self.c(n, _int(x))))

    def rotl32(self, x: SSAValue, n: int) -> SSAValue:
        return self.or_(self.shl(x, n), self.shr(x, 32 - n))

    def trunc(self, x: SSAValue, t: IntegerType) -> SSAValue:
        return x if _int(x) == t else self.r(arith.TruncIOp(x, t))

    def zext(self, x: SSAValue, t: IntegerType) -> SSAValue:
        return x if _int(x) == t else self.r(arith.ExtUIOp(x, t))

    def cmpi(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.CmpiOp(x, y, predicate))

    def cmpf(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.CmpfOp(x, y, predicate))

    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.r(arith.SelectOp(cond, x, y))

    def bitcast(self, x: SSAValue, t: Attribute) -> SSAValue:
        return x if x.type == t else self.r(arith.BitcastOp(x, t))

    def lo_hi(self, x: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The low and high 32-bit words of an i64."""
        return self.trunc(x, i32), self.trunc(self.shr(x, 32), i32)

    def join(self, lo: SSAValue, hi: SSAValue) -> SSAValue:
        """The i64 `lo | hi << 32` of two i32 words."""
        return self.or_(self.zext(lo, i64), self.shl(self.zext(hi, i64), 32))

    def index_to_i64(self, x: SSAValue) -> SSAValue:
        return self.r(arith.IndexCastOp(x, i64))


def _int(x: SSAValue) -> IntegerType:
    t = x.type
    assert isinstance(t, IntegerType)
    return t


# ---------------------------------------------------------------------------
# The ciphers
# ---------------------------------------------------------------------------


def threefry_key(a: _Arith, key: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """The three Threefry-2x32 key-schedule words of an i64 key."""
    k0, k1 = a.lo_hi(key)
    return k0, k1, a.xor(a.xor(k0, k1), a.c(_THREEFRY_PARITY, i32))


def threefry2x32(
    a: _Arith, x0: SSAValue, x1: SSAValue, ks: tuple[SSAValue, SSAValue, SSAValue]
) -> tuple[SSAValue, SSAValue]:
    """Threefry-2x32 with 20 rounds (five groups of four, a key injection after
    each group) on two i32 words, with the key schedule `ks` (`threefry_key`)."""
    x0, x1 = a.add(x0, ks[0]), a.add(x1, ks[1])
    for group in range(5):
        for rotation in _THREEFRY_ROTATIONS[group % 2]:
            x0 = a.add(x0, x1)
            x1 = a.xor(a.rotl32(x1, rotation), x0)
        x0 = a.add(x0, ks[(group + 1) % 3])
        x1 = a.add(a.add(x1, ks[(group + 2) % 3]), a.c(group + 1, i32))
    return x0, x1


def philox4x32(a: _Arith, x: Words, k0: SSAValue, k1: SSAValue) -> Words:
    """Philox-4x32 with 10 rounds on four i32 words with the key words `k0`, `k1`
    (the 32x32→64-bit products are i64 multiplications)."""
    multipliers = [a.c(m, i64) for m in _PHILOX_MUL]
    weyl = [a.c(w, i32) for w in _PHILOX_WEYL]
    for round_ in range(10):
        if round_:
            k0, k1 = a.add(k0, weyl[0]), a.add(k1, weyl[1])
        lo0, hi0 = a.lo_hi(a.mul(a.zext(x[0], i64), multipliers[0]))
        lo1, hi1 = a.lo_hi(a.mul(a.zext(x[2], i64), multipliers[1]))
        x = [a.xor(a.xor(hi1, x[1]), k0), lo1, a.xor(a.xor(hi0, x[3]), k1), lo0]
    return x


# ---------------------------------------------------------------------------
# Filling a flat tensor block by block
# ---------------------------------------------------------------------------

BlockBody = Callable[[Builder, SSAValue, SSAValue], SSAValue]
"""`(builder, block index (index), tensor) -> tensor with the block inserted`."""


def _loop(b: Builder, dest: SSAValue, count: int, body: BlockBody) -> SSAValue:
    """`dest` after `body` ran for block indices `0 .. count-1` (an `scf.for`
    carrying the tensor; a single block runs straight-line)."""
    if count <= 0:
        return dest
    if count == 1:
        return body(b, index_constant(b, 0), dest)
    block = Block(arg_types=[IndexType(), dest.type])
    inner = Builder(InsertPoint.at_end(block))
    result = body(inner, block.args[0], block.args[1])
    inner.insert(scf.YieldOp(result))
    zero, upper, one = index_constant(b, 0), index_constant(b, count), index_constant(b, 1)
    return b.insert(scf.ForOp(zero, upper, one, [dest], Region(block))).results[0]


def _insert(b: Builder, dest: SSAValue, value: SSAValue, position: SSAValue) -> SSAValue:
    return b.insert(tensor.InsertOp(value, dest, [position])).result


def _index_affine(b: Builder, x: SSAValue, scale: int, offset: int) -> SSAValue:
    """`x * scale + offset` on `index` values."""
    if scale != 1:
        x = b.insert(arith.MuliOp(x, index_constant(b, scale))).result
    if offset:
        x = b.insert(arith.AddiOp(x, index_constant(b, offset))).result
    return x


def _divmod(b: Builder, x: SSAValue, size: int) -> tuple[SSAValue, SSAValue]:
    """`(x mod size, x div size)` on `index` values (no ops when `size` is 1)."""
    if size == 1:
        return index_constant(b, 0), x
    c = index_constant(b, size)
    return b.insert(arith.RemUIOp(x, c)).result, b.insert(arith.DivUIOp(x, c)).result


def _fill_blocks(b: Builder, element: Attribute, n: int, per_block: int, gen: Callable[[Builder, SSAValue], Words]) -> SSAValue:
    """A `tensor<n x element>` whose elements `per_block * j + k` are `gen(j)[k]`:
    a loop over the whole blocks, then the partial last block."""
    dest = empty(b, TensorType(element, [n]))

    def body(bb: Builder, j: SSAValue, t: SSAValue, count: int = per_block) -> SSAValue:
        values = gen(bb, j)
        base = _index_affine(bb, j, per_block, 0)
        for k in range(count):
            t = _insert(bb, t, values[k], _index_affine(bb, base, 1, k))
        return t

    full, tail = divmod(n, per_block)
    dest = _loop(b, dest, full, body)
    if tail:
        dest = body(b, index_constant(b, full), dest, tail)
    return dest


# ---------------------------------------------------------------------------
# Bit generators
# ---------------------------------------------------------------------------


def _counter_add(a: _Arith, lo: SSAValue, hi: SSAValue, delta: SSAValue) -> tuple[SSAValue, SSAValue]:
    """The 128-bit counter `(lo, hi) + delta` (i64 words, delta < 2^63)."""
    new_lo = a.add(lo, delta)
    carry = a.zext(a.cmpi("ult", new_lo, lo), i64)
    return new_lo, a.add(hi, carry)


def philox_blocks(
    b: Builder,
    key: SSAValue,
    lo: SSAValue,
    hi: SSAValue,
    n: int,
    wide: bool,
    element: Attribute,
    convert: Convert,
) -> tuple[SSAValue, int]:
    """The flat `tensor<n x element>` of Philox output from the 128-bit counter
    `(lo, hi)` and the i64 `key`, and the number of blocks used. Each block gives
    four i32 words, or two i64 words (low word first) when `wide`; `convert` makes
    the block's elements from them."""
    a = _Arith(b)
    k0, k1 = a.lo_hi(key)
    per_block = 2 if wide else 4

    def gen(bb: Builder, j: SSAValue) -> Words:
        x = _Arith(bb)
        c_lo, c_hi = _counter_add(x, lo, hi, x.index_to_i64(j))
        words = philox4x32(x, [*x.lo_hi(c_lo), *x.lo_hi(c_hi)], k0, k1)
        if wide:
            words = [x.join(words[0], words[1]), x.join(words[2], words[3])]
        return convert(bb, words)

    return _fill_blocks(b, element, n, per_block, gen), -(-n // per_block)


def threefry_bits(
    b: Builder, key: SSAValue, counter: SSAValue, shape: Sequence[int], wide: bool, element: Attribute, convert: Convert
) -> tuple[SSAValue, int]:
    """XLA's Threefry bits of `shape` (flat, row-major) from the i64 `key` and
    `counter`, and how far the counter advances (see the module docstring)."""
    ks = threefry_key(_Arith(b), key)

    def cipher(bb: Builder, offset: SSAValue) -> tuple[SSAValue, SSAValue]:
        x = _Arith(bb)
        return threefry2x32(x, *x.lo_hi(x.add(counter, x.index_to_i64(offset))), ks)

    n = math.prod(shape)
    if wide:

        def gen(bb: Builder, j: SSAValue) -> Words:
            x0, x1 = cipher(bb, j)
            return convert(bb, [_Arith(bb).join(x0, x1)])

        return _fill_blocks(b, element, n, 1, gen), n

    # 32 bits: split along the first even dimension (else the largest one).
    dims = list(shape) or [1]
    evens = [i for i, d in enumerate(dims) if d % 2 == 0]
    split = evens[0] if evens else max(range(len(dims)), key=lambda i: (dims[i], -i))
    outer, d, inner = math.prod(dims[:split]), dims[split], math.prod(dims[split + 1 :])
    pairs, odd = divmod(d, 2)
    halves = pairs + odd

    def row(bb: Builder, r: SSAValue, t: SSAValue, h_count: int, h_offset: int, words: int) -> SSAValue:
        """Pair row `r` of the (outer, h_count) rows: an inner loop along the
        contiguous trailing dimensions, writing rows `2h` (and `2h + 1`) along the
        split dimension of the output from elements `h` of the half shape."""
        h, i_outer = _divmod(bb, r, h_count)
        h = _index_affine(bb, h, 1, h_offset)
        # Row-major offsets of the row in the half shape and in the output.
        half_base = _index_affine(bb, bb.insert(arith.AddiOp(_index_affine(bb, i_outer, halves, 0), h)).result, inner, 0)
        row_index = bb.insert(arith.AddiOp(_index_affine(bb, i_outer, d, 0), _index_affine(bb, h, 2, 0))).result
        out_base = _index_affine(bb, row_index, inner, 0)

        def column(bc: Builder, i: SSAValue, t: SSAValue) -> SSAValue:
            position = bc.insert(arith.AddiOp(out_base, i)).result
            values = convert(bc, list(cipher(bc, bc.insert(arith.AddiOp(half_base, i)).result)))
            t = _insert(bc, t, values[0], position)
            if words == 2:
                t = _insert(bc, t, values[1], _index_affine(bc, position, 1, inner))
            return t

        return _loop(bb, t, inner, column)

    dest = empty(b, TensorType(element, [n]))
    dest = _loop(b, dest, outer * pairs, lambda bb, r, t: row(bb, r, t, pairs, 0, 2))
    if odd:  # the last, unpaired row along the split dimension
        dest = _loop(b, dest, outer, lambda bb, r, t: row(bb, r, t, 1, pairs, 1))
    return dest, outer * halves * inner


# ---------------------------------------------------------------------------
# rng_bit_generator
# ---------------------------------------------------------------------------


def _word_converter(element: Attribute, op: Operation) -> tuple[bool, Convert]:
    """Whether `element` takes 64-bit words, and how words become its values
    (the low bits of narrower integers; floats are bitcast)."""
    width = bit_width(element)
    if width not in (8, 16, 32, 64) or not (isinstance(element, IntegerType) or is_float(element)):
        raise LoweringError(
            f"rng_bit_generator cannot produce {format_type(element)} elements "
            "(8, 16, 32 or 64-bit integers or floats)",
            op,
        )
    bits = IntegerType(width)

    def convert(b: Builder, words: Words) -> Words:
        a = _Arith(b)
        return [a.bitcast(a.trunc(w, bits), element) for w in words]

    return width == 64, convert


def _state_words(b: Builder, state: SSAValue, op: RngBitGeneratorOp) -> list[SSAValue]:
    """The state's elements as i64 values (32-bit DEFAULT states joined in pairs)."""
    a = _Arith(b)
    t = state.type
    assert isinstance(t, TensorType)
    element = t.element_type
    (size,) = t.get_shape()
    items = [
        b.insert(tensor.ExtractOp(state, [index_constant(b, i)], element)).result for i in range(size)
    ]
    if isinstance(element, IntegerType) and element.width.data == 64 and size in (2, 3):
        return items
    if op.algorithm == RngAlgorithm.DEFAULT and isinstance(element, IntegerType) and element.width.data == 32 and size in (4, 6):
        return [a.join(items[i], items[i + 1]) for i in range(0, size, 2)]
    raise LoweringError(
        f"the {op.algorithm.value} state must be u64[2] or u64[3] (DEFAULT is PHILOX; "
        f"also u32[4] or u32[6]), got {format_type(op.initial_state.type)}",
        op,
    )


def _state_tensor(b: Builder, words: list[SSAValue], t: TensorType) -> SSAValue:
    """The state tensor of type `t` holding the i64 `words` (split again when 32-bit)."""
    a = _Arith(b)
    element = t.element_type
    assert isinstance(element, IntegerType)
    if element.width.data == 32:
        words = [w for word in words for w in a.lo_hi(word)]
    return b.insert(tensor.FromElementsOp(*words, result_type=t)).result


@lowers(RngBitGeneratorOp)
def lower_rng_bit_generator(cx: Converter, op: RngBitGeneratorOp, b: Builder) -> Sequence[SSAValue]:
    a = _Arith(b)
    state_type = result_tensor_type(op, 0)
    out_type = result_tensor_type(op, 1)
    element = out_type.element_type
    shape = tuple(out_type.get_shape())
    n = math.prod(shape)
    wide, convert = _word_converter(element, op)
    words = _state_words(b, cx.get(op.initial_state), op)
    key = words[0]
    if op.algorithm == RngAlgorithm.THREE_FRY:
        flat, used = threefry_bits(b, key, words[1], shape, wide, element, convert)
        new_words = [key, a.add(words[1], a.c(used, i64))]
    else:  # PHILOX, and DEFAULT which is PHILOX on XLA's CPU backend
        hi = words[2] if len(words) == 3 else key
        flat, used = philox_blocks(b, key, words[1], hi, n, wide, element, convert)
        new_lo, new_hi = _counter_add(a, words[1], hi, a.c(used, i64))
        new_words = [key, new_lo, new_hi][: len(words)]
    return [_state_tensor(b, new_words, state_type), reshape(b, flat, out_type)]


# ---------------------------------------------------------------------------
# The module's stateful generator (rng, rng_bernoulli)
# ---------------------------------------------------------------------------

_STATE_TYPE = MemRefType(i64, [3])


def _module_of(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    if parent is None:
        raise LoweringError("a stateful rng op must sit in a module (it keeps its state in a global)", op)
    return parent


def _ensure_state_global(module: ModuleOp) -> None:
    """Add `@__xla_rng_state = [RNG_SEED, 0, 0]` to `module` unless it exists."""
    block = module.body.block
    for existing in block.ops:
        name = existing.properties.get("sym_name")
        if isinstance(name, StringAttr) and name.data == RNG_STATE_GLOBAL:
            if not isinstance(existing, memref.GlobalOp) or existing.type != _STATE_TYPE:
                raise LoweringError(f"the symbol @{RNG_STATE_GLOBAL} is taken", existing)
            return
    seed = RNG_SEED - (1 << 64) if RNG_SEED >= 1 << 63 else RNG_SEED
    initial = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [3]), [seed, 0, 0])
    glob = memref.GlobalOp.get(StringAttr(RNG_STATE_GLOBAL), _STATE_TYPE, initial, StringAttr("public"))
    if block.first_op is None:
        block.add_op(glob)
    else:
        block.insert_op_before(glob, block.first_op)


def stateful_philox(cx_op: Operation, b: Builder, n: int, wide: bool, element: Attribute, convert: Convert) -> SSAValue:
    """A flat `tensor<n x element>` from the next Philox blocks of the module's
    global state, which is advanced past them first (get-and-update)."""
    _ensure_state_global(_module_of(cx_op))
    a = _Arith(b)
    state = b.insert(memref.GetGlobalOp(SymbolRefAttr(RNG_STATE_GLOBAL), _STATE_TYPE)).memref
    positions = [index_constant(b, i) for i in range(3)]
    key, lo, hi = (b.insert(memref.LoadOp.get(state, [p])).res for p in positions)
    blocks = -(-n // (2 if wide else 4))
    new_lo, new_hi = _counter_add(a, lo, hi, a.c(blocks, i64))
    b.insert(memref.StoreOp.get(new_lo, state, [positions[1]]))
    b.insert(memref.StoreOp.get(new_hi, state, [positions[2]]))
    flat, _ = philox_blocks(b, key, lo, hi, n, wide, element, convert)
    return flat


def _compute_type(element: Attribute) -> AnyFloat:
    """The float type the distributions compute in (f16/bf16 in f32)."""
    return f64 if isinstance(element, Float64Type) else f32


def _unit_uniform(a: _Arith, word: SSAValue, t: AnyFloat) -> SSAValue:
    """The uniform float in `[0, 1)` of type `t` (f32 or f64) from the top
    mantissa bits of an i32/i64 word."""
    mantissa = 52 if isinstance(t, Float64Type) else 23
    width = _int(word).width.data
    top = a.shr(word, width - mantissa)
    value = a.r(arith.UIToFPOp(top, t))
    return a.r(arith.MulfOp(value, a.f(2.0**-mantissa, t)))


def _below(a: _Arith, x: SSAValue) -> SSAValue:
    """The largest float below the finite or infinite float `x` (next toward -inf)."""
    t = x.type
    bits_type = IntegerType(bit_width(t))
    bits = a.bitcast(x, bits_type)
    zero = a.f(0.0, t)  # type: ignore[arg-type]
    down = a.sub(bits, a.c(1, bits_type))
    up = a.add(bits, a.c(1, bits_type))
    smallest_negative = a.c((1 << (bits_type.width.data - 1)) | 1, bits_type)
    result = a.select(a.cmpf("ogt", x, zero), down, a.select(a.cmpf("oeq", x, zero), smallest_negative, up))
    return a.bitcast(result, t)


def _float_round(a: _Arith, x: SSAValue, element: Attribute) -> SSAValue:
    return x if x.type == element else a.r(arith.TruncFOp(x, element))


def _float_extend(a: _Arith, x: SSAValue, t: AnyFloat) -> SSAValue:
    return x if x.type == t else a.r(arith.ExtFOp(x, t))


def _uniform_converter(b: Builder, element: Attribute, lo: SSAValue, hi: SSAValue) -> tuple[bool, Convert]:
    """Words → uniform elements of `[lo, hi)` (scalars computed once, outside the loops)."""
    a = _Arith(b)
    if is_float(element):
        t = _compute_type(element)
        lo_c, hi_c = _float_extend(a, lo, t), _float_extend(a, hi, t)
        span = a.r(arith.SubfOp(hi_c, lo_c))
        last = _below(a, hi)

        def convert_float(bb: Builder, words: Words) -> Words:
            x = _Arith(bb)
            out = []
            for w in words:
                u = _unit_uniform(x, w, t)
                v = _float_round(x, x.r(arith.AddfOp(x.r(arith.MulfOp(u, span)), lo_c)), element)
                out.append(x.select(x.cmpf("olt", v, hi), v, last))
            return out

        return isinstance(element, Float64Type), convert_float
    assert isinstance(element, IntegerType)
    width = element.width.data
    word_type = i64 if width == 64 else i32
    span = a.zext(a.sub(hi, lo), word_type)  # hi - lo as an unsigned number
    divisor = a.select(a.cmpi("eq", span, a.c(0, word_type)), a.c(1, word_type), span)

    def convert_int(bb: Builder, words: Words) -> Words:
        x = _Arith(bb)
        return [x.add(lo, x.trunc(x.r(arith.RemUIOp(w, divisor)), element)) for w in words]

    return width == 64, convert_int


def _normal_converter(b: Builder, element: Attribute, mu: SSAValue, sigma: SSAValue) -> tuple[bool, Convert]:
    """Words → normal elements by Box–Muller on consecutive pairs of words."""
    a = _Arith(b)
    t = _compute_type(element)
    mu_c, sigma_c = _float_extend(a, mu, t), _float_extend(a, sigma, t)
    one, minus_two, two_pi = a.f(1.0, t), a.f(-2.0, t), a.f(2.0 * math.pi, t)

    def convert(bb: Builder, words: Words) -> Words:
        x = _Arith(bb)
        out = []
        for w0, w1 in zip(words[0::2], words[1::2]):
            u0, u1 = _unit_uniform(x, w0, t), _unit_uniform(x, w1, t)
            log = x.r(mathd.LogOp(x.r(arith.SubfOp(one, u0))))
            radius = x.r(mathd.SqrtOp(x.r(arith.MulfOp(minus_two, log))))
            theta = x.r(arith.MulfOp(two_pi, u1))
            for trig in (mathd.SinOp, mathd.CosOp):
                z = x.r(arith.MulfOp(radius, x.r(trig(theta))))
                value = x.r(arith.AddfOp(mu_c, x.r(arith.MulfOp(sigma_c, z))))
                out.append(_float_round(x, value, element))
        return out

    return isinstance(element, Float64Type), convert


@lowers(RngOp)
def lower_rng(cx: Converter, op: RngOp, b: Builder) -> Sequence[SSAValue]:
    out_type = result_tensor_type(op)
    element = out_type.element_type
    first, second = extract_scalar(b, cx.get(op.a)), extract_scalar(b, cx.get(op.b))
    if is_float(element) and not isinstance(element, (Float16Type, BFloat16Type, Float32Type, Float64Type)):
        raise LoweringError(f"rng of {format_type(element)} elements is not supported (f16, bf16, f32, f64)", op)
    if op.distribution == RngDistribution.NORMAL:
        wide, convert = _normal_converter(b, element, first, second)
    else:
        wide, convert = _uniform_converter(b, element, first, second)
    flat = stateful_philox(op, b, math.prod(out_type.get_shape()), wide, element, convert)
    return [reshape(b, flat, out_type)]


@lowers(RngBernoulliOp)
def lower_rng_bernoulli(cx: Converter, op: RngBernoulliOp, b: Builder) -> Sequence[SSAValue]:
    out_type = result_tensor_type(op)
    mean = extract_scalar(b, cx.get(op.mean))

    def convert(bb: Builder, words: Words) -> Words:
        x = _Arith(bb)
        return [x.zext(x.cmpf("olt", _unit_uniform(x, w, f32), mean), i32) for w in words]

    flat = stateful_philox(op, b, math.prod(shape_of(op.result.type)), False, i32, convert)
    return [reshape(b, flat, out_type)]


__all__ = [
    "RNG_SEED",
    "RNG_STATE_GLOBAL",
    "philox4x32",
    "philox_blocks",
    "stateful_philox",
    "threefry2x32",
    "threefry_bits",
    "threefry_key",
]
