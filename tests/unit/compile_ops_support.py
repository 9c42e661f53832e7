"""What the `test_compile_*.py` files share: whole-tensor ops through
`xla_tools.compile`, checked against NumPy references.

Each op family (one `test_compile_<family>.py`) is one MLIR module of many small functions, built here as text
and compiled once per test process (`compile` caches modules by their text; the
module-scoped fixtures compile eagerly so a lowering error shows up as the error
of every test of the family). The tests cover the tensor paths of the lowering
(indexing maps, broadcasting, slicing offsets, reductions, the signedness of
`ui` types, bf16 storage); the scalar semantics of each element-wise op are
tested in `test_scalar_semantics.py`, so here only a representative subset of
element-wise ops runs per element type.

References follow the spec and XLA's CPU backend: float -> int conversion
saturates (NaN -> 0), integer division by zero gives -1 (x % 0 = x), shifts by
counts >= the width give 0, float maximum propagates NaN, dynamic slice starts
are clamped so the slice stays in bounds.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

from xla_tools import compile

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

SINTS = ["i8", "i16", "i32", "i64"]
UINTS = ["ui8", "ui16", "ui32", "ui64"]
INTS = SINTS + UINTS
FLOATS = ["f16", "bf16", "f32", "f64"]
NUMERIC = INTS + FLOATS
ALL = ["i1", *NUMERIC]

DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
FLOAT_FORMAT: dict[str, tuple[int, int]] = {
    "f16": (5, 10),
    "bf16": (8, 7),
    "f32": (8, 23),
    "f64": (11, 52),
}
"""(exponent bits, mantissa bits) of each float type."""


def width(t: str) -> int:
    return 1 if t == "i1" else DTYPES[t].itemsize * 8


def int_range(t: str) -> tuple[int, int]:
    if t == "i1":
        return 0, 1
    w = width(t)
    return (0, 2**w - 1) if t in UINTS else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def bits_dtype(t: str) -> np.dtype:
    """The unsigned integer dtype holding a float type's bit pattern."""
    return np.dtype(f"u{DTYPES[t].itemsize}")


def ttype(t: str, shape: Sequence[int]) -> str:
    """`tensor<2x3xf32>`, `tensor<f32>`."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + t + ">"


def fmt_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


def rng_for(*key: object) -> np.random.Generator:
    """A generator seeded by the test case, the same in every process."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def array(values: Any, t: str) -> np.ndarray:
    """`values` as an array of type `t` (floats through float64; ints wrap)."""
    if t in FLOATS:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(np.asarray(values, dtype=np.float64).astype(DTYPES[t]))
    if t == "i1":
        return np.asarray(values, dtype=np.bool_)
    lo, hi = int_range(t)
    span = hi - lo + 1
    wrapped = [((int(v) - lo) % span) + lo for v in np.ravel(np.asarray(values, dtype=object))]
    return np.array(wrapped, dtype=DTYPES[t]).reshape(np.shape(values))


FLOAT_SPECIALS = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0]


def sample(
    t: str, shape: Sequence[int], *key: object, special: bool = True, small: bool = False
) -> np.ndarray:
    """Random data of type `t`; `special` plants NaN, -NaN, +-inf, +-0 at the
    start (floats) or the extremes at random places (ints); `small` keeps values
    in [-8, 8]."""
    rng = rng_for(t, tuple(shape), *key)
    n = int(np.prod(shape, dtype=np.int64))
    if t == "i1":
        flat = rng.random(n) < 0.5
        return flat.reshape(shape)
    if t in FLOATS:
        if small:
            values = rng.integers(-8, 9, n).astype(np.float64)
        else:
            values = rng.standard_normal(n) * 8
        if special:
            specials = FLOAT_SPECIALS[: n // 2]
            values[: len(specials)] = specials
        return array(values, t).reshape(shape)
    lo, hi = int_range(t)
    if small:
        lo, hi = max(lo, -8), min(hi, 8)
    values_list = [
        int(v)
        for v in rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if hi < 2**63 else np.uint64)
    ]
    if special:
        extremes = [lo, hi, 0, 1, hi - 1, lo + 1][: max(1, n // 2)]
        values_list[: len(extremes)] = extremes[:n]
    out = np.array(values_list, dtype=DTYPES[t]).reshape(shape)
    rng.shuffle(out.reshape(-1))
    return out


def scalar(value: Any, t: str) -> np.ndarray:
    return array(value, t).reshape(())


# ---------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------


def assert_same(actual: Any, expected: np.ndarray, what: str = "") -> None:
    """Equal dtype, shape and values; floats compare bit for bit except that any
    NaN matches any NaN (so -0.0 and +0.0 differ)."""
    assert isinstance(actual, np.ndarray), f"{what}: got {type(actual).__name__}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if expected.dtype.kind == "f" or expected.dtype == DTYPES["bf16"]:
        nan_a = np.isnan(actual.astype(np.float64))
        nan_e = np.isnan(expected.astype(np.float64))
        bits_a = actual.view(f"u{actual.itemsize}")
        bits_e = expected.view(f"u{expected.itemsize}")
        bad = (nan_a != nan_e) | (~nan_e & (bits_a != bits_e))
    else:
        bad = actual != expected
    if np.any(bad):
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise AssertionError(
            f"{what}: {int(np.count_nonzero(bad))} of {bad.size} elements differ; first at {index}: "
            f"got {actual[index]!r}, expected {expected[index]!r}\ngot:\n{actual}\nexpected:\n{expected}"
        )


def assert_close(actual: Any, expected: np.ndarray, rtol: float, what: str = "") -> None:
    """Same dtype and shape; NaN and infinities where expected, else within rtol."""
    assert (
        isinstance(actual, np.ndarray)
        and actual.dtype == expected.dtype
        and actual.shape == expected.shape
    ), (
        f"{what}: got {getattr(actual, 'dtype', None)} {getattr(actual, 'shape', None)}, "
        f"expected {expected.dtype} {expected.shape}"
    )
    np.testing.assert_allclose(
        actual.astype(np.float64),
        expected.astype(np.float64),
        rtol=rtol,
        atol=0,
        equal_nan=True,
        err_msg=what,
    )


# ---------------------------------------------------------------------------
# Modules of kernels
# ---------------------------------------------------------------------------


@dataclass
class Module:
    """Functions collected as MLIR text; compiled as one module."""

    functions: dict[str, str] = field(default_factory=dict)

    def add(
        self,
        name: str,
        params: Sequence[str],
        ops: Sequence[str],
        results: Sequence[tuple[str, str]],
    ) -> str:
        """A function `@name(%a0: params[0], ...)` running `ops` and returning
        `results` ((value, type) pairs)."""
        assert name not in self.functions, name
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(params))
        types = [t for _, t in results]
        lines = [f"func.func @{name}({args}) -> ({', '.join(types)}) {{"]
        lines += [f"  {op}" for op in ops]
        lines.append(f"  func.return {', '.join(v for v, _ in results)} : {', '.join(types)}")
        lines.append("}")
        self.functions[name] = "\n".join(lines)
        return name

    @property
    def text(self) -> str:
        return "\n\n".join(self.functions.values()) + "\n"


class Kernels:
    """The compiled functions of one module, by name."""

    def __init__(self, module: Module):
        self.text = module.text
        compile(self.text, next(iter(module.functions)))

    def __getitem__(self, name: str) -> Callable[..., Any]:
        """The function `name`, checking on each call that it leaves its arguments alone."""
        function = compile(self.text, name)

        def call(*args: np.ndarray) -> Any:
            before = [np.array(a, copy=True) for a in args]
            result = function(*args)
            for i, (a, b) in enumerate(zip(args, before)):
                assert np.asarray(a).tobytes() == b.tobytes(), (
                    f"@{name} wrote into its argument {i}"
                )
            return result

        return call


def ids(cases: Sequence[Any]) -> list[str]:
    return [c.name for c in cases]


# ---------------------------------------------------------------------------
# References shared by several families
# ---------------------------------------------------------------------------


def ref_convert(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """ConvertElementType: saturating float -> int (NaN -> 0, truncation toward
    zero), wrapping int -> int, rounding to nearest even otherwise; PRED is x != 0."""
    out_dtype = DTYPES[dst]
    if dst == "i1":
        return np.asarray(x.astype(np.float64) != 0) if src in FLOATS else np.asarray(x != 0)
    if src in FLOATS and dst not in FLOATS:
        lo, hi = int_range(dst)
        values: list[int] = []
        for v in x.astype(np.float64).reshape(-1):
            if math.isnan(v):
                values.append(0)
            elif v >= hi + 1:
                values.append(hi)
            elif v <= lo - 1:
                values.append(lo)
            else:
                values.append(int(v))
        return np.array(values, dtype=out_dtype).reshape(x.shape)
    # The edge values are exact in f32 (or round the same through it), so going
    # through f64/f32 here rounds once, like the compiled conversion.
    if src in FLOATS:
        source = x if src == "f64" else x.astype(np.float32)
        with np.errstate(over="ignore"):
            return source.astype(out_dtype)
    if dst in FLOATS:
        wide = np.array([float(int(v)) for v in x.reshape(-1)], dtype=np.float64).reshape(x.shape)
        with np.errstate(over="ignore"):
            return wide.astype(out_dtype)
    return array(x.astype(object) if src != "i1" else x.astype(np.int64), dst)


def _int_div(a: int, b: int, t: str, remainder: bool) -> int:
    lo, hi = int_range(t)
    if b == 0:
        return a if remainder else (hi if t in UINTS else -1)
    if a == lo and b == -1 and t in SINTS:
        return 0 if remainder else lo
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return a - q * b if remainder else q


def _float_max_min(a: np.ndarray, b: np.ndarray, take_max: bool) -> np.ndarray:
    """NaN-propagating max/min with -0 < +0 (LLVM's maximum/minimum)."""
    x, y = a.astype(np.float64), b.astype(np.float64)
    out = np.maximum(x, y) if take_max else np.minimum(x, y)
    zeros = (x == 0) & (y == 0)
    both_negative = np.signbit(x) & np.signbit(y)
    any_negative = np.signbit(x) | np.signbit(y)
    zero_result = np.where(both_negative if take_max else any_negative, -0.0, 0.0)
    return np.where(zeros, zero_result, out).astype(a.dtype)


def ref_binary(op: str, a: np.ndarray, b: np.ndarray, t: str) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    if t in FLOATS:
        with np.errstate(all="ignore"):
            x, y = a.astype(np.float64), b.astype(np.float64)
            if op in ("maximum", "minimum"):
                return _float_max_min(a, b, op == "maximum")
            if op == "remainder":
                return np.fmod(x, y).astype(DTYPES[t])
            f: dict[str, Callable[[Any, Any], Any]] = {
                "add": np.add,
                "subtract": np.subtract,
                "multiply": np.multiply,
                "divide": np.divide,
            }
            # f16/bf16/f32 results of one op on exact f64 inputs round once, as the op does.
            return f[op](x, y).astype(DTYPES[t])
    if t == "i1":
        table: dict[str, Callable[[Any, Any], Any]] = {
            "add": np.logical_or,
            "and": np.logical_and,
            "or": np.logical_or,
            "maximum": np.logical_or,
            "minimum": np.logical_and,
            "multiply": np.logical_and,
        }
        return np.asarray(table[op](a, b))
    w = width(t)
    out: list[int] = []
    for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist()):
        if op == "add":
            out.append(x + y)
        elif op == "subtract":
            out.append(x - y)
        elif op == "multiply":
            out.append(x * y)
        elif op in ("divide", "remainder"):
            out.append(_int_div(x, y, t, op == "remainder"))
        elif op == "maximum":
            out.append(max(x, y))
        elif op == "minimum":
            out.append(min(x, y))
        elif op == "and":
            out.append(x & y)
        elif op == "shift_left":
            count = y % (1 << w)  # the count is read as unsigned
            out.append(0 if count >= w else x << count)
        else:
            raise AssertionError(op)
    return array(np.array(out, dtype=object).reshape(a.shape), t)
