"""Runs each lit file under tests/lit as one pytest item, so `pytest` counts lit
tests in its summary and a failing RUN line fails the run."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import xla_dialect  # noqa: F401  (before any xDSL dialect, as in the tools: its formats compile on first use)

# The persistent compilation cache (runtime/compile_cache.py) of the tests is theirs
# alone: the run neither reads nor fills the user's cache (the tools the lit tests
# run inherit the setting).
os.environ["XLA_DIALECT_CACHE_DIR"] = tempfile.mkdtemp(prefix="xla-dialect-test-cache-")

LIT_ROOT = Path(__file__).parent / "lit"


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if file_path.suffix == ".mlir" and LIT_ROOT in file_path.parents:
        return LitFile.from_parent(parent, path=file_path)
    return None


class LitFile(pytest.File):
    def collect(self):
        yield LitItem.from_parent(self, name=self.path.name)


class LitItem(pytest.Item):
    def runtest(self) -> None:
        result = subprocess.run(
            [sys.executable, "-c", "from lit.main import main; main()", "-q", "-v", "--no-progress-bar", str(self.path)],
            check=False,  # the caller reads the exit status
            capture_output=True,
            text=True,
            cwd=LIT_ROOT,
        )
        if result.returncode != 0:
            raise LitFailure(result.stdout + result.stderr)

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, LitFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"lit: {self.path.relative_to(LIT_ROOT)}"


class LitFailure(Exception):
    pass


# -- the StableHLO interpreter suite's pass rate (tests/conformance) ----------------
# Each file's item records (passed, total); under xdist the workers send recorded
# properties to the controller, which prints the sum at the end of the run.

_conformance_counts: dict[str, tuple[int, int]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for key, value in report.user_properties:
            if key == "conformance":
                _conformance_counts[report.nodeid] = value  # pyright: ignore[reportArgumentType]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _conformance_counts:
        passed = sum(p for p, _ in _conformance_counts.values())
        total = sum(t for _, t in _conformance_counts.values())
        terminalreporter.write_line(
            f"StableHLO interpreter suite: {passed}/{total} chunks pass "
            f"({100 * passed / max(total, 1):.1f}%) over {len(_conformance_counts)} files"
        )
