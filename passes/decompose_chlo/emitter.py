"""The element-wise expression builder the chlo decompositions share."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float64Type, f32
from xdsl.ir import Attribute, Operation, SSAValue

from xla_dialect.attributes import ComparisonDirection
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.constants import ConstantOp
from xla_dialect.ops.elementwise import (
    BINARY_OP_CLASSES,
    UNARY_OP_CLASSES,
    CompareOp,
    ConvertOp,
    SelectOp,
)
from xla_dialect.ops.shape import BroadcastInDimOp
from xla_dialect.types import (
    bit_width,
    format_type,
    is_dynamic,
    is_float,
    is_unsigned_integer,
    shape_of,
    tensor,
)


class Emitter:
    """Appends `xla` ops computing element-wise expressions on tensors of one shape
    and element type; constants are splats of that type (cached)."""

    def __init__(self, ops: list[Operation], shape: Sequence[int], element: Attribute):
        self.ops = ops
        self.shape = tuple(shape)
        self.element = element
        self._consts: dict[str, SSAValue] = {}

    def with_element(self, element: Attribute) -> Emitter:
        return Emitter(self.ops, self.shape, element)

    @property
    def type(self) -> Attribute:
        return tensor(self.shape, self.element)

    def emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def c(self, value: float) -> SSAValue:
        key = repr(value)
        if key not in self._consts:
            if is_float(self.element):
                v: float | int = float(value)
            else:
                v = int(value)
                width = bit_width(self.element)
                if is_unsigned_integer(self.element):
                    v %= 1 << width
                else:  # two's complement into the signed range
                    v = (v + (1 << (width - 1))) % (1 << width) - (1 << (width - 1))
            # A rank-0 constant broadcast (as JAX exports splats): a dense splat of the
            # full shape would be expanded element by element by the lowering.
            scalar = self.emit(ConstantOp.from_list([v], tensor((), self.element)))  # pyright: ignore
            self._consts[key] = self.emit(BroadcastInDimOp(scalar, self.shape, [])) if self.shape else scalar
        return self._consts[key]

    def un(self, name: str, x: SSAValue) -> SSAValue:
        return self.emit(UNARY_OP_CLASSES[name](x))  # pyright: ignore[reportCallIssue]

    def bin(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(BINARY_OP_CLASSES[name](a, b))  # pyright: ignore[reportCallIssue]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("add", a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("subtract", a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("multiply", a, b)

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.bin("divide", a, b)

    def cmp(self, direction: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(CompareOp(ComparisonDirection(direction), a, b))

    def sel(self, pred: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(SelectOp(pred, a, b))

    def poly(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """Horner's rule, highest-degree coefficient first."""
        acc = self.c(coefficients[0])
        for coefficient in coefficients[1:]:
            acc = self.add(self.mul(acc, x), self.c(coefficient))
        return acc

    def convert(self, x: SSAValue, element: Attribute) -> SSAValue:
        return self.emit(ConvertOp(x, tensor(self.shape, element)))


FloatFn = Callable[[Emitter, SSAValue], SSAValue]


def upcast(e: Emitter, args: Sequence[SSAValue], fn: Callable[..., SSAValue]) -> SSAValue:
    """Run `fn` in f32 for f16/bf16 operands (rounding the result back), as XLA does."""
    if isinstance(e.element, Float16Type | BFloat16Type):
        wide = e.with_element(f32)
        result = fn(wide, *[e.convert(a, f32) for a in args])
        return wide.convert(result, e.element)
    return fn(e, *args)



def is_f64(e: Emitter) -> bool:
    return isinstance(e.element, Float64Type)


def sqrt_float_max(e: Emitter) -> float:
    """Above sqrt(max float), x^2 overflows."""
    return math.sqrt(float(np.finfo(np.float64 if is_f64(e) else np.float32).max))


def static_shape(op: Operation, t: Attribute) -> tuple[int, ...]:
    shape = shape_of(t)
    if any(is_dynamic(d) for d in shape):
        raise LoweringError(f"{op.name}: dynamic shape {format_type(t)} is not supported", op)
    return shape
