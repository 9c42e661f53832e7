"""Control flow → scf: `while` → `scf.while` (the condition region computes the
predicate and forwards the loop values unchanged), `if` → `scf.if`, `case` →
`scf.index_switch` whose default is the last branch (the spec runs the last
branch for an out-of-range index), `call` → `func.call`, `composite` → a
`func.call` of its decomposition; `optimization_barrier` forwards its operands.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i64
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from lowering.xla_to_linalg.converter import Converter, convert_type, extract_scalar, lowers
from xla_dialect.ops.control_flow import (
    CallOp,
    CaseOp,
    CompositeOp,
    IfOp,
    OptimizationBarrierOp,
    WhileOp,
)


def _branch(cx: Converter, region: Region) -> Region:
    """A branch region without arguments, ending in `scf.yield`."""
    block = Block()
    values = cx.convert_block_into(region.block, block)
    block.add_op(scf.YieldOp(*values))
    return Region(block)


@lowers(WhileOp)
def lower_while(cx: Converter, op: WhileOp, builder: Builder) -> Sequence[SSAValue]:
    types = [convert_type(v.type, op) for v in op.operand]
    before = Block(arg_types=types)
    for old, new in zip(op.cond.block.args, before.args):
        cx.values[old] = new
    (pred,) = cx.convert_block_into(op.cond.block, before)
    b = Builder(InsertPoint.at_end(before))
    b.insert(scf.ConditionOp(extract_scalar(b, pred), *before.args))
    after = Block(arg_types=types)
    for old, new in zip(op.body.block.args, after.args):
        cx.values[old] = new
    values = cx.convert_block_into(op.body.block, after)
    after.add_op(scf.YieldOp(*values))
    return builder.insert(scf.WhileOp(cx.get_all(op.operand), types, Region(before), Region(after))).results


@lowers(IfOp)
def lower_if(cx: Converter, op: IfOp, builder: Builder) -> Sequence[SSAValue]:
    pred = extract_scalar(builder, cx.get(op.pred))
    types = [convert_type(r.type, op) for r in op.results]
    return builder.insert(
        scf.IfOp(pred, types, _branch(cx, op.true_branch), _branch(cx, op.false_branch))
    ).results


@lowers(CaseOp)
def lower_case(cx: Converter, op: CaseOp, builder: Builder) -> Sequence[SSAValue]:
    branches = list(op.branches)
    types = [convert_type(r.type, op) for r in op.results]
    converted = [_branch(cx, r) for r in branches]
    if len(converted) == 1:
        # One branch always runs: inline it.
        block = converted[0].block
        yielded = block.last_op
        assert yielded is not None
        values = list(yielded.operands)
        yielded.detach()
        yielded.erase()
        for inner in list(block.ops):
            inner.detach()
            builder.insert(inner)
        return values
    index = extract_scalar(builder, cx.get(op.index))
    index = builder.insert(arith.IndexCastOp(index, IndexType())).result
    cases = DenseArrayBase.from_list(i64, list(range(len(converted) - 1)))
    return builder.insert(scf.IndexSwitchOp(index, cases, converted[-1], converted[:-1], types)).results


@lowers(CallOp)
def lower_call(cx: Converter, op: CallOp, builder: Builder) -> Sequence[SSAValue]:
    types = [convert_type(r.type, op) for r in op.results]
    return builder.insert(func.CallOp(op.callee, cx.get_all(op.args), types)).results


@lowers(CompositeOp)
def lower_composite(cx: Converter, op: CompositeOp, builder: Builder) -> Sequence[SSAValue]:
    """A composite computes what its decomposition does: call it."""
    types = [convert_type(r.type, op) for r in op.results]
    return builder.insert(func.CallOp(op.decomposition, cx.get_all(op.inputs), types)).results


@lowers(OptimizationBarrierOp)
def lower_optimization_barrier(cx: Converter, op: OptimizationBarrierOp, builder: Builder) -> Sequence[SSAValue]:
    return cx.get_all(op.operand)


__all__ = ["lower_call", "lower_case", "lower_composite", "lower_if", "lower_optimization_barrier", "lower_while"]
