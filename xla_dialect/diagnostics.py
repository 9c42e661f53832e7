"""Verifier errors of the `xla` dialect.

A verifier states a rule of the spec; when it is broken it raises `XlaVerifyError`
with a message that names the argument and the rule, e.g.
`permutation [0, 0] is not a permutation of [0, 1]`. Drivers prefix the op name
(`'xla.transpose' op ...`) and the source location.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.utils.exceptions import VerifyException


class XlaVerifyError(VerifyException):
    """A rule of the spec that an op breaks."""


def require(condition: bool, message: str) -> None:
    """Raise a verifier error when `condition` is false; the message names the rule."""
    if not condition:
        raise XlaVerifyError(message)


def fmt_list(values: Iterable[int]) -> str:
    """`[0, 1]`, as messages and MLIR print integer lists."""
    return "[" + ", ".join(str(v) for v in values) + "]"
