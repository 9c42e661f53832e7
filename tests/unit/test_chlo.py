"""`chlo` ops compiled through `xla-decompose-chlo` and `lower-to-llvm`, against
scipy.special / NumPy references (scipy is a test-only dependency).

Every case is one function of a single module compiled once. Inputs cover each
function's domain including the edges (signed zeros, +-inf, NaN, poles, the ends
of [-1, 1]); tolerances are `|got - want| <= atol + rtol * |want|` per case and
state the accuracy the decompositions reach (XLA's approximations: a few ulp to
~1e-6 relative in f32, ~1e-12 or better in f64; f16/bf16 are computed in f32 and
rounded, so they are within one rounding of the exact value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
import scipy.special as sp

from xla_tools import compile

DTYPES: dict[str, np.dtype] = {
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan]


@dataclass
class Unary:
    op: str
    dtype: str
    inputs: np.ndarray
    ref: Callable[[np.ndarray], np.ndarray]
    rtol: float
    atol: float = 0.0

    @property
    def name(self) -> str:
        return f"{self.op}_{self.dtype}"


def grid(lo: float, hi: float, n: int = 97, extra: tuple[float, ...] = ()) -> np.ndarray:
    return np.concatenate([np.linspace(lo, hi, n), np.array(extra, dtype=np.float64)])


def lgamma_ref(x: np.ndarray) -> np.ndarray:
    """scipy's gammaln, with XLA's lgamma(-inf) = +inf (scipy gives -inf)."""
    return np.where(x == -np.inf, np.inf, sp.gammaln(x))


# Inputs are built in f64 and rounded to the case's type; the reference sees the rounded values.
UNARY: list[Unary] = [
    Unary("erf", "f32", grid(-6, 6, extra=(1e-30, -1e-8, *EDGES)), sp.erf, 2e-6, 1e-7),
    Unary("erf", "f64", grid(-6, 6, extra=(1e-300, 0.999, 1.0, 1.001, *EDGES)), sp.erf, 1e-13, 1e-15),
    Unary("erf", "bf16", grid(-4, 4, n=33, extra=tuple(EDGES)), sp.erf, 8e-3, 1e-3),
    Unary("erfc", "f32", grid(-5, 9.5, extra=(0.5, 1.0, 2.0, 12.0, *EDGES)), sp.erfc, 2e-5, 1e-30),
    Unary("erfc", "f64", grid(-6, 26, extra=(0.5, 1.0, 8.0, 30.0, *EDGES)), sp.erfc, 1e-13, 1e-300),
    # Near |x| = 1, w = -log1p(-x^2) carries the rounding of x^2 (XLA's Giles formula).
    Unary("erf_inv", "f32", grid(-0.999, 0.999, extra=(-1.0, 1.0, 1e-20, 1.5, -2.0, 0.9999, *EDGES[:2], np.nan)), sp.erfinv, 5e-6, 1e-7),
    Unary("erf_inv", "f64", grid(-0.999999, 0.999999, extra=(-1.0, 1.0, 1 - 1e-15, 1.5, *EDGES[:2], np.nan)), sp.erfinv, 1e-12, 1e-15),
    Unary("lgamma", "f32", grid(-9.75, 30, extra=(1.0, 2.0, 0.5, 1e-5, 100.0, 1e30, -3.0, -1.0, *EDGES)), lgamma_ref, 5e-6, 2e-6),
    Unary("lgamma", "f64", grid(-9.75, 30, extra=(1.0, 2.0, 0.5, 1e-12, 1e3, 1e250, -3.0, *EDGES)), lgamma_ref, 1e-13, 1e-13),
    Unary("lgamma", "f16", grid(-4.75, 20, n=40, extra=(1.0, 2.0, -2.0, *EDGES)), lgamma_ref, 2e-3, 2e-3),
    Unary("digamma", "f32", grid(-9.75, 30, extra=(1.0, 1e-3, 1e4, np.inf, np.nan)), sp.psi, 2e-5, 2e-5),
    Unary("digamma", "f64", grid(-9.75, 30, extra=(1.0, 1e-3, 1e8, np.inf, np.nan)), sp.psi, 1e-12, 1e-12),
    Unary("sinh", "f32", grid(-88, 88, extra=(1e-6, -0.5, 89.0, 200.0, *EDGES)), np.sinh, 5e-6),
    Unary("sinh", "f64", grid(-700, 700, extra=(1e-12, -0.5, 0.999, 710.0, *EDGES)), np.sinh, 1e-13),
    Unary("sinh", "f16", grid(-10, 10, n=41, extra=(1e-3, *EDGES)), np.sinh, 2e-3),
    Unary("cosh", "f32", grid(-88, 88, extra=(1e-6, 200.0, *EDGES)), np.cosh, 5e-6),
    Unary("cosh", "f64", grid(-700, 700, extra=(710.0, *EDGES)), np.cosh, 1e-13),
    Unary("tan", "f32", grid(-1.5, 1.5, extra=(1e-8, *EDGES)), np.tan, 5e-6),
    Unary("asin", "f32", grid(-1, 1, extra=(1e-30, 0.9999999, 1.5, *EDGES)), np.arcsin, 2e-6, 1e-37),
    Unary("asin", "f64", grid(-1, 1, extra=(1e-300, 1 - 1e-15, 1.5, *EDGES)), np.arcsin, 1e-14, 1e-300),
    Unary("acos", "f32", grid(-1, 1, extra=(0.9999999, -0.9999999, 1.5, *EDGES)), np.arccos, 2e-6, 1e-7),
    Unary("acos", "f64", grid(-1, 1, extra=(1 - 1e-15, -1 + 1e-15, 1.5, *EDGES)), np.arccos, 1e-14, 1e-15),
    Unary("atan", "f32", grid(-100, 100, extra=(1e-30, 1e30, *EDGES)), np.arctan, 2e-6, 1e-37),
    Unary("atan", "f64", grid(-100, 100, extra=(1e-300, 1e300, *EDGES)), np.arctan, 1e-14, 1e-300),
    Unary("asinh", "f32", grid(-50, 50, extra=(1e-30, -1e-5, 3e38, -3e38, *EDGES)), np.arcsinh, 2e-6, 1e-37),
    Unary("asinh", "f64", grid(-50, 50, extra=(1e-300, -1e-10, 1e300, -1e300, *EDGES)), np.arcsinh, 1e-14, 1e-300),
    Unary("asinh", "bf16", grid(-50, 50, n=41, extra=tuple(EDGES)), np.arcsinh, 8e-3),
    Unary("acosh", "f32", grid(1, 60, extra=(1.0000001, 1.5, 3e38, 0.5, -2.0, *EDGES)), np.arccosh, 2e-6, 1e-6),
    Unary("acosh", "f64", grid(1, 60, extra=(1 + 1e-15, 1e300, 0.5, -2.0, *EDGES)), np.arccosh, 1e-14, 1e-14),
    Unary("atanh", "f32", grid(-0.999, 0.999, extra=(1.0, -1.0, 1e-30, 1.5, -1.5, *EDGES)), np.arctanh, 2e-6, 1e-37),
    Unary("atanh", "f64", grid(-0.999999, 0.999999, extra=(1.0, -1.0, 1e-300, 1.5, *EDGES)), np.arctanh, 1e-14, 1e-300),
]


@dataclass
class Binary:
    op: str
    dtype: str
    a: np.ndarray
    b: np.ndarray
    ref: Callable[[np.ndarray, np.ndarray], np.ndarray]
    rtol: float
    atol: float = 0.0

    @property
    def name(self) -> str:
        return f"{self.op}_{self.dtype}"


def pairs(a: list[float], b: list[float]) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.meshgrid(np.array(a), np.array(b))
    return x.ravel(), y.ravel()


_ZX, _ZQ = pairs([1.0, 1.5, 2.0, 3.0, 4.5, 7.0, 12.0, 40.0, 0.5, np.nan], [0.3, 1.0, 2.5, 10.0, 100.0, 0.0, -2.0, -1.25, np.inf])
# Negative x: q + k symmetric around 0 (e.g. -2.5) would cancel catastrophically in f32 (in XLA too).
_PN, _PX = pairs([0.0, 1.0, 2.0, 3.0, 4.0, 1.5, -1.0], [0.2, 0.5, 1.0, 3.3, 10.0, 50.0, -2.3])
_NA, _NB = pairs([0.0, -0.0, 1.0, -1.0, 1e-45, 3.4e38, np.inf, -np.inf, np.nan], [0.0, -0.0, 2.0, -2.0, np.inf, -np.inf, np.nan])


def zeta_ref(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    # scipy returns the analytic continuation's poles differently only where XLA
    # defines them: q <= 0 integer -> inf for even x, nan otherwise.
    out = sp.zeta(x, q)
    pole = (q <= 0) & (q == np.floor(q))
    even = (x == np.floor(x)) & (np.fmod(x, 2) == 0)
    out = np.where(pole, np.where(even, np.inf, np.nan), out)
    out = np.where((q <= 0) & (x != np.floor(x)), np.nan, out)
    return np.where(x == 1, np.inf, out)  # XLA: the harmonic series diverges, whatever q


def polygamma_ref(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    natural = (n >= 0) & (n == np.floor(n))
    return np.where(natural, sp.polygamma(np.where(natural, n, 0).astype(int), x), np.nan)


BINARY: list[Binary] = [
    Binary("zeta", "f32", _ZX, _ZQ, zeta_ref, 5e-5, 1e-30),
    Binary("zeta", "f64", _ZX, _ZQ, zeta_ref, 1e-12, 1e-300),
    Binary("polygamma", "f32", _PN, _PX, polygamma_ref, 5e-5, 1e-6),
    Binary("polygamma", "f64", _PN, _PX, polygamma_ref, 1e-11, 1e-12),
    Binary("next_after", "f32", _NA, _NB, np.nextafter, 0.0),
    Binary("next_after", "f64", _NA, _NB, np.nextafter, 0.0),
    Binary("next_after", "f16", _NA, _NB, np.nextafter, 0.0),
]

MULHI_TYPES: dict[str, np.dtype] = {
    "i8": np.dtype(np.int8),
    "ui16": np.dtype(np.uint16),
    "i32": np.dtype(np.int32),
    "ui32": np.dtype(np.uint32),
    "i64": np.dtype(np.int64),
    "ui64": np.dtype(np.uint64),
}


def mulhi_ref(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    out = [(int(x) * int(y)) >> bits for x, y in zip(a.tolist(), b.tolist())]
    mask = (1 << bits) - 1
    return np.array([v & mask for v in out], dtype=np.uint64).astype(a.dtype.str.replace("i", "u"), copy=False).view(a.dtype)


def mulhi_inputs(dt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dt)
    rng = np.random.default_rng(7)
    edges = [info.min, info.max, 0, 1, -1 if info.min < 0 else 2, info.max // 2 + 1, info.min + 1]
    e = np.array(edges, dtype=dt)
    a = np.concatenate([np.tile(e, len(e)), rng.integers(info.min, info.max, 50, endpoint=True, dtype=dt)])
    b = np.concatenate([np.repeat(e, len(e)), rng.integers(info.min, info.max, 50, endpoint=True, dtype=dt)])
    return a, b


# ---------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------


def t(n: int, dtype: str) -> str:
    return f"tensor<{n}x{dtype}>"


def build_module() -> str:
    fns: list[str] = []
    for c in UNARY:
        ty = t(len(c.inputs), c.dtype)
        fns.append(
            f"func.func @{c.name}(%x: {ty}) -> {ty} {{\n"
            f"  %r = chlo.{c.op} %x : {ty} -> {ty}\n  func.return %r : {ty}\n}}"
        )
    for c in BINARY:
        ty = t(len(c.a), c.dtype)
        fns.append(
            f"func.func @{c.name}(%a: {ty}, %b: {ty}) -> {ty} {{\n"
            f"  %r = chlo.{c.op} %a, %b : {ty}, {ty} -> {ty}\n  func.return %r : {ty}\n}}"
        )
    for name, dt in MULHI_TYPES.items():
        ty = t(len(mulhi_inputs(dt)[0]), name)
        fns.append(
            f"func.func @mulhi_{name}(%a: {ty}, %b: {ty}) -> {ty} {{\n"
            f'  %r = "chlo.mulhi"(%a, %b) : ({ty}, {ty}) -> {ty}\n  func.return %r : {ty}\n}}'
        )
    fns.append(
        """func.func @is_inf(%x: tensor<5xf32>) -> (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>) {
  %a = chlo.is_inf %x : tensor<5xf32> -> tensor<5xi1>
  %b = chlo.is_pos_inf %x : tensor<5xf32> -> tensor<5xi1>
  %c = chlo.is_neg_inf %x : tensor<5xf32> -> tensor<5xi1>
  func.return %a, %b, %c : tensor<5xi1>, tensor<5xi1>, tensor<5xi1>
}
func.func @top_k(%x: tensor<3x9xf32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %v, %i = chlo.top_k(%x, k = 4) : tensor<3x9xf32> -> (tensor<3x4xf32>, tensor<3x4xi32>)
  func.return %v, %i : tensor<3x4xf32>, tensor<3x4xi32>
}
func.func @top_k_i32(%x: tensor<2x5x6xi32>) -> (tensor<2x5x6xi32>, tensor<2x5x6xi32>) {
  %v, %i = chlo.top_k(%x, k = 6) : tensor<2x5x6xi32> -> (tensor<2x5x6xi32>, tensor<2x5x6xi32>)
  func.return %v, %i : tensor<2x5x6xi32>, tensor<2x5x6xi32>
}
func.func @scan_rows(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>, %init: tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3xf32>) {
  %0:2 = chlo.scan(%x, %y) inits(%init) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<3xf32>):
    %p = stablehlo.multiply %a, %b : tensor<3xf32>
    %s = stablehlo.add %c, %p : tensor<3xf32>
    stablehlo.return %s, %s : tensor<3xf32>, tensor<3xf32>
  } : (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3xf32>)
  func.return %0#0, %0#1 : tensor<3x5xf32>, tensor<3xf32>
}
func.func @ragged_mode1(%l: tensor<2x10x4xf32>, %r: tensor<3x2x4x5xf32>, %g: tensor<2x3xi32>) -> tensor<2x10x5xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>} : (tensor<2x10x4xf32>, tensor<3x2x4x5xf32>, tensor<2x3xi32>) -> tensor<2x10x5xf32>
  func.return %0 : tensor<2x10x5xf32>
}
func.func @ragged_mode2(%l: tensor<6x7xf64>, %r: tensor<7x4xf64>, %g: tensor<3xi64>) -> tensor<3x6x4xf64> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>} : (tensor<6x7xf64>, tensor<7x4xf64>, tensor<3xi64>) -> tensor<3x6x4xf64>
  func.return %0 : tensor<3x6x4xf64>
}
func.func @bcast(%a: tensor<3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_compare %c, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = chlo.broadcast_next_after %b, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  func.return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>
}"""
    )
    return "\n".join(fns)


MODULE = build_module()


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, UNARY[0].name)  # compile eagerly: a lowering error fails every test
    return MODULE


def check_close(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> None:
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    same_special = (np.isnan(got64) & np.isnan(want64)) | (got64 == want64)
    with np.errstate(invalid="ignore"):
        err = np.abs(got64 - want64)
    ok = same_special | (np.isfinite(want64) & (err <= atol + rtol * np.abs(want64)))
    bad = np.flatnonzero(~ok)
    assert bad.size == 0, "\n".join(
        f"[{i}] got {got64[i]!r} want {want64[i]!r} (err {err[i]:.3g})" for i in bad[:10]
    )


@pytest.mark.parametrize("case", UNARY, ids=lambda c: c.name)
def test_unary(module: str, case: Unary) -> None:
    dt = DTYPES[case.dtype]
    with np.errstate(all="ignore"):
        x = case.inputs.astype(dt)
        want = case.ref(x.astype(np.float64))
    want = want.astype(dt)  # the exact value, rounded to the type (overflow included)
    check_close(compile(module, case.name)(x), want, case.rtol, case.atol)


@pytest.mark.parametrize("case", BINARY, ids=lambda c: c.name)
def test_binary(module: str, case: Binary) -> None:
    dt = DTYPES[case.dtype]
    with np.errstate(all="ignore"):
        a, b = case.a.astype(dt), case.b.astype(dt)
        if case.op == "next_after":
            want = np.where(a == b, b, case.ref(a, b))  # C: y when x == y (NumPy's f16 gives x)
        else:
            want = case.ref(a.astype(np.float64), b.astype(np.float64))
    got = compile(module, case.name)(a, b)
    if case.op == "next_after":  # bit-exact, including the sign of zeros and NaN
        same = (got.view(f"u{dt.itemsize}") == want.view(f"u{dt.itemsize}")) | (np.isnan(got) & np.isnan(want))
        assert same.all(), list(zip(a[~same], b[~same], got[~same], want[~same]))
        return
    check_close(got, want, case.rtol, case.atol)


@pytest.mark.parametrize("name", list(MULHI_TYPES))
def test_mulhi(module: str, name: str) -> None:
    a, b = mulhi_inputs(MULHI_TYPES[name])
    np.testing.assert_array_equal(compile(module, f"mulhi_{name}")(a, b), mulhi_ref(a, b))


def test_is_inf(module: str) -> None:
    x = np.array([1.0, np.inf, -np.inf, np.nan, -0.0], np.float32)
    a, b, c = compile(module, "is_inf")(x)
    np.testing.assert_array_equal(a, np.isinf(x))
    np.testing.assert_array_equal(b, np.isposinf(x))
    np.testing.assert_array_equal(c, np.isneginf(x))


def test_top_k_ties_by_lower_index(module: str) -> None:
    x = np.array(
        [[3, 1, 4, 1, 5, 9, 2, 6, 5], [0, 0, 0, 0, 0, 0, 0, 0, 0], [-1, 7, 7, -np.inf, np.inf, 7, 2, 2, 8]],
        np.float32,
    )
    values, indices = compile(module, "top_k")(x)
    order = np.argsort(-x, axis=-1, kind="stable")[:, :4]
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, -1))


def test_top_k_full_sort_int(module: str) -> None:
    x = np.random.default_rng(3).integers(-5, 5, (2, 5, 6)).astype(np.int32)
    values, indices = compile(module, "top_k_i32")(x)
    order = np.argsort(-x.astype(np.int64), axis=-1, kind="stable")
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, -1))


def test_scan_reverse_along_dimension_1(module: str) -> None:
    rng = np.random.default_rng(5)
    x, y = rng.integers(-4, 5, (2, 3, 5)).astype(np.float32)
    init = np.array([1.0, -2.0, 0.5], np.float32)
    outputs, carry = compile(module, "scan_rows")(x, y, init)
    want = np.empty_like(x)
    acc = init.copy()
    for j in reversed(range(5)):
        acc = acc + x[:, j] * y[:, j]
        want[:, j] = acc
    np.testing.assert_array_equal(outputs, want)
    np.testing.assert_array_equal(carry, acc)


def test_ragged_dot_mode1_batched(module: str) -> None:
    rng = np.random.default_rng(11)
    lhs = rng.standard_normal((2, 10, 4)).astype(np.float32)
    rhs = rng.standard_normal((3, 2, 4, 5)).astype(np.float32)
    sizes = np.array([[3, 0, 5], [4, 4, 2]], np.int32)  # batch 0 leaves rows 8, 9 in no group
    got = compile(module, "ragged_mode1")(lhs, rhs, sizes)
    want = np.zeros((2, 10, 5), np.float64)
    for b in range(2):
        start = 0
        for g, size in enumerate(sizes[b]):
            rows = slice(start, start + size)
            want[b, rows] = lhs[b, rows].astype(np.float64) @ rhs[g, b].astype(np.float64)
            start += size
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_ragged_dot_mode2_contracting(module: str) -> None:
    rng = np.random.default_rng(12)
    lhs, rhs = rng.standard_normal((6, 7)), rng.standard_normal((7, 4))
    sizes = np.array([2, 0, 4], np.int64)  # the last contracting index is in no group
    got = compile(module, "ragged_mode2")(lhs, rhs, sizes)
    want = np.zeros((3, 6, 4))
    start = 0
    for g, size in enumerate(sizes):
        want[g] = lhs[:, start : start + size] @ rhs[start : start + size]
        start += size
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_broadcasting_ops(module: str) -> None:
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = np.array([[0.5, 2.0, -1.0], [4.0, 0.0, 3.0]], np.float32)
    c = np.array([[1.0], [3.5]], np.float32)
    add, less, after = compile(module, "bcast")(a, b, c)
    np.testing.assert_array_equal(add, a + b)
    np.testing.assert_array_equal(less, c < b)
    np.testing.assert_array_equal(after, np.nextafter(b, c))
