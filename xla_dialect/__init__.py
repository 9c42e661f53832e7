"""XLA's operation semantics as an MLIR-style dialect on xDSL.

`XLA` is the dialect; `make_context()` gives a context with it and every xDSL
dialect registered; `parse_module(text)` reads a module and verifies it.
"""

from xla_dialect import lazy_formats  # noqa: F401  (first: the dialects below define their ops with it)
from xla_dialect.context import make_context, parse_module
from xla_dialect.dialect import XLA

__all__ = ["XLA", "make_context", "parse_module"]
