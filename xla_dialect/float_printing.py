"""Float literals spelled as MLIR prints them, character for character.

MLIR (`printFloatValue` in its AsmPrinter) first tries six digits after the point in
exponent form (`1.000000e+00`, LLVM's `APFloat::toString(6, 0, false)`); if that does
not read back to the same bits, it prints the value's shortest sure form (APFloat's
default `toString`: `2.14748365E+9`, `0.1`, `123.5`); if that form has no `.` (a large
integer such as `123456792`), and for infinities and NaNs, it prints the bit pattern as
a C hex literal with upper-case digits (`0x7FC00000`). xDSL 0.74 approximates this
with Python's `%e`/`%g` (`2.14748365e+09`, `0x7fc00000`), so StableHLO's own CHECK lines
and output of `mlir-opt`/`stablehlo-opt` did not match ours.

Here the digits come from the exact value (a Python `Fraction`) by APFloat's steps:
its precision rule (`2 + bits * 59 / 196` digits), its truncation of surplus digits and
its round-half-up of the rest, its choice between plain and exponent form. The read-back
test rounds the decimal exactly to the type (ties to even), so it is right for every
width, not only through a Python double.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
)

NARROW_FLOATS: dict[type, type] = {
    Float8E3M4Type: ml_dtypes.float8_e3m4,
    Float8E4M3Type: ml_dtypes.float8_e4m3,
    Float8E4M3FNType: ml_dtypes.float8_e4m3fn,
    Float8E4M3FNUZType: ml_dtypes.float8_e4m3fnuz,
    Float8E4M3B11FNUZType: ml_dtypes.float8_e4m3b11fnuz,
    Float8E5M2Type: ml_dtypes.float8_e5m2,
    Float8E5M2FNUZType: ml_dtypes.float8_e5m2fnuz,
    Float6E2M3FNType: ml_dtypes.float6_e2m3fn,
    Float6E3M2FNType: ml_dtypes.float6_e3m2fn,
    Float4E2M1FNType: ml_dtypes.float4_e2m1fn,
}
"""The f8/f6/f4 types and their ml_dtypes scalar types (one element a byte,
as XLA and the compiled code store them)."""

_FORMATS: dict[type, object] = {
    Float16Type: np.float16,
    Float32Type: np.float32,
    Float64Type: np.float64,
    BFloat16Type: ml_dtypes.bfloat16,
    **NARROW_FLOATS,
}


def float_format(element: AnyFloat) -> tuple[int, int] | None:
    """(precision in bits with the leading one, exponent of the smallest normal), or
    None for a type this module does not know."""
    scalar = _FORMATS.get(type(element))
    if scalar is None:
        return None
    info = ml_dtypes.finfo(scalar)
    return int(info.nmant) + 1, int(info.minexp)


def _round_to_format(value: Fraction, precision: int, min_exponent: int) -> Fraction:
    """`value` rounded to the nearest number of the format, ties to even (no overflow)."""
    if value == 0:
        return value
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, min_exponent) - precision + 1)
    rounded = round(magnitude / quantum) * quantum  # Fraction rounds half to even
    return rounded if value > 0 else -rounded


def _digits(value: Fraction, format_precision: int) -> tuple[list[str], int]:
    """APFloat's decimal digits of |value| (least significant first) and their power of
    ten, cut to `format_precision` digits as APFloat cuts them."""
    numerator, denominator = abs(value).numerator, abs(value).denominator
    exponent = -(denominator.bit_length() - 1)  # denominator is a power of two
    significand = numerator
    if exponent == 0:
        trailing = (numerator & -numerator).bit_length() - 1
        significand, exponent = numerator >> trailing, trailing
    if exponent > 0:
        significand <<= exponent
        exponent = 0
    elif exponent < 0:
        significand *= 5 ** (-exponent)
    bits_required = (format_precision * 196 + 58) // 59
    bits = significand.bit_length()
    if bits > bits_required:  # drop surplus digits by truncation, as APFloat does
        removable = (bits - bits_required) * 59 // 196
        if removable:
            exponent += removable
            significand //= 10**removable
    text = str(significand)
    stripped = text.rstrip("0")
    exponent += len(text) - len(stripped)
    buffer = list(reversed(stripped))
    count = len(buffer)
    if count > format_precision:  # round half up on the digits that remain
        first = count - format_precision
        if buffer[first - 1] < "5":
            while first < count and buffer[first] == "0":
                first += 1
        else:
            for i in range(first, count):
                if buffer[i] == "9":
                    first += 1
                else:
                    buffer[i] = chr(ord(buffer[i]) + 1)
                    break
            if first == count:
                return ["1"], exponent + first
        buffer = buffer[first:]
        exponent += first
    return buffer, exponent


def apfloat_to_string(
    value: Fraction,
    negative: bool,
    precision: int,
    format_precision: int = 0,
    max_padding: int = 3,
    truncate_zero: bool = True,
) -> str:
    """LLVM's `APFloat::toString` of a finite value of a format with `precision` bits."""
    sign = "-" if negative else ""
    if value == 0:
        if max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * max(format_precision - 1, 0) + "e+00"
    if not format_precision:
        format_precision = 2 + precision * 59 // 196
    buffer, exponent = _digits(value, format_precision)
    count = len(buffer)
    if not max_padding:
        scientific = True
    elif exponent >= 0:
        scientific = exponent > max_padding or count + exponent > format_precision
    else:
        most_significant = exponent + count - 1
        scientific = most_significant < 0 and -most_significant > max_padding
    digits = "".join(reversed(buffer))
    if scientific:
        exponent += count - 1
        mantissa = digits[0] + "." + ("0" if count == 1 and truncate_zero else digits[1:])
        if not truncate_zero and format_precision > count - 1:
            mantissa += "0" * (format_precision - count + 1)
        power = str(abs(exponent))
        if not truncate_zero and len(power) < 2:
            power = "0" + power
        marker = "E" if truncate_zero else "e"
        return f"{sign}{mantissa}{marker}{'+' if exponent >= 0 else '-'}{power}"
    if exponent >= 0:
        return sign + digits + "0" * exponent
    whole = exponent + count
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def hex_bits(raw: bytes) -> str:
    """MLIR's hex spelling of a float's bits: `0x` and upper-case digits, no padding."""
    return f"0x{int.from_bytes(raw, 'little'):X}"


def mlir_float_text(value: float, element: AnyFloat, raw: bytes) -> str | None:
    """The text MLIR prints for the float `value` of type `element` (bits `raw`), or
    None for a type this module does not know."""
    form = float_format(element)
    if form is None:
        return None
    if not math.isfinite(value):
        return hex_bits(raw)
    precision, min_exponent = form
    exact = Fraction(value)
    negative = math.copysign(1.0, value) < 0
    text = apfloat_to_string(abs(exact), negative, precision, 6, 0, False)
    if _round_to_format(Fraction(text), precision, min_exponent) == exact:
        return text
    text = apfloat_to_string(abs(exact), negative, precision)
    if "." in text:
        return text
    return hex_bits(raw)


__all__ = ["apfloat_to_string", "float_format", "hex_bits", "mlir_float_text"]
