"""The conversion driver of `convert-xla-to-linalg`.

The conversion rebuilds each function: it walks the old body in order and, for
every op, either calls the lowering registered for its class (`@lowers(XlaOp)`)
or clones it with converted operand and result types. Lowerings receive the
ORIGINAL op (so they read xla element types such as `ui32` from it, as MLIR's
conversion patterns read an op next to its adaptor) and look up the converted
operands with `cx.get(value)`. Nothing is rewritten in place, so a half-converted
function is never observed; the old body is dropped at the end.

Types are converted by `convert_type`: signed/unsigned integer elements become
signless (arith works on signless integers; signedness lives in the ops chosen).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    ComplexType,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    TupleType,
    UnknownLoc,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from lowering.scalar import emit_scalar_op, signless_type
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.base import XlaOp
from xla_dialect.types import TokenType, element_type_of, shape_of

Lowering = Callable[["Converter", Operation, Builder], Sequence[SSAValue]]
LOWERINGS: dict[type[Operation], Lowering] = {}
"""Op class → the function lowering it (filled by the family modules)."""

OpT = TypeVar("OpT", bound=Operation)

DEFERRED_LOWERINGS: dict[str, str] = {
    **dict.fromkeys(
        [
            "xla.all_gather",
            "xla.all_reduce",
            "xla.all_to_all",
            "xla.collective_broadcast",
            "xla.collective_permute",
            "xla.cross_replica_sum",
            "xla.partition_id",
            "xla.reduce_scatter",
            "xla.replica_id",
        ],
        "lowering.collectives.ops",  # calls into the collective runtime
    ),
    "interpreter.run_parallel": "lowering.collectives.run_parallel",  # a grid of programs
    "chlo.erf": "lowering.math_approximation.chlo_erf",  # on f16/bf16/f32
    "chlo.erfc": "lowering.math_approximation.chlo_erf",
    "xla.convolution": "lowering.xla_to_linalg.convolution",
    "xla.fft": "lowering.xla_to_linalg.fft",
    "xla.gather": "lowering.xla_to_linalg.gather_scatter",
    "xla.scatter": "lowering.xla_to_linalg.gather_scatter",
    "xla.cholesky": "lowering.xla_to_linalg.linalg",
    "xla.triangular_solve": "lowering.xla_to_linalg.linalg",
    "xla.rng": "lowering.xla_to_linalg.rng",
    "xla.rng_bernoulli": "lowering.xla_to_linalg.rng",
    "xla.rng_bit_generator": "lowering.xla_to_linalg.rng",
    "xla.select_and_scatter": "lowering.xla_to_linalg.select_and_scatter",
    "xla.sort": "lowering.xla_to_linalg.sort",
}
"""Op name -> the module that registers its lowering (`lowering/xla_to_linalg/__init__.py`
imports the others), imported when the converter first meets such an op, as the pass
registry imports passes: a program without collectives, FFTs, sorts, ... does not load
them. `tests/unit/test_lazy_imports.py` checks the table against what the modules register."""


def lowers(*classes: type[Operation]) -> Callable[[Callable[..., Sequence[SSAValue]]], Callable[..., Sequence[SSAValue]]]:
    """Register the decorated function as the lowering of `classes`."""

    def register(fn: Callable[..., Sequence[SSAValue]]) -> Callable[..., Sequence[SSAValue]]:
        for cls in classes:
            LOWERINGS[cls] = fn
        return fn

    return register


MAX_BYTES = (1 << 63) - 1
"""The largest array compiled code can address: byte sizes and offsets are i64."""


def check_byte_size(t: TensorType, op: Operation | None = None) -> int:
    """The bytes an array of `t` takes, or a LoweringError when they exceed `MAX_BYTES`
    (the size would wrap in the code's 64-bit arithmetic: a tiny buffer, then overruns)."""
    size = math.prod(t.get_shape()) * getattr(t.element_type, "compile_time_size", 8)
    if size > MAX_BYTES:
        raise LoweringError(
            f"{t} takes {size} bytes, more than the 2^63-1 that 64-bit addresses can index", op
        )
    return size


def convert_type(t: Attribute, op: Operation | None = None) -> Attribute:
    """The type a value of type `t` has after the conversion."""
    if isinstance(t, TupleType):
        raise LoweringError("tuple values must be flattened first (run xla-flatten-tuples)", op)
    if isinstance(t, TokenType):
        # No data: an i1 nothing reads (see xla_to_linalg/io.py).
        return IntegerType(1)
    if isinstance(t, TensorType) and any(d < 0 for d in t.get_shape()):
        raise LoweringError(f"dynamic shape {t} is not supported: shapes must be static", op)
    if isinstance(t, TensorType):
        check_byte_size(t, op)
    if isinstance(t, FunctionType):
        return FunctionType.from_lists(
            [convert_type(i, op) for i in t.inputs.data], [convert_type(o, op) for o in t.outputs.data]
        )
    return signless_type(t)


class Converter:
    """Maps old values to new ones while the new bodies are built."""

    def __init__(self) -> None:
        self.values: dict[SSAValue, SSAValue] = {}
        self.blocks: dict[Block, Block] = {}
        """Old block -> its converted copy: the successors of copied branches."""

    def get(self, value: SSAValue) -> SSAValue:
        return self.values[value]

    def get_all(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        return [self.values[v] for v in values]

    # -- structure ----------------------------------------------------------

    def convert_block_into(self, old: Block, new: Block) -> list[SSAValue]:
        """Convert the ops of `old` (whose arguments are already mapped) into `new`,
        except its terminator; return the converted terminator operands."""
        builder = Builder(InsertPoint.at_end(new))
        terminator = old.last_op
        for op in old.ops:
            if op is terminator and (op.has_trait(IsTerminator) or _is_return(op)):
                return self.get_all(op.operands)
            self.convert_op(op, builder)
        return []

    def convert_region(self, old: Region, op: Operation) -> Region:
        """Convert a region op-for-op, terminators included (for ops kept as they are)."""
        blocks: list[Block] = []
        for old_block in old.blocks:
            block = Block(arg_types=[convert_type(a.type, op) for a in old_block.args])
            for a, b in zip(old_block.args, block.args):
                self.values[a] = b
                b.name_hint = a.name_hint
            blocks.append(block)
            self.blocks[old_block] = block
        for old_block, block in zip(old.blocks, blocks):
            builder = Builder(InsertPoint.at_end(block))
            for inner in old_block.ops:
                self.convert_op(inner, builder)
        return Region(blocks)

    def convert_op(self, op: Operation, builder: Builder) -> None:
        lowering = LOWERINGS.get(type(op))
        if lowering is None and op.name in DEFERRED_LOWERINGS:
            importlib.import_module(DEFERRED_LOWERINGS[op.name])
            lowering = LOWERINGS.get(type(op))
        if lowering is not None:
            block = builder.insertion_point.block
            previous = block.last_op
            results = lowering(self, op, builder)
            _stamp_location(block, previous, op.location)
        elif isinstance(op, XlaOp):
            raise LoweringError(
                f"'{op.name}' cannot be compiled yet: no lowering to linalg exists for it", op
            )
        else:
            results = self.clone_converted(op, builder).results
        if len(results) != len(op.results):
            raise LoweringError(f"internal: lowering of {op.name} gave {len(results)} results", op)
        for old, new in zip(op.results, results):
            if old.name_hint and new.name_hint is None:
                new.name_hint = old.name_hint
            self.values[old] = new

    def clone_converted(self, op: Operation, builder: Builder) -> Operation:
        """A copy of a non-xla op with converted operands, types and regions."""
        properties = dict(op.properties)
        new = op.create(
            operands=self.get_all(op.operands),
            result_types=[convert_type(r.type, op) for r in op.results],
            properties=properties,
            attributes=dict(op.attributes),
            successors=[self.blocks.get(s, s) for s in op.successors],
            regions=[self.convert_region(r, op) for r in op.regions],
        )
        new.location = op.location
        return builder.insert(new)


def _stamp_location(block: Block, previous: Operation | None, location: Attribute) -> None:
    """Give the ops a lowering created (after `previous` in `block`) the location
    of the op they came from, so later diagnostics point at the source line."""
    start = block.first_op if previous is None else previous.next_op
    op = start
    while op is not None:
        for inner in op.walk():
            if isinstance(inner.location, UnknownLoc):
                inner.location = location
        op = op.next_op


def _is_return(op: Operation) -> bool:
    return op.name == "xla.return"


# ---------------------------------------------------------------------------
# Building blocks shared by the family modules
# ---------------------------------------------------------------------------


def result_tensor_type(op: Operation, index: int = 0) -> TensorType:
    t = convert_type(op.results[index].type, op)
    assert isinstance(t, TensorType)
    return t


def empty(builder: Builder, t: TensorType) -> SSAValue:
    return builder.insert(tensor.EmptyOp([], t)).tensor


def filled(builder: Builder, value: SSAValue, t: TensorType) -> SSAValue:
    """A fresh tensor of type `t` with every element `value` (`linalg.fill`)."""
    if isinstance(value.type, ComplexType):  # linalg.fill takes ints and floats only
        rank = t.get_num_dims()
        outputs = [empty(builder, t)]
        return generic(builder, [], [], outputs, [identity_map(rank)], parallel(rank), lambda b, args: [value])[0]
    return builder.insert(FillOp((value,), (empty(builder, t),), (t,))).results[0]


def index_constant(builder: Builder, value: int) -> SSAValue:
    return builder.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result


def identity_map(rank: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap.identity(rank))


def dims_map(rank: int, results: Sequence[AffineExpr | int]) -> AffineMapAttr:
    """`(d0, ..., d{rank-1}) -> (results)`; ints are dimensions, e.g. [0, 2]."""
    exprs = tuple(AffineExpr.dimension(r) if isinstance(r, int) else r for r in results)
    return AffineMapAttr(AffineMap(rank, 0, exprs))


def broadcast_map(operand_shape: Sequence[int], result_shape: Sequence[int], dims: Sequence[int]) -> AffineMapAttr:
    """The map reading an operand broadcast into the result: operand dimension `i`
    runs along result dimension `dims[i]`, or stays at 0 where it has size 1 and
    the result does not (the spec's degenerate-dimension broadcasting)."""
    rank = len(result_shape)
    exprs: list[AffineExpr] = []
    for i, d in enumerate(dims):
        if operand_shape[i] == 1 and result_shape[d] != 1:
            exprs.append(AffineExpr.constant(0))
        else:
            exprs.append(AffineExpr.dimension(d))
    return AffineMapAttr(AffineMap(rank, 0, tuple(exprs)))


def parallel(n: int) -> list[Attribute]:
    return [IteratorTypeAttr.parallel()] * n


def reduction() -> Attribute:
    return IteratorTypeAttr.reduction()


BodyFn = Callable[[Builder, Sequence[SSAValue]], Sequence[SSAValue]]


def generic(
    builder: Builder,
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMapAttr],
    outputs: Sequence[SSAValue],
    output_maps: Sequence[AffineMapAttr],
    iterators: Sequence[Attribute],
    body: BodyFn,
) -> Sequence[SSAValue]:
    """A `linalg.generic` whose body is built by `body(builder, block_args)`,
    which returns the values to yield."""
    arg_types = [element_type_of(v.type) for v in (*inputs, *outputs)]
    block = Block(arg_types=arg_types)
    yielded = body(Builder(InsertPoint.at_end(block)), block.args)
    block.add_op(YieldOp(*yielded))
    op = GenericOp(
        inputs,
        outputs,
        Region(block),
        ArrayAttr([*input_maps, *output_maps]),
        ArrayAttr(iterators),
        [o.type for o in outputs],
    )
    return builder.insert(op).results


def scalar_body_emitter(builder: Builder) -> Callable[[Operation], Operation]:
    return lambda new_op: builder.insert(new_op)


def map_elements(
    builder: Builder,
    op: Operation,
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMapAttr],
    result_type: TensorType,
) -> SSAValue:
    """A parallel generic computing `op` element by element (`emit_scalar_op`)."""
    rank = result_type.get_num_dims()

    def body(b: Builder, args: Sequence[SSAValue]) -> Sequence[SSAValue]:
        return emit_scalar_op(scalar_body_emitter(b), op, list(args[: len(inputs)]))

    (result,) = generic(
        builder, inputs, input_maps, [empty(builder, result_type)], [identity_map(rank)], parallel(rank), body
    )
    return result


def map_tensor(
    builder: Builder, value: SSAValue, result_type: TensorType, fn: Callable[[Builder, SSAValue], SSAValue]
) -> SSAValue:
    """A parallel generic computing `fn(element)` for each element of `value`."""
    rank = result_type.get_num_dims()
    (result,) = generic(
        builder,
        [value],
        [identity_map(rank)],
        [empty(builder, result_type)],
        [identity_map(rank)],
        parallel(rank),
        lambda b, args: [fn(b, args[0])],
    )
    return result


def round_floats(builder: Builder, value: SSAValue, result_type: TensorType) -> SSAValue:
    """`value`, a float tensor, rounded element by element to the narrower float
    element type of `result_type` (an accumulator's final rounding)."""
    element = result_type.element_type
    return map_tensor(builder, value, result_type, lambda b, x: b.insert(arith.TruncFOp(x, element)).result)


def extract_scalar(builder: Builder, value: SSAValue) -> SSAValue:
    """The element of a rank-0 tensor (the fill value when a fill made it)."""
    owner = value.owner
    if isinstance(owner, FillOp) and len(owner.inputs) == 1:
        return owner.inputs[0]
    return builder.insert(tensor.ExtractOp(value, [], element_type_of(value.type))).result


def static_shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(shape_of(value.type))


def is_integer_element(t: Attribute) -> bool:
    return isinstance(element_type_of(t), IntegerType)


__all__ = [
    "DEFERRED_LOWERINGS",
    "LOWERINGS",
    "Converter",
    "broadcast_map",
    "convert_type",
    "dims_map",
    "empty",
    "extract_scalar",
    "filled",
    "generic",
    "identity_map",
    "index_constant",
    "lowers",
    "map_elements",
    "map_tensor",
    "parallel",
    "reduction",
    "result_tensor_type",
    "round_floats",
]
