"""Values of no elements are all alike: the results of zero-extent type of an op
without side effects are replaced by an empty constant (and the op, once unused,
goes with dead code). Ops with side effects keep their results."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from passes.canonicalization.common import (
    constant_op,
    is_static,
    num_elements,
    pattern,
    tensor_dtype,
)
from xla_dialect.dialect import all_ops

_ALL = tuple(c.name for c in all_ops() if c.name not in ("xla.constant", "xla.return"))


@pattern(*_ALL)
def zero_extent_results(op: Operation, rewriter: PatternRewriter) -> None:
    """A used result of no elements of a side-effect-free op is an empty constant."""
    targets = [
        r
        for r in op.results
        if r.uses
        and is_static(r.type)
        and num_elements(r.type) == 0
        and tensor_dtype(r.type) is not None
    ]
    if not targets or not is_side_effect_free(op):
        return
    for result in targets:
        const = constant_op(np.zeros(0, dtype=tensor_dtype(result.type)), result.type)
        rewriter.insert(const, _constant_point(op))
        rewriter.replace_all_uses_with(result, const.results[0])
    if all(not r.uses for r in op.results):
        rewriter.erase(op)


def _constant_point(op: Operation) -> InsertPoint:
    """Where a new constant goes: after the constants that open `op`'s block (as MLIR's
    folder gathers them there), keeping the order in which they were made."""
    block = op.parent_block()
    if block is None:
        return InsertPoint.before(op)
    last = None
    for candidate in block.ops:
        if candidate.name != "xla.constant" or candidate is op:
            break
        last = candidate
    return InsertPoint.after(last) if last is not None else InsertPoint.at_start(block)


@pattern(*_ALL)
def zero_extent_operands(op: Operation, rewriter: PatternRewriter) -> None:
    """An operand of no elements (not already a constant) of a side-effect-free op
    reads an empty constant instead, so whatever made it may go."""
    if not is_side_effect_free(op):
        return
    for i, value in enumerate(op.operands):
        t = value.type
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in ("xla.constant", "arith.constant"):
            continue
        if is_static(t) and num_elements(t) == 0 and tensor_dtype(t) is not None:
            const = constant_op(np.zeros(0, dtype=tensor_dtype(t)), t)
            rewriter.insert(const, _constant_point(op))
            op.operands[i] = const.results[0]
            rewriter.handle_operation_modification(op)
            rewriter.has_done_action = True
