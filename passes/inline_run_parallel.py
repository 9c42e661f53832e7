"""`xla-inline-run-parallel`: a one-program `interpreter.run_parallel` becomes a call.

With one replica and one partition, running the grid is calling its program on
the operands; the `infeed` functions run first and their results are pushed
onto the infeed queue in order, by a side-effecting `xla.custom_call` of the
runtime's built-in `__xla_interpreter_infeed` target (`runtime/host_io.py`
provides it; the pass only emits the calls), so the program's `xla.infeed`s pop
them. A larger grid stays: `convert-xla-to-linalg` makes it one call into the
collective runtime, which runs the programs on threads, one device each.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from xla_dialect.diagnostics import LoweringError
from xla_dialect.interpreter import INFEED_TARGET, RunParallelOp
from xla_dialect.ops.control_flow import CallOp
from xla_dialect.ops.io import CustomCallOp


def _callee(op: RunParallelOp, symbol: SymbolRefAttr) -> func.FuncOp:
    target = SymbolTable.lookup_symbol(op, symbol)
    if not isinstance(target, func.FuncOp):
        raise LoweringError(f"interpreter.run_parallel: @{symbol.root_reference.data} is not a function", op)
    return target


def inline_run_parallel(op: RunParallelOp) -> None:
    """Replace a one-program `op` by its infeed pushes and a call of its program;
    a larger grid is left for `convert-xla-to-linalg`, which makes it one call into
    the collective runtime (`lowering/collectives/run_parallel.py`)."""
    grid = op.grid()
    if len(grid) != 1 or len(grid[0]) != 1:
        return
    where = InsertPoint.before(op)
    for symbol in op.infeed.data if op.infeed else ():
        assert isinstance(symbol, SymbolRefAttr)
        producer = _callee(op, symbol)
        values = CallOp(producer, []).results
        Rewriter.insert_op(values[0].owner, where)  # pyright: ignore[reportArgumentType]
        Rewriter.insert_op(CustomCallOp(INFEED_TARGET, list(values), [], has_side_effect=True), where)
    program = _callee(op, grid[0][0])
    call = CallOp(program, list(op.inputs))
    Rewriter.insert_op(call, where)
    for old, new in zip(op.results, call.results, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class InlineRunParallelPass(ModulePass):
    """Inline every one-program `interpreter.run_parallel` (module docstring)."""

    name = "xla-inline-run-parallel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, RunParallelOp):
                inline_run_parallel(inner)


__all__ = ["INFEED_TARGET", "InlineRunParallelPass", "inline_run_parallel"]
