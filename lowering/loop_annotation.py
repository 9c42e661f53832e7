"""Loop hints for LLVM, carried from `scf.for` to the latch branch (as MLIR does).

A loop op may carry the discardable attribute `llvm.loop_annotation`, a dictionary
(here `{interleave_count = N : i32}`, `fold_tail = true`, `no_unroll = true` and
`vectorized_no_unroll = true`): `lower-scf-to-cf`
copies it onto the branch back to the loop header, `convert-cf-to-llvm` onto the
`llvm.br` that replaces it, and the translation to LLVM IR (`runtime/llvm_backend.py`)
makes it the loop's `!llvm.loop` metadata (`llvm.loop.interleave.count`,
`llvm.loop.vectorize.predicate.enable`, `llvm.loop.unroll.disable`, and
`llvm.loop.vectorize.followup_all` with `llvm.loop.unroll.disable`), which LLVM's loop
vectorizer and unroller follow instead of their own choice.

`fold_tail` asks LLVM to run the loop's last partial vectors masked, in the vector loop
itself, instead of a vectorized epilogue loop and a scalar remainder loop (two more
copies of the body). With AVX-512's mask registers that costs a compare per iteration;
for the chain of 10 functions it took 0.08 s off LLVM's 0.28 (optimization 0.137 ->
0.104 s, code generation 0.146 -> 0.094) and ran as fast. `math-polynomial-approximation`
asks for it around long bodies only (`FOLD_TAIL_FROM`).

`math-polynomial-approximation` sets it on the loops it expands functions in:
LLVM gives those big bodies one vector per iteration, and two or four
independent vectors per iteration hide the latency of their long chains.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, DictionaryAttr, IntegerAttr, i32
from xdsl.ir import Attribute, Operation

LOOP_ANNOTATION = "llvm.loop_annotation"
INTERLEAVE_COUNT = "interleave_count"
FOLD_TAIL = "fold_tail"
NO_UNROLL = "no_unroll"
VECTORIZED_NO_UNROLL = "vectorized_no_unroll"


def set_interleave_count(loop: Operation, count: int, fold_tail: bool = False) -> None:
    """Annotate `loop` with an interleave count and, with `fold_tail`, masked last vectors."""
    entries: dict[str, Attribute] = {INTERLEAVE_COUNT: IntegerAttr(count, i32)}
    if fold_tail:
        entries[FOLD_TAIL] = BoolAttr.from_bool(True)
    loop.attributes[LOOP_ANNOTATION] = DictionaryAttr(entries)


def _set_flag(loop: Operation, key: str) -> None:
    """Set `key = true` in `loop`'s annotation, keeping its other hints."""
    annotation = loop.attributes.get(LOOP_ANNOTATION)
    entries: dict[str, Attribute] = dict(annotation.data) if isinstance(annotation, DictionaryAttr) else {}
    entries[key] = BoolAttr.from_bool(True)
    loop.attributes[LOOP_ANNOTATION] = DictionaryAttr(entries)


def _flag(op: Operation, key: str) -> bool:
    """Whether `op`'s annotation sets `key = true`."""
    annotation = op.attributes.get(LOOP_ANNOTATION)
    if not isinstance(annotation, DictionaryAttr):
        return False
    flag = annotation.data.get(key)
    return isinstance(flag, IntegerAttr) and bool(flag.value.data)


def set_no_unroll(loop: Operation) -> None:
    """Ask LLVM not to unroll `loop` (`llvm.loop.unroll.disable`), keeping its other hints:
    for a loop of a few iterations around a long body, whose copies would only cost
    compile time."""
    _set_flag(loop, NO_UNROLL)


NO_UNROLL_SHORT = "xla.no_unroll_short"
"""A discardable unit attribute of a `linalg.generic`: when it becomes a loop nest, the
loops outside the two innermost that run at most `SHORT_LOOP` iterations are
`no_unroll`. The contraction's per-part packs carry it: LLVM vectorizes a pack's two
inner loops into a straight run of vector loads and stores, then fully unrolls the
short loops around it (a 3x3 convolution's kernel window: 9 copies, 144 loads from
addresses that are not affine in the induction variables), and Loop Strength
Reduction then searches the uses of that block: 1.1 s of code generation for one
convolution, against 0.05 s with the window loops kept, and the same speed."""

SHORT_LOOP = 16
"""The most iterations of a loop that `NO_UNROLL_SHORT` keeps rolled (LLVM unrolls
longer ones partially, which the packs of narrow types need)."""


def keep_short_loops(outermost: Operation | None, extents: Sequence[int], first: int) -> None:
    """Mark `no_unroll` the short loops of a generic's nest (one `scf.for` per dimension,
    `outermost` first; `extents` its static loop ranges) from level `first` to the
    third innermost (see `NO_UNROLL_SHORT`)."""
    loop = outermost
    for level in range(len(extents) - 2):
        if loop is None or loop.name != "scf.for":
            return
        if level >= first and extents[level] <= SHORT_LOOP:
            set_no_unroll(loop)
        loop = next((o for o in loop.regions[0].blocks[0].ops if o.name == "scf.for"), None)


def unroll_disabled(op: Operation) -> bool:
    """Whether `op`'s annotation asks LLVM not to unroll the loop."""
    return _flag(op, NO_UNROLL)


def set_vectorized_no_unroll(loop: Operation) -> None:
    """Ask LLVM not to unroll the loops its vectorizer makes of `loop` (a scalar loop):
    `llvm.loop.vectorize.followup_all` with `llvm.loop.unroll.disable`. The loop itself
    may still be unrolled before vectorization (a loop of a few elements is)."""
    _set_flag(loop, VECTORIZED_NO_UNROLL)


def vectorized_unroll_disabled(op: Operation) -> bool:
    """Whether `op`'s annotation asks LLVM not to unroll the loops vectorized from it."""
    return _flag(op, VECTORIZED_NO_UNROLL)


def interleave_count(op: Operation) -> int | None:
    """The interleave count `op` carries, if any."""
    annotation = op.attributes.get(LOOP_ANNOTATION)
    if not isinstance(annotation, DictionaryAttr):
        return None
    count = annotation.data.get(INTERLEAVE_COUNT)
    return count.value.data if isinstance(count, IntegerAttr) else None


def folds_tail(op: Operation) -> bool:
    """Whether `op`'s annotation asks for a loop whose last vectors are masked."""
    return _flag(op, FOLD_TAIL)


def copy_loop_annotation(source: Operation, target: Operation) -> None:
    """Carry `source`'s loop annotation, if it has one, onto `target`."""
    annotation = source.attributes.get(LOOP_ANNOTATION)
    if annotation is not None:
        target.attributes[LOOP_ANNOTATION] = annotation
