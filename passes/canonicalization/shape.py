"""Canonicalization of the shape family: `transpose`, `reshape`, `broadcast_in_dim`,
`broadcast`, `iota`, `get_dimension_size`.

Shape ops that do nothing go; chains compose (`transpose` of `transpose`,
`reshape` of `reshape`, `broadcast_in_dim` of `broadcast_in_dim`); a
`broadcast_in_dim` that only permutes is a `transpose`, one that only inserts
unit dimensions a `reshape`, a `transpose` that moves only unit dimensions a
`reshape`; on constants each is evaluated.
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
    int_prop,
    is_static,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    skip_inner,
    splat_value,
    tensor_dtype,
)
from xla_dialect.syntax import i64_array, ints_of
from xla_dialect.types import is_tensor, shape_of


def _same_type(op: Operation) -> bool:
    return op.operands[0].type == op.results[0].type


def _static(op: Operation) -> bool:
    return all(is_static(v.type) for v in (*op.operands, *op.results))


# ---------------------------------------------------------------------------
# transpose
# ---------------------------------------------------------------------------


@pattern("xla.transpose")
def transpose_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`transpose` by the identity permutation is its operand."""
    perm = ints_of(op.properties["permutation"])
    if perm == tuple(range(len(perm))) and _same_type(op):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.transpose")
def transpose_of_transpose(op: Operation, rewriter: PatternRewriter) -> None:
    """`transpose(transpose(x, p), q)` is `transpose(x, p∘q)`."""
    inner = producer(op.operands[0], "xla.transpose")
    if inner is None:
        return
    p = ints_of(inner.properties["permutation"])
    q = ints_of(op.properties["permutation"])
    replace_with_op(
        rewriter,
        op,
        rebuild(
            op, operands=[inner.operands[0]], properties={"permutation": i64_array(p[i] for i in q)}
        ),
    )


@pattern("xla.transpose")
def fold_transpose(op: Operation, rewriter: PatternRewriter) -> None:
    """`transpose` of a constant is a constant."""
    value = constant_value(op.operands[0])
    if value is not None and foldable_type(op.results[0].type):
        replace_with_constant(
            rewriter, op, np.transpose(value, ints_of(op.properties["permutation"]))
        )


@pattern("xla.transpose")
def transpose_is_reshape(op: Operation, rewriter: PatternRewriter) -> None:
    """A `transpose` that keeps the order of the non-unit dimensions is a `reshape`."""
    if not _static(op):
        return
    perm = ints_of(op.properties["permutation"])
    shape = shape_of(op.operands[0].type)
    moved = [d for d in perm if shape[d] != 1]
    if moved == sorted(moved) and perm != tuple(range(len(perm))):
        replace_with_op(rewriter, op, rebuild(op, name="xla.reshape", properties={}))


# ---------------------------------------------------------------------------
# reshape
# ---------------------------------------------------------------------------


@pattern("xla.reshape")
def reshape_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`reshape` to the operand's own type is the operand."""
    dims = op.properties.get("dimensions")
    rank = len(shape_of(op.operands[0].type))
    if _same_type(op) and (dims is None or ints_of(dims) == tuple(range(rank))):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.reshape")
def reshape_of_reshape(op: Operation, rewriter: PatternRewriter) -> None:
    """`reshape(reshape(x))` is one `reshape` (plain reshapes only)."""
    inner = producer(op.operands[0], "xla.reshape")
    if inner is None or "dimensions" in op.properties or "dimensions" in inner.properties:
        return
    skip_inner(rewriter, op, inner)


@pattern("xla.reshape")
def fold_reshape(op: Operation, rewriter: PatternRewriter) -> None:
    """`reshape` of a constant is a constant (row-major, after the spec's transpose by
    `dimensions` when given)."""
    value = constant_value(op.operands[0])
    if value is None or not foldable_type(op.results[0].type):
        return
    dims = op.properties.get("dimensions")
    if dims is not None:
        value = np.transpose(value, ints_of(dims))
    replace_with_constant(rewriter, op, value.reshape(shape_of(op.results[0].type)))


def _broadcast_array(
    value: np.ndarray, dims: tuple[int, ...], shape: tuple[int, ...]
) -> np.ndarray:
    expanded = [1] * len(shape)
    for i, d in enumerate(dims):
        expanded[d] = value.shape[i]
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    return np.broadcast_to(np.transpose(value, order).reshape(expanded), shape)


@pattern("xla.broadcast_in_dim")
def broadcast_in_dim_identity(op: Operation, rewriter: PatternRewriter) -> None:
    """`broadcast_in_dim` to the operand's type by the identity is the operand."""
    dims = ints_of(op.properties["broadcast_dimensions"])
    if _same_type(op) and dims == tuple(range(len(dims))):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.broadcast_in_dim")
def fold_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """`broadcast_in_dim` of a constant is a constant (of a splat, at any size limit
    the constant keeps)."""
    value = constant_value(op.operands[0])
    if value is None or not foldable_type(op.results[0].type):
        return
    dims = ints_of(op.properties["broadcast_dimensions"])
    replace_with_constant(rewriter, op, _broadcast_array(value, dims, shape_of(op.results[0].type)))


def _is_reshape(
    operand_shape: tuple[int, ...], dims: tuple[int, ...], shape: tuple[int, ...]
) -> bool:
    """Whether broadcasting by `dims` only inserts unit dimensions, in order."""
    if list(dims) != sorted(dims) or int(np.prod(operand_shape)) != int(np.prod(shape)):
        return False
    return all(operand_shape[i] == shape[d] for i, d in enumerate(dims))


@pattern("xla.broadcast_in_dim")
def broadcast_in_dim_is_reshape(op: Operation, rewriter: PatternRewriter) -> None:
    """A `broadcast_in_dim` that only inserts unit dimensions is a `reshape`."""
    if not _static(op) or _same_type(op):
        return
    dims = ints_of(op.properties["broadcast_dimensions"])
    if _is_reshape(shape_of(op.operands[0].type), dims, shape_of(op.results[0].type)):
        replace_with_op(rewriter, op, rebuild(op, name="xla.reshape", properties={}))


@pattern("xla.broadcast_in_dim")
def broadcast_in_dim_is_transpose(op: Operation, rewriter: PatternRewriter) -> None:
    """A `broadcast_in_dim` of the same rank and number of elements is a `transpose`."""
    if not _static(op):
        return
    dims = ints_of(op.properties["broadcast_dimensions"])
    operand, result = shape_of(op.operands[0].type), shape_of(op.results[0].type)
    if (
        len(operand) != len(result)
        or dims == tuple(range(len(dims)))
        or sorted(dims) != list(range(len(dims)))
    ):
        return
    if any(operand[i] != result[d] for i, d in enumerate(dims)):
        return
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    replace_with_op(
        rewriter,
        op,
        rebuild(op, name="xla.transpose", properties={"permutation": i64_array(inverse)}),
    )


@pattern("xla.broadcast_in_dim")
def broadcast_in_dim_of_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """`broadcast_in_dim(broadcast_in_dim(x, d1), d2)` is `broadcast_in_dim(x, d2∘d1)`,
    unless the inner one is a `reshape` in disguise (that form is preferred)."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None:
        return
    d1 = ints_of(inner.properties["broadcast_dimensions"])
    if _static(inner) and _is_reshape(
        shape_of(inner.operands[0].type), d1, shape_of(inner.results[0].type)
    ):
        return
    d2 = ints_of(op.properties["broadcast_dimensions"])
    replace_with_op(
        rewriter,
        op,
        rebuild(
            op,
            operands=[inner.operands[0]],
            properties={"broadcast_dimensions": i64_array(d2[d] for d in d1)},
        ),
    )


@pattern("xla.broadcast")
def broadcast_is_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """`broadcast(x, sizes)` is `broadcast_in_dim` of `x` into the trailing dimensions
    (one op for the patterns above to work on)."""
    if not is_tensor(op.operands[0].type):
        return
    rank = len(shape_of(op.operands[0].type))
    added = len(ints_of(op.properties["broadcast_sizes"]))
    dims = i64_array(range(added, added + rank))
    replace_with_op(
        rewriter,
        op,
        rebuild(op, name="xla.broadcast_in_dim", properties={"broadcast_dimensions": dims}),
    )


# ---------------------------------------------------------------------------
# iota and get_dimension_size
# ---------------------------------------------------------------------------


@pattern("xla.iota")
def iota_of_unit_dimension(op: Operation, rewriter: PatternRewriter) -> None:
    """`iota` along a dimension of size 1 (or of a zero-size result) is a zero constant."""
    t = op.results[0].type
    if foldable_type(t) and shape_of(t)[int_prop(op, "iota_dimension")] in (0, 1):
        replace_with_constant(rewriter, op, np.zeros((), dtype=np.int64))


@pattern("xla.iota")
def iota_of_rank_above_one(op: Operation, rewriter: PatternRewriter) -> None:
    """An `iota` of rank > 1 is a 1-D `iota` broadcast along the other dimensions."""
    t = op.results[0].type
    if not is_static(t) or len(shape_of(t)) < 2:
        return
    dim = int_prop(op, "iota_dimension")
    from xla_dialect.ops.constants import IotaOp
    from xla_dialect.types import element_type_of, tensor

    line = IotaOp(tensor([shape_of(t)[dim]], element_type_of(t)), 0)
    rewriter.insert(line, InsertPoint.before(op))
    replace_with_op(
        rewriter,
        op,
        rebuild(
            op,
            name="xla.broadcast_in_dim",
            operands=[line.results[0]],
            properties={"broadcast_dimensions": i64_array([dim])},
        ),
    )


@pattern("xla.get_dimension_size")
def fold_get_dimension_size(op: Operation, rewriter: PatternRewriter) -> None:
    """The size of a static dimension is a constant."""
    shape = shape_of(op.operands[0].type)
    size = shape[int_prop(op, "dimension")]
    if size >= 0:
        replace_with_constant(rewriter, op, np.array(size))


@pattern("xla.transpose", "xla.reshape", "xla.broadcast_in_dim", "xla.broadcast", "xla.reverse")
def shape_of_splat(op: Operation, rewriter: PatternRewriter) -> None:
    """A shape op of a splat constant is a splat of the result type (at any size: a
    splat literal stores one element)."""
    value = splat_value(op.operands[0])
    t = op.results[0].type
    if value is None or not is_static(t) or tensor_dtype(t) is None:
        return
    rewriter.replace(op, constant_op(np.asarray(value), t))


@pattern("xla.reshape")
def reshape_of_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """A `reshape` that only inserts or removes unit dimensions, of a `broadcast_in_dim`
    whose operand dimensions all land on non-unit dimensions, is one `broadcast_in_dim`."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None or "dimensions" in op.properties or not _static(inner) or not _static(op):
        return
    source, target = shape_of(inner.results[0].type), shape_of(op.results[0].type)
    source_big = [i for i, n in enumerate(source) if n != 1]
    target_big = [i for i, n in enumerate(target) if n != 1]
    if [source[i] for i in source_big] != [target[i] for i in target_big]:
        return
    position = dict(zip(source_big, target_big))
    dims = ints_of(inner.properties["broadcast_dimensions"])
    if any(d not in position for d in dims):
        return
    replace_with_op(
        rewriter,
        op,
        rebuild(inner, operands=[inner.operands[0]], result_types=[op.results[0].type],
                properties={"broadcast_dimensions": i64_array(position[d] for d in dims)}),
    )


@pattern("xla.transpose")
def transpose_of_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """`transpose(broadcast_in_dim(x, d), p)` is `broadcast_in_dim(x, p⁻¹∘d)`."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None:
        return
    perm = ints_of(op.properties["permutation"])
    inverse = {p: i for i, p in enumerate(perm)}
    dims = ints_of(inner.properties["broadcast_dimensions"])
    replace_with_op(
        rewriter,
        op,
        rebuild(inner, operands=[inner.operands[0]], result_types=[op.results[0].type],
                properties={"broadcast_dimensions": i64_array(inverse[d] for d in dims)}),
    )


@pattern("xla.reshape")
def reshape_of_scalar_broadcast(op: Operation, rewriter: PatternRewriter) -> None:
    """A `reshape` of a scalar broadcast is the scalar broadcast to the new shape."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None or shape_of(inner.operands[0].type) != () or "dimensions" in op.properties:
        return
    replace_with_op(rewriter, op, rebuild(inner, result_types=[op.results[0].type]))


@pattern("xla.convert")
def convert_of_iota(op: Operation, rewriter: PatternRewriter) -> None:
    """`convert(iota)` is an `iota` of the converted type when every index is exact in it."""
    inner = producer(op.operands[0], "xla.iota")
    t = op.results[0].type
    if inner is None or not is_static(t):
        return
    from passes.canonicalization.common import tensor_dtype

    dtype = tensor_dtype(t)
    if dtype is None or dtype.kind in "bc":
        return
    size = shape_of(t)[int_prop(inner, "iota_dimension")]
    exact = np.asarray(size - 1).astype(dtype)
    if float(exact) != size - 1 or (dtype.kind not in "iu" and float(np.asarray(size - 2).astype(dtype)) != size - 2):
        return
    replace_with_op(rewriter, op, rebuild(inner, result_types=[t]))
