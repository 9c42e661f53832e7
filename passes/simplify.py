"""`xla-simplify`: canonicalization (the patterns of `passes/canonicalization/`),
common-subexpression elimination and dead-code elimination, repeated until the
module stops changing (at most `max_iterations` rounds).

xDSL's `cse` already reaches into the regions of `xla` ops (`while`, `if`, `case`,
`reduce`, ...: none is isolated from above), so values computed outside are reused
inside; `func.func` bodies stay separate scopes.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

import passes.canonicalization  # noqa: F401 (registers the patterns)


def _fingerprint(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


@dataclass(frozen=True)
class SimplifyPass(ModulePass):
    """canonicalize, cse and dce to a fixed point."""

    name = "xla-simplify"

    max_iterations: int = 8
    """Rounds at most (each round runs all three passes)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        steps = (CanonicalizePass(), CommonSubexpressionElimination(), DeadCodeElimination())
        before = _fingerprint(op)
        for _ in range(self.max_iterations):
            for step in steps:
                step.apply(ctx, op)
            after = _fingerprint(op)
            if after == before:
                return
            before = after
