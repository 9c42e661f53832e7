"""`dot` and `dot_general` → `linalg.matmul` where it fits, else a generic.

The generic iterates `[batch, lhs free, contracting, rhs free]`: with the
contraction outside the rhs-free loop, the innermost loop walks the rhs and the
result contiguously (the i-k-j order), which LLVM vectorizes. Operands are
converted to the result element type before multiplying (`preferred_element_type`,
with `xla.convert`'s semantics),
and PRED contracts with and/or, complex with `complex.mul`/`complex.add`. A bf16 result accumulates in f32 and is rounded
once at the end, as XLA's CPU backend does (it computes bf16 dots in f32).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, ComplexType, IntegerType, TensorType, f32
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.ir import Attribute, SSAValue

from lowering.scalar import complex_constant, convert_element, signless_type
from lowering.xla_to_linalg.constants import scalar_attr
from lowering.xla_to_linalg.converter import (
    Converter,
    dims_map,
    filled,
    generic,
    lowers,
    parallel,
    reduction,
    result_tensor_type,
    round_floats,
)
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.contraction import DotGeneralOp, DotOp
from xla_dialect.types import element_type_of, is_complex, shape_of


def multiply_add(b: Builder, acc: SSAValue, x: SSAValue, y: SSAValue, element: Attribute) -> SSAValue:
    if isinstance(element, IntegerType) and element.width.data == 1:
        return b.insert(arith.OrIOp(acc, b.insert(arith.AndIOp(x, y)).result)).result
    if isinstance(element, IntegerType):
        return b.insert(arith.AddiOp(acc, b.insert(arith.MuliOp(x, y)).result)).result
    if isinstance(element, ComplexType):
        from xdsl.dialects import complex  # loaded with the first complex program

        return b.insert(complex.AddOp(acc, b.insert(complex.MulOp(x, y)).result)).result
    return b.insert(arith.AddfOp(acc, b.insert(arith.MulfOp(x, y)).result)).result


def zero_filled(builder: Builder, result_type: TensorType, xla_element: Attribute) -> SSAValue:
    if isinstance(xla_element, ComplexType):
        return filled(builder, complex_constant(builder.insert, 0.0, 0.0, xla_element), result_type)
    zero = builder.insert(arith.ConstantOp(scalar_attr(0, xla_element))).result  # pyright: ignore
    return filled(builder, zero, result_type)


def contract(
    builder: Builder,
    op: DotOp | DotGeneralOp,
    lhs: SSAValue,
    rhs: SSAValue,
    batch: tuple[Sequence[int], Sequence[int]],
    contracting: tuple[Sequence[int], Sequence[int]],
) -> SSAValue:
    if is_complex(element_type_of(op.result.type)) and not all(
        is_complex(element_type_of(v.type)) for v in (op.lhs, op.rhs)
    ):
        raise LoweringError("a complex dot product needs complex operands", op)
    result_type = result_tensor_type(op)
    xla_out = element_type_of(op.result.type)
    xla_l, xla_r = element_type_of(op.lhs.type), element_type_of(op.rhs.type)
    lhs_shape, rhs_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
    lhs_free = [d for d in range(len(lhs_shape)) if d not in batch[0] and d not in contracting[0]]
    rhs_free = [d for d in range(len(rhs_shape)) if d not in batch[1] and d not in contracting[1]]
    nb, nl, nc, nr = len(batch[0]), len(lhs_free), len(contracting[0]), len(rhs_free)
    # Iteration dimensions: batch | lhs free | contracting | rhs free.
    lhs_map: list[int] = [0] * len(lhs_shape)
    rhs_map: list[int] = [0] * len(rhs_shape)
    for i, (l, r) in enumerate(zip(*batch)):
        lhs_map[l], rhs_map[r] = i, i
    for i, l in enumerate(lhs_free):
        lhs_map[l] = nb + i
    for i, (l, r) in enumerate(zip(*contracting)):
        lhs_map[l], rhs_map[r] = nb + nl + i, nb + nl + i
    for i, r in enumerate(rhs_free):
        rhs_map[r] = nb + nl + nc + i
    rank = nb + nl + nc + nr
    out_map = [*range(nb + nl), *range(nb + nl + nc, rank)]
    iterators = [*parallel(nb + nl), *[reduction()] * nc, *parallel(nr)]
    accumulator = f32 if isinstance(xla_out, BFloat16Type) else xla_out
    accumulator_type = TensorType(signless_type(accumulator), result_type.get_shape())

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        x = convert_element(b.insert, op, args[0], xla_l, accumulator)
        y = convert_element(b.insert, op, args[1], xla_r, accumulator)
        return [multiply_add(b, args[2], x, y, accumulator_type.element_type)]

    init = zero_filled(builder, accumulator_type, accumulator)
    (result,) = generic(
        builder,
        [lhs, rhs],
        [dims_map(rank, lhs_map), dims_map(rank, rhs_map)],
        [init],
        [dims_map(rank, out_map)],
        iterators,
        body,
    )
    if accumulator != xla_out:
        result = round_floats(builder, result, result_type)
    return result


@lowers(DotOp)
def lower_dot(cx: Converter, op: DotOp, builder: Builder) -> Sequence[SSAValue]:
    """Matrix × matrix with one element type is `linalg.matmul`; the other forms
    (vector operands, mixed types, PRED, bf16) contract the last lhs with the first
    rhs dimension."""
    lhs, rhs = cx.get(op.lhs), cx.get(op.rhs)
    l_rank, r_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))
    types = {element_type_of(v.type) for v in (op.lhs, op.rhs, op.result)}
    element = element_type_of(op.result.type)
    needs_generic = (
        is_complex(element)
        or isinstance(element, BFloat16Type)  # accumulates in f32
        or (isinstance(element, IntegerType) and element.width.data == 1)
    )
    if l_rank == 2 and r_rank == 2 and len(types) == 1 and not needs_generic:
        result_type = result_tensor_type(op)
        init = zero_filled(builder, result_type, element)
        return builder.insert(MatmulOp((lhs, rhs), (init,), (result_type,))).results
    return [contract(builder, op, lhs, rhs, ((), ()), ((l_rank - 1,), (0,)))]


@lowers(DotGeneralOp)
def lower_dot_general(cx: Converter, op: DotGeneralOp, builder: Builder) -> Sequence[SSAValue]:
    dn = op.dot_dimension_numbers
    batch = (dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions"))
    contracting = (dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions"))
    return [contract(builder, op, cx.get(op.lhs), cx.get(op.rhs), batch, contracting)]


__all__ = ["contract", "multiply_add", "zero_filled"]
