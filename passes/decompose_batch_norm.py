"""`xla-decompose-batch-norm`: the three batch-norm ops as plain `xla` arithmetic.

`xla.batch_norm_training`, `xla.batch_norm_inference` and `xla.batch_norm_grad`
have no lowering of their own; this pass rewrites each into ops that
`convert-xla-to-linalg` already compiles, so it runs first in `lower-to-llvm`.
The rewrites follow the spec's formulas (sections BatchNormTraining,
BatchNormInference, BatchNormGrad), with `N` the number of elements per feature
(the product of every operand dimension except `feature_index`):

* moments: `mean = sum(x) / N`, `var = sum((x - mean)^2) / N` (biased);
* normalization: `y = (x - mean) * rsqrt(var + epsilon) * scale + offset`;
* gradients: `grad_offset = sum(dy)`, `grad_scale = sum(dy * (x - mean)) *
  rsqrt(var + epsilon)`, `c = sum(dy * (x - mean)) / (var + epsilon) / N`, and
  `grad_operand = scale * rsqrt(var + epsilon) * (dy - sum(dy) / N - c * (x - mean))`.

Sums are `xla.reduce` with an `xla.add` reducer over all dimensions but the
feature dimension; 1-D per-feature values reach the operand's shape through
`xla.broadcast_in_dim` on `feature_index`. Everything is computed in the operand's
element type (f16, bf16, f32 or f64): `epsilon` (an f32 attribute) and `N` become
constants of that type. The training and grad ops have three results rather than a
tuple, so each result is replaced directly; no tuple ops are needed. Dynamic
dimensions (an unknown `N`) and other float types are reported as `LoweringError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.batch_norm import (
    BatchNormGradOp,
    BatchNormInferenceOp,
    BatchNormOp,
    BatchNormTrainingOp,
)
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.elementwise import AddOp, DivideOp, MultiplyOp, RsqrtOp, SubtractOp
from xla_dialect.ops.reduction import ReduceOp
from xla_dialect.ops.shape import BroadcastInDimOp
from xla_dialect.types import element_type_of, format_type, is_dynamic, shape_of, tensor

SUPPORTED_ELEMENTS = (Float16Type, BFloat16Type, Float32Type, Float64Type)
"""Element types whose constants and arithmetic the pipeline compiles."""


class _Builder:
    """Builds the decomposition of one batch-norm op before it, in its element type.

    Collects the new ops in order so the pattern can insert them at once."""

    def __init__(self, op: BatchNormOp, operand: SSAValue):
        self.op = op
        self.ops: list[Operation] = []
        self.shape: tuple[int, ...] = shape_of(operand.type)
        self.element: Attribute = element_type_of(operand.type)
        self.feature_index: int = int(op.feature_index.value.data)
        self.reduce_dims: list[int] = [d for d in range(len(self.shape)) if d != self.feature_index]
        if not isinstance(self.element, SUPPORTED_ELEMENTS):
            raise LoweringError(
                f"{op.name}: element type {format_type(self.element)} is not supported "
                "(f16, bf16, f32 or f64)",
                op,
            )
        if any(is_dynamic(s) for s in self.shape):
            raise LoweringError(
                f"{op.name}: operand {format_type(operand.type)} has dynamic dimensions; "
                "the element count per feature must be static",
                op,
            )
        self.features: int = self.shape[self.feature_index]
        self._zero: SSAValue | None = None

    def add_op(self, new: Operation) -> SSAValue:
        self.ops.append(new)
        return new.results[0]

    def feature_constant(self, value: float) -> SSAValue:
        """A 1-D splat constant of the feature size (`N`, `epsilon`)."""
        return self.add_op(ConstantOp.from_list([value], tensor([self.features], self.element)))

    def count(self) -> SSAValue:
        """`N`, the elements summed per feature, as a float constant."""
        n = 1
        for d in self.reduce_dims:
            n *= self.shape[d]
        return self.feature_constant(float(n))

    def epsilon(self) -> SSAValue:
        return self.feature_constant(float(self.op.epsilon.value.data))

    def sum(self, value: SSAValue) -> SSAValue:
        """Sum over every dimension but the feature dimension: a 1-D feature array."""
        if self._zero is None:
            self._zero = self.add_op(ConstantOp.from_list([0.0], tensor((), self.element)))
        reduce = ReduceOp([value], [self._zero], self.reduce_dims, lambda a, b: AddOp(a, b).result)
        return self.add_op(reduce)

    def broadcast(self, feature_value: SSAValue) -> SSAValue:
        """A 1-D feature array spread over the operand's shape."""
        return self.add_op(BroadcastInDimOp(feature_value, self.shape, [self.feature_index]))

    def add(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add_op(AddOp(lhs, rhs))

    def sub(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add_op(SubtractOp(lhs, rhs))

    def mul(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add_op(MultiplyOp(lhs, rhs))

    def div(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.add_op(DivideOp(lhs, rhs))

    def rsqrt(self, value: SSAValue) -> SSAValue:
        return self.add_op(RsqrtOp(value))

    def center(self, x: SSAValue, mean: SSAValue) -> SSAValue:
        """`x - mean`, the mean broadcast along the feature dimension."""
        return self.sub(x, self.broadcast(mean))

    def normalize(
        self, centered: SSAValue, scale: SSAValue, offset: SSAValue, variance: SSAValue
    ) -> SSAValue:
        """`(x - mean) * rsqrt(variance + epsilon) * scale + offset`."""
        inv_std = self.rsqrt(self.add(variance, self.epsilon()))
        normalized = self.mul(centered, self.broadcast(inv_std))
        scaled = self.mul(normalized, self.broadcast(scale))
        return self.add(scaled, self.broadcast(offset))

    def replace(self, rewriter: PatternRewriter, values: Sequence[SSAValue]) -> None:
        rewriter.replace(self.op, self.ops, list(values))


class DecomposeBatchNormTraining(RewritePattern):
    """Batch moments, then the normalization; returns (output, mean, variance)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchNormTrainingOp, rewriter: PatternRewriter) -> None:
        b = _Builder(op, op.operand)
        n = b.count()
        mean = b.div(b.sum(op.operand), n)
        centered = b.center(op.operand, mean)
        variance = b.div(b.sum(b.mul(centered, centered)), n)
        output = b.normalize(centered, op.scale, op.offset, variance)
        b.replace(rewriter, [output, mean, variance])


class DecomposeBatchNormInference(RewritePattern):
    """The normalization with the given mean and variance."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchNormInferenceOp, rewriter: PatternRewriter) -> None:
        b = _Builder(op, op.operand)
        centered = b.center(op.operand, op.mean)
        output = b.normalize(centered, op.scale, op.offset, op.variance)
        b.replace(rewriter, [output])


class DecomposeBatchNormGrad(RewritePattern):
    """The spec's three gradients; returns (grad_operand, grad_scale, grad_offset)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchNormGradOp, rewriter: PatternRewriter) -> None:
        b = _Builder(op, op.operand)
        dy = op.grad_output
        n = b.count()
        centered = b.center(op.operand, op.mean)
        var_eps = b.add(op.variance, b.epsilon())
        inv_std = b.rsqrt(var_eps)
        grad_offset = b.sum(dy)
        sum_dy_centered = b.sum(b.mul(dy, centered))
        grad_scale = b.mul(sum_dy_centered, inv_std)
        c = b.div(b.div(sum_dy_centered, var_eps), n)
        mean_dy = b.div(grad_offset, n)
        inner = b.sub(b.sub(dy, b.broadcast(mean_dy)), b.mul(b.broadcast(c), centered))
        grad_operand = b.mul(b.broadcast(b.mul(op.scale, inv_std)), inner)
        b.replace(rewriter, [grad_operand, grad_scale, grad_offset])


@dataclass(frozen=True)
class DecomposeBatchNormPass(ModulePass):
    """Rewrites every batch-norm op into reduce/broadcast/element-wise `xla` ops."""

    name = "xla-decompose-batch-norm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    DecomposeBatchNormTraining(),
                    DecomposeBatchNormInference(),
                    DecomposeBatchNormGrad(),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)


__all__ = [
    "DecomposeBatchNormGrad",
    "DecomposeBatchNormInference",
    "DecomposeBatchNormPass",
    "DecomposeBatchNormTraining",
]
