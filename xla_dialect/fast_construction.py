"""`install_fast_op_construction()`: xDSL 0.74's op builder, without its per-op overheads.

Every op a pass builds goes through xDSL's generic `irdl_op_init`, which was the largest
single cost of a compile (17 % of the 10,010-op transformer's): for each of the four
constructs (operands, results, regions, successors) it tests every argument against the
`Sequence` ABC (a Python-level `__instancecheck__`), formats an error prefix it uses only
on failure, re-imports `DenseArrayBase` and builds a new segment-size array (packing
bytes) for every op with variadic segments, and `Operation.__init__` imports the unknown
location once per op; `IRDLOperation.__post_init__` walks the op's definitions for
default values on every op; and `Attribute.__post_init__` tests every new attribute
against two ABCs.

The builder installed here does the same work for the ops without `SameVariadic*Size`
options (every op the pipeline builds but a few): the same operands,
results, regions, successors, properties and attributes, in the same order, from the same
arguments. It asks whether an argument is a sequence once per Python type, and shares one
segment-size attribute per distinct list of sizes (attributes are immutable values), lists
each definition's default values once, and tests an attribute's kind once per class. Any
argument it would reject, and every op with other options, goes to xDSL's own builder, so
errors are xDSL's, word for word. `tests/unit/test_fast_construction.py` builds ops both
ways and compares them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import xdsl.ir.core as ir_core
import xdsl.irdl.operations as irdl
from xdsl.dialects.builtin import UNKNOWN_LOC, DenseArrayBase, LocationAttr, i32
from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    AttrSizedSuccessorSegments,
    OpDef,
    OptionalDef,
    SameVariadicSize,
    VariadicDef,
    VarIRConstruct,
)

_IS_SEQUENCE: dict[type, bool] = {list: True, tuple: True}
"""Whether values of a type are `Sequence`s, asked of the ABC once per type."""


def _is_sequence(value: object) -> bool:
    kind = type(value)
    known = _IS_SEQUENCE.get(kind)
    if known is None:
        known = _IS_SEQUENCE[kind] = isinstance(value, Sequence)
    return known


def _arg_list(
    args: Sequence[Any], arg_defs: Sequence[tuple[str, Any]]
) -> tuple[list[Any], list[int]] | None:
    """The flattened arguments and the size of each, or None where xDSL's
    `irdl_build_arg_list` raises (the caller then lets it raise)."""
    if len(args) != len(arg_defs):
        return None
    built: list[Any] = []
    sizes: list[int] = []
    for (_, arg_def), arg in zip(arg_defs, args):
        if arg is None:
            if not isinstance(arg_def, OptionalDef):
                return None
            sizes.append(0)
        elif _is_sequence(arg):
            count = len(arg)
            if count != 1 and not isinstance(arg_def, VariadicDef):
                return None
            if count > 1 and isinstance(arg_def, OptionalDef):
                return None
            built.extend(arg)
            sizes.append(count)
        else:
            built.append(arg)
            sizes.append(1)
    return built, sizes


_SEGMENT_SIZES: dict[tuple[int, ...], DenseArrayBase] = {}
_MAX_SEGMENT_SIZES = 4096


def _segment_sizes(sizes: list[int]) -> DenseArrayBase:
    """`DenseArrayBase.from_list(i32, sizes)`, one shared value per distinct `sizes`."""
    key = tuple(sizes)
    value = _SEGMENT_SIZES.get(key)
    if value is None:
        value = DenseArrayBase.from_list(i32, sizes)
        if len(_SEGMENT_SIZES) < _MAX_SEGMENT_SIZES:
            _SEGMENT_SIZES[key] = value
    return value


_SEGMENT_INDEX: dict[type, int] = {
    AttrSizedOperandSegments: 0,
    AttrSizedResultSegments: 1,
    AttrSizedRegionSegments: 2,
    AttrSizedSuccessorSegments: 3,
}

_SIMPLE: dict[int, tuple[OpDef, bool]] = {}
"""Per op definition (by id, holding it alive): whether this builder handles it: its
options are the four attribute-sized segment kinds or options the builder ignores (as
xDSL's does: `ParsePropInAttrDict`, ...), not `SameVariadic*Size`."""


def _handles(op_def: OpDef) -> bool:
    entry = _SIMPLE.get(id(op_def))
    if entry is None or entry[0] is not op_def:
        simple = all(
            type(o) in _SEGMENT_INDEX
            if isinstance(o, AttrSizedSegments)
            else not isinstance(o, SameVariadicSize)
            for o in op_def.options
        )
        entry = _SIMPLE[id(op_def)] = (op_def, simple)
    return entry[1]


_OPERAND_KIND: dict[type, int] = {}
"""Per Python type: 0 an SSA value, 1 an op, 2 anything else (`SSAValue` and
`Operation` are ABCs, whose `isinstance` is a Python-level call)."""


def _operand_kind(operand: object) -> int:
    kind = type(operand)
    known = _OPERAND_KIND.get(kind)
    if known is None:
        known = _OPERAND_KIND[kind] = (
            0 if isinstance(operand, SSAValue) else 1 if isinstance(operand, Operation) else 2
        )
    return known


def _operand_arg(operand: Any) -> Any:
    """xDSL's `irdl_build_operations_arg` (an op stands for its single result)."""
    if operand is None:
        return []
    kind = _operand_kind(operand)
    if kind == 0:
        return operand
    if kind == 1:
        return _op_result(operand)
    return [o if _operand_kind(o) == 0 else _op_result(o) for o in operand]


def _op_result(op: Any) -> Any:
    """`SSAValue.get(op)`: the op's single result (else xDSL's error)."""
    results = op.results if _operand_kind(op) == 1 else ()
    return results[0] if len(results) == 1 else SSAValue.get(op)


def _make_op_init(original: Callable[..., None]) -> Callable[..., None]:
    def op_init(
        self: irdl.IRDLOperation,
        op_def: OpDef,
        *,
        operands: Sequence[Any],
        result_types: Sequence[Any],
        properties: Mapping[str, Any],
        attributes: Mapping[str, Any],
        successors: Sequence[Any],
        regions: Sequence[Any],
    ) -> None:
        if not _handles(op_def):
            return original(
                self, op_def, operands=operands, result_types=result_types, properties=properties,
                attributes=attributes, successors=successors, regions=regions,
            )  # fmt: skip
        built_operands = _arg_list([_operand_arg(o) for o in operands], op_def.operands)
        built_results = _arg_list(result_types, op_def.results)
        built_successors = _arg_list(successors, op_def.successors)
        if built_operands is None or built_results is None or built_successors is None:
            return original(
                self, op_def, operands=operands, result_types=result_types, properties=properties,
                attributes=attributes, successors=successors, regions=regions,
            )  # fmt: skip
        # Building the regions moves ops and blocks into them: done once, as xDSL does,
        # and a rejected list is reported by xDSL's own check of the built regions.
        regions_arg = [irdl.irdl_build_regions_arg(r) for r in regions]
        built_regions = _arg_list(regions_arg, op_def.regions)
        if built_regions is None:
            irdl.irdl_build_arg_list(
                VarIRConstruct.REGION,
                regions_arg,
                op_def.regions,
                f"Error in {op_def.name} builder: ",
            )
            raise AssertionError(
                "xDSL accepted regions the fast builder rejected"
            )  # pragma: no cover
        built_properties = {k: v for k, v in properties.items() if v is not None}
        built_attributes = {k: v for k, v in attributes.items() if v is not None}
        if op_def.options:
            sizes = (built_operands[1], built_results[1], built_regions[1], built_successors[1])
            for option in op_def.options:
                if not isinstance(option, AttrSizedSegments):
                    continue
                container = built_properties if option.as_property else built_attributes
                container[option.attribute_name] = _segment_sizes(
                    sizes[_SEGMENT_INDEX[type(option)]]
                )
        Operation.__init__(
            self,
            operands=built_operands[0],
            result_types=built_results[0],
            properties=built_properties,
            attributes=built_attributes,
            successors=built_successors[0],
            regions=built_regions[0],
        )

    op_init._xla_fast = True  # type: ignore[attr-defined]
    return op_init


_DEFAULTS: dict[int, tuple[OpDef, tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]] = {}
"""Per op definition (by id, holding it alive): the properties and attributes with a
default value that xDSL fills in when an op lacks them."""


def _defaults(op_def: OpDef) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]:
    entry = _DEFAULTS.get(id(op_def))
    if entry is None or entry[0] is not op_def:

        def of(defs: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
            return tuple(
                (name, d.default_value)
                for name, d in defs.items()
                if not isinstance(d, OptionalDef) and d.default_value is not None
            )

        entry = _DEFAULTS[id(op_def)] = (op_def, of(op_def.properties), of(op_def.attributes))
    return entry[1], entry[2]


def _post_init(self: irdl.IRDLOperation) -> None:
    """`IRDLOperation.__post_init__`: fill in the default properties and attributes."""
    properties, attributes = _defaults(self.get_irdl_definition())
    for name, value in properties:
        if name not in self.properties:
            self.properties[name] = value
    for name, value in attributes:
        if name not in self.attributes:
            self.attributes[name] = value
    super(irdl.IRDLOperation, self).__post_init__()


_ATTRIBUTE_KINDS: set[type] = set()
"""Attribute classes already found to be `Data` or `ParametrizedAttribute`."""


def _attribute_post_init(self: Attribute) -> None:
    """`Attribute.__post_init__`: verify, and check the kind once per class (`Data |
    ParametrizedAttribute` are ABCs: a Python-level `isinstance` for every attribute)."""
    self._verify()  # pyright: ignore[reportPrivateUsage]
    kind = type(self)
    if kind not in _ATTRIBUTE_KINDS:
        if not isinstance(self, Data | ParametrizedAttribute):
            raise TypeError("Attributes should only be Data or ParametrizedAttribute")
        _ATTRIBUTE_KINDS.add(kind)


def _unknown_loc() -> LocationAttr:
    return UNKNOWN_LOC


XDSL_OP_INIT = irdl.irdl_op_init
XDSL_POST_INIT = irdl.IRDLOperation.__post_init__
XDSL_ATTRIBUTE_POST_INIT = Attribute.__post_init__
"""xDSL's own functions (what the tests compare against)."""


def install_fast_op_construction() -> None:
    """Replace xDSL's `irdl_op_init`, `IRDLOperation.__post_init__`,
    `Attribute.__post_init__` and its per-op import of the unknown location."""
    if getattr(irdl.irdl_op_init, "_xla_fast", False):
        return
    irdl.irdl_op_init = _make_op_init(XDSL_OP_INIT)
    irdl.IRDLOperation.__post_init__ = _post_init  # type: ignore[method-assign]
    Attribute.__post_init__ = _attribute_post_init  # type: ignore[method-assign]
    ir_core._unknown_loc = _unknown_loc


_A = TypeVar("_A", bound=ParametrizedAttribute)

_PARAMETER_NAMES: dict[type, tuple[str, ...]] = {}


def unverified(cls: type[_A], **parameters: Attribute) -> _A:
    """`cls(**parameters)` without verifying parameters the caller made valid by
    construction (a location's file, line and column; a site string's bytes and its
    symbol reference): equal to the verified attribute, with the same hash. The
    parameters must be all of `cls`'s, in the order of its definition."""
    names = _PARAMETER_NAMES.get(cls)
    if names is None:
        names = _PARAMETER_NAMES[cls] = tuple(name for name, _ in cls.get_irdl_definition().parameters)
    assert tuple(parameters) == names
    attribute = cls.__new__(cls)
    for name, value in parameters.items():
        object.__setattr__(attribute, name, value)
    return attribute


__all__ = [
    "XDSL_ATTRIBUTE_POST_INIT",
    "XDSL_OP_INIT",
    "XDSL_POST_INIT",
    "install_fast_op_construction",
    "unverified",
]
