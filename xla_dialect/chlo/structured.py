"""The structured `chlo` ops: `top_k`, `scan` and `ragged_dot`."""


from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure, RecursiveMemoryEffect

from xla_dialect.chlo.base import (
    ChloOp,
    ChloPrecisionAttr,
    RaggedDotDimensionNumbersAttr,
    check_element,
    require_inferred,
)
from xla_dialect.diagnostics import fmt_list, require
from xla_dialect.ops.base import check_dims_in_range
from xla_dialect.syntax import (
    build,
    parse_attr_dict,
    parse_function_type,
    parse_result_types,
    print_attr_dict,
    print_function_type,
    print_operands,
    resolve,
)
from xla_dialect.types import (
    element_type_of,
    format_type,
    is_dynamic,
    is_tensor,
    rank_of,
    shape_of,
    tensor,
)

# ---------------------------------------------------------------------------
# top_k
# ---------------------------------------------------------------------------


@irdl_op_definition
class TopKOp(ChloOp):
    """`chlo.top_k(%x, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)`:
    the k largest entries along the last dimension, largest first, with their i32
    indices; equal values keep the lower index first (XLA's TopK)."""

    name = "chlo.top_k"
    operand = operand_def(TensorType)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    k = prop_def(IntegerAttr[IntegerType])
    is_stable = opt_prop_def(IntegerAttr[IntegerType])
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue, k: int):
        shape = list(shape_of(operand.type))
        shape[-1] = k
        super().__init__(
            operands=[operand],
            result_types=[tensor(shape, element_type_of(operand.type)), tensor(shape, i32)],
            properties={"k": IntegerAttr(k, i64)},
        )

    def verify_(self) -> None:
        check_element("operand", self.operand.type, "any")
        shape = shape_of(self.operand.type)
        k = self.k.value.data
        require(len(shape) >= 1, "operand must have rank >= 1")
        require(k >= 0, f"k {k} must be non-negative")
        last = shape[-1]
        require(
            is_dynamic(last) or k <= last,
            f"k {k} exceeds the last dimension size {last} of the operand",
        )
        out = (*shape[:-1], k)
        want_values = tensor(out, element_type_of(self.operand.type))
        require_inferred("values", self.values.type, want_values)
        want_indices = tensor(out, i32)
        require_inferred("indices", self.indices.type, want_indices)

    @classmethod
    def parse(cls, parser: Parser) -> TopKOp:
        pos = parser.pos
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        attrs: dict[str, Attribute] = {"k": IntegerAttr(parser.parse_integer(), i64)}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            attrs["is_stable"] = IntegerAttr(int(parser.parse_boolean()), i1)
        parser.parse_punctuation(")")
        attrs.update(parse_attr_dict(parser))
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_types = parse_result_types(parser)
        return build(cls, resolve(parser, [operand], [in_type], pos), out_types, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(f", is_stable = {'true' if self.is_stable.value.data else 'false'}")
        printer.print_string(")")
        print_attr_dict(printer, self, ["k", "is_stable"])
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")


# ---------------------------------------------------------------------------
# scan
# ---------------------------------------------------------------------------


@irdl_op_definition
class ScanOp(ChloOp):
    """`chlo.scan(%inputs) inits(%inits) dimension=d {body} : (...) -> (...)`.

    Walks `dimension` (backwards if `is_reverse`), calling `body` on the inputs'
    slices at each position followed by the carries; the body returns the
    outputs' slices at that position followed by the new carries. The results are
    the outputs (the slices stacked along `dimension`) then the final carries."""

    name = "chlo.scan"
    inputs = var_operand_def(TensorType)
    inits = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    carries = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    scan_dim_size = opt_prop_def(IntegerAttr[IntegerType])
    is_reverse = opt_prop_def(BoolAttr)
    is_associative = opt_prop_def(BoolAttr)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
    )

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def reverse(self) -> bool:
        return self.is_reverse is not None and bool(self.is_reverse.value.data)

    def scan_length(self) -> int | None:
        """The size of the scanned dimension (None when it is unknown)."""
        if self.scan_dim_size is not None:
            return self.scan_dim_size.value.data
        for t in (*self.inputs.types, *self.outputs.types):
            size = shape_of(t)[self.dim]
            if not is_dynamic(size):
                return size
        return None

    def verify_(self) -> None:
        dim = self.dim
        require(dim >= 0, f"dimension {dim} must be non-negative")
        require(len(self.inputs) + len(self.outputs) > 0, "at least one of inputs or outputs must be present")
        size = self.scan_dim_size.value.data if self.scan_dim_size is not None else None
        for i, t in enumerate(self.inputs.types):
            check_element(f"input #{i}", t, "any")
            require(dim < rank_of(t), f"dimension {dim} is out of range for input #{i} of rank {rank_of(t)}")
            s = shape_of(t)[dim]
            if not is_dynamic(s):
                require(size is None or size == s, f"input #{i} has scan dimension size {s}, expected {size}")
                size = s
        block = self.body.blocks.first
        require(block is not None, "body must have a block")
        assert block is not None
        n_in, n_carry = len(self.inputs), len(self.inits)
        require(
            len(block.args) == n_in + n_carry,
            f"body takes {len(block.args)} arguments, expected {n_in + n_carry} "
            "(one per input, then one per init)",
        )
        for i, (arg, t) in enumerate(zip(block.args, [*self.inputs.types, *self.inits.types])):
            want = t
            if i < n_in:
                shape = list(shape_of(t))
                del shape[dim]
                want = tensor(shape, element_type_of(t))
            require(
                arg.type == want,
                f"body argument #{i} has type {format_type(arg.type)}, expected {format_type(want)}",
            )
        last = block.last_op
        require(last is not None, "body must end in a return")
        assert last is not None
        returned = list(last.operand_types)
        n_out = len(self.outputs)
        require(
            len(returned) == n_out + n_carry,
            f"body returns {len(returned)} values, expected {n_out + n_carry} "
            "(one per output, then one per carry)",
        )
        for i, (t, init) in enumerate(zip(returned[n_out:], self.inits.types)):
            require(t == init, f"body carry #{i} has type {format_type(t)}, init has {format_type(init)}")
        for i, (t, c) in enumerate(zip(returned[n_out:], self.carries.types)):
            require(t == c, f"carry result #{i} has type {format_type(c)}, body returns {format_type(t)}")
        for i, (t, out) in enumerate(zip(returned[:n_out], self.outputs.types)):
            require(
                is_tensor(out) and rank_of(out) == rank_of(t) + 1 and dim <= rank_of(t),
                f"output #{i} type {format_type(out)} must add dimension {dim} to the body's "
                f"{format_type(t)}",
            )
            shape = list(shape_of(out))
            out_size = shape.pop(dim)
            require(
                tuple(shape) == shape_of(t) and element_type_of(out) == element_type_of(t),
                f"output #{i} type {format_type(out)} must add dimension {dim} to the body's "
                f"{format_type(t)}",
            )
            if size is not None and not is_dynamic(out_size):
                require(out_size == size, f"output #{i} has scan dimension size {out_size}, expected {size}")

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        pos = parser.pos
        inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("inits")
        inits = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        attrs: dict[str, Attribute] = {"dimension": IntegerAttr(parser.parse_integer(), i64)}
        extra = parser.parse_optional_attr_dict_with_keyword()
        if extra is not None:
            attrs.update(extra.data)
        body = parser.parse_region()
        parser.parse_punctuation(":")
        in_types, out_types = parse_function_type(parser)
        n_in, n_carry = len(inputs), len(inits)
        if len(in_types) != n_in + n_carry:
            parser.raise_error("operand types must match the number of inputs and inits", pos, parser.pos)
        if len(out_types) < n_carry:
            parser.raise_error("not enough result types to cover the carries", pos, parser.pos)
        values = resolve(parser, [*inputs, *inits], in_types, pos)
        n_out = len(out_types) - n_carry
        return build(
            cls,
            [values[:n_in], values[n_in:]],
            [out_types[:n_out], out_types[n_out:]],
            attrs,
            [body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        print_operands(printer, self.inputs)
        printer.print_string(") inits(")
        print_operands(printer, self.inits)
        printer.print_string(f") dimension={self.dim}")
        skip = {"dimension", "operandSegmentSizes", "resultSegmentSizes"}
        attrs = {k: v for k, v in {**self.properties, **self.attributes}.items() if k not in skip}
        if attrs:
            printer.print_string(" attributes ")
            printer.print_attr_dict(attrs)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)


# ---------------------------------------------------------------------------
# ragged_dot
# ---------------------------------------------------------------------------


def ragged_dot_mode(dn: RaggedDotDimensionNumbersAttr) -> str:
    """`non_contracting` (mode 1), `contracting` (mode 2) or `batch` (mode 3): the kind
    of the lhs ragged dimension."""
    ragged = dn.ints("lhs_ragged_dimensions")[0]
    if ragged in dn.ints("lhs_batching_dimensions"):
        return "batch"
    if ragged in dn.ints("lhs_contracting_dimensions"):
        return "contracting"
    return "non_contracting"


def infer_ragged_dot_shape(
    lhs: Sequence[int], rhs: Sequence[int], group_sizes: Sequence[int], dn: RaggedDotDimensionNumbersAttr
) -> tuple[int, ...]:
    """Checks CHLO's ragged-dot rules and returns the result shape."""
    lb, rb = dn.ints("lhs_batching_dimensions"), dn.ints("rhs_batching_dimensions")
    lc, rc = dn.ints("lhs_contracting_dimensions"), dn.ints("rhs_contracting_dimensions")
    ragged, groups = dn.ints("lhs_ragged_dimensions"), dn.ints("rhs_group_dimensions")
    check_dims_in_range("lhs_batching_dimensions", lb, len(lhs))
    check_dims_in_range("rhs_batching_dimensions", rb, len(rhs))
    check_dims_in_range("lhs_contracting_dimensions", lc, len(lhs))
    check_dims_in_range("rhs_contracting_dimensions", rc, len(rhs))
    require(len(lb) == len(rb), "lhs and rhs must have the same number of batching dimensions")
    require(len(lc) == len(rc), "lhs and rhs must have the same number of contracting dimensions")
    require(not set(lb) & set(lc), "lhs batching and contracting dimensions overlap")
    require(not set(rb) & set(rc), "rhs batching and contracting dimensions overlap")
    for a, b in zip(lb, rb):
        require(lhs[a] == rhs[b], f"batching dimension sizes differ: lhs {lhs[a]} vs rhs {rhs[b]}")
    for a, b in zip(lc, rc):
        require(lhs[a] == rhs[b], f"contracting dimension sizes differ: lhs {lhs[a]} vs rhs {rhs[b]}")
    require(len(ragged) == 1, "there must be exactly one ragged dimension in the lhs")
    check_dims_in_range("lhs_ragged_dimensions", ragged, len(lhs))
    check_dims_in_range("rhs_group_dimensions", groups, len(rhs))
    require(not set(groups) & (set(rb) | set(rc)), "rhs_group_dimensions overlap batching or contracting dimensions")
    require(len(group_sizes) >= 1, "group_sizes must have rank >= 1")
    g = group_sizes[-1]
    mode = ragged_dot_mode(dn)
    r = ragged[0]
    if mode == "non_contracting":
        require(
            len(groups) == 1,
            "there must be exactly one group dimension in the rhs when the lhs ragged "
            "dimension is non-contracting",
        )
        require(rhs[groups[0]] == g, f"rhs group dimension has size {rhs[groups[0]]}, expected {g}")
        prefix = [*lb, *[d for d in range(r) if d not in lb and d not in lc]]
    else:
        require(
            not groups,
            "there must be no group dimension in the rhs when the ragged dimension is "
            "batch or contracting",
        )
        prefix = list(lb[: lb.index(r)]) if mode == "batch" else [*lb, *lc[: lc.index(r)]]
    if len(group_sizes) != 1:
        want = [lhs[d] for d in prefix]
        require(
            list(group_sizes[:-1]) == want,
            f"group_sizes has shape {fmt_list(group_sizes)}, expected {fmt_list([*want, g])}",
        )
    out = [g] if mode == "contracting" else []
    out += [lhs[d] for d in lb]
    out += [lhs[d] for d in range(len(lhs)) if d not in lb and d not in lc]
    out += [rhs[d] for d in range(len(rhs)) if d not in rb and d not in rc and d not in groups]
    return tuple(out)


@irdl_op_definition
class RaggedDotOp(ChloOp):
    """A dot_general whose lhs ragged dimension is split into groups of
    `group_sizes` rows (CHLO's three modes: ragged non-contracting dimension with an
    rhs group dimension; ragged contracting dimension giving one result per group;
    ragged batch dimension)."""

    name = "chlo.ragged_dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    group_sizes = operand_def(TensorType)
    result = result_def(TensorType)
    ragged_dot_dimension_numbers = prop_def(RaggedDotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        check_element("lhs", self.lhs.type, "any")
        check_element("rhs", self.rhs.type, "any")
        check_element("group_sizes", self.group_sizes.type, "integer")
        if self.precision_config is not None:
            require(
                len(self.precision_config.data) in (0, 2)
                and all(isinstance(p, ChloPrecisionAttr) for p in self.precision_config.data),
                "precision_config must hold two #chlo<precision ...> values",
            )
        shape = infer_ragged_dot_shape(
            shape_of(self.lhs.type),
            shape_of(self.rhs.type),
            shape_of(self.group_sizes.type),
            self.ragged_dot_dimension_numbers,
        )
        require(
            shape_of(self.result.type) == shape,
            f"result shape {fmt_list(shape_of(self.result.type))} does not match the inferred "
            f"{fmt_list(shape)}",
        )
