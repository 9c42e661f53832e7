"""`paused_collection()`: no cyclic garbage collection while a module compiles.

The IR is a graph of millions of small objects with reference cycles (ops point at
their blocks and back); while a compile builds it, CPython's generational collector
runs again and again over the objects that survive, which cost a third of the
compile time of a 3,000-op transformer (13.7 → 9.5 CPU s). Reference counting still
frees what is not in a cycle; the cycles a compile leaves are collected after it,
by the collector resuming as usual (measured: +10 % peak memory at 1,000 ops).

Nested and concurrent compiles share one pause: the collector resumes when the last
of them ends, and only if it was on when the first began."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused_collection() -> Iterator[None]:
    global _depth, _was_enabled
    with _LOCK:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


__all__ = ["paused_collection"]
