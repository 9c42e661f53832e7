"""`xla.constant` (splat and dense) and `xla.iota`, compiled through `xla_tools.compile` and checked against NumPy
references (conventions: `compile_ops_support.py`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from compile_ops_support import (
    ALL,
    DTYPES,
    FLOATS,
    NUMERIC,
    Kernels,
    Module,
    array,
    assert_same,
    bits_dtype,
    ids,
    int_range,
    ttype,
)

# ===========================================================================
# constant, iota
# ===========================================================================

CONSTANTS = Module()
DENSE_CONSTANTS = Module()
"""Non-splat constants (each a global): a module of their own while two globals
of different sizes in one module fail to translate (see test_dense_constant)."""


def literal(values: np.ndarray, t: str) -> str:
    """A `dense<...>` body: nested lists; non-finite floats as bit patterns."""

    def element(v: Any) -> str:
        if t == "i1":
            return "true" if v else "false"
        if t in FLOATS:
            f = float(v)
            if math.isfinite(f):
                text = repr(f)
                return text if "." in text else text.replace("e", ".0e")
            bits = int(np.asarray(v, dtype=DTYPES[t]).view(bits_dtype(t)))
            return f"0x{bits:0{DTYPES[t].itemsize * 2}X}"
        return str(int(v))

    def nest(a: np.ndarray) -> str:
        if a.ndim == 0:
            return element(a[()])
        return "[" + ", ".join(nest(x) for x in a) + "]"

    return nest(values)


def constant_values(t: str, n: int) -> list[Any]:
    """Interesting values of type `t` (extremes; NaN, +-inf, -0.0, denormals)."""
    if t == "i1":
        return [True, False, False, True][:n] + [True] * max(0, n - 4)
    if t in FLOATS:
        finfo = ml_dtypes.finfo(DTYPES[t]) if t == "bf16" else np.finfo(DTYPES[t])
        base = [
            1.5,
            -0.0,
            math.inf,
            math.nan,
            -2.75,
            float(finfo.max),
            -math.inf,
            float(finfo.smallest_subnormal),
            0.0,
            -3.0,
        ]
        return (base * (n // len(base) + 1))[:n]
    lo, hi = int_range(t)
    base = [lo, hi, 0, -1 if lo < 0 else 1, 7, hi - 1]
    return (base * (n // len(base) + 1))[:n]


@dataclass(frozen=True)
class ConstantCase:
    name: str
    t: str
    expected: np.ndarray = field(compare=False)


def _constant_cases() -> list[ConstantCase]:
    cases: list[ConstantCase] = []
    splat_values: dict[str, Any] = {
        "i1": True,
        "i8": -128,
        "i16": 32767,
        "i32": -7,
        "i64": -(2**63),
        "ui8": 255,
        "ui16": 40000,
        "ui32": 2**32 - 1,
        "ui64": 2**64 - 1,
        "f16": -0.0,
        "bf16": 1.5,
        "f32": math.nan,
        "f64": -math.inf,
    }
    for t in ALL:
        for shape in [(), (3,), (2, 1, 3)]:
            value = np.full(shape, array(splat_values[t], t), dtype=DTYPES[t])
            name = f"splat_{t}_r{len(shape)}"
            body = (
                f"%r = xla.constant dense<{literal(value.reshape(-1)[0], t)}> : {ttype(t, shape)}"
            )
            CONSTANTS.add(name, [], [body], [("%r", ttype(t, shape))])
            cases.append(ConstantCase(name, t, value))
        for shape in [(4,), (2, 1, 5)]:
            n = int(np.prod(shape))
            value = array(constant_values(t, n), t).reshape(shape)
            name = f"dense_{t}_r{len(shape)}"
            DENSE_CONSTANTS.add(
                name,
                [],
                [f"%r = xla.constant dense<{literal(value, t)}> : {ttype(t, shape)}"],
                [("%r", ttype(t, shape))],
            )
            cases.append(ConstantCase(name, t, value))
    # A constant with no elements and a zero-extent dimension.
    for t, shape in [("f32", (0,)), ("i32", (2, 0))]:
        name = f"empty_{t}"
        value = np.zeros(shape, DTYPES[t])
        CONSTANTS.add(
            name,
            [],
            [f"%r = xla.constant dense<{literal(value, t)}> : {ttype(t, shape)}"],
            [("%r", ttype(t, shape))],
        )
        cases.append(ConstantCase(name, t, value))
    return cases


CONSTANT_CASES = _constant_cases()


@dataclass(frozen=True)
class IotaCase:
    name: str
    t: str
    shape: tuple[int, ...]
    dim: int


def _iota_cases() -> list[IotaCase]:
    cases: list[IotaCase] = []
    configs: list[tuple[tuple[int, ...], int]] = [
        ((2, 3, 4), 0),
        ((2, 3, 4), 1),
        ((2, 3, 4), 2),
        ((5,), 0),
        ((1, 3), 0),
        ((3, 1), 0),
    ]
    for i, t in enumerate(NUMERIC):
        chosen = configs if t in ("i32", "f32") else [configs[i % 3], configs[3 + i % 3]]
        for shape, dim in chosen:
            cases.append(IotaCase(f"iota_{t}_{'x'.join(map(str, shape))}_d{dim}", t, shape, dim))
    # Long iotas in narrow float types round like a conversion of the index.
    cases += [
        IotaCase("iota_bf16_long", "bf16", (300,), 0),
        IotaCase("iota_f16_long", "f16", (2100,), 0),
    ]
    for c in cases:
        CONSTANTS.add(
            c.name,
            [],
            [f"%r = xla.iota dim = {c.dim} : {ttype(c.t, c.shape)}"],
            [("%r", ttype(c.t, c.shape))],
        )
    return cases


IOTA_CASES = _iota_cases()


@pytest.fixture(scope="module")
def constants() -> Kernels:
    return Kernels(CONSTANTS)


SPLAT_CASES = [c for c in CONSTANT_CASES if c.name in CONSTANTS.functions]
DENSE_CASES = [c for c in CONSTANT_CASES if c.name in DENSE_CONSTANTS.functions]


@pytest.mark.parametrize("case", SPLAT_CASES, ids=ids(SPLAT_CASES))
def test_splat_constant(constants: Kernels, case: ConstantCase) -> None:
    assert_same(constants[case.name](), case.expected, case.name)


@pytest.fixture(scope="module")
def dense_constants() -> Kernels:
    return Kernels(DENSE_CONSTANTS)


@pytest.mark.parametrize("case", DENSE_CASES, ids=ids(DENSE_CASES))
def test_dense_constant(dense_constants: Kernels, case: ConstantCase) -> None:
    """Many globals of different sizes in one module (llvm.memcpy declared once)."""
    assert_same(dense_constants[case.name](), case.expected, case.name)


@pytest.mark.parametrize("case", IOTA_CASES, ids=ids(IOTA_CASES))
def test_iota(constants: Kernels, case: IotaCase) -> None:
    index = np.indices(case.shape)[case.dim] if case.shape else np.zeros((), np.int64)
    expected = (
        index.astype(np.float64).astype(DTYPES[case.t])
        if case.t in FLOATS
        else index.astype(DTYPES[case.t])
    )
    assert_same(constants[case.name](), expected, case.name)
