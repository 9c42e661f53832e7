"""Builders and type inference of the contraction, linalg and batch-norm ops."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ComplexType, TensorType, f32, f64, i8, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from xla_dialect.attributes import ConvDimensionNumbersAttr, Transpose
from xla_dialect.diagnostics import XlaVerifyError
from xla_dialect.ops.batch_norm import BatchNormGradOp, BatchNormInferenceOp, BatchNormTrainingOp
from xla_dialect.ops.contraction import DotGeneralOp, DotOp
from xla_dialect.ops.convolution import ConvolutionOp, conv_with_padding_mode, padding_for_mode
from xla_dialect.ops.linalg import CholeskyOp, FftOp, TriangularSolveOp
from xla_dialect.syntax import ints_of


def value(shape: list[int], element: Attribute = f32) -> SSAValue:
    return create_ssa_value(TensorType(element, shape))


def t(shape: list[int], element: Attribute = f32) -> TensorType[Attribute]:
    return TensorType(element, shape)


def test_dot_infers_all_rank_combinations() -> None:
    assert DotOp(value([3]), value([3])).result.type == t([])
    assert DotOp(value([2, 3]), value([3])).result.type == t([2])
    assert DotOp(value([2, 3]), value([3, 4])).result.type == t([2, 4])
    op = DotOp(value([2, 3], i8), value([3, 4], i8), ["DEFAULT", "HIGH"], result_element_type=i32)
    assert op.result.type == t([2, 4], i32)
    op.verify()


def test_dot_rejects_mismatched_contraction() -> None:
    with pytest.raises(XlaVerifyError, match="contracting dimension sizes differ"):
        DotOp(value([2, 3]), value([4, 5]))


def test_dot_general_infers_batch_then_free_dims() -> None:
    op = DotGeneralOp(value([2, 3, 4]), value([2, 4, 5]), [2], [1], [0], [0])
    assert op.result.type == t([2, 3, 5])
    op.verify()
    outer = DotGeneralOp(value([2]), value([3]), [], [])
    assert outer.result.type == t([2, 3])


def test_dot_general_verify_catches_bad_result_kind() -> None:
    op = DotGeneralOp(value([4]), value([4]), [0], [0], result_element_type=i32)
    with pytest.raises(VerifyException, match="must be floating-point"):
        op.verify()


def test_dot_general_rejects_overlapping_dims() -> None:
    with pytest.raises(XlaVerifyError, match="share dimensions"):
        DotGeneralOp(value([2, 3]), value([2, 3]), [0], [1], [0], [0])


def test_convolution_default_layout_and_groups() -> None:
    op = ConvolutionOp(value([2, 3, 5, 5]), value([4, 3, 2, 2]))
    assert op.result.type == t([2, 4, 4, 4])
    op.verify()
    dn = ConvDimensionNumbersAttr.make(
        input_batch_dimension=0,
        input_feature_dimension=3,
        input_spatial_dimensions=[1, 2],
        kernel_input_feature_dimension=2,
        kernel_output_feature_dimension=3,
        kernel_spatial_dimensions=[0, 1],
        output_batch_dimension=0,
        output_feature_dimension=3,
        output_spatial_dimensions=[1, 2],
    )
    op = ConvolutionOp(
        value([1, 4, 4, 4]),
        value([3, 3, 2, 6]),
        dn,
        window_strides=[2, 2],
        padding=[[1, 1], [0, -1]],
        rhs_dilation=[1, 2],
        window_reversal=[False, True],
        feature_group_count=2,
    )
    # rows: 4 + 2 padded, window 3, stride 2 -> 2; cols: 4 - 1 padded, window 5 -> 0
    assert op.result.type == t([1, 2, 0, 6])
    op.verify()


def test_convolution_rejects_bad_feature_groups() -> None:
    with pytest.raises(XlaVerifyError, match="not divisible by feature_group_count"):
        ConvolutionOp(value([1, 3, 4, 4]), value([4, 1, 2, 2]), feature_group_count=2)


def test_padding_for_mode() -> None:
    assert padding_for_mode([5, 4], [3, 3], [2, 1], "SAME") == [(1, 1), (1, 1)]
    assert padding_for_mode([4], [2], [1], "SAME") == [(0, 1)]
    assert padding_for_mode([5, 4], [3, 3], [2, 1], "VALID") == [(0, 0), (0, 0)]
    with pytest.raises(ValueError):
        padding_for_mode([4], [2], [1], "FULL")


def test_conv_with_padding_mode_same_keeps_size() -> None:
    op = conv_with_padding_mode(value([1, 2, 7, 6]), value([3, 2, 3, 2]), [1, 1], "SAME")
    assert op.result.type == t([1, 3, 7, 6])
    assert op.padding is not None
    assert ints_of(op.padding) == (1, 1, 0, 1)
    op.verify()
    valid = conv_with_padding_mode(value([1, 2, 7, 6]), value([3, 2, 3, 2]), [2, 2], "VALID")
    assert valid.result.type == t([1, 3, 3, 3])


def test_cholesky_and_triangular_solve() -> None:
    op = CholeskyOp(value([2, 3, 3]), lower=True)
    assert op.result.type == t([2, 3, 3])
    op.verify()
    with pytest.raises(VerifyException, match="square"):
        CholeskyOp(value([3, 4])).verify()
    ts = TriangularSolveOp(value([3, 3]), value([2, 3]), left_side=False, lower=True)
    assert ts.result.type == t([2, 3])
    ts.verify()
    bad = TriangularSolveOp(
        value([3, 3]), value([3, 1]), True, True, transpose_a=Transpose.TRANSPOSE_INVALID
    )
    with pytest.raises(VerifyException, match="TRANSPOSE_INVALID"):
        bad.verify()


def test_fft_infers_result_types() -> None:
    c64 = ComplexType(f32)
    assert FftOp(value([2, 4], c64), "FFT", [4]).result.type == t([2, 4], c64)
    assert FftOp(value([4, 8], f64), "RFFT", [4, 8]).result.type == t([4, 5], ComplexType(f64))
    assert FftOp(value([4, 5], c64), "IRFFT", [4, 8]).result.type == t([4, 8], f32)
    with pytest.raises(XlaVerifyError, match="1 to 3 entries"):
        FftOp(value([2, 2, 2, 2], c64), "FFT", [2, 2, 2, 2])


def test_batch_norm_builders() -> None:
    x, s = value([2, 3, 4]), value([4])
    training = BatchNormTrainingOp(x, s, s, 1e-3, 2)
    assert [r.type for r in training.results] == [t([2, 3, 4]), t([4]), t([4])]
    training.verify()
    inference = BatchNormInferenceOp(x, s, s, s, s, 1e-3, 2)
    assert inference.result.type == t([2, 3, 4])
    inference.verify()
    grad = BatchNormGradOp(x, s, s, s, x, 1e-3, 2)
    assert [r.type for r in grad.results] == [t([2, 3, 4]), t([4]), t([4])]
    grad.verify()
    with pytest.raises(XlaVerifyError, match="feature_index 3 is out of range"):
        BatchNormTrainingOp(x, s, s, 1e-3, 3)
    with pytest.raises(VerifyException, match="scale size 3 must equal"):
        BatchNormInferenceOp(x, value([3]), s, s, s, 1e-3, 2).verify()
