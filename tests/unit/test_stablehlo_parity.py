"""`xla_tools.stablehlo_parity` sorts StableHLO's verifier test chunks by what the
test expects and what the verifier does (run on a StableHLO checkout by hand)."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

from xla_tools.stablehlo_parity import classify, main

VALID = """func.func @ok(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %a : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}"""
INVALID = """func.func @bad(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{differ}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}"""
WRONGLY_EXPECTED = VALID.replace("  %0 =", "  // expected-error @+1 {{anything}}\n  %0 =")


def test_chunks_are_classified(tmp_path: Path) -> None:
    assert classify(VALID, 0, "t")[:2] == ("in scope", "valid accepted")
    assert classify(INVALID, 0, "t")[:2] == ("in scope", "invalid rejected")
    assert classify(WRONGLY_EXPECTED, 0, "t")[:2] == ("in scope", "invalid accepted")
    assert classify(VALID.replace("2xf32", "?xf32"), 0, "t")[0] == "out of scope"
    path = tmp_path / "chunks.mlir"
    path.write_text(f"{VALID}\n// -----\n{INVALID}\n// -----\n{WRONGLY_EXPECTED}")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([str(path)]) == 0
    assert "invalid accepted: chunks.mlir:" in out.getvalue() and "valid accepted             1" in out.getvalue()
