"""What the canonicalization patterns share: reading constants, building the
replacement (a constant, a value, a rebuilt op), merging discardable attributes
into the op that survives, and the table patterns are registered through.

A pattern here is a function `(op, rewriter) -> None` registered for op names
with `@pattern(...)`; it rewrites through `rewriter` or leaves the op alone.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xla_dialect.canonicalization import register_patterns
from xla_dialect.literals import from_numpy, numpy_dtype, splat_element, to_numpy
from xla_dialect.types import element_type_of, is_tensor, shape_of

MAX_FOLDED_ELEMENTS = 1 << 16
"""Larger results are left to run time: folding them would bloat the IR."""

PatternFn = Callable[[Operation, PatternRewriter], None]


class FunctionPattern(RewritePattern):
    """A rewrite pattern made of one function (its name is the pattern's name)."""

    def __init__(self, fn: PatternFn):
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __repr__(self) -> str:
        return f"FunctionPattern({self.fn.__name__})"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.fn(op, rewriter)


ALL_PATTERNS: list[tuple[tuple[str, ...], FunctionPattern]] = []
"""Every pattern of the package with the ops it is registered for, in order."""


def pattern(*op_names: str) -> Callable[[PatternFn], PatternFn]:
    """Register the decorated function as a canonicalization pattern of `op_names`."""

    def register(fn: PatternFn) -> PatternFn:
        wrapped = FunctionPattern(fn)
        register_patterns(op_names, wrapped)
        ALL_PATTERNS.append((op_names, wrapped))
        return fn

    return register


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def producer(value: SSAValue, *names: str) -> Operation | None:
    """The op defining `value` if it is one of `names` (any op when none given)."""
    owner = value.owner
    if isinstance(owner, Operation) and (not names or owner.name in names):
        return owner
    return None


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The array an `xla.constant` (or `arith.constant`) defines, if NumPy can hold it."""
    owner = producer(value, "xla.constant", "arith.constant")
    if owner is None:
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    try:
        array = to_numpy(attr)
    except ValueError:
        return None
    if is_sub_byte_integer(array.dtype):
        return None  # i2/i4 (ml_dtypes): NumPy's kinds do not tell them apart (sub_byte.py folds them)
    return array


def is_sub_byte_integer(dtype: np.dtype) -> bool:
    return dtype.kind == "V" and "int" in dtype.name


def splat_value(value: SSAValue) -> np.generic | None:
    """The one element of a constant all of whose elements are equal (bitwise for floats,
    so that a splat of NaN or of -0.0 is one too). A splat literal (a broadcast view) is
    answered from its one element, however large its type."""
    array = constant_value(value)
    if array is None:
        return None
    element = splat_element(array)
    return None if element is None else element.reshape(())[()]


def is_splat_of(value: SSAValue, number: float) -> bool:
    """Whether `value` is a constant whose every element equals `number` (not NaN)."""
    array = constant_value(value)
    if array is None or array.size == 0:
        return False
    element = splat_element(array)
    return bool(np.all((element if element is not None else array) == number))


def is_constant(value: SSAValue) -> bool:
    return producer(value, "xla.constant", "arith.constant") is not None


def tensor_dtype(t: Attribute) -> np.dtype | None:
    return numpy_dtype(element_type_of(t)) if is_tensor(t) else None


def num_elements(t: Attribute) -> int:
    """The number of elements of a static tensor type; -1 for anything else."""
    return math.prod(shape_of(t)) if is_static(t) else -1  # (np.prod: 20x slower on a tuple)


def is_static(t: Attribute) -> bool:
    return is_tensor(t) and all(d >= 0 for d in shape_of(t))


def foldable_type(t: Attribute) -> bool:
    """A static tensor NumPy can hold, within the size limit of folded constants."""
    return is_static(t) and tensor_dtype(t) is not None and num_elements(t) <= MAX_FOLDED_ELEMENTS


def int_prop(op: Operation, name: str) -> int:
    attr = op.properties[name]
    assert isinstance(attr, IntegerAttr)
    return int(attr.value.data)


# ---------------------------------------------------------------------------
# Rewriting
# ---------------------------------------------------------------------------


def constant_op(array: np.ndarray, result_type: Attribute) -> Operation:
    """An `xla.constant` of `result_type` holding `array` (cast to its element type)."""
    from xla_dialect.ops.constants import ConstantOp

    assert isinstance(result_type, TensorType)
    dtype = tensor_dtype(result_type)
    data = np.asarray(array)
    if dtype is not None and data.dtype != dtype:
        data = data.astype(dtype)
    if num_elements(result_type) == 0:
        data = np.zeros(shape_of(result_type), dtype=data.dtype)
    if is_sub_byte_integer(data.dtype):
        data = data.astype(np.int64)
    if data.size == 1 and num_elements(result_type) > 1:  # a splat: one element given
        return ConstantOp(from_numpy(data.reshape(1), result_type))
    return ConstantOp(from_numpy(np.broadcast_to(data, shape_of(result_type)), result_type))


def replace_with_constant(rewriter: PatternRewriter, op: Operation, array: np.ndarray) -> None:
    rewriter.replace(op, constant_op(array, op.results[0].type))


def replace_with_values(
    rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]
) -> None:
    """Replace `op` by existing values; its discardable attributes move to their producers."""
    for value in values:
        merge_discardable_attributes(op, value)
    rewriter.replace(op, [], list(values))


def replace_with_op(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    """Replace `op` by `new`, into which `op`'s discardable attributes merge (`op`'s win)."""
    merge_attributes_into(op, new)
    rewriter.replace(op, new)


def skip_inner(rewriter: PatternRewriter, op: Operation, inner: Operation) -> None:
    """`op(inner(x))` that composes to one `op` of `x`: `x` itself when its type is
    already the result's, else `op` rebuilt on `x` (conversions and reshapes chains)."""
    source = inner.operands[0]
    if source.type == op.results[0].type:
        replace_with_values(rewriter, op, [source])
    else:
        replace_with_op(rewriter, op, rebuild(op, operands=[source]))


def rebuild(
    op: Operation,
    *,
    operands: Sequence[SSAValue] | None = None,
    properties: dict[str, Attribute] | None = None,
    result_types: Sequence[Attribute] | None = None,
    name: str | None = None,
) -> Operation:
    """An op of `op`'s kind (or of the op called `name`) with the given parts changed;
    regions are not carried over. The discardable attributes are kept."""
    cls = type(op) if name is None else op_class(name)
    props = dict(op.properties) if name is None else {}
    props.update(properties or {})
    return cls.create(
        operands=list(op.operands if operands is None else operands),
        result_types=list(op.result_types if result_types is None else result_types),
        properties=props,
        attributes=dict(op.attributes),
    )


@functools.cache
def op_class(name: str) -> type[Operation]:
    """The `xla` op class called `name`."""
    from xla_dialect.dialect import all_ops

    return next(c for c in all_ops() if c.name == name)


FRONTEND_ATTRIBUTES = "mhlo.frontend_attributes"


def merge_discardable_attributes(source: Operation, dest_value: SSAValue) -> None:
    """Move the discardable attributes of the op being removed to the op that defines
    its replacement (as StableHLO does): the source's win, except that the frontend
    attribute `xla_metadata_payload` of the surviving op is its own; dictionaries of
    frontend attributes are merged key by key."""
    dest = dest_value.owner
    if isinstance(dest, Operation) and dest.name not in ("xla.constant", "arith.constant"):
        merge_attributes_into(source, dest)


def merge_attributes_into(source: Operation, dest: Operation) -> None:
    """`source`'s discardable attributes into `dest` (see `merge_discardable_attributes`)."""
    for key, attr in source.attributes.items():
        mine = dest.attributes.get(key)
        if (
            key == FRONTEND_ATTRIBUTES
            and isinstance(mine, DictionaryAttr)
            and isinstance(attr, DictionaryAttr)
        ):
            merged = dict(mine.data)
            for name, value in attr.data.items():
                if name == "xla_metadata_payload" and name in merged:
                    continue
                merged[name] = value
            dest.attributes[key] = DictionaryAttr(dict(sorted(merged.items())))
        else:
            dest.attributes[key] = attr
