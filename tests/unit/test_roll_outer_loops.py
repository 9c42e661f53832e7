"""`scf-roll-outer-loops` (`lowering/roll_outer_loops.py`): its hints reach LLVM as
`!llvm.loop` metadata, LLVM keeps the rows of a small static nest as a loop (less code
to optimize and emit), and the results are bit for bit those of the unrolled code."""

from __future__ import annotations

import re

import numpy as np

from runtime.jit import JitModule
from xla_dialect.context import parse_module
from xla_tools.pipelines import lower_and_compile, run_passes

PROGRAM = """
func.func @rows(%a: memref<16x64xf32>, %b: memref<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = memref.load %a[%i, %j] : memref<16x64xf32>
      %y = arith.mulf %x, %x : f32
      %z = arith.addf %y, %half : f32
      memref.store %z, %b[%i, %j] : memref<16x64xf32>
    }
  }
  func.return
}
"""


def _compile(roll: bool) -> JitModule:
    module = parse_module(PROGRAM, "<rows>")
    if roll:
        run_passes(module, ["scf-roll-outer-loops"])
    return lower_and_compile(module)


def llvm_instructions(ir: str) -> int:
    """The instructions of LLVM IR text (its indented lines other than comments)."""
    return sum(1 for line in ir.splitlines() if line.startswith("  ") and not line.lstrip().startswith(";"))


def test_the_hints_become_loop_metadata() -> None:
    jit = _compile(True)
    assert re.search(r'^!\d+ = !{ !"llvm.loop.unroll.disable" }$', jit.llvm_ir, re.MULTILINE), jit.llvm_ir
    followup = re.search(r'^!\d+ = !{ !"llvm.loop.vectorize.followup_all", (!\d+) }$', jit.llvm_ir, re.MULTILINE)
    assert followup is not None, jit.llvm_ir
    assert re.search(rf'^{followup.group(1)} = !{{ !"llvm.loop.unroll.disable" }}$', jit.llvm_ir, re.MULTILINE)
    assert "!llvm.loop" not in _compile(False).llvm_ir


def test_the_rows_stay_a_loop_with_the_same_results() -> None:
    rolled, unrolled = _compile(True), _compile(False)
    # Without the hints LLVM unrolls the 16 rows of 4 vectors completely.
    assert llvm_instructions(rolled.optimized_ir) * 4 < llvm_instructions(unrolled.optimized_ir)
    a = np.random.default_rng(0).standard_normal((16, 64)).astype(np.float32)
    b, c = np.empty_like(a), np.empty_like(a)
    rolled.call("rows", a, b)
    unrolled.call("rows", a, c)
    np.testing.assert_array_equal(b.view(np.uint32), c.view(np.uint32))
    np.testing.assert_array_equal(b, a * a + np.float32(0.5))


def test_the_pipeline_runs_it_before_the_loops_become_branches() -> None:
    from xla_tools.registry import LOWER_TO_LLVM

    assert LOWER_TO_LLVM.index("convert-parallel-loops-to-calls") < LOWER_TO_LLVM.index("scf-roll-outer-loops")
    assert LOWER_TO_LLVM.index("scf-roll-outer-loops") < LOWER_TO_LLVM.index("lower-scf-to-cf")
