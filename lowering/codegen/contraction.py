"""Recognizing contractions among `linalg.generic` ops on buffers.

A contraction is a generic with two inputs A, B and one output C whose body is
`c + cast(a) * cast(b)` (float or integer; the casts optional) and whose
iteration dimensions each fall in one class by the operands that use them:

| class | used by  | iterator  |
|-------|----------|-----------|
| batch | A, B, C  | parallel  |
| M     | A, C     | parallel  |
| N     | B, C     | parallel  |
| K     | A, B     | reduction |

C's indexing map must be a projected permutation (each C dimension one loop);
A's and B's maps may be any affine maps: a convolution's input map
`(oh + kh, ...)` mixes M and K dimensions, which is how convolutions become
contractions (implicit GEMM). matmul, batched matmul, `dot_general` of any
dimension numbers and convolutions of any dimension numbers all match.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

_CASTS = (arith.ExtFOp, arith.SIToFPOp, arith.UIToFPOp, arith.ExtSIOp, arith.ExtUIOp)
_MUL_ADD = {arith.MulfOp: arith.AddfOp, arith.MuliOp: arith.AddiOp}


@dataclass
class Contraction:
    """A generic recognized as C += cast(A) * cast(B), with its dimension classes."""

    op: GenericOp
    a: SSAValue
    b: SSAValue
    c: SSAValue
    a_map: AffineMap
    b_map: AffineMap
    c_map: AffineMap
    sizes: list[int]
    """Trip count of each iteration dimension."""
    batch: list[int]
    m: list[int]
    n: list[int]
    k: list[int]
    a_cast: Operation | None
    b_cast: Operation | None
    mul: Operation
    add: Operation
    acc_type: Attribute
    """C's element type: the type of the products and sums."""
    swapped: bool = field(default=False)
    """A and B (and M and N) exchanged, so that the vectorized side is the longer."""

    def extent(self, dims: list[int]) -> int:
        return math.prod(self.sizes[d] for d in dims)

    def swap(self) -> None:
        """Compute C = B·A with the roles of M and N exchanged (same sums)."""
        self.a, self.b = self.b, self.a
        self.a_map, self.b_map = self.b_map, self.a_map
        self.m, self.n = self.n, self.m
        self.a_cast, self.b_cast = self.b_cast, self.a_cast
        self.swapped = not self.swapped


def _static_memref(value: SSAValue) -> MemRefType | None:
    t = value.type
    if not isinstance(t, MemRefType) or any(s < 0 for s in t.get_shape()):
        return None
    return t


def _operand_through_cast(value: SSAValue, arg: BlockArgument) -> Operation | None | bool:
    """None when `value` is `arg` itself, the cast op when it is `cast(arg)`, else False."""
    if value is arg:
        return None
    owner = value.owner
    if isinstance(owner, _CASTS) and owner.operands[0] is arg:
        return owner
    return False


def match_contraction(op: GenericOp) -> Contraction | None:
    """The contraction `op` computes, or None."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or op.res:
        return None
    a, b = op.inputs
    c = op.outputs[0]
    types = [_static_memref(v) for v in (a, b, c)]
    if any(t is None for t in types):
        return None
    block = op.body.block
    body = [o for o in block.ops if not isinstance(o, YieldOp)]
    yield_op = block.last_op
    if not isinstance(yield_op, YieldOp) or len(yield_op.operands) != 1:
        return None
    arg_a, arg_b, arg_c = block.args
    add = yield_op.operands[0].owner
    if not isinstance(add, Operation) or type(add) not in _MUL_ADD.values():
        return None
    lhs, rhs = add.operands
    mul_value = rhs if lhs is arg_c else lhs if rhs is arg_c else None
    if mul_value is None:
        return None
    mul = mul_value.owner
    if not isinstance(mul, Operation) or _MUL_ADD.get(type(mul)) is not type(add):  # pyright: ignore[reportArgumentType]
        return None
    x, y = mul.operands
    a_cast = _operand_through_cast(x, arg_a)
    b_cast = _operand_through_cast(y, arg_b)
    if a_cast is False or b_cast is False:
        a_cast = _operand_through_cast(y, arg_a)
        b_cast = _operand_through_cast(x, arg_b)
        if a_cast is False or b_cast is False:
            return None
    expected = {id(mul), id(add)} | {id(o) for o in (a_cast, b_cast) if isinstance(o, Operation)}
    if {id(o) for o in body} != expected or len(body) != len(expected):
        return None
    for cast in (a_cast, b_cast):
        if isinstance(cast, Operation) and cast.results[0].uses.get_length() != 1:
            return None
    maps = [m.data for m in op.indexing_maps.data]
    a_map, b_map, c_map = maps
    if any(m.num_symbols for m in maps) or not c_map.is_projected_permutation():
        return None
    c_type = types[2]
    assert c_type is not None
    if c_type.get_element_type() != arg_c.type:
        return None
    n_dims = len(op.iterator_types.data)
    iterators = [it.data for it in op.iterator_types.data]
    sizes: list[int | None] = [None] * n_dims
    for value_type, m in zip(types, maps, strict=True):
        assert value_type is not None
        for result, size in zip(m.results, value_type.get_shape(), strict=True):
            if isinstance(result, AffineDimExpr):
                sizes[result.position] = size
    if any(s is None for s in sizes):
        return None
    used = [m.used_dims() for m in maps]
    batch: list[int] = []
    ms: list[int] = []
    ns: list[int] = []
    ks: list[int] = []
    c_order = [r.position for r in c_map.results if isinstance(r, AffineDimExpr)]
    for d in c_order:
        in_a, in_b = d in used[0], d in used[1]
        if iterators[d] != IteratorType.PARALLEL:
            return None
        (batch if in_a and in_b else ms if in_a else ns if in_b else []).append(d)
        if not (in_a or in_b):
            return None
    for d in range(n_dims):
        if d in c_order:
            continue
        if iterators[d] != IteratorType.REDUCTION or d not in used[0] or d not in used[1]:
            return None
        ks.append(d)
    return Contraction(
        op, a, b, c, a_map, b_map, c_map, [s for s in sizes if s is not None],
        batch, ms, ns, ks,
        a_cast if isinstance(a_cast, Operation) else None,
        b_cast if isinstance(b_cast, Operation) else None,
        mul, add, arg_c.type,
    )


__all__ = ["Contraction", "match_contraction"]
