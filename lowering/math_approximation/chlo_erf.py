"""`chlo.erf` and `chlo.erfc` on f16/bf16/f32 → a parallel generic over the `erf` expansion.

`xla-decompose-chlo` leaves these two (on those types) to `convert-xla-to-linalg`,
which reaches this module through its lowering registry: the body of the
generic is `erf.erf` / `erf.erfc` in f32 (f16 and bf16 widened, computed in f32
and rounded once, as XLA upcasts them). That is compact and vectorizes; XLA's
`xla` op decomposition of erf (Eigen's rational, 36 ulp near zero) and of erfc
(Cephes in `xla` ops, which loses the exponent's rounding) is kept for f64.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, f32
from xdsl.ir import Operation, SSAValue

from lowering.math_approximation import erf as erf_family
from lowering.math_approximation.builder import Emitter
from lowering.xla_to_linalg.converter import Converter, lowers, map_tensor, result_tensor_type
from xla_dialect import chlo
from xla_dialect.types import element_type_of

EXPANDED: dict[str, Callable[[Emitter, SSAValue], SSAValue]] = {"chlo.erf": erf_family.erf, "chlo.erfc": erf_family.erfc}
"""The chlo ops this module lowers, for the element types of `expands` (the same list
as `_LEFT_TO_LOWERING` in passes/decompose_chlo/rewrite.py, which leaves them alone)."""


def expands(op: Operation) -> bool:
    """Whether `op` is lowered here (`xla-decompose-chlo` leaves exactly these)."""
    return op.name in EXPANDED and isinstance(element_type_of(op.results[0].type), Float16Type | BFloat16Type | Float32Type)


@lowers(chlo.UNARY_OPS["erf"], chlo.UNARY_OPS["erfc"])
def lower_erf(cx: Converter, op: Operation, builder: Builder) -> Sequence[SSAValue]:
    fn = EXPANDED[op.name]
    element = element_type_of(op.results[0].type)

    def body(b: Builder, x: SSAValue) -> SSAValue:
        ops: list[Operation] = []
        if element != f32:
            ops.append(arith.ExtFOp(x, f32))
            x = ops[-1].results[0]
        y = fn(Emitter(ops, f32), x)
        if element != f32:
            ops.append(arith.TruncFOp(y, element))
            y = ops[-1].results[0]
        for new in ops:
            b.insert(new)
        return y

    return [map_tensor(builder, cx.get(op.operands[0]), result_tensor_type(op), body)]


__all__ = ["expands", "lower_erf"]
