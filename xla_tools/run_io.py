"""What `xla-run` reads and writes, shared by its one-process and MPI modes
(`xla_tools/xla_run.py`, `xla_tools/mpi_run.py`)."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

_BF16_NAME = "bfloat16"


class RunFailure(Exception):
    """A user error of xla-run: printed as one line, exit status 1."""


def read_inputs(path: str | None, executable: Any) -> list[Any]:
    """The entry's input leaves from the npz at `path` (arg0, arg1, ...)."""
    n_leaves = executable.input_leaf_count
    entry = executable.entry
    leaves: list[Any] = []
    if path:
        data = _load_npz(path)
        keys = set(data.files)
        for k in range(n_leaves):
            if f"arg{k}" not in keys:
                raise RunFailure(f"{path} has no arg{k}; @{entry} takes {n_leaves} input array(s) arg0..arg{n_leaves - 1}")
            try:
                leaves.append(data[f"arg{k}"])
            except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
                raise RunFailure(f"cannot read arg{k} of {path}: {err}") from None
        extra = sorted(keys - {f"arg{k}" for k in range(n_leaves)})
        if extra:
            raise RunFailure(f"{path} has unexpected entries {', '.join(extra)}; @{entry} takes arg0..arg{n_leaves - 1}")
    elif n_leaves:
        raise RunFailure(f"@{entry} takes {n_leaves} input array(s); pass them with --inputs FILE.npz (arg0, arg1, ...)")
    return leaves


def _load_npz(path: str) -> Any:
    """The archive at `path`, or a RunFailure saying why it is not a readable npz
    (a directory, a .npy renamed .npz, a corrupt zip)."""
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise RunFailure(f"cannot read inputs {path}: {getattr(err, 'strerror', None) or err}") from None
    if not hasattr(data, "files"):
        raise RunFailure(f"cannot read inputs {path}: an .npy array, not an .npz archive of arg0, arg1, ...")
    return data


def write_results(results: Sequence[np.ndarray], output: str | None, stdout: IO[str]) -> None:
    """Write the results to the npz `output` as out0, out1, ... or print them."""
    exported = [r.view(np.uint16) if r.dtype.name == _BF16_NAME else r for r in results]
    if output:
        try:
            np.savez(output, **{f"out{k}": r for k, r in enumerate(exported)})
        except OSError as err:
            raise RunFailure(f"cannot write {output}: {err.strerror}") from None
    else:
        with np.printoptions(threshold=64, edgeitems=4):
            for k, r in enumerate(results):
                stdout.write(f"out{k}: {r.dtype.name}{list(r.shape)} = {np.array2string(r, separator=', ')}\n")



__all__ = ["RunFailure", "read_inputs", "write_results"]
