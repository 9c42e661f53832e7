"""`llvm-split-large-functions` and `llvm-optnone-glue` change how the entry is compiled,
not what it computes: JAX-exported programs whose entries are cut into parts of a few ops
(every value that crosses a cut goes through the frame) give the same bits as the
programs compiled whole, and the same again with the parts that are glue only (calls,
loads, stores, addresses) compiled at `optnone` rather than O3."""

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


def _run(name: str, max_ops: int, glue_optnone: bool = True) -> tuple[list[np.ndarray], str]:
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module((HERE / f"{name}.mlir").read_text(), f"{name}.mlir", ctx)
    signatures = xla_signatures(module)
    passes = [p for p in LOWER_TO_LLVM if glue_optnone or p != "llvm-optnone-glue"]
    run_passes(module, passes, ctx, options={"llvm-split-large-functions": {"max_ops": max_ops}})
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


@pytest.mark.parametrize("name", PROGRAMS)
def test_glue_at_optnone_computes_the_same_bits(name: str) -> None:
    optimized, optimized_text = _run(name, 3, glue_optnone=False)
    glue, glue_text = _run(name, 3)
    assert "optimize_none" not in optimized_text
    assert "optimize_none" in glue_text  # some part is glue only
    assert len(optimized) == len(glue)
    for a, b in zip(optimized, glue, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
