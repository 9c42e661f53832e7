"""Reading and verifying `xla` programs with source locations.

xDSL's parser does not remember where an op came from; `LocatingParser` records
each op's `file:line:col` as its location (unless the text gave a `loc(...)`), so
verifier errors can point at the offending line, as MLIR's do. `verify_all`
verifies every op (innermost first), collecting one diagnostic per failing op
instead of stopping at the first.
"""

from __future__ import annotations

import re
import struct
from bisect import bisect_right
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Attribute, Operation, Region, SSAValue, TypeAttribute
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xla_dialect import xdsl_compat  # noqa: F401  (MLIR's reading of hex float literals)
from xla_dialect.fast_construction import unverified
from xla_dialect.fast_lexer import FastLexer
from xla_dialect.locations import blank_location_aliases

_PLAIN_TENSOR_TYPE = re.compile(r"tensor<(?:[0-9?]+x)*[a-z][a-z0-9]*>")
"""A ranked tensor type of a builtin element type, without encoding (`tensor<16x32xf32>`)."""

_SHORT_DENSE_LITERAL = re.compile(r"dense<[^<>\"\n]{0,64}>\s*:\s*tensor<(?:[0-9?]+x)*[a-z][a-z0-9]*>")
"""A short dense literal of a plain tensor type (`dense<0.000000e+00> : tensor<f32>`),
without strings or nested brackets."""


class LocatingParser(Parser):
    """A parser that stamps each op with the `file:line:col` it was read from.

    Its lexer reads the common tokens with one regular expression
    (`xla_dialect/fast_lexer.py`). It also reads each distinct plain tensor type
    once: a JAX export spells the same few types tens of thousands of times, and xDSL reads each token by token
    (a third of the time to read a module). Types are values, so the one read
    stands for every later spelling of the same text; so do short dense literals.

    With `reuse_lines` (the default) it also builds the op of a line whose form (its
    text but for value names) it read before, with operands of the same types, from
    what it read then (`_reuse_line`): a JAX export repeats its layers' lines, and
    building the op that way costs a fraction of reading it."""

    line_offset: int = 0

    def __init__(self, ctx: Context, input: str, name: str = "<unknown>", *, reuse_lines: bool = True) -> None:
        text = blank_location_aliases(input)
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(FastLexer(Input(text, name)))  # pyright: ignore[reportPrivateUsage]
        self._name = StringAttr(name)
        self._line_ends: list[int] | None = None
        self._text = text
        self._tensor_types: dict[str, TypeAttribute] = {}
        self._dense_literals: dict[str, Attribute] = {}
        self._reuse_lines = reuse_lines
        self._line_forms: dict[tuple[str, tuple[str, ...]], _LineForm | None] = {}
        self._columns: dict[int, IntAttr] = {}
        self.reused_lines = 0
        """How many ops were built from the form of an earlier line (`_reuse_line`)."""

    def _read_once(self, pattern: re.Pattern[str], known: dict[str, Any], parse: Callable[[], Any]) -> Any:
        """What `parse` reads at the current token, read once per distinct text that
        `pattern` matches there: types and attributes are values, so the first read
        stands for every later spelling of the same text."""
        start = self._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        match = pattern.match(self._text, start)
        if match is None:
            return parse()
        found = known.get(match.group())
        if found is not None:
            self.lexer.pos = match.end()
            self._parser_state.current_token = self.lexer.lex()  # pyright: ignore[reportPrivateUsage]
            return found
        parsed = parse()
        following = self._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        if parsed is not None and not self._text[match.end() : following].strip():
            known[match.group()] = parsed
        return parsed

    def parse_optional_type(self) -> TypeAttribute | None:
        return self._read_once(_PLAIN_TENSOR_TYPE, self._tensor_types, super().parse_optional_type)

    def parse_optional_attribute(self) -> Attribute | None:
        """Also reads each distinct short dense literal once (a JAX export spells the
        same few scalar constants thousands of times)."""
        return self._read_once(_SHORT_DENSE_LITERAL, self._dense_literals, super().parse_optional_attribute)

    def _line_col(self, pos: int) -> tuple[int, int]:
        """The 1-based line and column of `pos`, by bisection in the line ends found
        once (xDSL's `Span.get_location` counts the newlines before each op: quadratic)."""
        if self._line_ends is None:
            self._line_ends = [m.start() for m in re.finditer("\n", self._text)]
        line = bisect_right(self._line_ends, pos - 1)
        start = self._line_ends[line - 1] + 1 if line else 0
        return line + 1, pos - start + 1

    def _location(self, line: int, col: int) -> FileLineColLoc:
        """`FileLineColLoc(file, line + line_offset, col)`, its parameters set without
        verifying them again (a `StringAttr` and two `IntAttr`s, valid by construction:
        verifying them was a third of building a reused line's op)."""
        column = self._columns.get(col)
        if column is None:
            column = self._columns[col] = IntAttr(col)
        return unverified(FileLineColLoc, filename=self._name, line=IntAttr(line + self.line_offset), column=column)

    def _line_form(self, start: int) -> tuple[tuple[str, tuple[str, ...]], list[str], int] | None:
        """The form of the op line starting at `start` (`%r = stablehlo.add %a, %b : t`):
        its text with every value name replaced by `%`, with the dialect stack; its
        names (the result's first); the end of the line. None: not one line of one
        named result, or a line whose names could be anything else (strings,
        comments, tuple indices, block names)."""
        text = self._text
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        line = text[start:end]
        if '"' in line or "//" in line or "^" in line or "loc(" in line:
            return None
        parts = _VALUE_NAME.split(line)
        if len(parts) < 3 or parts[0] or not parts[2].startswith(" = "):
            return None
        texts = parts[0::2]
        if any(t.startswith("#") for t in texts):
            return None
        stack = tuple(self._parser_state.dialect_stack)  # pyright: ignore[reportPrivateUsage]
        return ("%".join(texts), stack), parts[1::2], end

    def _reuse_line(self, start: int) -> Operation | None:
        """The op of the line at `start` built from the form of an earlier line of the
        same text but for value names, whose operands had the same types (what the
        op's parser reads is then the same, so it builds the same op); None when this
        line has no known form or an operand is not defined yet (the parser reads it)."""
        found = self._line_form(start)
        if found is None:
            return None
        key, names, end = found
        form = self._line_forms.get(key)
        if form is None:
            return None
        operands: list[SSAValue] = []
        ssa_values = self.ssa_values
        for name, expected in zip(names[1:], form.operand_types):
            values = ssa_values.get(name[1:])
            if not values or values[0].type != expected:
                return None
            operands.append(values[0])
        line, col = self._line_col(start)
        op = form.op_type.create(
            operands=operands,
            result_types=form.result_types,
            properties=form.properties,
            attributes=form.attributes,
            location=self._location(line, col),
            regions=[region.clone() for region in form.regions],
        )
        result = names[0]
        self.lexer.pos = end
        self._parser_state.current_token = self.lexer.lex()  # pyright: ignore[reportPrivateUsage]
        self._register_ssa_definition(result[1:], op.results, Span(start, start + len(result), self.lexer.input))  # pyright: ignore[reportPrivateUsage]
        self.reused_lines += 1
        return op

    def _learn_line(self, start: int, op: Operation, location_given: bool) -> None:
        """Remember the form of the line at `start` that read as `op`, if `op` is all of
        it, with no successors, one result and operands named in order, and regions (a
        reduction's `applies xla.add`) that use only their own values and whose ops have
        no location (their copies have none either)."""
        found = self._line_form(start)
        if found is None or location_given:
            return
        key, names, end = found
        if key in self._line_forms or op.successors or len(op.results) != 1:
            return
        if op.regions and not _closed_and_unlocated(op):
            return
        following = self._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        if following < end or (following == end and end < len(self._text)) or self._text[end:following].strip():
            return  # the op is not all of its line (more follows it there, or it goes on)
        if names[0] in names[1:] or len(names) - 1 != len(op.operands):
            return
        for name, operand in zip(names[1:], op.operands):
            values = self.ssa_values.get(name[1:])
            if not values or values[0] is not operand:
                return
        self._line_forms[key] = _LineForm(
            type(op),
            tuple(v.type for v in op.operands),
            tuple(r.type for r in op.results),
            dict(op.properties),
            dict(op.attributes),
            tuple(region.clone() for region in op.regions),
        )

    def parse_operation(self) -> Operation:
        span = self._current_token.span  # pyright: ignore[reportPrivateUsage]
        learn = False
        if self._reuse_lines and self._current_token.kind is MLIRTokenKind.PERCENT_IDENT:  # pyright: ignore[reportPrivateUsage]
            reused = self._reuse_line(span.start)
            if reused is not None:
                return reused
            learn = True
        try:
            op = super().parse_operation()
        except VerifyException as err:
            # An attribute or type that its own verifier rejects while being read.
            self.raise_error(str(err).splitlines()[0] if str(err) else repr(err), span.start, self.pos)
        except (IndexError, KeyError, TypeError, ValueError, OverflowError, AssertionError, struct.error) as err:
            # A custom syntax that met text it did not foresee: still a located error
            # (each such case found is fixed at its parser and gets a regression test).
            what = "a value out of range for its type" if isinstance(err, struct.error) else type(err).__name__
            self.raise_error(f"malformed operation: {what}: {err}", span.start, self.pos)
        location_given = not isinstance(op.location, UnknownLoc)
        if not location_given:
            line, col = self._line_col(span.start)
            op.location = self._location(line, col)
        if learn:
            self._learn_line(span.start, op, location_given)
        return op


_VALUE_NAME = re.compile(r"(%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))")
"""A value name as the lexer reads it (`%0`, `%arg3`, `%cst_1`)."""


def _closed_and_unlocated(op: Operation) -> bool:
    """The ops nested in `op` have no location and use only values defined in `op`'s
    regions."""
    inner = [o for region in op.regions for o in region.walk()]
    defined: set[SSAValue] = {r for o in inner for r in o.results}
    defined.update(a for region in op.regions for block in region.blocks for a in block.args)
    for o in inner:
        if not isinstance(o.location, UnknownLoc) or o.successors:
            return False
        if any(v not in defined for v in o.operands):
            return False
    return True


@dataclass(frozen=True)
class _LineForm:
    """What the op of a line of some form was read as: its class, its operands'
    types, its result types, properties and attributes (values, shared)."""

    op_type: type[Operation]
    operand_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]
    regions: tuple[Region, ...]
    """Copies of its regions (each reuse copies them again)."""


SPLIT_MARKER = "// -----"
"""Separates the chunks of a `--split-input-file` text (as in mlir-opt)."""


def split_input(text: str) -> list[tuple[str, int]]:
    """The chunks of a `--split-input-file` text, each with the number of lines
    before it (to report lines of the whole file)."""
    chunks: list[tuple[str, int]] = []
    offset = 0
    for part in text.split(SPLIT_MARKER):
        chunks.append((part, offset))
        offset += part.count("\n")
    return chunks


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect and the project's dialects, loaded lazily;
    `stablehlo.*` names read as their `xla` namesakes."""
    from xla_dialect.registry import get_all_dialects
    from xla_dialect.stablehlo import StablehloContext

    ctx = StablehloContext(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


@dataclass(frozen=True)
class SourceDiagnostic:
    """An error at a place in the source: `file:line:col: error: message`."""

    file: str
    line: int
    column: int
    message: str
    source_line: str = ""

    def render(self) -> str:
        text = f"{self.file}:{self.line}:{self.column}: error: {self.message}"
        if self.source_line:
            text += f"\n{self.source_line}\n{' ' * (self.column - 1)}^"
        return text


def op_diagnostic(op: Operation, message: str, source: str | None = None) -> SourceDiagnostic:
    """A diagnostic for `op`, at its recorded location; `'xla.x' op` prefixes the message."""
    text = f"'{op.name}' op {message}"
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        line = loc.line.data
        src_line = ""
        if source is not None:
            lines = source.splitlines()
            if 0 < line <= len(lines):
                src_line = lines[line - 1]
        return SourceDiagnostic(loc.filename.data, line, loc.column.data, text, src_line)
    return SourceDiagnostic("<unknown>", 0, 0, text)


def parse_error_diagnostic(err: ParseError, line_offset: int = 0) -> SourceDiagnostic:
    """A parse error at its place; `line_offset` shifts a chunk's lines to the file's."""
    where = err.span.get_location()
    content = err.span.input.content
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
    lines = text.splitlines()
    src_line = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
    return SourceDiagnostic(
        str(where.file), where.line + line_offset, where.col, err.msg, src_line
    )


def _strip_note(message: str) -> str:
    # xDSL wraps a custom verifier's error as "Operation does not verify: <message>".
    prefix = "Operation does not verify: "
    return message.removeprefix(prefix)


def _verification_key(op: Operation) -> Hashable | None:
    """What the verification of an `xla` op depends on, when that is only the op
    itself: its class, operand and result types, properties, attributes and the class
    of its parent (`HasParent` traits), for an op with no regions or successors that
    does not end its block (xDSL checks terminators there). Else None.

    The dialect's verifiers check types and attributes and never look at the ops that
    define the operands, so an op with the key of one verified before in the same
    module verifies too (so does a `func.call`: xDSL checks its operand and result
    types against its callee's, the same function for the same callee attribute within
    one module; a JAX MLP calls its `@relu` once per layer): a JAX export repeats the same few ops thousands of times
    (each verified alone was a third of reading the 10,010-op transformer).

    An op with regions (a reduction's `applies xla.add`) has a key when its regions
    hold only ops without regions or successors that use values of their own block:
    the key then also holds each block's argument types and, for each of its ops, its
    class, where its operands come from (an argument or an earlier result, by
    position), its result types, properties and attributes."""
    if op.successors or not (op.name.startswith("xla.") or op.name == "func.call") or op.next_op is None:
        return None
    regions: tuple[Hashable, ...] = ()
    if op.regions:
        shape = _regions_shape(op)
        if shape is None:
            return None
        regions = shape
    return (
        type(op),
        tuple([v.type for v in op.operands]),
        tuple([r.type for r in op.results]),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
        type(op.parent_op()),
        regions,
    )


def _regions_shape(op: Operation) -> tuple[Hashable, ...] | None:
    """The blocks of `op`'s regions as `_verification_key` describes them, or None."""
    shape: list[Hashable] = []
    for region in op.regions:
        for block in region.blocks:
            where: dict[SSAValue, tuple[str, int, int]] = {a: ("arg", a.index, 0) for a in block.args}
            ops: list[Hashable] = [tuple(a.type for a in block.args)]
            for index, inner in enumerate(block.ops):
                if inner.regions or inner.successors:
                    return None
                sources = []
                for operand in inner.operands:
                    source = where.get(operand)
                    if source is None:
                        return None
                    sources.append(source)
                for result in inner.results:
                    where[result] = ("result", index, result.index)
                ops.append(
                    (
                        type(inner),
                        tuple(sources),
                        tuple(r.type for r in inner.results),
                        tuple(inner.properties.items()),
                        tuple(inner.attributes.items()),
                    )
                )
            shape.append(tuple(ops))
        shape.append("end of region")
    return tuple(shape)


def verify_all(module: Operation, source: str | None = None) -> list[SourceDiagnostic]:
    """Verify every op, innermost first; an op whose nested ops failed is not verified
    again (its own error would only echo theirs)."""
    from xla_dialect.structure import StructureChecker

    diagnostics: list[SourceDiagnostic] = []
    structure = StructureChecker()
    verified: set[Hashable] = set()

    def visit(op: Operation) -> bool:
        ok = True
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    ok = visit(inner) and ok
        if not ok:
            return False
        broken = structure.errors(op)  # dominance, symbols, upstream ops' invariants
        for culprit, message in broken:
            diagnostics.append(op_diagnostic(culprit, message, source))
        if broken:
            return False
        key = _verification_key(op)
        try:
            if key is not None and key in verified:
                return True
        except TypeError:  # an attribute that cannot be hashed: verified as any other op
            key = None
        try:
            op.verify(verify_nested_ops=False)
            if key is not None:
                verified.add(key)
        except VerifyException as err:
            message = _strip_note(str(err.args[0]) if err.args else str(err))
            diagnostics.append(op_diagnostic(op, message, source))
            return False
        except Exception as err:  # noqa: BLE001 - a verifier that crashes is a bug; still report it
            diagnostics.append(
                op_diagnostic(op, f"verifier crashed: {type(err).__name__}: {err}", source)
            )
            return False
        return True

    visit(module)
    return diagnostics


class XlaProgramError(Exception):
    """Parsing or verification failed; `diagnostics` say where and why."""

    def __init__(self, diagnostics: list[SourceDiagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


def parse_module(
    text: str,
    filename: str = "<string>",
    ctx: Context | None = None,
    verify: bool = True,
) -> ModuleOp:
    """Read (and by default verify) a module; raises `XlaProgramError` on bad input."""
    ctx = ctx or make_context()
    try:
        module = LocatingParser(ctx, text, filename).parse_module()
    except ParseError as err:
        raise XlaProgramError([parse_error_diagnostic(err)]) from None
    if verify:
        diagnostics = verify_all(module, text)
        if diagnostics:
            raise XlaProgramError(diagnostics)
    return module
