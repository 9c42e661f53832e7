"""Reductions and other ops applying a computation region: reduce, reduce_window,
select_and_scatter, map and sort (spec: Reduce, ReduceWindow, SelectAndScatter, Map,
Sort).

The computations are regions whose arguments are 0-d tensors, as in StableHLO. A
reducer of N inputs takes the N accumulators then the N new values
(`(acc_0, ..., acc_{N-1}, x_0, ..., x_{N-1})`) and returns N values; a sort
comparator takes a (lhs, rhs) pair per input.

Only `xla.reduce` has a pretty form (StableHLO's): the compact
`xla.reduce(%x init: %c) applies xla.add across dimensions = [1] : ...` when the
reducer is a single binary `xla` op on its two arguments, else the form with a
`reducer(%a: t, %b: t) (%c: t, %d: t) { ... }` region after the type. The others
print generically, as StableHLO prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect

from xla_dialect.diagnostics import XlaVerifyError, fmt_list, require
from xla_dialect.ops.base import XlaOp, check_dims_in_range, check_tensor
from xla_dialect.ops.control_flow import (
    Computation,
    ReturnOp,
    check_region,
    region_from,
    region_signature,
)
from xla_dialect.ops.gather_scatter import is_promotable
from xla_dialect.syntax import (
    build,
    i64_array,
    ints_of,
    parse_function_type,
    parse_int_list,
    print_attrs_and_function_type,
    print_int_list,
)
from xla_dialect.types import element_type_of, format_type, is_dynamic, is_tensor, shape_of, tensor

# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------


def scalar(element: Attribute) -> TensorType[Attribute]:
    """`tensor<T>`: the type of a computation's scalar parameter."""
    return tensor((), element)


def _check_scalar(
    name: str, t: Attribute, element: Attribute | None = None, of: str = "the inputs'"
) -> None:
    check_tensor(name, t)
    # (messages are formatted only when a check fails: verifying is per op)
    if len(shape_of(t)) != 0:
        raise XlaVerifyError(f"{name} must be a 0-d tensor, got {format_type(t)}")
    if element is not None and element_type_of(t) != element:
        raise XlaVerifyError(
            f"{name} element type {format_type(element_type_of(t))} differs from {of} "
            f"element type {format_type(element)}"
        )


def _check_inputs_same_shape(names: Sequence[str], types: Sequence[Attribute]) -> tuple[int, ...]:
    """Every input is a tensor and all have one shape; returns it."""
    for name, t in zip(names, types):
        check_tensor(name, t)
    shape = shape_of(types[0])
    for name, t in zip(names[1:], types[1:]):
        require(
            shape_of(t) == shape,
            f"{name} shape {fmt_list(shape_of(t))} differs from {names[0]} shape {fmt_list(shape)}",
        )
    return shape


def _check_reducer(region: Region, name: str, elements: Sequence[Attribute]) -> None:
    """A reducer of N inputs: `(tensor<T_i>..., tensor<T_i>...) -> (tensor<T_i>...)`."""
    scalars = [scalar(e) for e in elements]
    check_region(region, name, [*scalars, *scalars], scalars)


def reducer_elements(
    region: Region, name: str, inputs: Sequence[Attribute], inits: Sequence[Attribute]
) -> list[Attribute]:
    """The element types `E_i` a reducer of N inputs computes in, as StableHLO has it:
    it takes `(tensor<E_i>..., tensor<E_i>...)` and returns `(tensor<E_i>...)`, each
    `E_i` promotable from input #i's and init value #i's element types (a wider
    accumulator of the same kind: bf16 summed in f32). The results hold `E_i`."""
    n = len(inputs)
    args, _ = region_signature(region, name)
    require(len(args) == 2 * n, f"{name} must take {2 * n} arguments, takes {len(args)}")
    for i, t in enumerate(args):
        if not is_tensor(t):  # (messages are formatted only when a check fails)
            raise XlaVerifyError(f"{name} argument #{i} must be a 0-d tensor, got {format_type(t)}")
    elements = [element_type_of(args[i]) for i in range(n)]
    _check_reducer(region, name, elements)
    for i, element in enumerate(elements):
        which = f" #{i}" if n > 1 else ""
        for what, t in ((f"input{which}", inputs[i]), (f"init value{which}", inits[i])):
            if not is_promotable(element_type_of(t), element):
                raise XlaVerifyError(
                    f"{name} element type {format_type(element)} cannot hold the {what} element type "
                    f"{format_type(element_type_of(t))} (it must be the same kind, at least as wide)"
                )
    return elements


def narrower_reducer_operands(op: Operation) -> list[tuple[int, Attribute]]:
    """The operands of a `reduce`/`reduce_window`/`all_reduce`/`reduce_scatter` (its index, the type it must be
    converted to) narrower than the element type its reducer computes in; converting
    them (`xla.convert`, exact) gives the same results with one element type per input,
    the form the lowerings and simplifications expect."""
    from xla_dialect.ops.collectives import AllReduceOp, ReduceScatterOp

    if isinstance(op, (AllReduceOp, ReduceScatterOp)) and op.computation.blocks:
        # the operands only: the results already hold the computation's type
        wide = element_type_of(op.computation.block.args[0].type)
        return [
            (index, tensor(shape_of(value.type), wide))
            for index, value in enumerate(op.operands)
            if is_tensor(value.type) and element_type_of(value.type) != wide
        ]
    if not isinstance(op, (ReduceOp, ReduceWindowOp)) or not op.body.blocks:
        return []
    n = len(op.inputs)
    elements = [element_type_of(arg.type) for arg in op.body.block.args[:n]]
    operands = list(op.operands)  # the inputs, then the init values
    return [
        (index, tensor(shape_of(value.type), elements[index % n]))
        for index, value in enumerate(operands[: 2 * n])
        if element_type_of(value.type) != elements[index % n]
    ]


def _window_check(
    name: str, values: Sequence[int] | None, rank: int, minimum: int
) -> None:
    if values is None:
        return
    require(
        len(values) == rank,
        f"{name} {fmt_list(values)} must have one entry per dimension (rank {rank})",
    )
    for v in values:
        require(v >= minimum, f"{name} {fmt_list(values)} has {v}; entries must be >= {minimum}")


def _padding_pairs(name: str, attr: Attribute | None, rank: int) -> list[tuple[int, int]]:
    """The (low, high) padding of each dimension from a `dense<..> : tensor<Nx2xi64>`."""
    if attr is None:
        return [(0, 0)] * rank
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    shape = tuple(attr.get_type().get_shape())
    require(
        shape == (rank, 2),
        f"{name} must have shape [{rank}, 2] (a (low, high) pair per dimension), "
        f"got {fmt_list(shape)}",
    )
    flat = ints_of(attr)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def padding_attr(pairs: Sequence[tuple[int, int]]) -> DenseIntOrFPElementsAttr:
    """`dense<[[lo, hi], ...]> : tensor<Nx2xi64>`."""
    flat = [v for pair in pairs for v in pair]
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pairs), 2]), flat)


def windowed_shape(
    shape: Sequence[int],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    base_dilations: Sequence[int] | None = None,
    window_dilations: Sequence[int] | None = None,
    padding: Sequence[tuple[int, int]] | None = None,
) -> tuple[int, ...]:
    """Number of window positions in each dimension (spec: ReduceWindow)."""
    rank = len(shape)
    strides = window_strides or [1] * rank
    base = base_dilations or [1] * rank
    wdil = window_dilations or [1] * rank
    pads = padding or [(0, 0)] * rank
    out: list[int] = []
    for d in range(rank):
        if is_dynamic(shape[d]):
            out.append(shape[d])
            continue
        dilated = 0 if shape[d] == 0 else (shape[d] - 1) * base[d] + 1
        padded = dilated + pads[d][0] + pads[d][1]
        window = (window_dimensions[d] - 1) * wdil[d] + 1
        # Invalid strides (< 1) are the verifier's to report; count them as 1 here.
        out.append(0 if padded < window else (padded - window) // max(strides[d], 1) + 1)
    return tuple(out)


def _regions_or_build(
    body: Region | Computation, arg_types: Sequence[Attribute]
) -> Region:
    return body if isinstance(body, Region) else region_from(arg_types, body)


# ---------------------------------------------------------------------------
# xla.reduce
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReduceOp(XlaOp):
    """Folds `dimensions` of N inputs with a reducer computation, starting from N
    init values (spec: Reduce, including Variadic Reduce)."""

    name = "xla.reduce"
    SPEC_SECTION: ClassVar[str] = "Reduce"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    body = region_def()
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init_values: Sequence[SSAValue],
        dimensions: Sequence[int],
        body: Region | Computation,
    ):
        elements = [element_type_of(v.type) for v in init_values]
        region = _regions_or_build(body, [scalar(e) for e in elements] * 2)
        super().__init__(
            operands=[list(inputs), list(init_values)],
            result_types=[self.infer_result_types([v.type for v in inputs], elements, dimensions)],
            properties={"dimensions": i64_array(dimensions)},
            regions=[region],
        )

    @staticmethod
    def infer_result_types(
        inputs: Sequence[Attribute], elements: Sequence[Attribute], dimensions: Sequence[int]
    ) -> list[Attribute]:
        """Each input's shape without `dimensions`, of its init value's element type."""
        return [
            tensor([s for d, s in enumerate(shape_of(t)) if d not in dimensions], e)
            for t, e in zip(inputs, elements)
        ]

    def verify_(self) -> None:
        n = len(self.inputs)
        require(n >= 1, "must have at least one input")
        require(
            len(self.init_values) == n,
            f"must have one init value per input: {n} inputs, {len(self.init_values)} init values",
        )
        names = [f"input #{i}" if n > 1 else "input" for i in range(n)]
        shape = _check_inputs_same_shape(names, list(self.inputs.types))
        dims = ints_of(self.dimensions)
        check_dims_in_range("dimensions", dims, len(shape))
        for i, init in enumerate(self.init_values.types):
            _check_scalar(f"init value #{i}" if n > 1 else "init value", init)
        elements = reducer_elements(self.body, "reducer", self.inputs.types, self.init_values.types)
        self.check_result_types(self.infer_result_types(list(self.inputs.types), elements, dims))

    # -- syntax -------------------------------------------------------------

    def _compact_op(self) -> Operation | None:
        """The single binary `xla` op the reducer applies, if it prints compactly."""
        if len(self.inputs) != 1 or len(self.body.blocks) != 1:
            return None
        block = self.body.block
        ops = list(block.ops)
        if len(ops) != 2 or len(block.args) != 2:
            return None
        inner, ret = ops
        if not isinstance(ret, ReturnOp) or not inner.name.startswith("xla."):
            return None
        expected = scalar(element_type_of(self.inputs[0].type))
        if (
            inner.regions
            or inner.properties
            or inner.attributes
            or list(inner.operands) != list(block.args)
            or len(inner.results) != 1
            or inner.results[0].type != expected
            or any(a.type != expected for a in block.args)
            or list(ret.operands) != [inner.results[0]]
            or ret.attributes
        ):
            return None
        return inner

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        pos = parser.pos
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []

        def parse_pair() -> None:
            parser.parse_punctuation("(")
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            init = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            pairs.append((value, init))

        parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_pair)
        applied: str | None = None
        if parser.parse_optional_keyword("applies") is not None:
            applied = parser.parse_identifier("name of the reducer op")
        parser.parse_keyword("across")
        dims = parse_keyword_dims(parser)
        attrs = parser.parse_optional_attr_dict()
        attrs["dimensions"] = i64_array(dims)
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        operands = [v for v, _ in pairs] + [c for _, c in pairs]
        values = resolve_list(parser, operands, in_types, pos)
        n = len(pairs)
        init_types = in_types[n:]
        if applied is not None:
            op_class = parser.ctx.get_optional_op(applied)
            if op_class is None:
                parser.raise_error(f"unknown reducer op {applied}", pos, parser.pos)
            arg_type = init_types[0]
            block = Block(arg_types=[arg_type, arg_type])
            inner = op_class.create(operands=list(block.args), result_types=[arg_type])
            block.add_ops([inner, ReturnOp([inner.results[0]])])
            region = Region(block)
        else:
            parser.parse_keyword("reducer")
            lhs: list[Parser.Argument] = []
            rhs: list[Parser.Argument] = []
            for _ in range(n):
                parser.parse_punctuation("(")
                lhs.append(parser.parse_argument())
                parser.parse_punctuation(",")
                rhs.append(parser.parse_argument())
                parser.parse_punctuation(")")
            region = parser.parse_region([*lhs, *rhs])
        return build(cls, [values[:n], values[n:]], [out_types], attrs, [region])

    def print(self, printer: Printer) -> None:
        n = len(self.inputs)
        for i in range(n):
            if i:
                printer.print_string(", ")
            printer.print_string("(")
            printer.print_operand(self.inputs[i])
            printer.print_string(" init: ")
            printer.print_operand(self.init_values[i] if i < len(self.init_values) else self.inputs[i])
            printer.print_string(")")
        inner = self._compact_op()
        if inner is not None:
            printer.print_string(f" applies {inner.name}")
        printer.print_string(" across dimensions = ")
        print_int_list(printer, ints_of(self.dimensions))
        print_attrs_and_function_type(printer, self, ["dimensions"])
        if inner is not None:
            return
        args = self.body.blocks.first.args if self.body.blocks else ()
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string(" reducer")
        for i in range(n):
            printer.print_string("(")
            if i < len(args):
                printer.print_block_argument(args[i])
            printer.print_string(", ")
            if n + i < len(args):
                printer.print_block_argument(args[n + i])
            printer.print_string(")")
            if i + 1 < n:
                printer.print_string(" ")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


def parse_keyword_dims(parser: Parser) -> list[int]:
    """`dimensions = [0, 1]`."""
    parser.parse_keyword("dimensions")
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def resolve_list(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute], pos: int
) -> list[SSAValue]:
    if len(operands) != len(types):
        parser.raise_error(
            f"expected {len(operands)} operand types but got {len(types)}", pos, parser.pos
        )
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types)]


# ---------------------------------------------------------------------------
# xla.reduce_window
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReduceWindowOp(XlaOp):
    """Reduces each window of N inputs with a reducer computation (spec: ReduceWindow)."""

    name = "xla.reduce_window"
    SPEC_SECTION: ClassVar[str] = "ReduceWindow"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    base_dilations = opt_prop_def(DenseArrayBase)
    window_dilations = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    body = region_def()
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init_values: Sequence[SSAValue],
        window_dimensions: Sequence[int],
        body: Region | Computation,
        window_strides: Sequence[int] | None = None,
        base_dilations: Sequence[int] | None = None,
        window_dilations: Sequence[int] | None = None,
        padding: Sequence[tuple[int, int]] | None = None,
    ):
        elements = [element_type_of(v.type) for v in init_values]
        region = _regions_or_build(body, [scalar(e) for e in elements] * 2)
        props: dict[str, Attribute] = {"window_dimensions": i64_array(window_dimensions)}
        for key, value in (
            ("window_strides", window_strides),
            ("base_dilations", base_dilations),
            ("window_dilations", window_dilations),
        ):
            if value is not None:
                props[key] = i64_array(value)
        if padding is not None:
            props["padding"] = padding_attr(padding)
        shape = windowed_shape(
            shape_of(inputs[0].type),
            window_dimensions,
            window_strides,
            base_dilations,
            window_dilations,
            padding,
        )
        super().__init__(
            operands=[list(inputs), list(init_values)],
            result_types=[[tensor(shape, e) for e in elements]],
            properties=props,
            regions=[region],
        )

    def _opt(self, attr: DenseArrayBase | None) -> tuple[int, ...] | None:
        return None if attr is None else ints_of(attr)

    def verify_(self) -> None:
        n = len(self.inputs)
        require(n >= 1, "must have at least one input")
        require(
            len(self.init_values) == n,
            f"must have one init value per input: {n} inputs, {len(self.init_values)} init values",
        )
        names = [f"input #{i}" if n > 1 else "input" for i in range(n)]
        shape = _check_inputs_same_shape(names, list(self.inputs.types))
        rank = len(shape)
        window = ints_of(self.window_dimensions)
        strides = self._opt(self.window_strides)
        base = self._opt(self.base_dilations)
        wdil = self._opt(self.window_dilations)
        _window_check("window_dimensions", window, rank, 1)
        _window_check("window_strides", strides, rank, 1)
        _window_check("base_dilations", base, rank, 1)
        _window_check("window_dilations", wdil, rank, 1)
        pads = _padding_pairs("padding", self.padding, rank)
        for i, init in enumerate(self.init_values.types):
            _check_scalar(f"init value #{i}" if n > 1 else "init value", init)
        elements = reducer_elements(self.body, "reducer", self.inputs.types, self.init_values.types)
        out = windowed_shape(shape, window, strides, base, wdil, pads)
        self.check_result_types([tensor(out, e) for e in elements])


# ---------------------------------------------------------------------------
# xla.select_and_scatter
# ---------------------------------------------------------------------------


@irdl_op_definition
class SelectAndScatterOp(XlaOp):
    """Selects one element of each window of `operand` with `select` and scatters the
    matching `source` element there, combined with `scatter` (spec: SelectAndScatter)."""

    name = "xla.select_and_scatter"
    SPEC_SECTION: ClassVar[str] = "SelectAndScatter"

    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    result = result_def(TensorType)
    window_dimensions = opt_prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def()
    scatter = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        operand: SSAValue,
        source: SSAValue,
        init_value: SSAValue,
        select: Region | Computation,
        scatter: Region | Computation,
        window_dimensions: Sequence[int] | None = None,
        window_strides: Sequence[int] | None = None,
        padding: Sequence[tuple[int, int]] | None = None,
    ):
        s = scalar(element_type_of(operand.type))
        props: dict[str, Attribute] = {}
        if window_dimensions is not None:
            props["window_dimensions"] = i64_array(window_dimensions)
        if window_strides is not None:
            props["window_strides"] = i64_array(window_strides)
        if padding is not None:
            props["padding"] = padding_attr(padding)
        super().__init__(
            operands=[operand, source, init_value],
            result_types=[operand.type],
            properties=props,
            regions=[_regions_or_build(select, [s, s]), _regions_or_build(scatter, [s, s])],
        )

    def verify_(self) -> None:
        check_tensor("operand", self.operand.type)
        check_tensor("source", self.source.type)
        shape = shape_of(self.operand.type)
        rank = len(shape)
        element = element_type_of(self.operand.type)
        require(  # as StableHLO: one window size per dimension, so it may only be left out at rank 0
            self.window_dimensions is not None or rank == 0,
            f"window_dimensions must give one size per dimension of the operand (rank {rank})",
        )
        window = ints_of(self.window_dimensions) if self.window_dimensions else ()
        strides = ints_of(self.window_strides) if self.window_strides else None
        _window_check("window_dimensions", window, rank, 1)
        _window_check("window_strides", strides, rank, 1)
        pads = _padding_pairs("padding", self.padding, rank)
        require(
            element_type_of(self.source.type) == element,
            f"source element type {format_type(element_type_of(self.source.type))} differs "
            f"from operand element type {format_type(element)}",
        )
        _check_scalar("init_value", self.init_value.type, element, "the operand's")
        expected = windowed_shape(shape, window, strides, None, None, pads)
        source = shape_of(self.source.type)
        require(
            len(source) == len(expected)
            and all(a == b or is_dynamic(a) or is_dynamic(b) for a, b in zip(source, expected)),
            f"source shape {fmt_list(source)} must be the windowed shape of the operand "
            f"{fmt_list(expected)}",
        )
        s = scalar(element)
        check_region(self.select, "select", [s, s], [scalar(i1)])
        # As StableHLO: `scatter` may compute in a wider type of the same kind (its
        # promotable accumulator), which the result then holds.
        args, _ = region_signature(self.scatter, "scatter")
        accumulator = element_type_of(args[0]) if args and is_tensor(args[0]) else element
        require(
            is_promotable(element, accumulator),
            f"scatter element type {format_type(accumulator)} cannot hold the operand element type "
            f"{format_type(element)} (it must be the same kind, at least as wide)",
        )
        a = scalar(accumulator)
        check_region(self.scatter, "scatter", [a, a], [a])
        self.check_result_types([tensor(shape_of(self.operand.type), accumulator)])


# ---------------------------------------------------------------------------
# xla.map
# ---------------------------------------------------------------------------


@irdl_op_definition
class MapOp(XlaOp):
    """Applies a scalar computation element-wise to N inputs of one shape (spec: Map)."""

    name = "xla.map"
    SPEC_SECTION: ClassVar[str] = "Map"

    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    computation = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        computation: Region | Computation,
        dimensions: Sequence[int] | None = None,
    ):
        shape = shape_of(inputs[0].type)
        region = _regions_or_build(
            computation, [scalar(element_type_of(v.type)) for v in inputs]
        )
        _, returned = region_signature(region, "computation")
        if len(returned) != 1:
            raise ValueError(f"the computation must return one value, returns {len(returned)}")
        super().__init__(
            operands=[list(inputs)],
            result_types=[tensor(shape, element_type_of(returned[0]))],
            properties={
                "dimensions": i64_array(range(len(shape)) if dimensions is None else dimensions)
            },
            regions=[region],
        )

    def verify_(self) -> None:
        n = len(self.inputs)
        require(n >= 1, "must have at least one input")
        names = [f"input #{i}" if n > 1 else "input" for i in range(n)]
        shape = _check_inputs_same_shape(names, list(self.inputs.types))
        dims = ints_of(self.dimensions)
        require(
            list(dims) == list(range(len(shape))),
            f"dimensions {fmt_list(dims)} must be {fmt_list(range(len(shape)))} "
            "(map applies to every dimension)",
        )
        scalars = [scalar(element_type_of(t)) for t in self.inputs.types]
        _, returned = check_region(self.computation, "computation", scalars, None)
        require(
            len(returned) == 1,
            f"computation must return 1 value, returns {len(returned)}",
        )
        _check_scalar("computation result", returned[0])
        self.check_result_types([tensor(shape, element_type_of(returned[0]))])


# ---------------------------------------------------------------------------
# xla.sort
# ---------------------------------------------------------------------------


@irdl_op_definition
class SortOp(XlaOp):
    """Sorts N inputs of one shape along `dimension` by a comparator on (lhs, rhs)
    pairs of their elements (spec: Sort).

    `dimension` may be negative, counting from the last dimension (default -1).
    """

    name = "xla.sort"
    SPEC_SECTION: ClassVar[str] = "Sort"

    inputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    dimension = opt_prop_def(IntegerAttr[IntegerType])
    is_stable = opt_prop_def(IntegerAttr[IntegerType])
    comparator = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        comparator: Region | Computation,
        dimension: int = -1,
        is_stable: bool = False,
    ):
        pairs = [t for v in inputs for t in (scalar(element_type_of(v.type)),) * 2]
        super().__init__(
            operands=[list(inputs)],
            result_types=[[v.type for v in inputs]],
            properties={
                "dimension": IntegerAttr(dimension, i64),
                "is_stable": IntegerAttr(int(is_stable), i1),
            },
            regions=[_regions_or_build(comparator, pairs)],
        )

    def verify_(self) -> None:
        n = len(self.inputs)
        require(n >= 1, "must have at least one input")
        names = [f"input #{i}" if n > 1 else "input" for i in range(n)]
        shape = _check_inputs_same_shape(names, list(self.inputs.types))
        rank = len(shape)
        dim = -1 if self.dimension is None else self.dimension.value.data
        require(
            -rank <= dim < rank,
            f"dimension {dim} is out of range [{-rank}, {rank})",
        )
        pairs = [t for e in self.inputs.types for t in (scalar(element_type_of(e)),) * 2]
        check_region(self.comparator, "comparator", pairs, [scalar(i1)])
        self.check_result_types(list(self.inputs.types))


OPS: tuple[type[Operation], ...] = (ReduceOp, ReduceWindowOp, SelectAndScatterOp, MapOp, SortOp)

__all__ = [
    "OPS",
    "MapOp",
    "ReduceOp",
    "ReduceWindowOp",
    "SelectAndScatterOp",
    "SortOp",
    "padding_attr",
    "windowed_shape",
]
