"""A fuzzer timeout is excused only by a proof that a `while` does not end
(xla_tools/fuzz_loops.py): counters that wrap, cross or never move, and the loops
that do end (or are beyond the proof), which stay findings."""

from __future__ import annotations

import pytest

from xla_tools.fuzz import Report, _warm_up, check_mutant  # pyright: ignore[reportPrivateUsage]
from xla_tools.fuzz_loops import long_running_while


def counting(start: int, step: int, op: str, bound: int, direction: str = "LT", t: str = "i64") -> str:
    """A loop from `start` by `step` while `i <direction> bound`; %a is zero when the
    fuzzer calls it (its sum with the bound keeps the bound outside the folder's reach
    until the argument is known)."""
    return f"""func.func @main(%a: tensor<{t}>) -> tensor<{t}> {{
  %c0 = xla.constant dense<{start}> : tensor<{t}>
  %c = xla.constant dense<{bound}> : tensor<{t}>
  %bound = xla.add %a, %c : tensor<{t}>
  %r = xla.while(%i = %c0) : tensor<{t}>
  cond {{
    %lt = xla.compare {direction}, %i, %bound : (tensor<{t}>, tensor<{t}>) -> tensor<i1>
    xla.return %lt : tensor<i1>
  }} do {{
    %s = xla.constant dense<{step}> : tensor<{t}>
    %n = xla.{op} %i, %s : tensor<{t}>
    xla.return %n : tensor<{t}>
  }}
  func.return %r : tensor<{t}>
}}"""


@pytest.mark.parametrize(
    ("program", "runs"),
    [
        (counting(0, -1, "add", 10), "at least 9223372036854775809 times"),  # the session-4 timeout
        (counting(0, 1, "subtract", 10), "at least 9223372036854775809 times"),
        (counting(0, 0, "add", 10), "for ever"),
        (counting(0, 3, "add", 10, "NE"), "at least 3074457345618258603 times"),  # steps over 10
        (counting(0, 1, "add", 1 << 41), "at least 2199023255552 times"),
        (counting(5, 1, "add", 0, "GT", "ui64"), "at least 18446744073709551611 times"),  # wraps to 0 at 2^64
    ],
)
def test_a_loop_that_does_not_end_is_proved(program: str, runs: str) -> None:
    why = long_running_while(program)
    assert why is not None and why.endswith(f"runs {runs} with zeroed arguments"), why


@pytest.mark.parametrize(
    "program",
    [
        counting(0, 1, "add", 10),  # ends
        counting(0, 1, "add", 10, "NE"),  # reaches 10
        counting(0, 2, "add", 1 << 40),  # ends after 2^39: long, but it ends
        counting(0, 1, "add", 100, "LT", "i8"),  # ends at 100
        counting(0, 1, "add", 255, "LE", "ui8"),  # wraps after 256: not ended, but beyond the proof
        counting(1, 2, "multiply", 10),  # a step the proof does not follow (it ends)
        counting(1, 1, "add", 10).replace("%n = xla.add %i, %s", "%n = xla.add %i, %i"),  # doubling
        counting(5, 1, "add", 0, "GT", "ui32"),  # wraps to 0 after 2^32 - 5: ends
        "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  func.return %a : tensor<f32>\n}",
        "not a program",
    ],
)
def test_a_loop_that_ends_or_is_beyond_the_proof_is_not_excused(program: str) -> None:
    assert long_running_while(program) is None


def test_the_fuzzer_counts_a_proved_loop_apart_and_reports_other_timeouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    _warm_up()  # the JIT's setup, once: the children then compile within the deadline
    report = Report()
    check_mutant(counting(0, -1, "add", 10), report, True, 4.0)
    assert report.long_running == 1 and report.compiled == 1 and not report.findings
    check_mutant(counting(0, 1, "add", 3 << 38), report, True, 4.0)  # ends, after about 10^12 iterations
    assert report.long_running == 1 and len(report.findings) == 1
    (finding,) = report.findings.values()
    assert finding.kind == "timeout" and "compiling" not in finding.detail
