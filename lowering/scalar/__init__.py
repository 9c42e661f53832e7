"""XLA's element semantics as scalar code: one element of an element-wise op.

* `real.py`: booleans, integers and floats (`arith`/`math`), with XLA's CPU
  corners (division by zero, shifts, saturating conversions, NaN-propagating
  maximum/minimum, total order, `reduce_precision`);
* `complex.py`: complex elements (the `complex` dialect), built on `real.py`.

The functions here dispatch on the element types between the two; the lowerings
(`lowering/xla_to_linalg/`) call these.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from xdsl.dialects.builtin import ComplexType
from xdsl.ir import Attribute, Operation, SSAValue

from lowering.scalar import real
from lowering.scalar.real import BINARY_NAMES, UNARY_NAMES, Emit, signless_type, total_order_key
from xla_dialect.types import is_complex


def complex_constant(emit: Emit, real_part: float, imag: float, t: ComplexType) -> SSAValue:
    """The scalar `real_part + i*imag` of complex type `t` (`lowering.scalar.complex`,
    imported with the complex dialect only when a program has complex values)."""
    from lowering.scalar.complex import complex_constant

    return complex_constant(emit, real_part, imag, t)


def complex_to_bits(emit: Emit, x: SSAValue, t: ComplexType) -> SSAValue:
    """The bits of the complex scalar `x` as one integer (`lowering.scalar.complex`)."""
    from lowering.scalar.complex import complex_to_bits

    return complex_to_bits(emit, x, t)


def bits_to_complex(emit: Emit, bits: SSAValue, t: ComplexType) -> SSAValue:
    """The complex scalar of type `t` whose bits are `bits` (`lowering.scalar.complex`)."""
    from lowering.scalar.complex import bits_to_complex

    return bits_to_complex(emit, bits, t)


def emit_scalar_op(emit: Emit, op: Operation, operands: Sequence[SSAValue]) -> list[SSAValue]:
    """Emit the scalar code of one element of the element-wise xla op `op` on the
    signless scalars `operands`; returns the result scalars (signless)."""
    if real.has_complex_elements(op):
        # The complex lowering (and the complex dialect) are imported with the first complex program.
        from lowering.scalar.complex import emit_complex_scalar_op

        return emit_complex_scalar_op(emit, op, operands)
    return real.emit_scalar_op(emit, op, operands)


def scalar_constant(emit: Emit, value: float, xla_element_type: Attribute) -> SSAValue:
    """The constant `value` of an xla element type, as its signless scalar
    (unsigned values wrap to the same bits; PRED is 0/1; a complex one is
    `value + 0i`, or `value.real + value.imag i` for a Python complex)."""
    if is_complex(xla_element_type):
        z = builtins.complex(value)  # `complex` here is the submodule
        return complex_constant(emit, z.real, z.imag, xla_element_type)  # pyright: ignore[reportArgumentType]
    return real.scalar_constant(emit, value, xla_element_type)


def convert_element(emit: Emit, op: Operation, x: SSAValue, src: Attribute, dst: Attribute) -> SSAValue:
    """`x` (of xla element type `src`) converted to `dst` with `xla.convert`'s
    semantics; `op` is named in errors. For lowerings that convert as a step."""
    if is_complex(src) or is_complex(dst):
        from lowering.scalar.complex import convert_complex_element

        return convert_complex_element(emit, op, x, src, dst)
    return real.convert_element(emit, op, x, src, dst)


__all__ = [
    "BINARY_NAMES",
    "UNARY_NAMES",
    "Emit",
    "bits_to_complex",
    "complex_constant",
    "complex_to_bits",
    "convert_element",
    "emit_scalar_op",
    "scalar_constant",
    "signless_type",
    "total_order_key",
]
