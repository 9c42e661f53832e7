"""Collectives across processes: `mpiexec -n 4 xla-run`, one replica per process
(needs the `mpi` extra: mpi4py and MPICH's mpiexec, which the `test` extra brings).

A data-parallel training step (the MLP of examples/jax_exports, its gradients
all-reduced over 4 processes, each holding a quarter of the batch) gives the
weights of one process's step over the whole batch; send/recv pairs ranks by
`_xla_send_recv_source_target_pairs`; a job of the wrong size, or ranks given
inputs of different shapes, is an error on every rank with a non-zero exit, not
a hang.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xla_tools import compile

EXPORTS = Path(__file__).resolve().parents[2] / "examples" / "data_parallel"
BIN = Path(sys.executable).parent
MPIEXEC = shutil.which("mpiexec", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
XLA_RUN = shutil.which("xla-run", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")

pytestmark = pytest.mark.skipif(
    MPIEXEC is None or XLA_RUN is None or importlib.util.find_spec("mpi4py") is None,
    reason="MPI is not installed: pip install -e '.[mpi]' (mpi4py and MPICH wheels) to run the mpiexec tests",
)


def _mpiexec(n: int, *args: str, cwd: Path, timeout_s: str = "60") -> subprocess.CompletedProcess[str]:
    assert MPIEXEC is not None and XLA_RUN is not None
    env = dict(os.environ, XLA_DIALECT_COLLECTIVE_TIMEOUT=timeout_s, XLA_DIALECT_THREADS="1")
    return subprocess.run(
        [MPIEXEC, "-n", str(n), XLA_RUN, *args], check=False, capture_output=True, text=True, cwd=cwd, env=env, timeout=240
    )


def test_data_parallel_step_over_four_processes(tmp_path: Path) -> None:
    data = np.load(EXPORTS / "train_data.npz")
    params, x, y = [data[f"arg{i}"] for i in range(4)], data["arg4"], data["arg5"]
    for rank in range(4):  # a file per rank: the weights, and the rank's quarter of the batch
        shard = slice(8 * rank, 8 * rank + 8)
        np.savez(tmp_path / f"in_{rank}.npz", **{f"arg{i}": a for i, a in enumerate([*params, x[shard], y[shard]])})
    program = str(EXPORTS / "mlp_train_step_dp.mlir")
    done = _mpiexec(4, program, "--inputs", "in_{rank}.npz", "--output", "out.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = np.load(tmp_path / "out.npz")  # rank 0 gathered every rank's results: a leading axis of 4
    whole = compile((EXPORTS / "mlp_train_step.mlir").read_text())(*params, x, y)
    for k in range(4):
        assert out[f"out{k}"].shape == (4, *params[k].shape)
        for rank in range(4):
            np.testing.assert_allclose(out[f"out{k}"][rank], whole[k], rtol=1e-5, atol=1e-7)
        assert not np.allclose(whole[k], params[k])


def test_a_job_of_the_wrong_size_fails_on_every_rank(tmp_path: Path) -> None:
    done = _mpiexec(2, str(EXPORTS / "mlp_train_step_dp.mlir"), cwd=tmp_path)
    assert done.returncode != 0
    for rank in range(2):
        assert (
            f"xla-run: error: rank {rank}: the program runs 4 replica(s) × 1 partition(s) but the job has 2 process(es)"
            in done.stderr
        ), done.stderr


SWAP = """module attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %t = "stablehlo.after_all"() : () -> !stablehlo.token
    %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false,
        mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1},{1,0}}"}} : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
    %r:2 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false,
        mhlo.frontend_attributes = {_xla_send_recv_source_target_pairs = "{{0,1},{1,0}}"}} : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
    func.return %r#0 : tensor<3xf32>
  }
}
"""


def test_send_recv_between_processes_follow_their_pairs(tmp_path: Path) -> None:
    (tmp_path / "swap.mlir").write_text(SWAP)
    for rank in range(2):
        np.savez(tmp_path / f"in_{rank}.npz", arg0=np.full(3, rank + 1, np.float32))
    done = _mpiexec(2, "swap.mlir", "--inputs", "in_{rank}.npz", "--output", "out.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["out0"], [[2, 2, 2], [1, 1, 1]])


def test_inputs_of_different_shapes_fail_on_every_rank(tmp_path: Path) -> None:
    (tmp_path / "swap.mlir").write_text(SWAP)
    np.savez(tmp_path / "in_0.npz", arg0=np.ones(3, np.float32))
    np.savez(tmp_path / "in_1.npz", arg0=np.ones(4, np.float32))
    done = _mpiexec(2, "swap.mlir", "--inputs", "in_{rank}.npz", cwd=tmp_path)
    assert done.returncode != 0
    for rank in range(2):
        assert (
            f"xla-run: error: rank {rank}: the ranks run different programs or inputs of different shapes"
            in done.stderr
        ), done.stderr
    assert "rank 1: program " in done.stderr and "inputs (float32[4])" in done.stderr, done.stderr
