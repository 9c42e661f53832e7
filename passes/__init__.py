"""Passes over the `xla` dialect: canonicalization, folding and optimizations.

`get_all_passes()` maps each pass name to a factory that imports it on demand, so
the drivers start fast; it includes every xDSL pass and the lowering's passes.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _decompose_batch_norm() -> type[ModulePass]:
    from passes.decompose_batch_norm import DecomposeBatchNormPass

    return DecomposeBatchNormPass


def _decompose_chlo() -> type[ModulePass]:
    from passes.decompose_chlo import DecomposeChloPass

    return DecomposeChloPass


def _expose_checks() -> type[ModulePass]:
    from passes.expose_checks import ExposeChecksPass

    return ExposeChecksPass


def _inline_run_parallel() -> type[ModulePass]:
    from passes.inline_run_parallel import InlineRunParallelPass

    return InlineRunParallelPass


DIALECT_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "xla-decompose-batch-norm": _decompose_batch_norm,
    "xla-decompose-chlo": _decompose_chlo,
    "xla-expose-checks": _expose_checks,
    "xla-inline-run-parallel": _inline_run_parallel,
}
"""Passes over the `xla` dialect itself, by name."""


def project_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The passes this project defines (dialect passes and lowering)."""
    from lowering import lowering_passes

    passes: dict[str, Callable[[], type[ModulePass]]] = dict(DIALECT_PASSES)
    passes.update(lowering_passes())
    return passes


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    from xdsl.transforms import get_all_passes as xdsl_passes

    passes = dict(xdsl_passes())
    passes.update(project_passes())
    return passes
