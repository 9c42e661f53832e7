"""The table of the `xla` canonicalization patterns, by op name.

Ops reach their patterns through the `XlaCanonicalization` trait (`traits.py`),
which reads this table; the patterns themselves are transformations and live in
`passes/canonicalization.py`, which registers them here when it is imported
(importing `passes` does, and so does the pass registry before it hands out
`canonicalize`). So the dialect imports nothing from the passes above it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from xdsl.pattern_rewriter import RewritePattern

_PATTERNS: dict[str, tuple[RewritePattern, ...]] = {}
_LOCK = threading.Lock()


def register_patterns(op_names: Iterable[str], pattern: RewritePattern) -> None:
    """Make `pattern` one of the canonicalization patterns of each op in `op_names`
    (after those registered before it)."""
    with _LOCK:
        for name in op_names:
            _PATTERNS[name] = (*_PATTERNS.get(name, ()), pattern)


def patterns_for(op_name: str) -> tuple[RewritePattern, ...]:
    """The canonicalization patterns registered for the `xla` op called `op_name`."""
    return _PATTERNS.get(op_name, ())


__all__ = ["patterns_for", "register_patterns"]
