"""Adds the suite's pass rate to the end of the pytest report (also under xdist,
whose workers send each item's recorded properties to the controller)."""

from __future__ import annotations

import pytest

_counts: dict[str, tuple[int, int]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for key, value in report.user_properties:
            if key == "conformance":
                _counts[report.nodeid] = value  # pyright: ignore[reportArgumentType]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _counts:
        passed = sum(p for p, _ in _counts.values())
        total = sum(t for _, t in _counts.values())
        terminalreporter.write_line(
            f"StableHLO interpreter suite: {passed}/{total} chunks pass ({100 * passed / max(total, 1):.1f}%) "
            f"over {len(_counts)} files"
        )
