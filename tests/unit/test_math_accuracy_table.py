"""`xla_tools.math_accuracy --markdown FILE` rewrites only the measured cells of the f32
table between its markers (`update_table`): the prose, the other rows and the
hand-written method column stay as they are."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xla_tools.math_accuracy import FUNCTIONS, TABLE_BEGIN, TABLE_END, update_table

DOC = f"""# Accuracy

Prose above, with a | pipe and a table-like line:
| exp | f32 | 9.99 | 9.9 | not the table |

{TABLE_BEGIN}
| function | type | max ulp measured | bound asserted | method |
|---|---|---|---|---|
| exp | f32 | 0.97 | 1.0 | polynomial, by hand |
| tanh | f32 | 1.27 | 2.0 | polynomial; `E = e^2\\|x\\|` above 0.55 |
| log | f32 | 0.83 | 1.0 | polynomial |
| erf, pow, ... | f16, bf16 | the f32 result rounded once | bit-exact vs f32 | computed in f32 |
{TABLE_END}

* A note below that mentions | exp | f32 |.
"""


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_only_the_measured_cells_change() -> None:
    rows = [("exp", 0.881, FUNCTIONS["exp"]), ("tanh", 1.4751, FUNCTIONS["tanh"])]
    new = update_table(DOC, rows)
    old_lines, new_lines = _lines(DOC), _lines(new)
    assert len(old_lines) == len(new_lines)
    changed = {i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b}
    assert [new_lines[i] for i in sorted(changed)] == [
        f"| exp | f32 | 0.88 | {FUNCTIONS['exp'].bound} | polynomial, by hand |",
        f"| tanh | f32 | 1.48 | {FUNCTIONS['tanh'].bound} | polynomial; `E = e^2\\|x\\|` above 0.55 |",
    ]


def test_a_new_function_goes_after_the_last_f32_row() -> None:
    new = _lines(update_table(DOC, [("erfc", 2.5, FUNCTIONS["erfc"])]))
    at = new.index("| log | f32 | 0.83 | 1.0 | polynomial |")
    assert new[at + 1] == f"| erfc | f32 | 2.50 | {FUNCTIONS['erfc'].bound} | {FUNCTIONS['erfc'].method} |"
    assert new[at + 2].startswith("| erf, pow, ... | f16, bf16 |")


def test_the_markers_are_required() -> None:
    with pytest.raises(ValueError, match="no table between"):
        update_table(DOC.replace(TABLE_END, ""), [])


def test_the_command_refuses_a_file_without_markers(tmp_path: Path) -> None:
    """Before measuring anything (which would take minutes): a message, exit status 1."""
    doc = tmp_path / "doc.md"
    doc.write_text("# prose only\n")
    run = subprocess.run(
        [sys.executable, "-m", "xla_tools.math_accuracy", "--markdown", str(doc), "exp"],
        check=False, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 1
    assert "no table between" in run.stderr and "Traceback" not in run.stderr
    assert doc.read_text() == "# prose only\n"


def test_the_repository_doc_has_the_markers() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "math_accuracy.md"
    text = doc.read_text()
    assert update_table(text, []) == text
