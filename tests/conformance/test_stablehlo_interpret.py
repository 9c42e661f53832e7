"""The StableHLO interpreter suite, compiled: one item per in-scope test file.

Every chunk of `../shared/conformance/stablehlo-interpret` runs through the
compiler in an isolated worker (`xla_tools/conformance.py`). A file's item fails
when a chunk listed in `expected_passes.txt` does not pass; chunks that pass
without being listed are reported (add them with `python -m xla_tools.conformance
--update`), so the list only grows. The pass rate is printed at the end of the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from xla_tools.conformance import IsolatedRunner, read_pass_list, run_file, suite_files

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO.parent / "shared" / "conformance" / "stablehlo-interpret"
PASS_LIST = Path(__file__).with_name("expected_passes.txt")

FILES = suite_files(str(SUITE)) if SUITE.is_dir() else []
EXPECTED = read_pass_list(str(PASS_LIST))


@pytest.fixture(scope="module")
def runner() -> Iterator[IsolatedRunner]:
    with IsolatedRunner(timeout=120) as r:
        yield r


def test_suite_present() -> None:
    if not SUITE.is_dir():
        pytest.skip(f"the conformance suite is not at {SUITE} (../shared/conformance beside the checkout)")
    assert FILES, f"no test files found under {SUITE}"
    listed_files = {key.rpartition(":")[0] for key in EXPECTED}
    assert listed_files <= set(FILES), f"the pass list names files the suite lacks: {sorted(listed_files - set(FILES))}"


@pytest.mark.parametrize("file", FILES or ["(suite absent)"])
def test_file(file: str, runner: IsolatedRunner, record_property: pytest.RecordProperty) -> None:
    if not FILES:
        pytest.skip(f"the conformance suite is not at {SUITE}")
    outcomes = list(run_file(os.path.join(SUITE, file), runner, display_name=file))
    record_property("conformance", (sum(o.passed for o in outcomes), len(outcomes)))
    regressions = [o.line() for o in outcomes if o.key in EXPECTED and not o.passed]
    assert not regressions, "chunks of the pass list fail:\n" + "\n".join(regressions)
