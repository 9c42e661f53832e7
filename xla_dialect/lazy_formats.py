"""Declarative assembly formats compiled on first use (a start-up speed-up).

xDSL's `irdl_op_definition` parses an op's `assembly_format` into a `FormatProgram`
when the class is defined. A first compile defines ~200 op classes with a format
(arith, tensor, linalg, memref, vector, llvm, ...) but reads and prints few of them:
that parsing was ~0.12 CPU s of a first compile's ~1.2 s. `install_lazy_formats`
makes the decorator leave the format as text and give the class `parse` / `print`
methods that build the program the first time either is called, so the program an
op reads and prints with is the one xDSL would have built. An invalid format is
reported at that first use instead of at the class definition:
`tests/unit/test_lazy_formats.py` builds the program of every op class the
registered dialects define, so such a format still fails a test.

It must run before the dialects it should cover are imported: `xla_dialect/__init__.py`
installs it first.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import xdsl.irdl.operations as irdl_operations
from xdsl.irdl.operations import OpDef, PyRDLOpDefinitionError
from xdsl.utils.exceptions import ParseError

if TYPE_CHECKING:
    from xdsl.irdl.declarative_assembly_format import FormatProgram

_LAZY_MARK = "_xla_lazy_formats"


def _snapshot(op_def: OpDef) -> OpDef:
    """`op_def` as it is now, its lists and dicts copied: the project widens some
    definitions after the class is made (`arith.cmpf`'s result in `xdsl_compat`), and the
    format must be compiled against the definition the decorator saw, as xDSL's is.
    (A program reads the class's current definition when it parses, as xDSL's does.)"""
    snapshot = copy.copy(op_def)
    for field in dataclasses.fields(op_def):
        value = getattr(op_def, field.name)
        if isinstance(value, list | dict):
            setattr(snapshot, field.name, copy.copy(value))
    return snapshot


def _lazy_program(op_def: OpDef, text: str) -> Callable[[], FormatProgram]:
    """A function that parses `text` into the op's format program once, as xDSL's
    `get_accessors_from_op_def` does, and returns it."""
    program: list[FormatProgram] = []
    op_def = _snapshot(op_def)

    def get() -> FormatProgram:
        if not program:
            from xdsl.irdl.declarative_assembly_format import FormatProgram

            try:
                program.append(FormatProgram.from_str(text, op_def))
            except ParseError as e:
                raise PyRDLOpDefinitionError("Error during the parsing of the assembly format: ", e.args) from e
        return program[0]

    return get


def install_lazy_formats() -> None:
    """Make `irdl_op_definition` compile assembly formats on first use (idempotent)."""
    original = irdl_operations.get_accessors_from_op_def
    if getattr(original, _LAZY_MARK, False):
        return

    def get_accessors_from_op_def(op_def: OpDef, custom_verify: Any) -> dict[str, Any]:
        text = op_def.assembly_format
        if text is None:
            return original(op_def, custom_verify)
        op_def.assembly_format = None  # xDSL's accessors without the eager parse ...
        try:
            new_attrs = original(op_def, custom_verify)
        finally:
            op_def.assembly_format = text  # ... and the definition keeps its format
        program = _lazy_program(op_def, text)

        @classmethod
        def parse_with_format(cls: type[Any], parser: Any) -> Any:
            return program().parse(parser, cls)

        def print_with_format(self: Any, printer: Any) -> None:
            return program().print(printer, self)

        new_attrs["parse"] = parse_with_format
        new_attrs["print"] = print_with_format
        new_attrs["_xla_format_program"] = staticmethod(program)
        return new_attrs

    setattr(get_accessors_from_op_def, _LAZY_MARK, True)
    irdl_operations.get_accessors_from_op_def = get_accessors_from_op_def


def format_program(op_class: type[Any]) -> FormatProgram | None:
    """The compiled format program of an op class defined with a lazy format, else None
    (for the test that every format still compiles)."""
    get = op_class.__dict__.get("_xla_format_program")
    return None if get is None else get.__func__()


install_lazy_formats()

__all__ = ["format_program", "install_lazy_formats"]
