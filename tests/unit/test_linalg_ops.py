"""`xla.cholesky` and `xla.triangular_solve` compiled through `lower-to-llvm`
against NumPy.

Cholesky: symmetric positive definite inputs `G·Gᵀ + n·I` (batched 2×3×n×n,
n from 1 to 33), compared with `np.linalg.cholesky` of the matrix the read
triangle describes (`lower = false`: its transpose); the unread triangle holds
NaNs or huge values, which would show in the result if it were read; the other
triangle of the result is zero; a matrix that is not positive definite comes
back all NaN (XLA's CPU behaviour), without touching the rest of the batch.

TriangularSolve: every combination of left_side × lower × transpose_a ×
unit_diagonal, batched, against `np.linalg.solve` on the explicit triangular
matrix (the unread triangle, and with a unit diagonal the diagonal, hold NaN).

All cases are functions of one module, compiled once.
"""

from __future__ import annotations

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
    "c64": np.dtype(np.complex64),
    "c128": np.dtype(np.complex128),
}
MLIR_TYPES = {"c64": "complex<f32>", "c128": "complex<f64>"}
RTOL = {"f64": 1e-11, "f32": 2e-5, "f16": 4e-3, "bf16": 2e-2, "c64": 2e-5, "c128": 1e-11}


def _tensor(shape: Sequence[int], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{MLIR_TYPES.get(t, t)}>"


def _is_complex(t: str) -> bool:
    return t in MLIR_TYPES


def _h(x: np.ndarray) -> np.ndarray:
    """The conjugate transpose of (a batch of) matrices."""
    return np.conj(np.swapaxes(x, -1, -2))


def _real_or_complex(rng: np.random.Generator, shape: tuple[int, ...], t: str) -> np.ndarray:
    x = rng.uniform(-1.0, 1.0, shape)
    return x + 1j * rng.uniform(-1.0, 1.0, shape) if _is_complex(t) else x


# ---------------------------------------------------------------------------
# Cholesky
# ---------------------------------------------------------------------------


@dataclass
class Chol:
    name: str
    shape: tuple[int, ...]
    lower: bool | None  # None: the attribute is omitted (false)
    type: str = "f64"
    garbage: float = float("nan")  # what the unread triangle holds

    def function(self) -> str:
        t = _tensor(self.shape, self.type)
        attr = "" if self.lower is None else f", lower = {str(self.lower).lower()}"
        return f"""func.func @{self.name}(%a: {t}) -> {t} {{
  %0 = xla.cholesky %a{attr} : {t}
  func.return %0 : {t}
}}"""


CHOLESKY = [
    *(Chol(f"chol_f64_batched_n{n}_{tri}", (2, 3, n, n), tri == "lower") for n in (1, 2, 3, 7, 16, 33) for tri in ("lower", "upper")),
    Chol("chol_f64_huge_garbage", (4, 9, 9), True, garbage=1e300),
    Chol("chol_f64_default_upper", (6, 6), None),
    Chol("chol_f32_lower", (12, 12), True, "f32"),
    Chol("chol_f32_upper_batched", (5, 8, 8), False, "f32", garbage=-3e38),
    Chol("chol_f16_lower", (3, 6, 6), True, "f16"),
    Chol("chol_bf16_upper", (2, 7, 7), False, "bf16"),
    Chol("chol_empty", (0, 0), True),
    Chol("chol_empty_batch", (0, 4, 4), False),
    Chol("chol_c128_lower", (2, 3, 9, 9), True, "c128"),
    Chol("chol_c128_upper", (2, 3, 9, 9), False, "c128"),
    Chol("chol_c64_upper", (17, 17), False, "c64", garbage=1e30),
]


def spd(rng: np.random.Generator, shape: tuple[int, ...], t: str = "f64") -> np.ndarray:
    """`G·Gᴴ + n·I`: symmetric (Hermitian) positive definite."""
    n = shape[-1]
    g = _real_or_complex(rng, shape, t)
    return g @ _h(g) + n * np.eye(n)


def with_garbage(a: np.ndarray, lower: bool, garbage: float) -> np.ndarray:
    """`a` with the triangle that must not be read (strictly) replaced by `garbage`."""
    n = a.shape[-1]
    unread = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    return np.where(unread, garbage, a)


def cholesky_reference(a: np.ndarray, lower: bool) -> np.ndarray:
    """NumPy's factor of the Hermitian matrix `a`'s read triangle describes."""
    tri = np.tril(a) if lower else _h(np.triu(a))
    herm = tri + _h(np.tril(tri, -1))
    factor = np.linalg.cholesky(herm) if herm.size else herm
    return factor if lower else _h(factor)


# ---------------------------------------------------------------------------
# TriangularSolve
# ---------------------------------------------------------------------------

TRANSPOSES = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")


@dataclass
class Solve:
    name: str
    batch: tuple[int, ...]
    m: int
    k: int
    left: bool
    lower: bool
    transpose: str = "NO_TRANSPOSE"
    unit: bool = False
    type: str = "f64"

    def a_shape(self) -> tuple[int, ...]:
        return (*self.batch, self.m, self.m)

    def b_shape(self) -> tuple[int, ...]:
        return (*self.batch, self.m, self.k) if self.left else (*self.batch, self.k, self.m)

    def function(self) -> str:
        at, bt = _tensor(self.a_shape(), self.type), _tensor(self.b_shape(), self.type)
        props = (
            f"left_side = {str(self.left).lower()}, lower = {str(self.lower).lower()}, "
            f"unit_diagonal = {str(self.unit).lower()}, transpose_a = #xla<transpose {self.transpose}>"
        )
        return f"""func.func @{self.name}(%a: {at}, %b: {bt}) -> {bt} {{
  %0 = "xla.triangular_solve"(%a, %b) <{{{props}}}> : ({at}, {bt}) -> {bt}
  func.return %0 : {bt}
}}"""


SOLVES = [
    Solve(
        f"ts_{'left' if left else 'right'}_{'lower' if lower else 'upper'}_{tr.lower()}{'_unit' if unit else ''}",
        (2, 3),
        6,
        4 if left else 3,
        left,
        lower,
        tr,
        unit,
    )
    for left in (True, False)
    for lower in (True, False)
    for tr in TRANSPOSES
    for unit in (False, True)
] + [
    Solve("ts_left_k1", (), 9, 1, True, True),
    Solve("ts_left_k1_transposed_upper", (3,), 9, 1, True, False, "TRANSPOSE"),
    Solve("ts_right_k1", (), 7, 1, False, False),
    Solve("ts_right_k1_transposed", (2,), 7, 1, False, True, "TRANSPOSE"),
    Solve("ts_m1", (2,), 1, 5, True, False, "ADJOINT"),
    Solve("ts_wide_left", (), 33, 17, True, False),
    Solve("ts_wide_right_transposed", (), 33, 20, False, False, "TRANSPOSE", True),
    Solve("ts_tall_right", (4,), 5, 31, False, True),
    Solve("ts_f32_left", (2,), 16, 5, True, True, "TRANSPOSE", type="f32"),
    Solve("ts_f32_right", (), 16, 5, False, True, type="f32"),
    Solve("ts_bf16_left", (2,), 6, 3, True, False, type="bf16"),
    Solve("ts_f16_right", (), 6, 3, False, False, "ADJOINT", True, type="f16"),
    Solve("ts_k0", (), 4, 0, True, True),
    Solve("ts_empty_batch", (0,), 3, 2, False, True),
    *(
        Solve(f"ts_c128_{side}_{tri}_{tr.lower()}", (2,), 5, 3, side == "left", tri == "lower", tr, tr == "TRANSPOSE", "c128")
        for side in ("left", "right")
        for tri in ("lower", "upper")
        for tr in TRANSPOSES
    ),
    Solve("ts_c64_left_adjoint", (), 8, 4, True, False, "ADJOINT", type="c64"),
]


def triangular(rng: np.random.Generator, case: Solve) -> tuple[np.ndarray, np.ndarray]:
    """(`a` with NaN where it must not be read, the explicit triangular matrix)."""
    m = case.m
    a = _real_or_complex(rng, case.a_shape(), case.type) / m
    diagonal = rng.uniform(1.0, 2.0, (*case.batch, m)) * rng.choice([-1.0, 1.0], (*case.batch, m))
    a = a + diagonal[..., :, None] * np.eye(m)
    a = a.astype(DTYPES[case.type]).astype(_wide(case.type))  # exactly representable
    keep = np.tril(np.ones((m, m), bool)) if case.lower else np.triu(np.ones((m, m), bool))
    if case.unit:
        keep &= ~np.eye(m, dtype=bool)
    explicit = np.where(keep, a, 0.0) + (np.eye(m) if case.unit else 0.0)
    return np.where(keep, a, np.nan), explicit


def solve_reference(explicit: np.ndarray, b: np.ndarray, case: Solve) -> np.ndarray:
    op = {"NO_TRANSPOSE": explicit, "TRANSPOSE": np.swapaxes(explicit, -1, -2), "ADJOINT": _h(explicit)}[case.transpose]
    if b.size == 0:
        return b.copy()
    if case.left:
        return np.linalg.solve(op, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


# ---------------------------------------------------------------------------
# The module and the checks
# ---------------------------------------------------------------------------

NOT_PD = [Chol("chol_not_pd_f64", (3, 4, 4), True), Chol("chol_not_pd_c128", (3, 4, 4), True, "c128")]
ALL = [*CHOLESKY, *NOT_PD, *SOLVES]
MODULE = "\n\n".join(c.function() for c in ALL)


@pytest.fixture(scope="module")
def executables() -> dict[str, object]:
    return {c.name: compile(MODULE, entry=c.name) for c in ALL}


def _wide(t: str) -> np.dtype:
    return np.dtype(np.complex128 if _is_complex(t) else np.float64)


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> None:
    """Entry-wise agreement up to `rtol` times the largest entry of each matrix."""
    diff = np.abs(np.asarray(got).astype(want.dtype) - want)
    scale = np.max(np.abs(want), axis=(-1, -2), keepdims=True) if want.size else 1.0
    bound = np.broadcast_to(rtol * np.maximum(scale, 1.0), want.shape)
    np.testing.assert_array_less(diff, bound)


@pytest.mark.parametrize("case", CHOLESKY, ids=lambda c: c.name)
def test_cholesky(executables: dict[str, object], case: Chol) -> None:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    lower = bool(case.lower)
    a = spd(rng, case.shape, case.type).astype(DTYPES[case.type]).astype(_wide(case.type))
    got = executables[case.name](with_garbage(a, lower, case.garbage).astype(DTYPES[case.type]))  # type: ignore[operator]
    assert got.dtype == DTYPES[case.type] and got.shape == case.shape
    want = cholesky_reference(a, lower)
    _close(got, want, RTOL[case.type])
    n = case.shape[-1]
    other = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    g = np.asarray(got).astype(_wide(case.type))
    assert np.all(g[..., other] == 0.0)
    product = g @ _h(g) if lower else _h(g) @ g
    _close(product, want @ _h(want) if lower else _h(want) @ want, 10 * RTOL[case.type])


NOT_PD_SHAPE = (3, 4, 4)


@pytest.mark.parametrize("t", ["f64", "c128"])
def test_cholesky_not_positive_definite(executables: dict[str, object], t: str) -> None:
    """XLA's CPU result: a matrix whose factorization meets a negative (or NaN)
    pivot is all NaN (NaN + 0i); the other matrices of the batch are unaffected."""
    rng = np.random.default_rng(7)
    a = spd(rng, NOT_PD_SHAPE, t)
    a[1] = np.diag([4.0, 1.0, 9.0, 1.0])
    a[1, 3, 2] = 5.0  # last pivot 1 - 25/9 < 0
    a[2, 1, 1] = np.nan  # a NaN in the read triangle reaches a pivot
    got = executables[f"chol_not_pd_{t}"](with_garbage(a, True, 0.0))  # type: ignore[operator]
    np.testing.assert_allclose(got[0], np.linalg.cholesky(a[0]), rtol=1e-12)
    assert np.all(np.isnan(got[1].real)) and np.all(np.isnan(got[2].real))
    assert np.all(got[1:].imag == 0.0)


@pytest.mark.parametrize("case", SOLVES, ids=lambda c: c.name)
def test_triangular_solve(executables: dict[str, object], case: Solve) -> None:
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    a, explicit = triangular(rng, case)
    b = _real_or_complex(rng, case.b_shape(), case.type).astype(DTYPES[case.type])
    got = executables[case.name](a.astype(DTYPES[case.type]), b)  # type: ignore[operator]
    assert got.dtype == DTYPES[case.type] and got.shape == case.b_shape()
    want = solve_reference(explicit, b.astype(_wide(case.type)), case)
    _close(got, want, RTOL[case.type])
