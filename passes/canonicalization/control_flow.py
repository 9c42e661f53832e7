"""Canonicalization of control flow and tuples: `if`, `case` and `while` with
constant predicates or indices, loop-invariant values of a `while`, and
`get_tuple_element`/`tuple` pairs.

A `case` or `if` whose branch is known runs only that branch: its ops move before
the op (the others never run, so dropping them is exact, side effects included).
A `case` index outside `[0, N)` picks the last branch, as the spec says.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from passes.canonicalization.common import (
    constant_value,
    is_static,
    num_elements,
    pattern,
    producer,
    rebuild,
    replace_with_values,
    tensor_dtype,
)


def _inline_branch(rewriter: PatternRewriter, op: Operation, block: Block) -> None:
    """Replace `op` by the ops of `block` (ended by `xla.return`)."""
    terminator = block.last_op
    assert terminator is not None
    values = list(terminator.operands)
    rewriter.inline_block(block, InsertPoint.before(op))
    rewriter.erase(terminator)
    replace_with_values(rewriter, op, values)


@pattern("xla.case")
def case_constant_index(op: Operation, rewriter: PatternRewriter) -> None:
    """A `case` on a constant index is the branch it picks."""
    index = constant_value(op.operands[0])
    if index is None or index.size != 1:
        return
    n = len(op.regions)
    i = int(index.reshape(-1)[0])
    chosen = op.regions[i if 0 <= i < n else n - 1]
    if len(chosen.blocks) == 1:
        _inline_branch(rewriter, op, chosen.block)


@pattern("xla.case")
def case_single_branch(op: Operation, rewriter: PatternRewriter) -> None:
    """A `case` of one branch always runs it."""
    if len(op.regions) == 1 and len(op.regions[0].blocks) == 1:
        _inline_branch(rewriter, op, op.regions[0].block)


@pattern("xla.if")
def if_constant_predicate(op: Operation, rewriter: PatternRewriter) -> None:
    """An `if` on a constant predicate is the branch it picks."""
    pred = constant_value(op.operands[0])
    if pred is None or pred.size != 1:
        return
    chosen = op.regions[0 if bool(pred.reshape(-1)[0]) else 1]
    if len(chosen.blocks) == 1:
        _inline_branch(rewriter, op, chosen.block)


def _returned_constant(block: Block) -> np.ndarray | None:
    terminator = block.last_op
    if terminator is None or len(terminator.operands) != 1:
        return None
    return constant_value(terminator.operands[0])


@pattern("xla.while")
def while_never_runs(op: Operation, rewriter: PatternRewriter) -> None:
    """A `while` whose condition is constantly false returns its operands. A loop
    whose regions have side effects (an outfeed in the body) stays, as StableHLO
    keeps it, although its body never runs."""
    cond = op.regions[0]
    if len(cond.blocks) != 1 or not is_side_effect_free(op):
        return
    value = _returned_constant(cond.block)
    never = value is not None and value.size == 1 and not bool(value.reshape(-1)[0])
    if never and all(a.type == r.type for a, r in zip(op.operands, op.results)):
        replace_with_values(rewriter, op, list(op.operands))


def _used_and_empty(value: SSAValue) -> bool:
    t = value.type
    return bool(value.uses) and is_static(t) and num_elements(t) == 0 and tensor_dtype(t) is not None


@pattern("xla.while")
def while_invariant_values(op: Operation, rewriter: PatternRewriter) -> None:
    """A value the body of a `while` passes on unchanged is loop-invariant: the loop
    stops carrying it, and its uses (inside and after) read the operand."""
    cond, body = op.regions
    if len(cond.blocks) != 1 or len(body.blocks) != 1:
        return
    terminator = body.block.last_op
    assert terminator is not None
    invariant = [
        i
        for i, arg in enumerate(body.block.args)
        if terminator.operands[i] is arg and len(op.operands) > 1
    ]
    if not invariant or len(invariant) == len(op.operands):
        return
    if is_side_effect_free(op) and any(_used_and_empty(op.results[i]) for i in invariant):
        return  # zero_extent_results first makes it an empty constant, as StableHLO does
    for i in invariant:
        operand = op.operands[i]
        cond.block.args[i].replace_all_uses_with(operand)
        body.block.args[i].replace_all_uses_with(operand)
        op.results[i].replace_all_uses_with(operand)
    keep = [i for i in range(len(op.operands)) if i not in invariant]
    new_return = rebuild(terminator, operands=[terminator.operands[i] for i in keep])
    rewriter.replace(terminator, new_return)
    for i in reversed(invariant):
        cond.block.erase_arg(cond.block.args[i])
        body.block.erase_arg(body.block.args[i])
    regions = [op.detach_region(0), op.detach_region(0)]
    new = type(op).create(
        operands=[op.operands[i] for i in keep],
        result_types=[op.results[i].type for i in keep],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )
    rewriter.replace(
        op,
        new,
        [
            new.results[keep.index(i)] if i in keep else op.operands[i]
            for i in range(len(op.results))
        ],
    )


@pattern("xla.get_tuple_element")
def tuple_element_of_tuple(op: Operation, rewriter: PatternRewriter) -> None:
    """`get_tuple_element(tuple(a, b), 1)` is `b`."""
    tup = producer(op.operands[0], "xla.tuple")
    if tup is not None:
        index = op.properties["index"].value.data  # pyright: ignore
        replace_with_values(rewriter, op, [tup.operands[index]])


@pattern("xla.tuple")
def tuple_of_its_elements(op: Operation, rewriter: PatternRewriter) -> None:
    """`tuple(get_tuple_element(t, 0), ..., get_tuple_element(t, n-1))` is `t`."""
    source = None
    for i, value in enumerate(op.operands):
        element = producer(value, "xla.get_tuple_element")
        if element is None or element.properties["index"].value.data != i:  # pyright: ignore
            return
        if source is None:
            source = element.operands[0]
        elif element.operands[0] is not source:
            return
    if source is not None and source.type == op.results[0].type:
        replace_with_values(rewriter, op, [source])


@pattern("xla.if", "xla.case")
def branches_alike(op: Operation, rewriter: PatternRewriter) -> None:
    """An `if` or `case` whose branches are all the same computation runs it whatever
    the predicate or index."""
    first = op.regions[0]
    if len(first.blocks) != 1 or len(op.regions) < 2:
        return
    if all(first.is_structurally_equivalent(r) for r in op.regions[1:]):
        _inline_branch(rewriter, op, first.block)


@pattern("xla.custom_call")
def custom_call_backend_config_to_ffi(op: Operation, rewriter: PatternRewriter) -> None:
    """A `custom_call` of the original API whose backend config is the dictionary in
    `mhlo.backend_config` is the typed-FFI form (`api_version = 4`, `backend_config`
    that dictionary), as StableHLO canonicalizes it."""
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, i32

    config = op.attributes.get("mhlo.backend_config")
    version = op.properties.get("api_version")
    if not isinstance(config, DictionaryAttr) or "backend_config" in op.properties:
        return
    if not isinstance(version, IntegerAttr) or version.value.data != 1:
        return
    del op.attributes["mhlo.backend_config"]
    op.properties["api_version"] = IntegerAttr(4, i32)
    op.properties["backend_config"] = config
    rewriter.handle_operation_modification(op)
    rewriter.has_done_action = True
