"""`llvm-split-large-functions` changes how the entry is compiled, not what it computes:
JAX-exported programs whose entries are cut into parts of a few ops (every value that
crosses a cut goes through the frame) give the same bits as the programs compiled whole."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lowering.to_llvm.common import register_llvm_extensions
from runtime.executable import load, xla_signatures
from xla_dialect.context import make_context, parse_module
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

HERE = Path(__file__).resolve().parents[2] / "examples" / "jax_exports"
DATA = np.load(HERE / "data.npz")
PROGRAMS = ["mlp_grad", "rng", "sorting", "mixed_precision"]
"""Exports whose entry is one block after the lowering (the pass splits only those)."""


def _run(name: str, max_ops: int) -> tuple[list[np.ndarray], str]:
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module((HERE / f"{name}.mlir").read_text(), f"{name}.mlir", ctx)
    signatures = xla_signatures(module)
    run_passes(module, LOWER_TO_LLVM, ctx, options={"llvm-split-large-functions": {"max_ops": max_ops}})
    text = str(module)
    executable = load(module, signatures).executable("main")
    args = [DATA[f"{name}.arg{i}"] for i in range(executable.input_leaf_count)]
    return executable.run_leaves(args), text


@pytest.mark.parametrize("name", PROGRAMS)
def test_split_entry_computes_the_same_bits(name: str) -> None:
    whole, whole_text = _run(name, 1 << 30)
    split, split_text = _run(name, 3)
    assert ".part" not in whole_text
    assert "@main.part1(" in split_text  # the entry was cut
    assert len(whole) == len(split)
    for a, b in zip(whole, split, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
