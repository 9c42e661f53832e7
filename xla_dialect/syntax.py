"""Pieces of StableHLO's pretty syntax shared by the ops' parsers and printers.

The helpers follow StableHLO's custom directives: `SameOperandsAndResultType`
(`: tensor<4xf32>` when every type is the same, else a function type),
`dims = [0, 1]` keyword lists, and attribute dictionaries that hold whatever the
pretty form does not spell out. Each op's `parse`/`print` composes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import TypeVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IntegerAttr,
    IntegerType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

OpT = TypeVar("OpT", bound=IRDLOperation)
E = TypeVar("E", bound=StrEnum)


# ---------------------------------------------------------------------------
# Integer arrays (`array<i64: ...>` in the generic form)
# ---------------------------------------------------------------------------


def i64_array(values: Iterable[int]) -> DenseArrayBase[IntegerType]:
    return DenseArrayBase.from_list(i64, list(values))


def ints_of(attr: Attribute | None) -> tuple[int, ...]:
    """The integers of an `array<i64: ...>`, a `dense<...>` or an `[...]` attribute."""
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())  # pyright: ignore
    if isinstance(attr, ArrayAttr):
        return tuple(int(a.value.data if isinstance(a, IntegerAttr) else a.data) for a in attr.data)  # pyright: ignore
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    if isinstance(attr, DenseIntOrFPElementsAttr):
        return tuple(int(v) for v in attr.get_values())  # pyright: ignore
    raise TypeError(f"not an integer array: {attr}")


def bool_of(attr: Attribute | None, default: bool = False) -> bool:
    if attr is None:
        return default
    assert isinstance(attr, IntegerAttr)
    return bool(attr.value.data)


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def check_operand_count(parser: Parser, cls: type[Operation], operands: Sequence[object], pos: int) -> None:
    """A located parse error unless `operands` has as many entries as `cls` declares
    (ops with variadic operands take any number)."""
    from xdsl.irdl import VarOperandDef

    defs = cls.get_irdl_definition().operands  # pyright: ignore[reportAttributeAccessIssue]
    if any(isinstance(d, VarOperandDef) for _, d in defs):
        return
    if len(operands) != len(defs):
        parser.raise_error(
            f"'{cls.name}' takes {len(defs)} operand(s), got {len(operands)}", pos, parser.pos  # pyright: ignore
        )


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, %c` (possibly empty)."""
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    operands = [first]
    while True:
        pos = parser.pos
        if parser.parse_optional_punctuation(",") is None:
            break
        operand = parser.parse_optional_unresolved_operand()
        if operand is None:
            # A keyword follows (`dims = ...`): hand the comma back to the caller.
            parser._resume_from(pos)  # pyright: ignore[reportPrivateUsage]
            break
        operands.append(operand)
    return operands


def parse_int_list(parser: Parser) -> list[int]:
    """`[1, 2, 3]`."""
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def parse_keyword_ints(parser: Parser, keyword: str) -> list[int]:
    """`keyword = [1, 2]`."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def parse_optional_keyword_ints(parser: Parser, keyword: str) -> list[int] | None:
    """`, keyword = [1, 2]` if the keyword follows a comma, else None."""
    pos = parser.pos
    if parser.parse_optional_punctuation(",") is None:
        return None
    if parser.parse_optional_keyword(keyword) is None:
        parser._resume_from(pos)  # pyright: ignore[reportPrivateUsage]
        return None
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def parse_type_list(parser: Parser) -> list[Attribute]:
    """`t1, t2` without delimiters."""
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def parse_result_types(parser: Parser) -> list[Attribute]:
    """`t` or `(t1, t2)` after `->`."""
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = parse_type_list(parser)
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


def parse_function_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    """`(t1, t2) -> t3` or `(t1) -> (t2, t3)`."""
    inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    parser.parse_punctuation("->")
    return inputs, parse_result_types(parser)


def parse_same_or_function_type(
    parser: Parser,
    n_operands: int,
    n_results: int = 1,
    infer: Callable[[list[Attribute]], list[Attribute]] | None = None,
) -> tuple[list[Attribute], list[Attribute]]:
    """StableHLO's `SameOperandsAndResultType`: `: t` or `: (t1, t2) -> t3`.

    In the short form `: t` the operands have type `t`; the results too, unless
    `infer` derives them from the operand types (e.g. `i1` for `is_finite`)."""
    parser.parse_punctuation(":")
    if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
        # `(t1, t2) -> t3`, unless it is a lone parenthesised type.
        pos = parser.pos
        inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if parser.parse_optional_punctuation("->") is not None:
            return inputs, parse_result_types(parser)
        parser._resume_from(pos)  # pyright: ignore[reportPrivateUsage]
    t = parser.parse_type()
    inputs = [t] * n_operands
    return inputs, (infer(inputs) if infer is not None else [t] * n_results)


def resolve(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute], pos: int
) -> list[SSAValue]:
    if len(operands) != len(types):
        parser.raise_error(
            f"expected {len(operands)} operand types but got {len(types)}", pos, parser.pos
        )
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]


def parse_attr_dict(parser: Parser) -> dict[str, Attribute]:
    """An optional `{...}` dictionary (pretty ops keep their remaining attributes there)."""
    return parser.parse_optional_attr_dict()


def build(
    cls: type[OpT],
    operands: Sequence[SSAValue | Sequence[SSAValue]],
    result_types: Sequence[Attribute | Sequence[Attribute]],
    attributes: dict[str, Attribute],
    regions: Sequence[object] = (),
) -> OpT:
    """Create `cls` from parsed parts, sending each attribute to a property when the
    op declares one of that name (as MLIR does for properties written in `{...}`)."""
    prop_names = set(cls.get_irdl_definition().properties)
    properties = {k: v for k, v in attributes.items() if k in prop_names}
    others = {k: v for k, v in attributes.items() if k not in prop_names}
    return cls.build(
        operands=list(operands),
        result_types=list(result_types),
        properties=properties,
        attributes=others,
        regions=list(regions),  # pyright: ignore[reportArgumentType]
    )


# ---------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------


def print_operands(printer: Printer, operands: Iterable[SSAValue]) -> None:
    printer.print_list(operands, printer.print_operand)


def print_int_list(printer: Printer, values: Iterable[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")




def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def print_function_type(
    printer: Printer, inputs: Sequence[Attribute], outputs: Sequence[Attribute]
) -> None:
    printer.print_string("(")
    print_types(printer, inputs)
    printer.print_string(") -> ")
    if len(outputs) == 1 and not isinstance(outputs[0], FunctionType):
        printer.print_attribute(outputs[0])
    else:
        printer.print_string("(")
        print_types(printer, outputs)
        printer.print_string(")")


def print_same_or_function_type(printer: Printer, op: Operation) -> None:
    """` : t` when all operand and result types agree, else ` : (...) -> ...`."""
    types = [*op.operand_types, *op.result_types]
    printer.print_string(" : ")
    if types and all(t == types[0] for t in types) and len(op.results) == 1:
        printer.print_attribute(types[0])
    else:
        print_function_type(printer, op.operand_types, op.result_types)


def print_attrs_and_function_type(
    printer: Printer, op: Operation, elided: Iterable[str] = ()
) -> None:
    """` {attrs} : (operand types) -> result types`: the tail of most pretty forms."""
    print_attr_dict(printer, op, elided)
    printer.print_string(" : ")
    print_function_type(printer, op.operand_types, op.result_types)


def parse_function_type_and_build(
    parser: Parser,
    cls: type[OpT],
    operands: Sequence[UnresolvedOperand],
    pos: int,
    attributes: dict[str, Attribute],
) -> OpT:
    """Read `: (operand types) -> result types` and create `cls` (see `build`)."""
    parser.parse_punctuation(":")
    in_types, out_types = parse_function_type(parser)
    return build(cls, resolve(parser, operands, in_types, pos), out_types, attributes)


def parse_operands_and_enum(
    parser: Parser,
    cls: type[OpT],
    keyword: str,
    enum: type[E],
    make_attr: Callable[[E], Attribute],
    prop: str,
) -> OpT:
    """`%a, %b, keyword = NAME {attrs}? : (types) -> types` (rng's distribution,
    rng_bit_generator's algorithm): the enum becomes property `prop`."""
    pos = parser.pos
    operands = parse_operand_list(parser)
    parser.parse_punctuation(",")
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    value = parser.parse_str_enum(enum)
    attrs = parse_attr_dict(parser)
    attrs[prop] = make_attr(value)
    return parse_function_type_and_build(parser, cls, operands, pos, attrs)


def print_operands_and_enum(printer: Printer, op: Operation, keyword: str, value: StrEnum, prop: str) -> None:
    """The form `parse_operands_and_enum` reads."""
    printer.print_string(" ")
    print_operands(printer, op.operands)
    printer.print_string(f", {keyword} = {value.value}")
    print_attrs_and_function_type(printer, op, [prop])


def print_attr_dict(printer: Printer, op: Operation, elided: Iterable[str] = ()) -> None:
    """Properties and attributes not spelled out by the pretty form, as ` {...}`."""
    skip = set(elided)
    merged = {k: v for k, v in op.properties.items() if k not in skip}
    merged.update({k: v for k, v in op.attributes.items() if k not in skip})
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(merged)

