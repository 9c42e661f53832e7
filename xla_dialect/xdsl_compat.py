"""Fixes to xDSL 0.74's builtin syntax that StableHLO programs depend on (and three
speed-ups: of its parser, `install_cached_literal_constraint`, of op construction,
`xla_dialect.fast_construction`, and of walks, `xla_dialect.fast_walk`).

MLIR reads a hexadecimal literal in a float `dense<...>` (`0x7F800000` in a
tensor<f32>) as the element's bit pattern, and xDSL prints infinities and NaNs that
way, but xDSL 0.74 reads such a literal back as an integer value (2139095040.0), and
rejects the complex pairs it prints itself (`(0x7FF0000000000001,0.000000e+00)`).
Constants holding inf/NaN (and StableHLO's tests, which spell them in hex) would
change value on a round trip. `install_hex_float_literals` makes xDSL's dense-literal
elements decode hex as bits; it runs when the dialect is imported and is checked by
`tests/unit/test_xdsl_compat.py`, so an xDSL upgrade that fixes or breaks it is seen.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    FloatAttr,
    FloatData,
)
from xdsl.ir import Operation
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.lexer import Span

from xla_dialect.dense_literals import install_dense_literals
from xla_dialect.fast_construction import install_fast_op_construction
from xla_dialect.fast_walk import install_fast_walk
from xla_dialect.float_printing import mlir_float_text


def _hex_bits(text: str, element_type: AnyFloat) -> float | None:
    """The float whose bits `text` spells, if `text` is a hexadecimal literal."""
    text = text.strip()
    if not text.lower().startswith("0x"):
        return None
    raw = int(text, 16).to_bytes(element_type.compile_time_size, "little")
    return next(iter(element_type.iter_unpack(raw)))


def install_hex_float_literals() -> None:
    """Decode hex elements of float and complex `dense<...>` literals as bit patterns."""
    element_cls = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    if getattr(element_cls, "_xla_hex_floats", False):
        return
    original = element_cls.to_type

    def to_type(self, parser, type):  # type: ignore[no-untyped-def]
        text = self.span.text
        if isinstance(type, AnyFloat) and not self.is_negative:
            bits = _hex_bits(text, type)
            if bits is not None:
                return bits
        if (
            isinstance(type, ComplexType)
            and isinstance(type.element_type, AnyFloat)
            and "0x" in text.lower()
        ):
            parts = text.strip().strip("()").split(",")
            if len(parts) == 2:
                values = [_hex_bits(part, type.element_type) for part in parts]
                default = original(self, parser, type)
                return tuple(v if v is not None else d for v, d in zip(values, default))
        return original(self, parser, type)

    def parse_optional_complex(self):  # type: ignore[no-untyped-def]
        # `(0x7FF0000000000001,0.000000e+00)`, as xDSL prints a complex NaN, mixes an
        # integer token with a float one: read both as floats (to_type decodes the hex).
        if self._current_token.text != "(":
            return None
        start = self._current_token.span
        self.parse_punctuation("(")
        real, _ = self._parse_bool_int_or_float()
        self.parse_punctuation(",")
        imag, _ = self._parse_bool_int_or_float()
        end = self._current_token.span
        self.parse_punctuation(")")
        if type(real) is not type(imag):
            if isinstance(real, bool) or isinstance(imag, bool):
                self.raise_error("Complex value must be either (float, float) or (int, int)")
            real, imag = float(real), float(imag)
        return (real, imag), Span(start.start, end.end, start.input)

    element_cls.to_type = to_type  # pyright: ignore[reportAttributeAccessIssue]
    AttrParser._parse_optional_complex = parse_optional_complex  # pyright: ignore
    element_cls._xla_hex_floats = True  # pyright: ignore[reportAttributeAccessIssue]


def install_rank0_reshapes() -> None:
    """Accept MLIR's rank-0 reshape: `tensor.expand_shape %x [] output_shape [1, 1]`
    from a `tensor<f32>` has no reassociation groups, and every expanded dimension
    must be 1 (MLIR's `verifyReshapeLikeTypes`); xDSL 0.74 rejects it, so a reshape
    of `tensor<i32>` to `tensor<1xi32>` (and `chlo.scan`) failed under lower-to-llvm."""
    from xdsl.dialects import tensor
    from xdsl.utils.exceptions import VerifyException

    original = tensor.verify_reshape_like_types
    if getattr(original, "_xla_rank0", False):
        return

    def verify(collapsed_type, expanded_type, reassociation):  # type: ignore[no-untyped-def]
        if not collapsed_type.get_shape() and not reassociation.data:
            if any(d != 1 for d in expanded_type.get_shape()):
                raise VerifyException(
                    f"expected every dimension of {expanded_type} to be 1 when expanding a rank-0 type"
                )
            return
        original(collapsed_type, expanded_type, reassociation)

    verify._xla_rank0 = True  # type: ignore[attr-defined]
    tensor.verify_reshape_like_types = verify  # pyright: ignore[reportAttributeAccessIssue]


def install_mlir_printing() -> None:
    """Print as MLIR's AsmPrinter does where xDSL 0.74 differs: float literals
    (`float_printing`: `2.14748365E+9`, `0x7FC00000`), and the results of an op with
    several unnamed results as one group, `%0:2 = ...` used as `%0#0`, `%0#1`."""
    if getattr(Printer, "_xla_mlir_printing", False):
        return
    original_results = Printer._print_results  # pyright: ignore[reportPrivateUsage]
    original_float = Printer.print_float

    def print_results(self: Printer, op: Operation) -> None:
        results = op.results
        hints = {result.name_hint for result in results}
        named = self._ssa_values  # pyright: ignore[reportPrivateUsage]
        if len(results) < 2 or len(hints) != 1 or any(r in named for r in results):
            original_results(self, op)
            return
        hint = results[0].name_hint
        if hint:
            count = self.ssa_names.get(hint, 0)
            name = f"{hint}_{count}" if count else hint
            self.ssa_names[hint] = count + 1
        else:
            name = self._get_new_valid_name_id()  # pyright: ignore[reportPrivateUsage]
        for index, result in enumerate(results):
            named[result] = f"{name}#{index}"
        self.print_string(f"%{name}:{len(results)} = ")

    def print_float(self: Printer, value: float, type: AnyFloat) -> None:
        try:
            raw = float_bits(value, type).to_bytes(type.compile_time_size, "little")
        except (ValueError, TypeError, OverflowError, NotImplementedError):
            raw = None
        text = None if raw is None else mlir_float_text(value, type, raw)
        if text is None:
            original_float(self, value, type)
        else:
            self.print_string(text)

    Printer._print_results = print_results  # pyright: ignore[reportAttributeAccessIssue]
    Printer.print_float = print_float  # pyright: ignore[reportAttributeAccessIssue]
    Printer._xla_mlir_printing = True  # pyright: ignore[reportAttributeAccessIssue]


def _memoized(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`original` of one argument, its result built once per (hashable) argument value;
    an unhashable argument goes to `original` each time. Marked `_xla_cached`, so that
    an installer finds it installed."""
    built: dict[object, object] = {}

    def cached(argument: Any) -> Any:
        try:
            return built[argument]
        except KeyError:
            built[argument] = result = original(argument)
            return result
        except TypeError:
            return original(argument)

    cached._xla_cached = True  # type: ignore[attr-defined]
    return cached


def install_cached_literal_constraint() -> None:
    """Build the constraint xDSL 0.74 checks a `dense<...>` literal's type against once:
    its parser calls `base(RankedStructure[...])` for every literal, which rebuilds the
    constraint each time (4 ms: 10 % of reading a 10,000-op transformer)."""
    from xdsl.parser import attribute_parser

    original = attribute_parser.base
    if getattr(original, "_xla_cached", False):
        return
    attribute_parser.base = _memoized(original)  # pyright: ignore[reportAttributeAccessIssue]


def install_cached_hint_constraints() -> None:
    """Build the constraint of a generic type hint once: xDSL 0.74's `isa(value,
    ArrayAttr[IntAttr])` (every `MemRefType(...)` asks it of its shape) converts the
    hint to a constraint on every call (0.2 ms, most of building a memref type: 1.2 s
    of bufferizing a 2,531-op MLP). `isa` imports `irdl_to_attr_constraint` from
    `xdsl.irdl` at each call, so the cached conversion is installed there; a hint
    is a plain value (`ArrayAttr[IntAttr]`), and its constraint an immutable one."""
    from typing import get_origin

    import xdsl.irdl

    original = xdsl.irdl.irdl_to_attr_constraint
    if getattr(original, "_xla_cached", False):
        return
    cached = _memoized(original)

    def irdl_to_attr_constraint(irdl, *, allow_type_var=False):  # type: ignore[no-untyped-def]
        if allow_type_var or get_origin(irdl) is None:
            return original(irdl, allow_type_var=allow_type_var)
        return cached(irdl)

    irdl_to_attr_constraint._xla_cached = True  # type: ignore[attr-defined]
    xdsl.irdl.irdl_to_attr_constraint = irdl_to_attr_constraint  # pyright: ignore[reportAttributeAccessIssue]


_MANTISSA_BITS: dict[type, int] = {Float32Type: 23, Float16Type: 10, BFloat16Type: 7}
"""Float types narrower than f64 whose NaNs a Python float can hold exactly."""


def widen_nan(bits: int, element_type: AnyFloat) -> float | None:
    """The f64 (a Python float) holding the NaN `bits` of a narrower type exactly: its
    sign, quiet bit and payload moved to the top of f64's mantissa, as `fpext` would
    without quieting. None if `bits` is no NaN of such a type."""
    mantissa = _MANTISSA_BITS.get(type(element_type))
    if mantissa is None:
        return None
    width = element_type.bitwidth
    exponent_mask = (1 << (width - 1 - mantissa)) - 1
    fraction = bits & ((1 << mantissa) - 1)
    if (bits >> mantissa) & exponent_mask != exponent_mask or fraction == 0:
        return None
    sign = (bits >> (width - 1)) & 1
    wide = (sign << 63) | (0x7FF << 52) | (fraction << (52 - mantissa))
    return struct.unpack("<d", wide.to_bytes(8, "little"))[0]


def float_bits(value: float, element_type: AnyFloat) -> int:
    """The bits of `value` in `element_type`. A NaN keeps its sign, quiet bit and the top
    of its payload (struct's narrowing of a double sets the quiet bit)."""
    mantissa = _MANTISSA_BITS.get(type(element_type))
    if mantissa is not None and math.isnan(value):
        width = element_type.bitwidth
        wide = int.from_bytes(struct.pack("<d", value), "little")
        fraction = (wide & ((1 << 52) - 1)) >> (52 - mantissa) or 1 << (mantissa - 1)
        exponent = ((1 << (width - 1 - mantissa)) - 1) << mantissa
        return ((wide >> 63) << (width - 1)) | exponent | fraction
    return int.from_bytes(element_type.pack((value,)), "little")


def install_exact_float_nans() -> None:
    """Keep a signalling NaN of f32/f16/bf16 in a `FloatAttr` (`arith.constant
    0x7F800001 : f32`). xDSL 0.74 reads the hex pattern through a C float, rounds every
    value through `pack`/`unpack`, and prints through `pack`: each step sets the quiet
    bit (`0x7FC00001`). The attribute now holds the exactly widened f64 (`widen_nan`),
    and the printer narrows it back bit for bit (`float_bits`)."""
    if getattr(FloatAttr, "_xla_exact_nans", False):
        return
    original_init = FloatAttr.__init__
    original_parse = AttrParser.parse_optional_builtin_int_or_float_attr

    def init(self, data, type):  # type: ignore[no-untyped-def]
        value = data.data if isinstance(data, FloatData) else data
        if isinstance(value, float) and math.isnan(value) and type.__class__ in _MANTISSA_BITS:
            exact = widen_nan(float_bits(value, type), type)
            super(FloatAttr, self).__init__(FloatData(exact), type)
            return
        original_init(self, data, type)

    def parse(self):  # type: ignore[no-untyped-def]
        text = self._current_token.text
        attr = original_parse(self)
        if isinstance(attr, FloatAttr) and text[:2].lower() == "0x":
            exact = widen_nan(int(text, 16), attr.type)
            if exact is not None:
                return FloatAttr(exact, attr.type)
        return attr

    FloatAttr.__init__ = init  # pyright: ignore[reportAttributeAccessIssue]
    AttrParser.parse_optional_builtin_int_or_float_attr = parse  # pyright: ignore[reportAttributeAccessIssue]
    FloatAttr._xla_exact_nans = True  # pyright: ignore[reportAttributeAccessIssue]


install_hex_float_literals()
install_exact_float_nans()
install_dense_literals()
install_rank0_reshapes()
install_mlir_printing()
install_cached_literal_constraint()
install_cached_hint_constraints()
install_fast_op_construction()
install_fast_walk()


def install_vector_select() -> None:
    """`arith.select` with a vector (or tensor) of `i1` as its condition, as MLIR has it:
    element by element, the condition's shape that of the result, printed and read as
    `arith.select %c, %a, %b : vector<16xi1>, vector<16xf32>`. xDSL 0.74 allows only an
    `i1` condition, so the NaN-aware vector reductions of `linalg-vectorize-reductions`
    printed IR that neither xDSL's verifier nor any MLIR tool read back."""
    from dataclasses import dataclass

    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerType, ShapedType
    from xdsl.ir import Attribute
    from xdsl.irdl import OperandDef, ResultDef
    from xdsl.irdl.constraints import AttrConstraint
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import VerifyException

    select = arith.SelectOp
    if getattr(select, "_xla_vector_select", False):
        return

    @dataclass(frozen=True)
    class _BoolLike(AttrConstraint):
        """`i1`, or a shaped type of `i1` elements."""

        def verify(self, attr: Attribute, constraint_context: object) -> None:
            if attr == IntegerType(1):
                return
            if isinstance(attr, ShapedType) and getattr(attr, "element_type", None) == IntegerType(1):
                return
            raise VerifyException(f"expected i1 or a vector or tensor of i1, got {attr}")

        def mapping_type_vars(self, type_var_mapping: dict) -> AttrConstraint:  # type: ignore[type-arg]
            return self

    definition = select.get_irdl_definition()
    definition.operands[0] = ("cond", OperandDef(_BoolLike()))

    irdl_verify = select.verify_

    def verify_(self: arith.SelectOp) -> None:
        irdl_verify(self)
        cond, result = self.cond.type, self.result.type
        if isinstance(cond, ShapedType) and (
            not isinstance(result, ShapedType) or cond.get_shape() != result.get_shape()
        ):
            raise VerifyException(f"the condition {cond} must have the shape of the result {result}")

    def print_(self: arith.SelectOp, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != IntegerType(1):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def _shape_result(op: Operation) -> None:
        operand = op.operands[0].type
        if isinstance(operand, ShapedType) and op.results[0].type == IntegerType(1):
            op.results[0]._type = type(operand)(IntegerType(1), operand.get_shape())  # pyright: ignore[reportCallIssue, reportAttributeAccessIssue]

    def _compare_parse(original):  # type: ignore[no-untyped-def]
        def parse(cls, parser: Parser):  # type: ignore[no-untyped-def]
            op = original(cls, parser)
            _shape_result(op)
            return op

        return parse

    def _compare_init(original):  # type: ignore[no-untyped-def]
        def init(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            original(self, *args, **kwargs)
            _shape_result(self)

        return init

    def parse_(cls: type[arith.SelectOp], parser: Parser) -> arith.SelectOp:
        pos = parser.pos
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(names) != 3 or len(types) not in (1, 2):
            parser.raise_error("expected `%cond, %true, %false : [condition type,] type`", pos, parser.pos)
        cond_type = types[0] if len(types) == 2 else IntegerType(1)
        value_type = types[-1]
        operands = parser.resolve_operands(names, [cond_type, value_type, value_type], pos)
        op = cls(*operands)
        op.attributes.update(attributes)
        return op

    for compare in (arith.CmpfOp, arith.CmpiOp):
        # Vector and tensor compares give a vector or tensor of i1 (read back with it).
        compare.get_irdl_definition().results[0] = ("result", ResultDef(_BoolLike()))
        compare.parse = classmethod(_compare_parse(compare.parse.__func__))  # type: ignore[method-assign, assignment, attr-defined]
        compare.__init__ = _compare_init(compare.__init__)  # type: ignore[method-assign]

    select.verify_ = verify_  # type: ignore[method-assign]
    select.print = print_  # type: ignore[method-assign]
    select.parse = classmethod(parse_)  # type: ignore[method-assign, assignment]
    select._xla_vector_select = True  # type: ignore[attr-defined]
install_vector_select()
