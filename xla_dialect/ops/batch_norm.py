"""Batch normalization ops (spec: BatchNormTraining, BatchNormInference, BatchNormGrad).

Each normalizes `operand` per feature along `feature_index`; the per-feature
arrays (`scale`, `offset`, `mean`, `variance`) are 1-D of the feature size. As in
StableHLO they are written generically,
`"xla.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-03 : f32, feature_index = 3 : i64}`,
and the training and grad ops return their three arrays as three results rather
than as a tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from xla_dialect.diagnostics import require
from xla_dialect.ops.base import XlaOp, check_element_class, check_same_element_type, check_tensor
from xla_dialect.types import (
    dims_compatible,
    element_type_of,
    format_shape,
    format_type,
    shape_of,
    shapes_compatible,
    tensor,
)


class BatchNormOp(XlaOp):
    """Shared properties and checks of the three batch-norm ops."""

    epsilon = prop_def(FloatAttr)
    feature_index = prop_def(IntegerAttr)

    SPEC_SECTION: ClassVar[str] = ""

    @staticmethod
    def _props(epsilon: float, feature_index: int) -> dict[str, Attribute]:
        return {"epsilon": FloatAttr(epsilon, f32), "feature_index": IntegerAttr(feature_index, i64)}

    @staticmethod
    def feature_type(operand: Attribute, feature_index: int) -> Attribute:
        shape = shape_of(operand)
        require(
            0 <= feature_index < len(shape),
            f"feature_index {feature_index} is out of range [0, {len(shape)}) of operand "
            f"{format_type(operand)}",
        )
        return tensor([shape[feature_index]], element_type_of(operand))

    def _check_common(self, operand: Attribute, features: Sequence[tuple[str, Attribute]]) -> Attribute:
        """Checks the attributes and operands; returns the 1-D feature type."""
        require(
            isinstance(self.epsilon.type, type(f32)),
            f"epsilon must be an f32 float, got {format_type(self.epsilon.type)}",
        )
        require(
            isinstance(self.feature_index.type, IntegerType)
            and self.feature_index.type.width.data == 64,
            "feature_index must be an i64 integer",
        )
        check_tensor("operand", operand)
        for name, t in features:
            check_tensor(name, t)
        check_element_class("operand", operand, "float")
        check_same_element_type(
            ["operand", *(n for n, _ in features)], [operand, *(t for _, t in features)]
        )
        require(
            len(shape_of(operand)) >= 1,
            f"operand {format_type(operand)} must have rank at least 1",
        )
        feature = self.feature_type(operand, int(self.feature_index.value.data))
        size = shape_of(feature)[0]
        for name, t in features:
            shape = shape_of(t)
            require(len(shape) == 1, f"{name} must be 1-D, got shape {format_shape(shape)}")
            require(
                dims_compatible(shape[0], size),
                f"{name} size {shape[0]} must equal the feature dimension size {size} "
                f"(operand dimension {self.feature_index.value.data})",
            )
        return feature


@irdl_op_definition
class BatchNormTrainingOp(BatchNormOp):
    """Normalizes with the batch's own mean and variance, returning them too
    (spec: BatchNormTraining)."""

    name = "xla.batch_norm_training"
    SPEC_SECTION: ClassVar[str] = "BatchNormTraining"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    output = result_def(TensorType)
    batch_mean = result_def(TensorType)
    batch_var = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self, operand: SSAValue, scale: SSAValue, offset: SSAValue, epsilon: float, feature_index: int
    ):
        feature = self.feature_type(operand.type, feature_index)
        super().__init__(
            operands=[operand, scale, offset],
            result_types=[operand.type, feature, feature],
            properties=self._props(epsilon, feature_index),
        )

    def verify_(self) -> None:
        feature = self._check_common(
            self.operand.type, [("scale", self.scale.type), ("offset", self.offset.type)]
        )
        self.check_result_types([self.operand.type, feature, feature])


@irdl_op_definition
class BatchNormInferenceOp(BatchNormOp):
    """Normalizes with given mean and variance estimates (spec: BatchNormInference)."""

    name = "xla.batch_norm_inference"
    SPEC_SECTION: ClassVar[str] = "BatchNormInference"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        scale: SSAValue,
        offset: SSAValue,
        mean: SSAValue,
        variance: SSAValue,
        epsilon: float,
        feature_index: int,
    ):
        super().__init__(
            operands=[operand, scale, offset, mean, variance],
            result_types=[operand.type],
            properties=self._props(epsilon, feature_index),
        )

    def verify_(self) -> None:
        self._check_common(
            self.operand.type,
            [
                ("scale", self.scale.type),
                ("offset", self.offset.type),
                ("mean", self.mean.type),
                ("variance", self.variance.type),
            ],
        )
        self.check_result_types([self.operand.type])


@irdl_op_definition
class BatchNormGradOp(BatchNormOp):
    """Gradients of batch normalization w.r.t. operand, scale and offset (spec: BatchNormGrad)."""

    name = "xla.batch_norm_grad"
    SPEC_SECTION: ClassVar[str] = "BatchNormGrad"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    grad_output = operand_def(TensorType)
    grad_operand = result_def(TensorType)
    grad_scale = result_def(TensorType)
    grad_offset = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue,
        scale: SSAValue,
        mean: SSAValue,
        variance: SSAValue,
        grad_output: SSAValue,
        epsilon: float,
        feature_index: int,
    ):
        feature = self.feature_type(operand.type, feature_index)
        super().__init__(
            operands=[operand, scale, mean, variance, grad_output],
            result_types=[operand.type, feature, feature],
            properties=self._props(epsilon, feature_index),
        )

    def verify_(self) -> None:
        feature = self._check_common(
            self.operand.type,
            [
                ("scale", self.scale.type),
                ("mean", self.mean.type),
                ("variance", self.variance.type),
            ],
        )
        check_tensor("grad_output", self.grad_output.type)
        check_same_element_type(["operand", "grad_output"], [self.operand.type, self.grad_output.type])
        require(
            shapes_compatible(shape_of(self.grad_output.type), shape_of(self.operand.type)),
            f"grad_output shape {format_shape(shape_of(self.grad_output.type))} must equal "
            f"operand shape {format_shape(shape_of(self.operand.type))}",
        )
        self.check_result_types([self.operand.type, feature, feature])


OPS: tuple[type[XlaOp], ...] = (BatchNormTrainingOp, BatchNormInferenceOp, BatchNormGradOp)
