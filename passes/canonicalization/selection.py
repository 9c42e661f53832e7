"""`select`, `clamp` and the complex parts: constant and inverted predicates,
`select` of `select` or of a comparison, `clamp` folding (IEEE max/min), and
`complex`/`real`/`imag` cancelling and folding.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    constant_value,
    foldable_type,
    is_splat_of,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    tensor_dtype,
)
from passes.canonicalization.elementwise import (
    BINARY_FOLDERS,
    SWAPPED_DIRECTION,
    direction_of,
    same_shapes,
)
from xla_dialect.types import shape_of


@pattern("xla.select")
def select_same_branches(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, a, a)` is `a`."""
    if op.operands[1] is op.operands[2] and op.operands[1].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.select")
def select_constant_predicate(op: Operation, rewriter: PatternRewriter) -> None:
    """`select` by a constant predicate: a splat picks a branch; otherwise, with
    constant branches, the result is a constant."""
    pred = constant_value(op.operands[0])
    if pred is None or pred.size == 0:
        return
    on_true, on_false = op.operands[1], op.operands[2]
    if bool(np.all(pred)) and on_true.type == op.results[0].type:
        replace_with_values(rewriter, op, [on_true])
        return
    if not bool(np.any(pred)) and on_false.type == op.results[0].type:
        replace_with_values(rewriter, op, [on_false])
        return
    a, b = constant_value(on_true), constant_value(on_false)
    if a is not None and b is not None and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.where(pred, a, b))


@pattern("xla.select")
def select_inverted_predicate(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(not p, a, b)` is `select(p, b, a)` (also through a broadcast or reshape
    of `not p`)."""
    pred = op.operands[0]
    inverted = producer(pred, "xla.not")
    if inverted is not None:
        replace_with_op(
            rewriter,
            op,
            rebuild(op, operands=[inverted.operands[0], op.operands[2], op.operands[1]]),
        )
        return
    shaped = producer(pred, "xla.broadcast_in_dim", "xla.reshape")
    inverted = producer(shaped.operands[0], "xla.not") if shaped is not None else None
    if shaped is None or inverted is None:
        return
    reshaped = rebuild(shaped, operands=[inverted.operands[0]])
    rewriter.insert(reshaped, InsertPoint.before(op))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[reshaped.results[0], op.operands[2], op.operands[1]])
    )


@pattern("xla.select")
def select_of_comparison(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(a > b, a, b)` is `max(a, b)` and `select(a < b, a, b)` is `min(a, b)`,
    on integers (on floats NaN and signed zero make them differ)."""
    cmp = producer(op.operands[0], "xla.compare")
    dtype = tensor_dtype(op.results[0].type)
    if cmp is None or dtype is None or dtype.kind not in "iu" or not same_shapes(cmp):
        return
    a, b = cmp.operands
    direction = direction_of(cmp)
    on_true, on_false = op.operands[1], op.operands[2]
    if (on_true, on_false) == (b, a):
        direction = SWAPPED_DIRECTION[direction]
    elif (on_true, on_false) != (a, b):
        return
    if shape_of(op.operands[0].type) != shape_of(op.results[0].type):
        return
    name = {"GT": "xla.maximum", "GE": "xla.maximum", "LT": "xla.minimum", "LE": "xla.minimum"}.get(
        direction
    )
    if name is not None:
        replace_with_op(
            rewriter, op, rebuild(op, operands=[on_true, on_false], name=name, properties={})
        )


@pattern("xla.clamp")
def fold_clamp(op: Operation, rewriter: PatternRewriter) -> None:
    """`clamp` of constants is a constant: `min(max(x, lo), hi)`, NaN-propagating."""
    values = [constant_value(v) for v in op.operands]
    if any(v is None for v in values) or not foldable_type(op.results[0].type):
        return
    lo, x, hi = values
    assert lo is not None and x is not None and hi is not None
    if x.dtype.kind == "c":
        return
    shape = shape_of(op.results[0].type)
    lo, x, hi = (np.broadcast_to(v, shape) for v in (lo, x, hi))
    raised = BINARY_FOLDERS["xla.maximum"](x, lo)
    assert raised is not None
    result = BINARY_FOLDERS["xla.minimum"](np.asarray(raised), hi)
    assert result is not None
    replace_with_constant(rewriter, op, np.asarray(result))


@pattern("xla.real", "xla.imag")
def part_of_complex(op: Operation, rewriter: PatternRewriter) -> None:
    """`real(complex(a, b))` is `a`, `imag(complex(a, b))` is `b`."""
    pair = producer(op.operands[0], "xla.complex")
    if pair is not None and "broadcast_dimensions" not in pair.properties:
        part = pair.operands[0 if op.name == "xla.real" else 1]
        if part.type == op.results[0].type:
            replace_with_values(rewriter, op, [part])


@pattern("xla.complex")
def complex_of_parts(op: Operation, rewriter: PatternRewriter) -> None:
    """`complex(real(z), imag(z))` is `z`."""
    re, im = producer(op.operands[0], "xla.real"), producer(op.operands[1], "xla.imag")
    same = re is not None and im is not None and re.operands[0] is im.operands[0]
    if same and re.operands[0].type == op.results[0].type:  # pyright: ignore
        replace_with_values(rewriter, op, [re.operands[0]])  # pyright: ignore


@pattern("xla.real", "xla.imag", "xla.complex")
def fold_complex_parts(op: Operation, rewriter: PatternRewriter) -> None:
    """`real`, `imag` and `complex` of constants are constants."""
    values = [constant_value(v) for v in op.operands]
    if any(v is None for v in values) or not foldable_type(op.results[0].type):
        return
    if op.name == "xla.complex":
        re, im = values
        assert re is not None and im is not None
        dtype = tensor_dtype(op.results[0].type)
        # Part by part into the complex array (no detour through f64, which would quiet
        # a signalling NaN and set numpy's invalid flag).
        value = np.empty(np.broadcast_shapes(re.shape, im.shape), dtype)
        value.real, value.imag = re, im
        replace_with_constant(rewriter, op, value)
        return
    (z,) = values
    assert z is not None
    if z.dtype.kind != "c":
        part = z if op.name == "xla.real" else np.zeros_like(z)
    else:
        part = z.real if op.name == "xla.real" else z.imag
    replace_with_constant(rewriter, op, part)


@pattern("xla.select")
def select_of_booleans(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, true, false)` is `p`; `select(p, false, true)` is `not p`."""
    if op.operands[0].type != op.results[0].type or tensor_dtype(op.results[0].type) != np.bool_:
        return
    on_true, on_false = op.operands[1], op.operands[2]
    if is_splat_of(on_true, True) and is_splat_of(on_false, False):
        replace_with_values(rewriter, op, [op.operands[0]])
    elif is_splat_of(on_true, False) and is_splat_of(on_false, True):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.not", properties={}))


@pattern("xla.select")
def select_of_select(op: Operation, rewriter: PatternRewriter) -> None:
    """`select(p, select(p, a, b), c)` is `select(p, a, c)`; `select(p, a, select(p, b, c))`
    is `select(p, a, c)`."""
    pred, on_true, on_false = op.operands
    inner = producer(on_true, "xla.select")
    if inner is not None and inner.operands[0] is pred:
        replace_with_op(rewriter, op, rebuild(op, operands=[pred, inner.operands[1], on_false]))
        return
    inner = producer(on_false, "xla.select")
    if inner is not None and inner.operands[0] is pred:
        replace_with_op(rewriter, op, rebuild(op, operands=[pred, on_true, inner.operands[2]]))


@pattern("xla.clamp")
def clamp_of_clamp(op: Operation, rewriter: PatternRewriter) -> None:
    """`clamp(lo, clamp(lo, x, hi), hi)` is the inner `clamp`."""
    inner = producer(op.operands[1], "xla.clamp")
    same_bounds = inner is not None and inner.operands[0] is op.operands[0] and inner.operands[2] is op.operands[2]
    if same_bounds and inner.results[0].type == op.results[0].type:  # pyright: ignore
        replace_with_values(rewriter, op, [inner.results[0]])  # pyright: ignore
