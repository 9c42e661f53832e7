"""Verifier errors of the `xla` dialect.

A verifier states a rule of the spec; when it is broken it raises `XlaVerifyError`
with a message that names the argument and the rule, e.g.
`permutation [0, 0] is not a permutation of [0, 1]`. Drivers prefix the op name
(`'xla.transpose' op ...`) and the source location.

`LoweringError` is the error of a transformation or lowering that cannot handle
an op (`op` is the culprit; drivers print its location). It is defined here, on
the dialect's floor, so that `passes/` and `lowering/` share it without
importing each other.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, VerifyException


class XlaVerifyError(VerifyException):
    """A rule of the spec that an op breaks."""


class LoweringError(DiagnosticException):
    """An op a pass or the conversion to LLVM cannot handle; `op` is the culprit."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


def require(condition: bool, message: str) -> None:
    """Raise a verifier error when `condition` is false; the message names the rule."""
    if not condition:
        raise XlaVerifyError(message)


def fmt_list(values: Iterable[int]) -> str:
    """`[0, 1]`, as messages and MLIR print integer lists."""
    return "[" + ", ".join(str(v) for v in values) + "]"
