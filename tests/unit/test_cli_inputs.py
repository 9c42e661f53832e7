"""The command-line tools on files that are not what they claim (issue 17): one clear
line on stderr and exit 1, never an internal error."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pytest

from xla_tools.xla_opt import main as xla_opt
from xla_tools.xla_run import main as xla_run

PROGRAM = """func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = xla.add %a, %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    (root / "add.mlir").write_text(PROGRAM)
    (root / "binary.mlir").write_bytes(b"\xff\xfe func.func")
    (root / "folder").mkdir()
    np.save(root / "a.npy", np.ones(3, np.float32))
    shutil.copy(root / "a.npy", root / "renamed.npz")
    (root / "corrupt.npz").write_bytes(b"PK\x03\x04" + b"garbage" * 20)
    np.savez(root / "objects.npz", arg0=np.array([object(), 1], dtype=object))
    return root


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add.mlir", "--inputs", "renamed.npz"], "an .npy array, not an .npz archive"),
        (["add.mlir", "--inputs", "corrupt.npz"], "cannot read inputs"),
        (["add.mlir", "--inputs", "objects.npz"], "cannot read arg0 of"),
        (["add.mlir", "--inputs", "folder"], "cannot read inputs"),
        (["binary.mlir"], "not UTF-8 text"),
        (["folder"], "Is a directory"),
    ],
)
def test_xla_run_bad_files(files: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(files / a) if not a.startswith("-") else a for a in args]
    assert xla_run(paths, io.StringIO()) == 1
    err = capsys.readouterr().err
    assert message in err and "internal error" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("name", "message"), [("binary.mlir", "not UTF-8 text"), ("folder", "Is a directory")])
def test_xla_opt_bad_files(files: Path, name: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert xla_opt([str(files / name)], io.StringIO()) == 1
    err = capsys.readouterr().err
    assert message in err and "internal error" not in err
