"""What the `chlo` ops share: CHLO's attribute spellings, the element-type
checks of ChloOps.td, and `ChloOp`."""


from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    traits_def,
)

from xla_dialect.attributes import (
    ComparisonDirection,
    ComparisonType,
    IntList,
    KeywordStructAttr,
    Precision,
)
from xla_dialect.diagnostics import require
from xla_dialect.traits import XlaCanonicalization
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_complex,
    is_float,
    is_int_or_pred,
    is_integer,
    is_tensor,
)

# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


@irdl_attr_definition
class ChloComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_direction LT>`."""

    name = "chlo.comparison_direction"


@irdl_attr_definition
class ChloComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`#chlo<comparison_type FLOAT>`."""

    name = "chlo.comparison_type"


@irdl_attr_definition
class ChloPrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision DEFAULT>`."""

    name = "chlo.precision"


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(KeywordStructAttr):
    """`#chlo.ragged_dot<lhs_batching_dimensions = [...], ..., rhs_group_dimensions = [...]>`."""

    name = "chlo.ragged_dot"
    FIELDS = (
        ("lhs_batching_dimensions", "ints"),
        ("rhs_batching_dimensions", "ints"),
        ("lhs_contracting_dimensions", "ints"),
        ("rhs_contracting_dimensions", "ints"),
        ("lhs_ragged_dimensions", "ints"),
        ("rhs_group_dimensions", "ints"),
    )
    lhs_batching_dimensions: IntList
    rhs_batching_dimensions: IntList
    lhs_contracting_dimensions: IntList
    rhs_contracting_dimensions: IntList
    lhs_ragged_dimensions: IntList
    rhs_group_dimensions: IntList


# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------

ELEMENT_CLASSES: dict[str, tuple[str, object]] = {
    "float": ("a float (f16, bf16, f32, f64)", is_float),
    "float_or_complex": ("a float or complex", lambda t: is_float(t) or is_complex(t)),
    "integer": ("an integer", is_integer),
    "int_or_pred": ("an integer or pred", is_int_or_pred),
    "any": ("an element type", lambda t: True),
}


def check_element(name: str, t: Attribute, kind: str) -> None:
    require(is_tensor(t), f"{name} must be a ranked tensor, got {format_type(t)}")
    description, predicate = ELEMENT_CLASSES[kind]
    element = element_type_of(t)
    require(
        bool(predicate(element)),  # pyright: ignore[reportCallIssue]
        f"{name} element type {format_type(element)} is not {description}",
    )


def check_same_type(names: Sequence[str], types: Sequence[Attribute]) -> None:
    for name, t in zip(names[1:], types[1:]):
        require(
            t == types[0],
            f"{name} type {format_type(t)} differs from {names[0]} type {format_type(types[0])}",
        )


def require_inferred(name: str, have: Attribute, want: Attribute) -> None:
    """The declared type of `name` (a result) is the inferred one."""
    require(have == want, f"{name} type {format_type(have)} does not match the inferred {format_type(want)}")


class ChloOp(IRDLOperation):
    """Base of the `chlo` ops (a marker: the decomposition pass matches on it). Like
    the `xla` ops, they take the canonicalization patterns registered for their name
    (`chlo.erf` folds on constants)."""

    traits = traits_def(XlaCanonicalization())
