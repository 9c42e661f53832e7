"""Canonicalization of the slicing family: `slice`, `dynamic_slice`,
`dynamic_update_slice`, `concatenate`, `pad`, `reverse`, `gather`.

On constants each is evaluated; ops that select everything go; a `dynamic_slice`
or a `gather` at constant indices is a `slice` (indices clamped as the spec
clamps them); a `slice` of a `slice` or of a `concatenate` reaches through;
operands of no elements leave a `concatenate`; nested `concatenate`s along one
dimension flatten; a `pad` of a `pad` with the same value and no interior merges,
a `slice` that undoes a `pad` is its operand (XLA's algebraic simplifier).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    constant_op,
    constant_value,
    foldable_type,
    int_prop,
    is_static,
    num_elements,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_op,
    replace_with_values,
    splat_value,
)
from xla_dialect.syntax import i64_array, ints_of
from xla_dialect.types import shape_of


def _slice_props(start: list[int], limit: list[int], strides: list[int] | None = None) -> dict:
    return {
        "start_indices": i64_array(start),
        "limit_indices": i64_array(limit),
        "strides": i64_array(strides if strides is not None else [1] * len(start)),
    }


def _slice_parts(op: Operation) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    p = op.properties
    return ints_of(p["start_indices"]), ints_of(p["limit_indices"]), ints_of(p["strides"])


def _slice_of(
    value: SSAValue, start: list[int], limit: list[int], like: Operation, result_type
) -> Operation:
    return rebuild(
        like,
        name="xla.slice",
        operands=[value],
        properties=_slice_props(start, limit),
        result_types=[result_type],
    )


# ---------------------------------------------------------------------------
# slice
# ---------------------------------------------------------------------------


@pattern("xla.slice")
def slice_everything(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` of the whole operand is the operand."""
    if op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.slice")
def fold_slice(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` of a constant is a constant."""
    value = constant_value(op.operands[0])
    if value is None or not foldable_type(op.results[0].type):
        return
    start, limit, strides = _slice_parts(op)
    index = tuple(slice(s, e, k) for s, e, k in zip(start, limit, strides))
    replace_with_constant(rewriter, op, value[index])


@pattern("xla.slice")
def slice_of_slice(op: Operation, rewriter: PatternRewriter) -> None:
    """`slice(slice(x))` is one `slice` of `x`."""
    inner = producer(op.operands[0], "xla.slice")
    if inner is None:
        return
    s1, _, k1 = _slice_parts(inner)
    s2, e2, k2 = _slice_parts(op)
    start = [a + b * k for a, b, k in zip(s1, s2, k1)]
    strides = [a * b for a, b in zip(k1, k2)]
    limit = [s + (e - b - 1) * k + 1 if e > b else s for s, e, b, k in zip(start, e2, s2, k1)]
    props = _slice_props(start, limit, strides)
    replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0]], properties=props))


@pattern("xla.slice")
def slice_of_concatenate(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` of a `concatenate` that lies within some of its operands slices just those."""
    concat = producer(op.operands[0], "xla.concatenate")
    if concat is None or not all(is_static(v.type) for v in concat.operands):
        return
    dim = int_prop(concat, "dimension")
    start, limit, strides = _slice_parts(op)
    offset = 0
    kept: list[SSAValue] = []
    first = -1
    for value in concat.operands:
        size = shape_of(value.type)[dim]
        if offset < limit[dim] and offset + size > start[dim]:
            if first < 0:
                first = offset
            kept.append(value)
        offset += size
    if len(kept) == len(concat.operands) or not kept or strides[dim] != 1:
        return
    if len(kept) == 1:
        source = kept[0]
    else:
        from xla_dialect.types import element_type_of, tensor

        shape = list(shape_of(concat.results[0].type))
        shape[dim] = sum(shape_of(v.type)[dim] for v in kept)
        new_concat = rebuild(
            concat,
            operands=kept,
            result_types=[tensor(shape, element_type_of(concat.results[0].type))],
        )
        rewriter.insert(new_concat, InsertPoint.before(op))
        source = new_concat.results[0]
    new_start, new_limit = list(start), list(limit)
    new_start[dim] -= first
    new_limit[dim] -= first
    replace_with_op(
        rewriter,
        op,
        rebuild(
            op, operands=[source], properties=_slice_props(new_start, new_limit, list(strides))
        ),
    )


@pattern("xla.slice")
def slice_of_pad(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` that cuts exactly the edge padding of a `pad` away is the pad's operand."""
    pad = producer(op.operands[0], "xla.pad")
    if pad is None or pad.operands[0].type != op.results[0].type:
        return
    low = ints_of(pad.properties["edge_padding_low"])
    interior = ints_of(pad.properties["interior_padding"])
    start, limit, strides = _slice_parts(op)
    operand = shape_of(pad.operands[0].type)
    if any(interior) or any(k != 1 for k in strides):
        return
    if all(s == lo and e == lo + n for s, e, lo, n in zip(start, limit, low, operand)):
        replace_with_values(rewriter, op, [pad.operands[0]])


# ---------------------------------------------------------------------------
# dynamic_slice and dynamic_update_slice
# ---------------------------------------------------------------------------


def _constant_indices(values: tuple[SSAValue, ...] | list[SSAValue]) -> list[int] | None:
    out: list[int] = []
    for v in values:
        array = constant_value(v)
        if array is None or array.size != 1:
            return None
        out.append(int(array.reshape(-1)[0]))
    return out


@pattern("xla.dynamic_slice")
def dynamic_slice_at_constant_indices(op: Operation, rewriter: PatternRewriter) -> None:
    """A `dynamic_slice` at constant indices is a `slice` (indices clamped to
    `[0, dim - size]` as the spec clamps them)."""
    indices = _constant_indices(op.operands[1:])
    operand = op.operands[0].type
    if indices is None or not is_static(operand):
        return
    sizes = ints_of(op.properties["slice_sizes"])
    dims = shape_of(operand)
    start = [min(max(i, 0), d - s) for i, d, s in zip(indices, dims, sizes)]
    limit = [s + n for s, n in zip(start, sizes)]
    replace_with_op(rewriter, op, _slice_of(op.operands[0], start, limit, op, op.results[0].type))


@pattern("xla.dynamic_update_slice")
def dynamic_update_slice_of_nothing(op: Operation, rewriter: PatternRewriter) -> None:
    """A `dynamic_update_slice` with an update of no elements is its operand."""
    if num_elements(op.operands[1].type) == 0 and op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.dynamic_update_slice")
def dynamic_update_slice_of_everything(op: Operation, rewriter: PatternRewriter) -> None:
    """A `dynamic_update_slice` whose update covers the operand is the update (the
    indices clamp to 0)."""
    if op.operands[1].type == op.results[0].type and is_static(op.results[0].type):
        replace_with_values(rewriter, op, [op.operands[1]])


@pattern("xla.dynamic_update_slice")
def fold_dynamic_update_slice(op: Operation, rewriter: PatternRewriter) -> None:
    """`dynamic_update_slice` of constants at constant indices is a constant."""
    operand, update = constant_value(op.operands[0]), constant_value(op.operands[1])
    indices = _constant_indices(op.operands[2:])
    if (
        operand is None
        or update is None
        or indices is None
        or not foldable_type(op.results[0].type)
    ):
        return
    start = [min(max(i, 0), d - s) for i, d, s in zip(indices, operand.shape, update.shape)]
    result = operand.copy()
    result[tuple(slice(s, s + n) for s, n in zip(start, update.shape))] = update
    replace_with_constant(rewriter, op, result)


@pattern("xla.concatenate")
def concatenate_single(op: Operation, rewriter: PatternRewriter) -> None:
    """A `concatenate` of one operand is that operand."""
    if len(op.operands) == 1 and op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.concatenate")
def concatenate_without_empty(op: Operation, rewriter: PatternRewriter) -> None:
    """Operands of no elements leave a `concatenate`."""
    kept = [v for v in op.operands if num_elements(v.type) != 0]
    if kept and len(kept) < len(op.operands):
        replace_with_op(rewriter, op, rebuild(op, operands=kept))


@pattern("xla.concatenate")
def concatenate_of_concatenate(op: Operation, rewriter: PatternRewriter) -> None:
    """A `concatenate` of a `concatenate` along the same dimension is one `concatenate`."""
    dim = int_prop(op, "dimension")
    flat: list[SSAValue] = []
    changed = False
    for value in op.operands:
        inner = producer(value, "xla.concatenate")
        if (
            inner is not None
            and int_prop(inner, "dimension") == dim
            and sum(1 for _ in value.uses) == 1
        ):
            flat.extend(inner.operands)
            changed = True
        else:
            flat.append(value)
    if changed:
        replace_with_op(rewriter, op, rebuild(op, operands=flat))


@pattern("xla.concatenate")
def fold_concatenate(op: Operation, rewriter: PatternRewriter) -> None:
    """A `concatenate` of constants is a constant; a run of adjacent splats of one
    value merges into one splat."""
    dim = int_prop(op, "dimension")
    values = [constant_value(v) for v in op.operands]
    if all(v is not None for v in values):
        if foldable_type(op.results[0].type):
            replace_with_constant(rewriter, op, np.concatenate(values, axis=dim))  # pyright: ignore
        return
    splats = [splat_value(v) if c is not None else None for v, c in zip(op.operands, values)]
    groups: list[list[int]] = []
    for i, v in enumerate(splats):
        previous = splats[groups[-1][-1]] if groups else None
        if (
            v is not None
            and previous is not None
            and bool(v == previous)
            and groups[-1][-1] == i - 1
        ):
            groups[-1].append(i)
        else:
            groups.append([i])
    if all(len(g) == 1 for g in groups):
        return
    operands: list[SSAValue] = []
    from passes.canonicalization.common import constant_op
    from xla_dialect.types import element_type_of, tensor

    for group in groups:
        if len(group) == 1:
            operands.append(op.operands[group[0]])
            continue
        shape = list(shape_of(op.operands[group[0]].type))
        shape[dim] = sum(shape_of(op.operands[i].type)[dim] for i in group)
        const = constant_op(
            np.asarray(splats[group[0]]), tensor(shape, element_type_of(op.results[0].type))
        )
        rewriter.insert(const, InsertPoint.before(op))
        operands.append(const.results[0])
    replace_with_op(rewriter, op, rebuild(op, operands=operands))


# ---------------------------------------------------------------------------
# pad and reverse
# ---------------------------------------------------------------------------


def _pad_parts(op: Operation) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    p = op.properties
    return (
        ints_of(p["edge_padding_low"]),
        ints_of(p["edge_padding_high"]),
        ints_of(p["interior_padding"]),
    )


@pattern("xla.pad")
def pad_nothing(op: Operation, rewriter: PatternRewriter) -> None:
    """A `pad` by zero everywhere is its operand."""
    low, high, interior = _pad_parts(op)
    if (
        not any(low)
        and not any(high)
        and not any(interior)
        and op.operands[0].type == op.results[0].type
    ):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.pad")
def fold_pad(op: Operation, rewriter: PatternRewriter) -> None:
    """A `pad` of constants is a constant (negative padding crops)."""
    value, fill = constant_value(op.operands[0]), constant_value(op.operands[1])
    if value is None or fill is None or not foldable_type(op.results[0].type):
        return
    low, high, interior = _pad_parts(op)
    shape = shape_of(op.results[0].type)
    spread = [(n - 1) * (i + 1) + 1 if n else 0 for n, i in zip(value.shape, interior)]
    full = [max(lo, 0) + m + max(hi, 0) for lo, m, hi in zip(low, spread, high)]
    result = np.full(full, fill.reshape(()), dtype=value.dtype)
    result[
        tuple(slice(max(lo, 0), max(lo, 0) + m, i + 1) for lo, m, i in zip(low, spread, interior))
    ] = value
    out = result[tuple(slice(max(-lo, 0), f - max(-hi, 0)) for lo, f, hi in zip(low, full, high))]
    if out.shape != shape:
        return
    replace_with_constant(rewriter, op, out)


@pattern("xla.pad")
def pad_of_empty(op: Operation, rewriter: PatternRewriter) -> None:
    """A `pad` of an operand of no elements is the padding value broadcast."""
    if num_elements(op.operands[0].type) != 0 or not is_static(op.results[0].type):
        return
    replace_with_op(
        rewriter,
        op,
        rebuild(
            op,
            name="xla.broadcast_in_dim",
            operands=[op.operands[1]],
            properties={"broadcast_dimensions": i64_array([])},
        ),
    )


@pattern("xla.pad")
def pad_of_pad(op: Operation, rewriter: PatternRewriter) -> None:
    """`pad(pad(x, v, l1, h1), v, l2, h2)` with non-negative edges and no interior
    padding is `pad(x, v, l1 + l2, h1 + h2)` (XLA's algebraic simplifier)."""
    inner = producer(op.operands[0], "xla.pad")
    if inner is None or inner.operands[1] is not op.operands[1]:
        return
    l1, h1, i1 = _pad_parts(inner)
    l2, h2, i2 = _pad_parts(op)
    if any(i1) or any(i2) or min((*l1, *h1, *l2, *h2), default=0) < 0:
        return
    props = {
        "edge_padding_low": i64_array(a + b for a, b in zip(l1, l2)),
        "edge_padding_high": i64_array(a + b for a, b in zip(h1, h2)),
        "interior_padding": i64_array(i1),
    }
    replace_with_op(
        rewriter, op, rebuild(op, operands=[inner.operands[0], op.operands[1]], properties=props)
    )


@pattern("xla.reverse")
def reverse_unit_dimensions(op: Operation, rewriter: PatternRewriter) -> None:
    """Reversing dimensions of size 1 (or none) does nothing; those leave the list."""
    dims = ints_of(op.properties["dimensions"])
    shape = shape_of(op.operands[0].type)
    kept = [d for d in dims if shape[d] != 1]
    if not kept and op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])
    elif len(kept) < len(dims):
        replace_with_op(rewriter, op, rebuild(op, properties={"dimensions": i64_array(kept)}))


@pattern("xla.reverse")
def reverse_of_reverse(op: Operation, rewriter: PatternRewriter) -> None:
    """`reverse(reverse(x, d), d)` is `x`."""
    inner = producer(op.operands[0], "xla.reverse")
    if inner is not None and sorted(ints_of(inner.properties["dimensions"])) == sorted(
        ints_of(op.properties["dimensions"])
    ):
        replace_with_values(rewriter, op, [inner.operands[0]])


@pattern("xla.reverse")
def fold_reverse(op: Operation, rewriter: PatternRewriter) -> None:
    """A `reverse` of a constant is a constant."""
    value = constant_value(op.operands[0])
    if value is not None and foldable_type(op.results[0].type):
        dims = ints_of(op.properties["dimensions"])
        replace_with_constant(rewriter, op, np.flip(value, dims) if dims else value)


# ---------------------------------------------------------------------------
# gather
# ---------------------------------------------------------------------------


@pattern("xla.gather")
def gather_at_constant_index(op: Operation, rewriter: PatternRewriter) -> None:
    """A `gather` of one slice at a constant index is a `slice` (start clamped as the
    spec clamps it) reshaped to the result."""
    indices = constant_value(op.operands[1])
    operand_type = op.operands[0].type
    if indices is None or not is_static(operand_type) or not is_static(op.results[0].type):
        return
    dn = op.properties["dimension_numbers"]
    index_vector_dim = dn.index_vector_dim.data  # pyright: ignore
    if ints_of(dn.operand_batching_dims):  # pyright: ignore
        return
    flat = indices.reshape(-1)
    shape = indices.shape
    batch = [n for i, n in enumerate(shape) if i != index_vector_dim]
    if int(np.prod(batch)) != 1:
        return
    start_map = ints_of(dn.start_index_map)  # pyright: ignore
    if len(flat) != len(start_map):
        return
    dims = shape_of(operand_type)
    sizes = ints_of(op.properties["slice_sizes"])
    if int(np.prod(sizes)) != num_elements(op.results[0].type):
        return  # a collapsed dimension of slice size 0: the slice is empty, the result is not
    start = [0] * len(dims)
    for k, d in enumerate(start_map):
        start[d] = min(max(int(flat[k]), 0), dims[d] - sizes[d])
    limit = [s + n for s, n in zip(start, sizes)]
    from xla_dialect.types import element_type_of, tensor

    sliced = _slice_of(
        op.operands[0], start, limit, op, tensor(sizes, element_type_of(operand_type))
    )
    sliced.attributes.clear()
    rewriter.insert(sliced, InsertPoint.before(op))
    replace_with_op(
        rewriter, op, rebuild(op, name="xla.reshape", operands=[sliced.results[0]], properties={})
    )


@pattern("xla.slice", "xla.dynamic_slice", "xla.gather")
def slice_of_splat(op: Operation, rewriter: PatternRewriter) -> None:
    """Any slice of a splat constant is a splat constant, wherever it starts."""
    value = splat_value(op.operands[0])
    if value is not None and foldable_type(op.results[0].type):
        rewriter.replace(op, constant_op(np.asarray(value), op.results[0].type))


@pattern("xla.reverse")
def reverse_of_nothing(op: Operation, rewriter: PatternRewriter) -> None:
    """Reversing a value of no elements does nothing."""
    if num_elements(op.operands[0].type) == 0 and op.operands[0].type == op.results[0].type:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.concatenate")
def concatenate_of_adjacent_slices(op: Operation, rewriter: PatternRewriter) -> None:
    """Adjacent unit-stride `slice`s of one value, contiguous along the concatenated
    dimension, are one `slice` (XLA's algebraic simplifier)."""
    dim = int_prop(op, "dimension")
    operands = list(op.operands)
    for i in range(len(operands) - 1):
        a, b = producer(operands[i], "xla.slice"), producer(operands[i + 1], "xla.slice")
        if a is None or b is None or a.operands[0] is not b.operands[0]:
            continue
        sa, la, ka = _slice_parts(a)
        sb, lb, kb = _slice_parts(b)
        if any(k != 1 for k in (*ka, *kb)) or la[dim] != sb[dim]:
            continue
        if any((sa[d], la[d]) != (sb[d], lb[d]) for d in range(len(sa)) if d != dim):
            continue
        from xla_dialect.types import element_type_of, tensor

        shape = list(shape_of(a.results[0].type))
        shape[dim] += shape_of(b.results[0].type)[dim]
        start, limit = list(sa), list(la)
        limit[dim] = lb[dim]
        merged = _slice_of(a.operands[0], start, limit, a, tensor(shape, element_type_of(op.results[0].type)))
        merged.attributes.clear()
        rewriter.insert(merged, InsertPoint.before(op))
        rest = [*operands[:i], merged.results[0], *operands[i + 2 :]]
        if len(rest) == 1 and rest[0].type == op.results[0].type:
            replace_with_values(rewriter, op, rest)
        else:
            replace_with_op(rewriter, op, rebuild(op, operands=rest))
        return


@pattern("xla.slice")
def slice_of_broadcast_in_dim(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` of a `broadcast_in_dim` is a `broadcast_in_dim` of the slice of its
    operand (XLA sinks the broadcast: the slice touches fewer elements)."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None or not _static_all(inner):
        return
    start, limit, strides = _slice_parts(op)
    dims = ints_of(inner.properties["broadcast_dimensions"])
    operand = shape_of(inner.operands[0].type)
    s2, l2, k2 = [], [], []
    for i, d in enumerate(dims):
        if operand[i] == 1:
            s2.append(0), l2.append(1), k2.append(1)
        else:
            s2.append(start[d]), l2.append(limit[d]), k2.append(strides[d])
    if s2 == [0] * len(s2) and l2 == list(operand) and all(k == 1 for k in k2):
        if op.results[0].type == inner.results[0].type:
            return
        replace_with_op(rewriter, op, rebuild(inner, result_types=[op.results[0].type]))
        return
    from xla_dialect.types import element_type_of, tensor

    shape = [len(range(s, e, k)) for s, e, k in zip(s2, l2, k2)]
    sliced = rebuild(op, operands=[inner.operands[0]], properties=_slice_props(s2, l2, k2),
                     result_types=[tensor(shape, element_type_of(op.results[0].type))])
    sliced.attributes.clear()
    rewriter.insert(sliced, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(inner, operands=[sliced.results[0]], result_types=[op.results[0].type]))


def _static_all(op: Operation) -> bool:
    return all(is_static(v.type) for v in (*op.operands, *op.results))


@pattern("xla.slice")
def slice_of_transpose(op: Operation, rewriter: PatternRewriter) -> None:
    """`slice(transpose(x, p))` is `transpose(slice(x), p)`: the slice moves before the
    transpose, which then moves fewer elements (XLA's simplifier)."""
    inner = producer(op.operands[0], "xla.transpose")
    if inner is None or not _static_all(inner):
        return
    perm = ints_of(inner.properties["permutation"])
    start, limit, strides = _slice_parts(op)
    rank = len(perm)
    s2, l2, k2 = [0] * rank, [0] * rank, [1] * rank
    for i, p in enumerate(perm):
        s2[p], l2[p], k2[p] = start[i], limit[i], strides[i]
    from xla_dialect.types import element_type_of, tensor

    shape = [len(range(s, e, k)) for s, e, k in zip(s2, l2, k2)]
    sliced = rebuild(op, operands=[inner.operands[0]], properties=_slice_props(s2, l2, k2),
                     result_types=[tensor(shape, element_type_of(op.results[0].type))])
    sliced.attributes.clear()
    rewriter.insert(sliced, InsertPoint.before(op))
    replace_with_op(rewriter, op, rebuild(inner, operands=[sliced.results[0]], result_types=[op.results[0].type]))


@pattern("xla.reverse")
def reverse_of_broadcast(op: Operation, rewriter: PatternRewriter) -> None:
    """Reversing only dimensions a `broadcast_in_dim` made (along which every element
    is equal) does nothing."""
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    if inner is None or op.operands[0].type != op.results[0].type:
        return
    mapped = {
        d for i, d in enumerate(ints_of(inner.properties["broadcast_dimensions"]))
        if shape_of(inner.operands[0].type)[i] != 1
    }
    if not set(ints_of(op.properties["dimensions"])) & mapped:
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.pad")
def pad_that_crops(op: Operation, rewriter: PatternRewriter) -> None:
    """A `pad` with no positive padding anywhere only crops: it is a `slice`."""
    low, high, interior = _pad_parts(op)
    if any(interior) or any(v > 0 for v in (*low, *high)) or not _static_all(op):
        return
    if not any(low) and not any(high):
        return
    shape = shape_of(op.operands[0].type)
    start = [-lo for lo in low]
    limit = [n + hi for n, hi in zip(shape, high)]
    replace_with_op(rewriter, op, _slice_of(op.operands[0], start, limit, op, op.results[0].type))


@pattern("xla.dynamic_slice")
def dynamic_slice_of_everything(op: Operation, rewriter: PatternRewriter) -> None:
    """A `dynamic_slice` as large as its operand is the operand (the indices clamp to 0)."""
    if op.operands[0].type == op.results[0].type and is_static(op.results[0].type):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.dynamic_update_slice")
def update_of_update(op: Operation, rewriter: PatternRewriter) -> None:
    """An update written over an earlier one of the same shape at the same indices
    hides it: `dus(dus(x, u1, i), u2, i)` is `dus(x, u2, i)`."""
    inner = producer(op.operands[0], "xla.dynamic_update_slice")
    if inner is None or inner.operands[1].type != op.operands[1].type:
        return
    if list(inner.operands[2:]) != list(op.operands[2:]) or sum(1 for _ in op.operands[0].uses) != 1:
        return
    replace_with_op(rewriter, op, rebuild(op, operands=[inner.operands[0], *op.operands[1:]]))


@pattern("xla.concatenate")
def concatenate_of_scalar_broadcasts(op: Operation, rewriter: PatternRewriter) -> None:
    """A `concatenate` of broadcasts of one scalar is that scalar broadcast."""
    inners = [producer(v, "xla.broadcast_in_dim") for v in op.operands]
    if any(i is None for i in inners) or len(inners) < 2:
        return
    scalar = inners[0].operands[0]  # pyright: ignore
    if shape_of(scalar.type) != () or any(i.operands[0] is not scalar for i in inners):  # pyright: ignore
        return
    replace_with_op(rewriter, op, rebuild(inners[0], result_types=[op.results[0].type]))  # pyright: ignore


@pattern("xla.slice")
def slice_of_iota(op: Operation, rewriter: PatternRewriter) -> None:
    """A `slice` of an `iota` that starts at 0 with stride 1 along the iota dimension
    is a smaller `iota` (the other dimensions do not change the values)."""
    inner = producer(op.operands[0], "xla.iota")
    if inner is None:
        return
    d = int_prop(inner, "iota_dimension")
    start, _, strides = _slice_parts(op)
    if start[d] == 0 and strides[d] == 1:
        replace_with_op(rewriter, op, rebuild(inner, result_types=[op.results[0].type]))
