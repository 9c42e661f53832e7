"""`FastLexer` forms the tokens xDSL's `MLIRLexer` forms (kinds and spans), on the
project's examples, exported programs and lit files and on text made to hit the edges of its
fast path (comments, `->` against `-`, `#-}`, names xDSL rejects), and raises where
xDSL raises."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xla_dialect.fast_lexer import FastLexer

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "examples").rglob("*.mlir")) + sorted((ROOT / "tests" / "lit").rglob("*.mlir"))

EDGES = [
    "%0 = stablehlo.add %a, %b : tensor<2x3xf32>",
    "func.func @f(%arg0: tensor<?x4xi32>) -> (tensor<4xi32>, !stablehlo.token) {",
    "%x-1 %12ab %$v %_.- ^bb0 !llvm.ptr a->b a - > b -1 -> -",
    "// a comment\n  %r = // another -> here\n xla.tanh %r",
    "{-# dialect_resources: {} #-} #map = affine_map<(d0) -> (d0)>",
    'x = dense<[1.5, -2.0e+3, 0x7F800000]> : tensor<3xf32> "s\\n" @"q" ... ?|*+=',
    "\t\f\v\r\n  ",
    "",
    "éa",
]


def _tokens(lexer_cls: type[MLIRLexer], text: str) -> list[tuple[MLIRTokenKind, int, int]]:
    lexer = lexer_cls(Input(text, "t"))
    out = []
    while True:
        token = lexer.lex()
        out.append((token.kind, token.span.start, token.span.end))
        if token.kind == MLIRTokenKind.EOF:
            return out


@pytest.mark.parametrize("text", EDGES)
def test_edges_lex_as_xdsl_lexes(text: str) -> None:
    try:
        expected = _tokens(MLIRLexer, text)
    except ParseError as err:
        with pytest.raises(ParseError) as ours:
            _tokens(FastLexer, text)
        assert str(ours.value) == str(err)
        return
    assert _tokens(FastLexer, text) == expected


@pytest.mark.parametrize("text", ["%", "% x", "^", "a . b", "a $"])
def test_xdsls_errors(text: str) -> None:
    with pytest.raises(ParseError) as theirs:
        _tokens(MLIRLexer, text)
    with pytest.raises(ParseError) as ours:
        _tokens(FastLexer, text)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_programs_lex_as_xdsl_lexes(path: Path) -> None:
    text = path.read_text()
    try:
        expected = _tokens(MLIRLexer, text)
    except ParseError as err:  # a lit file of invalid input
        with pytest.raises(ParseError) as ours:
            _tokens(FastLexer, text)
        assert str(ours.value) == str(err)
        return
    assert _tokens(FastLexer, text) == expected


def test_the_programs_are_there() -> None:
    assert len(PROGRAMS) >= 5
