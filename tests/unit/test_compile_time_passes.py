"""The passes rewritten for compile time give xDSL's results: on JAX exports lowered
to the step before each, the project's `lower-affine` prints the same module as xDSL's
`lower-affine`, and `apply_once` the same as xDSL's walker without `apply_recursively`;
`outline-loop-nests` calling the kernel made before for a nest that would be identical
to it gives, after `merge-identical-functions`, the module of outlining every nest."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.transforms.lower_affine import LowerAffinePass as XdslLowerAffinePass

from lowering.lower_affine import LowerAffinePass
from lowering.parallel.linalg_to_parallel_loops import GenericToParallelLoops
from lowering.pattern_dispatch import apply_once
from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect.context import make_context, parse_module
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

HERE = Path(__file__).resolve().parents[2] / "examples" / "jax_exports"
PROGRAMS = ["conv_block", "rng", "linalg_f32"]


def _lowered_to(name: str, step: str) -> tuple[ModuleOp, Context]:
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module((HERE / f"{name}.mlir").read_text(), f"{name}.mlir", ctx)
    run_passes(module, LOWER_TO_LLVM[: LOWER_TO_LLVM.index(step)], ctx)
    return module, ctx


@pytest.mark.parametrize("name", PROGRAMS)
def test_lower_affine_prints_what_xdsls_prints(name: str) -> None:
    module, ctx = _lowered_to(name, "lower-affine")
    theirs = module.clone()
    assert "affine." in str(module)
    LowerAffinePass().apply(ctx, module)
    XdslLowerAffinePass().apply(ctx, theirs)
    assert "affine.load" not in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize("name", PROGRAMS)
def test_apply_once_is_one_walker_pass(name: str) -> None:
    module, _ = _lowered_to(name, "convert-linalg-to-parallel-loops")
    theirs = module.clone()
    assert apply_once(module, [GenericToParallelLoops()])
    PatternRewriteWalker(GenericToParallelLoops(), apply_recursively=False).rewrite_module(theirs)
    assert "scf.parallel" in str(module)
    assert str(module) == str(theirs)


@pytest.mark.parametrize(("name", "repeats"), [("gpt_forward", True), ("mlp", True), ("conv_block", False), ("vmapped", False)])
def test_outline_reusing_kernels_then_merge_prints_what_outlining_each_prints(name: str, repeats: bool) -> None:
    module, ctx = _lowered_to(name, "outline-loop-nests")
    theirs = module.clone()
    run_passes(module, ["outline-loop-nests"], ctx)
    reused = str(module).count("func.func private")
    run_passes(module, ["merge-identical-functions"], ctx)
    run_passes(theirs, ["outline-loop-nests"], ctx, options={"outline-loop-nests": {"merge_identical": False}})
    each = str(theirs).count("func.func private")
    run_passes(theirs, ["merge-identical-functions"], ctx)
    assert (reused < each) == repeats  # kernels of repeated layers were reused, not made
    assert str(module) == str(theirs)
