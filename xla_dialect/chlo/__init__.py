"""The `chlo` dialect: XLA client-library ops that JAX exports next to StableHLO.

CHLO ("client HLO") ops are compositions of HLO ops that the client library
(XlaBuilder's `math.h`, `TopK`, `RaggedDot`, ...) would otherwise expand itself.
They are defined here with CHLO's own syntax so StableHLO modules that contain
them read as they are; `xla-decompose-chlo` (passes/decompose_chlo/) rewrites
every one of them into `xla` ops before `convert-xla-to-linalg`, so nothing
after that pass knows about this dialect.

The ops are in `base.py` (attributes, shared checks, `ChloOp`), `elementwise.py`
(unary, binary, broadcasting binary) and `structured.py` (`top_k`, `scan`,
`ragged_dot`); this package gathers them into `CHLO`.

Syntax (as openxla/stablehlo's ChloOps.td prints it):

* unary element-wise: `%r = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`;
* binary element-wise (same shapes): `chlo.next_after %a, %b : tensor<2xf32>,
  tensor<2xf32> -> tensor<2xf32>` (also `polygamma`, `zeta`, `mulhi`);
* broadcasting binary: `chlo.broadcast_add %a, %b {broadcast_dimensions =
  array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>`
  (numpy-style prefix padding unless `broadcast_dimensions` says otherwise);
* `chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)`;
* `chlo.scan(%in) inits(%init) dimension=0 {^bb0(...): ...} : (...) -> (...)`;
* `chlo.ragged_dot` in the generic form with `#chlo.ragged_dot<...>`.

Element types follow ChloOps.td: the special functions take floats (f16, bf16,
f32, f64), the trigonometric/hyperbolic ones also complex numbers, `mulhi`
integers. Attributes are properties (MLIR's inherent attributes), so the generic
form spells them `<{...}>`; `{...}` in the generic form is read as properties too.
"""

from __future__ import annotations

from xdsl.ir import Dialect, Operation

from xla_dialect.chlo.base import (
    ChloComparisonDirectionAttr,
    ChloComparisonTypeAttr,
    ChloOp,
    ChloPrecisionAttr,
    RaggedDotDimensionNumbersAttr,
)
from xla_dialect.chlo.elementwise import (
    BINARY,
    BINARY_OPS,
    BROADCAST,
    BROADCAST_OPS,
    UNARY,
    UNARY_OPS,
    BroadcastCompareOp,
    ChloBinaryOp,
    ChloBroadcastBinaryOp,
    ChloUnaryOp,
    broadcast_result_shape,
    operand_broadcast_dims,
)
from xla_dialect.chlo.structured import (
    RaggedDotOp,
    ScanOp,
    TopKOp,
    infer_ragged_dot_shape,
    ragged_dot_mode,
)

OPS: tuple[type[Operation], ...] = (
    *UNARY_OPS.values(),
    *BINARY_OPS.values(),
    *BROADCAST_OPS.values(),
    BroadcastCompareOp,
    TopKOp,
    ScanOp,
    RaggedDotOp,
)

CHLO = Dialect(
    "chlo",
    list(OPS),
    [ChloComparisonDirectionAttr, ChloComparisonTypeAttr, ChloPrecisionAttr, RaggedDotDimensionNumbersAttr],
)

__all__ = [
    "BINARY",
    "BINARY_OPS",
    "BROADCAST",
    "BROADCAST_OPS",
    "CHLO",
    "UNARY",
    "UNARY_OPS",
    "BroadcastCompareOp",
    "ChloBinaryOp",
    "ChloBroadcastBinaryOp",
    "ChloComparisonDirectionAttr",
    "ChloComparisonTypeAttr",
    "ChloOp",
    "ChloPrecisionAttr",
    "ChloUnaryOp",
    "RaggedDotDimensionNumbersAttr",
    "RaggedDotOp",
    "ScanOp",
    "TopKOp",
    "broadcast_result_shape",
    "infer_ragged_dot_shape",
    "operand_broadcast_dims",
    "ragged_dot_mode",
]
