"""The call graph of a program must be acyclic, as XLA's is.

A recursive `func.call` compiles to a native call that never ends: with a tail
call, a loop without end; otherwise a stack overflow, which ends the process
(SIGSEGV). XLA's HLO has no recursion (its call graph is a DAG), nor does
anything JAX exports, so `convert-xla-to-linalg` reports the call that closes a
cycle, at its own line, instead of compiling it. The edges are `func.call`s and
the programs of `interpreter.run_parallel`.

A program of a grid (`interpreter.run_parallel` of several programs) must not
start a grid itself, directly or through calls: each replica would start its own
replicas, each on a thread. Both rules are checked before any op is converted
(the conversion replaces a grid by a call into the runtime).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Operation

from xla_dialect.diagnostics import LoweringError
from xla_dialect.interpreter import RunParallelOp


def _callees(fn: func.FuncOp) -> list[tuple[Operation, str]]:
    """(the op, the function it calls) for each call of `fn`, in order."""
    found: list[tuple[Operation, str]] = []
    for op in fn.walk():
        if isinstance(op, func.CallOp):
            found.append((op, op.callee.root_reference.data))
        elif isinstance(op, RunParallelOp):
            found.extend(_callees_of_grid(op))
    return found


def check_acyclic(module: ModuleOp) -> None:
    """Raise a `LoweringError` at the first call that closes a cycle of calls."""
    functions = {fn.sym_name.data: fn for fn in module.ops if isinstance(fn, func.FuncOp)}
    edges = {name: _callees(fn) for name, fn in functions.items() if fn.body.blocks}
    done: set[str] = set()
    for root, calls in edges.items():
        if root in done:
            continue
        path: list[str] = [root]
        on_path = {root}
        stack = [iter(calls)]
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                continue
            op, callee = step
            if callee in on_path:
                cycle = " -> ".join(f"@{name}" for name in [*path[path.index(callee) :], callee])
                raise LoweringError(
                    f"recursive call of @{callee} ({cycle}): an XLA program's call graph is acyclic, "
                    "and recursion is not compiled",
                    op,
                )
            if callee in done or callee not in edges:
                continue
            path.append(callee)
            on_path.add(callee)
            stack.append(iter(edges[callee]))


def check_grids(module: ModuleOp) -> None:
    """Raise a `LoweringError` at a grid one of whose programs starts a grid itself
    (the call graph is acyclic: `check_acyclic` first)."""
    functions = {fn.sym_name.data: fn for fn in module.ops if isinstance(fn, func.FuncOp)}
    starts: dict[str, bool] = {}

    def starts_grid(name: str) -> bool:
        if name not in starts:
            fn = functions.get(name)
            calls = _callees(fn) if fn is not None and fn.body.blocks else []
            starts[name] = any(isinstance(op, RunParallelOp) for op, _ in calls) or any(
                starts_grid(callee) for op, callee in calls if isinstance(op, func.CallOp)
            )
        return starts[name]

    for fn in functions.values():
        for op in fn.walk():
            if not isinstance(op, RunParallelOp) or sum(len(row.data) for row in op.programs.data) < 2:
                continue
            for _, program in _callees_of_grid(op):
                if starts_grid(program):
                    raise LoweringError(
                        f"interpreter.run_parallel: @{program} runs interpreter.run_parallel itself (directly "
                        "or through calls): a replica cannot start another grid of replicas",
                        op,
                    )


def _callees_of_grid(op: RunParallelOp) -> list[tuple[Operation, str]]:
    return [
        (op, program.root_reference.data)
        for row in op.programs.data
        for program in (row.data if isinstance(row, ArrayAttr) else ())
        if isinstance(program, SymbolRefAttr)
    ]


__all__ = ["check_acyclic", "check_grids"]
