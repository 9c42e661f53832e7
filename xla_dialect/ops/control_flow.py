"""Control flow: region terminator, loops, conditionals, calls and the optimization
barrier (spec: While, Conditional, Call; `xla.optimization_barrier` is StableHLO's).

Computations the spec passes as `XlaComputation`s are regions here, as in StableHLO:
each region has one block whose arguments are the computation's parameters (0-d
tensors for the scalar parameters of reducers and comparators) and which ends with
`xla.return`. The helpers `region_signature` and `check_region` are shared with the
reduction family.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import ImplicitBuilder
from xdsl.dialects.builtin import (
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i1,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike, SymbolTable

from xla_dialect.diagnostics import require
from xla_dialect.ops.base import XlaOp
from xla_dialect.syntax import (
    build,
    parse_attr_dict,
    parse_function_type,
    parse_operand_list,
    parse_type_list,
    print_attr_dict,
    print_attrs_and_function_type,
    print_operands,
    print_types,
    resolve,
)
from xla_dialect.types import format_type, is_tensor, shape_of

# ---------------------------------------------------------------------------
# Region helpers (also used by the reduction family)
# ---------------------------------------------------------------------------


def _fmt_types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(format_type(t) for t in types) + ")"


def region_signature(
    region: Region, name: str
) -> tuple[list[Attribute], list[Attribute]]:
    """The argument and returned types of a single-block region ending in `xla.return`.

    Raises a verifier error naming `name` if the region is not of that form.
    """
    require(len(region.blocks) == 1, f"{name} must have exactly one block, has {len(region.blocks)}")
    block = region.block
    terminator = block.last_op
    require(
        isinstance(terminator, ReturnOp),
        f"{name} must end with xla.return"
        + ("" if terminator is None else f", ends with {terminator.name}"),
    )
    assert isinstance(terminator, ReturnOp)
    return list(block.arg_types), list(terminator.operand_types)


def check_region(
    region: Region,
    name: str,
    arg_types: Sequence[Attribute] | None,
    result_types: Sequence[Attribute] | None,
) -> tuple[list[Attribute], list[Attribute]]:
    """`region` takes `arg_types` and returns `result_types` (None: not checked)."""
    args, results = region_signature(region, name)
    if arg_types is not None:
        require(
            len(args) == len(arg_types),
            f"{name} must take {len(arg_types)} arguments, takes {len(args)}",
        )
        for i, (have, want) in enumerate(zip(args, arg_types)):
            if have != want:
                message = f"{name} argument #{i} has type {format_type(have)}, expected {format_type(want)}"
                require(False, message)
    if result_types is not None:
        require(
            len(results) == len(result_types),
            f"{name} must return {len(result_types)} values, returns {len(results)}",
        )
        for i, (have, want) in enumerate(zip(results, result_types)):
            if have != want:
                message = f"{name} result #{i} has type {format_type(have)}, expected {format_type(want)}"
                require(False, message)
    return args, results


def is_scalar_tensor(t: Attribute, element: Attribute | None = None) -> bool:
    """A 0-d tensor (of `element` if given)."""
    return (
        is_tensor(t)
        and len(shape_of(t)) == 0
        and (element is None or t.element_type == element)
    )


Computation = Callable[..., SSAValue | Sequence[SSAValue]]
"""A Python function building a computation: takes block arguments, returns values."""


def region_from(arg_types: Sequence[Attribute], body: Computation) -> Region:
    """A single-block region with `arg_types` arguments; `body(*args)` builds its ops
    (ops created inside are appended to the block) and `xla.return` ends it."""
    block = Block(arg_types=list(arg_types))
    with ImplicitBuilder(block):
        returned = body(*block.args)
    values = [returned] if isinstance(returned, SSAValue) else list(returned)
    block.add_op(ReturnOp(values))
    return Region(block)


# ---------------------------------------------------------------------------
# xla.return
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReturnOp(XlaOp):
    """Ends a region of an `xla` op and yields the computation's results (spec: While)."""

    name = "xla.return"
    SPEC_SECTION: ClassVar[str] = "StableHLO"

    values = var_operand_def()
    traits = traits_def(IsTerminator(), ReturnLike(), Pure())

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(values)])

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parse_type_list(parser)
        return build(cls, [resolve(parser, operands, types, pos)], [], attrs)

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            print_operands(printer, self.values)
        print_attr_dict(printer, self)
        if self.values:
            printer.print_string(" : ")
            print_types(printer, self.operand_types)


# ---------------------------------------------------------------------------
# xla.while
# ---------------------------------------------------------------------------


@irdl_op_definition
class WhileOp(XlaOp):
    """Runs `body` on the loop-carried values while `cond` holds; returns the last
    values (spec: While)."""

    name = "xla.while"
    SPEC_SECTION: ClassVar[str] = "While"

    operand = var_operand_def()
    results_ = var_result_def()
    cond = region_def()
    body = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        operands: Sequence[SSAValue],
        cond: Region | Computation,
        body: Region | Computation,
    ):
        types = [v.type for v in operands]
        if not isinstance(cond, Region):
            cond = region_from(types, cond)
        if not isinstance(body, Region):
            body = region_from(types, body)
        super().__init__(operands=[list(operands)], result_types=[types], regions=[cond, body])

    def verify_(self) -> None:
        types = list(self.operand_types)
        for i, t in enumerate(types):
            require(
                not isinstance(t, FunctionType),
                f"operand #{i} has function type {format_type(t)}",
            )
        _args, results = check_region(self.cond, "cond", types, None)
        require(
            len(results) == 1 and is_scalar_tensor(results[0], i1),
            f"cond must return a single tensor<i1>, returns {_fmt_types(results)}",
        )
        check_region(self.body, "body", types, types)
        self.check_result_types(types)

    # `xla.while(%arg0 = %a, %arg1 = %b) : t0, t1 attributes {..} cond {..} do {..}`
    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        pos = parser.pos
        pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []

        def parse_pair() -> None:
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            pairs.append((arg, parser.parse_unresolved_operand()))

        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_pair)
            parser.parse_punctuation(")")
        types: list[Attribute] = []
        if pairs:
            parser.parse_punctuation(":")
            types = parse_type_list(parser)
        values = resolve(parser, [o for _, o in pairs], types, pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_keyword("cond")
        arguments = [a.resolve(t) for (a, _), t in zip(pairs, types)]
        cond = parser.parse_region(arguments)
        parser.parse_keyword("do")
        body = parser.parse_region(arguments)
        return build(
            cls, [values], [types], dict(attrs.data) if attrs else {}, [cond, body]
        )

    def print(self, printer: Printer) -> None:
        cond_args = self.cond.blocks.first.args if self.cond.blocks else ()
        body_args = self.body.blocks.first.args if self.body.blocks else ()
        printer.print_string("(")
        for i, value in enumerate(self.operand):
            if i:
                printer.print_string(", ")
            if i < len(cond_args):
                name = printer.print_ssa_value(cond_args[i])
                # The body's arguments are spelled like the condition's (StableHLO
                # declares them once, in the header).
                if i < len(body_args):
                    printer._ssa_values[body_args[i]] = name  # pyright: ignore[reportPrivateUsage]
            printer.print_string(" = ")
            printer.print_operand(value)
        printer.print_string(")")
        if self.operand:
            printer.print_string(" : ")
            print_types(printer, self.operand_types)
        attrs = {**self.properties, **self.attributes}
        if attrs:
            printer.print_string(" attributes ")
            printer.print_attr_dict(attrs)
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("cond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body, print_entry_block_args=False)


# ---------------------------------------------------------------------------
# xla.if / xla.case (Conditional)
# ---------------------------------------------------------------------------


def _check_branch(region: Region, name: str, result_types: Sequence[Attribute]) -> None:
    args, _ = region_signature(region, name)
    require(not args, f"{name} must take no arguments, takes {len(args)}")
    check_region(region, name, None, result_types)


@irdl_op_definition
class IfOp(XlaOp):
    """Runs `true_branch` if the PRED scalar `pred` holds, else `false_branch`; both
    return the results (spec: Conditional, predicate form).

    The spec's operands of the branch computations are values the regions capture;
    see `conditional` for the operand-passing form.
    """

    name = "xla.if"
    SPEC_SECTION: ClassVar[str] = "Conditional"

    pred = operand_def(TensorType)
    results_ = var_result_def()
    true_branch = region_def()
    false_branch = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        pred: SSAValue,
        true_branch: Region | Computation,
        false_branch: Region | Computation,
    ):
        if not isinstance(true_branch, Region):
            true_branch = region_from([], true_branch)
        if not isinstance(false_branch, Region):
            false_branch = region_from([], false_branch)
        _, result_types = region_signature(true_branch, "true_branch")
        super().__init__(
            operands=[pred], result_types=[result_types], regions=[true_branch, false_branch]
        )

    def verify_(self) -> None:
        require(
            is_scalar_tensor(self.pred.type, i1),
            f"pred must be a tensor<i1> scalar, got {format_type(self.pred.type)}",
        )
        types = list(self.result_types)
        _check_branch(self.true_branch, "true_branch", types)
        _check_branch(self.false_branch, "false_branch", types)


@irdl_op_definition
class CaseOp(XlaOp):
    """Runs `branches[index]`; an index < 0 or >= N runs the last branch, the default
    (spec: Conditional, branch-index form)."""

    name = "xla.case"
    SPEC_SECTION: ClassVar[str] = "Conditional"

    index = operand_def(TensorType)
    results_ = var_result_def()
    branches = var_region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, index: SSAValue, branches: Sequence[Region | Computation]):
        regions = [b if isinstance(b, Region) else region_from([], b) for b in branches]
        result_types: list[Attribute] = []
        if regions:
            _, result_types = region_signature(regions[0], "branch #0")
        super().__init__(operands=[index], result_types=[result_types], regions=[regions])

    def verify_(self) -> None:
        require(
            is_scalar_tensor(self.index.type, i32),
            f"index must be a tensor<i32> scalar, got {format_type(self.index.type)}",
        )
        require(len(self.branches) >= 1, "must have at least one branch")
        types = list(self.result_types)
        for i, region in enumerate(self.branches):
            _check_branch(region, f"branch #{i}", types)


def _capturing(operand: SSAValue, computation: Computation | FuncOp) -> Computation:
    """A branch body that applies `computation` to the captured `operand`."""

    def body() -> SSAValue | Sequence[SSAValue]:
        if isinstance(computation, FuncOp):
            return CallOp(computation, [operand]).results
        return computation(operand)

    return body


def conditional(
    pred: SSAValue,
    true_operand: SSAValue,
    true_computation: Computation | FuncOp,
    false_operand: SSAValue,
    false_computation: Computation | FuncOp,
) -> IfOp:
    """The spec's `Conditional(pred, true_operand, true_computation, false_operand,
    false_computation)`: an `xla.if` whose branches apply the computations (Python
    builders or `func.func`s, called with `xla.call`) to the captured operands."""
    return IfOp(
        pred,
        _capturing(true_operand, true_computation),
        _capturing(false_operand, false_computation),
    )


def conditional_indexed(
    branch_index: SSAValue,
    branch_computations: Sequence[Computation | FuncOp],
    branch_operands: Sequence[SSAValue],
) -> CaseOp:
    """The spec's `Conditional(branch_index, branch_computations, branch_operands)`:
    an `xla.case` whose branch b applies `branch_computations[b]` to the captured
    `branch_operands[b]`."""
    if len(branch_computations) != len(branch_operands):
        raise ValueError(
            f"{len(branch_computations)} branch computations but {len(branch_operands)} operands"
        )
    return CaseOp(
        branch_index,
        [_capturing(o, c) for o, c in zip(branch_operands, branch_computations)],
    )


# ---------------------------------------------------------------------------
# xla.call
# ---------------------------------------------------------------------------


def check_callee(op: XlaOp, callee: SymbolRefAttr, what: str, passes: str) -> None:
    """`callee` names a `func.func` whose signature matches `op`'s operands and
    results (xla.call's callee, xla.composite's decomposition)."""
    name = callee.root_reference.data
    require(not callee.nested_references.data, f"{what} {callee} must be a flat symbol reference")
    try:
        target = SymbolTable.lookup_symbol(op, callee)
    except ValueError:
        target = None
    require(target is not None, f"{what} @{name} is not defined")
    require(isinstance(target, FuncOp), f"{what} @{name} is not a func.func")
    assert isinstance(target, FuncOp)
    inputs, outputs = list(target.function_type.inputs), list(target.function_type.outputs)
    require(
        len(op.operands) == len(inputs),
        f"{what} @{name} takes {len(inputs)} arguments, {passes} {len(op.operands)}",
    )
    for i, (have, want) in enumerate(zip(op.operand_types, inputs)):
        require(
            have == want,
            f"argument #{i} has type {format_type(have)} but the {what}'s parameter "
            f"has type {format_type(want)}",
        )
    op.check_result_types(outputs)


@irdl_op_definition
class CallOp(XlaOp):
    """Calls the `func.func` named `callee` with the arguments (spec: Call)."""

    name = "xla.call"
    SPEC_SECTION: ClassVar[str] = "Call"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    results_ = var_result_def()

    def __init__(
        self,
        callee: str | SymbolRefAttr | FuncOp,
        args: Sequence[SSAValue],
        result_types: Sequence[Attribute] | None = None,
    ):
        if isinstance(callee, FuncOp):
            if result_types is None:
                result_types = list(callee.function_type.outputs)
            callee = SymbolRefAttr(callee.sym_name)
        elif isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        if result_types is None:
            raise ValueError("result_types are needed when the callee is given by name")
        super().__init__(
            operands=[list(args)],
            result_types=[list(result_types)],
            properties={"callee": callee},
        )

    def verify_(self) -> None:
        check_callee(self, self.callee, "callee", "the call passes")

    # `xla.call @f(%a, %b) {attrs} : (t0, t1) -> t2`
    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        name = parser.parse_symbol_name()
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        inputs, outputs = parse_function_type(parser)
        attrs["callee"] = SymbolRefAttr(name)
        return build(cls, [resolve(parser, operands, inputs, pos)], [outputs], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        printer.print_string("(")
        print_operands(printer, self.args)
        printer.print_string(")")
        print_attrs_and_function_type(printer, self, ["callee"])


# ---------------------------------------------------------------------------
# xla.composite
# ---------------------------------------------------------------------------


@irdl_op_definition
class CompositeOp(XlaOp):
    """A named op given by its decomposition (StableHLO `composite`): it computes
    what a call of the `decomposition` function computes; `name`,
    `composite_attributes` and `version` tell tools which higher-level op it is."""

    name = "xla.composite"
    SPEC_SECTION: ClassVar[str] = "StableHLO"

    inputs = var_operand_def()
    results_ = var_result_def()
    composite_name = prop_def(StringAttr, prop_name="name")
    composite_attributes = opt_prop_def(DictionaryAttr)
    decomposition = prop_def(SymbolRefAttr)
    version = opt_prop_def(IntegerAttr)

    def verify_(self) -> None:
        name = self.composite_name.data
        require(  # as StableHLO: `namespace.op`, like an op name
            re.fullmatch(r"[A-Za-z_][\w$]*(\.[\w$]+)+", name) is not None,
            f"name \"{name}\" must be a namespaced op name (namespace.name)",
        )
        check_callee(self, self.decomposition, "decomposition", "the composite passes")

    # `xla.composite "name" %a, %b {decomposition = @f, ...} : (t0, t1) -> t2`
    @classmethod
    def parse(cls, parser: Parser) -> CompositeOp:
        name = parser.parse_str_literal()
        pos = parser.pos
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        parser.parse_punctuation(":")
        inputs, outputs = parse_function_type(parser)
        attrs["name"] = StringAttr(name)
        return build(cls, [resolve(parser, operands, inputs, pos)], [outputs], attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.composite_name.data)
        if self.inputs:
            printer.print_string(" ")
            print_operands(printer, self.inputs)
        print_attrs_and_function_type(printer, self, ["name"])


# ---------------------------------------------------------------------------
# xla.optimization_barrier
# ---------------------------------------------------------------------------


@irdl_op_definition
class OptimizationBarrierOp(XlaOp):
    """Passes its operands through unchanged while keeping optimizations from moving
    computations across it (StableHLO `optimization_barrier`; spec: While, where XLA
    uses it to order loop bodies)."""

    name = "xla.optimization_barrier"
    SPEC_SECTION: ClassVar[str] = "StableHLO"

    operand = var_operand_def()
    results_ = var_result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(
            operands=[list(operands)], result_types=[[v.type for v in operands]]
        )

    def verify_(self) -> None:
        self.check_result_types(list(self.operand_types))

    # `xla.optimization_barrier %a, %b : t0, t1`
    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        pos = parser.pos
        if parser.parse_optional_punctuation("(") is not None:  # `()`: no operands, as upstream
            parser.parse_punctuation(")")
            return build(cls, [[]], [[]], parse_attr_dict(parser))
        operands = parse_operand_list(parser)
        attrs = parse_attr_dict(parser)
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parse_type_list(parser)
        elif parser.parse_optional_punctuation("(") is not None:  # upstream: attr-dict, then `()`
            parser.parse_punctuation(")")
        return build(cls, [resolve(parser, operands, types, pos)], [types], attrs)

    def print(self, printer: Printer) -> None:
        if self.operand:
            printer.print_string(" ")
            print_operands(printer, self.operand)
        print_attr_dict(printer, self)
        if self.operand:
            printer.print_string(" : ")
            print_types(printer, self.operand_types)
        else:  # as StableHLO's format: `optimization_barrier()` (the empty type list)
            printer.print_string("()")


OPS: tuple[type[Operation], ...] = (
    ReturnOp,
    WhileOp,
    IfOp,
    CaseOp,
    CallOp,
    CompositeOp,
    OptimizationBarrierOp,
)

__all__ = [
    "OPS",
    "CallOp",
    "CaseOp",
    "CompositeOp",
    "Computation",
    "IfOp",
    "OptimizationBarrierOp",
    "ReturnOp",
    "WhileOp",
    "check_region",
    "conditional",
    "conditional_indexed",
    "is_scalar_tensor",
    "region_from",
    "region_signature",
]
