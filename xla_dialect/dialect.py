"""The `xla` dialect: every op of the spec, its attributes and the token type."""

from __future__ import annotations

import importlib

from xdsl.ir import Attribute, Dialect, Operation

from xla_dialect import xdsl_compat  # noqa: F401  (installs MLIR's hex-float reading)
from xla_dialect.attributes import ALL_ATTRIBUTES
from xla_dialect.ops import FAMILIES
from xla_dialect.types import TokenType


def all_ops() -> tuple[type[Operation], ...]:
    """Every op class of the dialect, family by family (each module's `OPS`)."""
    ops: list[type[Operation]] = []
    for family in FAMILIES:
        module = importlib.import_module(f"xla_dialect.ops.{family}")
        ops.extend(module.OPS)
    return tuple(ops)


def all_attributes() -> tuple[type[Attribute], ...]:
    """The shared attributes plus any a family module declares in `ATTRIBUTES`."""
    attrs: list[type[Attribute]] = [*ALL_ATTRIBUTES, TokenType]
    for family in FAMILIES:
        module = importlib.import_module(f"xla_dialect.ops.{family}")
        attrs.extend(getattr(module, "ATTRIBUTES", ()))
    return tuple(attrs)


XLA = Dialect("xla", list(all_ops()), list(all_attributes()))
