"""Collectives compiled and run as N devices in one process (threads over the
in-process communicator, `runtime.collectives.run_replicas`), checked against
NumPy: every op, along any dimension, with groups, built-in and compiled
reductions, replica/partition ids; and the errors (a peer missing, groups
naming devices the job lacks, members that disagree)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from runtime.collectives import CollectiveError, InProcessCommunicator, World, run_replicas
from runtime.collectives.devices import (
    CROSS_PARTITION,
    CROSS_REPLICA,
    CROSS_REPLICA_AND_PARTITION,
    device_groups,
)
from runtime.host_io import HostIOError
from xla_tools import compile

EXPORTS = Path(__file__).resolve().parents[2] / "examples" / "data_parallel"

# One program holding one of each op (compiled once): 4 replicas, groups of 2
# and of 4, reductions along every dimension.
PROGRAM = """
func.func @main(%x: tensor<4x6xf32>, %i: tensor<4x6xi32>, %p: tensor<4xi1>, %h: tensor<4xbf16>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<8x6xf32>, tensor<4x12xf32>, tensor<8x3xf32>, tensor<2x6xf32>,
        tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<ui32>, tensor<4x6xi32>, tensor<4xi1>, tensor<4xbf16>,
        tensor<4x6xi32>) {
  %sum = "xla.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %soft = "xla.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.maximum %a, %b : tensor<f32>
    %t = xla.tanh %m : tensor<f32>
    xla.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %g0 = "xla.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<8x6xf32>
  %g1 = "xla.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[3, 1], [2, 0]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<4x12xf32>
  %a2a = "xla.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<8x3xf32>
  %rs0 = "xla.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %rs1 = "xla.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>} : (tensor<4x6xf32>) -> tensor<4x3xf32>
  %perm = "xla.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %bc = "xla.collective_broadcast"(%x) {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %id = xla.replica_id : tensor<ui32>
  %imax = "xla.all_reduce"(%i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = xla.maximum %a, %b : tensor<i32>
    xla.return %m : tensor<i32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x6xi32>) -> tensor<4x6xi32>
  %any = "xla.all_reduce"(%p) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %o = xla.or %a, %b : tensor<i1>
    xla.return %o : tensor<i1>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xi1>) -> tensor<4xi1>
  %hsum = "xla.cross_replica_sum"(%h) : (tensor<4xbf16>) -> tensor<4xbf16>
  %ragged = "xla.all_reduce"(%i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} : (tensor<4x6xi32>) -> tensor<4x6xi32>
  func.return %sum, %soft, %g0, %g1, %a2a, %rs0, %rs1, %perm, %bc, %id, %imax, %any, %hsum, %ragged
    : tensor<4x6xf32>, tensor<4x6xf32>, tensor<8x6xf32>, tensor<4x12xf32>, tensor<8x3xf32>, tensor<2x6xf32>,
      tensor<4x3xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<ui32>, tensor<4x6xi32>, tensor<4xi1>, tensor<4xbf16>,
      tensor<4x6xi32>
}
"""


@pytest.fixture(scope="module")
def results() -> tuple[list[list[np.ndarray]], list[list[np.ndarray]]]:
    rng = np.random.default_rng(0)
    inputs = [
        [
            rng.standard_normal((4, 6)).astype(np.float32),
            rng.integers(-50, 50, (4, 6)).astype(np.int32),
            np.array([r == 1, False, r == 3, True]),
            np.array([0.5, 1.5, 2.0, -1.0], ml_dtypes.bfloat16) * (r + 1),
        ]
        for r in range(4)
    ]
    outputs = run_replicas(compile(PROGRAM), inputs)
    return inputs, [list(o) for o in outputs]


def test_all_reduce_builtin_and_compiled_regions(results: tuple[list, list]) -> None:
    inputs, outs = results
    xs = [i[0] for i in inputs]
    for r in range(4):
        np.testing.assert_allclose(outs[r][0], xs[0] + xs[1] + xs[2] + xs[3], rtol=1e-6)
        partner = {0: 2, 1: 3, 2: 0, 3: 1}[r]
        low, high = min(r, partner), max(r, partner)
        np.testing.assert_allclose(outs[r][1], np.tanh(np.maximum(xs[low], xs[high])), rtol=1e-6)
        np.testing.assert_array_equal(outs[r][10], np.max([i[1] for i in inputs], axis=0))
        np.testing.assert_array_equal(outs[r][11], np.logical_or.reduce([i[2] for i in inputs]))
        expected_bf16 = sum(i[3].astype(np.float32) for i in inputs)
        np.testing.assert_allclose(outs[r][12].astype(np.float32), expected_bf16, rtol=1e-2)
        group = [0, 1, 2] if r < 3 else [3]
        np.testing.assert_array_equal(outs[r][13], sum(inputs[g][1] for g in group))


def test_all_gather_along_any_dimension_in_group_order(results: tuple[list, list]) -> None:
    inputs, outs = results
    xs = [i[0] for i in inputs]
    for r in range(4):
        pair = [0, 1] if r < 2 else [2, 3]
        np.testing.assert_array_equal(outs[r][2], np.concatenate([xs[g] for g in pair], axis=0))
        pair = [3, 1] if r in (1, 3) else [2, 0]
        np.testing.assert_array_equal(outs[r][3], np.concatenate([xs[g] for g in pair], axis=1))


def test_all_to_all_and_reduce_scatter(results: tuple[list, list]) -> None:
    inputs, outs = results
    xs = [i[0] for i in inputs]
    for r in range(4):
        pair = [0, 1] if r < 2 else [2, 3]
        me = pair.index(r)
        blocks = [np.split(xs[g], 2, axis=1)[me] for g in pair]
        np.testing.assert_array_equal(outs[r][4], np.concatenate(blocks, axis=0))
        np.testing.assert_allclose(outs[r][5], np.split(xs[pair[0]] + xs[pair[1]], 2, axis=0)[me], rtol=1e-6)
        pair = [1, 0] if r < 2 else [3, 2]
        me = pair.index(r)
        np.testing.assert_allclose(outs[r][6], np.split(xs[pair[0]] + xs[pair[1]], 2, axis=1)[me], rtol=1e-6)


def test_permute_broadcast_and_ids(results: tuple[list, list]) -> None:
    inputs, outs = results
    xs = [i[0] for i in inputs]
    sources = {1: 0, 2: 1, 0: 2}
    for r in range(4):
        np.testing.assert_array_equal(outs[r][7], xs[sources[r]] if r in sources else np.zeros((4, 6), np.float32))
        np.testing.assert_array_equal(outs[r][8], xs[2] if r != 3 else np.zeros((4, 6), np.float32))
        assert outs[r][9] == r and outs[r][9].dtype == np.uint32


def test_partition_ids_and_cross_partition_groups() -> None:
    program = """
    func.func @main(%x: tensor<2xi64>) -> (tensor<ui32>, tensor<ui32>, tensor<2xi64>, tensor<2xi64>) {
      %r = xla.replica_id : tensor<ui32>
      %p = xla.partition_id : tensor<ui32>
      %s = "xla.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %t = xla.add %a, %b : tensor<i64>
        xla.return %t : tensor<i64>
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (tensor<2xi64>) -> tensor<2xi64>
      %b = "xla.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, channel_handle = #xla.channel_handle<handle = 1, type = 1>} : (tensor<2xi64>) -> tensor<2xi64>
      func.return %r, %p, %s, %b : tensor<ui32>, tensor<ui32>, tensor<2xi64>, tensor<2xi64>
    }
    """
    xs = [np.array([d, 10 * d], np.int64) for d in range(6)]
    outs = run_replicas(compile(program), [[x] for x in xs], num_partitions=3)
    for d, (r, p, s, b) in enumerate(outs):
        assert (int(r), int(p)) == divmod(d, 3)
        # cross_replica_and_partition: the replicas [0, 1] with every partition: all 6 devices
        np.testing.assert_array_equal(s, sum(xs))
        # cross_partition: the partitions [1, 0] of each replica; partition 2 is in no group
        expected = xs[divmod(d, 3)[0] * 3 + 1] if d % 3 != 2 else np.zeros(2, np.int64)
        np.testing.assert_array_equal(b, expected)


def test_process_groups_follow_stablehlo() -> None:
    assert device_groups(CROSS_REPLICA, [[0, 1]], 2, 2) == [[0, 2], [1, 3]]
    assert device_groups(CROSS_PARTITION, [[1, 0]], 2, 2) == [[1, 0], [3, 2]]
    assert device_groups(CROSS_REPLICA_AND_PARTITION, [[0, 1]], 2, 2) == [[0, 2, 1, 3]]
    with pytest.raises(CollectiveError, match="the groups name replica 2, but the job has 2 replica"):
        device_groups(CROSS_REPLICA, [[0, 2]], 2, 1)


def test_data_parallel_step_matches_the_whole_batch() -> None:
    data = np.load(EXPORTS / "train_data.npz")
    params, x, y = [data[f"arg{i}"] for i in range(4)], data["arg4"], data["arg5"]
    whole = compile((EXPORTS / "mlp_train_step.mlir").read_text())(*params, x, y)
    step = compile((EXPORTS / "mlp_train_step_dp.mlir").read_text())
    shards = [[*params, x[8 * r : 8 * r + 8], y[8 * r : 8 * r + 8]] for r in range(4)]
    for replica in run_replicas(step, shards):
        for k in range(4):
            np.testing.assert_allclose(replica[k], whole[k], rtol=1e-5, atol=1e-7)
            np.testing.assert_allclose(replica[k], data[f"expected{k}"], rtol=1e-5, atol=1e-7)
            assert not np.allclose(replica[k], params[k])  # the step moved the weights


# -- errors ---------------------------------------------------------------------


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XLA_DIALECT_COLLECTIVE_TIMEOUT", "1")
    yield


def test_a_missing_peer_times_out(short_timeout: None) -> None:
    program = """
    func.func @main(%x: tensor<2xf32>, %skip: tensor<i1>) -> tensor<2xf32> {
      %r = "xla.if"(%skip) ({
        xla.return %x : tensor<2xf32>
      }, {
        %s = "xla.all_reduce"(%x) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %t = xla.add %a, %b : tensor<f32>
          xla.return %t : tensor<f32>
        }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
        xla.return %s : tensor<2xf32>
      }) : (tensor<i1>) -> tensor<2xf32>
      func.return %r : tensor<2xf32>
    }
    """
    f = compile(program)
    x = np.ones(2, np.float32)
    with pytest.raises(HostIOError, match=r"xla.all_reduce at .*timed out after 1 s waiting for its peers"):
        run_replicas(f, [[x, np.array(True)], [x, np.array(False)]])
    np.testing.assert_array_equal(run_replicas(f, [[x, np.array(False)]] * 2)[0], 2 * x)  # and it recovers


def test_groups_naming_absent_replicas_and_running_alone() -> None:
    program = """
    func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
      %g = "xla.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
      func.return %g : tensor<4xf32>
    }
    """
    f = compile(program)
    x = np.ones(2, np.float32)
    with pytest.raises(HostIOError, match="the groups name replica 1, but the job has 1 replica"):
        f(x)
    with pytest.raises(HostIOError, match="the groups name replica 1, but the job has 1 replica"):
        run_replicas(f, [[x]])
    np.testing.assert_array_equal(run_replicas(f, [[x], [2 * x]])[1], [1, 1, 2, 2])


def test_members_that_disagree_are_told_on_every_device() -> None:
    comms = World(3).communicators()
    errors: list[str] = [""] * 3

    def member(c: InProcessCommunicator) -> None:
        try:
            c.agree("all_reduce of (tensor<4xf32>)" if c.rank != 1 else "all_reduce of (tensor<5xf32>)", "op")
        except CollectiveError as err:
            errors[c.rank] = str(err)

    threads = [threading.Thread(target=member, args=(c,)) for c in comms]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for message in errors:
        assert "op: the devices of the group disagree" in message and "rank 1: all_reduce of (tensor<5xf32>)" in message


def test_run_parallel_reports_the_failing_device(short_timeout: None) -> None:
    program = """
    func.func @recv(%t: !xla.token) -> tensor<2xi64> {
      %r:2 = "xla.recv"(%t) {channel_handle = #xla.channel_handle<handle = 5, type = 1>} : (!xla.token) -> (tensor<2xi64>, !xla.token)
      func.return %r#0 : tensor<2xi64>
    }
    func.func @main() -> (tensor<2xi64>, tensor<2xi64>) {
      %t = xla.after_all : !xla.token
      %r:2 = "interpreter.run_parallel"(%t, %t) {programs = [[@recv], [@recv]]} : (!xla.token, !xla.token) -> (tensor<2xi64>, tensor<2xi64>)
      func.return %r#0, %r#1 : tensor<2xi64>, tensor<2xi64>
    }
    """
    with pytest.raises(HostIOError, match=r"replica 0, partition 0: .*xla.recv at .* on channel 5: timed out after 1 s"):
        compile(program)()


def test_xla_run_alone_says_how_to_run_the_replicas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from xla_tools.xla_run import main

    program = tmp_path / "ar.mlir"
    program.write_text(PROGRAM)
    rng = np.random.default_rng(1)
    inputs = tmp_path / "in.npz"
    np.savez(
        inputs,
        arg0=rng.standard_normal((4, 6)).astype(np.float32),
        arg1=np.zeros((4, 6), np.int32),
        arg2=np.zeros(4, bool),
        arg3=np.zeros(4, np.uint16),
    )
    assert main([str(program), "--inputs", str(inputs)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("xla-run: error: xla.all_reduce at ") and "mpiexec -n N xla-run" in err, err
