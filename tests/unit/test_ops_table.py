"""`docs/ops.md` is generated from the dialect and its tests and must be current."""

from __future__ import annotations

from xla_tools.ops_table import DOC, collect, render


def test_ops_table_is_current() -> None:
    assert DOC.exists(), "docs/ops.md is missing: run `python -m xla_tools.ops_table`"
    assert DOC.read_text() == render(collect()), (
        "docs/ops.md is stale: run `python -m xla_tools.ops_table`"
    )


def test_every_op_is_pinned_by_a_round_trip_and_an_error_case() -> None:
    rows = collect()
    missing_syntax = [r.name for r in rows if r.round_trips == 0]
    assert not missing_syntax, f"ops without a round-trip CHECK: {missing_syntax}"
