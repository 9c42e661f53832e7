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


def test_compile_stage_runs_the_chunks_own_entry() -> None:
    """Most chunks have no `main`: the compile stage compiles and calls their first
    public function (it had asked for `main`, and compile() refused them cleanly)."""
    from xla_tools.fuzz import _compile_and_run_forked, _entry  # pyright: ignore[reportPrivateUsage]

    text = """func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func @double(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.add %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}"""
    assert _entry(text) == "double"
    assert _entry(text + "\nfunc.func @main() {\n  return\n}") == "main"
    assert _compile_and_run_forked(text, timeout=120) == "compiled"


def test_gentle_mutants_stay_valid_more_often() -> None:
    """The compile stage's gentle mutations (a type or size changed everywhere) keep more
    modules valid than the plain ones, so that more mutants reach compile()."""
    from xla_dialect.context import parse_module
    from xla_tools.fuzz import _valid, mutate_gently  # pyright: ignore[reportPrivateUsage]

    seeds = corpus()[:60]
    rng = random.Random(5)
    gentle = sum(_valid(mutate_gently(rng, text), parse_module) for text in seeds)
    plain = sum(_valid(mutate(rng, text), parse_module) for text in seeds)
    assert gentle > plain, (gentle, plain)
