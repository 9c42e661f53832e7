"""A small IR builder for the code generator: index arithmetic, affine expressions,
counted loops, `scf.if`, appended to a block in order.

Constants are created once per emitter and reused; `scf.for` and `scf.parallel`
loops are built with a body callback that receives a new emitter for the body block.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

INDEX = IndexType()


class Emitter:
    """Appends ops to `ops` (or to a block); index constants are shared."""

    def __init__(self, ops: list[Operation] | None = None, block: Block | None = None):
        self.ops: list[Operation] = ops if ops is not None else []
        self.block = block
        self._constants: dict[int, SSAValue] = {}

    def add(self, op: Operation) -> Operation:
        if self.block is not None:
            self.block.add_op(op)
        else:
            self.ops.append(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.add(op).results[0]

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            self._constants[value] = self.value(arith.ConstantOp(IntegerAttr(value, INDEX)))
        return self._constants[value]

    # Index arithmetic (operands are index values or ints, folded when both are ints).

    def _lift(self, x: SSAValue | int) -> SSAValue:
        return self.index(x) if isinstance(x, int) else x

    def addi(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        return self.value(arith.AddiOp(self._lift(a), self._lift(b)))

    def muli(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if b == 1:
            return a
        if a == 1:
            return b
        if a == 0 or b == 0:
            return 0
        return self.value(arith.MuliOp(self._lift(a), self._lift(b)))

    def divui(self, a: SSAValue | int, b: int) -> SSAValue | int:
        if isinstance(a, int):
            return a // b
        return a if b == 1 else self.value(arith.DivUIOp(a, self.index(b)))

    def remui(self, a: SSAValue | int, b: int) -> SSAValue | int:
        if isinstance(a, int):
            return a % b
        return 0 if b == 1 else self.value(arith.RemUIOp(a, self.index(b)))

    def minui(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue | int:
        if isinstance(a, int) and isinstance(b, int):
            return min(a, b)
        return self.value(arith.MinUIOp(self._lift(a), self._lift(b)))

    def ult(self, a: SSAValue | int, b: SSAValue | int) -> SSAValue:
        return self.value(arith.CmpiOp(self._lift(a), self._lift(b), "ult"))

    def materialize(self, x: SSAValue | int) -> SSAValue:
        return self._lift(x)

    def linearize(self, indices: Sequence[SSAValue | int], sizes: Sequence[int]) -> SSAValue | int:
        """Row-major flat index of `indices` in a box of `sizes`."""
        flat: SSAValue | int = 0
        for index, size in zip(indices, sizes, strict=True):
            flat = self.addi(self.muli(flat, size), index)
        return flat

    def delinearize(self, flat: SSAValue | int, sizes: Sequence[int]) -> list[SSAValue | int]:
        """The row-major indices of `flat` in a box of `sizes` (inverse of linearize)."""
        out: list[SSAValue | int] = []
        for size in reversed(sizes[1:]):
            out.append(self.remui(flat, size))
            flat = self.divui(flat, size)
        out.append(flat if sizes else 0)
        return list(reversed(out)) if sizes else []

    def affine(self, expr: AffineExpr, dims: Sequence[SSAValue | int]) -> SSAValue | int:
        """The value of an affine expression of the iteration dimensions `dims`."""
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return expr.value
        if isinstance(expr, AffineBinaryOpExpr):
            lhs = self.affine(expr.lhs, dims)
            rhs = self.affine(expr.rhs, dims)
            if expr.kind == AffineBinaryOpKind.Add:
                return self.addi(lhs, rhs)
            if expr.kind == AffineBinaryOpKind.Mul:
                return self.muli(lhs, rhs)
            if isinstance(rhs, int) and rhs > 0:
                if expr.kind == AffineBinaryOpKind.FloorDiv and isinstance(lhs, int):
                    return lhs // rhs
                if expr.kind == AffineBinaryOpKind.Mod and isinstance(lhs, int):
                    return lhs % rhs
                if expr.kind == AffineBinaryOpKind.FloorDiv:
                    return self.value(arith.FloorDivSIOp(lhs, self.index(rhs)))
                if expr.kind == AffineBinaryOpKind.Mod:
                    rem = self.value(arith.RemSIOp(lhs, self.index(rhs)))
                    neg = self.value(arith.CmpiOp(rem, self.index(0), "slt"))
                    fixed = self.value(arith.AddiOp(rem, self.index(rhs)))
                    return self.value(arith.SelectOp(neg, fixed, rem))
        raise ValueError(f"affine expression {expr} is not supported by the code generator")

    def loop(
        self,
        lower: SSAValue | int,
        upper: SSAValue | int,
        step: int,
        body: Callable[[Emitter, SSAValue, Sequence[SSAValue]], Sequence[SSAValue]],
        iter_args: Sequence[SSAValue] = (),
    ) -> Sequence[SSAValue]:
        """`scf.for` from `lower` to `upper` by `step`; `body(emitter, iv, carried)`
        returns the values to yield. Returns the loop's results."""
        block = Block(arg_types=[INDEX, *(v.type for v in iter_args)])
        inner = Emitter(block=block)
        yielded = body(inner, block.args[0], block.args[1:])
        block.add_op(scf.YieldOp(*yielded))
        loop = scf.ForOp(self._lift(lower), self._lift(upper), self.index(step), list(iter_args), block)
        self.add(loop)
        return loop.results

    def if_(
        self,
        condition: SSAValue,
        then: Callable[[Emitter], Sequence[SSAValue]],
        otherwise: Callable[[Emitter], Sequence[SSAValue]],
        types: Sequence[Attribute] = (),
    ) -> Sequence[SSAValue]:
        """`scf.if condition` of results `types`; `then(emitter)` and `otherwise(emitter)`
        emit their branch and return the values it yields."""
        regions: list[Region] = []
        for branch in (then, otherwise):
            block = Block()
            results = branch(Emitter(block=block))
            block.add_op(scf.YieldOp(*results))
            regions.append(Region(block))
        return self.add(scf.IfOp(condition, list(types), regions[0], regions[1])).results

    def parallel(
        self, lower: SSAValue | int, upper: SSAValue | int, body: Callable[[Emitter, SSAValue], None]
    ) -> scf.ParallelOp:
        """`scf.parallel` from `lower` to `upper` by 1, without reductions; `body(emitter, iv)`
        emits one iteration (its iterations must be independent)."""
        block = Block(arg_types=[INDEX])
        body(Emitter(block=block), block.args[0])
        block.add_op(scf.ReduceOp())
        loop = scf.ParallelOp([self._lift(lower)], [self._lift(upper)], [self.index(1)], Region(block))
        self.add(loop)
        return loop


__all__ = ["INDEX", "Emitter"]
