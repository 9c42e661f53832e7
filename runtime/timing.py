"""Wall and CPU time per compilation stage, reported as mlir-opt's `-mlir-timing` does.

    report = TimingReport()
    with report.phase("convert-to-llvm"):
        ...
    print(report.format())

`compile(..., timing=True)`, `xla-run --timing` and `xla-opt --timing` fill one report
with a line per pass and per LLVM phase (translation, parsing, optimization, code
generation, the disk cache) and print it on stderr; `$XLA_DIALECT_TIMING=1` turns it on
for `compile()` (and so for every tool built on it). CPU time is the process's
(`time.process_time`: every thread), so a phase that runs on several threads may show
more CPU than wall time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


def _no_cpu_time() -> float:
    return 0.0


@dataclass
class Phase:
    name: str
    wall: float = 0.0
    cpu: float = 0.0
    count: int = 0


@dataclass
class TimingReport:
    """Named phases in the order they first ran; a phase run twice adds up."""

    phases: dict[str, Phase] = field(default_factory=dict[str, Phase])
    cpu_time: bool = True
    """False: wall time only. Reading the process's CPU time sums over its threads and
    can take a millisecond (a sandboxed kernel), ~10% of a small compile's time."""

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        clock = time.process_time if self.cpu_time else _no_cpu_time
        wall, cpu = time.perf_counter(), clock()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - wall, clock() - cpu)

    def add(self, name: str, wall: float, cpu: float) -> None:
        entry = self.phases.setdefault(name, Phase(name))
        entry.wall += wall
        entry.cpu += cpu
        entry.count += 1

    @property
    def total_wall(self) -> float:
        return sum(p.wall for p in self.phases.values())

    @property
    def total_cpu(self) -> float:
        return sum(p.cpu for p in self.phases.values())

    def wall(self, name: str) -> float:
        """The wall time of phase `name` (0 if it did not run)."""
        entry = self.phases.get(name)
        return entry.wall if entry else 0.0

    def format(self, title: str = "Execution time report") -> str:
        """The report as `-mlir-timing` prints it: CPU and wall time per phase with
        their shares of the total."""
        rule = "===" + "-" * 73 + "==="
        total_wall, total_cpu = self.total_wall, self.total_cpu
        lines = [
            rule,
            f"{'... ' + title + ' ...':^79}".rstrip(),
            rule,
            f"  Total Execution Time: {total_wall:.4f} seconds",
            "",
            "  ----CPU Time----  ----Wall Time----  ----Name----",
        ]

        def share(value: float, total: float) -> str:
            return f"{value:8.4f} ({100 * value / total if total > 0 else 0.0:5.1f}%)"

        for p in self.phases.values():
            lines.append(f"  {share(p.cpu, total_cpu)}  {share(p.wall, total_wall)}   {p.name}")
        lines.append(f"  {share(total_cpu, total_cpu)}  {share(total_wall, total_wall)}   Total")
        return "\n".join(lines)


def timing_from_env() -> bool:
    """Whether `$XLA_DIALECT_TIMING` asks for a timing report."""
    return os.environ.get("XLA_DIALECT_TIMING", "") not in ("", "0")


__all__ = ["Phase", "TimingReport", "timing_from_env"]
