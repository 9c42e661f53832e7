"""Reading MLIR's debug locations where xDSL's parser cannot.

MLIR prints location aliases (`#loc12 = loc("x"(#loc3))`) after the module and
refers to them before they are defined: as an op's `loc(#loc12)`, inside another
location (`loc("sort:"(#loc13))` on a block argument, `callsite(#a at #b)`,
`fused[...]`) and on function arguments. It also prints source ranges
(`loc("f.py":3:4 to :9)`). xDSL resolves aliases only once defined and knows no
ranges. The project locates every op by its place in the text anyway, so such
locations are blanked out (replaced by spaces, so lines and columns stay) before
parsing; a plain `loc("file":1:2)` without aliases or ranges is left for the
parser, which keeps it as the op's location.
"""

from __future__ import annotations

import re

_ALIAS_DEFINITION = re.compile(r"#[A-Za-z_][\w$.-]*\s*=\s*loc\(")
_IDENTIFIER_CHAR = re.compile(r"[\w$.#%@-]")


def _skip_string(text: str, i: int) -> int:
    """The index just after the string literal that starts at `text[i] == '"'`."""
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return i


def _closing_paren(text: str, open_at: int) -> tuple[int, str]:
    """The index after the `)` matching `text[open_at] == '('`, and the text between
    them with string literals removed."""
    depth = 0
    i = open_at
    outside: list[str] = []
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            outside.append('""')
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1, "".join(outside)
        outside.append(ch)
        i += 1
    return i, "".join(outside)


def _blank(text: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if text[k] != "\n":
            text[k] = " "


def _unreadable(inner: str) -> bool:
    """A location xDSL cannot read: it names an alias or holds a source range."""
    return "#" in inner or re.search(r"(?<![\w$.])to(?![\w$.])", inner) is not None


def blank_location_aliases(text: str) -> str:
    """`text` with location alias definitions and the locations xDSL cannot read
    (those using aliases, source ranges) replaced by spaces."""
    if "loc(" not in text:
        return text
    out = list(text)
    i = 0
    line_start = True
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _skip_string(text, i)
            line_start = False
            continue
        if ch == "/" and text.startswith("//", i):
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
            continue
        if line_start and ch == "#" and (match := _ALIAS_DEFINITION.match(text, i)):
            end, _ = _closing_paren(text, match.end() - 1)
            _blank(out, i, end)
            i = end
            line_start = False
            continue
        if ch == "l" and text.startswith("loc(", i) and (i == 0 or not _IDENTIFIER_CHAR.match(text[i - 1])):
            end, inner = _closing_paren(text, i + 3)
            if _unreadable(inner):
                _blank(out, i, end)
            i = end
            line_start = False
            continue
        if ch == "\n":
            line_start = True
        elif not ch.isspace():
            line_start = False
        i += 1
    return "".join(out)


__all__ = ["blank_location_aliases"]
