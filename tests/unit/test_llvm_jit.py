"""End to end: func/arith/math/memref/scf programs lowered by the project's passes
(`lower-scf-to-cf`, `convert-to-llvm`), compiled by `runtime.jit` and run on
NumPy arrays through ctypes, checked against NumPy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from lowering.to_llvm.common import register_llvm_extensions
from runtime.jit import JitError, compile_llvm_module
from xla_dialect.context import make_context
from xla_dialect.diagnostics import LoweringError
from xla_tools.pipelines import lower_and_compile

N = 37  # not a multiple of any vector width: exercises the loop epilogues


def parse(src: str) -> ModuleOp:
    ctx = make_context()
    register_llvm_extensions(ctx)
    return Parser(ctx, src).parse_module()


def compile_src(src: str):
    return lower_and_compile(parse(src))


MLIR_TYPES = {
    np.int8: "i8",
    np.int16: "i16",
    np.int32: "i32",
    np.int64: "i64",
    np.uint8: "i8",
    np.uint32: "i32",
    np.float16: "f16",
    np.float32: "f32",
    np.float64: "f64",
}


def elementwise(body: str, in_type: str, out_type: str, n_inputs: int = 2, n: int = N) -> str:
    """`@kernel(%a, %b, ..., %out)`: out[i] = body(%x0, %x1, ...) for i < n."""
    args = ", ".join(f"%a{k}: memref<{n}x{in_type}>" for k in range(n_inputs))
    loads = "\n".join(
        f"    %x{k} = memref.load %a{k}[%i] : memref<{n}x{in_type}>" for k in range(n_inputs)
    )
    return f"""
func.func @kernel({args}, %out: memref<{n}x{out_type}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  scf.for %i = %c0 to %cn step %c1 {{
{loads}
    {body}
    memref.store %r, %out[%i] : memref<{n}x{out_type}>
  }}
  func.return
}}
"""


def run_elementwise(src: str, inputs: list[np.ndarray], out_dtype) -> np.ndarray:
    jit = compile_src(src)
    out = np.zeros(inputs[0].shape, dtype=out_dtype)
    jit.call("kernel", *inputs, out)
    return out


RNG = np.random.default_rng(0)


def ints(dtype, n: int = N, low=None, high=None) -> np.ndarray:
    info = np.iinfo(dtype)
    low = info.min if low is None else low
    high = info.max if high is None else high
    return RNG.integers(low, high, size=n, endpoint=True, dtype=dtype)


def floats(dtype, n: int = N) -> np.ndarray:
    return (RNG.standard_normal(n) * 10).astype(dtype)


# ---------------------------------------------------------------------------
# The JIT on llvm-dialect input
# ---------------------------------------------------------------------------


def test_jit_llvm_dialect_loop_and_scalar_function() -> None:
    module = parse(
        """
llvm.func @axpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^hdr(%c0 : i64)
^hdr(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^exit
^body:
  %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %py = llvm.getelementptr %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %vx = llvm.load %px : !llvm.ptr -> f32
  %vy = llvm.load %py : !llvm.ptr -> f32
  %m = llvm.fmul %a, %vx : f32
  %s = llvm.fadd %m, %vy : f32
  llvm.store %s, %py : f32, !llvm.ptr
  %i2 = llvm.add %i, %c1 : i64
  llvm.br ^hdr(%i2 : i64)
^exit:
  llvm.return
}
llvm.func @square(%v: f64) -> f64 {
  %r = llvm.fmul %v, %v : f64
  llvm.return %r : f64
}
llvm.func @to_int(%v: f64) -> i32 {
  %r = llvm.fptosi %v : f64 to i32
  llvm.return %r : i32
}
llvm.func @from_unsigned(%v: i32) -> f64 {
  %r = llvm.uitofp %v : i32 to f64
  llvm.return %r : f64
}
"""
    )
    jit = compile_llvm_module(module)
    x = floats(np.float32, 1000)
    y = floats(np.float32, 1000)
    expected = np.float32(2.5) * x + y
    jit.call("axpy", 2.5, x, y, 1000)
    np.testing.assert_allclose(y, expected, rtol=1e-6)
    assert jit.call("square", 1.5) == 2.25
    assert jit.call("to_int", -7.9) == -7
    assert jit.call("from_unsigned", -1) == 2.0**32 - 1
    assert isinstance(jit.get_function("axpy"), int) and jit.get_function("axpy") != 0
    # the loop was vectorized at O3
    assert "<4 x float>" in jit.optimized_ir or "<8 x float>" in jit.optimized_ir or "<16 x float>" in jit.optimized_ir


def test_several_modules_coexist() -> None:
    src = 'func.func @f(%x: i64) -> i64 {{ %c = arith.constant {k} : i64\n %r = arith.muli %x, %c : i64\n func.return %r : i64 }}'
    jits = [compile_src(src.format(k=k)) for k in range(1, 5)]
    assert [j.call("f", 10) for j in jits] == [10, 20, 30, 40]


def test_jit_errors_are_reported() -> None:
    module = parse("func.func @f() { func.return }")
    with pytest.raises(JitError, match="func.func"):
        compile_llvm_module(module)
    with pytest.raises(KeyError):
        compile_src("func.func @f() { func.return }").get_function("nope")


# ---------------------------------------------------------------------------
# arith
# ---------------------------------------------------------------------------

INT_OPS = {
    "addi": np.add,
    "subi": np.subtract,
    "muli": np.multiply,
    "andi": np.bitwise_and,
    "ori": np.bitwise_or,
    "xori": np.bitwise_xor,
    "maxsi": np.maximum,
    "minsi": np.minimum,
}


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("op", sorted(INT_OPS))
def test_integer_binary_ops(dtype, op: str) -> None:
    t = MLIR_TYPES[dtype]
    a, b = ints(dtype), ints(dtype)
    out = run_elementwise(elementwise(f"%r = arith.{op} %x0, %x1 : {t}", t, t), [a, b], dtype)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, INT_OPS[op](a, b))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_integer_division_and_shifts(dtype) -> None:
    t = MLIR_TYPES[dtype]
    bits = np.iinfo(dtype).bits
    a = ints(dtype, low=-100, high=100)
    b = ints(dtype, low=1, high=9) * np.where(RNG.integers(0, 2, N) == 0, 1, -1).astype(dtype)
    s = ints(dtype, low=0, high=bits - 1)
    ua, ub = a.view(np.dtype(dtype).str.replace("i", "u")), b.view(np.dtype(dtype).str.replace("i", "u"))
    cases = {
        "arith.divsi": np.trunc(a / b).astype(dtype),
        "arith.remsi": np.fmod(a, b).astype(dtype),
        "arith.floordivsi": np.floor_divide(a, b),
        "arith.ceildivsi": -np.floor_divide(-a, b),
        "arith.divui": (ua // ub).view(dtype),
        "arith.remui": (ua % ub).view(dtype),
        "arith.maxui": np.maximum(ua, ub).view(dtype),
        "arith.minui": np.minimum(ua, ub).view(dtype),
    }
    for op, expected in cases.items():
        out = run_elementwise(elementwise(f"%r = {op} %x0, %x1 : {t}", t, t), [a, b], dtype)
        np.testing.assert_array_equal(out, expected, err_msg=op)
    shifts = {
        "arith.shli": (a.astype(np.int64) << s).astype(dtype),
        "arith.shrsi": a >> s,
        "arith.shrui": (ua >> s.view(ua.dtype)).view(dtype),
    }
    for op, expected in shifts.items():
        out = run_elementwise(elementwise(f"%r = {op} %x0, %x1 : {t}", t, t), [a, s], dtype)
        np.testing.assert_array_equal(out, expected, err_msg=op)


def test_ceildivui() -> None:
    a = ints(np.uint32, high=1000)
    b = ints(np.uint32, low=1, high=50)
    out = run_elementwise(elementwise("%r = arith.ceildivui %x0, %x1 : i32", "i32", "i32"), [a, b], np.uint32)
    np.testing.assert_array_equal(out, (a.astype(np.int64) + b - 1) // b)


FLOAT_OPS = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "maximumf": np.maximum,
    "minimumf": np.minimum,
}


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(FLOAT_OPS))
def test_float_binary_ops(dtype, op: str) -> None:
    t = MLIR_TYPES[dtype]
    a, b = floats(dtype), floats(dtype)
    a[3], b[5] = np.nan, np.nan  # maximumf/minimumf propagate NaN as np.maximum does
    a[7], b[7] = -0.0, 0.0
    out = run_elementwise(elementwise(f"%r = arith.{op} %x0, %x1 : {t}", t, t), [a, b], dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = FLOAT_OPS[op](a, b)
    np.testing.assert_array_equal(out, expected)
    if op in ("maximumf", "minimumf"):
        assert np.signbit(out[7]) == (op == "minimumf")


def test_negf_and_select_cmpf() -> None:
    a, b = floats(np.float32), floats(np.float32)
    a[0] = np.nan
    body = "%n = arith.negf %x0 : f32\n    %c = arith.cmpf ogt, %n, %x1 : f32\n    %r = arith.select %c, %n, %x1 : f32"
    out = run_elementwise(elementwise(body, "f32", "f32"), [a, b], np.float32)
    np.testing.assert_array_equal(out, np.where(-a > b, -a, b))


@pytest.mark.parametrize(
    "pred,fn",
    [
        ("oeq", lambda a, b: a == b),
        ("one", lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b)),
        ("olt", lambda a, b: a < b),
        ("uge", lambda a, b: ~(a < b)),
        ("une", lambda a, b: a != b),
        ("ord", lambda a, b: ~np.isnan(a) & ~np.isnan(b)),
        ("uno", lambda a, b: np.isnan(a) | np.isnan(b)),
        ("true", lambda a, b: np.ones_like(a, bool)),
        ("false", lambda a, b: np.zeros_like(a, bool)),
    ],
)
def test_cmpf_predicates(pred: str, fn) -> None:
    a, b = floats(np.float64), floats(np.float64)
    b[:5] = a[:5]
    a[10], b[11], a[12], b[12] = np.nan, np.nan, np.nan, np.nan
    out = run_elementwise(elementwise(f"%r = arith.cmpf {pred}, %x0, %x1 : f64", "f64", "i1"), [a, b], np.bool_)
    np.testing.assert_array_equal(out, fn(a, b))


@pytest.mark.parametrize(
    "pred,fn",
    [
        ("eq", np.equal),
        ("ne", np.not_equal),
        ("slt", np.less),
        ("sle", np.less_equal),
        ("sgt", np.greater),
        ("sge", np.greater_equal),
        ("ult", lambda a, b: a.view(np.uint16) < b.view(np.uint16)),
        ("uge", lambda a, b: a.view(np.uint16) >= b.view(np.uint16)),
    ],
)
def test_cmpi_predicates(pred: str, fn) -> None:
    a, b = ints(np.int16), ints(np.int16)
    b[:5] = a[:5]
    out = run_elementwise(elementwise(f"%r = arith.cmpi {pred}, %x0, %x1 : i16", "i16", "i1"), [a, b], np.bool_)
    np.testing.assert_array_equal(out, fn(a, b))


CASTS = [
    # op, in dtype, out dtype, reference
    ("extsi", np.int8, np.int64, lambda a: a.astype(np.int64)),
    ("extui", np.int8, np.int32, lambda a: a.view(np.uint8).astype(np.int32)),
    ("trunci", np.int64, np.int16, lambda a: a.astype(np.int16)),
    ("sitofp", np.int32, np.float64, lambda a: a.astype(np.float64)),
    ("uitofp", np.int32, np.float32, lambda a: a.view(np.uint32).astype(np.float32)),
    ("fptosi", np.float32, np.int32, lambda a: a.astype(np.int32)),
    ("fptoui", np.float64, np.int16, lambda a: np.abs(a).astype(np.uint16).view(np.int16)),
    ("extf", np.float16, np.float64, lambda a: a.astype(np.float64)),
    ("truncf", np.float64, np.float32, lambda a: a.astype(np.float32)),
    ("truncf", np.float32, np.float16, lambda a: a.astype(np.float16)),
    ("bitcast", np.float32, np.int32, lambda a: a.view(np.int32)),
]


@pytest.mark.parametrize("op,src,dst,ref", CASTS, ids=[f"{c[0]}-{c[1].__name__}-{c[2].__name__}" for c in CASTS])
def test_casts(op: str, src, dst, ref) -> None:
    a = ints(src) if np.issubdtype(src, np.integer) else floats(src)
    if op == "fptoui":
        a = np.abs(a)
    out = run_elementwise(
        elementwise(f"%r = arith.{op} %x0 : {MLIR_TYPES[src]} to {MLIR_TYPES[dst]}", MLIR_TYPES[src], MLIR_TYPES[dst], 1),
        [a],
        dst,
    )
    np.testing.assert_array_equal(out, ref(a))


def test_scalar_arguments_results_and_index_casts() -> None:
    jit = compile_src(
        """
func.func @f(%a: i8, %b: i16, %x: f32, %y: f64, %n: index, %flag: i1) -> f64 {
  %a64 = arith.extsi %a : i8 to i64
  %n64 = arith.index_cast %n : index to i64
  %b64 = arith.extsi %b : i16 to i64
  %s = arith.addi %a64, %n64 : i64
  %s2 = arith.muli %s, %b64 : i64
  %sf = arith.sitofp %s2 : i64 to f64
  %xf = arith.extf %x : f32 to f64
  %t = arith.addf %sf, %xf : f64
  %u = arith.addf %t, %y : f64
  %r = arith.select %flag, %u, %y : f64
  func.return %r : f64
}
func.func @g(%n: index) -> index {
  %c3 = arith.constant 3 : index
  %r = arith.muli %n, %c3 : index
  func.return %r : index
}
"""
    )
    assert jit.call("f", -3, 7, 0.5, 0.25, 10, True) == (-3 + 10) * 7 + 0.5 + 0.25
    assert jit.call("f", -3, 7, 0.5, 0.25, 10, False) == 0.25
    assert jit.call("g", 2**40) == 3 * 2**40


# ---------------------------------------------------------------------------
# Control flow: scf.for / scf.while / scf.if / scf.index_switch, calls
# ---------------------------------------------------------------------------


def test_scf_while_if_and_calls() -> None:
    jit = compile_src(
        """
func.func private @step(%y: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c0 = arith.constant 0 : i64
  %rem = arith.remui %y, %c2 : i64
  %even = arith.cmpi eq, %rem, %c0 : i64
  %next = scf.if %even -> (i64) {
    %h = arith.divui %y, %c2 : i64
    scf.yield %h : i64
  } else {
    %t = arith.muli %y, %c3 : i64
    %t1 = arith.addi %t, %c1 : i64
    scf.yield %t1 : i64
  }
  func.return %next : i64
}
func.func @collatz(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%x = %n, %steps = %c0) : (i64, i64) -> (i64, i64) {
    %cond = arith.cmpi ne, %x, %c1 : i64
    scf.condition(%cond) %x, %steps : i64, i64
  } do {
  ^bb0(%y: i64, %s: i64):
    %next = func.call @step(%y) : (i64) -> i64
    %s1 = arith.addi %s, %c1 : i64
    scf.yield %next, %s1 : i64, i64
  }
  func.return %r#1 : i64
}
"""
    )

    def collatz(n: int) -> int:
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    for n in (1, 2, 7, 27, 97, 871):
        assert jit.call("collatz", n) == collatz(n)


def test_scf_index_switch() -> None:
    jit = compile_src(
        """
func.func @sw(%i: index) -> i32 {
  %r = scf.index_switch %i -> i32
  case 0 {
    %a = arith.constant 10 : i32
    scf.yield %a : i32
  }
  case 3 {
    %b = arith.constant 30 : i32
    scf.yield %b : i32
  }
  case 4294967296 {
    %b = arith.constant 40 : i32
    scf.yield %b : i32
  }
  default {
    %c = arith.constant -1 : i32
    scf.yield %c : i32
  }
  return %r : i32
}
"""
    )
    assert [jit.call("sw", i) for i in (0, 1, 3, 4, 2**32)] == [10, -1, 30, -1, 40]


def test_nested_for_matmul() -> None:
    m, k, n = 5, 7, 3
    src = f"""
func.func @matmul(%a: memref<{m}x{k}xf64>, %b: memref<{k}x{n}xf64>, %c: memref<{m}x{n}xf64>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm = arith.constant {m} : index
  %ck = arith.constant {k} : index
  %cn = arith.constant {n} : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %cm step %c1 {{
    scf.for %j = %c0 to %cn step %c1 {{
      %acc = scf.for %p = %c0 to %ck step %c1 iter_args(%s = %zero) -> (f64) {{
        %x = memref.load %a[%i, %p] : memref<{m}x{k}xf64>
        %y = memref.load %b[%p, %j] : memref<{k}x{n}xf64>
        %t = arith.mulf %x, %y : f64
        %s1 = arith.addf %s, %t : f64
        scf.yield %s1 : f64
      }}
      memref.store %acc, %c[%i, %j] : memref<{m}x{n}xf64>
    }}
  }}
  func.return
}}
"""
    a, b = RNG.standard_normal((m, k)), RNG.standard_normal((k, n))
    c = np.zeros((m, n))
    compile_src(src).call("matmul", a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-12)


# ---------------------------------------------------------------------------
# memref
# ---------------------------------------------------------------------------


def test_memref_alloc_copy_subview_global() -> None:
    jit = compile_src(
        """
"memref.global"() <{sym_name = "weights", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "ones", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<1.0> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "counter", sym_visibility = "private", type = memref<1xi64>, initial_value}> : () -> ()
func.func @f(%in: memref<4x8xf32>, %out: memref<2x3xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %w = memref.get_global @weights : memref<2x3xf32>
  %o = memref.get_global @ones : memref<2x3xf32>
  %s = memref.subview %in[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>>
  %tmp = memref.alloc() : memref<2x3xf32>
  "memref.copy"(%s, %tmp) : (memref<2x3xf32, strided<[8, 1], offset: 10>>, memref<2x3xf32>) -> ()
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %tmp[%i, %j] : memref<2x3xf32>
      %y = memref.load %w[%i, %j] : memref<2x3xf32>
      %z = memref.load %o[%i, %j] : memref<2x3xf32>
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %z : f32
      memref.store %q, %tmp[%i, %j] : memref<2x3xf32>
    }
  }
  "memref.copy"(%tmp, %out) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
  memref.dealloc %tmp : memref<2x3xf32>
  %cnt = memref.get_global @counter : memref<1xi64>
  %old = memref.load %cnt[%c0] : memref<1xi64>
  %one = arith.constant 1 : i64
  %new = arith.addi %old, %one : i64
  memref.store %new, %cnt[%c0] : memref<1xi64>
  func.return %new : i64
}
"""
    )
    a = floats(np.float32, 32).reshape(4, 8)
    out = np.zeros((2, 3), np.float32)
    assert jit.call("f", a, out) == 1
    weights = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    np.testing.assert_array_equal(out, a[1:3, 2:5] * weights + 1)
    assert jit.call("f", a, out) == 2  # the uninitialized global starts at zero and persists


def test_strided_copy_loop_nest_and_views() -> None:
    jit = compile_src(
        """
func.func @f(%in: memref<6x8xi16>, %out: memref<3x4xi16>, %flat: memref<48xi16>) {
  %s = memref.subview %in[1, 1] [3, 4] [2, 2] : memref<6x8xi16> to memref<3x4xi16, strided<[16, 2], offset: 9>>
  "memref.copy"(%s, %out) : (memref<3x4xi16, strided<[16, 2], offset: 9>>, memref<3x4xi16>) -> ()
  %c = memref.collapse_shape %in [[0, 1]] : memref<6x8xi16> into memref<48xi16>
  "memref.copy"(%c, %flat) : (memref<48xi16>, memref<48xi16>) -> ()
  func.return
}
"""
    )
    a = ints(np.int16, 48).reshape(6, 8)
    out = np.zeros((3, 4), np.int16)
    flat = np.zeros(48, np.int16)
    jit.call("f", a, out, flat)
    np.testing.assert_array_equal(out, a[1:7:2, 1:9:2])
    np.testing.assert_array_equal(flat, a.ravel())


def test_memref_alloca_dim_and_reinterpret_cast() -> None:
    jit = compile_src(
        """
func.func @f(%in: memref<4x5xf64>, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %in, %c0 : memref<4x5xf64>
  %dk = memref.dim %in, %k : memref<4x5xf64>
  %r = memref.reinterpret_cast %in to offset: [7], sizes: [3], strides: [5] : memref<4x5xf64> to memref<3xf64, strided<[5], offset: 7>>
  %a = memref.alloca() : memref<2xf64>
  %x = memref.load %r[%c1] : memref<3xf64, strided<[5], offset: 7>>
  memref.store %x, %a[%c1] : memref<2xf64>
  %y = memref.load %a[%c1] : memref<2xf64>
  %prod = arith.muli %d0, %dk : index
  %pi = arith.index_cast %prod : index to i64
  %pf = arith.sitofp %pi : i64 to f64
  %res = arith.addf %y, %pf : f64
  func.return %res : f64
}
"""
    )
    a = RNG.standard_normal((4, 5))
    assert jit.call("f", a, 1) == a.ravel()[12] + 4 * 5
    assert jit.call("f", a, 0) == a.ravel()[12] + 4 * 4


# ---------------------------------------------------------------------------
# math
# ---------------------------------------------------------------------------

FLOAT_MATH = {
    "sqrt": (np.sqrt, "pos"),
    "exp": (np.exp, "small"),
    "exp2": (np.exp2, "small"),
    "log": (np.log, "pos"),
    "log2": (np.log2, "pos"),
    "log10": (np.log10, "pos"),
    "sin": (np.sin, "any"),
    "cos": (np.cos, "any"),
    "tan": (np.tan, "small"),
    "tanh": (np.tanh, "any"),
    "atan": (np.arctan, "any"),
    "sinh": (np.sinh, "small"),
    "cosh": (np.cosh, "small"),
    "asin": (np.arcsin, "unit"),
    "acos": (np.arccos, "unit"),
    "asinh": (np.arcsinh, "any"),
    "acosh": (np.arccosh, "ge1"),
    "atanh": (np.arctanh, "unit"),
    "log1p": (np.log1p, "pos"),
    "expm1": (np.expm1, "small"),
    "cbrt": (np.cbrt, "any"),
    "erf": (np.vectorize(math.erf), "small"),
    "absf": (np.abs, "any"),
    "floor": (np.floor, "any"),
    "ceil": (np.ceil, "any"),
    "trunc": (np.trunc, "any"),
    "roundeven": (np.rint, "half"),
    "round": (lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), "half"),
    "rsqrt": (lambda x: 1 / np.sqrt(x), "pos"),
}


def _domain(kind: str, dtype) -> np.ndarray:
    x = RNG.standard_normal(N)
    x = {
        "pos": np.abs(x) * 10 + 0.01,
        "small": x * 2,
        "any": x * 10,
        "unit": np.tanh(x) * 0.99,
        "ge1": np.abs(x) * 5 + 1,
        "half": np.round(x * 10) / 2,
    }[kind]
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(FLOAT_MATH))
def test_math_unary(op: str, dtype) -> None:
    fn, kind = FLOAT_MATH[op]
    t = MLIR_TYPES[dtype]
    x = _domain(kind, dtype)
    out = run_elementwise(elementwise(f"%r = math.{op} %x0 : {t}", t, t, 1), [x], dtype)
    rtol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(out, fn(x.astype(np.float64)).astype(dtype), rtol=rtol, atol=rtol)


def test_math_f16_goes_through_f32() -> None:
    x = _domain("small", np.float16)
    out = run_elementwise(elementwise("%r = math.tanh %x0 : f16", "f16", "f16", 1), [x], np.float16)
    np.testing.assert_allclose(out, np.tanh(x.astype(np.float32)).astype(np.float16), rtol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_math_binary_and_ternary(dtype) -> None:
    t = MLIR_TYPES[dtype]
    a, b, c = (floats(dtype) for _ in range(3))
    pa = np.abs(a) + 0.5
    rtol = 2e-6 if dtype == np.float32 else 1e-13
    cases = {
        f"%r = math.atan2 %x0, %x1 : {t}": (np.arctan2(a, b), [a, b]),
        f"%r = math.copysign %x0, %x1 : {t}": (np.copysign(a, b), [a, b]),
        f"%r = math.powf %x0, %x1 : {t}": (np.power(pa.astype(np.float64), (b / 10).astype(np.float64)), [pa, b / 10]),
    }
    for body, (expected, inputs) in cases.items():
        out = run_elementwise(elementwise(body, t, t), inputs, dtype)
        np.testing.assert_allclose(out, expected.astype(dtype), rtol=rtol, err_msg=body)
    out = run_elementwise(elementwise(f"%r = math.fma %x0, %x1, %x2 : {t}", t, t, 3), [a, b, c], dtype)
    # fma rounds once: the reference is the exact product's sum in f64 (an f32 `a * b + c`
    # rounds the product first and differs wherever the sum cancels).
    exact = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(out, exact, rtol=rtol)
    e = ints(np.int32, low=-4, high=4)
    src = elementwise(f"%e = arith.fptosi %x1 : {t} to i32\n    %r = math.fpowi %x0, %e : {t}, i32", t, t)
    out = run_elementwise(src, [pa, e.astype(dtype)], dtype)
    np.testing.assert_allclose(out, np.power(pa.astype(np.float64), e).astype(dtype), rtol=rtol * 10)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_math_integer(dtype) -> None:
    t = MLIR_TYPES[dtype]
    bits = np.iinfo(dtype).bits
    a = ints(dtype)
    a[0] = 0
    u = a.view(np.dtype(dtype).str.replace("i", "u")).astype(np.uint64)

    def popcount(v):
        return np.array([int(x).bit_count() for x in v])

    def ctlz(v):
        return np.array([bits - int(x).bit_length() for x in v])

    def cttz(v):
        return np.array([bits if x == 0 else (int(x) & -int(x)).bit_length() - 1 for x in v])

    cases = {
        "ctpop": popcount(u),
        "ctlz": ctlz(u),
        "cttz": cttz(u),
        "absi": np.abs(a),
    }
    for op, expected in cases.items():
        out = run_elementwise(elementwise(f"%r = math.{op} %x0 : {t}", t, t, 1), [a], dtype)
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(out, expected.astype(dtype), err_msg=op)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_multiple_results_are_rejected() -> None:
    module = parse("func.func @f(%x: f32) -> (f32, f32) { func.return %x, %x : f32, f32 }")
    with pytest.raises(LoweringError, match="2 results"):
        lower_and_compile(module)


def test_leftover_ops_are_rejected() -> None:
    module = parse(
        """
func.func @f(%n: index, %m: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %i, %m[%c0] : memref<4xindex>
  }
  func.return
}
"""
    )
    with pytest.raises(LoweringError, match="scf.for"):
        lower_and_compile(module, ["convert-to-llvm"])


def test_codegen_options_cover_this_llvm() -> None:
    """`runtime.jit.CODEGEN_OPTIONS` are set only for the LLVM majors known to have
    them (LLVM ends the process on an unknown option): the LLVM of the installed
    llvmlite must be one, or the options silently stop applying. A new LLVM fails
    here until its options are checked and the range widened."""
    import llvmlite.binding as llvm_binding

    from runtime.jit import CODEGEN_OPTIONS_LLVM

    low, high = CODEGEN_OPTIONS_LLVM
    assert low <= llvm_binding.llvm_version_info[0] <= high, llvm_binding.llvm_version_info


def test_a_target_this_cpu_lacks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Code for a CPU with extensions this one lacks would die of an illegal
    instruction at its first vector op: the JIT refuses the target instead, naming
    what is missing (here a CPU without AVX-512, whatever this one is)."""
    import llvmlite.binding as llvm_binding

    from runtime import jit

    host = dict(llvm_binding.get_host_cpu_features())
    monkeypatch.setattr(jit.llvm_binding, "get_host_cpu_features", lambda: {k: v for k, v in host.items() if not k.startswith("avx512")})
    with pytest.raises(JitError, match=r"target 'avx512' \(skylake-avx512\) needs avx512bw, avx512cd, avx512dq, avx512f, avx512vl, which this CPU"):
        jit.create_target_machine(3, "avx512")
    jit.create_target_machine(3, "avx2" if host.get("avx2") else "sse")  # one it has
