"""`llvm-align-vector-stacks` (`lowering/stack_alignment.py`) in the pipeline: every
function LLVM compiles that computes on vectors wider than 16 bytes has an aligned
frame (after inlining too), so its spill slots are aligned wherever the stack lands."""

from __future__ import annotations

import re
from math import erf

import numpy as np
import pytest

from lowering.codegen.target import get_target
from xla_tools import compile

# An erf over enough elements to be vectorized, split across threads (a wrapper that
# LLVM inlines the loop's body into) and long enough a polynomial to spill on AVX2.
PROGRAM = """
func.func @main(%x: tensor<65536xf32>) -> tensor<65536xf32> {
  %0 = chlo.erf %x : tensor<65536xf32> -> tensor<65536xf32>
  %1 = stablehlo.multiply %0, %x : tensor<65536xf32>
  return %1 : tensor<65536xf32>
}
"""


def _functions(ir: str) -> dict[str, tuple[str, str]]:
    """Each defined function's header line and body."""
    found: dict[str, tuple[str, str]] = {}
    for match in re.finditer(r"^define [^\n]*@\"?([\w.$]+)\"?\(([^\n]*)\n(.*?)^}", ir, re.MULTILINE | re.DOTALL):
        found[match.group(1)] = (match.group(2), match.group(3))
    return found


def _attribute_groups(ir: str) -> dict[str, str]:
    return dict(re.findall(r"^attributes (#\d+) = \{ (.*) \}$", ir, re.MULTILINE))


def test_every_function_with_wide_vectors_aligns_its_frame() -> None:
    if get_target().vector_bits <= 128:
        pytest.skip("the target's vectors are 16 bytes: the ABI's alignment is enough")
    x = np.linspace(-4.0, 4.0, 65536, dtype=np.float32)
    executable = compile(PROGRAM)
    expected = np.array([erf(float(v)) for v in x[::4096]], dtype=np.float64) * x[::4096]
    np.testing.assert_allclose(executable(x)[::4096], expected, rtol=1e-6, atol=1e-7)
    optimized = executable._jit.optimized_ir  # pyright: ignore[reportPrivateUsage]
    groups = _attribute_groups(optimized)
    wide = 0
    for name, (header, body) in _functions(optimized).items():
        lanes = [int(n) * (8 if t == "double" else 4) for n, t in re.findall(r"<(\d+) x (float|double|i32)>", body)]
        if "optnone" in header or not lanes or max(lanes) <= 16:
            continue
        wide += 1
        attributes = " ".join(groups.get(g, "") for g in re.findall(r"#\d+", header)) + header
        assert re.search(r"alignstack[=(](32|64)", attributes), f"{name}: {header}"
    assert wide, "the program has no function computing on wide vectors"
