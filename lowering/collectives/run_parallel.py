"""`interpreter.run_parallel` with several programs → one call into the runtime
that runs the grid on threads, one device each (`runtime/collectives/run_parallel.py`).

The harness op of StableHLO's interpreter suite runs `programs[r][p]` as replica
`r`, partition `p`; the programs take their operands and results in row-major
order, each as many as it has parameters and results (tokens and tuples are
flattened in the functions by then; token operands carry nothing). It becomes one call site taking every data
operand and returning every data result (tokens carry nothing); the site names
the program functions, which stay functions of the module, and how many data
leaves each takes and returns, so the runtime can call their compiled code with
the bufferized convention (inputs, then out-parameters). A one-program grid
is inlined earlier (`xla-inline-run-parallel`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import SymbolRefAttr, TensorType
from xdsl.ir import SSAValue
from xdsl.traits import SymbolTable

from lowering.collectives.abi import Program, RunParallel
from lowering.xla_to_linalg.converter import Converter, lowers
from lowering.xla_to_linalg.io import call_results, call_site
from xla_dialect.diagnostics import LoweringError
from xla_dialect.interpreter import RunParallelOp
from xla_dialect.types import TokenType


def _data(op: RunParallelOp, values: Sequence[SSAValue], what: str) -> list[SSAValue]:
    data: list[SSAValue] = []
    for v in values:
        if isinstance(v.type, TokenType):
            continue
        if not isinstance(v.type, TensorType):
            raise LoweringError(f"interpreter.run_parallel: {what} of type {v.type} cannot be passed to a program", op)
        data.append(v)
    return data


def _program(op: RunParallelOp, symbol: SymbolRefAttr) -> Program:
    name = symbol.root_reference.data
    target = SymbolTable.lookup_symbol(op, symbol)
    if not isinstance(target, func.FuncOp) or not target.body.blocks:
        raise LoweringError(f"interpreter.run_parallel: @{name} is not a function with a body", op)
    ins, outs = target.function_type.inputs.data, target.function_type.outputs.data
    return Program(name, len(ins), len(outs))


@lowers(RunParallelOp)
def lower_run_parallel(cx: Converter, op: RunParallelOp, builder: Builder) -> Sequence[SSAValue]:
    if op.infeed is not None and op.infeed.data:
        raise LoweringError("interpreter.run_parallel: `infeed` with several programs is not compiled", op)
    programs = tuple(tuple(_program(op, symbol) for symbol in row) for row in op.grid())
    n_in = sum(p.n_inputs for row in programs for p in row)
    n_out = sum(p.n_outputs for row in programs for p in row)
    ins, outs = _data(op, op.inputs, "an operand"), _data(op, op.results, "a result")
    if (len(ins), len(outs)) != (n_in, n_out):
        raise LoweringError(
            f"interpreter.run_parallel: the programs take {n_in} and return {n_out} arrays in all, "
            f"the op passes {len(ins)} and returns {len(outs)}",
            op,
        )
    action = RunParallel(programs)
    return call_results(op, builder, *call_site(cx, op, builder, "run_parallel", action))  # pyright: ignore[reportArgumentType]


__all__ = ["lower_run_parallel"]
