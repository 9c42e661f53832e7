"""Shared machinery of `xla` ops: the base class and the checks many verifiers use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, traits_def

from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.traits import XlaCanonicalization
from xla_dialect.types import (
    ELEMENT_TYPE_CLASSES,
    element_type_of,
    format_type,
    is_element_type,
    is_tensor,
    shape_of,
    shapes_compatible,
)


class XlaOp(IRDLOperation):
    """Base of every `xla` op.

    Subclasses state the spec's rules in `verify_` with `require(...)`, each message
    naming the argument and the rule; result types the spec determines are inferred
    by a static `infer_result_types` and checked against the declared ones.
    """

    SPEC_SECTION: ClassVar[str] = ""
    """Heading of the spec section the op implements (`operation_semantics.md`)."""

    traits = traits_def(XlaCanonicalization())

    def check_result_types(self, inferred: Sequence[Attribute]) -> None:
        """The declared result types are those the spec determines."""
        declared = list(self.result_types)
        require(
            len(declared) == len(inferred),
            f"expected {len(inferred)} results but the op declares {len(declared)}",
        )
        for index, (have, want) in enumerate(zip(declared, inferred, strict=True)):
            ok = have == want or (
                is_tensor(have)
                and is_tensor(want)
                and element_type_of(have) == element_type_of(want)
                and shapes_compatible(shape_of(have), shape_of(want))
            )
            if not ok:  # (messages are formatted only when a check fails: verifying is per op)
                name = "result type" if len(declared) == 1 else f"result #{index} type"
                require(ok, f"{name} {format_type(have)} does not match the inferred {format_type(want)}")


def check_tensor(value_name: str, t: Attribute) -> None:
    if not (is_tensor(t) and is_element_type(element_type_of(t))):
        require(False, f"{value_name} must be a tensor of a primitive type, got {format_type(t)}")


def check_element_class(value_name: str, t: Attribute, type_class: str) -> None:
    """The element type of `t` belongs to one of the spec's classes (`ELEMENT_TYPE_CLASSES`)."""
    description, predicate = ELEMENT_TYPE_CLASSES[type_class]
    element = element_type_of(t) if is_tensor(t) else t
    if not (callable(predicate) and bool(predicate(element))):  # pyright: ignore
        require(False, f"{value_name} element type {format_type(element)} is not {description}")


def check_same_element_type(names: Sequence[str], types: Sequence[Attribute]) -> None:
    first = element_type_of(types[0])
    for name, t in zip(names[1:], types[1:]):
        if element_type_of(t) != first:
            require(
                False,
                f"{name} element type {format_type(element_type_of(t))} differs from "
                f"{names[0]} element type {format_type(first)}",
            )


def check_dims_in_range(name: str, dims: Sequence[int], rank: int, unique: bool = True) -> None:
    """Each of `dims` indexes an array of rank `rank`, at most once."""
    for d in dims:
        require(0 <= d < rank, f"{name} {fmt_list(dims)} has {d}, out of range [0, {rank})")
    if unique:
        require(len(set(dims)) == len(dims), f"{name} {fmt_list(dims)} has repeated dimensions")




def check_permutation(name: str, perm: Sequence[int], rank: int) -> None:
    require(
        sorted(perm) == list(range(rank)),
        f"{name} {fmt_list(perm)} is not a permutation of {fmt_list(range(rank))}",
    )

