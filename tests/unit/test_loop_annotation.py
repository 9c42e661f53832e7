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


def _program(n: int) -> str:
    return f"""
func.func @f(%a: memref<{n}xf32>, %b: memref<{n}xf32>) {{
  %c0 = arith.constant 0 : index
  %n = arith.constant {n} : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    %x = memref.load %a[%i] : memref<{n}xf32>
    %y = math.tanh %x : f32
    memref.store %y, %b[%i] : memref<{n}xf32>
  }}
  func.return
}}
"""


def _compile(interleave: bool, tail: str = "epilogue", n: int = N) -> JitModule:
    module = parse_module(_program(n), "<loop_annotation>")
    options = {"interleave": interleave, "tail": tail}
    run_passes(module, ["math-polynomial-approximation"], options={"math-polynomial-approximation": options})
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


def test_a_folded_tail_runs_masked_in_the_vector_loop() -> None:
    """`tail=masked`: the loop ID also carries `llvm.loop.vectorize.predicate.enable`, and
    on an AVX-512 host LLVM runs the last partial vectors with masked loads and stores in
    the vector loop instead of an epilogue loop and a scalar remainder: fewer copies of
    the tanh (its division counts them; a scalar loop stays as the fallback of the
    run-time check that a and b do not overlap), with the same results; 37 elements past
    a multiple of the vectors."""
    from lowering.codegen.target import get_target

    n = N + 37
    jit = _compile(True, "masked", n)
    assert re.search(r'^!\d+ = !{ !"llvm.loop.vectorize.predicate.enable", i1 (true|1) }$', jit.llvm_ir, re.MULTILINE)
    plain = _compile(True, "epilogue", n)
    assert "predicate" not in plain.llvm_ir
    if get_target().vector_bits >= 512:
        assert "llvm.masked.store" in jit.optimized_ir
        assert jit.optimized_ir.count("fdiv") < plain.optimized_ir.count("fdiv")
    a = np.linspace(-10, 10, n, dtype=np.float32)
    b, c = np.empty_like(a), np.empty_like(a)
    jit.call("f", a, b)
    plain.call("f", a, c)
    np.testing.assert_array_equal(b.view(np.uint32), c.view(np.uint32))


def test_tail_auto_masks_long_bodies_on_avx512_only() -> None:
    from lowering.math_approximation import FOLD_TAIL_FROM, fold_tail

    assert fold_tail(FOLD_TAIL_FROM, 512) and fold_tail(10, 512)
    assert not fold_tail(FOLD_TAIL_FROM - 1, 512) and not fold_tail(1, 512)
    assert not fold_tail(10, 256)


def test_the_chain_of_ten_folds_its_tail_on_avx512() -> None:
    """`tail=auto` on the benchmark's chain of 10 functions (one loop): masked where the
    target has AVX-512, an epilogue elsewhere."""
    from lowering.codegen.target import get_target

    ops = "\n".join(
        f"    %y{i} = {name} %y{i - 1} : f32"
        for i, name in enumerate(["math.exp", "math.log1p", "math.tanh", "math.sin", "math.cos", "math.erf", "math.expm1", "math.log", "math.atan", "math.exp"], 1)
    )
    program = f"""
func.func @f(%a: memref<64xf32>) {{
  %c0 = arith.constant 0 : index
  %n = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    %y0 = memref.load %a[%i] : memref<64xf32>
{ops}
    memref.store %y10, %a[%i] : memref<64xf32>
  }}
  func.return
}}
"""
    module = parse_module(program, "<chain>")
    run_passes(module, ["math-polynomial-approximation"])
    loop = next(op for op in module.walk() if op.name == "scf.for")
    assert ("fold_tail" in str(loop.attributes)) is (get_target().vector_bits >= 512)
