"""Fusion across reductions and folded views (`linalg-fold-broadcasts`,
`linalg-fuse-elementwise`, `linalg-fuse-reductions`, `memref-forward-tile-copies`):
every fused pattern compiled through `xla_tools.compile` and checked against
NumPy, at sizes that make row blocks of several rows, of one row (a prime row
count) and single blocks; `reassociate=False` checked bitwise against the
sequential order; the fusion decisions checked in the IR; the fusion pass linear
on a long element-wise chain."""

from __future__ import annotations

import numpy as np
import pytest

from lowering.codegen.linalg_fuse_elementwise import MAX_BODY_WEIGHT
from xla_dialect.context import make_context, parse_module
from xla_tools import compile
from xla_tools.registry import get_all_passes

# rows x cols: several rows per block (36 x 100: 9 rows), one row per block (a prime
# row count, 37 x 129), one block (5 x 7, left unfused), wide rows (3 x 2000), tall (1000 x 3)
SIZES = [(36, 100), (37, 129), (5, 7), (3, 2000), (1000, 3)]


def _softmax_text(r: int, c: int, log: bool = False) -> str:
    t, v = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>"
    tail = (
        f"""  %l = xla.log %s : {v}
  %lb = xla.broadcast_in_dim %l, dims = [0] : ({v}) -> {t}
  %r = xla.subtract %d, %lb : {t}"""
        if log
        else f"""  %sb = xla.broadcast_in_dim %s, dims = [0] : ({v}) -> {t}
  %r = xla.divide %e, %sb : {t}"""
    )
    return f"""func.func @main(%x: {t}) -> {t} {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %m1 = xla.broadcast_in_dim %m, dims = [0] : ({v}) -> tensor<{r}x1xf32>
  %mb = xla.broadcast_in_dim %m1, dims = [0, 1] : (tensor<{r}x1xf32>) -> {t}
  %d = xla.subtract %x, %mb : {t}
  %e = xla.exponential %d : {t}
  %s = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
{tail}
  func.return %r : {t}
}}"""


def _layer_norm_text(r: int, c: int) -> str:
    t, v, g = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>", f"tensor<{c}xf32>"
    return f"""func.func @main(%x: {t}, %g: {g}, %b: {g}) -> {t} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %n = xla.constant dense<{float(c)}> : tensor<f32>
  %eps = xla.constant dense<1.0e-5> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %mean = xla.divide %s, %n : ({v}, tensor<f32>) -> {v}
  %mb = xla.broadcast_in_dim %mean, dims = [0] : ({v}) -> {t}
  %d = xla.subtract %x, %mb : {t}
  %d2 = xla.multiply %d, %d : {t}
  %q = xla.reduce(%d2 init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %var = xla.divide %q, %n : ({v}, tensor<f32>) -> {v}
  %ve = xla.add %var, %eps : ({v}, tensor<f32>) -> {v}
  %rs = xla.rsqrt %ve : {v}
  %rb = xla.broadcast_in_dim %rs, dims = [0] : ({v}) -> {t}
  %gb = xla.broadcast_in_dim %g, dims = [1] : ({g}) -> {t}
  %bb = xla.broadcast_in_dim %b, dims = [1] : ({g}) -> {t}
  %y = xla.multiply %d, %rb : {t}
  %y1 = xla.multiply %y, %gb : {t}
  %y2 = xla.add %y1, %bb : {t}
  func.return %y2 : {t}
}}"""


def _rms_norm_text(r: int, c: int) -> str:
    t, v, g = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>", f"tensor<{c}xf32>"
    return f"""func.func @main(%x: {t}, %g: {g}) -> {t} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %n = xla.constant dense<{float(c)}> : tensor<f32>
  %x2 = xla.multiply %x, %x : {t}
  %q = xla.reduce(%x2 init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %ms = xla.divide %q, %n : ({v}, tensor<f32>) -> {v}
  %rs = xla.rsqrt %ms : {v}
  %rb = xla.broadcast_in_dim %rs, dims = [0] : ({v}) -> {t}
  %gb = xla.broadcast_in_dim %g, dims = [1] : ({g}) -> {t}
  %y = xla.multiply %x, %rb : {t}
  %y1 = xla.multiply %y, %gb : {t}
  func.return %y1 : {t}
}}"""


def _matrix(r: int, c: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((r, c), dtype=np.float32)


@pytest.mark.parametrize(("r", "c"), SIZES, ids=[f"{r}x{c}" for r, c in SIZES])
def test_softmax(r: int, c: int) -> None:
    x = _matrix(r, c)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        compile(_softmax_text(r, c))(x), e / e.sum(axis=1, keepdims=True), rtol=2e-6, atol=1e-7
    )


@pytest.mark.parametrize(("r", "c"), SIZES, ids=[f"{r}x{c}" for r, c in SIZES])
def test_log_softmax(r: int, c: int) -> None:
    x = _matrix(r, c, 1)
    d = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    ref = d - np.log(np.exp(d).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(compile(_softmax_text(r, c, log=True))(x), ref, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize(("r", "c"), SIZES, ids=[f"{r}x{c}" for r, c in SIZES])
def test_layer_norm(r: int, c: int) -> None:
    x = _matrix(r, c, 2)
    g, b = _matrix(1, c, 3)[0], _matrix(1, c, 4)[0]
    x64 = x.astype(np.float64)
    d = x64 - x64.mean(axis=1, keepdims=True)
    ref = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * g + b
    np.testing.assert_allclose(compile(_layer_norm_text(r, c))(x, g, b), ref, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("r", "c"), SIZES, ids=[f"{r}x{c}" for r, c in SIZES])
def test_rms_norm(r: int, c: int) -> None:
    x = _matrix(r, c, 5)
    g = _matrix(1, c, 6)[0]
    x64 = x.astype(np.float64)
    ref = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True)) * g
    np.testing.assert_allclose(compile(_rms_norm_text(r, c))(x, g), ref, rtol=1e-5, atol=1e-5)


# Each reduction kind, fused with its element-wise consumer (x - reduce(x) per row)
# and as a sibling of a sum of the same input (one generic with two outputs).
KINDS = {
    "add": ("0.0", np.sum),
    "multiply": ("1.0", np.prod),
    "maximum": ("0xFF800000", np.max),
    "minimum": ("0x7F800000", np.min),
}


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(
    ("r", "c"), [(36, 100), (37, 129), (1000, 3)], ids=["36x100", "37x129", "1000x3"]
)
def test_reduction_kinds_fused(kind: str, r: int, c: int) -> None:
    init, ref_fn = KINDS[kind]
    t, v = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>"
    text = f"""func.func @main(%x: {t}) -> ({t}, {v}, {v}) {{
  %i = xla.constant dense<{init}> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %a = xla.reduce(%x init: %i) applies xla.{kind} across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %ab = xla.broadcast_in_dim %a, dims = [0] : ({v}) -> {t}
  %d = xla.subtract %x, %ab : {t}
  func.return %d, %a, %s : {t}, {v}, {v}
}}"""
    # Products of many normals under- or overflow: scale toward 1 for them.
    x = _matrix(r, c, 7)
    if kind == "multiply":
        x = (1.0 + 0.01 * x).astype(np.float32)
    d, a, s = compile(text)(x)
    ref = ref_fn(x.astype(np.float64), axis=1)
    if kind in ("maximum", "minimum"):
        np.testing.assert_array_equal(a, ref.astype(np.float32))
    else:
        np.testing.assert_allclose(a, ref, rtol=2e-5)
    np.testing.assert_allclose(s, x.astype(np.float64).sum(axis=1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(d, x - a[:, None], rtol=1e-6, atol=1e-6)


def test_max_propagates_nan_and_orders_zeros() -> None:
    r, c = 36, 100
    x = -np.abs(_matrix(r, c, 8))
    x[3, 17] = np.nan
    x[5, :] = -0.0
    x[5, 50] = 0.0
    x[6, :] = -0.0
    t, v = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>"
    text = f"""func.func @main(%x: {t}) -> ({t}, {v}) {{
  %i = xla.constant dense<0xFF800000> : tensor<f32>
  %a = xla.reduce(%x init: %i) applies xla.maximum across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %ab = xla.broadcast_in_dim %a, dims = [0] : ({v}) -> {t}
  %d = xla.subtract %x, %ab : {t}
  func.return %d, %a : {t}, {v}
}}"""
    _, a = compile(text)(x)
    assert np.isnan(a[3])
    assert a[5] == 0.0 and not np.signbit(a[5])
    assert a[6] == 0.0 and np.signbit(a[6])
    others = [i for i in range(r) if i not in (3, 5, 6)]
    np.testing.assert_array_equal(a[others], x[others].max(axis=1))


@pytest.mark.parametrize(("r", "c"), [(36, 100), (37, 129)], ids=["36x100", "37x129"])
def test_argmax_fused_with_consumer(r: int, c: int) -> None:
    """A variadic reduce (JAX's argmax) in a row group with a consumer of its value."""
    t, v, ti = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>", f"tensor<{r}x{c}xi32>"
    text = f"""func.func @main(%x: {t}) -> (tensor<{r}xi32>, {t}) {{
  %iota = xla.iota dim = 1 : {ti}
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %c0 = xla.constant dense<0> : tensor<i32>
  %m, %k = xla.reduce(%x init: %ninf), (%iota init: %c0) across dimensions = [1] : ({t}, {ti}, tensor<f32>, tensor<i32>) -> ({v}, tensor<{r}xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>) {{
    %gt = xla.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %take = xla.or %gt, %nan : tensor<i1>
    %eq = xla.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = xla.compare LT, %i, %j, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt : tensor<i1>
    %ti = xla.or %take, %tie : tensor<i1>
    %v = xla.select %take, %a, %b : tensor<i1>, tensor<f32>
    %w = xla.select %ti, %i, %j : tensor<i1>, tensor<i32>
    xla.return %v, %w : tensor<f32>, tensor<i32>
  }}
  %mb = xla.broadcast_in_dim %m, dims = [0] : ({v}) -> {t}
  %d = xla.subtract %x, %mb : {t}
  func.return %k, %d : tensor<{r}xi32>, {t}
}}"""
    x = _matrix(r, c, 9)
    x[2, 5] = x[2, 60] = 50.0  # a tie: the first index wins
    k, d = compile(text)(x)
    np.testing.assert_array_equal(k, x.argmax(axis=1))
    np.testing.assert_allclose(d, x - x.max(axis=1, keepdims=True), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("perm", [[2, 0, 1], [1, 2, 0], [0, 2, 1]])
def test_transposed_contraction(perm: list[int]) -> None:
    """`dot_general -> transpose`: the contraction writes the transposed result."""
    h, q, k, d = 4, 9, 6, 5
    shape = [h, d, q]
    out = [shape[p] for p in perm]
    text = f"""func.func @main(%a: tensor<{h}x{q}x{k}xf32>, %b: tensor<{k}x{h}x{d}xf32>) -> tensor<{out[0]}x{out[1]}x{out[2]}xf32> {{
  %0 = xla.dot_general %b, %a, batching_dims = [1] x [0], contracting_dims = [0] x [2] : (tensor<{k}x{h}x{d}xf32>, tensor<{h}x{q}x{k}xf32>) -> tensor<{h}x{d}x{q}xf32>
  %1 = xla.transpose %0, dims = {perm} : (tensor<{h}x{d}x{q}xf32>) -> tensor<{out[0]}x{out[1]}x{out[2]}xf32>
  func.return %1 : tensor<{out[0]}x{out[1]}x{out[2]}xf32>
}}"""
    a = _matrix(h * q, k, 10).reshape(h, q, k)
    b = _matrix(k * h, d, 11).reshape(k, h, d)
    ref = np.einsum("hqk,khd->hdq", a.astype(np.float64), b).transpose(perm)
    np.testing.assert_allclose(compile(text)(a, b), ref, rtol=1e-5, atol=1e-5)


def test_reassociate_false_is_bitwise_sequential() -> None:
    """Without reassociation a row sum adds in the spec's order, element by element."""
    r, c = 36, 1000
    t, v = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>"
    text = f"""func.func @main(%x: {t}) -> ({v}, {t}) {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %sb = xla.broadcast_in_dim %s, dims = [0] : ({v}) -> {t}
  %d = xla.divide %x, %sb : {t}
  func.return %s, %d : {v}, {t}
}}"""
    x = np.random.default_rng(12).random((r, c), dtype=np.float32) * np.float32(1e3)
    s, d = compile(text, reassociate=False)(x)
    seq = np.zeros(r, np.float32)
    for j in range(c):
        seq = seq + x[:, j]
    np.testing.assert_array_equal(s, seq)
    np.testing.assert_array_equal(d, x / seq[:, None])
    fast, _ = compile(text)(x)
    np.testing.assert_allclose(fast, seq, rtol=1e-5)


def _lower(text: str, names: list[str], **options: object) -> str:
    ctx = make_context()
    module = parse_module(text, "<test>", ctx)
    available = get_all_passes()
    for name in names:
        available[name]()(**(options if name == "linalg-fuse-reductions" else {})).apply(
            ctx, module
        )
    return str(module)


def test_fusion_decisions_in_ir() -> None:
    ir = _lower(
        _softmax_text(36, 100),
        [
            "convert-xla-to-linalg",
            "linalg-fold-broadcasts",
            "linalg-fuse-elementwise",
            "linalg-fuse-reductions",
        ],
    )
    assert 'fusion = "rows(9): reduce, map, reduce, map"' in ir
    assert "tensor<9x100xf32>" in ir


def test_tiles_written_in_place() -> None:
    """After bufferization the output rows are written straight into the out-parameter."""
    names = [
        "convert-xla-to-linalg",
        "linalg-fold-broadcasts",
        "linalg-fuse-elementwise",
        "linalg-fuse-reductions",
        "bufferize",
        "memref-forward-tile-copies",
    ]
    ir = _lower(_softmax_text(36, 100), names)
    assert "memref.copy" not in ir
    assert "memref.subview" in ir


def test_elementwise_fusion_is_linear() -> None:
    """2,000 element-wise ops fuse into one generic, 3,000 into two: a fused body weighs
    at most `MAX_BODY_WEIGHT` (the worklist's linear cost is measured in the report, not
    asserted here: no speed in tests)."""

    def chain(n: int) -> str:
        ops = ["xla.add", "xla.multiply", "xla.subtract", "xla.maximum"]
        lines = ["func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {"]
        lines.append("  %v0 = xla.add %a, %b : tensor<64xf32>")
        lines += [f"  %v{i} = {ops[i % 4]} %v{i - 1}, %a : tensor<64xf32>" for i in range(1, n)]
        lines.append(f"  func.return %v{n - 1} : tensor<64xf32>\n}}")
        return "\n".join(lines)

    assert MAX_BODY_WEIGHT == 2048
    ir = _lower(chain(2000), ["convert-xla-to-linalg", "linalg-fuse-elementwise"])
    assert ir.count("linalg.generic") == 1
    assert "ins(%b, %a : tensor<64xf32>, tensor<64xf32>)" in ir  # the chain reads %a once
    ir = _lower(chain(3000), ["convert-xla-to-linalg", "linalg-fuse-elementwise"])
    assert ir.count("linalg.generic") == 2
    assert ir.count("ins(%b, %a : tensor<64xf32>, tensor<64xf32>)") == 1


def _softmax3_text(shape: tuple[int, int, int]) -> str:
    """Softmax over the last axis as JAX exports it: keepdims reshapes (a 2-D
    reduction result to `h x q x 1`, which lowers to a collapse and an expand)."""
    h, q, k = shape
    t, v, v1 = f"tensor<{h}x{q}x{k}xf32>", f"tensor<{h}x{q}xf32>", f"tensor<{h}x{q}x1xf32>"
    return f"""func.func @main(%x: {t}) -> {t} {{
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [2] : ({t}, tensor<f32>) -> {v}
  %m1 = xla.reshape %m : ({v}) -> {v1}
  %mb = xla.broadcast_in_dim %m1, dims = [0, 1, 2] : ({v1}) -> {t}
  %d = xla.subtract %x, %mb : {t}
  %e = xla.exponential %d : {t}
  %s = xla.reduce(%e init: %zero) applies xla.add across dimensions = [2] : ({t}, tensor<f32>) -> {v}
  %s1 = xla.reshape %s : ({v}) -> {v1}
  %sb = xla.broadcast_in_dim %s1, dims = [0, 1, 2] : ({v1}) -> {t}
  %r = xla.divide %e, %sb : {t}
  func.return %r : {t}
}}"""


# Rows larger than a tile: blocks of 4 queries (4 x 64 x 256), of one (a prime 37).
SHAPES3 = [(4, 64, 256), (3, 37, 300), (2, 5, 7)]


@pytest.mark.parametrize("shape", SHAPES3, ids=["x".join(map(str, s)) for s in SHAPES3])
def test_rank3_softmax_blocks_of_the_second_dimension(shape: tuple[int, int, int]) -> None:
    """Attention's softmax: one row group through the reshapes, blocked along the
    second dimension; numerics against NumPy, two threads bitwise equal to one,
    with and without reassociation."""
    x = np.random.default_rng(21).standard_normal(shape, dtype=np.float32)
    text = _softmax3_text(shape)
    e = np.exp(x.astype(np.float64) - x.max(axis=2, keepdims=True))
    one = compile(text, threads=1)(x)
    np.testing.assert_allclose(one, e / e.sum(axis=2, keepdims=True), rtol=2e-6, atol=1e-7)
    np.testing.assert_array_equal(compile(text, threads=2)(x), one)
    ordered = compile(text, reassociate=False, threads=1)(x)
    np.testing.assert_allclose(ordered, one, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(compile(text, reassociate=False, threads=2)(x), ordered)


def test_keepdims_layer_norm_is_one_row_group() -> None:
    """Layer norm with JAX's keepdims reshapes between its reductions and their
    consumers: one loop over rows (nothing crosses memory between the mean and the
    variance), and the numerics of the unfused form."""
    r, c = 37, 129
    t, v, v1, g = f"tensor<{r}x{c}xf32>", f"tensor<{r}xf32>", f"tensor<{r}x1xf32>", f"tensor<{c}xf32>"
    text = f"""func.func @main(%x: {t}, %g: {g}) -> {t} {{
  %zero = xla.constant dense<0.0> : tensor<f32>
  %n = xla.constant dense<{1.0 / c}> : {v1}
  %eps = xla.constant dense<1.0e-5> : {v1}
  %s = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %s1 = xla.reshape %s : ({v}) -> {v1}
  %mean = xla.multiply %s1, %n : {v1}
  %mb = xla.broadcast_in_dim %mean, dims = [0, 1] : ({v1}) -> {t}
  %d = xla.subtract %x, %mb : {t}
  %d2 = xla.multiply %d, %d : {t}
  %q = xla.reduce(%d2 init: %zero) applies xla.add across dimensions = [1] : ({t}, tensor<f32>) -> {v}
  %q1 = xla.reshape %q : ({v}) -> {v1}
  %var = xla.multiply %q1, %n : {v1}
  %ve = xla.add %var, %eps : {v1}
  %rs = xla.rsqrt %ve : {v1}
  %rb = xla.broadcast_in_dim %rs, dims = [0, 1] : ({v1}) -> {t}
  %gb = xla.broadcast_in_dim %g, dims = [1] : ({g}) -> {t}
  %y = xla.multiply %d, %rb : {t}
  %y1 = xla.multiply %y, %gb : {t}
  func.return %y1 : {t}
}}"""
    ir = _lower(
        text,
        ["convert-xla-to-linalg", "linalg-fold-broadcasts", "linalg-fuse-elementwise", "linalg-fuse-reductions"],
    )
    assert ir.count("scf.for") == 1 and "tensor.expand_shape" not in ir
    assert 'fusion = "rows(1): reduce, map, reduce, map, map"' in ir  # x - mean recomputed
    x, g = _matrix(r, c, 22), _matrix(1, c, 23)[0]
    x64 = x.astype(np.float64)
    d = x64 - x64.mean(axis=1, keepdims=True)
    ref = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * g
    np.testing.assert_allclose(compile(text)(x, g), ref, rtol=1e-4, atol=1e-4)
