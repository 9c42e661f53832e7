"""`xla-opt` as a user meets it: exit codes, diagnostics with locations, never a
traceback, and MLIR's --verify-diagnostics behaviour."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xla_tools.xla_opt", *args],
        check=False,  # the caller reads the exit status
        input=stdin,
        capture_output=True,
        text=True,
    )


def write(tmp_path: Path, text: str, name: str = "in.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def assert_clean_failure(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout


def test_round_trip_from_stdin() -> None:
    result = run([], GOOD)
    assert result.returncode == 0, result.stderr
    assert "xla.add %a, %a : tensor<4xf32>" in result.stdout


def test_generic_printing() -> None:
    result = run(["--print-op-generic"], GOOD)
    assert '"xla.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>' in result.stdout


def test_verifier_error_has_location_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("xla.add %a, %a", "xla.and %a, %a"))
    result = run([path])
    assert_clean_failure(result)
    assert f"{path}:2:3: error: 'xla.and' op lhs element type f32 is not integer or boolean" in result.stderr
    assert "%0 = xla.and %a, %a" in result.stderr


def test_parse_error_has_location(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("%a, %a :", "%a %a :"))
    result = run([path])
    assert_clean_failure(result)
    assert f"{path}:2:" in result.stderr and "error:" in result.stderr


def test_unknown_op(tmp_path: Path) -> None:
    result = run([write(tmp_path, GOOD.replace("xla.add", "xla.frobnicate"))])
    assert_clean_failure(result)
    assert "xla.frobnicate" in result.stderr


def test_unknown_pass(tmp_path: Path) -> None:
    result = run([write(tmp_path, GOOD), "-p", "no-such-pass"])
    assert_clean_failure(result)
    assert "no-such-pass" in result.stderr


def test_malformed_pipeline(tmp_path: Path) -> None:
    result = run([write(tmp_path, GOOD), "-p", "canonicalize{x=1"])
    assert_clean_failure(result)


def test_missing_file() -> None:
    result = run(["/no/such/file.mlir"])
    assert_clean_failure(result)
    assert "/no/such/file.mlir" in result.stderr


def test_help_lists_project_passes() -> None:
    result = run(["--help"])
    assert result.returncode == 0
    assert "Project passes" in result.stdout


SPLIT = """func.func @a(%a: tensor<4xf32>) {
  // expected-error @+1 {{lhs element type f32 is not integer or boolean}}
  %0 = xla.and %a, %a : tensor<4xf32>
  func.return
}
// -----
func.func @b(%a: tensor<4xf32>) {
  %0 = xla.or %a, %a : tensor<4xf32> // expected-error {{is not integer or boolean}}
  func.return
}
// -----
// expected-error @below {{Expected}}
func.func @c(%a: tensor<4xf32>) {
  %0 = xla.add %a, %a tensor<4xf32>
  func.return
}
"""


def test_verify_diagnostics_matches_annotations(tmp_path: Path) -> None:
    text = SPLIT.replace("// expected-error @below {{Expected}}\nfunc.func @c", "func.func @c").replace(
        "%0 = xla.add %a, %a tensor<4xf32>", "// expected-error @+1 {{Expected}}\n  %0 = xla.add %a, %a tensor<4xf32>"
    )
    result = run([write(tmp_path, text), "--split-input-file", "--verify-diagnostics"])
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        ("{{lhs element type f32 is not integer or boolean}}", "was not produced"),
        ("{{is not integer or boolean}}", "was not produced"),
    ],
)
def test_verify_diagnostics_reports_mismatches(tmp_path: Path, change: str, message: str) -> None:
    text = SPLIT.replace(change, "{{something else}}", 1)
    result = run([write(tmp_path, text), "--split-input-file", "--verify-diagnostics"])
    assert_clean_failure(result)
    assert message in result.stderr
    assert "unexpected error" in result.stderr


def test_unexpected_error_without_annotation(tmp_path: Path) -> None:
    text = GOOD.replace("xla.add %a, %a", "xla.and %a, %a")
    result = run([write(tmp_path, text), "--verify-diagnostics"])
    assert_clean_failure(result)
    assert "unexpected error" in result.stderr


def test_split_input_file_line_numbers(tmp_path: Path) -> None:
    text = GOOD + "// -----\n" + GOOD.replace("xla.add", "xla.xor")
    path = write(tmp_path, text)
    result = run([path, "--split-input-file"])
    assert_clean_failure(result)
    assert f"{path}:7:3: error: 'xla.xor' op" in result.stderr


TANH_EXP = """func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %0 = xla.exponential %a : tensor<64xf32>
  %1 = xla.tanh %0 : tensor<64xf32>
  %2 = xla.multiply %1, %b : tensor<64xf32>
  return %2 : tensor<64xf32>
}
"""


def test_llvm_ir_is_the_same_under_every_hash_seed(tmp_path: Path) -> None:
    """`-t llvm` prints the translation the JIT uses, byte for byte the same in every
    process: xDSL keeps fast-math flags in frozensets, whose order follows the hash seed."""
    path = write(tmp_path, TANH_EXP)
    texts = set()
    for seed in ("1", "2", "3"):
        result = subprocess.run(
            [sys.executable, "-m", "xla_tools.xla_opt", path, "-p", "lower-to-llvm", "-t", "llvm"],
            check=False,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "XLA_DIALECT_TARGET": "avx512"},  # its tanh divides
        )
        assert result.returncode == 0, result.stderr
        texts.add(result.stdout)
    assert len(texts) == 1
    assert "fdiv arcp contract ninf float" in texts.pop()


def test_llvm_target_on_an_unlowered_module_is_a_located_error(tmp_path: Path) -> None:
    result = run([write(tmp_path, TANH_EXP), "-t", "llvm"])
    assert_clean_failure(result)
    assert "in.mlir:1:1: error: 'func.func' op cannot be translated to LLVM IR" in result.stderr
    assert "-p lower-to-llvm" in result.stderr
