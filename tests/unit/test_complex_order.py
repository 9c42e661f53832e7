"""Complex `maximum`/`minimum`/`clamp`, TOTALORDER compares, complex `iota` and
`bitcast_convert` to/from complex, through `lower-to-llvm`.

References follow StableHLO literally: its interpreter's lexicographic order
(`max(a, b) = gt(a, b) ? a : b`, `gt = re(a) == re(b) ? im(a) > im(b) :
re(a) > re(b)`, IEEE compares; `clamp = min(max(x, lo), hi)`); TOTALORDER
compares the parts lexicographically by IEEE totalOrder; bitcasts reinterpret
the little-endian bytes (NumPy's `view`). All cases are one module, compiled
once; results are compared bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from xla_tools import compile

TYPES = {"c64": (np.complex64, "complex<f32>", np.float32), "c128": (np.complex128, "complex<f64>", np.float64)}

NAN, INF = float("nan"), float("inf")
PARTS = [0.0, -0.0, 1.5, -1.5, 2.5, INF, -INF, NAN]


def pairs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of two complex numbers built from `PARTS` (ties of the
    real part, signed zeros, infinities and NaN parts included)."""
    values = np.array([complex(r, i) for r in PARTS for i in PARTS], dtype)
    a, b = np.meshgrid(values, values, indexing="ij")
    return a.reshape(-1), b.reshape(-1)


def _gt(a: complex, b: complex) -> bool:
    return a.imag > b.imag if a.real == b.real else a.real > b.real


def _lt(a: complex, b: complex) -> bool:
    return a.imag < b.imag if a.real == b.real else a.real < b.real


def ref_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.array([x if _gt(x, y) else y for x, y in zip(a, b, strict=True)], a.dtype)


def ref_min(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.array([x if _lt(x, y) else y for x, y in zip(a, b, strict=True)], a.dtype)


def _key(x: np.floating) -> int:
    """IEEE totalOrder as a signed integer order on the bits."""
    width = np.dtype(type(x)).itemsize * 8
    bits = int(np.array(x).view(f"u{width // 8}"))
    return (1 << (width - 1)) - 1 - bits if bits >> (width - 1) else bits


def ref_total(direction: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = []
    for x, y in zip(a, b, strict=True):
        kx, ky = (_key(x.real), _key(x.imag)), (_key(y.real), _key(y.imag))
        out.append({"EQ": kx == ky, "NE": kx != ky, "LT": kx < ky, "LE": kx <= ky, "GT": kx > ky, "GE": kx >= ky}[direction])
    return np.array(out)


def same_bits(actual: np.ndarray, expected: np.ndarray) -> None:
    a, e = np.asarray(actual), np.asarray(expected)
    assert a.dtype == e.dtype and a.shape == e.shape
    ab, eb = a.view(np.uint8).reshape(a.size, -1), e.view(np.uint8).reshape(e.size, -1)
    bad = np.nonzero((ab != eb).any(axis=1))[0]
    assert bad.size == 0, f"{bad.size} mismatches, first {bad[:4]}: got {a.reshape(-1)[bad[:4]]}, want {e.reshape(-1)[bad[:4]]}"


@dataclass
class Case:
    name: str
    params: list[str]
    body: list[str]
    result: str
    inputs: Callable[[], list[np.ndarray]]
    reference: Callable[..., np.ndarray]

    def text(self) -> str:
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.params))
        lines = "\n    ".join(self.body)
        return f"  func.func @{self.name}({args}) -> {self.result} {{\n    {lines}\n    func.return %r : {self.result}\n  }}"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for key, (dtype, mlir, part) in TYPES.items():
        a, b = pairs(dtype)
        n = a.size
        t = f"tensor<{n}x{mlir}>"
        two = lambda a=a, b=b: [a, b]
        cases.append(Case(f"max_{key}", [t, t], [f"%r = xla.maximum %a0, %a1 : {t}"], t, two, ref_max))
        cases.append(Case(f"min_{key}", [t, t], [f"%r = xla.minimum %a0, %a1 : {t}"], t, two, ref_min))
        rng = np.random.default_rng(3)
        lo = a
        x = b[rng.permutation(n)]
        hi = a[rng.permutation(n)]
        cases.append(
            Case(
                f"clamp_{key}",
                [t, t, t],
                [f"%r = xla.clamp %a0, %a1, %a2 : {t}"],
                t,
                lambda lo=lo, x=x, hi=hi: [lo, x, hi],
                lambda lo, x, hi: ref_min(ref_max(x, lo), hi),
            )
        )
        scalar_t = f"tensor<{mlir}>"
        cases.append(
            Case(
                f"clamp_scalar_bounds_{key}",
                [scalar_t, t, scalar_t],
                [f"%r = xla.clamp %a0, %a1, %a2 : ({scalar_t}, {t}, {scalar_t}) -> {t}"],
                t,
                lambda x=x, dtype=dtype: [np.array(-1 + 1j, dtype), x, np.array(1.5 - 1.5j, dtype)],
                lambda lo, x, hi: ref_min(ref_max(x, np.full_like(x, lo)), np.full_like(x, hi)),
            )
        )
        pt = f"tensor<{n}xi1>"
        for d in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            cases.append(
                Case(
                    f"total_{d}_{key}",
                    [t, t],
                    [f"%r = xla.compare {d}, %a0, %a1, TOTALORDER : ({t}, {t}) -> {pt}"],
                    pt,
                    two,
                    lambda a, b, d=d: ref_total(d, a, b),
                )
            )
        iota_t = f"tensor<3x4x{mlir}>"
        for dim in (0, 1):
            cases.append(
                Case(
                    f"iota_{dim}_{key}",
                    [],
                    [f"%r = xla.iota dim = {dim} : {iota_t}"],
                    iota_t,
                    list,
                    lambda dim=dim, dtype=dtype: np.indices((3, 4))[dim].astype(dtype),
                )
            )
    # bitcasts: c128 -> 2 x c64 and back, c64 <-> f64/i64/ui64 and 2 x f32/i32
    rng = np.random.default_rng(11)
    raw128 = rng.integers(0, 1 << 63, (5, 2), dtype=np.uint64) * np.uint64(3)
    c128 = raw128.view(np.complex128).reshape(5)
    c64s = c128.view(np.complex64).reshape(5, 2)
    c64 = c64s.reshape(-1)[:5].copy()
    specs: list[tuple[str, str, str, np.ndarray, Callable[[np.ndarray], np.ndarray]]] = [
        ("c128_to_c64", "tensor<5xcomplex<f64>>", "tensor<5x2xcomplex<f32>>", c128, lambda v: v.view(np.complex64).reshape(5, 2)),
        ("c64_to_c128", "tensor<5x2xcomplex<f32>>", "tensor<5xcomplex<f64>>", c64s, lambda v: v.reshape(-1).view(np.complex128)),
        ("c64_to_f64", "tensor<5xcomplex<f32>>", "tensor<5xf64>", c64, lambda v: v.view(np.float64)),
        ("c64_to_ui64", "tensor<5xcomplex<f32>>", "tensor<5xui64>", c64, lambda v: v.view(np.uint64)),
        ("i64_to_c64", "tensor<5xi64>", "tensor<5xcomplex<f32>>", c64.view(np.int64), lambda v: v.view(np.complex64)),
        ("c64_to_f32", "tensor<5xcomplex<f32>>", "tensor<5x2xf32>", c64, lambda v: v.view(np.float32).reshape(5, 2)),
        ("i32_to_c64", "tensor<5x2xi32>", "tensor<5xcomplex<f32>>", c64.view(np.int32).reshape(5, 2), lambda v: v.reshape(-1).view(np.complex64)),
        ("c128_to_i8", "tensor<5xcomplex<f64>>", "tensor<5x16xi8>", c128, lambda v: v.view(np.int8).reshape(5, 16)),
    ]
    for name, src, dst, value, ref in specs:
        cases.append(
            Case(
                f"bitcast_{name}",
                [src],
                [f"%r = xla.bitcast_convert %a0 : ({src}) -> {dst}"],
                dst,
                lambda value=value: [value],
                ref,
            )
        )
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def module_text() -> str:
    return "builtin.module {\n" + "\n".join(c.text() for c in CASES) + "\n}\n"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_complex_order(case: Case, module_text: str) -> None:
    f = compile(module_text, entry=case.name)
    args = case.inputs()
    same_bits(f(*args), case.reference(*args))
