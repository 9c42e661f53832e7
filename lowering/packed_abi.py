"""The packed entry: how the host calls a function with more arrays than ctypes passes.

ctypes calls a foreign function with at most `MAX_CTYPES_ARGUMENTS` arguments (a JAX MLP
of 2,500 ops has more arrays in and out). Such a function `f` is called through
`@__xla_packed.f(ptr %args)`, which takes one array of the pointers, in `f`'s order.
`llvm-split-large-functions` defines it when it cuts `f` into parts (the parts read the
arguments they use from the array), and erases `f` itself when nothing in the module
calls it (the host cannot: the runtime calls the packed entry); otherwise the runtime adds one that loads the
pointers and calls `f` (`runtime.jit.packed_entries`). Both sides read this module, so
neither imports the other.
"""

from __future__ import annotations

MAX_CTYPES_ARGUMENTS = 1024
"""ctypes calls a foreign function with at most this many arguments."""

PACKED_PREFIX = "__xla_packed."
"""Prefix of the packed entry of a function with more pointer parameters than ctypes
passes: it takes one array of the pointers."""

__all__ = ["MAX_CTYPES_ARGUMENTS", "PACKED_PREFIX"]
