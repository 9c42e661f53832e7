"""Between `dense<...>` literals and NumPy arrays (folding, the runtime, tests)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
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
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from xla_dialect.types import shape_of

_SUB_BYTE: dict[tuple[int, bool], type] = {
    (2, False): ml_dtypes.int2,
    (2, True): ml_dtypes.uint2,
    (4, False): ml_dtypes.int4,
    (4, True): ml_dtypes.uint4,
}


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


def numpy_dtype(element: Attribute) -> np.dtype | None:
    """The NumPy dtype that holds an element type exactly, or None if there is none."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = element.signedness.data == Signedness.UNSIGNED
        if width in (2, 4):  # one element a byte, as LLVM lays out i2/i4 arrays
            return np.dtype(_SUB_BYTE[(width, unsigned)])
        if width not in (8, 16, 32, 64):
            return None
        return np.dtype(f"{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(element, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element, BFloat16Type):
        return np.dtype(ml_dtypes.bfloat16)
    if type(element) in NARROW_FLOATS:
        return np.dtype(NARROW_FLOATS[type(element)])
    if isinstance(element, ComplexType):
        part = element.element_type
        if isinstance(part, Float32Type):
            return np.dtype(np.complex64)
        if isinstance(part, Float64Type):
            return np.dtype(np.complex128)
    return None


def to_numpy(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The array a dense literal holds (raises ValueError for types NumPy lacks)."""
    tensor_type = attr.get_type()
    dtype = numpy_dtype(tensor_type.get_element_type())
    if dtype is None:
        raise ValueError(f"no NumPy type for {tensor_type.get_element_type()}")
    if type(tensor_type.get_element_type()) in NARROW_FLOATS:  # the stored bytes, bit-exact
        raw = np.frombuffer(attr.data.data, dtype=np.uint8).view(dtype)
        count = int(np.prod(shape_of(tensor_type)))
        return (np.repeat(raw, count) if raw.size == 1 else raw).reshape(shape_of(tensor_type)).copy()
    values = attr.get_values()
    if dtype.kind == "c":
        flat = np.array([complex(*v) for v in values], dtype=dtype)  # pyright: ignore
    else:
        flat = np.array(values, dtype=dtype)
    return flat.reshape(shape_of(tensor_type))


def from_numpy(array: np.ndarray, tensor_type: TensorType[Attribute]) -> DenseIntOrFPElementsAttr:
    """A dense literal of `tensor_type` holding `array` (a splat when all equal)."""
    flat = np.asarray(array).reshape(-1)
    if flat.dtype.kind == "c":
        values: list = [(float(v.real), float(v.imag)) for v in flat]
    elif flat.dtype.kind == "b" or flat.dtype.kind in "iu":
        values = [int(v) for v in flat]
    else:
        values = [float(v) for v in flat]
    if values and all(v == values[0] for v in values) and flat.dtype.kind not in "fc":
        values = values[:1]
    return DenseIntOrFPElementsAttr.from_list(tensor_type, values)  # pyright: ignore
