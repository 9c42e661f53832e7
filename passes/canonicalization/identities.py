"""Algebraic identities of the element-wise ops: constants to the right of
commutative ops, neutral and absorbing elements, self-cancelling and idempotent
forms, negations, integer reassociation of constants, small powers, rounding of
rounded values, and XLA's sinking of transpose/reshape past element-wise binaries.

Each identity holds exactly for the element types it accepts: the float forms
respect NaN and signed zero (`x + 0.0` is not `x`, `x + -0.0` is).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    constant_op,
    constant_value,
    foldable_type,
    is_constant,
    is_splat_of,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    splat_value,
    tensor_dtype,
)
from passes.canonicalization.elementwise import (
    BINARY_FOLDERS,
    all_ones,
    compare_type_of,
    direction_of,
    is_zero,
    keeps_type,
    positive_zero,
    same_shapes,
)
from xla_dialect.types import element_type_of, shape_of

COMMUTATIVE = (
    "xla.add",
    "xla.multiply",
    "xla.maximum",
    "xla.minimum",
    "xla.and",
    "xla.or",
    "xla.xor",
)


@pattern(*COMMUTATIVE)
def constant_to_right(op: Operation, rewriter: PatternRewriter) -> None:
    """A commutative op takes its constant operand on the right (so the identities
    below need look only there)."""
    lhs, rhs = op.operands
    if is_constant(lhs) and not is_constant(rhs) and same_shapes(op):
        replace_with_op(rewriter, op, rebuild(op, operands=[rhs, lhs]))


@pattern(
    "xla.add",
    "xla.or",
    "xla.xor",
    "xla.subtract",
    "xla.shift_left",
    "xla.shift_right_logical",
    "xla.shift_right_arithmetic",
)
def zero_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`x + 0`, `x | 0`, `x ^ 0`, `x << 0`, `x >> 0` on integers; `x - 0.0` and
    `x + -0.0` on floats are `x` (`x + 0.0` is not: `-0.0 + 0.0` is `+0.0`)."""
    if not keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or dtype.kind == "c":
        return
    floats = dtype.kind not in "iub"
    rhs = op.operands[1]
    if (
        (not floats and is_zero(rhs))
        or (
            floats
            and op.name == "xla.subtract"
            and is_zero(rhs)
            and is_splat_of(rhs, 0)
            and positive_zero(rhs)
        )
        or (floats and op.name == "xla.add" and is_zero(rhs, negative_zero_only=True))
    ):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.multiply", "xla.divide", "xla.power")
def one_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * 1`, `x / 1`, `x ^ 1` are `x` (exact for floats too: NaN stays NaN)."""
    if keeps_type(op) and is_splat_of(op.operands[1], 1):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.and", "xla.multiply")
def and_all_ones(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & all-ones` is `x`; `x & 0` is 0 (integers and PRED; `multiply` of PRED is `and`)."""
    if not keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if (
        dtype is None
        or (op.name == "xla.multiply" and dtype != np.bool_)
        or dtype.kind not in "iub"
    ):
        return
    rhs = op.operands[1]
    if all_ones(rhs):
        replace_with_values(rewriter, op, [op.operands[0]])
    elif is_zero(rhs):
        replace_with_values(rewriter, op, [rhs])


@pattern("xla.or", "xla.add")
def or_all_ones(op: Operation, rewriter: PatternRewriter) -> None:
    """`x | all-ones` is all-ones (integers and PRED; `add` of PRED is `or`)."""
    if not keeps_type(op):
        return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or (op.name == "xla.add" and dtype != np.bool_) or dtype.kind not in "iub":
        return
    if all_ones(op.operands[1]):
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.multiply")
def multiply_integer_zero(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * 0` is 0 on integers (not on floats: `inf * 0` is NaN, `-1 * 0` is `-0`)."""
    dtype = tensor_dtype(op.results[0].type)
    if keeps_type(op) and dtype is not None and dtype.kind in "iu" and is_zero(op.operands[1]):
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.subtract", "xla.xor")
def self_cancels(op: Operation, rewriter: PatternRewriter) -> None:
    """`x - x` and `x ^ x` are 0 on integers and PRED (not `x - x` on floats: inf, NaN)."""
    dtype = tensor_dtype(op.results[0].type)
    if op.operands[0] is not op.operands[1] or dtype is None or dtype.kind not in "iub":
        return
    if foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.zeros((), dtype=dtype))


@pattern("xla.and", "xla.or", "xla.maximum", "xla.minimum")
def idempotent(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & x`, `x | x`, `max(x, x)`, `min(x, x)` are `x`."""
    if op.operands[0] is op.operands[1] and keeps_type(op):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.negate", "xla.not")
def involution(op: Operation, rewriter: PatternRewriter) -> None:
    """`-(-x)` and `not(not x)` are `x`."""
    inner = producer(op.operands[0], op.name)
    if inner is not None:
        replace_with_values(rewriter, op, [inner.operands[0]])


@pattern("xla.add")
def add_negated(op: Operation, rewriter: PatternRewriter) -> None:
    """`x + (-y)` is `x - y` (exact in IEEE arithmetic as in integers)."""
    neg = producer(op.operands[1], "xla.negate")
    if neg is not None and keeps_type(op):
        replace_with_op(
            rewriter,
            op,
            rebuild(op, operands=[op.operands[0], neg.operands[0]], name="xla.subtract"),
        )


@pattern("xla.subtract")
def subtract_negated(op: Operation, rewriter: PatternRewriter) -> None:
    """`x - (-y)` is `x + y`."""
    neg = producer(op.operands[1], "xla.negate")
    if neg is not None and keeps_type(op):
        replace_with_op(
            rewriter, op, rebuild(op, operands=[op.operands[0], neg.operands[0]], name="xla.add")
        )


@pattern("xla.abs")
def abs_idempotent(op: Operation, rewriter: PatternRewriter) -> None:
    """`abs(abs(x))` is `abs(x)`; `abs(-x)` is `abs(x)` (on real types)."""
    inner = producer(op.operands[0], "xla.abs", "xla.negate")
    if inner is None or op.results[0].type != op.operands[0].type:
        return
    if inner.name == "xla.abs":
        replace_with_values(rewriter, op, [op.operands[0]])
    else:
        replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0]]))


@pattern("xla.divide")
def divide_float_by_constant(op: Operation, rewriter: PatternRewriter) -> None:
    """`x / c` is `x * (1/c)` where `1/c` is exact (c a power of two, normal): XLA's
    algebraic simplifier's strength reduction of division."""
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind != "f" or not keeps_type(op):
        return
    c = float(value)
    if c == 0 or not np.isfinite(c) or c == 1:
        return
    mantissa, _ = np.frexp(c)
    with np.errstate(over="ignore"):  # 1/c beyond the type is caught just below
        reciprocal = np.asarray(1.0 / c, dtype=dtype)
    if abs(mantissa) != 0.5 or float(reciprocal) * c != 1.0 or not np.isfinite(reciprocal):
        return
    if np.finfo(dtype).tiny > abs(float(reciprocal)):
        return

    const = constant_op(reciprocal, op.operands[1].type)
    rewriter.insert(const, InsertPoint.before(op))
    replace_with_op(
        rewriter, op, rebuild(op, operands=[op.operands[0], const.results[0]], name="xla.multiply")
    )


@pattern("xla.maximum", "xla.minimum")
def extreme_is_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`max(x, lowest)` and `min(x, highest)` are `x` (`-inf`/`+inf` for floats, NaN
    still propagating; the type's bounds for integers)."""
    if not keeps_type(op):
        return
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind == "c":
        return
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bound = info.min if op.name == "xla.maximum" else info.max
        matches = int(value) == int(bound)
    elif dtype == np.bool_:
        matches = bool(value) == (op.name == "xla.minimum")
    else:
        matches = float(value) == (-np.inf if op.name == "xla.maximum" else np.inf)
    if matches:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.subtract")
def integer_zero_minus(op: Operation, rewriter: PatternRewriter) -> None:
    """`0 - x` is `-x` on integers (on floats `0 - 0` is `+0`, `-0` is `-0`)."""
    dtype = tensor_dtype(op.results[0].type)
    if dtype is not None and dtype.kind in "iu" and keeps_type(op) and is_zero(op.operands[0]):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[1]], name="xla.negate", properties={}))


@pattern("xla.multiply")
def integer_times_minus_one(op: Operation, rewriter: PatternRewriter) -> None:
    """`x * -1` is `-x` on signed integers (wrapping alike)."""
    dtype = tensor_dtype(op.results[0].type)
    if dtype is not None and dtype.kind == "i" and keeps_type(op) and is_splat_of(op.operands[1], -1):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.negate", properties={}))


INVERTED_DIRECTION = {"EQ": "NE", "NE": "EQ", "LT": "GE", "GE": "LT", "GT": "LE", "LE": "GT"}


@pattern("xla.not")
def not_of_integer_comparison(op: Operation, rewriter: PatternRewriter) -> None:
    """`not(a < b)` is `a >= b` on integers (not on floats: NaN compares false both ways)."""
    cmp = producer(op.operands[0], "xla.compare")
    dtype = tensor_dtype(cmp.operands[0].type) if cmp is not None else None
    if cmp is None or dtype is None or dtype.kind not in "iub" or compare_type_of(cmp) == "TOTALORDER":
        return
    from xla_dialect.attributes import ComparisonDirection, ComparisonDirectionAttr

    direction = ComparisonDirectionAttr(ComparisonDirection(INVERTED_DIRECTION[direction_of(cmp)]))
    new = rebuild(cmp, properties={"comparison_direction": direction})
    new.attributes.update(op.attributes)
    rewriter.replace(op, new)


@pattern("xla.real")
def real_of_real(op: Operation, rewriter: PatternRewriter) -> None:
    """`real(x)` of a real-typed `x` is `x`."""
    if op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.reduce_precision")
def reduce_precision_to_own(op: Operation, rewriter: PatternRewriter) -> None:
    """`reduce_precision` to at least the type's own exponent and mantissa bits does nothing."""
    import ml_dtypes

    dtype = tensor_dtype(op.operands[0].type)
    if dtype is None or dtype.kind in "iubc":
        return
    try:
        info = ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return
    exponent_bits = int(np.log2(info.maxexp)) + 1
    e = op.properties["exponent_bits"].value.data  # pyright: ignore
    m = op.properties["mantissa_bits"].value.data  # pyright: ignore
    if e >= exponent_bits and m >= info.nmant:
        replace_with_values(rewriter, op, [op.operands[0]])


SINKABLE = ("xla.add", "xla.subtract", "xla.multiply", "xla.divide", "xla.maximum", "xla.minimum",
            "xla.and", "xla.or", "xla.xor", "xla.remainder", "xla.power", "xla.atan2")


@pattern(*SINKABLE)
def sink_shape_op(op: Operation, rewriter: PatternRewriter) -> None:
    """`f(transpose(a, p), transpose(b, p))` is `transpose(f(a, b), p)`, and likewise
    for `reshape`s of one type (XLA's algebraic simplifier sinks them past the
    element-wise op: one shape op instead of two)."""
    lhs = producer(op.operands[0], "xla.transpose", "xla.reshape")
    rhs = producer(op.operands[1], "xla.transpose", "xla.reshape")
    if lhs is None or rhs is None or lhs.name != rhs.name or "broadcast_dimensions" in op.properties:
        return
    if lhs.operands[0].type != rhs.operands[0].type or dict(lhs.properties) != dict(rhs.properties):
        return
    if "dimensions" in lhs.properties or not same_shapes(op):
        return
    from xla_dialect.types import tensor

    inner_shape = shape_of(lhs.operands[0].type)
    inner = rebuild(op, operands=[lhs.operands[0], rhs.operands[0]],
                    result_types=[tensor(inner_shape, element_type_of(op.results[0].type))])
    inner.attributes.clear()
    rewriter.insert(inner, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(lhs, operands=[inner.results[0]], result_types=[op.results[0].type]))


@pattern("xla.and", "xla.or", "xla.xor")
def with_own_complement(op: Operation, rewriter: PatternRewriter) -> None:
    """`x & ~x` is 0; `x | ~x` and `x ^ ~x` are all ones (integers and PRED)."""
    lhs, rhs = op.operands
    inverted = producer(rhs, "xla.not")
    if inverted is None or inverted.operands[0] is not lhs or not keeps_type(op):
        inverted = producer(lhs, "xla.not")
        if inverted is None or inverted.operands[0] is not rhs or not keeps_type(op):
            return
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or not foldable_type(op.results[0].type):
        return
    zero = np.zeros((), dtype=dtype)
    replace_with_constant(rewriter, op, zero if op.name == "xla.and" else np.invert(zero))


@pattern("xla.negate")
def negate_of_integer_difference(op: Operation, rewriter: PatternRewriter) -> None:
    """`-(a - b)` is `b - a` on integers (on floats `-(a - a)` is `-0`, `a - a` is `+0`)."""
    diff = producer(op.operands[0], "xla.subtract")
    dtype = tensor_dtype(op.results[0].type)
    if diff is None or dtype is None or dtype.kind not in "iu" or not same_shapes(diff):
        return
    replace_with_op(rewriter, op, rebuild(diff, operands=[diff.operands[1], diff.operands[0]]))


@pattern("xla.power")
def power_of_small_integer(op: Operation, rewriter: PatternRewriter) -> None:
    """`x ^ 2` is `x * x`, `x ^ 0` is 1 (NaN ^ 0 too, as IEEE's pow), `x ^ -1` is `1 / x`
    on floats (XLA's algebraic simplifier)."""
    value = splat_value(op.operands[1])
    dtype = tensor_dtype(op.results[0].type)
    if value is None or dtype is None or dtype.kind == "c" or not keeps_type(op):
        return
    exponent = float(value)
    x = op.operands[0]
    if exponent == 2:
        replace_with_op(rewriter, op, rebuild(op, operands=[x, x], name="xla.multiply"))
    elif exponent == 0 and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.ones((), dtype=dtype))
    elif exponent == -1 and dtype.kind not in "iub" and foldable_type(op.results[0].type):
        from passes.canonicalization.common import constant_op

        one = constant_op(np.ones((), dtype=dtype), op.results[0].type)
        rewriter.insert(one, InsertPoint.before(op))
        replace_with_op(rewriter, op, rebuild(op, operands=[one.results[0], x], name="xla.divide"))


IDEMPOTENT_UNARY = ("xla.floor", "xla.ceil", "xla.round_nearest_even", "xla.round_nearest_afz", "xla.sign")


@pattern(*IDEMPOTENT_UNARY)
def rounding_of_integral(op: Operation, rewriter: PatternRewriter) -> None:
    """Rounding (or `sign`) of a value already rounded (or a sign) is that value:
    `floor(ceil(x))` is `ceil(x)`, `sign(sign(x))` is `sign(x)`."""
    inner = producer(op.operands[0], *IDEMPOTENT_UNARY)
    if inner is None or op.operands[0].type != op.results[0].type:
        return
    if (inner.name == "xla.sign") == (op.name == "xla.sign"):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.imag")
def imag_of_real(op: Operation, rewriter: PatternRewriter) -> None:
    """`imag(x)` of a real-typed `x` is zero."""
    if op.operands[0].type == op.results[0].type and foldable_type(op.results[0].type):
        replace_with_constant(rewriter, op, np.zeros((), dtype=tensor_dtype(op.results[0].type)))


REASSOCIATIVE = ("xla.add", "xla.multiply", "xla.and", "xla.or", "xla.xor", "xla.maximum", "xla.minimum")


@pattern(*REASSOCIATIVE)
def combine_constants(op: Operation, rewriter: PatternRewriter) -> None:
    """`(x op c1) op c2` is `x op (c1 op c2)`: exact for integers, PRED, and for
    `maximum`/`minimum` of floats (XLA's algebraic simplifier)."""
    inner = producer(op.operands[0], op.name)
    dtype = tensor_dtype(op.results[0].type)
    if inner is None or dtype is None or not keeps_type(op) or not keeps_type(inner):
        return
    if dtype.kind not in "iub" and op.name not in ("xla.maximum", "xla.minimum"):
        return
    c1, c2 = constant_value(inner.operands[1]), constant_value(op.operands[1])
    if c1 is None or c2 is None or c1.dtype.kind == "c" or sum(1 for _ in op.operands[0].uses) != 1:
        return
    with np.errstate(all="ignore"):
        combined = BINARY_FOLDERS[op.name](c1, c2)
    if combined is None:
        return

    const = constant_op(np.asarray(combined).astype(dtype), op.results[0].type)
    rewriter.insert(const, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0], const.results[0]]))


@pattern("xla.minimum", "xla.maximum")
def absorption(op: Operation, rewriter: PatternRewriter) -> None:
    """`min(x, max(x, y))` and `max(x, min(x, y))` are `x` on integers (on floats a
    NaN `y` would propagate)."""
    other = "xla.maximum" if op.name == "xla.minimum" else "xla.minimum"
    dtype = tensor_dtype(op.results[0].type)
    if dtype is None or dtype.kind not in "iub" or not keeps_type(op):
        return
    x, rhs = op.operands
    inner = producer(rhs, other)
    if inner is not None and x in inner.operands and keeps_type(inner):
        replace_with_values(rewriter, op, [x])


@pattern("xla.remainder")
def integer_remainder_by_one(op: Operation, rewriter: PatternRewriter) -> None:
    """`x % 1` is 0 on integers."""
    dtype = tensor_dtype(op.results[0].type)
    integer = dtype is not None and dtype.kind in "iu" and foldable_type(op.results[0].type)
    if integer and keeps_type(op) and is_splat_of(op.operands[1], 1):
        replace_with_constant(rewriter, op, np.zeros((), dtype=dtype))


@pattern("xla.xor")
def xor_of_complements(op: Operation, rewriter: PatternRewriter) -> None:
    """`~x ^ ~y` is `x ^ y`."""
    a, b = producer(op.operands[0], "xla.not"), producer(op.operands[1], "xla.not")
    if a is not None and b is not None and keeps_type(op):
        replace_with_op(rewriter, op, rebuild(op, operands=[a.operands[0], b.operands[0]]))


@pattern("xla.compare")
def compare_predicate_to_its_negation(op: Operation, rewriter: PatternRewriter) -> None:
    """`compare EQ, p, false` and `compare NE, p, true` on PRED are `not p`."""
    if tensor_dtype(op.operands[0].type) != np.bool_ or not same_shapes(op):
        return
    direction = direction_of(op)
    if (direction == "EQ" and is_splat_of(op.operands[1], False)) or (
        direction == "NE" and is_splat_of(op.operands[1], True)
    ):
        replace_with_op(rewriter, op, rebuild(op, operands=[op.operands[0]], name="xla.not", properties={}))
