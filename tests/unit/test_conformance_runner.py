"""The conformance runner: check semantics, chunk isolation, `xla-run --split-input-file`."""

from __future__ import annotations

import io
import multiprocessing.connection
import os
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, f64, i64

from passes.expose_checks import ExposedCheck
from xla_dialect.context import split_input
from xla_tools.conformance import IsolatedRunner, evaluate_check, run_chunk
from xla_tools.xla_run import run as xla_run

# -- expectations ---------------------------------------------------------------


def check(kind: str, n: int, **props: object) -> ExposedCheck:
    return ExposedCheck(f"check.{kind}", list(range(n)), dict(props), "t.mlir:1:1")  # pyright: ignore[reportArgumentType]


def test_expect_eq_treats_nan_as_equal_and_reports_the_first_mismatch() -> None:
    nan = np.array([1.0, np.nan], np.float32)
    assert evaluate_check(check("expect_eq", 2), [nan, nan.copy()]) is None
    message = evaluate_check(check("expect_eq", 2), [np.array([1, 2, 3]), np.array([1, 5, 3])])
    assert message is not None and "1 element(s) not equal" in message and "index [1]" in message


def test_expect_almost_eq_tolerance_infinities_and_complex_parts() -> None:
    a = np.array([1.0, np.inf, -np.inf], np.float64)
    assert evaluate_check(check("expect_almost_eq", 2), [a, a + np.array([5e-5, 0, 0])]) is None
    assert evaluate_check(check("expect_almost_eq", 2), [a, a + np.array([2e-4, 0, 0])]) is not None
    loose = check("expect_almost_eq", 2, tolerance=FloatAttr(0.1, f64))
    assert evaluate_check(loose, [a, a + np.array([0.05, 0, 0])]) is None
    assert evaluate_check(check("expect_almost_eq", 2), [np.array([np.inf]), np.array([1e308])]) is not None
    c = np.array([1 + 2j], np.complex64)
    assert evaluate_check(check("expect_almost_eq", 2), [c, c + 1e-5j]) is None
    assert evaluate_check(check("expect_almost_eq", 2), [c, c + 1e-3j]) is not None


def test_expect_close_counts_ulps_across_zero() -> None:
    one = np.array([1.0], np.float16)
    next_up = np.nextafter(one, np.float16(2))
    assert evaluate_check(check("expect_close", 2), [one, next_up]) is None
    three_up = one
    for _ in range(4):
        three_up = np.nextafter(three_up, np.float16(2))
    assert evaluate_check(check("expect_close", 2), [one, three_up]) is not None  # 4 > 3 ULPs
    bounded = check("expect_close", 2, min_ulp_difference=IntegerAttr(1, i64), max_ulp_difference=IntegerAttr(5, i64))
    assert evaluate_check(bounded, [one, one]) is not None  # 0 < min 1
    tiny = np.array([np.float32(1e-45)], np.float32)
    assert evaluate_check(check("expect_close", 2), [-tiny, tiny]) is None  # 2 ULPs through ±0


# -- chunks -----------------------------------------------------------------------

PASSING = """func.func @main() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi4>
  %1 = stablehlo.add %0, %0 : tensor<2xi4>
  check.expect_eq_const %1, dense<[2, 4]> : tensor<2xi4>
  func.return
}"""

FAILING = """func.func @wrong() {
  %0 = stablehlo.constant dense<1.5> : tensor<f32>
  %1 = stablehlo.multiply %0, %0 : tensor<f32>
  check.expect_almost_eq_const %1, dense<2.0> : tensor<f32>
  func.return
}"""

HANGING = """func.func @forever() {
  %0 = stablehlo.constant dense<0> : tensor<i64>
  %1 = stablehlo.while(%i = %0) : tensor<i64>
  cond {
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %n : tensor<i64>
  }
  check.expect_eq_const %1, dense<0> : tensor<i64>
  func.return
}"""


def test_run_chunk_stages() -> None:
    assert run_chunk(PASSING, 0, "t.mlir", 0).passed
    failed = run_chunk(FAILING, 10, "t.mlir", 1)
    assert failed.stage == "check" and failed.function == "wrong"
    assert "expect_almost_eq_const at t.mlir:14:3" in failed.message and "2.25" in failed.message
    assert run_chunk("func.func @f() {\n  %0 = stablehlo.nope\n}", 0, "t.mlir", 2).stage == "parse"
    bad = "func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<2xi32>\n  %1 = stablehlo.transpose %0, dims = [1] : (tensor<2xi32>) -> tensor<2xi32>\n  func.return\n}"
    assert run_chunk(bad, 0, "t.mlir", 3).stage == "verify"


def test_split_chunks_keeps_line_offsets() -> None:
    chunks = split_input("a\n// -----\nb\nc\n// -----\nd")
    assert [offset for _, offset in chunks] == [0, 1, 4]  # the marker lines count


def _aborting_worker(conn: multiprocessing.connection.Connection) -> None:
    """A worker that dies on its first task (as a native fault would)."""
    conn.recv()
    os.abort()


def test_runner_survives_a_crashing_worker_and_a_hang() -> None:
    with IsolatedRunner(timeout=60, worker=_aborting_worker) as runner:
        crashed = runner.run(PASSING, 0, "t.mlir", 0)
    assert crashed.stage == "crash" and "died" in crashed.message and crashed.function == "main"
    with IsolatedRunner(timeout=8) as runner:
        hung = runner.run(HANGING, 0, "t.mlir", 0)
        assert hung.stage == "timeout" and hung.function == "forever"
        assert runner.run(PASSING, 0, "t.mlir", 1).passed  # a fresh worker took over


def test_xla_run_split_input_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "suite.mlir"
    path.write_text(PASSING + "\n\n// -----\n\n" + FAILING + "\n")
    out = io.StringIO()
    code = xla_run([str(path), "--split-input-file"], out)
    lines = out.getvalue().splitlines()
    assert code == 1
    assert lines[0] == f"PASS {path}:0 @main"
    assert lines[1].startswith(f"FAIL {path}:1 @wrong: check: expect_almost_eq_const at ")
    assert lines[-1] == "1 passed, 1 failed"
    ok = tmp_path / "ok.mlir"
    ok.write_text(PASSING)
    assert xla_run([str(ok), "--split-input-file"], io.StringIO()) == 0
    assert xla_run([str(tmp_path / "missing.mlir"), "--split-input-file"], io.StringIO()) == 1
    assert "no such file" in capsys.readouterr().err
