"""Canonicalization of the conversions: `convert` and `bitcast_convert`.

`convert` of a constant follows the spec: integers to integers wrap around (two's
complement truncation), integers to floats and floats to floats round to nearest
even, anything to PRED is `x != 0`, floats to integers round toward zero. A float
that is not finite, is out of the integer type's range or is `-0.0` is left to
run time (as StableHLO leaves it).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from passes.canonicalization.common import (
    constant_value,
    foldable_type,
    pattern,
    producer,
    replace_with_constant,
    replace_with_values,
    skip_inner,
    tensor_dtype,
)


def _is_float(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or "float" in dtype.name


def convert_array(value: np.ndarray, to: np.dtype) -> np.ndarray | None:
    """`value` converted to `to` by the spec's rules, or None where they leave it open."""
    if to == np.bool_:
        if value.dtype.kind == "c":
            return value != 0
        return value.astype(np.float64) != 0 if _is_float(value.dtype) else value != 0
    if value.dtype.kind == "c" or to.kind == "c":
        return value.astype(to) if value.dtype.kind == "c" and to.kind == "c" else None
    if _is_float(value.dtype) and to.kind in "iu":
        wide = value.astype(np.float64)
        info = np.iinfo(to)
        truncated = np.trunc(wide)
        if not bool(np.all(np.isfinite(wide))) or bool(np.any((wide == 0) & np.signbit(wide))):
            return None
        if bool(np.any(truncated < float(info.min))) or bool(np.any(truncated > float(info.max))):
            return None
        if to.itemsize == 8 and bool(
            np.any(truncated >= 2.0**63 if to.kind == "i" else truncated >= 2.0**64)
        ):
            return None
        return truncated.astype(to)
    if value.dtype.kind in "iub" and to.kind in "iu":
        return value.astype(to)  # two's complement wrap-around
    if value.dtype.kind in "iub" and _is_float(to):
        if to.itemsize <= 2 and value.dtype.kind != "b":
            # round once: through f64 is exact for integers up to 2^53
            if value.dtype.itemsize == 8:
                return None
            return value.astype(np.float64).astype(to)
        return value.astype(to)
    if _is_float(value.dtype) and _is_float(to):
        return value.astype(to)
    return None


@pattern("xla.convert")
def fold_convert(op: Operation, rewriter: PatternRewriter) -> None:
    """`convert` of a constant is a constant (where the spec fixes the result)."""
    value = constant_value(op.operands[0])
    to = tensor_dtype(op.results[0].type)
    if value is None or to is None or not foldable_type(op.results[0].type):
        return
    with np.errstate(all="ignore"):
        result = convert_array(value, to)
    if result is not None:
        replace_with_constant(rewriter, op, result)


@pattern("xla.convert", "xla.bitcast_convert")
def no_op_conversion(op: Operation, rewriter: PatternRewriter) -> None:
    """A conversion to the operand's own type does nothing."""
    if op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.convert")
def convert_of_lossless_convert(op: Operation, rewriter: PatternRewriter) -> None:
    """`convert(convert(x))` is one `convert` when the inner one loses nothing
    (a widening of floats, or of integers of one signedness)."""
    inner = producer(op.operands[0], "xla.convert")
    if inner is None:
        return
    source, middle = tensor_dtype(inner.operands[0].type), tensor_dtype(inner.results[0].type)
    if source is None or middle is None:
        return
    widening = (
        _is_float(source)
        and _is_float(middle)
        and ml_dtypes.finfo(middle).bits >= ml_dtypes.finfo(source).bits
        and ml_dtypes.finfo(middle).nmant >= ml_dtypes.finfo(source).nmant
        and ml_dtypes.finfo(middle).maxexp >= ml_dtypes.finfo(source).maxexp
    ) or (source.kind == middle.kind and source.kind in "iu" and middle.itemsize >= source.itemsize)
    if not widening:
        return
    skip_inner(rewriter, op, inner)


@pattern("xla.bitcast_convert")
def bitcast_of_bitcast(op: Operation, rewriter: PatternRewriter) -> None:
    """`bitcast_convert(bitcast_convert(x))` is one bitcast (or `x` itself)."""
    inner = producer(op.operands[0], "xla.bitcast_convert")
    if inner is None:
        return
    skip_inner(rewriter, op, inner)


@pattern("xla.bitcast_convert")
def fold_bitcast_convert(op: Operation, rewriter: PatternRewriter) -> None:
    """`bitcast_convert` of a constant between types of one width is a constant."""
    value = constant_value(op.operands[0])
    to = tensor_dtype(op.results[0].type)
    if value is None or to is None or not foldable_type(op.results[0].type):
        return
    if value.dtype.itemsize != to.itemsize or value.dtype == np.bool_ or to == np.bool_:
        return
    if value.shape != tuple(op.results[0].type.get_shape()):  # pyright: ignore
        return
    replace_with_constant(rewriter, op, np.ascontiguousarray(value).view(to).reshape(value.shape))
