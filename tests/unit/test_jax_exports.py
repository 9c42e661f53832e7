"""StableHLO exactly as JAX exports it (examples/jax_exports, made by its
export.py) compiles and computes what JAX/XLA computed on the CPU."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_tools import compile

HERE = Path(__file__).resolve().parents[2] / "examples" / "jax_exports"
DATA = np.load(HERE / "data.npz")
PROGRAMS = sorted({key.split(".")[0] for key in DATA.files})


@pytest.mark.parametrize("name", PROGRAMS)
def test_jax_export_matches_jax(name: str) -> None:
    text = (HERE / f"{name}.mlir").read_text()
    assert "stablehlo." in text and "jax.result_info" in text  # read unchanged, as exported
    executable = compile(text, filename=f"{name}.mlir")
    args = [DATA[f"{name}.arg{i}"] for i in range(executable.input_leaf_count)]
    results = executable.run_leaves(args)
    expected = [DATA[key] for key in sorted((k for k in DATA.files if k.startswith(f"{name}.out")), key=lambda k: int(k.split("out")[1]))]
    assert len(results) == len(expected)
    for got, want in zip(results, expected, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype.kind == "f":
            # f32 sums in another order than XLA's: errors relative to the array's scale.
            scale = float(np.max(np.abs(want))) or 1.0
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * scale)
        else:
            np.testing.assert_array_equal(got, want)
