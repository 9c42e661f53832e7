"""Random number generation: `rng` (uniform and normal), `rng_bernoulli` and
`rng_bit_generator` (spec: RngUniform, RngNormal, RngBernoulli, RngBitGenerator).

`xla.rng` is StableHLO's op for both RngUniform and RngNormal: its
`rng_distribution` property selects the distribution and its third operand is the
result shape as a 1-D integer tensor. The builders `rng_uniform` and `rng_normal`
take the shape as a list of ints and materialise it with `xla.constant`.
RngBernoulli is the spec's older op (`mean` F32 scalar, U32 result). `rng` and
`rng_bernoulli` are not `Pure` (each call draws new numbers); `rng_bit_generator`
is, since its output is a deterministic function of its state operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure

from xla_dialect.attributes import (
    RngAlgorithm,
    RngAlgorithmAttr,
    RngDistribution,
    RngDistributionAttr,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import XlaOp, check_element_class, check_tensor
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.syntax import (
    i64_array,
    ints_of,
    parse_operands_and_enum,
    print_operands_and_enum,
)
from xla_dialect.types import (
    element_type_of,
    format_shape,
    format_type,
    is_dynamic,
    is_float,
    is_integer,
    is_pred,
    is_tensor,
    is_unsigned_integer,
    rank_of,
    shape_of,
    tensor,
)

ui32 = IntegerType(32, Signedness.UNSIGNED)
ui64 = IntegerType(64, Signedness.UNSIGNED)


def _constant_ints(value: SSAValue) -> tuple[int, ...] | None:
    """The integers of `value` when an `xla.constant` defines it, else None."""
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        try:
            return ints_of(owner.value)
        except (TypeError, ValueError):
            return None
    return None


def _check_scalar(name: str, t: Attribute) -> None:
    check_tensor(name, t)
    require(rank_of(t) == 0, f"{name} must be a scalar (rank 0), got {format_type(t)}")


# ---------------------------------------------------------------------------
# rng (RngUniform / RngNormal)
# ---------------------------------------------------------------------------


@irdl_op_definition
class RngOp(XlaOp):
    """Random numbers of a given shape from a uniform `[a, b)` or normal `N(a, b)`
    distribution; `rng_distribution` selects which (spec: RngUniform, RngNormal)."""

    name = "xla.rng"
    SPEC_SECTION: ClassVar[str] = "RngUniform"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType)
    rng_distribution = prop_def(RngDistributionAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        shape: SSAValue,
        distribution: RngDistribution | str,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            dims = _constant_ints(shape)
            if dims is None:
                raise ValueError(
                    "rng: the result type is needed unless an xla.constant defines the shape"
                )
            result_type = tensor(dims, element_type_of(a.type))
        super().__init__(
            operands=[a, b, shape],
            result_types=[result_type],
            properties={"rng_distribution": RngDistributionAttr(RngDistribution(distribution))},
        )

    @property
    def distribution(self) -> RngDistribution:
        return self.rng_distribution.data

    def verify_(self) -> None:
        _check_scalar("a", self.a.type)
        _check_scalar("b", self.b.type)
        check_tensor("result", self.result.type)
        element = element_type_of(self.result.type)
        for name, value in (("a", self.a), ("b", self.b)):
            require(
                element_type_of(value.type) == element,
                f"{name} element type {format_type(element_type_of(value.type))} differs from "
                f"the result element type {format_type(element)}",
            )
        if self.distribution == RngDistribution.UNIFORM:
            require(
                is_pred(element) or is_integer(element) or is_float(element),
                f"result element type {format_type(element)} of a UNIFORM rng is not "
                "boolean, integer or floating-point",
            )
        else:
            check_element_class("result", self.result.type, "float")
        shape_type = self.shape.type
        require(
            is_tensor(shape_type)
            and rank_of(shape_type) == 1
            and is_integer(element_type_of(shape_type)),
            f"shape must be a 1-D tensor of integers, got {format_type(shape_type)}",
        )
        rank = rank_of(self.result.type)
        (length,) = shape_of(shape_type)
        require(
            is_dynamic(length) or length == rank,
            f"shape has {length} elements but the result has rank {rank}",
        )
        dims = _constant_ints(self.shape)
        if dims is not None:
            require(
                all(d >= 0 for d in dims),
                f"shape {fmt_list(dims)} has a negative dimension size",
            )
            require(
                len(dims) == rank
                and all(is_dynamic(r) or r == d for r, d in zip(shape_of(self.result.type), dims)),
                f"result shape {format_shape(shape_of(self.result.type))} differs from the "
                f"shape operand {fmt_list(dims)}",
            )

    # `xla.rng %a, %b, %shape, distribution = UNIFORM {attrs}? : (ta, tb, ts) -> t`
    @classmethod
    def parse(cls, parser: Parser) -> RngOp:
        return parse_operands_and_enum(
            parser, cls, "distribution", RngDistribution, RngDistributionAttr, "rng_distribution"
        )

    def print(self, printer: Printer) -> None:
        print_operands_and_enum(printer, self, "distribution", self.distribution, "rng_distribution")


def _rng(
    first: SSAValue, second: SSAValue, shape: Sequence[int] | SSAValue, kind: RngDistribution
) -> list[Operation]:
    ops: list[Operation] = []
    if isinstance(shape, SSAValue):
        shape_value = shape
    else:
        dims = list(shape)
        const = ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(dims)]), dims)  # pyright: ignore
        )
        ops.append(const)
        shape_value = const.output
    ops.append(RngOp(first, second, shape_value, kind))
    return ops


def rng_uniform(a: SSAValue, b: SSAValue, shape: Sequence[int] | SSAValue) -> list[Operation]:
    """The spec's `RngUniform(a, b, shape)`: the ops to insert, the `xla.rng` last
    (preceded by the `xla.constant` of the shape when `shape` is a list of ints)."""
    return _rng(a, b, shape, RngDistribution.UNIFORM)


def rng_normal(mu: SSAValue, sigma: SSAValue, shape: Sequence[int] | SSAValue) -> list[Operation]:
    """The spec's `RngNormal(mu, sigma, shape)`: the ops to insert, the `xla.rng` last."""
    return _rng(mu, sigma, shape, RngDistribution.NORMAL)


# ---------------------------------------------------------------------------
# rng_bernoulli
# ---------------------------------------------------------------------------


@irdl_op_definition
class RngBernoulliOp(XlaOp):
    """The spec's older RngBernoulli: U32 numbers of the given `shape`, each 1 with
    probability `mean` (an F32 scalar) and 0 otherwise (spec: RngBernoulli)."""

    name = "xla.rng_bernoulli"
    SPEC_SECTION: ClassVar[str] = "Older spec versions"
    mean = operand_def(TensorType)
    result = result_def(TensorType)
    shape = prop_def(DenseArrayBase)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, mean: SSAValue, shape: Sequence[int]):
        super().__init__(
            operands=[mean],
            result_types=[tensor(shape, ui32)],
            properties={"shape": i64_array(shape)},
        )

    def verify_(self) -> None:
        _check_scalar("mean", self.mean.type)
        require(
            isinstance(element_type_of(self.mean.type), Float32Type),
            f"mean must be an F32 (f32) scalar, got {format_type(self.mean.type)}",
        )
        dims = ints_of(self.shape)
        require(all(d >= 0 for d in dims), f"shape {fmt_list(dims)} has a negative dimension size")
        check_tensor("result", self.result.type)
        require(
            element_type_of(self.result.type) == ui32,
            f"result element type must be U32 (ui32), got "
            f"{format_type(element_type_of(self.result.type))}",
        )
        self.check_result_types([tensor(dims, ui32)])


def rng_bernoulli(mean: SSAValue, shape: Sequence[int]) -> RngBernoulliOp:
    """The spec's `RngBernoulli(mean, shape)`."""
    return RngBernoulliOp(mean, shape)


# ---------------------------------------------------------------------------
# rng_bit_generator
# ---------------------------------------------------------------------------

_STATE_SIZES: dict[RngAlgorithm, tuple[int, ...]] = {
    RngAlgorithm.THREE_FRY: (2,),
    RngAlgorithm.PHILOX: (2, 3),
}


@irdl_op_definition
class RngBitGeneratorOp(XlaOp):
    """Uniform random bits of a given shape from a PRNG `algorithm` and its state;
    returns the updated state and the bits, a deterministic function of the state,
    hence `Pure` (spec: RngBitGenerator)."""

    name = "xla.rng_bit_generator"
    SPEC_SECTION: ClassVar[str] = "RngBitGenerator"
    initial_state = operand_def(TensorType)
    output_state = result_def(TensorType)
    output = result_def(TensorType)
    rng_algorithm = prop_def(RngAlgorithmAttr)
    traits = traits_def(Pure())

    def __init__(
        self,
        initial_state: SSAValue,
        algorithm: RngAlgorithm | str,
        output_type: Attribute,
    ):
        super().__init__(
            operands=[initial_state],
            result_types=[initial_state.type, output_type],
            properties={"rng_algorithm": RngAlgorithmAttr(RngAlgorithm(algorithm))},
        )

    @property
    def algorithm(self) -> RngAlgorithm:
        return self.rng_algorithm.data

    def verify_(self) -> None:
        state = self.initial_state.type
        check_tensor("initial_state", state)
        algorithm = self.algorithm
        if algorithm in _STATE_SIZES:
            sizes = _STATE_SIZES[algorithm]
            wanted = " or ".join(f"u64[{n}]" for n in sizes)
            require(
                rank_of(state) == 1
                and is_unsigned_integer(element_type_of(state))
                and element_type_of(state) == ui64
                and shape_of(state)[0] in sizes,
                f"initial_state of {algorithm.value} must be {wanted}, got {format_type(state)}",
            )
        else:
            require(
                rank_of(state) == 1,
                f"initial_state must be a 1-D tensor, got {format_type(state)}",
            )
        require(
            self.output_state.type == state,
            f"output_state type {format_type(self.output_state.type)} differs from the "
            f"initial_state type {format_type(state)}",
        )
        check_tensor("output", self.output.type)
        bits = element_type_of(self.output.type)
        require(
            is_integer(bits) or is_float(bits),
            f"output element type {format_type(bits)} is not integer or floating-point",
        )

    # `xla.rng_bit_generator %state, algorithm = THREE_FRY {attrs}? : (t) -> (t, t)`
    @classmethod
    def parse(cls, parser: Parser) -> RngBitGeneratorOp:
        return parse_operands_and_enum(parser, cls, "algorithm", RngAlgorithm, RngAlgorithmAttr, "rng_algorithm")

    def print(self, printer: Printer) -> None:
        print_operands_and_enum(printer, self, "algorithm", self.algorithm, "rng_algorithm")


OPS: tuple[type[Operation], ...] = (RngOp, RngBernoulliOp, RngBitGeneratorOp)
