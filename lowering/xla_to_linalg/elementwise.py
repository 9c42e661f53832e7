"""Element-wise ops → one parallel `linalg.generic` each.

The body of the generic is the op's scalar semantics (`scalar.emit_scalar_op`);
the indexing maps carry the spec's implicit broadcasting (rank-0 operands,
degenerate dimensions, `broadcast_dimensions`). `bitcast_convert` between
widths regroups elements along a new minor dimension.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, ComplexType, IntegerType
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from lowering.scalar import bits_to_complex, complex_to_bits, emit_scalar_op, signless_type
from lowering.to_llvm.common import bitwidth
from lowering.xla_to_linalg.constants import constant_scalar
from lowering.xla_to_linalg.converter import (
    Converter,
    broadcast_map,
    dims_map,
    empty,
    generic,
    identity_map,
    index_constant,
    lowers,
    map_elements,
    parallel,
    result_tensor_type,
)
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.elementwise import (
    BINARY_OP_CLASSES,
    UNARY_OP_CLASSES,
    BitcastConvertOp,
    BroadcastingBinaryOp,
    ClampOp,
    CompareOp,
    ConvertOp,
    ReducePrecisionOp,
    SelectOp,
)
from xla_dialect.types import element_type_of, shape_of


def operand_map(operand: SSAValue, result_shape: Sequence[int], dims: Sequence[int] | None = None) -> AffineMapAttr:
    """How a (possibly broadcast) operand is read at each result index."""
    shape = tuple(shape_of(operand.type))
    if dims is None:
        if len(shape) == 0:
            dims = ()
        else:
            dims = tuple(range(len(result_shape) - len(shape), len(result_shape)))
    return broadcast_map(shape, result_shape, dims)


def _elementwise(cx: Converter, op: Operation, builder: Builder, dims_of: Sequence[Sequence[int] | None] | None = None) -> Sequence[SSAValue]:
    result_type = result_tensor_type(op)
    shape = tuple(result_type.get_shape())
    maps = [
        operand_map(v, shape, None if dims_of is None else dims_of[i]) for i, v in enumerate(op.operands)
    ]
    return [map_elements(builder, op, cx.get_all(op.operands), maps, result_type)]


@lowers(*UNARY_OP_CLASSES.values(), ConvertOp, ReducePrecisionOp, SelectOp, ClampOp)
def lower_elementwise(cx: Converter, op: Operation, builder: Builder) -> Sequence[SSAValue]:
    """Operands of the result's rank map identically; rank-0 ones are broadcast."""
    return _elementwise(cx, op, builder)


@lowers(*BINARY_OP_CLASSES.values(), CompareOp)
def lower_binary(cx: Converter, op: BroadcastingBinaryOp, builder: Builder) -> Sequence[SSAValue]:
    """Binary ops with the spec's implicit broadcasting: `broadcast_dimensions`
    places the lower-rank operand; equal ranks broadcast degenerate dimensions."""
    result_rank = len(shape_of(op.result.type))
    bd = op._broadcast_dims()  # pyright: ignore[reportPrivateUsage]
    dims: list[Sequence[int] | None] = []
    for v in (op.lhs, op.rhs):
        rank = len(shape_of(v.type))
        if rank == result_rank:
            dims.append(tuple(range(rank)))
        elif rank == 0:
            dims.append(())
        else:
            dims.append(bd)
    return _elementwise(cx, op, builder, dims)


@lowers(BitcastConvertOp)
def lower_bitcast_convert(cx: Converter, op: BitcastConvertOp, builder: Builder) -> Sequence[SSAValue]:
    """Same widths: an element-wise bitcast. Wider result: the operand's minor
    dimension of k elements is packed little-endian into one element; narrower
    result: each element is split into k along a new minor dimension."""
    in_t, out_t = element_type_of(op.operand.type), element_type_of(op.result.type)
    in_w, out_w = bitwidth(in_t), bitwidth(out_t)
    if in_w == out_w:
        return _elementwise(cx, op, builder)
    result_type = result_tensor_type(op)
    operand = cx.get(op.operand)
    shape = tuple(result_type.get_shape())
    rank = len(shape)
    in_int = IntegerType(in_w)
    out_int = IntegerType(out_w)
    in_elt = element_type_of(operand.type)
    out_elt = result_type.element_type

    def to_int(b: Builder, v: SSAValue, t: IntegerType) -> SSAValue:
        if isinstance(v.type, ComplexType):  # real part in the low half
            return complex_to_bits(b.insert, v, v.type)
        return v if isinstance(v.type, IntegerType) else b.insert(arith.BitcastOp(v, t)).result

    def from_int(b: Builder, v: SSAValue, t: object) -> SSAValue:
        if isinstance(t, ComplexType):
            return bits_to_complex(b.insert, v, t)
        return v if isinstance(t, IntegerType) else b.insert(arith.BitcastOp(v, t)).result  # pyright: ignore

    if out_w > in_w:
        k = out_w // in_w

        def pack(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
            acc: SSAValue | None = None
            idx = [b.insert(IndexOp(d)).result for d in range(rank)]
            for j in range(k):
                c = index_constant(b, j)
                part = b.insert(tensor.ExtractOp(operand, [*idx, c], in_elt)).result
                part = b.insert(arith.ExtUIOp(to_int(b, part, in_int), out_int)).result
                if j:
                    sh = b.insert(arith.ConstantOp.from_int_and_width(j * in_w, out_int)).result
                    part = b.insert(arith.ShLIOp(part, sh)).result
                acc = part if acc is None else b.insert(arith.OrIOp(acc, part)).result
            assert acc is not None
            return [from_int(b, acc, out_elt)]

        (res,) = generic(builder, [], [], [empty(builder, result_type)], [identity_map(rank)], parallel(rank), pack)
        return [res]

    # Narrower: result [..., k]; element j of the new minor dimension is bits [j*w, (j+1)*w).
    def split(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        x = to_int(b, args[0], in_int)
        j = b.insert(arith.IndexCastOp(b.insert(IndexOp(rank - 1)).result, in_int)).result
        w = b.insert(arith.ConstantOp.from_int_and_width(out_w, in_int)).result
        sh = b.insert(arith.MuliOp(j, w)).result
        part = b.insert(arith.ShRUIOp(x, sh)).result
        part = b.insert(arith.TruncIOp(part, out_int)).result
        return [from_int(b, part, out_elt)]

    in_map = dims_map(rank, [AffineExpr.dimension(d) for d in range(rank - 1)])
    (res,) = generic(builder, [operand], [in_map], [empty(builder, result_type)], [identity_map(rank)], parallel(rank), split)
    return [res]


def scalar_region_results(
    op: Operation,
    region_op_args: Sequence[SSAValue],
    builder: Builder,
    region: Region | None = None,
    captured: Mapping[SSAValue, SSAValue] | None = None,
) -> list[SSAValue]:
    """Inline a region of rank-0 xla ops (a reducer or map computation) as scalar
    code: each op is emitted by its scalar semantics. Ops without a scalar form are
    rejected by name. `region` replaces `op`'s first region (e.g. a reducer made f32).

    The region may use rank-0 values defined above it (`jax.export` hoists a
    comparator's constants out of it): constants and scalar ops on them are
    emitted again inside, other values (arguments, results of tensor ops) are the
    scalars `captured` maps them to (`captured_scalars` reads them before the loops)."""
    block = (region or op.regions[0]).block
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, region_op_args))

    def value(v: SSAValue, user: Operation) -> SSAValue:
        if v not in values:
            values[v] = _captured(v, user)
        return values[v]

    def _captured(v: SSAValue, user: Operation) -> SSAValue:
        owner = v.owner
        if len(shape_of(v.type)) != 0:
            raise LoweringError(f"'{user.name}' in the body of '{op.name}' uses a non-scalar value defined outside it", user)
        if isinstance(owner, Operation) and _scalar_op(owner):
            emit(owner)
            return values[v]
        if captured is not None and v in captured:
            return captured[v]
        raise LoweringError(f"'{user.name}' in the body of '{op.name}' uses a value defined outside it", user)

    def emit(inner: Operation) -> None:
        if isinstance(inner, ConstantOp):
            values[inner.results[0]] = constant_scalar(builder, inner)
        elif inner.name in _SCALAR_FORWARDED:
            for r, o in zip(inner.results, inner.operands):
                values[r] = value(o, inner)
        else:
            results = emit_scalar_op(builder.insert, inner, [value(v, inner) for v in inner.operands])
            values.update(zip(inner.results, results))

    for inner in block.ops:
        if inner.name == "xla.return":
            return [value(v, inner) for v in inner.operands]
        if not _scalar_op(inner):
            raise LoweringError(
                f"'{inner.name}' in the body of '{op.name}' has no scalar form; "
                "only element-wise ops, constants and reshapes of scalars can appear there",
                inner,
            )
        emit(inner)
    raise LoweringError(f"the body of '{op.name}' has no terminator", op)


def _scalar_op(inner: Operation) -> bool:
    """Whether `inner` has a scalar form `scalar_region_results` can emit."""
    if isinstance(inner, ConstantOp):
        return True
    scalars = all(len(shape_of(v.type)) == 0 for v in (*inner.operands, *inner.results))
    return scalars and (inner.name in _SCALAR_FORWARDED or type(inner) in _SCALAR_LOWERABLE)


def _rematerializable(v: SSAValue) -> bool:
    owner = v.owner
    return isinstance(owner, Operation) and _scalar_op(owner) and all(_rematerializable(o) for o in owner.operands)


def captured_scalars(cx: Converter, op: Operation, builder: Builder) -> dict[SSAValue, SSAValue]:
    """The scalars of the rank-0 values `op`'s regions use but do not define (other
    than constants and scalar ops on them, which are emitted again inside),
    extracted from their converted tensors at `builder`, before any loop."""
    inside = {id(r) for r in op.regions}
    captured: dict[SSAValue, SSAValue] = {}
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            if v in captured or _defined_inside(v, inside) or _rematerializable(v) or len(shape_of(v.type)) != 0:
                continue
            element = signless_type(element_type_of(v.type))
            captured[v] = builder.insert(tensor.ExtractOp(cx.get(v), [], element)).result
    return captured


def _defined_inside(v: SSAValue, regions: set[int]) -> bool:
    block = v.owner if isinstance(v.owner, Block) else v.owner.parent_block()
    while block is not None:
        region = block.parent
        if region is None:
            return False
        if id(region) in regions:
            return True
        parent = region.parent
        block = parent.parent_block() if parent is not None else None
    return False


_SCALAR_FORWARDED = frozenset({"xla.broadcast_in_dim", "xla.reshape", "xla.broadcast", "xla.optimization_barrier"})
"""Ops that, on scalars, pass their operands through."""

_SCALAR_LOWERABLE: frozenset[type[Operation]] = frozenset(
    (
        *UNARY_OP_CLASSES.values(),
        *BINARY_OP_CLASSES.values(),
        CompareOp,
        ConvertOp,
        ReducePrecisionOp,
        SelectOp,
        ClampOp,
        BitcastConvertOp,
    )
)

__all__ = ["captured_scalars", "lower_binary", "lower_bitcast_convert", "lower_elementwise", "operand_map", "scalar_region_results"]
