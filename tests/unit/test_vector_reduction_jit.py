"""`vector.reduction` and `vector.shuffle` compiled by the JIT (`convert-vector-to-llvm`
→ `llvm.vector.reduce.*`, `llvm.shufflevector`) and run, against NumPy: the edge
cases of each kind (NaN, signed zeros, integer wrap), the ordered float sum's
start value, and `reassoc`."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from lowering.to_llvm.common import register_llvm_extensions
from xla_dialect.context import make_context
from xla_tools.pipelines import lower_and_compile


def parse(src: str) -> ModuleOp:
    ctx = make_context()
    register_llvm_extensions(ctx)
    return Parser(ctx, src).parse_module()

LANES = 8

FLOAT_KINDS = ["add", "mul", "maximumf", "minimumf"]
INT_KINDS = ["add", "mul", "and", "or", "xor", "maxsi", "minsi", "maxui", "minui"]


def _kernel(name: str, kind: str, t: str, flags: str = "") -> str:
    fastmath = f" fastmath<{flags}>" if flags else ""
    return f"""
func.func @{name}(%a: memref<{LANES}x{t}>, %out: memref<1x{t}>) {{
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<{LANES}x{t}>, vector<{LANES}x{t}>
  %r = vector.reduction <{kind}>, %v{fastmath} : vector<{LANES}x{t}> into {t}
  memref.store %r, %out[%c0] : memref<1x{t}>
  func.return
}}
"""


SHUFFLE = f"""
func.func @halves(%a: memref<{LANES}xi32>, %out: memref<{LANES}xi32>) {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v = vector.load %a[%c0] : memref<{LANES}xi32>, vector<{LANES}xi32>
  %hi = vector.shuffle %v, %v [4, 5, 6, 7] : vector<{LANES}xi32>, vector<{LANES}xi32>
  %lo = vector.shuffle %v, %v [3, 2, 1, 0] : vector<{LANES}xi32>, vector<{LANES}xi32>
  vector.store %hi, %out[%c0] : memref<{LANES}xi32>, vector<4xi32>
  vector.store %lo, %out[%c4] : memref<{LANES}xi32>, vector<4xi32>
  func.return
}}
"""


@pytest.fixture(scope="module")
def jit():
    kernels = [_kernel(f"f32_{k}", k, "f32") for k in FLOAT_KINDS]
    kernels += [_kernel(f"f64_{k}", k, "f64") for k in FLOAT_KINDS]
    kernels += [_kernel("f32_add_reassoc", "add", "f32", "reassoc")]
    kernels += [_kernel(f"i32_{k}", k, "i32") for k in INT_KINDS]
    kernels += [_kernel(f"i8_{k}", k, "i8") for k in INT_KINDS]
    return lower_and_compile(parse("\n".join([*kernels, SHUFFLE])))


def _reduce(jit, name: str, a: np.ndarray) -> np.generic:
    out = np.zeros(1, dtype=a.dtype)
    jit.call(name, np.ascontiguousarray(a), out)
    return out[0]


RNG = np.random.default_rng(3)

FLOAT_REFERENCE = {
    "add": lambda a: a.sum(dtype=np.float64),
    "mul": lambda a: a.prod(dtype=np.float64),
    "maximumf": np.max,
    "minimumf": np.min,
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", FLOAT_KINDS)
def test_float_kinds(jit, kind: str, dtype) -> None:
    name = f"{np.dtype(dtype).name.replace('float', 'f')}_{kind}"
    a = (RNG.standard_normal(LANES) + 0.5).astype(dtype)
    np.testing.assert_allclose(_reduce(jit, name, a), FLOAT_REFERENCE[kind](a), rtol=1e-6)
    # NaN in any lane propagates (maximumf/minimumf too: they are not maxnum/minnum)
    for lane in (0, 5, LANES - 1):
        b = a.copy()
        b[lane] = np.nan
        assert np.isnan(_reduce(jit, name, b)), (kind, lane)


def test_signed_zeros(jit) -> None:
    zeros = np.full(LANES, -0.0, dtype=np.float32)
    # the ordered sum starts at -0.0, its identity: -0.0 + ... + -0.0 is -0.0
    assert np.signbit(_reduce(jit, "f32_add", zeros))
    mixed = zeros.copy()
    mixed[6] = 0.0
    assert not np.signbit(_reduce(jit, "f32_add", mixed))
    assert not np.signbit(_reduce(jit, "f32_maximumf", mixed))  # -0.0 < +0.0
    assert np.signbit(_reduce(jit, "f32_minimumf", mixed))


def test_ordered_and_reassociated_sums(jit) -> None:
    # 1e8 + 1 - 1e8 ...: the ordered reduction adds lane 0 first, exactly as a loop
    a = np.array([1e8, 1, -1e8, 1, 3, -3, 0.5, 0.25], dtype=np.float32)
    expected = np.float32(0)
    for x in a:
        expected = np.float32(expected + x)
    assert _reduce(jit, "f32_add", a) == expected
    # reassoc: any order (a tree here); on exactly representable sums the same value
    b = np.arange(-3, LANES - 3, dtype=np.float32) * 0.5
    assert _reduce(jit, "f32_add_reassoc", b) == b.sum() == _reduce(jit, "f32_add", b)


INT_REFERENCE = {
    "add": lambda a: np.add.reduce(a, dtype=a.dtype),
    "mul": lambda a: np.multiply.reduce(a, dtype=a.dtype),
    "and": np.bitwise_and.reduce,
    "or": np.bitwise_or.reduce,
    "xor": np.bitwise_xor.reduce,
    "maxsi": np.max,
    "minsi": np.min,
    "maxui": lambda a: np.max(a.view(f"u{a.dtype.itemsize}")).view(a.dtype),
    "minui": lambda a: np.min(a.view(f"u{a.dtype.itemsize}")).view(a.dtype),
}


@pytest.mark.parametrize("dtype", [np.int32, np.int8])
@pytest.mark.parametrize("kind", INT_KINDS)
def test_int_kinds(jit, kind: str, dtype) -> None:
    info = np.iinfo(dtype)
    a = RNG.integers(info.min, info.max, size=LANES, endpoint=True, dtype=dtype)
    a[0] = info.min  # wraps in add and mul, unsigned max in maxui
    name = f"{np.dtype(dtype).name.replace('int', 'i')}_{kind}"
    with np.errstate(over="ignore"):
        assert _reduce(jit, name, a) == INT_REFERENCE[kind](a), (kind, a)


def test_shuffle(jit) -> None:
    a = np.arange(10, 10 + LANES, dtype=np.int32)
    out = np.zeros(LANES, dtype=np.int32)
    jit.call("halves", a, out)
    assert out.tolist() == [14, 15, 16, 17, 13, 12, 11, 10]
