"""The symbols an op names: the root names of the `SymbolRefAttr`s in its properties and
attributes, inside arrays and dictionaries too (callees, addresses taken, ...)."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation


def note_symbols(attribute: Attribute, names: set[str]) -> None:
    """Add to `names` the root names of the symbol references `attribute` holds."""
    if isinstance(attribute, SymbolRefAttr):
        names.add(attribute.root_reference.data)
    elif isinstance(attribute, ArrayAttr):
        for element in attribute.data:
            note_symbols(element, names)
    elif isinstance(attribute, DictionaryAttr):
        for element in attribute.data.values():
            note_symbols(element, names)


def referenced_symbols(op: Operation) -> set[str]:
    """The root names of the symbol references of `op` and the ops nested in it."""
    names: set[str] = set()
    for inner in op.walk():
        for attribute in inner.properties.values():
            note_symbols(attribute, names)
        for attribute in inner.attributes.values():
            note_symbols(attribute, names)
    return names


__all__ = ["note_symbols", "referenced_symbols"]
