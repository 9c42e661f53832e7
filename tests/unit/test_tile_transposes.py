"""Numerics of `linalg-tile-transposes` through `compile()`: element-wise programs
reading an operand transposed (2-D, two transposed inputs; a 3-D minor-dimension
swap and extents 8 does not divide are left alone), against NumPy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from lowering.codegen.tile_transposes import tile_block
from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

MODULE = """
func.func @t2(%x: tensor<40x64xf32>, %y: tensor<64x40xf32>) -> tensor<64x40xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<40x64xf32>) -> tensor<64x40xf32>
  %r = xla.multiply %t, %y : tensor<64x40xf32>
  func.return %r : tensor<64x40xf32>
}
func.func @t3(%x: tensor<3x16x24xf64>, %y: tensor<3x24x16xf64>) -> tensor<3x24x16xf64> {
  %t = xla.transpose %x, dims = [0, 2, 1] : (tensor<3x16x24xf64>) -> tensor<3x24x16xf64>
  %r = xla.subtract %t, %y : tensor<3x24x16xf64>
  func.return %r : tensor<3x24x16xf64>
}
func.func @two(%x: tensor<16x32xi32>, %y: tensor<16x32xi32>) -> tensor<32x16xi32> {
  %a = xla.transpose %x, dims = [1, 0] : (tensor<16x32xi32>) -> tensor<32x16xi32>
  %b = xla.transpose %y, dims = [1, 0] : (tensor<16x32xi32>) -> tensor<32x16xi32>
  %r = xla.add %a, %b : tensor<32x16xi32>
  func.return %r : tensor<32x16xi32>
}
func.func @mixed(%x: tensor<16x24xf64>, %r: tensor<16xf64>, %c: tensor<24xf64>) -> tensor<24x16xf64> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x24xf64>) -> tensor<24x16xf64>
  %rb = xla.broadcast_in_dim %r, dims = [1] : (tensor<16xf64>) -> tensor<24x16xf64>
  %cb = xla.broadcast_in_dim %c, dims = [0] : (tensor<24xf64>) -> tensor<24x16xf64>
  %zero = xla.constant dense<0.0> : tensor<24x16xf64>
  %p = xla.compare GT, %t, %zero : (tensor<24x16xf64>, tensor<24x16xf64>) -> tensor<24x16xi1>
  %m = xla.multiply %t, %rb : tensor<24x16xf64>
  %e = xla.exponential %m : tensor<24x16xf64>
  %s = xla.select %p, %e, %cb : tensor<24x16xi1>, tensor<24x16xf64>
  func.return %s : tensor<24x16xf64>
}
func.func @bytes(%x: tensor<16x32xi8>, %y: tensor<32x16xi8>) -> tensor<32x16xi8> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x32xi8>) -> tensor<32x16xi8>
  %r = xla.add %t, %y : tensor<32x16xi8>
  func.return %r : tensor<32x16xi8>
}
func.func @half(%x: tensor<16x32xbf16>, %y: tensor<32x16xbf16>) -> tensor<32x16xbf16> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<16x32xbf16>) -> tensor<32x16xbf16>
  %r = xla.multiply %t, %y : tensor<32x16xbf16>
  func.return %r : tensor<32x16xbf16>
}
func.func @blocked(%x: tensor<192x128xf32>, %y: tensor<128x192xf32>) -> tensor<128x192xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<192x128xf32>) -> tensor<128x192xf32>
  %r = xla.subtract %t, %y : tensor<128x192xf32>
  func.return %r : tensor<128x192xf32>
}
func.func @blocked_rows(%x: tensor<96x80xf64>, %r: tensor<96xf64>, %c: tensor<80xf64>) -> tensor<80x96xf64> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<96x80xf64>) -> tensor<80x96xf64>
  %rb = xla.broadcast_in_dim %r, dims = [1] : (tensor<96xf64>) -> tensor<80x96xf64>
  %cb = xla.broadcast_in_dim %c, dims = [0] : (tensor<80xf64>) -> tensor<80x96xf64>
  %m = xla.multiply %t, %rb : tensor<80x96xf64>
  %s = xla.add %m, %cb : tensor<80x96xf64>
  func.return %s : tensor<80x96xf64>
}
func.func @blocked_bool(%x: tensor<64x256xi1>, %y: tensor<256x64xi1>) -> tensor<256x64xi1> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<64x256xi1>) -> tensor<256x64xi1>
  %r = xla.xor %t, %y : tensor<256x64xi1>
  func.return %r : tensor<256x64xi1>
}
func.func @blocked_batch(%x: tensor<128x64xf32>, %y: tensor<3x64x128xf32>) -> tensor<3x64x128xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<128x64xf32>) -> tensor<64x128xf32>
  %b = xla.broadcast_in_dim %t, dims = [1, 2] : (tensor<64x128xf32>) -> tensor<3x64x128xf32>
  %r = xla.add %b, %y : tensor<3x64x128xf32>
  func.return %r : tensor<3x64x128xf32>
}
func.func @odd(%x: tensor<10x12xf32>) -> tensor<12x10xf32> {
  %t = xla.transpose %x, dims = [1, 0] : (tensor<10x12xf32>) -> tensor<12x10xf32>
  %r = xla.negate %t : tensor<12x10xf32>
  func.return %r : tensor<12x10xf32>
}
"""
RNG = np.random.default_rng(2)


def test_tiled_where_expected() -> None:
    module = parse_module(MODULE)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-tile-transposes") + 1] if p != "outline-linalg-kernels"])
    tiled = {f.sym_name.data for f in module.ops for o in f.walk() if "tiled" in o.attributes}
    # t3's transposed operand is 3-D: left alone. xla-simplify sinks the transposes of
    # @two and @odd past the element-wise op (x.T + y.T = (x + y).T): one transposed
    # write, which the pass (transposed reads only) leaves alone.
    assert tiled == {"t2", "mixed", "bytes", "half", "blocked", "blocked_rows", "blocked_bool", "blocked_batch"}


def test_blocks_follow_the_l1() -> None:
    """Blocks of tiles: square, as large as half of the L1 allows in the transposed
    operand's elements, shrunk to what divides each extent, none where that leaves one
    tile; an L1 four times larger doubles them."""
    module = parse_module(MODULE)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-tile-transposes") + 1] if p != "outline-linalg-kernels"])
    labels = {
        f.sym_name.data: str(o.attributes["tiled"]).strip('"')  # pyright: ignore[reportAttributeAccessIssue]
        for f in module.ops
        for o in f.walk()
        if "tiled" in o.attributes
    }
    assert labels == {
        "t2": "transpose(8x8)",
        "mixed": "transpose(8x8)",
        "bytes": "transpose(8x8 in 32x16)",
        "half": "transpose(8x8 in 32x16)",
        "blocked": "transpose(8x8 in 64x64)",
        "blocked_rows": "transpose(8x8 in 16x32)",
        "blocked_bool": "transpose(8x8 in 128x64)",
        "blocked_batch": "transpose(8x8 in 64x64)",
    }
    assert tile_block(1024, 1024, 4, 32 * 1024) == (64, 64)
    assert tile_block(1024, 1024, 4, 128 * 1024) == (128, 128)
    assert tile_block(1024, 1024, 8, 32 * 1024) == (32, 32)
    assert tile_block(1024, 1024, 1, 32 * 1024) == (128, 128)
    assert tile_block(24, 1000, 4, 32 * 1024) == (8, 1000)  # 24 rows: no block but tiles
    assert tile_block(64, 40, 4, 32 * 1024) == (8, 40)


@pytest.mark.parametrize(
    ("name", "shapes", "dtype", "reference"),
    [
        ("t2", [(40, 64), (64, 40)], np.float32, lambda x, y: x.T * y),
        ("t3", [(3, 16, 24), (3, 24, 16)], np.float64, lambda x, y: x.transpose(0, 2, 1) - y),
        ("two", [(16, 32), (16, 32)], np.int32, lambda x, y: x.T + y.T),
        ("odd", [(10, 12)], np.float32, lambda x: -x.T),
        # Blocks of tiles: in registers (f32, f64 with a broadcast row and column), through
        # the buffer (i1: one buffer per row of blocks), inside a batch loop.
        ("blocked", [(192, 128), (128, 192)], np.float32, lambda x, y: x.T - y),
        ("blocked_rows", [(96, 80), (96,), (80,)], np.float64, lambda x, r, c: x.T * r[None, :] + c[:, None]),
        ("blocked_bool", [(64, 256), (256, 64)], np.bool_, lambda x, y: x.T ^ y),
        ("blocked_batch", [(128, 64), (3, 64, 128)], np.float32, lambda x, y: x.T[None] + y),
        # In registers: a broadcast row and column, a compare, a select, exp (f64);
        # bytes; bf16 through the buffer (its arithmetic is emulated on scalars).
        (
            "mixed",
            [(16, 24), (16,), (24,)],
            np.float64,
            lambda x, r, c: np.where(x.T > 0, np.exp(x.T * r[None, :]), c[:, None]),
        ),
        ("bytes", [(16, 32), (32, 16)], np.int8, lambda x, y: x.T + y),
        ("half", [(16, 32), (32, 16)], ml_dtypes.bfloat16, lambda x, y: x.T * y),
    ],
)
def test_transposed_elementwise(name, shapes, dtype, reference) -> None:
    args = [(RNG.standard_normal(s) * 100).astype(dtype) for s in shapes]
    if name == "mixed":
        args[1] = args[1] / 100  # exp stays finite
    got = compile(MODULE, entry=name)(*args)
    if name == "mixed":
        np.testing.assert_allclose(got, reference(*args), rtol=1e-13)
    else:
        np.testing.assert_array_equal(got, reference(*args))


@pytest.mark.parametrize("name", ["blocked", "blocked_rows", "t2"])
def test_any_output_alignment(name: str) -> None:
    """The tiles of a row start where the output's rows reach a vector boundary, read
    from its address at run time: every element is written, and the end tiles that
    overlap their neighbours write the same values, whatever the output's offset."""
    shapes = {"blocked": [(192, 128), (128, 192)], "blocked_rows": [(96, 80), (96,), (80,)], "t2": [(40, 64), (64, 40)]}
    references = {
        "blocked": lambda x, y: x.T - y,
        "blocked_rows": lambda x, r, c: x.T * r[None, :] + c[:, None],
        "t2": lambda x, y: x.T * y,
    }
    dtype = np.float64 if name == "blocked_rows" else np.float32
    args = [RNG.standard_normal(s).astype(dtype) for s in shapes[name]]
    expected = references[name](*args)
    f = compile(MODULE, entry=name)
    storage = np.full(expected.size + 16, np.nan, dtype)
    for offset in range(9):
        out = storage[offset : offset + expected.size].reshape(expected.shape)
        out[...] = np.nan
        f(*args, out=[out])
        np.testing.assert_array_equal(out, expected)
