"""StableHLO spelled programs read as `xla` programs, and print back.

The `xla` dialect follows StableHLO's op names, attribute mnemonics and pretty
syntax, so StableHLO needs no dialect of its own here: a `stablehlo.X` op is the
`xla.X` op, `#stablehlo<comparison_direction LT>` is `#xla<comparison_direction
LT>`, `#stablehlo.dot<...>` is `#xla.dot<...>` and `!stablehlo.token` is
`!xla.token`. `StablehloContext` resolves those names when the parser asks for
them, so the module holds ordinary `xla` ops (one definition each, one set of
verifiers, patterns and lowerings) whichever spelling the text used.

`to_stablehlo_text` is the way back: it respells the printed `xla` names that
StableHLO has (ops, attributes, types) as `stablehlo` ones, leaving string
literals alone. Ops StableHLO lacks (the spec's older forms such as
`xla.collapse` or `xla.rng_bernoulli`) keep their `xla` names, so the result
never claims an op StableHLO does not define.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredAttr
from xdsl.ir import Attribute, Operation, TypeAttribute

STABLEHLO_PREFIX = "stablehlo."
XLA_PREFIX = "xla."

# Ops of the xla dialect that StableHLO does not define (the spec's older or
# XLA-only forms); everything else in the dialect has a StableHLO namesake
# (`xla.broadcast` too: StableHLO keeps `stablehlo.broadcast`, `broadcast_sizes`).
XLA_ONLY_OPS: frozenset[str] = frozenset(
    {
        "xla.collapse",
        "xla.cross_replica_sum",
        "xla.rng_bernoulli",
        "xla.set_dimension_size",
    }
)


FOREIGN_EXCLUDED_DIALECTS: frozenset[str] = frozenset({"stablehlo", "chlo", "xla", "builtin"})
"""Dialects whose unknown attributes are errors, not foreign attributes."""

PARTIAL_DIALECTS: frozenset[str] = frozenset({"sdy"})
"""Dialects the project defines some ops of (`xla_dialect/sdy.py`) but none of whose
attributes: those are kept as foreign attributes."""


def is_foreign_attribute(name: str, registered: Iterable[str]) -> bool:
    """`#dialect.x` of a dialect this project does not define, such as Shardy's
    `#sdy.op_sharding_rule<...>` or `#mhlo.*`: read and kept as opaque text, as
    MLIR keeps the attributes of dialects it has not loaded when asked to."""
    dialect = name.split(".", 1)[0]
    if "." not in name or dialect in FOREIGN_EXCLUDED_DIALECTS:
        return False
    return dialect in PARTIAL_DIALECTS or dialect not in set(registered)


RESPELLED_OPS: dict[str, str] = {"xla.call": "func.call"}
"""`xla` ops StableHLO spells with another dialect's op."""


def xla_name(name: str) -> str | None:
    """The `xla` name a `stablehlo.*` name stands for, or None for other names."""
    if name.startswith(STABLEHLO_PREFIX):
        return XLA_PREFIX + name[len(STABLEHLO_PREFIX) :]
    return None


class StablehloContext(Context):
    """A context in which `stablehlo.*` ops, attributes and types resolve to the
    `xla` dialect's definitions (when the `xla` dialect has the name)."""

    def clone(self) -> StablehloContext:
        copy = StablehloContext(self.allow_unregistered)
        copy.__dict__.update(super().clone().__dict__)
        return copy

    def get_optional_op(self, name: str, *, dialect_stack: Sequence[str] = ()) -> type[Operation] | None:
        alias = xla_name(name)
        if alias is not None:
            allow, self.allow_unregistered = self.allow_unregistered, False
            try:
                found = super().get_optional_op(alias)
            finally:
                self.allow_unregistered = allow
            if found is not None:
                return found
        return super().get_optional_op(name, dialect_stack=dialect_stack)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        alias = xla_name(name)
        if alias is not None and (found := super().get_optional_attr(alias)) is not None:
            return found
        found = super().get_optional_attr(name)
        if found is None and is_foreign_attribute(name, self.registered_dialect_names):
            # Kept verbatim (parsed body text) and printed back as it was read.
            return UnregisteredAttr.with_name_and_type(name, False)
        return found

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        alias = xla_name(name)
        if alias is not None and (found := super().get_optional_type(alias)) is not None:
            return found
        return super().get_optional_type(name)


# A string literal (skipped), or an xla op name (bare or quoted), attribute
# (`#xla<` / `#xla.`) or type (`!xla.`) reference.
_XLA_NAME = re.compile(
    r'(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<sigil>[#!])xla(?P<sep>[<.])"
    r"|(?<![\w.$@-])(?P<op>xla\.[a-z_][a-z0-9_]*)(?![\w.])"
)


def explicit_broadcasts(module: Operation) -> None:
    """Make the spec's implicit broadcasts of binary ops explicit, in place:
    StableHLO's binary ops take operands of the result's shape only, so a rank-0,
    lower-rank (`broadcast_dimensions`) or size-1-dimensioned operand becomes an
    `xla.broadcast_in_dim` to the result's shape first."""
    from xla_dialect.ops.elementwise import BroadcastingBinaryOp
    from xla_dialect.ops.shape import BroadcastInDimOp
    from xla_dialect.types import shape_of

    for op in list(module.walk()):
        if not isinstance(op, BroadcastingBinaryOp):
            continue
        shape = tuple(shape_of(op.results[0].type))
        placed = op._broadcast_dims()  # pyright: ignore[reportPrivateUsage]
        for index, operand in enumerate(op.operands):
            own = tuple(shape_of(operand.type))
            if own == shape:
                continue
            if len(own) == len(shape):
                dims: Sequence[int] = range(len(own))
            elif not own:
                dims = ()
            else:
                dims = placed or range(len(shape) - len(own), len(shape))
            broadcast = BroadcastInDimOp(operand, shape, list(dims))
            broadcast.location = op.location
            op.parent_block().insert_op_before(broadcast, op)  # pyright: ignore[reportOptionalMemberAccess]
            op.operands[index] = broadcast.results[0]
        op.properties.pop("broadcast_dimensions", None)


def to_stablehlo_text(text: str) -> str:
    """Respell printed `xla` ops, attributes and types with StableHLO's names
    (`xla.call` is `func.call`: StableHLO calls functions with func's op)."""

    def respell(match: re.Match[str]) -> str:
        if match.group("string") is not None:
            literal = match.group("string")
            inner = literal[1:-1]
            is_op_name = text.startswith("(", match.end())  # generic form: `"xla.add"(...)`
            if is_op_name and inner in RESPELLED_OPS:
                return f'"{RESPELLED_OPS[inner]}"'
            if is_op_name and inner.startswith(XLA_PREFIX) and inner not in XLA_ONLY_OPS:
                return f'"{STABLEHLO_PREFIX}{inner[len(XLA_PREFIX):]}"'
            return literal
        if match.group("sigil") is not None:
            return f"{match.group('sigil')}stablehlo{match.group('sep')}"
        op = match.group("op")
        if op in RESPELLED_OPS:
            return RESPELLED_OPS[op]
        return op if op in XLA_ONLY_OPS else STABLEHLO_PREFIX + op[len(XLA_PREFIX) :]

    return _XLA_NAME.sub(respell, text)


__all__ = ["RESPELLED_OPS", "XLA_ONLY_OPS", "StablehloContext", "explicit_broadcasts", "is_foreign_attribute", "to_stablehlo_text", "xla_name"]
