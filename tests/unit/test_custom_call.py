"""`xla.custom_call` compiled through `lower-to-llvm`, calling C functions (built
from a tiny C source with gcc at test time) and Python callables registered with
`runtime.host_io.register_custom_call`.

C targets follow the spec's `void f(void* out, void** in)`: `in[i]` is operand
i's row-major buffer, `out` the result buffer, or a table of result buffers for a
tuple or several results. Python targets get `(out, ins)` as NumPy views.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from runtime import CompileError, Executable
from runtime import host_io as runtime
from xla_tools import compile

C_SOURCE = r"""
#include <stddef.h>
#include <stdlib.h>

/* The spec's example: x f32[2], y f32[2x3] -> z f32[3x3]. */
void myfunc(void* out, void** in) {
  const float* x = (const float*)in[0];
  const float (*y)[3] = (const float (*)[3])in[1];
  float (*z)[3] = (float (*)[3])out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      z[i][j] = x[i % 2] * 100.0f + y[i % 2][j] * (float)(i + 1);
}

/* Tuple result: out is a table {i32[4] prefix sums, f64[] mean}. */
void stats(void* out, void** in) {
  const int* v = (const int*)in[0];
  void** results = (void**)out;
  int* sums = (int*)results[0];
  double* mean = (double*)results[1];
  int s = 0;
  for (int i = 0; i < 4; ++i) { s += v[i]; sums[i] = s; }
  *mean = s / 4.0;
}

/* api_version 3: the backend_config arrives as the opaque string. */
void scaled(void* out, void** in, const char* opaque, size_t len, void* status) {
  char buffer[32] = {0};
  for (size_t i = 0; i < len && i < 31; ++i) buffer[i] = opaque[i];
  long factor = strtol(buffer, NULL, 10);
  const long long* x = (const long long*)in[0];
  long long* y = (long long*)out;
  for (int i = 0; i < 3; ++i) y[i] = x[i] * factor;
}

/* Aliased output: updates the operand's buffer in place (only element 0), and
   records whether it was given one buffer for both. */
void bump(void* out, void** in) {
  float* p = (float*)out;
  p[0] = p[0] + 1.0f;
  p[1] = (in[0] == out) ? p[1] : -1.0f;
}
"""

C_MODULE = """
func.func @spec_example(%x: tensor<2xf32>, %y: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %z = xla.custom_call @myfunc(%x, %y) {api_version = 1 : i32} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  func.return %z : tensor<3x3xf32>
}

func.func @c_tuple(%v: tensor<4xi32>) -> (tensor<4xi32>, tensor<f64>) {
  %t = xla.custom_call @stats(%v) : (tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<f64>>
  %s = xla.get_tuple_element %t[0] : (tuple<tensor<4xi32>, tensor<f64>>) -> tensor<4xi32>
  %m = xla.get_tuple_element %t[1] : (tuple<tensor<4xi32>, tensor<f64>>) -> tensor<f64>
  func.return %s, %m : tensor<4xi32>, tensor<f64>
}

func.func @c_opaque(%x: tensor<3xi64>) -> tensor<3xi64> {
  %y = xla.custom_call @scaled(%x) {backend_config = "7", api_version = 3 : i32} : (tensor<3xi64>) -> tensor<3xi64>
  func.return %y : tensor<3xi64>
}

func.func @c_alias(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y = xla.custom_call @bump(%x) {output_operand_aliases = [#xla.output_operand_alias<operand_index = 0>]} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %x, %y : tensor<3xf32>, tensor<3xf32>
}
"""

PY_MODULE = """
func.func @py_multi(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2xui8>) -> tensor<2x2xf32> {
  %0 = xla.custom_call @py_fma(%a, %b, %c) : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xui8>) -> tensor<2x2xf32>
  %1 = xla.add %0, %a : tensor<2x2xf32>
  func.return %1 : tensor<2x2xf32>
}

func.func @py_results(%x: tensor<3xbf16>) -> (tensor<3xbf16>, tensor<i32>) {
  %0:2 = xla.custom_call @py_split(%x) : (tensor<3xbf16>) -> (tensor<3xbf16>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<3xbf16>, tensor<i32>
}

func.func @py_tuple_token(%x: tensor<2xf32>, %t: !xla.token) -> (tensor<2xf32>, !xla.token) {
  %0 = xla.custom_call @py_pair(%x, %t) {has_side_effect = true} : (tensor<2xf32>, !xla.token) -> tuple<tensor<2xf32>, !xla.token>
  %1 = xla.get_tuple_element %0[0] : (tuple<tensor<2xf32>, !xla.token>) -> tensor<2xf32>
  %2 = xla.get_tuple_element %0[1] : (tuple<tensor<2xf32>, !xla.token>) -> !xla.token
  xla.custom_call @py_log(%1) {has_side_effect = true} : (tensor<2xf32>) -> ()
  func.return %1, %2 : tensor<2xf32>, !xla.token
}

func.func @py_in_loop(%n: tensor<i32>) -> tensor<i32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %r:2 = xla.while(%i = %zero, %s = %zero) : tensor<i32>, tensor<i32>
  cond {
    %c = xla.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    xla.return %c : tensor<i1>
  } do {
    %i2 = xla.custom_call @py_next(%i) : (tensor<i32>) -> tensor<i32>
    %s2 = xla.add %s, %i2 : tensor<i32>
    xla.return %i2, %s2 : tensor<i32>, tensor<i32>
  }
  func.return %r#1 : tensor<i32>
}

func.func @py_raises(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.custom_call @py_fail(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

func.func @py_returns(%x: tensor<2x3xi32>) -> tensor<3x2xi32> {
  %0 = xla.custom_call @py_transpose(%x) : (tensor<2x3xi32>) -> tensor<3x2xi32>
  func.return %0 : tensor<3x2xi32>
}
"""

LOG: list[np.ndarray] = []


def py_fma(out: np.ndarray, ins: list[np.ndarray]) -> None:
    a, b, c = ins
    assert not a.flags.writeable and out.flags.writeable
    np.multiply(a, b, out=out)
    out += c.astype(np.float32)


def py_split(out: tuple[np.ndarray, ...], ins: list[np.ndarray]) -> None:
    values, count = out
    assert values.dtype == np.dtype(ml_dtypes.bfloat16) and count.shape == ()
    values[...] = ins[0][::-1]
    count[...] = int(np.sum(ins[0].astype(np.float32) > 0))


def py_pair(out: tuple[np.ndarray, ...], ins: list[np.ndarray]) -> None:
    assert len(ins) == 1 and len(out) == 1  # the token is neither passed nor returned
    out[0][...] = ins[0] * 3


def py_next(out: np.ndarray, ins: list[np.ndarray]) -> None:
    out[...] = ins[0] + 1


def py_fail(out: np.ndarray, ins: list[np.ndarray]) -> None:
    raise ValueError("bad input")


@pytest.fixture(scope="module")
def c_library(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed: the C custom-call targets cannot be built")
    directory = tmp_path_factory.mktemp("custom_call")
    source, library = directory / "targets.c", directory / "libtargets.so"
    Path(source).write_text(C_SOURCE)
    subprocess.run([gcc, "-O1", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return ctypes.CDLL(str(library))


@pytest.fixture(scope="module")
def c_targets(c_library: ctypes.CDLL) -> Iterator[None]:
    runtime.register_custom_call("myfunc", c_library.myfunc)
    runtime.register_custom_call("stats", ctypes.cast(c_library.stats, ctypes.c_void_p).value)
    runtime.register_custom_call("scaled", c_library.scaled)
    runtime.register_custom_call("bump", c_library.bump)
    yield
    for name in ("myfunc", "stats", "scaled", "bump"):
        runtime.unregister_custom_call(name)


@pytest.fixture(scope="module", autouse=True)
def py_targets() -> Iterator[None]:
    runtime.register_custom_call("py_fma", py_fma)
    runtime.register_custom_call("py_split", py_split)
    runtime.register_custom_call("py_pair", py_pair)
    runtime.register_custom_call("py_log", lambda out, ins: LOG.append(ins[0].copy()))
    runtime.register_custom_call("py_next", py_next)
    runtime.register_custom_call("py_fail", py_fail)
    runtime.register_custom_call("py_transpose", lambda out, ins: ins[0].T)
    yield
    for name in ("py_fma", "py_split", "py_pair", "py_log", "py_next", "py_fail", "py_transpose"):
        runtime.unregister_custom_call(name)


def _fn(name: str) -> Executable:
    f = compile(PY_MODULE if name.startswith("py_") else C_MODULE, entry=name)
    assert isinstance(f, Executable)
    return f


@pytest.mark.usefixtures("c_targets")
def test_c_target_spec_example() -> None:
    x = np.array([1, 2], np.float32)
    y = np.array([[10, 20, 30], [40, 50, 60]], np.float32)
    want = np.array([[x[i % 2] * 100 + y[i % 2][j] * (i + 1) for j in range(3)] for i in range(3)], np.float32)
    np.testing.assert_array_equal(_fn("spec_example")(x, y), want)


@pytest.mark.usefixtures("c_targets")
def test_c_target_tuple_result_gets_a_pointer_table() -> None:
    sums, mean = _fn("c_tuple")(np.array([3, -1, 4, 10], np.int32))
    np.testing.assert_array_equal(sums, [3, 2, 6, 16])
    assert mean.dtype == np.float64 and float(mean) == 4.0


@pytest.mark.usefixtures("c_targets")
def test_c_target_api_version_3_gets_the_opaque_config() -> None:
    np.testing.assert_array_equal(_fn("c_opaque")(np.array([1, -2, 3], np.int64)), [7, -14, 21])


@pytest.mark.usefixtures("c_targets")
def test_c_target_aliased_output_shares_the_operand_buffer() -> None:
    x = np.array([1.0, 5.0, 9.0], np.float32)
    original, y = _fn("c_alias")(x)
    np.testing.assert_array_equal(original, x)  # the operand value itself is unchanged
    np.testing.assert_array_equal(y, [2.0, 5.0, 9.0])
    np.testing.assert_array_equal(x, [1.0, 5.0, 9.0])


def test_python_target_multi_operand() -> None:
    a = np.array([[1, 2], [3, 4]], np.float32)
    b = np.array([[5, 6], [7, 8]], np.float32)
    c = np.array([200, 1], np.uint8)
    np.testing.assert_array_equal(_fn("py_multi")(a, b, c), a * b + c.astype(np.float32) + a)


def test_python_target_several_results() -> None:
    x = np.array([1.5, -2.0, 3.0], ml_dtypes.bfloat16)
    values, count = _fn("py_results")(x)
    np.testing.assert_array_equal(values, x[::-1])
    assert int(count) == 2


def test_python_target_tuple_with_token_and_side_effect() -> None:
    LOG.clear()
    y, token = _fn("py_tuple_token")(np.array([1.0, 2.0], np.float32), None)
    np.testing.assert_array_equal(y, [3.0, 6.0])
    assert token is runtime.TOKEN
    assert len(LOG) == 1
    np.testing.assert_array_equal(LOG[0], y)


def test_python_target_in_a_loop() -> None:
    assert int(_fn("py_in_loop")(np.int32(5))) == 1 + 2 + 3 + 4 + 5


def test_python_target_returning_its_result() -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(_fn("py_returns")(x), x.T)


def test_python_target_raising_is_reported() -> None:
    with pytest.raises(runtime.HostIOError, match=r"xla.custom_call at <string>:\d+:\d+: ValueError: bad input") as info:
        _fn("py_raises")(np.ones(2, np.float32))
    assert isinstance(info.value.__cause__, ValueError)
    np.testing.assert_array_equal(_fn("py_returns")(np.ones((2, 3), np.int32)), np.ones((3, 2)))


def test_reregistering_takes_effect_for_compiled_programs() -> None:
    f = _fn("py_in_loop")
    runtime.register_custom_call("py_next", lambda out, ins: ins[0] + 2)
    try:
        assert int(f(np.int32(5))) == 2 + 4 + 6
    finally:
        runtime.register_custom_call("py_next", py_next)


UNREGISTERED = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.custom_call @no_such_target(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""


def test_unregistered_target_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"<string>:3:3: custom_call target 'no_such_target' is not registered"):
        compile(UNREGISTERED)


TYPED_FFI = """
func.func @main(%x: tensor<3xi64>) -> tensor<3xi64> {
  %0 = xla.custom_call @scaled(%x) {api_version = 4 : i32} : (tensor<3xi64>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}
"""


@pytest.mark.usefixtures("c_targets")
def test_c_target_with_typed_ffi_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"'scaled' is a C function, which api_version 4 \(typed FFI\) cannot call"):
        compile(TYPED_FFI)


COLUMN_MAJOR = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = xla.custom_call @py_fma(%x) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""


def test_non_row_major_layout_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"operand_layouts entry #0 \[0, 1\] is not the row-major layout"):
        compile(COLUMN_MAJOR)


def test_register_rejects_non_targets() -> None:
    with pytest.raises(TypeError, match="must be a ctypes function, an address or a callable"):
        runtime.register_custom_call("x", "not a function")
    with pytest.raises(ValueError, match="null address"):
        runtime.register_custom_call("x", 0)
