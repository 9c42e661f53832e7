"""Every dialect the tools register loads (xDSL checks assembly formats only then),
and every `xla` op is documented, tied to a spec section and round-trips by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context

from xla_dialect.dialect import XLA, all_ops
from xla_dialect.registry import get_all_dialects

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "operation_semantics.md"


@pytest.mark.parametrize("name", sorted(get_all_dialects()))
def test_dialect_loads(name: str) -> None:
    ctx = Context()
    ctx.register_dialect(name, get_all_dialects()[name])
    ctx.get_dialect(name)


def test_op_names_are_unique_and_prefixed() -> None:
    names = [op.name for op in all_ops()]
    assert len(names) == len(set(names))
    assert all(name.startswith("xla.") for name in names)
    assert {op.name for op in XLA.operations} == set(names)


@pytest.mark.parametrize("op", all_ops(), ids=lambda op: op.name)
def test_op_is_documented(op: type) -> None:
    assert op.__doc__ and op.__doc__.strip(), f"{op.name} has no docstring"


def test_spec_sections_exist() -> None:
    if not SPEC.exists():
        pytest.skip(f"the spec is not at {SPEC} (../shared is absent)")
    headings = {
        line[3:].strip() for line in SPEC.read_text().splitlines() if line.startswith("## ")
    }
    # "StableHLO" marks ops the spec has no section for (constant, return, ...);
    # "Older spec versions" those kept from 000/002 (RngBernoulli).
    extra = {"StableHLO", "Older spec versions"}
    for op in all_ops():
        section = getattr(op, "SPEC_SECTION", "")
        assert section in headings | extra, f"{op.name}: unknown spec section {section!r}"
