"""The vector width LLVM's vectorizers aim for (`Target.loop_vector_bits`): the whole
AVX-512 register on AVX-512 targets, where LLVM's tuning for Intel's cores would take
256 bits (`lowering/codegen/target.py`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import lowering.codegen.target as target_module
from lowering.codegen.target import NAMED_TARGETS, Target, get_target

EXP_LOOP = """func.func @main(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = xla.exponential %a : tensor<4096xf32>
  func.return %0 : tensor<4096xf32>
}
"""


@pytest.mark.parametrize("name", ["avx512", "avx512vnni", "avx512bf16", "znver4"])
def test_avx512_targets_vectorize_loops_at_512_bits(name: str) -> None:
    t = NAMED_TARGETS[name]
    assert t.loop_vector_bits == 512
    assert t.llvm_features().split(",")[-1] == "-prefer-256-bit"


@pytest.mark.parametrize("name", ["avx2", "sse"])
def test_narrower_targets_keep_llvm_tuning(name: str) -> None:
    t = NAMED_TARGETS[name]
    assert t.loop_vector_bits == 0
    assert t.llvm_features() == t.features


def test_a_256_bit_preference_is_a_plus_flag() -> None:
    t = dataclasses.replace(NAMED_TARGETS["avx512"], loop_vector_bits=256)
    assert t.llvm_features() == "+prefer-256-bit"
    t = dataclasses.replace(t, features="+avx512f")
    assert t.llvm_features() == "+avx512f,+prefer-256-bit"


def test_the_host_takes_its_register_width() -> None:
    host = get_target("host")
    assert host.loop_vector_bits == (512 if host.vector_bits >= 512 else 0)


def _compiled_ir(monkeypatch: pytest.MonkeyPatch, t: Target) -> tuple[str, object]:
    from xla_tools import compile, compiler

    monkeypatch.setattr(target_module, "get_target", lambda name=None: t)
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    monkeypatch.setattr(compiler, "_CACHE", type(compiler._CACHE)())
    executable = compile(EXP_LOOP)
    return executable._jit.optimized_ir, executable  # pyright: ignore[reportAttributeAccessIssue]


def test_an_exp_loop_runs_16_lanes_on_avx512(monkeypatch: pytest.MonkeyPatch) -> None:
    host = get_target("host")
    if host.vector_bits < 512:
        pytest.skip("the host has no AVX-512")
    wide, executable = _compiled_ir(monkeypatch, host)
    assert "<16 x float>" in wide and "<8 x float> @llvm" not in wide
    x = np.linspace(-80, 80, 4096, dtype=np.float32)
    np.testing.assert_allclose(executable(x), np.exp(x), rtol=2e-7)  # pyright: ignore[reportCallIssue]
    if host.cpu.startswith("znver"):
        return  # LLVM's tuning for the Zen cores takes 512 bits anyway
    narrow, _ = _compiled_ir(monkeypatch, dataclasses.replace(host, loop_vector_bits=0))
    assert "<8 x float>" in narrow and "<16 x float>" not in narrow
