"""`arith-emulate-unsupported-floats`: compute on float types the target cannot
compute on (by default bf16) in a wider type (by default f32), as MLIR's pass of
that name does.

Every `arith`/`math` op that computes on a source type (an operand or a result
of a source type, or a vector/tensor of it) is rebuilt on the target type: its
source-typed operands are widened with `arith.extf`, the op runs on the target
type, and each source-typed result is rounded back with `arith.truncf`. Ops that
only move bits keep the source type: `arith.constant`, `arith.select`,
`arith.bitcast`, and `arith.extf`/`arith.truncf` themselves (so are loads,
stores and every op of another dialect). `llvm.frem` is treated like an arith
op: xDSL 0.74 has no `arith.remf`, so the scalar lowering of `xla.remainder`
emits it.

Rounding after each op gives XLA's numbers: its CPU backend computes bf16
element-wise ops in f32 and rounds each result to bf16. Integer → bf16
conversions therefore round twice (to f32, then to bf16), as XLA's do.

Options: `source-types` (type names, default `bf16`), `target-type` (default
`f32`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    MemRefType,
    ModuleOp,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.to_llvm.common import LoweringError

BIT_OPS = frozenset(
    {"arith.constant", "arith.select", "arith.bitcast", "arith.extf", "arith.truncf"}
)
"""Ops that keep the source type: they move or convert bits, never compute."""

EXTRA_COMPUTING_OPS = frozenset({"llvm.frem"})
"""Ops outside arith/math that compute on floats and are emulated too."""


def element_of(t: Attribute) -> Attribute:
    """The scalar type of a scalar, vector or tensor type."""
    if isinstance(t, VectorType | TensorType):
        return t.element_type
    return t


def with_element(t: Attribute, element: Attribute) -> Attribute:
    """`t` with its scalar type replaced by `element`."""
    if isinstance(t, VectorType):
        return VectorType(element, t.get_shape(), t.scalable_dims)
    if isinstance(t, TensorType):
        return TensorType(element, t.get_shape(), t.encoding)
    return element


def _parse_float_type(name: str, ctx: Context) -> AnyFloat:
    try:
        t = Parser(ctx, name).parse_type()
    except Exception as err:  # the parser's own error type varies
        raise LoweringError(f"arith-emulate-unsupported-floats: '{name}' is not a type") from err
    if not isinstance(t, AnyFloat):
        raise LoweringError(f"arith-emulate-unsupported-floats: '{name}' is not a float type")
    return t


@dataclass(frozen=True)
class EmulateUnsupportedFloatsPass(ModulePass):
    """Compute the arith/math ops on `source_types` in `target_type`."""

    name = "arith-emulate-unsupported-floats"

    source_types: tuple[str, ...] = ("bf16",)
    target_type: str = "f32"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sources = {_parse_float_type(n, ctx) for n in self.source_types}
        target = _parse_float_type(self.target_type, ctx)
        if target in sources:
            raise LoweringError(
                f"arith-emulate-unsupported-floats: the target type {self.target_type} "
                "cannot also be a source type"
            )
        for inner in list(op.walk()):
            if needs_emulation(inner, sources):
                emulate(inner, sources, target)


def needs_emulation(op: Operation, sources: set[AnyFloat]) -> bool:
    """Whether `op` computes on one of the `sources` float types."""
    dialect = op.name.split(".", 1)[0]
    if op.name in BIT_OPS or (dialect not in ("arith", "math") and op.name not in EXTRA_COMPUTING_OPS):
        return False
    if op.regions:
        return False
    return any(
        element_of(v.type) in sources and not isinstance(v.type, MemRefType)
        for v in (*op.operands, *op.results)
    )


def emulate(op: Operation, sources: set[AnyFloat], target: AnyFloat) -> None:
    """Rebuild `op` on `target`: widen its source-typed operands, narrow its
    source-typed results back."""
    before = InsertPoint.before(op)
    widened: dict[SSAValue, SSAValue] = {}
    operands: list[SSAValue] = []
    for value in op.operands:
        if element_of(value.type) in sources:
            if value not in widened:
                ext = arith.ExtFOp(value, with_element(value.type, target))
                Rewriter.insert_op(ext, before)
                widened[value] = ext.result
            operands.append(widened[value])
        else:
            operands.append(value)
    result_types = [
        with_element(r.type, target) if element_of(r.type) in sources else r.type for r in op.results
    ]
    new = type(op).create(
        operands=operands,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    Rewriter.insert_op(new, before)
    results: list[SSAValue] = []
    for old, value in zip(op.results, new.results, strict=True):
        if old.type != value.type:
            trunc = arith.TruncFOp(value, old.type)
            Rewriter.insert_op(trunc, before)
            results.append(trunc.result)
        else:
            results.append(value)
    Rewriter.replace_op(op, [], results)


__all__ = ["EmulateUnsupportedFloatsPass", "emulate", "needs_emulation"]
