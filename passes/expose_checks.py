"""`xla-expose-checks`: a function's `check.*` expectations become results.

A test program states what its values must be with `check` ops. Evaluating
them at compile time would test the folder, not the compiled code; so this pass
removes each check op and returns the values it looks at as extra results of
its function (after the function's own results, in program order), and the
runner (`xla_tools/conformance.py`) evaluates the expectations on what the
native code computed. `expose_checks` returns the list of `ExposedCheck`s that
says which results belong to which expectation.

Values of element types NumPy cannot hold are widened on the way out, exactly:
sub-byte integers (`i2`, `ui4`, ...) to 8 bits by `xla.convert`; a check
compares the widened values with its constant widened the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FileLineColLoc, FunctionType, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xla_dialect.check import CHECK_OPS
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.elementwise import ConvertOp
from xla_dialect.types import element_type_of


@dataclass
class ExposedCheck:
    """One expectation: its op name, the indices of the results holding its
    operands, its properties (tolerance, expected value, ...) and where it was."""

    kind: str
    results: list[int]
    properties: dict[str, Attribute] = field(default_factory=dict[str, Attribute])
    location: str = "<unknown>"

    @property
    def short_kind(self) -> str:
        return self.kind.removeprefix("check.")


def _location(op: Operation) -> str:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return "<unknown>"


def _widened(value: SSAValue, before: Operation) -> SSAValue:
    """`value`, with sub-byte integer elements converted to 8 bits."""
    t = value.type
    element = element_type_of(t)
    if not (isinstance(t, TensorType) and isinstance(element, IntegerType)):
        return value
    if element.width.data in (1, 8, 16, 32, 64):
        return value
    wide = IntegerType(8 if element.width.data < 8 else 64, element.signedness.data)
    convert = ConvertOp(value, TensorType(wide, t.get_shape()))
    Rewriter.insert_op(convert, InsertPoint.before(before))
    return convert.results[0]


def expose_checks(function: func.FuncOp) -> list[ExposedCheck]:
    """Replace `function`'s check ops by results; return what each result checks."""
    checks = [op for op in function.walk() if isinstance(op, CHECK_OPS)]
    if not checks:
        return []
    returns = [op for op in function.body.ops if isinstance(op, func.ReturnOp)]
    for check in checks:
        if check.parent_op() is not function:
            raise LoweringError(f"'{check.name}' must be at the top level of its function to be exposed", check)
    if len(returns) != 1 or len(function.body.blocks) != 1:
        raise LoweringError("a function with check ops must have a single block ending in func.return", function)
    (ret,) = returns
    extra: list[SSAValue] = []
    exposed: list[ExposedCheck] = []
    first = len(ret.operands)
    for check in checks:
        indices = []
        for operand in check.operands:
            indices.append(first + len(extra))
            extra.append(_widened(operand, ret))
        exposed.append(ExposedCheck(check.name, indices, dict(check.properties), _location(check)))
        Rewriter.erase_op(check)
    new_ret = func.ReturnOp(*ret.operands, *extra)
    Rewriter.replace_op(ret, new_ret)
    inputs = list(function.function_type.inputs.data)
    outputs: list[Attribute] = [*function.function_type.outputs.data, *(v.type for v in extra)]
    function.function_type = FunctionType.from_lists(inputs, outputs)
    return exposed


@dataclass(frozen=True)
class ExposeChecksPass(ModulePass):
    """Turn every function's check ops into extra results (see the module docstring)."""

    name = "xla-expose-checks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if isinstance(function, func.FuncOp) and function.body.blocks:
                expose_checks(function)


__all__ = ["ExposeChecksPass", "ExposedCheck", "expose_checks"]
