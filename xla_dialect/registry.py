"""Name → factory maps of the dialects the project's tools load (lazily, as xDSL does)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def _xla() -> Dialect:
    from xla_dialect.dialect import XLA

    return XLA


def _check() -> Dialect:
    from xla_dialect.check import CHECK

    return CHECK


def _chlo() -> Dialect:
    from xla_dialect.chlo import CHLO

    return CHLO


def _interpreter() -> Dialect:
    from xla_dialect.interpreter import INTERPRETER

    return INTERPRETER


def _sdy() -> Dialect:
    from xla_dialect.sdy import SDY

    return SDY


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Every xDSL dialect plus the project's: `xla` and `check` (test expectations)."""
    from xdsl.dialects import get_all_dialects as xdsl_dialects

    dialects = dict(xdsl_dialects())
    dialects["xla"] = _xla
    dialects["check"] = _check
    dialects["interpreter"] = _interpreter
    dialects["chlo"] = _chlo
    dialects["sdy"] = _sdy
    return dialects
