"""The benchmark harness (benchmarks/harness.py) on tiny cases: a row gets its times and
ratio, a wrong result or a failing compile is a failed row, the run's exit status says
so. Needs JAX (the `bench` extra); skipped without it. No timing is asserted."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import harness


def _tiny() -> harness.Case:
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((8, 8), dtype=np.float32), rng.standard_normal((8, 8), dtype=np.float32)
    return harness.Case("tiny matmul", lambda a, b: jnp.tanh(a @ b), (a, b), flops=2.0 * 8**3)


class _Off:
    """An executable whose results are off by one: the harness must call it a mismatch."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __call__(self, *args: Any, out: list[np.ndarray] | None = None) -> Any:
        result = self.inner(*args, out=out)
        result += 1
        return result


def test_row_has_times_and_ratio() -> None:
    compile_fn, _ = harness.load_compile()
    row = harness.run_case(_tiny(), compile_fn, reps=3, budget=0.5)
    assert row.error is None, row.error
    assert row.ratio is not None and row.ratio > 0
    assert row.ours_ms is not None and row.jax_ms is not None and row.reps >= 3
    assert row.unit == "GFLOP/s" and row.ours_rate is not None
    assert row.compile_s is not None
    assert "tiny matmul" in harness.markdown_table([row])


def test_mismatch_is_a_failure() -> None:
    compile_fn, _ = harness.load_compile()
    row = harness.run_case(_tiny(), lambda text, **kw: _Off(compile_fn(text, **kw)), reps=3, budget=0.5)
    assert row.failed and row.error is not None and "MISMATCH" in row.error
    assert row.ratio is None
    assert "FAILED" in harness.text_row(row, "GFLOP/s")


def test_compile_error_is_a_failure() -> None:
    def broken(text: str, **kw: Any) -> Any:
        raise RuntimeError("no such op")

    row = harness.run_case(_tiny(), broken, reps=3, budget=0.5)
    assert row.failed and row.error is not None and row.error.startswith("compile:")


def test_main_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def bad(x: Any) -> Any:
        raise ValueError("cannot trace")

    def cases() -> list[harness.Case]:
        return [_tiny(), harness.Case("bad", bad, (np.zeros(3, np.float32),), bytes=12.0)]

    out = tmp_path / "rows.json"
    status = harness.main(cases, None, ["--reps", "2", "--budget", "0.2", "--json", str(out), "--markdown"])
    assert status == 1
    printed = capsys.readouterr().out
    assert "geometric mean" in printed and "FAILED export" in printed
    doc = json.loads(out.read_text())
    assert [r["failed"] for r in doc["rows"]] == [False, True]
    assert harness.main(cases, None, ["--filter", "tiny", "--reps", "2", "--budget", "0.2"]) == 0


def test_tolerance_by_dtype() -> None:
    case = harness.Case("t", lambda x: x, ())
    ref = [np.array([1.0, 2.0], np.float32)]
    assert harness.check([np.array([1.0, 2.00001], np.float32)], ref, case)[1] is None
    assert harness.check([np.array([1.0, 2.01], np.float32)], ref, case)[1] is not None
    assert harness.check([np.array([1, 2], np.int32)], [np.array([1, 3], np.int32)], case)[1] is not None
    assert harness.check([np.array([1.0], np.float64)], [np.array([1.0], np.float32)], case)[1] is not None
