"""Tokens, host and device I/O, and calls out of XLA: `after_all`, `create_token`,
`infeed`, `outfeed`, `send`, `recv` and `custom_call` (spec: AfterAll, Infeed,
Send, Recv, CustomCall).

Side-effecting ops thread a `!xla.token` to order themselves; they declare read
and write effects instead of `Pure`, so no pass may drop or reorder them.
`custom_call` is effect-free only when `has_side_effect = false`. `infeed`,
`outfeed`, `send` and `recv` have no pretty form in StableHLO and print
generically, as StableHLO writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
)

from xla_dialect.attributes import ChannelHandleAttr, OutputOperandAliasAttr, bool_attr
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import XlaOp, check_tensor
from xla_dialect.syntax import (
    bool_of,
    build,
    parse_attr_dict,
    parse_function_type,
    parse_operand_list,
    print_attr_dict,
    print_attrs_and_function_type,
    print_operands,
    resolve,
)
from xla_dialect.types import TokenType, format_type, is_tensor, rank_of

# StableHLO's channel types (`#xla.channel_handle<handle = h, type = t>`).
CHANNEL_TYPE_INVALID = 0
DEVICE_TO_DEVICE = 1
DEVICE_TO_HOST = 2
HOST_TO_DEVICE = 3


def channel_handle(handle: int, channel_type: int) -> ChannelHandleAttr:
    return ChannelHandleAttr.make(handle=handle, type=channel_type)


def _check_token(name: str, t: Attribute) -> None:
    require(isinstance(t, TokenType), f"{name} must be a !xla.token, got {format_type(t)}")


def _check_data_then_token(results: Sequence[SSAValue], what: str) -> None:
    """Results are the data values (arrays, no tuples) followed by one token."""
    require(len(results) >= 1, f"{what} must have at least one result, the token")
    _check_token("the last result", results[-1].type)
    for index, r in enumerate(results[:-1]):
        require(
            not isinstance(r.type, TupleType),
            f"result #{index} is a tuple {format_type(r.type)}; nested tuple shapes are not "
            "supported, give each array as its own result",
        )
        check_tensor(f"result #{index}", r.type)


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


@irdl_op_definition
class AfterAllOp(XlaOp):
    """`xla.after_all %t0, %t1 : !xla.token`: a token ordered after all operand tokens,
    joining chains of side-effecting ops (spec: AfterAll)."""

    name = "xla.after_all"
    SPEC_SECTION: ClassVar[str] = "AfterAll"
    inputs = var_operand_def(Attribute)
    result = result_def(TokenType)
    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(inputs)], result_types=[TokenType()])

    def verify_(self) -> None:
        for index, t in enumerate(self.inputs.types):
            _check_token(f"operand #{index}", t)

    @classmethod
    def parse(cls, parser: Parser) -> AfterAllOp:
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        values = [parser.resolve_operand(o, TokenType()) for o in operands]
        return build(cls, [values], [result_type], attrs)

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ")
            print_operands(printer, self.inputs)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CreateTokenOp(XlaOp):
    """`xla.create_token : !xla.token`: a fresh token, StableHLO's nullary `after_all`
    (spec: AfterAll)."""

    name = "xla.create_token"
    SPEC_SECTION: ClassVar[str] = "AfterAll"
    result = result_def(Attribute)
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[TokenType()])

    def verify_(self) -> None:
        _check_token("result", self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> CreateTokenOp:
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        return build(cls, [], [parser.parse_type()], attrs)

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


# ---------------------------------------------------------------------------
# Infeed / outfeed
# ---------------------------------------------------------------------------


def _layout_ints(attr: Attribute) -> tuple[int, ...] | None:
    """One layout entry: `[1, 0]` (integers) or `dense<[1, 0]>`; None if neither."""
    if isinstance(attr, ArrayAttr):
        values: list[int] = []
        for a in attr.data:  # pyright: ignore[reportUnknownMemberType]
            if not isinstance(a, IntegerAttr):
                return None
            values.append(a.value.data)  # pyright: ignore[reportUnknownMemberType]
        return tuple(values)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        try:
            return tuple(int(v) for v in attr.get_values())  # pyright: ignore
        except (TypeError, ValueError):
            return None
    return None


def _check_layouts(name: str, layouts: ArrayAttr[Attribute], types: Sequence[Attribute]) -> None:
    """One minor-to-major layout per value, each a permutation of the value's dims."""
    entries = layouts.data
    require(
        len(entries) == len(types),
        f"{name} has {len(entries)} entries but there are {len(types)} values to lay out",
    )
    for index, (entry, t) in enumerate(zip(entries, types)):
        dims = _layout_ints(entry)
        require(dims is not None, f"{name} entry #{index} must be a list of integers")
        assert dims is not None
        if isinstance(t, TokenType) or not is_tensor(t):
            require(not dims, f"{name} entry #{index} must be empty for {format_type(t)}")
            continue
        rank = rank_of(t)
        require(
            sorted(dims) == list(range(rank)),
            f"{name} entry #{index} {fmt_list(dims)} is not a permutation of "
            f"{fmt_list(range(rank))} for {format_type(t)}",
        )


@irdl_op_definition
class InfeedOp(XlaOp):
    """Reads one data item of the result shapes from the device's infeed queue,
    ordered by its token; results are the arrays then a token (spec: Infeed)."""

    name = "xla.infeed"
    SPEC_SECTION: ClassVar[str] = "Infeed"
    token = operand_def(TokenType)
    outputs = var_result_def(Attribute)
    infeed_config = opt_prop_def(StringAttr)
    layout = opt_prop_def(ArrayAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        token: SSAValue,
        result_types: Sequence[Attribute],
        infeed_config: str = "",
        layout: Sequence[Sequence[int]] | None = None,
    ):
        props: dict[str, Attribute] = {"infeed_config": StringAttr(infeed_config)}
        if layout is not None:
            props["layout"] = ArrayAttr(
                ArrayAttr(IntegerAttr(d, 64) for d in entry) for entry in layout
            )
        super().__init__(
            operands=[token],
            result_types=[[*result_types, TokenType()]],
            properties=props,
        )

    @property
    def config(self) -> str:
        return "" if self.infeed_config is None else self.infeed_config.data

    def verify_(self) -> None:
        _check_data_then_token(list(self.outputs), "infeed")
        if self.layout is not None:
            _check_layouts("layout", self.layout, list(self.outputs.types)[:-1])


@irdl_op_definition
class OutfeedOp(XlaOp):
    """Writes its operands to the device's outfeed queue, ordered by the token; the
    spec's counterpart of Infeed (spec: Infeed)."""

    name = "xla.outfeed"
    SPEC_SECTION: ClassVar[str] = "StableHLO"
    inputs = var_operand_def(Attribute)
    token = operand_def(TokenType)
    result = result_def(TokenType)
    outfeed_config = opt_prop_def(StringAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, inputs: Sequence[SSAValue], token: SSAValue, outfeed_config: str = ""):
        super().__init__(
            operands=[list(inputs), token],
            result_types=[TokenType()],
            properties={"outfeed_config": StringAttr(outfeed_config)},
        )

    @property
    def config(self) -> str:
        return "" if self.outfeed_config is None else self.outfeed_config.data

    def verify_(self) -> None:
        for index, t in enumerate(self.inputs.types):
            check_tensor(f"input #{index}", t)


# ---------------------------------------------------------------------------
# Send / recv
# ---------------------------------------------------------------------------


def _check_channel(op: XlaOp, handle: ChannelHandleAttr, host_type: int) -> None:
    host = bool_of(op.properties.get("is_host_transfer"))
    channel_type = handle.int_value("type")
    if host:
        wanted, text = host_type, "DEVICE_TO_HOST (2)" if host_type == 2 else "HOST_TO_DEVICE (3)"
    else:
        wanted, text = DEVICE_TO_DEVICE, "DEVICE_TO_DEVICE (1)"
    require(
        channel_type == wanted,
        f"channel_handle type {channel_type} must be {text} when is_host_transfer is "
        f"{'true' if host else 'false'}",
    )


@irdl_op_definition
class SendOp(XlaOp):
    """Sends its operands to the `recv` sharing its channel handle; returns a token
    (spec: Send)."""

    name = "xla.send"
    SPEC_SECTION: ClassVar[str] = "Send"
    inputs = var_operand_def(Attribute)
    token = operand_def(TokenType)
    result = result_def(TokenType)
    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        token: SSAValue,
        handle: ChannelHandleAttr,
        is_host_transfer: bool = False,
    ):
        super().__init__(
            operands=[list(inputs), token],
            result_types=[TokenType()],
            properties={"channel_handle": handle, "is_host_transfer": bool_attr(is_host_transfer)},
        )

    def verify_(self) -> None:
        for index, t in enumerate(self.inputs.types):
            check_tensor(f"input #{index}", t)
        _check_channel(self, self.channel_handle, DEVICE_TO_HOST)


@irdl_op_definition
class RecvOp(XlaOp):
    """Receives arrays of the result shapes from the `send` sharing its channel
    handle; results are the arrays then a token (spec: Recv)."""

    name = "xla.recv"
    SPEC_SECTION: ClassVar[str] = "Recv"
    token = operand_def(TokenType)
    outputs = var_result_def(Attribute)
    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        token: SSAValue,
        result_types: Sequence[Attribute],
        handle: ChannelHandleAttr,
        is_host_transfer: bool = False,
    ):
        super().__init__(
            operands=[token],
            result_types=[[*result_types, TokenType()]],
            properties={"channel_handle": handle, "is_host_transfer": bool_attr(is_host_transfer)},
        )

    def verify_(self) -> None:
        _check_data_then_token(list(self.outputs), "recv")
        _check_channel(self, self.channel_handle, HOST_TO_DEVICE)


# ---------------------------------------------------------------------------
# Custom call
# ---------------------------------------------------------------------------

API_VERSIONS: dict[int, str] = {
    0: "API_VERSION_UNSPECIFIED",
    1: "API_VERSION_ORIGINAL",
    2: "API_VERSION_STATUS_RETURNING",
    3: "API_VERSION_STATUS_RETURNING_UNIFIED",
    4: "API_VERSION_TYPED_FFI",
}
TYPED_FFI = 4


class CustomCallEffects(MemoryEffect):
    """No effects when `has_side_effect` is false, else reads and writes."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        if bool_of(op.properties.get("has_side_effect")):
            return {EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)}
        return set()


def _subtype(t: Attribute, path: Sequence[int]) -> Attribute | None:
    """The member of (nested) tuple type `t` at `path`, or None if the path is invalid."""
    for index in path:
        if not isinstance(t, TupleType) or not 0 <= index < len(t.types.data):
            return None
        t = t.types.data[index]
    return t


@irdl_op_definition
class CustomCallOp(XlaOp):
    """Calls the user function `call_target_name` on its operands; results of any
    types, tuples included (spec: CustomCall)."""

    name = "xla.custom_call"
    SPEC_SECTION: ClassVar[str] = "CustomCall"
    inputs = var_operand_def(Attribute)
    outputs = var_result_def(Attribute)
    call_target_name = prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    backend_config = opt_prop_def(StringAttr | DictionaryAttr)
    api_version = opt_prop_def(IntegerAttr[IntegerType])
    called_computations = opt_prop_def(ArrayAttr)
    operand_layouts = opt_prop_def(ArrayAttr)
    result_layouts = opt_prop_def(ArrayAttr)
    output_operand_aliases = opt_prop_def(ArrayAttr)
    traits = traits_def(CustomCallEffects())

    def __init__(
        self,
        call_target_name: str,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        *,
        has_side_effect: bool = False,
        backend_config: str | DictionaryAttr | None = None,
        api_version: int | None = None,
        called_computations: Sequence[str] = (),
        output_operand_aliases: Sequence[OutputOperandAliasAttr] = (),
    ):
        props: dict[str, Attribute] = {"call_target_name": StringAttr(call_target_name)}
        if has_side_effect:
            props["has_side_effect"] = bool_attr(True)
        if backend_config is not None:
            props["backend_config"] = (
                StringAttr(backend_config) if isinstance(backend_config, str) else backend_config
            )
        if api_version is not None:
            props["api_version"] = IntegerAttr(api_version, i32)
        if called_computations:
            props["called_computations"] = ArrayAttr(
                SymbolRefAttr(name) for name in called_computations
            )
        if output_operand_aliases:
            props["output_operand_aliases"] = ArrayAttr(output_operand_aliases)
        super().__init__(
            operands=[list(inputs)], result_types=[list(result_types)], properties=props
        )

    @property
    def target(self) -> str:
        return self.call_target_name.data

    @property
    def version(self) -> int:
        return 2 if self.api_version is None else self.api_version.value.data

    def verify_(self) -> None:
        require(self.target != "", "call_target_name must not be empty")
        version = self.version
        require(
            version in API_VERSIONS,
            f"api_version {version} is not one of {fmt_list(API_VERSIONS)}",
        )
        if self.backend_config is not None:
            if version == TYPED_FFI:
                require(
                    isinstance(self.backend_config, DictionaryAttr),
                    "backend_config must be a dictionary when api_version is 4 "
                    "(API_VERSION_TYPED_FFI)",
                )
            else:
                require(
                    isinstance(self.backend_config, StringAttr),
                    f"backend_config must be a string when api_version is {version}",
                )
        if self.called_computations is not None:
            for index, callee in enumerate(self.called_computations.data):
                require(
                    isinstance(callee, SymbolRefAttr),
                    f"called_computations entry #{index} must be a symbol reference",
                )
        require(
            (self.operand_layouts is None) == (self.result_layouts is None),
            "operand_layouts and result_layouts must be given together or not at all",
        )
        if self.operand_layouts is not None and self.result_layouts is not None:
            _check_layouts("operand_layouts", self.operand_layouts, list(self.inputs.types))
            result_types = list(self.outputs.types)
            if len(result_types) == 1 and isinstance(result_types[0], TupleType):
                result_types = list(result_types[0].types.data)
            _check_layouts("result_layouts", self.result_layouts, result_types)
        if self.output_operand_aliases is not None:
            self._verify_aliases(self.output_operand_aliases)

    def _verify_aliases(self, aliases: ArrayAttr[Attribute]) -> None:
        n_inputs, results = len(self.inputs), list(self.outputs.types)
        for index, alias in enumerate(aliases.data):
            require(
                isinstance(alias, OutputOperandAliasAttr),
                f"output_operand_aliases entry #{index} must be an #xla.output_operand_alias",
            )
            assert isinstance(alias, OutputOperandAliasAttr)
            operand_index = alias.int_value("operand_index")
            require(
                0 <= operand_index < n_inputs,
                f"output_operand_aliases entry #{index} has operand_index {operand_index}, "
                f"out of range [0, {n_inputs})",
            )
            operand_path = alias.ints("operand_tuple_indices")
            operand_type = _subtype(self.inputs[operand_index].type, operand_path)
            require(
                operand_type is not None,
                f"output_operand_aliases entry #{index} has operand_tuple_indices "
                f"{fmt_list(operand_path)}, not a valid index into operand #{operand_index}",
            )
            output_path = alias.ints("output_tuple_indices")
            if len(results) == 1:
                output_type = _subtype(results[0], output_path)
            elif output_path and 0 <= output_path[0] < len(results):
                output_type = _subtype(results[output_path[0]], output_path[1:])
            else:
                output_type = None
            require(
                output_type is not None,
                f"output_operand_aliases entry #{index} has output_tuple_indices "
                f"{fmt_list(output_path)}, not a valid index into the results",
            )
            assert operand_type is not None and output_type is not None
            require(
                operand_type == output_type,
                f"output_operand_aliases entry #{index} aliases output type "
                f"{format_type(output_type)} with operand type {format_type(operand_type)}",
            )

    # `xla.custom_call @target(%a, %b) {attrs}? : (ta, tb) -> tr`
    @classmethod
    def parse(cls, parser: Parser) -> CustomCallOp:
        target = parser.parse_symbol_name()
        pos = parser.pos
        parser.parse_punctuation("(")
        operands = parse_operand_list(parser)
        parser.parse_punctuation(")")
        attrs = parse_attr_dict(parser)
        attrs["call_target_name"] = target
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        return build(cls, [resolve(parser, operands, in_types, pos)], [out_types], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.target)
        printer.print_string("(")
        print_operands(printer, self.inputs)
        printer.print_string(")")
        print_attrs_and_function_type(printer, self, ["call_target_name"])


OPS: tuple[type[Operation], ...] = (
    AfterAllOp,
    CreateTokenOp,
    InfeedOp,
    OutfeedOp,
    SendOp,
    RecvOp,
    CustomCallOp,
)
