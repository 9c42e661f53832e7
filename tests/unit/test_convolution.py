"""`xla.convolution` compiled through `lower-to-llvm` against a NumPy reference.

The reference follows the spec (and StableHLO's definition of the groups)
literally, in the spec's canonical layout: the operands are transposed to
`[batch, feature, spatial...]` / `[out feature, in feature, spatial...]`, the
input is base-dilated with zeros and padded (negative padding crops), the kernel
is reversed where `window_reversal` says so, batch groups and feature groups
split the operands into consecutive slices whose convolutions are concatenated
along the output feature dimension, and each convolution sums, per window
offset, the strided slice of the input times that kernel tap. The result is
transposed to the case's output layout. Inputs are small integers (also in
float types), so results are exact whatever the summation order; one case uses
random floats. Every case is a function of one module compiled once.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

DTYPES: dict[str, np.dtype] = {
    "f64": np.dtype(np.float64),
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "i64": np.dtype(np.int64),
    "i32": np.dtype(np.int32),
    "i8": np.dtype(np.int8),
    "ui8": np.dtype(np.uint8),
    "ui32": np.dtype(np.uint32),
    "i1": np.dtype(np.bool_),
}


@dataclass
class Case:
    """A convolution given by logical sizes and the three layouts, e.g. `b01f`
    (lhs), `01io` (rhs), `b01f` (output); `spatial` are the input's spatial sizes."""

    name: str
    spatial: tuple[int, ...]
    window: tuple[int, ...]
    n: int = 1
    c: int = 2
    o: int = 3
    lhs: str = "b01f"
    rhs: str = "01io"
    out: str = "b01f"
    strides: tuple[int, ...] | None = None
    padding: tuple[tuple[int, int], ...] | None = None
    lhs_dilation: tuple[int, ...] | None = None
    rhs_dilation: tuple[int, ...] | None = None
    reverse: tuple[bool, ...] | None = None
    fg: int = 1
    bg: int = 1
    type: str = "f32"
    out_type: str | None = None
    same: bool = False  # written as `pad = SAME`
    random: bool = False  # random normal floats instead of small integers

    @property
    def s(self) -> int:
        return len(self.spatial)

    def params(self) -> tuple[list[int], list[tuple[int, int]], list[int], list[int], list[bool]]:
        s = self.s
        strides = list(self.strides or [1] * s)
        if self.same:
            padding = [same_padding(n, w, st, d) for n, w, st, d in zip(self.spatial, self.window, strides, self.rhs_dil())]
        else:
            padding = list(self.padding or [(0, 0)] * s)
        return strides, padding, list(self.lhs_dilation or [1] * s), self.rhs_dil(), list(self.reverse or [False] * s)

    def rhs_dil(self) -> list[int]:
        return list(self.rhs_dilation or [1] * self.s)

    def lhs_shape(self) -> tuple[int, ...]:
        return layout_shape(self.lhs, {"b": self.n, "f": self.c}, self.spatial)

    def rhs_shape(self) -> tuple[int, ...]:
        return layout_shape(self.rhs, {"i": self.c // self.fg, "o": self.o}, self.window)

    def out_spatial(self) -> tuple[int, ...]:
        strides, padding, ld, rd, _ = self.params()
        sizes = []
        for n, w, st, (lo, hi), a, b in zip(self.spatial, self.window, strides, padding, ld, rd):
            padded = lo + (0 if n == 0 else (n - 1) * a + 1) + hi
            extent = (w - 1) * b + 1
            sizes.append(0 if padded < extent else (padded - extent) // st + 1)
        return tuple(sizes)

    def out_shape(self) -> tuple[int, ...]:
        return layout_shape(self.out, {"b": self.n // self.bg, "f": self.o}, self.out_spatial())

    def result_type(self) -> str:
        return self.out_type or self.type


def same_padding(size: int, window: int, stride: int, dilation: int) -> tuple[int, int]:
    """XLA's MakePadding for SAME: the output has ceil(size / stride) windows."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def layout_shape(layout: str, named: dict[str, int], spatial: Sequence[int]) -> tuple[int, ...]:
    return tuple(named[ch] if ch in named else spatial[int(ch)] for ch in layout)


CASES = [
    Case("nhwc_basic", (5, 6), (3, 3)),
    Case("nchw_strided_padded", (5, 6), (2, 3), n=2, lhs="bf01", rhs="oi01", out="bf01", strides=(2, 2), padding=((1, 2), (0, 1))),
    Case("permuted_layouts", (4, 5), (2, 2), n=2, c=3, o=2, lhs="0fb1", rhs="i0o1", out="1f0b", strides=(1, 2), padding=((0, 1), (1, 0))),
    Case("permuted_layouts_2", (6, 3), (3, 2), n=3, c=2, o=4, lhs="1b0f", rhs="1oi0", out="f10b", padding=((-1, 1), (1, 1))),
    Case("conv1d_negative_padding_rhs_dilation", (8,), (3,), lhs="b0f", rhs="0io", out="b0f", padding=((-1, 2),), rhs_dilation=(2,)),
    Case("conv1d_ncw_negative_both", (9,), (2,), n=2, lhs="bf0", rhs="oi0", out="bf0", strides=(2,), padding=((-2, -1),)),
    Case("conv3d_ndhwc", (3, 4, 5), (2, 2, 3), n=2, c=2, o=2, lhs="b012f", rhs="012io", out="b012f", strides=(1, 2, 1), padding=((1, 0), (0, 1), (1, 1))),
    Case("conv3d_ncdhw_dilated", (4, 3, 5), (2, 1, 2), c=3, o=2, lhs="bf012", rhs="oi012", out="bf012", lhs_dilation=(2, 1, 1), rhs_dilation=(1, 1, 2), padding=((0, 1), (-1, 0), (1, 0))),
    Case("lhs_dilation_transposed", (3, 4), (3, 3), c=2, o=2, padding=((2, 2), (1, 2)), lhs_dilation=(2, 3)),
    Case("both_dilations_strided", (6, 7), (2, 3), c=3, o=2, strides=(3, 2), padding=((1, -1), (2, 1)), lhs_dilation=(2, 1), rhs_dilation=(2, 2)),
    Case("feature_groups_strided_dilated", (7, 6), (2, 2), c=4, o=6, fg=2, strides=(2, 1), rhs_dilation=(2, 1), padding=((1, 1), (0, 1))),
    Case("feature_groups_nchw", (5, 5), (3, 3), n=2, c=6, o=3, fg=3, lhs="bf01", rhs="oi01", out="bf01", padding=((1, 1), (1, 1))),
    Case("depthwise", (5, 5), (3, 3), c=4, o=4, fg=4, padding=((1, 1), (1, 1))),
    Case("depthwise_multiplier", (6, 4), (3, 2), n=2, c=3, o=6, fg=3, strides=(2, 1), padding=((1, 1), (0, 1))),
    Case("batch_groups", (5,), (2,), n=4, c=3, o=6, bg=2, lhs="b0f", rhs="0io", out="b0f"),
    Case("batch_groups_per_example", (4, 3), (2, 2), n=3, c=2, o=3, bg=3, lhs="fb01", rhs="01io", out="01bf", padding=((0, 1), (1, 0))),
    Case("batch_groups_2d_layouts", (5, 4), (2, 3), n=4, c=2, o=4, bg=2, lhs="bf01", rhs="oi01", out="f01b", strides=(2, 1), padding=((1, 0), (1, 1))),
    Case("window_reversal", (6, 5), (3, 2), c=2, o=2, reverse=(True, False), padding=((1, 1), (0, 1))),
    Case("window_reversal_dilated", (7,), (3,), lhs="b0f", rhs="0io", out="b0f", reverse=(True,), rhs_dilation=(2,), strides=(2,)),
    Case("blocked_non_minor_spatial", (8, 5), (3, 3), n=2, c=3, o=4, padding=((1, 1), (0, 0))),
    Case("one_by_one", (4, 5), (1, 1), n=2, c=5, o=3),
    Case("one_by_one_strided_nchw", (5, 5), (1, 1), c=3, o=2, lhs="bf01", rhs="oi01", out="bf01", strides=(2, 2)),
    Case("same_stride1", (5, 6), (3, 3), same=True),
    Case("same_stride2_odd", (7, 6), (3, 4), c=3, o=2, strides=(2, 3), same=True),
    Case("same_dilated", (6, 5), (2, 3), strides=(2, 1), rhs_dilation=(2, 2), same=True),
    Case("no_spatial_dims", (), (), n=3, c=4, o=5, lhs="bf", rhs="io", out="bf"),
    Case("no_spatial_dims_groups", (), (), n=2, c=4, o=6, fg=2, lhs="fb", rhs="oi", out="fb"),
    Case("window_in_padding_only", (2, 2), (2, 2), padding=((3, 3), (0, 0))),
    Case("empty_output", (2, 3), (3, 1), padding=((0, 0), (0, 0))),
    Case("empty_input_padded", (0, 3), (2, 2), padding=((2, 1), (0, 0))),
    Case("no_input_features", (3, 3), (2, 2), c=0, o=2),
    Case("i32", (5, 6), (3, 2), c=3, o=4, type="i32", strides=(1, 2), padding=((1, 1), (0, 1))),
    Case("i64_nchw", (4, 4), (2, 2), c=2, o=2, type="i64", lhs="bf01", rhs="oi01", out="bf01", lhs_dilation=(2, 2)),
    Case("i8_to_i32", (5, 5), (3, 3), c=3, o=2, type="i8", out_type="i32", padding=((1, 1), (1, 1))),
    Case("ui8_to_ui32", (4, 4), (2, 2), c=2, o=2, type="ui8", out_type="ui32"),
    Case("pred", (4, 5), (2, 2), c=2, o=2, type="i1"),
    Case("pred_to_i32", (4, 5), (2, 2), c=2, o=2, type="i1", out_type="i32", padding=((1, 0), (0, 1))),
    Case("bf16", (6, 6), (3, 3), c=4, o=3, type="bf16", strides=(2, 1), padding=((1, 1), (1, 1))),
    Case("bf16_grouped", (5, 4), (2, 2), c=4, o=4, fg=2, type="bf16", padding=((1, 0), (0, 1))),
    Case("bf16_to_f32", (5, 5), (3, 3), c=3, o=2, type="bf16", out_type="f32"),
    Case("f16", (6, 5), (3, 2), c=3, o=4, type="f16", padding=((1, 1), (1, 0)), rhs_dilation=(1, 2)),
    Case("f64_nchw", (5, 6), (2, 3), n=2, c=2, o=3, type="f64", lhs="bf01", rhs="oi01", out="bf01", strides=(1, 2), padding=((1, 1), (-1, 2))),
    Case("f32_to_f64", (4, 4), (2, 2), type="f32", out_type="f64"),
    Case("random_f32_nhwc", (9, 8), (3, 3), n=2, c=8, o=16, strides=(2, 1), same=True, random=True),
    # Large enough for linalg-pack-contractions (implicit GEMM through the packed micro-kernel).
    Case("packed_nhwc_same", (10, 9), (3, 3), n=2, c=16, o=40, same=True),
    Case("packed_one_by_one", (8, 8), (1, 1), c=32, o=70),
    Case("packed_nchw_strided", (12, 11), (3, 3), c=8, o=33, lhs="bf01", rhs="oi01", out="bf01", strides=(2, 2), padding=((1, 1), (1, 1))),
    Case("packed_feature_groups", (9, 9), (3, 3), c=32, o=64, fg=2, same=True),
    Case("packed_dilations", (9, 8), (3, 2), c=24, o=20, lhs_dilation=(2, 1), rhs_dilation=(1, 2), padding=((1, 2), (0, 1))),
    Case("packed_bf16_to_f32", (8, 8), (3, 3), c=16, o=32, type="bf16", out_type="f32", same=True),
    Case("packed_f64", (8, 7), (3, 3), c=16, o=24, type="f64", same=True),
    Case("packed_i8_to_i32", (8, 8), (3, 3), c=16, o=32, type="i8", out_type="i32", same=True),
    Case("packed_random", (11, 10), (3, 3), n=2, c=24, o=48, strides=(1, 2), same=True, random=True),
    Case("random_f32_nchw_grouped", (8, 7), (3, 2), n=2, c=6, o=4, fg=2, lhs="bf01", rhs="oi01", out="bf01", padding=((1, 1), (0, 1)), random=True),
]


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{t}>" if shape else f"tensor<{t}>"


def _list(values: Sequence[object]) -> str:
    return "[" + ", ".join(str(v).lower() for v in values) + "]"


def function(case: Case) -> str:
    strides, padding, ld, rd, rev = case.params()
    entries = []
    if case.strides:
        entries.append(f"stride = {_list(strides)}")
    if case.same:
        entries.append("pad = SAME")
    elif case.padding:
        entries.append("pad = [" + ", ".join(f"[{lo}, {hi}]" for lo, hi in padding) + "]")
    if case.lhs_dilation:
        entries.append(f"lhs_dilate = {_list(ld)}")
    if case.rhs_dilation:
        entries.append(f"rhs_dilate = {_list(rd)}")
    if case.reverse:
        entries.append(f"reverse = {_list(rev)}")
    window = f", window = {{{', '.join(entries)}}}" if entries else ""
    layouts = f"{_list(case.lhs)}x{_list(case.rhs)}->{_list(case.out)}".replace("'", "")
    lt, rt = _tensor(case.lhs_shape(), case.type), _tensor(case.rhs_shape(), case.type)
    ot = _tensor(case.out_shape(), case.result_type())
    return f"""func.func @{case.name}(%lhs: {lt}, %rhs: {rt}) -> {ot} {{
  %0 = xla.convolution(%lhs, %rhs) dim_numbers = {layouts}{window} {{batch_group_count = {case.bg} : i64, feature_group_count = {case.fg} : i64}} : ({lt}, {rt}) -> {ot}
  func.return %0 : {ot}
}}"""


MODULE = "\n\n".join(function(c) for c in CASES)

# ---------------------------------------------------------------------------
# Reference
# ---------------------------------------------------------------------------


def to_canonical(x: np.ndarray, layout: str, names: str) -> np.ndarray:
    """`x` transposed to `[names[0], names[1], 0, 1, ...]`."""
    order = [layout.index(names[0]), layout.index(names[1])]
    order += [layout.index(str(i)) for i in range(len(layout) - 2)]
    return np.transpose(x, order)


def dilate_and_pad(x: np.ndarray, dilation: Sequence[int], padding: Sequence[tuple[int, int]]) -> np.ndarray:
    """Zeros between the elements of each spatial dimension (axes 2...), then zeros
    at both ends; a negative amount removes that many elements."""
    for i, (d, (lo, hi)) in enumerate(zip(dilation, padding)):
        axis = 2 + i
        n = x.shape[axis]
        shape = list(x.shape)
        shape[axis] = 0 if n == 0 else (n - 1) * d + 1
        dilated = np.zeros(shape, x.dtype)
        index: list[slice] = [slice(None)] * x.ndim
        index[axis] = slice(None, None, d)
        dilated[tuple(index)] = x
        x = dilated
        for amount, at_end in ((lo, False), (hi, True)):
            if amount >= 0:
                zeros_shape = list(x.shape)
                zeros_shape[axis] = amount
                parts = [x, np.zeros(zeros_shape, x.dtype)]
                x = np.concatenate(parts[::-1] if not at_end else parts, axis=axis)
            else:
                index = [slice(None)] * x.ndim
                index[axis] = slice(None, amount) if at_end else slice(-amount, None)
                x = x[tuple(index)]
    return x


def convolve(x: np.ndarray, w: np.ndarray, strides: Sequence[int], dilation: Sequence[int]) -> np.ndarray:
    """`x` `[N, C, spatial...]` (padded) with `w` `[O, C, window...]`: for each window
    offset, the strided input slice it meets times that kernel tap, summed."""
    out_spatial = []
    for n, k, s, d in zip(x.shape[2:], w.shape[2:], strides, dilation):
        extent = (k - 1) * d + 1
        out_spatial.append(0 if n < extent else (n - extent) // s + 1)
    result = np.zeros((x.shape[0], w.shape[0], *out_spatial), x.dtype)
    for offset in itertools.product(*(range(k) for k in w.shape[2:])):
        window = tuple(
            slice(o * d, o * d + (m - 1) * s + 1, s) for o, d, m, s in zip(offset, dilation, out_spatial, strides)
        )
        taps = w[(slice(None), slice(None), *offset)]
        result += np.einsum("nc...,oc->no...", x[(slice(None), slice(None), *window)], taps)
    return result


def reference(case: Case, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    strides, padding, ld, rd, rev = case.params()
    wide = np.float64 if np.dtype(DTYPES[case.type]).kind == "f" else np.int64
    x = to_canonical(lhs, case.lhs, "bf").astype(wide)
    w = to_canonical(rhs, case.rhs, "oi").astype(wide)
    x = dilate_and_pad(x, ld, padding)
    for i, r in enumerate(rev):
        if r:
            w = np.flip(w, axis=2 + i)
    n, c, o = x.shape[0], x.shape[1], w.shape[0]
    batch_results = []
    for bgi in range(case.bg):
        xb = x[bgi * n // case.bg : (bgi + 1) * n // case.bg]
        wb = w[bgi * o // case.bg : (bgi + 1) * o // case.bg]
        ob = wb.shape[0]
        groups = [
            convolve(
                xb[:, g * c // case.fg : (g + 1) * c // case.fg],
                wb[g * ob // case.fg : (g + 1) * ob // case.fg],
                strides,
                rd,
            )
            for g in range(case.fg)
        ]
        batch_results.append(np.concatenate(groups, axis=1))
    canonical = np.concatenate(batch_results, axis=1)
    position = {"b": 0, "f": 1} | {str(i): 2 + i for i in range(case.s)}
    result = np.transpose(canonical, [position[ch] for ch in case.out])
    out_dtype = DTYPES[case.result_type()]
    if out_dtype == np.bool_:
        return result != 0
    return result.astype(out_dtype)


def inputs(case: Case) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    dtype = DTYPES[case.type]
    arrays = []
    for shape in (case.lhs_shape(), case.rhs_shape()):
        if dtype == np.bool_:
            arrays.append(rng.integers(0, 2, shape).astype(bool))
        elif case.random:
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "u":
            arrays.append(rng.integers(0, 4, shape).astype(dtype))
        else:
            arrays.append(rng.integers(-3, 4, shape).astype(dtype))
    return arrays[0], arrays[1]


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, CASES[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_convolution(module: str, case: Case) -> None:
    lhs, rhs = inputs(case)
    result = np.asarray(compile(module, case.name)(lhs, rhs))
    expected = reference(case, lhs, rhs)
    assert result.shape == expected.shape
    assert result.dtype == expected.dtype
    if case.random:
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(result, expected)



def test_complex_is_reported() -> None:
    """Complex convolutions are refused by name, at the op's line."""
    from runtime import CompileError

    t_lhs, t_rhs, t_out = "tensor<1x3x2xcomplex<f32>>", "tensor<2x2x2xcomplex<f32>>", "tensor<1x2x2xcomplex<f32>>"
    text = f"""func.func @c(%a: {t_lhs}, %b: {t_rhs}) -> {t_out} {{
  %0 = xla.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] : ({t_lhs}, {t_rhs}) -> {t_out}
  func.return %0 : {t_out}
}}"""
    with pytest.raises(CompileError, match=r"2:3: complex convolutions are not compiled yet"):
        compile(text, "c")
