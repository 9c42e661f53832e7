"""StableHLO exactly as JAX exports it (examples/jax_exports, made by its
export.py: pretty form with debug locations, Shardy attributes, LAPACK custom
calls) compiles and computes what JAX/XLA computed on the CPU. No JAX is needed:
the inputs and JAX's outputs are stored in data.npz."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_tools import compile

HERE = Path(__file__).resolve().parents[2] / "examples" / "jax_exports"
DATA = np.load(HERE / "data.npz")
PROGRAMS = sorted({key.split(".")[0] for key in DATA.files})

# XLA's CPU backend keeps bf16 products in f32 where the program rounds them to
# bf16 (it removes convert pairs); the project rounds as written: one bf16 ulp.
RELATIVE_TOLERANCE = {"mixed_precision": 1e-2}


def test_every_export_has_its_program() -> None:
    assert {p.stem for p in HERE.glob("*.mlir")} == set(PROGRAMS)
    assert len(PROGRAMS) >= 13


@pytest.mark.parametrize("name", PROGRAMS)
def test_jax_export_matches_jax(name: str) -> None:
    text = (HERE / f"{name}.mlir").read_text()
    assert "stablehlo." in text and "jax.result_info" in text  # read unchanged, as exported
    assert "loc(#loc" in text  # with debug locations, aliases defined after the module
    executable = compile(text, filename=f"{name}.mlir")
    args = [DATA[f"{name}.arg{i}"] for i in range(executable.input_leaf_count)]
    results = executable.run_leaves(args)
    expected = [DATA[key] for key in sorted((k for k in DATA.files if k.startswith(f"{name}.out")), key=lambda k: int(k.split("out")[1]))]
    assert len(results) == len(expected)
    rtol = RELATIVE_TOLERANCE.get(name, 1e-4)
    for got, want in zip(results, expected, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype.kind in "fc":
            # Sums in another order than XLA's: errors relative to the array's scale.
            scale = float(np.max(np.abs(want))) if want.size else 1.0
            eps = float(np.finfo(want.dtype).eps)
            np.testing.assert_allclose(got, want, rtol=max(rtol, 100 * eps), atol=max(1e-5, 100 * eps) * (scale or 1.0))
        else:
            np.testing.assert_array_equal(got, want)
