"""Reading and printing `dense<...>` literals exactly, compactly and safely.

xDSL 0.74's literal reader goes through Python floats and ints: a signalling NaN
(`0x7F800001`) comes back quiet, an out-of-range integer (`dense<300> : tensor<i8>`)
or an oversized hex pattern escapes as a Python exception, and a splat is expanded
element by element (`dense<0> : tensor<134217728xi8>` took minutes). Its printer
decides "splat" by `==`, so `dense<[-0.0, 0.0]>` printed as a splat of -0.0.

Here every element becomes its bytes directly (hex float literals as their bit
pattern), every literal is range-checked with an error at the element, and a splat
is stored as ONE element whose type carries the shape: that is how MLIR keeps
splats, and what `xla_dialect.literals.to_numpy` and the LLVM backend read back
(`is_compact_splat`); `get_values()` and its siblings still give every element, for
the small attributes (padding, replica groups) whose readers want a list. The printer
compares bytes, so values round-trip bit for bit.
"""

from __future__ import annotations

import math
import struct
from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer

from xla_dialect.float_printing import hex_bits, mlir_float_text

MAX_LITERAL_BYTES = 1 << 31
"""A non-splat literal larger than this (2 GiB) is refused: it could not be held anyway."""


def element_count(attr: DenseIntOrFPElementsAttr) -> int:
    """The number of elements the literal's type has (not the number stored)."""
    return math.prod(attr.get_shape())


def is_compact_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """True if `attr` stores one element for a type of several (a splat kept small)."""
    return len(attr) == 1 and element_count(attr) != 1


def integer_range(element: IntegerType | IndexType) -> tuple[int, int]:
    """The closed range of literals an integer type accepts (signless: signed or unsigned)."""
    if isinstance(element, IndexType):
        return -(1 << 63), (1 << 64) - 1
    width = element.width.data
    signedness = element.signedness.data
    if signedness == Signedness.UNSIGNED:
        return 0, (1 << width) - 1
    if signedness == Signedness.SIGNED:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return -(1 << (width - 1)), (1 << width) - 1


def _float_bits(parser: AttrParser, element: Any, text: str, value: float, span: Any) -> bytes:
    """The bytes of one float element: a hex literal is its bit pattern, as in MLIR."""
    size = element.compile_time_size
    stripped = text.strip()
    if stripped.lower().startswith("0x"):
        bits = int(stripped, 16)
        width = getattr(element, "bitwidth", size * 8)
        if bits >> width:
            parser.raise_error(
                f"hexadecimal float literal {stripped} does not fit in {width} bits of {element}",
                at_position=span,
            )
        return bits.to_bytes(size, "little")
    try:
        return element.pack((value,))
    except (OverflowError, struct.error, ValueError):
        parser.raise_error(f"float literal {span.text.strip()} is out of range for {element}", at_position=span)


def _int_bits(parser: AttrParser, element: IntegerType | IndexType, value: int, span: Any) -> bytes:
    low, high = integer_range(element)
    if not low <= value <= high:
        parser.raise_error(
            f"integer literal {value} is out of range for {element} [{low}, {high}]",
            at_position=span,
        )
    if isinstance(element, IntegerType):
        value = element.get_normalized_value(value)
    return element.pack((value,))


def element_bytes(parser: AttrParser, literal: Any, element: Any) -> bytes:
    """The bytes one parsed literal element stores as `element`, checked."""
    span = literal.span
    hex_float = span.text.strip().lower().startswith("0x") and not literal.is_negative
    if isinstance(element, AnyFloat) and hex_float:
        return _float_bits(parser, element, span.text, 0.0, span)
    value = literal.to_type(parser, element)
    if isinstance(element, IntegerType | IndexType):
        return _int_bits(parser, element, int(value), span)
    if isinstance(element, AnyFloat):
        text = "" if literal.is_negative else span.text  # a negative literal is never bits
        return _float_bits(parser, element, text, value, span)
    assert isinstance(element, ComplexType)
    part = element.element_type
    parts = span.text.strip().strip("()").split(",")
    if isinstance(part, IntegerType):
        return b"".join(_int_bits(parser, part, int(v), span) for v in value)
    texts = parts if len(parts) == 2 and not literal.is_negative else ["", ""]
    return b"".join(_float_bits(parser, part, t, float(v), span) for t, v in zip(texts, value))


def parse_dense(self: AttrParser, type: Any | None) -> DenseIntOrFPElementsAttr:
    """`dense<...>` (xDSL's grammar; MLIR's storage: bytes, splats as one element)."""
    self.parse_punctuation("<", " in dense attribute")
    start = self.pos
    contents: Any = None
    if self.parse_optional_punctuation(">") is None:
        hex_string = self.parse_optional_str_literal()
        contents = hex_string if hex_string is not None else self._parse_tensor_literal()  # pyright: ignore
        self.parse_punctuation(">", " in dense attribute")
    if type is None:
        self.parse_punctuation(":", " in dense attribute")
        type = self._parse_dense_literal_type()  # pyright: ignore
    element = type.element_type
    shape = list(type.get_shape())
    count = math.prod(shape)
    size = element.compile_time_size
    if contents is None:
        if count != 0:
            self.raise_error("Expected at least one element in the dense literal, but got None")
        return DenseIntOrFPElementsAttr(type, BytesAttr(b""))
    if isinstance(contents, str):
        try:
            raw = bytes.fromhex(contents[2:]) if contents[:2].lower() == "0x" else None
        except ValueError:
            raw = None
        if raw is None:
            self.raise_error("Hex string in dense attribute is invalid", start, self.pos)
        if len(raw) == size and count != 1:
            return DenseIntOrFPElementsAttr(type, BytesAttr(raw))  # a splat, kept as one element
        if len(raw) != size * count:
            self.raise_error(
                f"Shape mismatch in dense literal. Expected {count} elements from the type, "
                f"but got {len(raw) // size if size else 0} elements.",
                start,
                self.pos,
            )
        return DenseIntOrFPElementsAttr(type, BytesAttr(raw))
    literals, literal_shape = contents
    if literal_shape and literal_shape != shape:
        self.raise_error(
            f"Shape mismatch in dense literal. Expected {shape} shape from the type, "
            f"but got {literal_shape} shape.",
            start,
            self.pos,
        )
    if size * len(literals) > MAX_LITERAL_BYTES:
        self.raise_error(f"dense literal of {size * len(literals)} bytes is too large", start, self.pos)
    raw = b"".join(element_bytes(self, literal, element) for literal in literals)
    if not literal_shape and count == 0:
        raw = b""
    return DenseIntOrFPElementsAttr(type, BytesAttr(raw))


def splat_bytes(attr: DenseIntOrFPElementsAttr) -> bytes | None:
    """The bytes of the one element every element of `attr` equals (bit for bit), if any."""
    data = attr.data.data
    stored = len(attr)
    if stored == 0:
        return None
    size = len(data) // stored
    first = data[:size]
    if stored == 1 or (size == 1 and data.count(first) == stored):
        return first
    return first if data == first * stored else None


def _print_element(attr: DenseIntOrFPElementsAttr, raw: bytes, printer: Printer) -> None:
    element = attr.get_element_type()
    (value,) = element.unpack(raw, 1)
    if isinstance(element, ComplexType) and isinstance(element.element_type, AnyFloat):
        half = len(raw) // 2
        printer.print_string("(")
        _print_float(element.element_type, raw[:half], printer)
        printer.print_string(",")
        _print_float(element.element_type, raw[half:], printer)
        printer.print_string(")")
    elif isinstance(element, AnyFloat):
        _print_float(element, raw, printer)
    else:
        attr._print_one_elem(value, printer)  # pyright: ignore[reportPrivateUsage]


def _print_float(element: AnyFloat, raw: bytes, printer: Printer) -> None:
    (value,) = element.unpack(raw, 1)
    text = mlir_float_text(value, element, raw)  # from the bits: a NaN keeps its payload
    if text is not None:
        printer.print_string(text)
    elif math.isnan(value):
        printer.print_string(hex_bits(raw))
    else:
        printer.print_float(value, element)


def print_dense(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    """`dense<...>`: a splat when all elements have the same bits, else the list or hex."""
    printer.print_string("dense")
    stored = len(self)
    with printer.in_angle_brackets():
        if stored == 0:
            return
        splat = splat_bytes(self)
        if splat is not None:
            _print_element(self, splat, printer)
            return
        if stored > 100:
            printer.print_string(f'"0x{self.data.data.hex().upper()}"')
            return
        size = len(self.data.data) // stored
        chunks = [self.data.data[i : i + size] for i in range(0, stored * size, size)]
        shape = self.get_shape() if self.shape_is_complete else (stored,)
        _print_nested(self, chunks, list(shape), printer)


def _print_nested(attr: DenseIntOrFPElementsAttr, chunks: list[bytes], shape: list[int], printer: Printer) -> None:
    printer.print_string("[")
    if len(shape) > 1:
        step = len(chunks) // shape[0] if shape[0] else 0
        groups = [chunks[i : i + step] for i in range(0, len(chunks), step)] if step else []
        printer.print_list(groups, lambda group: _print_nested(attr, group, shape[1:], printer))
    else:
        printer.print_list(chunks, lambda raw: _print_element(attr, raw, printer))
    printer.print_string("]")


def _expanding(method: Any) -> Any:
    """Wrap a whole-value reader so a compact splat reads as all of its elements."""

    def read(self: DenseIntOrFPElementsAttr) -> Any:
        values = method(self)
        if is_compact_splat(self):
            values = tuple(values) * element_count(self)
        return values

    return read


def install_dense_literals() -> None:
    """Route xDSL's reading and printing of `dense<...>` through this module (once)."""
    if getattr(AttrParser, "_xla_dense_literals", False):
        return
    AttrParser.parse_dense_int_or_fp_elements_attr = parse_dense  # pyright: ignore[reportAttributeAccessIssue]
    DenseIntOrFPElementsAttr.print_without_type = print_dense  # pyright: ignore[reportAttributeAccessIssue]
    DenseIntOrFPElementsAttr.is_splat = lambda self: splat_bytes(self) is not None  # pyright: ignore
    for name in ("get_values", "iter_values", "get_attrs", "iter_attrs"):
        setattr(DenseIntOrFPElementsAttr, name, _expanding(getattr(DenseIntOrFPElementsAttr, name)))
    AttrParser._xla_dense_literals = True  # pyright: ignore[reportAttributeAccessIssue]


__all__ = [
    "MAX_LITERAL_BYTES",
    "element_bytes",
    "element_count",
    "install_dense_literals",
    "integer_range",
    "is_compact_splat",
    "parse_dense",
    "print_dense",
    "splat_bytes",
]
