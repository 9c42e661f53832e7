"""Running passes by name, and the named pipelines.

`LOWER_TO_LLVM` (every step from `xla` to the llvm dialect) and `PIPELINES` (a
pipeline name → its pass list) are defined with the registry
(`xla_tools/registry.py`) and re-exported here; `xla-opt` expands a pipeline's
name in `-p` (`expand_pipeline_spec`) so that `--print-ir-after-all` shows (and
the driver verifies) every stage. `run_passes(module, names)` applies passes of the
registry (`xla_tools/registry.py`) by name, `lower_to_llvm(module)` runs the
pipeline from Python and `lower_and_compile` lowers to llvm and JIT-compiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from xla_dialect.context import make_context
from xla_tools.registry import LOWER_TO_LLVM, PIPELINES, LowerToLLVMPass, get_all_passes

if TYPE_CHECKING:
    from runtime.jit import JitModule
    from runtime.timing import TimingReport

def expand_pipeline_spec(spec: str) -> str:
    """Replace each named pipeline in a `-p` spec by its passes."""
    items = []
    depth = 0
    current = ""
    for ch in spec:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += ch
    items.append(current)
    out = [",".join(PIPELINES[i.strip()]) if i.strip() in PIPELINES else i for i in items]
    return ",".join(out)


def run_passes(
    module: ModuleOp,
    names: tuple[str, ...] | list[str],
    ctx: Context | None = None,
    *,
    timing: TimingReport | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Apply the named passes (project and xDSL ones) in order; `timing` gets the
    wall and CPU time of each; `options[name]` are keyword options of that pass."""
    if ctx is None:
        from lowering.to_llvm.common import register_llvm_extensions  # the llvm dialect: when used

        ctx = make_context()
        register_llvm_extensions(ctx)
    available = get_all_passes()
    for name in names:
        if timing is None:
            available[name]()(**(options or {}).get(name, {})).apply(ctx, module)
        else:
            with timing.phase(name):
                available[name]()(**(options or {}).get(name, {})).apply(ctx, module)


def lower_to_llvm(
    module: ModuleOp,
    ctx: Context | None = None,
    *,
    timing: TimingReport | None = None,
    reassociate: bool = True,
) -> None:
    """Lower a module of `xla` functions to the llvm dialect, in place.
    `reassociate=False`: reductions keep the spec's order (bitwise reproducible)."""
    options = (
        {}
        if reassociate
        else {
            "linalg-reassociate-reductions": {"reassociate": False},
            "linalg-vectorize-reductions": {"reassociate": False},
            "linalg-split-reductions": {"max_parts": 1},
        }
    )
    run_passes(module, LOWER_TO_LLVM, ctx, timing=timing, options=options)


def lower_and_compile(module: ModuleOp, passes: Sequence[str] | None = None, *, opt_level: int = 3) -> JitModule:
    """Run the lowering passes (default: scf→cf then everything → llvm) and compile."""
    from runtime.jit import compile_llvm_module  # the JIT loads llvmlite: only when used

    run_passes(module, list(passes) if passes is not None else ["lower-scf-to-cf", "convert-to-llvm"])
    module.verify()
    return compile_llvm_module(module, opt_level=opt_level)


__all__ = [
    "LOWER_TO_LLVM",
    "PIPELINES",
    "LowerToLLVMPass",
    "expand_pipeline_spec",
    "lower_and_compile",
    "lower_to_llvm",
    "run_passes",
]
