"""next_after and mulhi: integer arithmetic on bit patterns and wide products."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import SSAValue

from passes.decompose_chlo.emitter import Emitter
from xla_dialect.ops.elementwise import BitcastConvertOp
from xla_dialect.types import bit_width, is_unsigned_integer


def next_after(e: Emitter, x: SSAValue, y: SSAValue) -> SSAValue:
    width = bit_width(e.element)
    ie = e.with_element(IntegerType(width))
    xi = ie.emit(BitcastConvertOp(x, ie.type))
    yi = ie.emit(BitcastConvertOp(y, ie.type))
    nan_in = e.bin("or", e.cmp("NE", x, x), e.cmp("NE", y, y))
    nan_bits = ie.emit(BitcastConvertOp(e.c(math.nan), ie.type))
    sign_bit = 1 << (width - 1)
    sign_mask, magnitude_mask = ie.c(sign_bit), ie.c(sign_bit - 1)
    x_abs, y_abs = ie.bin("and", xi, magnitude_mask), ie.bin("and", yi, magnitude_mask)
    zero, one = ie.c(0), ie.c(1)
    x_sign, y_sign = ie.bin("and", xi, sign_mask), ie.bin("and", yi, sign_mask)
    # Away from zero: +1 on the bit pattern; toward zero (signs differ or |x| > |y|): -1.
    toward_zero = ie.bin("or", ie.cmp("GT", x_abs, y_abs), ie.cmp("NE", x_sign, y_sign))
    stepped = ie.add(xi, ie.sel(toward_zero, ie.c(-1), one))
    from_zero = ie.sel(ie.cmp("EQ", y_abs, zero), yi, ie.bin("or", y_sign, one))
    result = ie.sel(ie.cmp("EQ", x_abs, zero), from_zero, stepped)
    result = ie.sel(e.cmp("EQ", x, y), yi, result)
    result = ie.sel(nan_in, nan_bits, result)
    return ie.emit(BitcastConvertOp(result, e.type))


def mulhi(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    width = bit_width(e.element)
    unsigned = is_unsigned_integer(e.element)
    if width < 64:
        wide_width = max(2 * width, 8)
        wide = e.with_element(IntegerType(wide_width, Signedness.UNSIGNED if unsigned else Signedness.SIGNLESS))
        product = wide.mul(e.convert(a, wide.element), e.convert(b, wide.element))
        shift = "shift_right_logical" if unsigned else "shift_right_arithmetic"
        high = wide.bin(shift, product, wide.c(width))
        return wide.convert(high, e.element)
    # 64 bits: schoolbook product of the 32-bit halves, in ui64.
    u = e.with_element(IntegerType(64, Signedness.UNSIGNED))
    au = a if unsigned else e.emit(BitcastConvertOp(a, u.type))
    bu = b if unsigned else e.emit(BitcastConvertOp(b, u.type))
    low_mask, s32 = u.c(0xFFFFFFFF), u.c(32)
    a_lo, a_hi = u.bin("and", au, low_mask), u.bin("shift_right_logical", au, s32)
    b_lo, b_hi = u.bin("and", bu, low_mask), u.bin("shift_right_logical", bu, s32)
    lo_lo, hi_lo = u.mul(a_lo, b_lo), u.mul(a_hi, b_lo)
    lo_hi, hi_hi = u.mul(a_lo, b_hi), u.mul(a_hi, b_hi)
    cross = u.add(u.add(u.bin("shift_right_logical", lo_lo, s32), u.bin("and", hi_lo, low_mask)), lo_hi)
    high = u.add(u.add(hi_hi, u.bin("shift_right_logical", hi_lo, s32)), u.bin("shift_right_logical", cross, s32))
    if unsigned:
        return high
    zero = e.c(0)
    fix_a = u.sel(e.cmp("LT", a, zero), bu, u.c(0))
    fix_b = u.sel(e.cmp("LT", b, zero), au, u.c(0))
    high = u.sub(u.sub(high, fix_a), fix_b)
    return e.emit(BitcastConvertOp(high, e.type))
