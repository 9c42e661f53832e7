"""Fixes to xDSL 0.74's builtin syntax that StableHLO programs depend on.

MLIR reads a hexadecimal literal inside a float `dense<...>` as the bit pattern of
the element (`dense<0x7FC00000> : tensor<f32>` is NaN); xDSL 0.74 reads it as an
integer and converts it. JAX exports NaN and infinities this way, so the dialect
installs the MLIR reading when it is imported. Each fix is small, and checked by
`tests/unit/test_xdsl_compat.py` so an xDSL upgrade that fixes or breaks it is seen.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import AnyFloat, ComplexType
from xdsl.parser.attribute_parser import AttrParser

_Element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
_original_to_type = _Element.to_type


def _bits_to_float(bits: int, type: Any) -> float:
    raw = bits.to_bytes(type.compile_time_size, "little")
    return next(type.iter_unpack(raw))


def _is_hex(element: Any) -> bool:
    return element.span.text[:2] in ("0x", "0X")


def _to_type(self: Any, parser: AttrParser, type: Any):
    if isinstance(type, AnyFloat) and isinstance(self.value, int) and _is_hex(self):
        return _bits_to_float(self.value, type)
    if isinstance(type, ComplexType) and isinstance(self.value, tuple):
        parts = self.value
        if isinstance(type.element_type, AnyFloat) and all(isinstance(p, int) for p in parts):
            # `(0x7FC00000, 1.0)`-style parts are not produced by MLIR; parse as values.
            return (float(parts[0]), float(parts[1]))
    return _original_to_type(self, parser, type)


def install() -> None:
    if getattr(_Element.to_type, "_xla_fixed", False):
        return
    setattr(_to_type, "_xla_fixed", True)
    _Element.to_type = _to_type  # pyright: ignore[reportAttributeAccessIssue]


install()
