"""`FastLexer`: xDSL 0.74's MLIR lexer with one regular expression for the common tokens.

xDSL's `MLIRLexer.lex` skips whitespace with one regular expression, then reads the
token's first character and dispatches on it through a chain of tests, building a
table of punctuation on every call: a quarter of reading a JAX export, whose ~20
tokens a line are nearly all bare identifiers (`stablehlo.add`, `tensor`), `%`
names, `->` and single-character punctuation. `FastLexer.lex` matches whitespace and
one such token with a single expression and forms the token xDSL would form (same
kind, same span); anything else (comments, numbers, strings, `@`/`#` names, `-`,
`{`, `.`, the end of the input) goes to xDSL's `lex` from the same position, so
errors and rare tokens are xDSL's. `tests/unit/test_fast_lexer.py` compares the
token streams of both lexers.
"""

from __future__ import annotations

import re

from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

_COMMON = re.compile(
    r"[ \t\n\r\f\v]*"  # xDSL's whitespace (`\s` in ASCII mode), without comments
    r"([A-Za-z_][A-Za-z0-9_$.]*"  # bare identifier
    r"|[%^!](?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)"  # percent, caret, exclamation names
    r"|->"
    r"|[:,()}\[\]<>=+*?|])"  # punctuation that starts no longer token ('/' may start a comment)
)

_KIND_BY_FIRST: dict[str, MLIRTokenKind] = {
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "}": MLIRTokenKind.R_BRACE,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "+": MLIRTokenKind.PLUS,
    "*": MLIRTokenKind.STAR,
    "?": MLIRTokenKind.QUESTION,
    "|": MLIRTokenKind.VERTICAL_BAR,
    "-": MLIRTokenKind.ARROW,
    "%": MLIRTokenKind.PERCENT_IDENT,
    "^": MLIRTokenKind.CARET_IDENT,
    "!": MLIRTokenKind.EXCLAMATION_IDENT,
}
"""The kind of a token `_COMMON` matched, by its first character (else a bare identifier)."""


class FastLexer(MLIRLexer):
    """xDSL's MLIR lexer, the common tokens read by one regular expression."""

    def lex(self) -> MLIRToken:
        match = _COMMON.match(self.input.content, self.pos)
        if match is None:
            return super().lex()
        start, end = match.span(1)
        self.pos = end
        kind = _KIND_BY_FIRST.get(self.input.content[start], MLIRTokenKind.BARE_IDENT)
        return Token(kind, Span(start, end, self.input))


__all__ = ["FastLexer"]
