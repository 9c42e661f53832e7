"""The Python API (`lowering.compile`) and the `xla-run` CLI: argument checking,
result nesting, bf16 at the boundary, caching, and one-line errors."""

from __future__ import annotations

import io
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from runtime import CompileError
from xla_dialect.context import XlaProgramError
from xla_tools import compile
from xla_tools.xla_run import main as xla_run

MODULE = """
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %b, broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func @pair(%t: tuple<tensor<2xi32>, tensor<ui8>>) -> (tensor<ui8>, tuple<tensor<2xi32>, tensor<2xi32>>) {
  %x = xla.get_tuple_element %t[0] : (tuple<tensor<2xi32>, tensor<ui8>>) -> tensor<2xi32>
  %u = xla.get_tuple_element %t[1] : (tuple<tensor<2xi32>, tensor<ui8>>) -> tensor<ui8>
  %n = xla.negate %x : tensor<2xi32>
  %r = xla.tuple %x, %n : tuple<tensor<2xi32>, tensor<2xi32>>
  func.return %u, %r : tensor<ui8>, tuple<tensor<2xi32>, tensor<2xi32>>
}
func.func @bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = xla.multiply %x, %x : tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}
func.func @scalar(%x: tensor<f64>, %p: tensor<i1>) -> tensor<f64> {
  %n = xla.negate %x : tensor<f64>
  %0 = xla.select %p, %x, %n : tensor<i1>, tensor<f64>
  func.return %0 : tensor<f64>
}
"""


def test_call_returns_numpy() -> None:
    f = compile(MODULE)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([10, 20, 30], np.float32)
    np.testing.assert_array_equal(f(a, b), a + b)
    assert "Executable @main" in repr(f)


def test_compiled_once_per_module() -> None:
    assert compile(MODULE) is compile(MODULE)
    assert compile(MODULE, "pair")._jit is compile(MODULE)._jit  # one native module for all entries


def test_wrong_argument_count() -> None:
    with pytest.raises(ValueError, match=r"@main takes 2 argument\(s\) \(tensor<2x3xf32>, tensor<3xf32>\), got 1"):
        compile(MODULE)(np.zeros((2, 3), np.float32))


def test_wrong_shape_names_argument_expected_and_given() -> None:
    with pytest.raises(ValueError) as err:
        compile(MODULE)(np.zeros((2, 3), np.float32), np.zeros(4, np.float32))
    message = str(err.value)
    assert "argument 1 of @main" in message
    assert "expected tensor<3xf32> (float32 array of shape (3,))" in message
    assert "got float32 array of shape (4,)" in message


def test_wrong_dtype() -> None:
    with pytest.raises(ValueError, match=r"argument 0 of @main: expected tensor<2x3xf32> .* got float64 array"):
        compile(MODULE)(np.zeros((2, 3)), np.zeros(3, np.float32))


def test_tuples_in_and_out_and_unsigned() -> None:
    u, (x, n) = compile(MODULE, "pair")((np.array([1, -2], np.int32), np.uint8(250)))
    assert u.dtype == np.uint8 and int(u) == 250
    np.testing.assert_array_equal(x, [1, -2])
    np.testing.assert_array_equal(n, [-1, 2])


def test_tuple_argument_must_be_a_tuple() -> None:
    with pytest.raises(ValueError, match="expected a tuple of 2 values"):
        compile(MODULE, "pair")(np.array([1, 2], np.int32))


def test_bf16_arrays_and_bit_patterns() -> None:
    f = compile(MODULE, "bf16")
    x = np.array([1.5, -2.0, 3.0, 0.1], ml_dtypes.bfloat16)
    expected = (x.astype(np.float32) * x.astype(np.float32)).astype(ml_dtypes.bfloat16)
    y = f(x)
    assert y.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(y.view(np.uint16), expected.view(np.uint16))
    np.testing.assert_array_equal(f(x.view(np.uint16)).view(np.uint16), expected.view(np.uint16))


def test_python_scalars_for_rank0_parameters() -> None:
    f = compile(MODULE, "scalar")
    assert float(f(2.5, True)) == 2.5
    assert float(f(np.float64(2.5), np.bool_(False))) == -2.5
    with pytest.raises(ValueError, match="argument 1 of @scalar"):
        f(2.5, 3)


def test_read_only_and_non_contiguous_inputs() -> None:
    """Writeable inputs reach the code through a ctypes view, read-only ones through
    `array.ctypes`, non-contiguous ones as contiguous copies: all the same values."""
    f = compile(MODULE)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([10, 20, 30], np.float32)
    frozen = a.copy()
    frozen.flags.writeable = False
    strided = np.arange(12, dtype=np.float32).reshape(2, 6)[:, ::2]
    np.testing.assert_array_equal(f(frozen, b), a + b)
    np.testing.assert_array_equal(f(strided, b), strided + b)


def test_out_buffers_are_reused() -> None:
    f = compile(MODULE)
    out = np.empty((2, 3), np.float32)
    r = f(np.ones((2, 3), np.float32), np.ones(3, np.float32), out=[out])
    assert r is out and (out == 2).all()
    with pytest.raises(ValueError, match=r"out\[0\]"):
        f(np.ones((2, 3), np.float32), np.ones(3, np.float32), out=[np.empty(3, np.float32)])


def test_bad_programs_raise_located_errors() -> None:
    with pytest.raises(XlaProgramError, match=r"<string>:1:"):
        compile("func.func @main( {")
    with pytest.raises(CompileError, match=r"no function @nope .*@main"):
        compile(MODULE, "nope")
    unsupported = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.custom_call @no_such_target(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}"""
    with pytest.raises(CompileError, match=r"prog.mlir:2:\d+: custom_call target 'no_such_target' is not registered"):
        compile(unsupported, filename="prog.mlir")


# -- xla-run -------------------------------------------------------------------


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = xla_run(args, out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.fixture
def module_file(tmp_path: Path) -> Path:
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    return path


def test_xla_run_prints_results(module_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones((2, 3), np.float32), arg1=np.arange(3, dtype=np.float32))
    code, out, err = run_cli([str(module_file), "--inputs", str(inputs)], capsys)
    assert code == 0 and err == ""
    assert out.startswith("out0: float32[2, 3] = [[1., 2., 3.],")


def test_xla_run_writes_flattened_npz_with_bf16_bits(module_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs, output = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=np.array([1, -2], np.int32), arg1=np.array(7, np.uint8))
    assert run_cli([str(module_file), "--entry", "pair", "--inputs", str(inputs), "--output", str(output)], capsys)[0] == 0
    got = np.load(output)
    assert sorted(got.files) == ["out0", "out1", "out2"]
    assert got["out0"].dtype == np.uint8 and int(got["out0"]) == 7
    np.testing.assert_array_equal(got["out2"], [-1, 2])
    bits = np.array([1.5, 2, 3, 4], ml_dtypes.bfloat16).view(np.uint16)
    np.savez(inputs, arg0=bits)
    assert run_cli([str(module_file), "--entry", "bf16", "--inputs", str(inputs), "--output", str(output)], capsys)[0] == 0
    result = np.load(output)["out0"]
    assert result.dtype == np.uint16
    np.testing.assert_array_equal(result.view(ml_dtypes.bfloat16).astype(np.float32), [2.25, 4, 9, 16])


@pytest.mark.parametrize(
    "extra, message",
    [
        ([], "@main takes 2 input array(s); pass them with --inputs"),
        (["--entry", "nope"], "cannot compile @nope: no function @nope"),
        (["--inputs", "/nonexistent.npz"], "cannot read inputs /nonexistent.npz"),
        (["--inputs", "/dev/null"], "cannot read inputs /dev/null"),
    ],
)
def test_xla_run_errors_are_one_line(module_file: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli([str(module_file), *extra], capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_xla_run_wrong_input_shape(module_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones((3, 2), np.float32), arg1=np.ones(3, np.float32))
    code, _, err = run_cli([str(module_file), "--inputs", str(inputs)], capsys)
    assert code == 1 and "input 0 of @main: expected tensor<2x3xf32>" in err and err.count("\n") == 1


def test_xla_run_parse_error_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main() {\n  %0 = xla.frobnicate : tensor<f32>\n}\n")
    code, _, err = run_cli([str(bad)], capsys)
    assert code == 1 and err.startswith(f"xla-run: error: {bad}:2:") and err.count("\n") == 1


def test_functions_named_like_libm_symbols_stay_the_programs_own() -> None:
    """`@exp` and `@expf` must neither answer LLVM's libm calls for xla.exponential
    (that recursed until the process crashed) nor be folded as libm functions."""
    f = compile(
        """
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %x, %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @expf(%x: tensor<f32>) -> tensor<f32> {
  %0 = xla.negate %x : tensor<f32>
  func.return %0 : tensor<f32>
}
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = xla.exponential %x : tensor<4xf32>
  %1 = xla.call @exp(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %c = xla.constant dense<1.0> : tensor<f32>
  %2 = xla.call @expf(%c) : (tensor<f32>) -> tensor<f32>
  func.return %1, %2 : tensor<4xf32>, tensor<f32>
}"""
    )
    x = np.array([0, 1, 2, -1], np.float32)
    doubled, negated = f(x)
    np.testing.assert_allclose(doubled, 2 * np.exp(x), rtol=1e-6)
    assert negated == -1.0
