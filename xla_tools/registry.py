"""The one registry of passes: every xDSL pass and the project's, by name.

Each name maps to a small factory that imports its pass on demand (as xDSL's
`get_all_passes`), so the drivers start fast however many passes there are.
The named pipelines are here too (`PIPELINES`; `LOWER_TO_LLVM`, every step
from `xla` to the llvm dialect), each also registered as one pass;
`xla_tools/pipelines.py` runs passes by name and `xla-opt` expands a pipeline
into its steps.

The registry sits on the tools' floor: it imports the dialect's passes
(`passes/`), the lowering (`lowering/`) and the pipelines; nothing below it
imports it. Importing `passes` registers the `xla` canonicalization patterns,
so xDSL's `canonicalize` handed out here sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import passes  # noqa: F401 (registers the xla canonicalization patterns for `canonicalize`)

PassFactory = Callable[[], type[ModulePass]]

# ---------------------------------------------------------------------------
# Transformations of `xla` (passes/)
# ---------------------------------------------------------------------------


def _decompose_batch_norm() -> type[ModulePass]:
    from passes.decompose_batch_norm import DecomposeBatchNormPass

    return DecomposeBatchNormPass


def _decompose_chlo() -> type[ModulePass]:
    from passes.decompose_chlo import DecomposeChloPass

    return DecomposeChloPass


def _decompose_lapack() -> type[ModulePass]:
    from passes.lapack import DecomposeLapackPass

    return DecomposeLapackPass


def _drop_shardings() -> type[ModulePass]:
    from passes.drop_shardings import DropShardingsPass

    return DropShardingsPass


def _expose_checks() -> type[ModulePass]:
    from passes.expose_checks import ExposeChecksPass

    return ExposeChecksPass


def _simplify() -> type[ModulePass]:
    from passes.simplify import SimplifyPass

    return SimplifyPass


def _outline_repeats() -> type[ModulePass]:
    from passes.outline_repeats import OutlineRepeatsPass

    return OutlineRepeatsPass


def _inline_run_parallel() -> type[ModulePass]:
    from passes.inline_run_parallel import InlineRunParallelPass

    return InlineRunParallelPass


DIALECT_PASSES: dict[str, PassFactory] = {
    "xla-decompose-batch-norm": _decompose_batch_norm,
    "xla-decompose-chlo": _decompose_chlo,
    "xla-decompose-lapack": _decompose_lapack,
    "xla-drop-shardings": _drop_shardings,
    "xla-expose-checks": _expose_checks,
    "xla-inline-run-parallel": _inline_run_parallel,
    "xla-outline-repeats": _outline_repeats,
    "xla-simplify": _simplify,
}
"""Passes over the `xla` dialect itself, by name."""

# ---------------------------------------------------------------------------
# Conversions out of `xla` and code generation (lowering/), in pipeline order
# ---------------------------------------------------------------------------


def _flatten_tuples() -> type[ModulePass]:
    from lowering.flatten_tuples import FlattenTuplesPass

    return FlattenTuplesPass


def _xla_to_linalg() -> type[ModulePass]:
    from lowering.xla_to_linalg import ConvertXlaToLinalgPass

    return ConvertXlaToLinalgPass


def _fuse() -> type[ModulePass]:
    from lowering.codegen.linalg_fuse_elementwise import LinalgFuseElementwisePass

    return LinalgFuseElementwisePass


def _fold_broadcasts() -> type[ModulePass]:
    from lowering.codegen.fold_broadcasts import LinalgFoldBroadcastsPass

    return LinalgFoldBroadcastsPass


def _fuse_reductions() -> type[ModulePass]:
    from lowering.codegen.fuse_reductions import LinalgFuseReductionsPass

    return LinalgFuseReductionsPass


def _forward_tile_copies() -> type[ModulePass]:
    from lowering.codegen.forward_tile_copies import MemrefForwardTileCopiesPass

    return MemrefForwardTileCopiesPass


def _bufferize() -> type[ModulePass]:
    from lowering.bufferize import BufferizePass

    return BufferizePass


def _pack_contractions() -> type[ModulePass]:
    from lowering.codegen.pack_contractions import LinalgPackContractionsPass

    return LinalgPackContractionsPass


def _vectorize_contractions() -> type[ModulePass]:
    from lowering.codegen.vectorize_contractions import LinalgVectorizeContractionsPass

    return LinalgVectorizeContractionsPass


def _vector() -> type[ModulePass]:
    from lowering.to_llvm.vector import ConvertVectorToLLVMPass

    return ConvertVectorToLLVMPass


def _interchange() -> type[ModulePass]:
    from lowering.codegen.linalg_interchange import LinalgInterchangePass

    return LinalgInterchangePass


def _vectorize_reductions() -> type[ModulePass]:
    from lowering.codegen.vectorize_reductions import LinalgVectorizeReductionsPass

    return LinalgVectorizeReductionsPass


def _stream_elementwise() -> type[ModulePass]:
    from lowering.codegen.stream_elementwise import LinalgStreamElementwisePass

    return LinalgStreamElementwisePass


def _stream_copies() -> type[ModulePass]:
    from lowering.codegen.stream_copies import LinalgStreamCopiesPass

    return LinalgStreamCopiesPass


def _tile_transposes() -> type[ModulePass]:
    from lowering.codegen.tile_transposes import LinalgTileTransposesPass

    return LinalgTileTransposesPass


def _hoist_allocations() -> type[ModulePass]:
    from lowering.codegen.hoist_allocations import HoistLoopAllocationsPass

    return HoistLoopAllocationsPass


def _reassociate() -> type[ModulePass]:
    from lowering.codegen.linalg_reassociate import LinalgReassociateReductionsPass

    return LinalgReassociateReductionsPass


def _complex_to_standard() -> type[ModulePass]:
    from lowering.complex_to_standard import ConvertComplexToStandardPass

    return ConvertComplexToStandardPass


def _emulate_floats() -> type[ModulePass]:
    from lowering.emulate_floats import EmulateUnsupportedFloatsPass

    return EmulateUnsupportedFloatsPass


def _math_approximation() -> type[ModulePass]:
    from lowering.math_approximation import MathPolynomialApproximationPass

    return MathPolynomialApproximationPass


def _linalg_to_parallel_loops() -> type[ModulePass]:
    from lowering.parallel.linalg_to_parallel_loops import ConvertLinalgToParallelLoopsPass

    return ConvertLinalgToParallelLoopsPass


def _split_reductions() -> type[ModulePass]:
    from lowering.parallel.split_reductions import LinalgSplitReductionsPass

    return LinalgSplitReductionsPass


def _fuse_parallel_loops() -> type[ModulePass]:
    from lowering.parallel.fuse_parallel_loops import FuseParallelLoopsPass

    return FuseParallelLoopsPass


def _parallel_loops_to_calls() -> type[ModulePass]:
    from lowering.parallel.parallel_loops_to_calls import ConvertParallelLoopsToCallsPass

    return ConvertParallelLoopsToCallsPass


def _outline_linalg_kernels() -> type[ModulePass]:
    from lowering.outline_linalg_kernels import OutlineLinalgKernelsPass

    return OutlineLinalgKernelsPass


def _outline_loop_nests() -> type[ModulePass]:
    from lowering.outline_loop_nests import OutlineLoopNestsPass

    return OutlineLoopNestsPass


def _split_large_functions() -> type[ModulePass]:
    from lowering.split_large_functions import SplitLargeFunctionsPass

    return SplitLargeFunctionsPass


def _align_vector_stacks() -> type[ModulePass]:
    from lowering.stack_alignment import AlignVectorStacksPass

    return AlignVectorStacksPass


def _expand_strided_copies() -> type[ModulePass]:
    from lowering.expand_strided_copies import ExpandStridedCopiesPass

    return ExpandStridedCopiesPass


def _unique_constants() -> type[ModulePass]:
    from lowering.unique_constants import UniqueConstantsPass

    return UniqueConstantsPass


def _reuse_freed_buffers() -> type[ModulePass]:
    from lowering.reuse_buffers import ReuseFreedBuffersPass

    return ReuseFreedBuffersPass


def _optnone_glue() -> type[ModulePass]:
    from lowering.glue_functions import OptnoneGluePass

    return OptnoneGluePass


def _merge_identical_functions() -> type[ModulePass]:
    from lowering.merge_identical_functions import MergeIdenticalFunctionsPass

    return MergeIdenticalFunctionsPass


def _roll_outer_loops() -> type[ModulePass]:
    from lowering.roll_outer_loops import RollOuterLoopsPass

    return RollOuterLoopsPass


def _optsize_small_kernels() -> type[ModulePass]:
    from lowering.small_kernels import OptsizeSmallKernelsPass

    return OptsizeSmallKernelsPass


def _scf_to_cf() -> type[ModulePass]:
    from lowering.scf_to_cf import LowerScfToCfPass

    return LowerScfToCfPass


def _lower_affine() -> type[ModulePass]:
    from lowering.lower_affine import LowerAffinePass

    return LowerAffinePass


def _arith() -> type[ModulePass]:
    from lowering.to_llvm.arith import ConvertArithToLLVMPass

    return ConvertArithToLLVMPass


def _math() -> type[ModulePass]:
    from lowering.to_llvm.math import ConvertMathToLLVMPass

    return ConvertMathToLLVMPass


def _cf() -> type[ModulePass]:
    from lowering.to_llvm.cf import ConvertCfToLLVMPass

    return ConvertCfToLLVMPass


def _func() -> type[ModulePass]:
    from lowering.to_llvm.func import ConvertFuncToLLVMPass

    return ConvertFuncToLLVMPass


def _memref() -> type[ModulePass]:
    from lowering.to_llvm.memref import ConvertMemrefToLLVMPass

    return ConvertMemrefToLLVMPass


def _index() -> type[ModulePass]:
    from lowering.to_llvm.index import ConvertIndexToLLVMPass

    return ConvertIndexToLLVMPass


def _complex() -> type[ModulePass]:
    from lowering.to_llvm.complex import ConvertComplexToLLVMPass

    return ConvertComplexToLLVMPass


def _all() -> type[ModulePass]:
    from lowering.to_llvm import ConvertToLLVMPass

    return ConvertToLLVMPass


LOWERING_PASSES: dict[str, PassFactory] = {
    "xla-flatten-tuples": _flatten_tuples,
    "convert-xla-to-linalg": _xla_to_linalg,
    "linalg-fold-broadcasts": _fold_broadcasts,
    "linalg-fuse-elementwise": _fuse,
    "linalg-fuse-reductions": _fuse_reductions,
    "bufferize": _bufferize,
    "memref-forward-tile-copies": _forward_tile_copies,
    "linalg-pack-contractions": _pack_contractions,
    "linalg-vectorize-contractions": _vectorize_contractions,
    "linalg-interchange": _interchange,
    "linalg-reassociate-reductions": _reassociate,
    "linalg-vectorize-reductions": _vectorize_reductions,
    "linalg-stream-copies": _stream_copies,
    "linalg-stream-elementwise": _stream_elementwise,
    "memref-hoist-loop-allocations": _hoist_allocations,
    "linalg-tile-transposes": _tile_transposes,
    "linalg-split-reductions": _split_reductions,
    "convert-linalg-to-parallel-loops": _linalg_to_parallel_loops,
    "convert-complex-to-standard": _complex_to_standard,
    "arith-emulate-unsupported-floats": _emulate_floats,
    "math-polynomial-approximation": _math_approximation,
    "convert-parallel-loops-to-calls": _parallel_loops_to_calls,
    "scf-fuse-parallel-loops": _fuse_parallel_loops,
    "outline-linalg-kernels": _outline_linalg_kernels,
    "memref-expand-strided-copies": _expand_strided_copies,
    "memref-reuse-freed-buffers": _reuse_freed_buffers,
    "outline-loop-nests": _outline_loop_nests,
    "merge-identical-functions": _merge_identical_functions,
    "scf-roll-outer-loops": _roll_outer_loops,
    "func-optsize-small-kernels": _optsize_small_kernels,
    "lower-scf-to-cf": _scf_to_cf,
    "arith-unique-constants": _unique_constants,
    "lower-affine": _lower_affine,
    "convert-arith-to-llvm": _arith,
    "convert-math-to-llvm": _math,
    "convert-cf-to-llvm": _cf,
    "convert-func-to-llvm": _func,
    "convert-memref-to-llvm": _memref,
    "convert-index-to-llvm": _index,
    "convert-complex-to-llvm": _complex,
    "convert-vector-to-llvm": _vector,
    "convert-to-llvm": _all,
    "llvm-split-large-functions": _split_large_functions,
    "llvm-optnone-glue": _optnone_glue,
    "llvm-align-vector-stacks": _align_vector_stacks,
}
"""The lowering's passes, by name."""

# ---------------------------------------------------------------------------
# Named pipelines
# ---------------------------------------------------------------------------


LOWER_TO_LLVM: tuple[str, ...] = (
    "xla-drop-shardings",
    "xla-outline-repeats",
    "xla-decompose-chlo",
    "xla-decompose-batch-norm",
    "xla-decompose-lapack",
    "xla-simplify",
    "xla-flatten-tuples",
    "convert-xla-to-linalg",
    "linalg-fold-broadcasts",
    "linalg-fuse-elementwise",
    "linalg-fuse-reductions",
    "bufferize",
    "memref-forward-tile-copies",
    "outline-linalg-kernels",
    "linalg-generalize-named-ops",
    "linalg-pack-contractions",
    "linalg-vectorize-contractions",
    "linalg-interchange",
    "linalg-split-reductions",
    "linalg-reassociate-reductions",
    "linalg-vectorize-reductions",
    "linalg-stream-copies",
    "linalg-stream-elementwise",
    "linalg-tile-transposes",
    "convert-linalg-to-parallel-loops",
    "memref-hoist-loop-allocations",
    "scf-fuse-parallel-loops",
    "convert-linalg-to-loops",
    "lower-affine",
    "memref-expand-strided-copies",
    "memref-reuse-freed-buffers",
    "outline-loop-nests",
    "merge-identical-functions",
    "convert-complex-to-standard",
    "arith-emulate-unsupported-floats",
    "math-polynomial-approximation",
    "convert-parallel-loops-to-calls",
    "scf-roll-outer-loops",
    "func-optsize-small-kernels",
    "lower-scf-to-cf",
    "arith-unique-constants",
    "convert-to-llvm",
    "llvm-split-large-functions",
    "llvm-optnone-glue",
    "llvm-align-vector-stacks",
)

PIPELINES: dict[str, tuple[str, ...]] = {"lower-to-llvm": LOWER_TO_LLVM}
"""Each named pipeline: its passes, in order (`xla-opt` expands the name in `-p`)."""


def apply_passes(module: ModuleOp, names: Sequence[str], ctx: Context) -> None:
    """Apply the passes of this registry called `names` to `module`, in order
    (`xla_tools.pipelines.run_passes` adds a context and timing)."""
    available = get_all_passes()
    for name in names:
        available[name]()().apply(ctx, module)


@dataclass(frozen=True)
class LowerToLLVMPass(ModulePass):
    """xla → linalg → memref → loops → cf → llvm, in one pass."""

    name = "lower-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_passes(op, LOWER_TO_LLVM, ctx)


def _lower_to_llvm() -> type[ModulePass]:
    return LowerToLLVMPass


PIPELINE_PASSES: dict[str, PassFactory] = {"lower-to-llvm": _lower_to_llvm}
"""Each named pipeline as one pass."""


def project_passes() -> dict[str, PassFactory]:
    """The passes this project defines: over `xla`, the lowering's, the pipelines."""
    return {**DIALECT_PASSES, **LOWERING_PASSES, **PIPELINE_PASSES}


def get_all_passes() -> dict[str, PassFactory]:
    """Every pass by name: xDSL's and the project's (the project's win a clash)."""
    from xdsl.transforms import get_all_passes as xdsl_passes

    available = dict(xdsl_passes())
    available.update(project_passes())
    return available


__all__ = [
    "DIALECT_PASSES",
    "LOWERING_PASSES",
    "LOWER_TO_LLVM",
    "PIPELINES",
    "PIPELINE_PASSES",
    "LowerToLLVMPass",
    "PassFactory",
    "apply_passes",
    "get_all_passes",
    "project_passes",
]
