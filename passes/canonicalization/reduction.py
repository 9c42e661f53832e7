"""Canonicalization of reductions and `sort`.

A `reduce` over no dimensions returns its inputs; over inputs of no elements, its
init values broadcast; results nobody uses (and no used result depends on) leave
it; a `reduce` of constants whose body is one associative, commutative op that is
exact in any order (integer or PRED `add`/`multiply`/`and`/`or`/`xor`, and
`maximum`/`minimum`) is evaluated; two such reductions in a row with the op's
identity as init merge into one (XLA's algebraic simplifier). Float sums are not
reordered: their order is part of what the program computes.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from passes.canonicalization.common import (
    constant_value,
    foldable_type,
    int_prop,
    is_static,
    num_elements,
    pattern,
    producer,
    rebuild,
    replace_with_constant,
    replace_with_values,
    splat_value,
    tensor_dtype,
)
from xla_dialect.ops.conversions import ConvertOp
from xla_dialect.ops.reduction import narrower_reducer_operands
from xla_dialect.syntax import i64_array, ints_of
from xla_dialect.types import shape_of


def _half(op: Operation) -> int:
    return len(op.operands) // 2


def single_op_body(op: Operation) -> str | None:
    """The op name when a one-input `reduce`'s body is `return f(acc, x)`."""
    if len(op.regions[0].blocks) != 1:
        return None
    block = op.regions[0].block
    ops = list(block.ops)
    if len(ops) != 2 or len(block.args) != 2:
        return None
    body, ret = ops
    if (
        list(ret.operands) != [body.results[0]]
        or set(body.operands) != set(block.args)
        or len(body.operands) != 2
    ):
        return None
    if "broadcast_dimensions" in body.properties:
        return None
    return body.name


def _numpy_reducer(name: str, dtype: np.dtype):
    """The NumPy reduction equal to `name` in any order, on `dtype` (or None)."""
    exact_everywhere = {"xla.maximum": np.maximum, "xla.minimum": np.minimum}
    if name in exact_everywhere:
        return exact_everywhere[name]
    if dtype == np.bool_:
        return {
            "xla.add": np.logical_or,
            "xla.or": np.logical_or,
            "xla.multiply": np.logical_and,
            "xla.and": np.logical_and,
            "xla.xor": np.logical_xor,
        }.get(name)
    if dtype.kind in "iu":
        return {
            "xla.add": np.add,
            "xla.multiply": np.multiply,
            "xla.and": np.bitwise_and,
            "xla.or": np.bitwise_or,
            "xla.xor": np.bitwise_xor,
        }.get(name)
    return None


@pattern("xla.reduce", "xla.reduce_window", "xla.all_reduce", "xla.reduce_scatter")
def widen_to_reducer_type(op: Operation, rewriter: PatternRewriter) -> None:
    """Inputs and init values narrower than the element type the reducer computes in
    (a promotable accumulator, as StableHLO allows: bf16 summed in f32) are converted
    to it first (exactly), so the patterns below see one element type per input.
    Registered first: it runs before them."""
    for index, t in narrower_reducer_operands(op):
        widened = ConvertOp(op.operands[index], t)
        rewriter.insert(widened, InsertPoint.before(op))
        op.operands[index] = widened.result
        rewriter.handle_operation_modification(op)
        rewriter.has_done_action = True


@pattern("xla.reduce")
def reduce_over_nothing(op: Operation, rewriter: PatternRewriter) -> None:
    """A one-input `reduce` over no dimensions whose init is exactly the body op's
    identity returns its input (with another init the compiled code combines each
    element with it once, so the op stays)."""
    if _half(op) != 1 or ints_of(op.properties["dimensions"]) or op.operands[0].type != op.results[0].type:
        return
    name = single_op_body(op)
    if name is not None and exact_identity(name, op.operands[1]):
        replace_with_values(rewriter, op, [op.operands[0]])


@pattern("xla.reduce")
def reduce_of_empty(op: Operation, rewriter: PatternRewriter) -> None:
    """A `reduce` of inputs of no elements is its init values, broadcast."""
    n = _half(op)
    if not all(num_elements(op.operands[i].type) == 0 for i in range(n)):
        return
    if not all(is_static(r.type) for r in op.results):
        return
    values: list[SSAValue] = []
    for i, result in enumerate(op.results):
        init = op.operands[n + i]
        if init.type == result.type:
            values.append(init)
            continue
        b = rebuild(
            op,
            name="xla.broadcast_in_dim",
            operands=[init],
            result_types=[result.type],
            properties={"broadcast_dimensions": i64_array([])},
        )
        b.attributes.clear()
        rewriter.insert(b, InsertPoint.before(op))
        values.append(b.results[0])
    replace_with_values(rewriter, op, values)


@pattern("xla.reduce")
def fold_reduce(op: Operation, rewriter: PatternRewriter) -> None:
    """A one-input `reduce` of constants by an order-independent op is a constant."""
    if _half(op) != 1 or not foldable_type(op.results[0].type):
        return
    x, init = constant_value(op.operands[0]), constant_value(op.operands[1])
    name = single_op_body(op)
    if x is None or init is None or name is None:
        return
    reducer = _numpy_reducer(name, x.dtype)
    if reducer is None:
        return
    if x.dtype.kind not in "iub" and (bool(np.any(x == 0)) or bool(np.any(init == 0))):
        return  # NumPy's maximum/minimum do not order -0 below +0 as IEEE does
    dims = ints_of(op.properties["dimensions"])
    with np.errstate(all="ignore"):
        result = (
            reducer.reduce(x, axis=dims)
            if x.size
            else np.broadcast_to(init, shape_of(op.results[0].type))
        )
        result = reducer(np.asarray(result).astype(x.dtype), init.reshape(()))
    replace_with_constant(rewriter, op, np.asarray(result).astype(x.dtype))


IDENTITIES = {
    "xla.add": 0,
    "xla.or": 0,
    "xla.xor": 0,
    "xla.multiply": 1,
    "xla.maximum": -np.inf,
    "xla.minimum": np.inf,
}


def exact_identity(name: str, value: SSAValue) -> bool:
    """Whether `value` is an identity of `name` for every element, signed zero included
    (for float `add` that is -0.0: `-0.0 + 0.0` is `+0.0`)."""
    dtype = tensor_dtype(value.type)
    if not _is_identity(name, value) or dtype is None:
        return False
    if name == "xla.add" and dtype.kind not in "iub":
        v = splat_value(value)
        return v is not None and bool(np.signbit(np.float64(v)))
    return True


def _is_identity(name: str, value: SSAValue) -> bool:
    dtype = tensor_dtype(value.type)
    v = splat_value(value)
    if v is None or dtype is None or name not in IDENTITIES:
        return False
    if name in ("xla.maximum", "xla.minimum") and dtype.kind in "iu":
        info = np.iinfo(dtype)
        return int(v) == (info.min if name == "xla.maximum" else info.max)
    if dtype == np.bool_ and name in ("xla.maximum", "xla.minimum"):
        return bool(v) == (name == "xla.minimum")
    return float(v) == IDENTITIES[name]


@pattern("xla.reduce")
def reduce_of_reduce(op: Operation, rewriter: PatternRewriter) -> None:
    """`reduce(reduce(x, d1), d2)` by one order-independent op whose inits are its
    identity is one `reduce` of `x` over both sets of dimensions."""
    inner = producer(op.operands[0], "xla.reduce")
    if (
        inner is None
        or _half(op) != 1
        or _half(inner) != 1
        or sum(1 for _ in inner.results[0].uses) != 1
    ):
        return
    name, inner_name = single_op_body(op), single_op_body(inner)
    dtype = tensor_dtype(op.results[0].type)
    if name is None or name != inner_name or dtype is None or _numpy_reducer(name, dtype) is None:
        return
    if not (_is_identity(name, op.operands[1]) and _is_identity(name, inner.operands[1])):
        return
    d1 = sorted(ints_of(inner.properties["dimensions"]))
    kept = [d for d in range(len(shape_of(inner.operands[0].type))) if d not in d1]
    d2 = [kept[d] for d in ints_of(op.properties["dimensions"])]
    merged = sorted(d1 + d2)
    new = rebuild(
        op,
        operands=[inner.operands[0], op.operands[1]],
        properties={"dimensions": i64_array(merged)},
    )
    new.add_region(op.detach_region(0))
    rewriter.replace(op, new)


def _dependencies(block: Block) -> list[set[int]]:
    """For each returned value of `block`, the indices of the block arguments it reads."""
    reads: dict[SSAValue, set[int]] = {arg: {i} for i, arg in enumerate(block.args)}
    for inner in block.ops:
        used: set[int] = set()
        for operand in inner.operands:
            used |= reads.get(operand, set())
        for region in inner.regions:  # values a nested region reads from this block
            for nested in region.walk():
                for operand in nested.operands:
                    used |= reads.get(operand, set())
        for result in inner.results:
            reads[result] = used
    terminator = block.last_op
    assert terminator is not None
    return [reads.get(v, set()) for v in terminator.operands]


def _drop_body_values(
    block: Block, keep_returns: list[int], keep_args: list[int], rewriter: PatternRewriter
) -> None:
    terminator = block.last_op
    assert terminator is not None
    rewriter.replace(
        terminator, rebuild(terminator, operands=[terminator.operands[i] for i in keep_returns])
    )
    for inner in reversed(list(block.ops)[:-1]):
        if all(not r.uses for r in inner.results) and not inner.regions:
            rewriter.erase(inner)
    for i in reversed(range(len(block.args))):
        if i not in keep_args:
            if block.args[i].uses:
                raise AssertionError("a dropped argument is still read")
            block.erase_arg(block.args[i])


def _keep_results(op: Operation, operands: list[SSAValue], keep: list[int], rewriter: PatternRewriter) -> None:
    """Replace the region-holding `op` by one of its kind with `operands`, its results
    numbered `keep` only, and its (already pruned) region; the others had no uses."""
    new = type(op).create(
        operands=operands,
        result_types=[op.results[i].type for i in keep],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[op.detach_region(0)],
    )
    rewriter.replace(op, new, [new.results[keep.index(i)] if i in keep else None for i in range(len(op.results))])


@pattern("xla.reduce")
def reduce_unused_results(op: Operation, rewriter: PatternRewriter) -> None:
    """Results of a variadic `reduce` that nobody uses, and that no used result
    depends on, leave it (with their inputs and init values)."""
    n = _half(op)
    if n < 2 or len(op.regions[0].blocks) != 1:
        return
    deps = _dependencies(op.regions[0].block)
    needed = {i for i in range(n) if op.results[i].uses}
    changed = True
    while changed:
        changed = False
        for i in list(needed):
            for arg in deps[i]:
                j = arg % n
                if j not in needed:
                    needed.add(j)
                    changed = True
    keep = sorted(needed)
    if len(keep) == n or not keep:
        return
    block = op.regions[0].block
    _drop_body_values(block, keep, [*keep, *(n + i for i in keep)], rewriter)
    _keep_results(op, [*(op.operands[i] for i in keep), *(op.operands[n + i] for i in keep)], keep, rewriter)


@pattern("xla.sort")
def sort_unused_operands(op: Operation, rewriter: PatternRewriter) -> None:
    """Operands of a `sort` whose results nobody uses and that its comparator does not
    read leave it."""
    n = len(op.operands)
    if n < 2 or len(op.regions[0].blocks) != 1:
        return
    block = op.regions[0].block
    keep = [
        i
        for i in range(n)
        if op.results[i].uses or block.args[2 * i].uses or block.args[2 * i + 1].uses
    ]
    if len(keep) == n or not keep:
        return
    for i in reversed(range(n)):
        if i not in keep:
            block.erase_arg(block.args[2 * i + 1])
            block.erase_arg(block.args[2 * i])
    _keep_results(op, [op.operands[i] for i in keep], keep, rewriter)


@pattern("xla.sort")
def sort_negative_dimension(op: Operation, rewriter: PatternRewriter) -> None:
    """A negative sort `dimension` counts from the end: it is made explicit."""
    if "dimension" not in op.properties:
        return
    dim = int_prop(op, "dimension")
    if dim < 0:
        from xdsl.dialects.builtin import IntegerAttr, i64

        rank = len(shape_of(op.operands[0].type))
        op.properties["dimension"] = IntegerAttr(dim + rank, i64)
        rewriter.handle_operation_modification(op)
        rewriter.has_done_action = True


@pattern("xla.reduce")
def reduce_of_unit_dimensions(op: Operation, rewriter: PatternRewriter) -> None:
    """A one-input `reduce` over dimensions of size 1 whose init is the body op's
    identity is a `reshape`: each result combines one element with the identity."""
    if _half(op) != 1 or not all(is_static(v.type) for v in (*op.operands, *op.results)):
        return
    name = single_op_body(op)
    shape = shape_of(op.operands[0].type)
    dims = ints_of(op.properties["dimensions"])
    if name is None or not dims or any(shape[d] != 1 for d in dims):
        return
    if not exact_identity(name, op.operands[1]):
        return
    new = rebuild(op, name="xla.reshape", operands=[op.operands[0]], properties={})
    rewriter.replace(op, new)


@pattern("xla.map")
def map_of_one_op(op: Operation, rewriter: PatternRewriter) -> None:
    """A `map` over all dimensions whose computation is one element-wise op of its
    arguments, in order, is that op applied to the inputs (XLA's simplifier)."""
    region = op.regions[0]
    if len(region.blocks) != 1:
        return
    block = region.block
    ops = list(block.ops)
    if len(ops) != 2 or list(ops[1].operands) != [ops[0].results[0]] or list(ops[0].operands) != list(block.args):
        return
    body = ops[0]
    if body.regions or len(body.results) != 1 or body.properties.get("broadcast_dimensions") is not None:
        return
    rank = len(shape_of(op.results[0].type))
    if ints_of(op.properties["dimensions"]) != tuple(range(rank)):
        return
    if body.name not in ELEMENTWISE_NAMES:
        return
    from xla_dialect.types import element_type_of, tensor

    result_type = tensor(shape_of(op.results[0].type), element_type_of(body.results[0].type))
    new = rebuild(body, operands=list(op.operands), result_types=[result_type])
    if result_type != op.results[0].type:
        return
    new.attributes.update(op.attributes)
    rewriter.replace(op, new)


ELEMENTWISE_NAMES = frozenset(
    {"xla.add", "xla.subtract", "xla.multiply", "xla.divide", "xla.remainder", "xla.maximum", "xla.minimum",
     "xla.power", "xla.atan2", "xla.and", "xla.or", "xla.xor", "xla.negate", "xla.abs", "xla.exponential",
     "xla.log", "xla.sqrt", "xla.rsqrt", "xla.tanh", "xla.sine", "xla.cosine", "xla.floor", "xla.ceil",
     "xla.not", "xla.sign", "xla.logistic", "xla.compare", "xla.select", "xla.clamp", "xla.convert"}
)
"""Element-wise ops a one-op `map` becomes (same properties, operands of the map's shape)."""


@pattern("xla.reduce")
def reduce_of_transpose(op: Operation, rewriter: PatternRewriter) -> None:
    """A `reduce` of a `transpose` whose kept dimensions stay in order reduces the
    transpose's operand over the permuted dimensions instead."""
    if _half(op) != 1:
        return
    inner = producer(op.operands[0], "xla.transpose")
    if inner is None:
        return
    perm = ints_of(inner.properties["permutation"])
    dims = ints_of(op.properties["dimensions"])
    kept = [perm[i] for i in range(len(perm)) if i not in dims]
    if kept != sorted(kept):
        return
    new = rebuild(op, operands=[inner.operands[0], op.operands[1]],
                  properties={"dimensions": i64_array(sorted(perm[d] for d in dims))})
    new.add_region(op.detach_region(0))
    rewriter.replace(op, new)


@pattern("xla.sort")
def sort_of_unit_dimension(op: Operation, rewriter: PatternRewriter) -> None:
    """Sorting along a dimension of size 0 or 1 leaves every operand as it is."""
    if "dimension" not in op.properties:
        return
    dim = int_prop(op, "dimension")
    shape = shape_of(op.operands[0].type)
    unit = -len(shape) <= dim < len(shape) and shape[dim] in (0, 1)
    if unit and all(v.type == r.type for v, r in zip(op.operands, op.results)):
        replace_with_values(rewriter, op, list(op.operands))


@pattern("xla.reduce")
def reduce_of_broadcast(op: Operation, rewriter: PatternRewriter) -> None:
    """Reducing by `maximum`/`minimum`/`and`/`or` (idempotent) over dimensions a
    `broadcast_in_dim` made, with the op's identity as init, is the broadcast without
    them (XLA's simplifier)."""
    if _half(op) != 1:
        return
    inner = producer(op.operands[0], "xla.broadcast_in_dim")
    name = single_op_body(op)
    if inner is None or name not in ("xla.maximum", "xla.minimum", "xla.and", "xla.or"):
        return
    if name in ("xla.and", "xla.or") and tensor_dtype(op.results[0].type) != np.bool_:
        return
    if name in ("xla.and", "xla.or"):
        identity_ok = is_splat_of_bool(op.operands[1], name == "xla.and")
    else:
        identity_ok = _is_identity(name, op.operands[1])
    if not identity_ok:
        return
    dims = set(ints_of(op.properties["dimensions"]))
    mapped = ints_of(inner.properties["broadcast_dimensions"])
    if dims & set(mapped):
        return
    kept = [d for d in range(len(shape_of(inner.results[0].type))) if d not in dims]
    new_dims = i64_array(kept.index(d) for d in mapped)
    new = rebuild(inner, result_types=[op.results[0].type], properties={"broadcast_dimensions": new_dims})
    new.attributes.clear()
    new.attributes.update(op.attributes)
    rewriter.replace(op, new)


def is_splat_of_bool(value: SSAValue, truth: bool) -> bool:
    v = splat_value(value)
    return v is not None and bool(v) == truth
