"""Canonicalization of contractions (XLA's algebraic simplifier, which StableHLO
lacks): a `dot`/`dot_general` whose contracting dimensions all have size 1 is an
element-wise `multiply` of its operands broadcast to the result; one over
contracting dimensions of no elements is zero."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    foldable_type,
    is_static,
    pattern,
    rebuild,
    replace_with_constant,
    replace_with_op,
    tensor_dtype,
)
from xla_dialect.syntax import i64_array, ints_of
from xla_dialect.types import element_type_of, shape_of, tensor


def dimension_numbers(op: Operation) -> tuple[list[int], list[int], list[int], list[int]]:
    """(lhs batch, rhs batch, lhs contracting, rhs contracting); `dot` is `[1] x [0]`."""
    if op.name == "xla.dot":
        lhs_rank = len(shape_of(op.operands[0].type))
        return [], [], [lhs_rank - 1], [0]
    dn = op.properties["dot_dimension_numbers"]
    return (
        list(ints_of(dn.lhs_batching_dimensions)),  # pyright: ignore
        list(ints_of(dn.rhs_batching_dimensions)),  # pyright: ignore
        list(ints_of(dn.lhs_contracting_dimensions)),  # pyright: ignore
        list(ints_of(dn.rhs_contracting_dimensions)),  # pyright: ignore
    )


def _contracted(op: Operation) -> tuple[list[int], list[int], list[int], list[int]] | None:
    if not all(is_static(v.type) for v in (*op.operands, op.results[0])):
        return None
    return dimension_numbers(op)


@pattern("xla.dot", "xla.dot_general")
def dot_of_nothing(op: Operation, rewriter: PatternRewriter) -> None:
    """A contraction over dimensions of no elements is a sum of nothing: zero."""
    dims = _contracted(op)
    if dims is None or not foldable_type(op.results[0].type):
        return
    lhs_shape = shape_of(op.operands[0].type)
    if any(lhs_shape[d] == 0 for d in dims[2]):
        replace_with_constant(rewriter, op, np.zeros((), dtype=tensor_dtype(op.results[0].type)))


def _broadcast_operand(
    rewriter: PatternRewriter, op: Operation, value: SSAValue, batch: list[int], contracting: list[int], offset: int
) -> SSAValue:
    """`value` without its (unit) contracting dimensions, broadcast to the result:
    batch dimensions first, then its free dimensions from `offset`."""
    shape = shape_of(value.type)
    free = [d for d in range(len(shape)) if d not in batch and d not in contracting]
    target = {d: i for i, d in enumerate(batch)}
    target.update({d: offset + i for i, d in enumerate(free)})
    result = op.results[0].type
    spare = [d for d in range(len(shape_of(result))) if d not in target.values()]
    element = element_type_of(value.type)
    if len(spare) >= len(contracting):  # a unit dimension broadcasts to any other
        target.update(zip(contracting, spare))
        kept = list(range(len(shape)))
    else:
        kept = [d for d in range(len(shape)) if d not in contracting]
        reshaped = rebuild(op, name="xla.reshape", operands=[value], properties={},
                           result_types=[tensor([shape[d] for d in kept], element)])
        reshaped.attributes.clear()
        rewriter.insert(reshaped, InsertPoint.before(op))
        value = reshaped.results[0]
        target = {new: target[old] for new, old in enumerate(kept)}
        kept = list(range(len(kept)))
    b = rebuild(op, name="xla.broadcast_in_dim", operands=[value],
                properties={"broadcast_dimensions": i64_array(target[d] for d in kept)},
                result_types=[tensor(shape_of(result), element)])
    b.attributes.clear()
    rewriter.insert(b, InsertPoint.before(op))
    return b.results[0]


@pattern("xla.dot", "xla.dot_general")
def dot_of_unit_contraction(op: Operation, rewriter: PatternRewriter) -> None:
    """A contraction whose contracting dimensions all have size 1 multiplies one
    element by one: `multiply(broadcast(lhs), broadcast(rhs))`."""
    dims = _contracted(op)
    if dims is None or "algorithm" in op.properties:  # an algorithm fixes how products are formed
        return
    lhs_batch, rhs_batch, lhs_contracting, rhs_contracting = dims
    lhs, rhs = op.operands
    if not lhs_contracting or any(shape_of(lhs.type)[d] != 1 for d in lhs_contracting):
        return
    element = element_type_of(op.results[0].type)
    if element_type_of(lhs.type) != element or element_type_of(rhs.type) != element:
        return
    lhs_free = len(shape_of(lhs.type)) - len(lhs_batch) - len(lhs_contracting)
    a = _broadcast_operand(rewriter, op, lhs, lhs_batch, lhs_contracting, len(lhs_batch))
    b = _broadcast_operand(rewriter, op, rhs, rhs_batch, rhs_contracting, len(lhs_batch) + lhs_free)
    replace_with_op(rewriter, op, rebuild(op, name="xla.multiply", operands=[a, b], properties={}))
