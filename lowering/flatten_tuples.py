"""`xla-flatten-tuples`: tuples become their leaves, depth-first.

Compiled code has no tuple values: a function taking or returning
`tuple<a, tuple<b, c>>` takes or returns `a, b, c` (the runtime rebuilds the
nesting for the caller), `xla.tuple` disappears, `xla.get_tuple_element` picks
its leaves, and the ops that carry tuples through control flow (`while`, `if`,
`case`, `call`, `func.call`, `optimization_barrier`, returns) carry the leaves
instead. Any other op with a tuple operand is reported.

Tokens carry no data: like empty tuples they have no leaves, so signatures,
carriers and `custom_call` (rebuilt with its leaves; a single tuple result is
marked `xla.tuple_result`) drop them; where a token enters a block (argument,
carrier result, tuple element) an `xla.create_token` stands in for it, for the
side-effecting ops that still take one (see lowering/xla_to_linalg/io.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TupleType, UnitAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.control_flow import (
    CallOp,
    CaseOp,
    IfOp,
    OptimizationBarrierOp,
    ReturnOp,
    WhileOp,
)
from xla_dialect.ops.io import CreateTokenOp, CustomCallOp
from xla_dialect.ops.tuples import GetTupleElementOp, TupleOp
from xla_dialect.types import TokenType


def flatten_types(types: Sequence[Attribute]) -> list[Attribute]:
    """The leaf types of `types`, depth-first."""
    out: list[Attribute] = []
    for t in types:
        if isinstance(t, TupleType):
            out.extend(flatten_types(t.types.data))
        elif isinstance(t, TokenType):
            continue
        else:
            out.append(t)
    return out


_CARRIERS: tuple[type[Operation], ...] = (
    WhileOp,
    IfOp,
    CaseOp,
    CallOp,
    OptimizationBarrierOp,
    ReturnOp,
    func.CallOp,
    func.ReturnOp,
    CustomCallOp,
)
"""Ops whose operands and results are independent values: flattening them is
rebuilding them with the leaves."""


def _has_tuples(op: Operation) -> bool:
    kinds = (TupleType, TokenType) if isinstance(op, _CARRIERS) else TupleType
    return any(isinstance(v.type, kinds) for v in (*op.operands, *op.results)) or any(
        isinstance(a.type, (TupleType, TokenType)) for r in op.regions for b in r.blocks for a in b.args
    )


def _new_token(replaced: SSAValue, block: Block, after: Operation | None) -> None:
    """Give the users of a dropped token a fresh one (at `block`'s start or after `after`)."""
    if not replaced.uses:
        return
    token = CreateTokenOp()
    if after is not None:
        block.insert_op_after(token, after)
    elif block.first_op is not None:
        block.insert_op_before(token, block.first_op)
    else:
        block.add_op(token)
    replaced.replace_all_uses_with(token.result)


class _Flattener:
    def __init__(self) -> None:
        self.leaves: dict[SSAValue, list[SSAValue]] = {}
        self.dead: list[Operation] = []
        self.dead_args: list[tuple[Block, BlockArgument]] = []

    def get(self, value: SSAValue) -> list[SSAValue]:
        if isinstance(value.type, TupleType):
            return self.leaves[value]
        if isinstance(value.type, TokenType):
            return []
        return [value]

    def flat(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        return [leaf for v in values for leaf in self.get(v)]

    def block(self, block: Block) -> None:
        tuple_args = [a for a in block.args if isinstance(a.type, TupleType)]
        for arg in tuple_args:
            position = arg.index + 1
            leaves: list[SSAValue] = []
            for t in flatten_types([arg.type]):
                leaves.append(block.insert_arg(t, position))
                position += 1
            self.leaves[arg] = leaves
        token_args = [a for a in block.args if isinstance(a.type, TokenType)]
        for arg in token_args:
            _new_token(arg, block, None)
        tuple_args += token_args
        for op in list(block.ops):
            self.op(op)
        self.dead_args.extend((block, arg) for arg in tuple_args)

    def op(self, op: Operation) -> None:
        if isinstance(op, TupleOp):
            self.leaves[op.result] = self.flat(op.operands)
            self.dead.append(op)
            return
        if isinstance(op, GetTupleElementOp):
            tuple_type = op.operand.type
            assert isinstance(tuple_type, TupleType)
            elements = tuple_type.types.data
            index = op.index.value.data
            start = len(flatten_types(elements[:index]))
            count = len(flatten_types([elements[index]]))
            leaves = self.get(op.operand)[start : start + count]
            if isinstance(op.result.type, TupleType):
                self.leaves[op.result] = leaves
            elif isinstance(op.result.type, TokenType):
                _new_token(op.result, op.parent_block(), op)  # pyright: ignore[reportArgumentType]
            else:
                op.result.replace_all_uses_with(leaves[0])
            self.dead.append(op)
            return
        if not _has_tuples(op):
            for region in op.regions:
                for block in region.blocks:
                    self.block(block)
            return
        if not isinstance(op, _CARRIERS):
            raise LoweringError(f"'{op.name}' with tuple operands or results cannot be compiled", op)
        if isinstance(op, CustomCallOp) and (op.operand_layouts is not None or op.output_operand_aliases is not None):
            raise LoweringError("custom_call with tuple or token values cannot have layouts or output_operand_aliases", op)
        regions = [r.clone() for r in op.regions]
        new = op.create(
            operands=self.flat(op.operands),
            result_types=flatten_types([r.type for r in op.results]),
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        new.location = getattr(op, "location", None)  # pyright: ignore
        parent = op.parent_block()
        assert parent is not None
        parent.insert_op_before(new, op)
        if isinstance(op, CustomCallOp) and len(op.results) == 1 and isinstance(op.results[0].type, TupleType):
            new.attributes["xla.tuple_result"] = UnitAttr()
        for region in new.regions:
            for block in region.blocks:
                self.block(block)
        results = iter(new.results)
        for old in op.results:
            if isinstance(old.type, TupleType):
                self.leaves[old] = [next(results) for _ in flatten_types([old.type])]
            elif isinstance(old.type, TokenType):
                _new_token(old, parent, new)
            else:
                old.replace_all_uses_with(next(results))
        self.dead.append(op)

    def erase_dead(self) -> None:
        """Erase the replaced ops, users first."""
        for op in reversed(self.dead):
            op.detach()
            op.erase(safe_erase=False)
        for block, arg in self.dead_args:
            block.erase_arg(arg, safe_erase=False)


@dataclass(frozen=True)
class FlattenTuplesPass(ModulePass):
    """Replace tuple values by their leaves in every function."""

    name = "xla-flatten-tuples"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in list(op.ops):
            if not isinstance(function, func.FuncOp):
                continue
            t = function.function_type
            inputs, outputs = flatten_types(t.inputs.data), flatten_types(t.outputs.data)
            if function.body.blocks:
                flattener = _Flattener()
                flattener.block(function.body.blocks[0])
                flattener.erase_dead()
            function.function_type = FunctionType.from_lists(inputs, outputs)


__all__ = ["FlattenTuplesPass", "flatten_types"]
