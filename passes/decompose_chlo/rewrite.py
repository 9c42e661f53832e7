"""The `xla-decompose-chlo` pattern and pass: each chlo op goes to the function
family that expands it (special, real_trig, complex_trig, bits, structured)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from passes.decompose_chlo import complex_trig, real_trig, special
from passes.decompose_chlo.bits import mulhi, next_after
from passes.decompose_chlo.emitter import Emitter, FloatFn, static_shape, upcast
from passes.decompose_chlo.structured import decompose_ragged_dot, decompose_scan, decompose_top_k
from xla_dialect import chlo
from xla_dialect.attributes import ComparisonDirection, ComparisonType
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.elementwise import BINARY_OP_CLASSES, CompareOp
from xla_dialect.ops.shape import BroadcastInDimOp
from xla_dialect.types import element_type_of, format_type, is_complex, shape_of

_FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

_UNARY_FNS: dict[str, FloatFn] = {**special.UNARY, **real_trig.UNARY}
_BINARY_FNS: dict[str, Callable[[Emitter, SSAValue, SSAValue], SSAValue]] = dict(special.BINARY)


def _float_emitter(op: Operation, value: SSAValue, ops: list[Operation]) -> Emitter:
    element = element_type_of(value.type)
    if not isinstance(element, _FLOAT_TYPES):
        what = "complex numbers are" if is_complex(element) else f"element type {format_type(element)} is"
        raise LoweringError(f"{op.name}: {what} not supported (f16, bf16, f32 or f64)", op)
    return Emitter(ops, static_shape(op, value.type), element)


def _decompose_unary(op: chlo.ChloUnaryOp, ops: list[Operation]) -> list[SSAValue]:
    x = op.operand
    if op.name == "chlo.tan":
        return [Emitter(ops, shape_of(x.type), element_type_of(x.type)).un("tan", x)]
    if op.name == "chlo.square":
        return [Emitter(ops, shape_of(x.type), element_type_of(x.type)).mul(x, x)]
    element = element_type_of(x.type)
    if is_complex(element) and op.name in complex_trig.COMPLEX_UNARY:
        e = Emitter(ops, static_shape(op, x.type), element)
        return [complex_trig.decompose_complex(op.name, e, x, element.element_type)]  # pyright: ignore[reportAttributeAccessIssue]
    e = _float_emitter(op, x, ops)
    if op.name in ("chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf"):
        target = e.un("abs", x) if op.name == "chlo.is_inf" else x
        return [e.cmp("EQ", target, e.c(-math.inf if op.name == "chlo.is_neg_inf" else math.inf))]
    return [upcast(e, [x], _UNARY_FNS[op.name])]


def _decompose_binary(op: chlo.ChloBinaryOp, ops: list[Operation]) -> list[SSAValue]:
    if op.name == "chlo.mulhi":
        e = Emitter(ops, static_shape(op, op.lhs.type), element_type_of(op.lhs.type))
        return [mulhi(e, op.lhs, op.rhs)]
    e = _float_emitter(op, op.lhs, ops)
    if op.name == "chlo.next_after":
        return [next_after(e, op.lhs, op.rhs)]
    return [upcast(e, [op.lhs, op.rhs], _BINARY_FNS[op.name])]


def _decompose_broadcast(op: chlo.ChloBroadcastBinaryOp, ops: list[Operation]) -> list[SSAValue]:
    out_shape = static_shape(op, op.result.type)
    lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))

    def spread(v: SSAValue) -> SSAValue:
        if shape_of(v.type) == out_shape:
            return v
        dims = chlo.operand_broadcast_dims(len(shape_of(v.type)), len(out_shape), lhs_rank, rhs_rank, op.dims())
        new = BroadcastInDimOp(v, out_shape, dims)
        ops.append(new)
        return new.results[0]

    lhs, rhs = spread(op.lhs), spread(op.rhs)
    if isinstance(op, chlo.BroadcastCompareOp):
        compare_type = None if op.compare_type is None else ComparisonType(op.compare_type.data.value)
        new: Operation = CompareOp(ComparisonDirection(op.comparison_direction.data.value), lhs, rhs, compare_type)
    elif op.TARGET.startswith("chlo."):
        new = chlo.BINARY_OPS[op.TARGET.removeprefix("chlo.")](lhs, rhs)  # pyright: ignore[reportCallIssue]
    else:
        new = BINARY_OP_CLASSES[op.TARGET.removeprefix("xla.")](lhs, rhs)  # pyright: ignore[reportCallIssue]
    ops.append(new)
    return [new.results[0]]


@dataclass(frozen=True)
class _Strategy:
    kind: type[Operation]
    fn: Callable[..., list[SSAValue]]


_STRATEGIES: tuple[_Strategy, ...] = (
    _Strategy(chlo.ChloUnaryOp, _decompose_unary),
    _Strategy(chlo.ChloBinaryOp, _decompose_binary),
    _Strategy(chlo.ChloBroadcastBinaryOp, _decompose_broadcast),
    _Strategy(chlo.TopKOp, decompose_top_k),
    _Strategy(chlo.ScanOp, decompose_scan),
    _Strategy(chlo.RaggedDotOp, decompose_ragged_dot),
)


_LEFT_TO_LOWERING = frozenset({"chlo.erf", "chlo.erfc"})
_LEFT_TO_LOWERING_TYPES = (Float16Type, BFloat16Type, Float32Type)
"""The chlo ops (on these element types) this pass leaves alone: `convert-xla-to-linalg`
expands them itself (`lowering/math_approximation/chlo_erf.py`, which keeps the same list)."""


class DecomposeChlo(RewritePattern):
    """Replaces one `chlo` op by its `xla` expansion (see the module docstring)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, chlo.ChloOp):
            return
        if op.name in _LEFT_TO_LOWERING and isinstance(element_type_of(op.results[0].type), _LEFT_TO_LOWERING_TYPES):
            return  # convert-xla-to-linalg lowers them (lowering/math_approximation/chlo_erf.py)
        for strategy in _STRATEGIES:
            if isinstance(op, strategy.kind):
                new_ops: list[Operation] = []
                values = strategy.fn(op, new_ops)
                rewriter.replace(op, new_ops, values)
                return
        raise LoweringError(f"{op.name}: no decomposition", op)


def decompose_chlo(module: ModuleOp) -> None:
    """Rewrite every `chlo` op of `module` (the work of `xla-decompose-chlo`)."""
    PatternRewriteWalker(DecomposeChlo(), apply_recursively=True).rewrite_module(module)


__all__ = ["DecomposeChlo", "decompose_chlo"]


