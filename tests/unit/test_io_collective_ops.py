"""Builders, inferred result types, effects and verifier errors of the rng, io and
collectives families."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TupleType,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import VerifyException

from xla_dialect.attributes import OutputOperandAliasAttr, RngAlgorithm, RngDistribution
from xla_dialect.ops.collectives import (
    AllGatherOp,
    AllReduceOp,
    AllToAllOp,
    CollectiveBroadcastOp,
    CollectivePermuteOp,
    CrossReplicaSumOp,
    PartitionIdOp,
    ReduceScatterOp,
    ReplicaIdOp,
    sum_computation,
)
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.io import (
    AfterAllOp,
    CreateTokenOp,
    CustomCallOp,
    InfeedOp,
    OutfeedOp,
    RecvOp,
    SendOp,
    channel_handle,
)
from xla_dialect.ops.rng import (
    RngBernoulliOp,
    RngBitGeneratorOp,
    RngOp,
    rng_bernoulli,
    rng_normal,
    rng_uniform,
)
from xla_dialect.types import TokenType, tensor

ui32 = IntegerType(32, Signedness.UNSIGNED)
ui64 = IntegerType(64, Signedness.UNSIGNED)


def values(*types: Attribute) -> list[SSAValue]:
    return list(Block(arg_types=list(types)).args)


# --------------------------------------------------------------------------- rng


def test_rng_uniform_from_list_builds_constant_and_infers_type() -> None:
    a, b = values(tensor([], f32), tensor([], f32))
    ops = rng_uniform(a, b, [3, 4])
    assert isinstance(ops[0], ConstantOp) and isinstance(ops[-1], RngOp)
    rng = ops[-1]
    assert rng.result.type == tensor([3, 4], f32)
    assert rng.distribution == RngDistribution.UNIFORM
    rng.verify()
    assert not is_side_effect_free(rng)


def test_rng_normal_with_ssa_shape_needs_result_type() -> None:
    mu, sigma, shape = values(tensor([], f64), tensor([], f64), tensor([2], i64))
    with pytest.raises(ValueError):
        rng_normal(mu, sigma, shape)
    op = RngOp(mu, sigma, shape, RngDistribution.NORMAL, tensor([5, 6], f64))
    op.verify()
    assert rng_normal(mu, sigma, [2])[-1].result.type == tensor([2], f64)


def test_rng_rules() -> None:
    a, b = values(tensor([], i32), tensor([], i32))
    with pytest.raises(VerifyException, match="is not floating-point"):
        rng_normal(a, b, [2])[-1].verify()
    rng_uniform(a, b, [2])[-1].verify()
    v, w = values(tensor([2], f32), tensor([], f32))
    with pytest.raises(VerifyException, match="a must be a scalar"):
        rng_uniform(v, w, [2])[-1].verify()


def test_rng_bernoulli() -> None:
    (p,) = values(tensor([], f32))
    op = rng_bernoulli(p, [2, 3])
    assert isinstance(op, RngBernoulliOp)
    assert op.result.type == tensor([2, 3], ui32)
    op.verify()
    (q,) = values(tensor([], f64))
    with pytest.raises(VerifyException, match="mean must be an F32"):
        rng_bernoulli(q, [2]).verify()


def test_rng_bit_generator() -> None:
    (state,) = values(tensor([2], ui64))
    op = RngBitGeneratorOp(state, RngAlgorithm.THREE_FRY, tensor([4, 4], ui32))
    assert op.output_state.type == tensor([2], ui64)
    op.verify()
    assert is_side_effect_free(op)
    with pytest.raises(VerifyException, match="must be u64\\[2\\] or u64\\[3\\]"):
        (bad,) = values(tensor([4], ui64))
        RngBitGeneratorOp(bad, "PHILOX", tensor([4], ui32)).verify()


# --------------------------------------------------------------------------- io


def test_tokens() -> None:
    t0 = CreateTokenOp()
    t1 = AfterAllOp([t0.result])
    assert t1.result.type == TokenType()
    t1.verify()
    assert is_side_effect_free(t0) and is_side_effect_free(t1)


def test_infeed_outfeed() -> None:
    (token, x) = values(TokenType(), tensor([2, 2], i64))
    infeed = InfeedOp(token, [tensor([2, 2], i64)], layout=[[1, 0]])
    assert [r.type for r in infeed.outputs] == [tensor([2, 2], i64), TokenType()]
    infeed.verify()
    assert infeed.config == ""
    assert not is_side_effect_free(infeed)
    outfeed = OutfeedOp([x], token, "cfg")
    outfeed.verify()
    assert outfeed.config == "cfg"
    assert not is_side_effect_free(outfeed)
    bad = InfeedOp(token, [tensor([2, 2], i64)], layout=[[0, 0]])
    with pytest.raises(VerifyException, match="not a permutation"):
        bad.verify()


def test_send_recv() -> None:
    (token, x) = values(TokenType(), tensor([2], f32))
    send = SendOp([x], token, channel_handle(1, 2), is_host_transfer=True)
    send.verify()
    recv = RecvOp(token, [tensor([2], f32)], channel_handle(1, 3), is_host_transfer=True)
    assert recv.outputs.types[-1] == TokenType()
    recv.verify()
    with pytest.raises(VerifyException, match="DEVICE_TO_DEVICE"):
        SendOp([x], token, channel_handle(1, 2)).verify()
    assert not is_side_effect_free(send) and not is_side_effect_free(recv)


def test_custom_call() -> None:
    (x, token) = values(tensor([2], f32), TokenType())
    pure = CustomCallOp("foo", [x], [tensor([2], f32)], backend_config="", api_version=2)
    pure.verify()
    assert is_side_effect_free(pure)
    effect = CustomCallOp("bar", [x, token], [TupleType([tensor([2], f32), TokenType()])],
                          has_side_effect=True, called_computations=["foo"])
    effect.verify()
    assert not is_side_effect_free(effect)
    ffi = CustomCallOp("ffi", [x], [], backend_config=DictionaryAttr({"k": StringAttr("v")}),
                       api_version=4)
    ffi.verify()
    with pytest.raises(VerifyException, match="must be a dictionary"):
        CustomCallOp("ffi", [x], [], backend_config="s", api_version=4).verify()
    alias = OutputOperandAliasAttr.make(operand_index=0)
    CustomCallOp("a", [x], [tensor([2], f32)], output_operand_aliases=[alias]).verify()
    with pytest.raises(VerifyException, match="aliases output type"):
        CustomCallOp("a", [x], [tensor([3], f32)], output_operand_aliases=[alias]).verify()


# --------------------------------------------------------------------------- collectives


def test_ids() -> None:
    for cls in (ReplicaIdOp, PartitionIdOp):
        op = cls()
        assert op.result.type == tensor([], ui32)
        op.verify()
        assert is_side_effect_free(op)


def test_all_reduce_with_sum_region() -> None:
    (x, y) = values(tensor([4], f32), tensor([5], f32))
    op = AllReduceOp([x, y], sum_computation(f32), [[0, 1], [2, 3]])
    assert [r.type for r in op.outputs] == [tensor([4], f32), tensor([5], f32)]
    op.verify()
    assert not is_side_effect_free(op)
    with pytest.raises(VerifyException, match="differs from the computation's"):
        AllReduceOp([x], sum_computation(i32), [[0]]).verify()
    with pytest.raises(VerifyException, match="more than once"):
        AllReduceOp([x], sum_computation(f32), [[0, 0]]).verify()
    with pytest.raises(VerifyException, match="use_global_device_ids requires"):
        AllReduceOp([x], sum_computation(f32), [[0]], use_global_device_ids=True).verify()
    AllReduceOp(
        [x], sum_computation(f32), [[0]], channel_handle(1, 1), use_global_device_ids=True
    ).verify()


def test_cross_replica_sum() -> None:
    (x,) = values(tensor([4], f32))
    op = CrossReplicaSumOp(x)
    assert op.result.type == tensor([4], f32)
    op.verify()
    CrossReplicaSumOp(x, [[1, 0]]).verify()
    (p,) = values(tensor([4], i1))
    with pytest.raises(VerifyException, match="not integer, floating-point or complex"):
        CrossReplicaSumOp(p).verify()


def test_all_gather_infers_result() -> None:
    (x,) = values(tensor([2, 2], i64))
    op = AllGatherOp([x], 1, [[0, 1, 2]])
    assert op.outputs.types == (tensor([2, 6], i64),)
    op.verify()
    with pytest.raises(ValueError):
        AllGatherOp([x], 1, [])
    AllGatherOp([x], 0, [], result_types=[tensor([8, 2], i64)]).verify()
    with pytest.raises(VerifyException, match="out of range"):
        AllGatherOp([x], 2, [[0]], result_types=[tensor([2, 2], i64)]).verify()


def test_all_to_all_infers_result() -> None:
    (x, y) = values(tensor([2, 4], i64), tensor([3, 4], i32))
    op = AllToAllOp([x, y], 1, 0, 2, [[0, 1]])
    assert op.outputs.types == (tensor([4, 2], i64), tensor([6, 2], i32))
    op.verify()
    with pytest.raises(VerifyException, match="not divisible by split_count 3"):
        AllToAllOp([x], 1, 0, 3, [[0, 1, 2]]).verify()


def test_collective_permute_and_broadcast() -> None:
    (x,) = values(tensor([2], f32))
    op = CollectivePermuteOp(x, [(0, 1), (1, 0)], channel_handle(1, 1))
    assert op.result.type == tensor([2], f32)
    op.verify()
    with pytest.raises(VerifyException, match="target 1 more than once"):
        CollectivePermuteOp(x, [(0, 1), (2, 1)]).verify()
    CollectiveBroadcastOp(x, [[2, 1]]).verify()


def test_reduce_scatter_infers_result() -> None:
    (x,) = values(tensor([2, 4], i64))
    op = ReduceScatterOp(x, sum_computation(i64), 1, [[0, 1]])
    assert op.result.type == tensor([2, 2], i64)
    op.verify()
    with pytest.raises(VerifyException, match="times the group size 2"):
        ReduceScatterOp(x, sum_computation(i64), 1, [[0, 1]], result_type=tensor([2, 1], i64)).verify()
