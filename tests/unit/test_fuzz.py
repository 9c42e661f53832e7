"""The mutation fuzzer (xla_tools/fuzz.py), bounded for CI: a fixed seed, ~30 s of
mutants through parse, verify, canonicalize and lower-to-llvm, and no finding."""

from __future__ import annotations

import random

from xla_tools.fuzz import Report, check_mutant, corpus, fuzz, mutate


def test_mutations_are_reproducible() -> None:
    seeds = corpus()
    assert len(seeds) > 50
    first = [mutate(random.Random(3), text) for text in seeds[:20]]
    again = [mutate(random.Random(3), text) for text in seeds[:20]]
    assert first == again and first != seeds[:20]


def test_a_crash_is_a_finding() -> None:
    report = Report()
    check_mutant("func.func @f() {\n  %0 = xla.constant dense<1> : tensor<i32>\n  return\n}", report, False, 10)
    assert report.lowered == 1 and not report.findings
    from xla_tools import fuzz as module

    original = module._clean_exceptions  # pyright: ignore[reportPrivateUsage]
    module._clean_exceptions = lambda: (KeyError,)  # pyright: ignore[reportPrivateUsage]
    try:
        check_mutant("func.func @f( {", report, False, 10)
    finally:
        module._clean_exceptions = original  # pyright: ignore[reportPrivateUsage]
    assert report.findings and next(iter(report.findings.values())).stage == "parse"


def test_bounded_fuzzing_finds_nothing() -> None:
    report = fuzz(seconds=30, seed=0, run=False)
    assert report.mutants > 50 and report.parsed > 0
    assert not report.findings, "\n".join(f"{f.signature}\n{f.mutant}" for f in report.findings.values())
