"""Loop hints for LLVM, carried from `scf.for` to the latch branch (as MLIR does).

A loop op may carry the discardable attribute `llvm.loop_annotation`, a dictionary
(here `{interleave_count = N : i32}`): `lower-scf-to-cf` copies it onto the
branch back to the loop header, `convert-cf-to-llvm` onto the `llvm.br` that
replaces it, and the translation to LLVM IR (`runtime/llvm_backend.py`) makes
it the loop's `!llvm.loop` metadata (`llvm.loop.interleave.count`), which LLVM's
loop vectorizer follows instead of its own choice.

`math-polynomial-approximation` sets it on the loops it expands functions in:
LLVM gives those big bodies one vector per iteration, and two or four
independent vectors per iteration hide the latency of their long chains.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, i32
from xdsl.ir import Operation

LOOP_ANNOTATION = "llvm.loop_annotation"
INTERLEAVE_COUNT = "interleave_count"


def set_interleave_count(loop: Operation, count: int) -> None:
    loop.attributes[LOOP_ANNOTATION] = DictionaryAttr({INTERLEAVE_COUNT: IntegerAttr(count, i32)})


def interleave_count(op: Operation) -> int | None:
    """The interleave count `op` carries, if any."""
    annotation = op.attributes.get(LOOP_ANNOTATION)
    if not isinstance(annotation, DictionaryAttr):
        return None
    count = annotation.data.get(INTERLEAVE_COUNT)
    return count.value.data if isinstance(count, IntegerAttr) else None


def copy_loop_annotation(source: Operation, target: Operation) -> None:
    """Carry `source`'s loop annotation, if it has one, onto `target`."""
    annotation = source.attributes.get(LOOP_ANNOTATION)
    if annotation is not None:
        target.attributes[LOOP_ANNOTATION] = annotation
