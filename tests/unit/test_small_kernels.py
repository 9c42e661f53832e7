"""`func-optsize-small-kernels` (`lowering/small_kernels.py`): a small kernel reaches LLVM
`optsize`, LLVM then makes less code of it, and the results are bit for bit those of
the code O3 makes without the attribute."""

from __future__ import annotations

import numpy as np

from lowering.small_kernels import static_work
from runtime.jit import JitModule
from tests.unit.test_roll_outer_loops import llvm_instructions
from xla_dialect.context import parse_module
from xla_tools.pipelines import lower_and_compile, run_passes

# A layer norm's normalization over 16 x 32 activations: `(x - mean) / std`, the row's
# statistics broadcast along it (O3 unrolled the rows of 32 and vectorized across the
# 16 rows with gathers: 805 instructions).
PROGRAM = """
func.func @normalize(%x: memref<16x32xf32>, %mean: memref<16xf32>, %std: memref<16xf32>, %y: memref<16x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %x[%i, %j] : memref<16x32xf32>
      %m = memref.load %mean[%i] : memref<16xf32>
      %s = memref.load %std[%i] : memref<16xf32>
      %d = arith.subf %a, %m : f32
      %q = arith.divf %d, %s : f32
      memref.store %q, %y[%i, %j] : memref<16x32xf32>
    }
  }
  func.return
}
"""


def _compile(small: bool) -> JitModule:
    module = parse_module(PROGRAM, "<normalize>")
    pass_name = "func-optsize-small-kernels"
    run_passes(module, [pass_name], options={pass_name: {"max_work": 16384 if small else 0}})
    return lower_and_compile(module)


def test_the_work_counts_every_op_per_iteration() -> None:
    from xdsl.dialects import func

    fn = next(op for op in parse_module(PROGRAM, "<normalize>").ops if isinstance(op, func.FuncOp))
    # 512 iterations of 3 loads, 2 arithmetic ops, a store and the inner loop's yield; 16
    # of the outer loop's yield; the 4 constants and the return once.
    assert static_work(fn) == 512 * 7 + 16 + 5
    assert static_work(fn, limit=1000) is None


def test_a_small_kernel_is_optsize_with_less_code_and_the_same_results() -> None:
    small, full = _compile(True), _compile(False)
    assert " optsize" in small.llvm_ir.split("define void @\"normalize\"")[1].splitlines()[0]
    assert "optsize" not in full.llvm_ir
    assert llvm_instructions(small.optimized_ir) * 2 < llvm_instructions(full.optimized_ir)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 32)).astype(np.float32)
    mean = rng.standard_normal(16).astype(np.float32)
    std = rng.uniform(0.5, 2.0, 16).astype(np.float32)
    a, b = np.empty_like(x), np.empty_like(x)
    small.call("normalize", x, mean, std, a)
    full.call("normalize", x, mean, std, b)
    np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    np.testing.assert_array_equal(a, (x - mean[:, None]) / std[:, None])


def test_the_pipeline_marks_after_the_loops_are_final() -> None:
    from xla_tools.registry import LOWER_TO_LLVM

    assert LOWER_TO_LLVM.index("scf-roll-outer-loops") < LOWER_TO_LLVM.index("func-optsize-small-kernels")
    assert LOWER_TO_LLVM.index("func-optsize-small-kernels") < LOWER_TO_LLVM.index("lower-scf-to-cf")
