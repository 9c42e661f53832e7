"""Between `dense<...>` literals and NumPy arrays (folding, the runtime, tests)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from xla_dialect.dense_literals import is_compact_splat
from xla_dialect.float_printing import NARROW_FLOATS
from xla_dialect.types import shape_of

_SUB_BYTE: dict[tuple[int, bool], type] = {
    (2, False): ml_dtypes.int2,
    (2, True): ml_dtypes.uint2,
    (4, False): ml_dtypes.int4,
    (4, True): ml_dtypes.uint4,
}


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
    """The array a dense literal holds (raises ValueError for types NumPy lacks).

    A splat stored as one element comes back as a read-only broadcast view of it:
    no memory for its size, however large its type."""
    tensor_type = attr.get_type()
    dtype = numpy_dtype(tensor_type.get_element_type())
    if dtype is None:
        raise ValueError(f"no NumPy type for {tensor_type.get_element_type()}")
    shape = tuple(shape_of(tensor_type))
    if type(tensor_type.get_element_type()) in NARROW_FLOATS or isinstance(
        tensor_type.get_element_type(), BFloat16Type
    ):  # the stored bytes, bit-exact (unpacking to Python floats would quiet a signalling NaN)
        flat = np.frombuffer(attr.data.data, dtype=np.uint8).view(dtype).copy()
    elif dtype.kind in "fc" and dtype.itemsize == attr.get_element_type().compile_time_size:
        flat = np.frombuffer(attr.data.data, dtype=dtype.newbyteorder("<")).astype(dtype)  # bits kept
    else:  # the stored elements only (one for a splat)
        stored = attr.get_element_type().unpack(attr.data.data, len(attr))  # pyright: ignore
        flat = np.array([complex(*v) for v in stored] if dtype.kind == "c" else stored, dtype=dtype)
    if is_compact_splat(attr):
        return np.broadcast_to(flat.reshape(()), shape)
    return flat.reshape(shape)


def splat_element(array: np.ndarray) -> np.ndarray | None:
    """The one element (as a 0-d array) all elements of `array` equal bit for bit, or None.

    A broadcast view (what `to_numpy` gives for a splat) answers without a pass over it."""
    if array.size == 0:
        return None
    first = array[(0,) * array.ndim]
    if all(stride == 0 for stride in array.strides) or array.size == 1:
        return np.asarray(first)
    flat = np.ascontiguousarray(array).reshape(-1)
    raw = flat.view(np.uint8).reshape(flat.size, -1)
    return np.asarray(first) if bool((raw == raw[0]).all()) else None


_BITWISE = (np.dtype(ml_dtypes.bfloat16),)
"""Float dtypes NumPy does not call floats whose bytes are the element's encoding."""


def from_numpy(array: np.ndarray, tensor_type: TensorType[Attribute]) -> DenseIntOrFPElementsAttr:
    """A dense literal of `tensor_type` holding `array` (one stored element when all
    elements have the same bits: -0.0 beside 0.0 is not a splat)."""
    array = np.asarray(array)
    splat = splat_element(array) if array.size > 1 else None
    flat = splat.reshape(1) if splat is not None else array.reshape(-1)
    element = tensor_type.get_element_type()
    bitwise = flat.dtype.kind in "fc" or flat.dtype in _BITWISE
    if bitwise and flat.dtype == numpy_dtype(element) and flat.dtype.itemsize in (2, 4, 8, 16):
        # the stored bytes as they are: through Python floats, a signalling NaN of
        # f32/f16/bf16 would be quieted (and the float detour costs time)
        return DenseIntOrFPElementsAttr(tensor_type, BytesAttr(np.ascontiguousarray(flat).tobytes()))  # pyright: ignore
    if flat.dtype.kind == "c":
        values: list = [(float(v.real), float(v.imag)) for v in flat]
    elif flat.dtype.kind == "b" or flat.dtype.kind in "iu" or isinstance(element, IntegerType):
        values = [int(v) for v in flat]  # (ml_dtypes' int2/int4 are no NumPy integer kind)
        if isinstance(element, IntegerType):  # wrapped to the width, as the op computes
            width = element.width.data
            values = [v & ((1 << width) - 1) for v in values]
    else:
        values = [float(v) for v in flat]
    if len(values) == 1:  # a splat stays one element (xDSL's from_list would repeat it)
        if isinstance(element, IntegerType):
            values = [element.get_normalized_value(values[0])]
        return DenseIntOrFPElementsAttr(tensor_type, BytesAttr(element.pack(values)))  # pyright: ignore
    return DenseIntOrFPElementsAttr.from_list(tensor_type, values)  # pyright: ignore
