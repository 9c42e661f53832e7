"""A loop annotation (`lowering.loop_annotation`) becomes `!llvm.loop` metadata that
LLVM follows: the loop around an expanded tanh is vectorized and interleaved 4 times
(LLVM's own choice is one `<16 x float>` vector per iteration), and still right."""

from __future__ import annotations

import re

import numpy as np

from runtime.jit import JitModule
from xla_dialect.context import parse_module
from xla_tools.pipelines import lower_and_compile, run_passes

N = 4096
PROGRAM = f"""
func.func @f(%a: memref<{N}xf32>, %b: memref<{N}xf32>) {{
  %c0 = arith.constant 0 : index
  %n = arith.constant {N} : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    %x = memref.load %a[%i] : memref<{N}xf32>
    %y = math.tanh %x : f32
    memref.store %y, %b[%i] : memref<{N}xf32>
  }}
  func.return
}}
"""


def _compile(interleave: bool) -> JitModule:
    module = parse_module(PROGRAM, "<loop_annotation>")
    run_passes(module, ["math-polynomial-approximation"], options={"math-polynomial-approximation": {"interleave": interleave}})
    return lower_and_compile(module)


def test_the_interleave_count_reaches_llvm() -> None:
    jit = _compile(True)
    branch = re.search(r"br label %\S+, !llvm.loop (!\d+)", jit.llvm_ir)
    assert branch is not None, jit.llvm_ir
    loop_id = branch.group(1)
    node = re.search(rf"^{loop_id} = !{{ {loop_id}, (!\d+) }}$", jit.llvm_ir, re.MULTILINE)
    assert node is not None, "a loop ID must refer to itself"
    assert re.search(rf'^{node.group(1)} = !{{ !"llvm.loop.interleave.count", i32 4 }}$', jit.llvm_ir, re.MULTILINE)
    plain = _compile(False)
    assert "!llvm.loop" not in plain.llvm_ir
    # The vector loop steps by 4 vectors of the width LLVM chose for the target (16
    # lanes where it prefers 512-bit vectors, 8 where it prefers 256: Intel's AVX-512
    # cores); without the annotation, by fewer (LLVM's own choice: one vector, which its
    # unroller may double).
    lanes = {int(n) for n in re.findall(r"load <(\d+) x float>", jit.optimized_ir)}
    assert len(lanes) == 1, lanes
    vf = lanes.pop()
    step = re.compile(r"%index.next\S* = add nuw (?:nsw )?i64 %index\S*, (\d+)")
    assert step.findall(jit.optimized_ir) == [str(4 * vf)]
    assert [int(s) for s in step.findall(plain.optimized_ir)] < [4 * vf]
    a = np.linspace(-10, 10, N, dtype=np.float32)
    b = np.empty_like(a)
    jit.call("f", a, b)
    np.testing.assert_allclose(b, np.tanh(a.astype(np.float64)), rtol=3e-7, atol=1e-30)
