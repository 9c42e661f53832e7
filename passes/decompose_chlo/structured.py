"""top_k, scan and ragged_dot: the structured chlo ops, rewritten into sort, while
and dot_general."""

from __future__ import annotations

from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from passes.decompose_chlo.emitter import static_shape
from xla_dialect import chlo
from xla_dialect.attributes import ComparisonDirection, ComparisonType, Precision
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.constants import ConstantOp, IotaOp
from xla_dialect.ops.contraction import DotGeneralOp
from xla_dialect.ops.control_flow import ReturnOp, WhileOp
from xla_dialect.ops.elementwise import BINARY_OP_CLASSES, CompareOp, ConvertOp, SelectOp
from xla_dialect.ops.reduction import ReduceOp, SortOp
from xla_dialect.ops.shape import BroadcastInDimOp, ReshapeOp, TransposeOp
from xla_dialect.ops.slicing import DynamicSliceOp, DynamicUpdateSliceOp, SliceOp
from xla_dialect.types import element_type_of, is_complex, is_float, shape_of, tensor


def decompose_top_k(op: chlo.TopKOp, ops: list[Operation]) -> list[SSAValue]:
    shape = static_shape(op, op.operand.type)
    element = element_type_of(op.operand.type)
    last = len(shape) - 1
    iota = IotaOp(tensor(shape, i32), last)
    ops.append(iota)

    def comparator(a: SSAValue, b: SSAValue, _ia: SSAValue, _ib: SSAValue) -> SSAValue:
        total = ComparisonType.TOTALORDER if is_float(element) else None
        return CompareOp(ComparisonDirection.GT, a, b, total).result

    sort = SortOp([op.operand, iota.results[0]], comparator, dimension=last, is_stable=True)
    ops.append(sort)
    k = op.k.value.data
    limit = [*shape[:-1], k]
    values = SliceOp(sort.results[0], [0] * len(shape), limit)
    indices = SliceOp(sort.results[1], [0] * len(shape), limit)
    ops += [values, indices]
    return [values.results[0], indices.results[0]]


def _scalar(ops: list[Operation], value: int, element: Attribute = i64) -> SSAValue:
    c = ConstantOp.from_list([value], tensor((), element))  # pyright: ignore[reportArgumentType]
    ops.append(c)
    return c.results[0]


def decompose_scan(op: chlo.ScanOp, ops: list[Operation]) -> list[SSAValue]:
    dim = op.dim
    length = op.scan_length()
    if length is None:
        raise LoweringError(f"{op.name}: the scanned dimension must have a static size", op)
    n_in, n_carry, n_out = len(op.inputs), len(op.inits), len(op.outputs)
    for t in (*op.inputs.types, *op.outputs.types):
        static_shape(op, t)
    zeros: list[SSAValue] = []
    for t in op.outputs.types:
        element = element_type_of(t)
        if is_complex(element):
            raise LoweringError(f"{op.name}: complex outputs are not supported", op)
        zero = ConstantOp.from_list([0.0 if is_float(element) else 0], t)  # pyright: ignore[reportArgumentType]
        ops.append(zero)
        zeros.append(zero.results[0])
    start = _scalar(ops, 0)
    carried = [start, *op.inits, *zeros]
    types = [v.type for v in carried]

    cond_block = Block(arg_types=types)
    limit = ConstantOp.from_list([length], tensor((), i64))
    less = CompareOp(ComparisonDirection.LT, cond_block.args[0], limit.results[0])
    cond_block.add_ops([limit, less, ReturnOp([less.result])])

    body_block = Block(arg_types=types)
    body_ops: list[Operation] = []
    index = body_block.args[0]
    if op.reverse:
        position_op = BINARY_OP_CLASSES["subtract"](_scalar(body_ops, length - 1), index)  # pyright: ignore[reportCallIssue]
        body_ops.append(position_op)
        position = position_op.results[0]
    else:
        position = index
    zero_index = _scalar(body_ops, 0)
    mapping: dict[SSAValue, SSAValue] = {}
    scan_block = op.body.blocks.first
    assert scan_block is not None
    for value, arg in zip(op.inputs, scan_block.args[:n_in]):
        shape = shape_of(value.type)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        sizes = [1 if d == dim else s for d, s in enumerate(shape)]
        piece = DynamicSliceOp(value, starts, sizes)
        flat = ReshapeOp(piece.results[0], shape_of(arg.type))
        body_ops += [piece, flat]
        mapping[arg] = flat.results[0]
    for arg, carry in zip(scan_block.args[n_in:], body_block.args[1 : 1 + n_carry]):
        mapping[arg] = carry
    terminator = scan_block.last_op
    assert terminator is not None
    for inner in scan_block.ops:
        if inner is terminator:
            break
        clone = inner.clone(value_mapper=mapping)
        body_ops.append(clone)
        for old, new in zip(inner.results, clone.results):
            mapping[old] = new
    returned = [mapping.get(v, v) for v in terminator.operands]
    new_outputs: list[SSAValue] = []
    for current, piece in zip(body_block.args[1 + n_carry :], returned[:n_out]):
        shape = shape_of(current.type)
        sizes = [1 if d == dim else s for d, s in enumerate(shape)]
        expanded = ReshapeOp(piece, sizes)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        update = DynamicUpdateSliceOp(current, expanded.results[0], starts)
        body_ops += [expanded, update]
        new_outputs.append(update.results[0])
    step = BINARY_OP_CLASSES["add"](index, _scalar(body_ops, 1))  # pyright: ignore[reportCallIssue]
    body_ops.append(step)
    body_ops.append(ReturnOp([step.results[0], *returned[n_out:], *new_outputs]))
    body_block.add_ops(body_ops)

    loop = WhileOp(carried, Region(cond_block), Region(body_block))
    ops.append(loop)
    results = list(loop.results)
    return [*results[1 + n_carry :], *results[1 : 1 + n_carry]]


def _precisions(op: chlo.RaggedDotOp) -> list[Precision] | None:
    if op.precision_config is None or not op.precision_config.data:
        return None
    return [Precision(p.data.value) for p in op.precision_config.data]  # pyright: ignore[reportAttributeAccessIssue]


def decompose_ragged_dot(op: chlo.RaggedDotOp, ops: list[Operation]) -> list[SSAValue]:
    dn = op.ragged_dot_dimension_numbers
    lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
    lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
    mode = chlo.ragged_dot_mode(dn)
    precision = _precisions(op)
    result_element = element_type_of(op.result.type)

    def emit(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    if mode == "batch":
        return [emit(DotGeneralOp(op.lhs, op.rhs, lc, rc, lb, rb, precision, result_element_type=result_element))]

    lhs_shape = static_shape(op, op.lhs.type)
    gs_shape = static_shape(op, op.group_sizes.type)
    ragged = dn.ints("lhs_ragged_dimensions")[0]
    g = gs_shape[-1]
    rank = len(lhs_shape)
    if len(gs_shape) == 1:
        prefix: list[int] = []
    elif mode == "non_contracting":
        prefix = [*lb, *[d for d in range(ragged) if d not in lb and d not in lc]]
    else:
        prefix = [*lb, *lc[: lc.index(ragged)]]
    # Group ends: ends[..., j] = sum_{i <= j} sizes[..., i] (in i64), starts = ends - sizes.
    sizes = op.group_sizes
    if element_type_of(sizes.type) != i64:
        sizes = emit(ConvertOp(sizes, tensor(gs_shape, i64)))
    p = len(gs_shape) - 1
    square = (*gs_shape, g)
    spread = emit(BroadcastInDimOp(sizes, square, [*range(p), p + 1]))
    row = emit(IotaOp(tensor(square, i64), p))
    col = emit(IotaOp(tensor(square, i64), p + 1))
    lower = emit(CompareOp(ComparisonDirection.LE, col, row))
    zeros_sq = emit(ConstantOp.from_list([0], tensor(square, i64)))
    masked = emit(SelectOp(lower, spread, zeros_sq))
    zero_i64 = _scalar(ops, 0)
    ends = emit(ReduceOp([masked], [zero_i64], [p + 1], lambda a, b: BINARY_OP_CLASSES["add"](a, b).results[0]))  # pyright: ignore[reportCallIssue]
    starts = emit(BINARY_OP_CLASSES["subtract"](ends, sizes))  # pyright: ignore[reportCallIssue]
    # The one-hot lhs: lhs[..., g] kept where the ragged index lies in group g.
    expanded = (*lhs_shape, g)
    gs_dims = [*prefix, rank]
    pos = emit(IotaOp(tensor(expanded, i64), ragged))
    in_group = emit(
        BINARY_OP_CLASSES["and"](  # pyright: ignore[reportCallIssue]
            emit(CompareOp(ComparisonDirection.GE, pos, emit(BroadcastInDimOp(starts, expanded, gs_dims)))),
            emit(CompareOp(ComparisonDirection.LT, pos, emit(BroadcastInDimOp(ends, expanded, gs_dims)))),
        )
    )
    lhs_element = element_type_of(op.lhs.type)
    lhs_g = emit(BroadcastInDimOp(op.lhs, expanded, list(range(rank))))
    zero_lhs = emit(ConstantOp.from_list([0.0 if is_float(lhs_element) else 0], tensor(expanded, lhs_element)))  # pyright: ignore[reportArgumentType]
    lhs_masked = emit(SelectOp(in_group, lhs_g, zero_lhs))
    if mode == "non_contracting":
        group_dim = dn.ints("rhs_group_dimensions")[0]
        return [
            emit(
                DotGeneralOp(
                    lhs_masked, op.rhs, [*lc, rank], [*rc, group_dim], lb, rb, precision,
                    result_element_type=result_element,
                )
            )
        ]
    dot = emit(DotGeneralOp(lhs_masked, op.rhs, lc, rc, lb, rb, precision, result_element_type=result_element))
    n_batch = len(lb)
    n_free = rank - len(lb) - len(lc)
    out_rank = len(shape_of(dot.type))
    g_at = n_batch + n_free
    perm = [g_at, *[d for d in range(out_rank) if d != g_at]]
    return [emit(TransposeOp(dot, perm))]
