"""The `interpreter` dialect: the StableHLO interpreter's harness op `run_parallel`.

    %r:2 = "interpreter.run_parallel"(%a, %t) {programs = [[@f]], infeed = [@q0, @q1]}
        : (tensor<2xi64>, !stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)

runs the grid of `programs` (replicas × partitions) on the operands, after the
functions named by `infeed` filled the infeed queue in order. A one-program grid
is an ordinary call (`passes/inline_run_parallel.py`); a larger grid becomes a
call into the collective runtime, which runs the programs on threads, one
device each (`lowering/collectives/run_parallel.py`).

`INFEED_TARGET` names the custom-call target that pushes its operands onto the
infeed queue: the inlined harness calls it with the `infeed` functions' results,
and the runtime provides it (`runtime/host_io.py`).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, SymbolRefAttr, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

INFEED_TARGET = "__xla_interpreter_infeed"
"""The runtime's target that pushes its operands onto the infeed queue."""


@irdl_op_definition
class RunParallelOp(IRDLOperation):
    """Runs `programs[replica][partition]` on the operands (split evenly among them)."""

    name = "interpreter.run_parallel"
    inputs = var_operand_def()
    results_ = var_result_def()
    programs = prop_def(ArrayAttr)
    infeed = opt_prop_def(ArrayAttr)

    def grid(self) -> list[list[SymbolRefAttr]]:
        return [list(row.data) for row in self.programs.data]  # pyright: ignore

    def verify_(self) -> None:
        rows = self.programs.data
        if not rows or not all(isinstance(r, ArrayAttr) and r.data for r in rows):
            raise VerifyException("programs must be a non-empty array of non-empty arrays of symbols")
        if len({len(r.data) for r in rows}) != 1:  # pyright: ignore
            raise VerifyException("every replica must run the same number of partitions")
        symbols = [s for r in rows for s in r.data] + list(self.infeed.data if self.infeed else [])  # pyright: ignore
        if not all(isinstance(s, SymbolRefAttr) for s in symbols):
            raise VerifyException("programs and infeed must name functions (@f)")
        n_args = n_results = 0
        for program in (s for r in rows for s in r.data):  # pyright: ignore
            function = self._function(program)
            n_args += len(function.function_type.inputs)
            n_results += len(function.function_type.outputs)
        if len(self.inputs) != n_args:
            raise VerifyException(
                f"takes {len(self.inputs)} inputs, but its programs take {n_args} in all (each its own, in grid order)"
            )
        if len(self.results_) != n_results:
            raise VerifyException(
                f"has {len(self.results_)} results, but its programs return {n_results} in all (each its own, in grid order)"
            )
        if self.infeed is not None:
            if not self.infeed.data:
                raise VerifyException("infeed, when given, must name at least one function")
            for name in self.infeed.data:
                outputs = self._function(name).function_type.outputs.data  # pyright: ignore
                if len(outputs) != 1 or not isinstance(outputs[0], TensorType):
                    raise VerifyException(f"infeed function {name} must return one tensor")

    def _function(self, name: SymbolRefAttr) -> func.FuncOp:
        """The `func.func` of the enclosing module `name` refers to."""
        found = SymbolTable.lookup_symbol(self, name)
        if not isinstance(found, func.FuncOp):
            raise VerifyException(f"function {name} not found in the module")
        return found


INTERPRETER = Dialect("interpreter", [RunParallelOp], [])

__all__ = ["INTERPRETER", "RunParallelOp"]
