"""The batch-norm ops compiled through `lower-to-llvm` (which decomposes them with
`xla-decompose-batch-norm`) and run against NumPy transcriptions of the spec's
formulas: training, inference and grad, with the feature dimension second and
last, in f32 and f64, on 4-D and 2-D operands; plus f16, and the pass's errors.
All kernels live in one module, compiled once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from passes.decompose_batch_norm import DecomposeBatchNormPass
from xla_dialect.context import make_context, parse_module
from xla_dialect.diagnostics import LoweringError
from xla_tools import compile

EPSILON = 1e-3

# (name, shape, feature_index, element type)
CASES: tuple[tuple[str, tuple[int, ...], int, str], ...] = (
    ("nchw_f32", (2, 3, 4, 5), 1, "f32"),
    ("nhwc_f32", (2, 3, 4, 5), 3, "f32"),
    ("nchw_f64", (2, 3, 4, 5), 1, "f64"),
    ("nhwc_f64", (2, 3, 4, 5), 3, "f64"),
    ("mat_f32", (6, 4), 1, "f32"),
    ("mat_f64", (6, 4), 1, "f64"),
    ("mat0_f64", (6, 4), 0, "f64"),
    ("mat_f16", (6, 4), 1, "f16"),
)

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _t(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def _kernels(name: str, shape: tuple[int, ...], fi: int, element: str) -> str:
    """`train_<name>`, `infer_<name>` and `grad_<name>`: each op on its arguments."""
    x, f = _t(shape, element), _t((shape[fi],), element)
    attrs = f"{{epsilon = {EPSILON:e} : f32, feature_index = {fi} : i64}}"
    three = f"({x}, {f}, {f})"
    return f"""
func.func @train_{name}(%x: {x}, %s: {f}, %o: {f}) -> {three} {{
  %0:3 = "xla.batch_norm_training"(%x, %s, %o) {attrs} : ({x}, {f}, {f}) -> {three}
  func.return %0#0, %0#1, %0#2 : {x}, {f}, {f}
}}
func.func @infer_{name}(%x: {x}, %s: {f}, %o: {f}, %m: {f}, %v: {f}) -> {x} {{
  %0 = "xla.batch_norm_inference"(%x, %s, %o, %m, %v) {attrs} : ({x}, {f}, {f}, {f}, {f}) -> {x}
  func.return %0 : {x}
}}
func.func @grad_{name}(%x: {x}, %s: {f}, %m: {f}, %v: {f}, %dy: {x}) -> {three} {{
  %0:3 = "xla.batch_norm_grad"(%x, %s, %m, %v, %dy) {attrs} : ({x}, {f}, {f}, {f}, {x}) -> {three}
  func.return %0#0, %0#1, %0#2 : {x}, {f}, {f}
}}
"""


PROGRAM = "".join(_kernels(*case) for case in CASES)


@pytest.fixture(scope="module")
def kernel() -> Callable[[str], Callable[..., object]]:
    """Compiles the module once (the first lookup); later lookups hit the cache."""
    return lambda name: compile(PROGRAM, name)  # pyright: ignore[reportReturnType]


# -- NumPy references (computed in f64, straight from the spec) ----------------


def _axes(x: np.ndarray, fi: int) -> tuple[int, ...]:
    return tuple(d for d in range(x.ndim) if d != fi)


def _feature(v: np.ndarray, x: np.ndarray, fi: int) -> np.ndarray:
    """A 1-D feature array shaped to broadcast against `x`."""
    shape = [1] * x.ndim
    shape[fi] = -1
    return v.reshape(shape)


def _eps() -> float:
    """`epsilon` is an f32 attribute: its f32 value, widened."""
    return float(np.float32(EPSILON))


def ref_training(x: np.ndarray, s: np.ndarray, o: np.ndarray, fi: int) -> tuple[np.ndarray, ...]:
    axes = _axes(x, fi)
    mean = x.mean(axis=axes)
    var = ((x - _feature(mean, x, fi)) ** 2).mean(axis=axes)
    return ref_inference(x, s, o, mean, var, fi), mean, var


def ref_inference(
    x: np.ndarray, s: np.ndarray, o: np.ndarray, m: np.ndarray, v: np.ndarray, fi: int
) -> np.ndarray:
    def b(a: np.ndarray) -> np.ndarray:
        return _feature(a, x, fi)

    return b(s) * (x - b(m)) / np.sqrt(b(v) + _eps()) + b(o)


def ref_grad(
    x: np.ndarray, s: np.ndarray, m: np.ndarray, v: np.ndarray, dy: np.ndarray, fi: int
) -> tuple[np.ndarray, ...]:
    axes = _axes(x, fi)

    def b(a: np.ndarray) -> np.ndarray:
        return _feature(a, x, fi)

    centered = x - b(m)
    c = (dy * centered / (b(v) + _eps())).mean(axis=axes)
    grad_x = b(s) / np.sqrt(b(v) + _eps()) * (dy - b(dy.mean(axis=axes)) - b(c) * centered)
    grad_scale = (dy * centered / np.sqrt(b(v) + _eps())).sum(axis=axes)
    grad_offset = dy.sum(axis=axes)
    return grad_x, grad_scale, grad_offset


def _inputs(shape: tuple[int, ...], fi: int, seed: int) -> dict[str, np.ndarray]:
    """Operands with a nonzero mean per feature and variances away from zero."""
    rng = np.random.default_rng(seed)
    n = shape[fi]
    return {
        "x": rng.standard_normal(shape) * 2.0 + 0.5,
        "scale": rng.uniform(0.5, 2.0, n),
        "offset": rng.standard_normal(n),
        "mean": rng.standard_normal(n) * 0.5,
        "var": rng.uniform(0.5, 3.0, n),
        "dy": rng.standard_normal(shape),
    }


def _tol(element: str) -> dict[str, float]:
    return {"f16": {"rtol": 2e-2, "atol": 2e-2}, "f32": {"rtol": 2e-5, "atol": 2e-5}}.get(
        element, {"rtol": 1e-12, "atol": 1e-12}
    )


def _cast(arrays: dict[str, np.ndarray], element: str) -> dict[str, np.ndarray]:
    return {k: a.astype(DTYPES[element]) for k, a in arrays.items()}


def _f64(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The inputs as the kernel sees them (rounded to its type), in f64."""
    return {k: a.astype(np.float64) for k, a in arrays.items()}


@pytest.mark.parametrize("name, shape, fi, element", CASES, ids=[c[0] for c in CASES])
def test_training(kernel, name: str, shape: tuple[int, ...], fi: int, element: str) -> None:
    a = _cast(_inputs(shape, fi, 0), element)
    y, mean, var = kernel(f"train_{name}")(a["x"], a["scale"], a["offset"])
    r = _f64(a)
    ry, rmean, rvar = ref_training(r["x"], r["scale"], r["offset"], fi)
    assert y.dtype == DTYPES[element] and y.shape == shape and mean.shape == (shape[fi],)
    np.testing.assert_allclose(mean, rmean, **_tol(element))
    np.testing.assert_allclose(var, rvar, **_tol(element))
    np.testing.assert_allclose(y, ry, **_tol(element))


@pytest.mark.parametrize("name, shape, fi, element", CASES, ids=[c[0] for c in CASES])
def test_inference(kernel, name: str, shape: tuple[int, ...], fi: int, element: str) -> None:
    a = _cast(_inputs(shape, fi, 1), element)
    y = kernel(f"infer_{name}")(a["x"], a["scale"], a["offset"], a["mean"], a["var"])
    r = _f64(a)
    expected = ref_inference(r["x"], r["scale"], r["offset"], r["mean"], r["var"], fi)
    np.testing.assert_allclose(y, expected, **_tol(element))


@pytest.mark.parametrize("name, shape, fi, element", CASES, ids=[c[0] for c in CASES])
def test_grad(kernel, name: str, shape: tuple[int, ...], fi: int, element: str) -> None:
    a = _cast(_inputs(shape, fi, 2), element)
    gx, gs, go = kernel(f"grad_{name}")(a["x"], a["scale"], a["mean"], a["var"], a["dy"])
    r = _f64(a)
    rx, rs, ro = ref_grad(r["x"], r["scale"], r["mean"], r["var"], r["dy"], fi)
    tol = _tol(element)
    if element == "f16":  # sums of ~6 products: allow a few f16 ulps of the magnitude
        tol = {"rtol": 5e-2, "atol": 5e-2}
    np.testing.assert_allclose(gx, rx, **tol)
    np.testing.assert_allclose(gs, rs, **tol)
    np.testing.assert_allclose(go, ro, **tol)


def test_training_moments_feed_grad(kernel) -> None:
    """Grad at the batch's own moments: grad_offset sums dy, and grad_operand sums to
    zero per feature (the normalization removes the mean), as the formulas imply."""
    a = _inputs((2, 3, 4, 5), 3, 3)
    _, mean, var = kernel("train_nhwc_f64")(a["x"], a["scale"], a["offset"])
    gx, _, go = kernel("grad_nhwc_f64")(a["x"], a["scale"], mean, var, a["dy"])
    np.testing.assert_allclose(go, a["dy"].sum(axis=(0, 1, 2)), rtol=1e-12)
    np.testing.assert_allclose(gx.sum(axis=(0, 1, 2)), 0.0, atol=1e-12)


def _decompose(text: str) -> ModuleOp:
    module = parse_module(text)
    DecomposeBatchNormPass().apply(make_context(), module)
    return module


def test_pass_leaves_no_batch_norm_and_verifies() -> None:
    module = _decompose(PROGRAM)
    names = {op.name for op in module.walk()}
    assert not any(n.startswith("xla.batch_norm") for n in names)
    assert {"xla.reduce", "xla.broadcast_in_dim", "xla.rsqrt", "xla.constant"} <= names
    module.verify()


def test_dynamic_shape_is_an_error() -> None:
    with pytest.raises(LoweringError, match=r"dynamic dimensions") as info:
        _decompose("""
func.func @f(%x: tensor<?x4xf32>, %s: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = "xla.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-03 : f32, feature_index = 1 : i64} : (tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
""")
    assert info.value.op is not None and info.value.op.name == "xla.batch_norm_inference"
