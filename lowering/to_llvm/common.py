"""Shared pieces of the conversions to the `llvm` dialect.

* `convert_type`: the type conversion of every `*-to-llvm` pass. `index` becomes
  `i64`, signed/unsigned integers become signless, `bf16` becomes `i16` (its bit
  pattern: llvmlite has no bfloat type, so bf16 values are only stored, loaded,
  selected and converted; arithmetic on them must first be rewritten by
  `arith-emulate-unsupported-floats`, see `check_bf16_operand`), a (statically
  shaped) memref becomes a bare opaque `!llvm.ptr` to the element `[0, ..., 0]`
  of the view (its layout offset is already applied), `func` function types
  become `!llvm.func`, `complex<fT>` becomes `!llvm.struct<(fT, fT)>`.
* Materialization: a conversion pattern never assumes its operands were already
  converted. `llvm_operand` bridges an operand to its converted type with a
  `builtin.unrealized_conversion_cast`; `replace_with_llvm` casts the new results
  back to the original types where they differ. The casts cancel out pairwise in
  `reconcile-unrealized-casts`, which every pass here runs at its end.
* Ops the `llvm` dialect of xDSL 0.74 lacks (`llvm.fptosi`, `llvm.fptoui`,
  `llvm.uitofp`, `llvm.switch`), spelled as MLIR spells them. They are printed and
  translated to LLVM IR (see `runtime.llvm_backend`); for *parsing* them a
  context needs `register_llvm_extensions(ctx)`.
* `LoweringError` (defined in `xla_dialect/diagnostics.py`, re-exported): a
  diagnostic naming the op that cannot be lowered.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Sequence

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    DenseIntElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    ReducedPrecisionFloatType,
    Signedness,
    SignlessIntegerConstraint,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, Pure
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPattern
from xdsl.utils.exceptions import VerifyException

from lowering.pattern_dispatch import TypeDispatchingApplier  # the greedy applier, by op type
from xla_dialect.block_args import retype_block_args
from xla_dialect.diagnostics import LoweringError

PTR = llvm.LLVMPointerType()
"""The opaque pointer every memref lowers to."""

BF16_STORAGE_TYPE = IntegerType(16)
"""The llvm type of a `bf16` value: its bit pattern."""

NARROW_FLOAT_STORAGE_TYPE = IntegerType(8)
"""The llvm type of an f8/f6/f4 value (`f8E4M3FN`, `f6E2M3FN`, ...): its bit
pattern in a byte (the low bits for f6/f4), as ml_dtypes and XLA store them.
`arith-emulate-unsupported-floats` computes on them in f32 and expands every
conversion from/to them into integer code, so only constants, selects and
moves of the bits reach the LLVM conversion."""

INDEX_BITWIDTH = 64


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


_INDEX_STORAGE = IntegerType(INDEX_BITWIDTH)
"""`index` in LLVM (attributes are immutable: one instance serves every conversion;
constructing and verifying one per value was a sixth of `convert-to-llvm`)."""


def convert_type(t: Attribute) -> Attribute:
    """The llvm-dialect type of a value of type `t` (unchanged when legal)."""
    if isinstance(t, IndexType):
        return _INDEX_STORAGE
    if isinstance(t, BFloat16Type):
        return BF16_STORAGE_TYPE
    if is_narrow_float(t):
        return NARROW_FLOAT_STORAGE_TYPE
    if isinstance(t, IntegerType):
        if t.signedness.data != Signedness.SIGNLESS:
            return IntegerType(t.width.data)
        return t
    if isinstance(t, MemRefType):
        return PTR
    if isinstance(t, VectorType):
        element = convert_type(t.element_type)
        if element != t.element_type:
            return VectorType(element, t.get_shape(), t.scalable_dims)
        return t
    if isinstance(t, FunctionType):
        return convert_function_type(t)
    if isinstance(t, ComplexType):  # real part first, as C's _Complex
        return llvm.LLVMStructType.from_type_list([t.element_type, t.element_type])
    return t


def convert_function_type(t: FunctionType, op: Operation | None = None) -> llvm.LLVMFunctionType:
    outputs = t.outputs.data
    if len(outputs) > 1:
        raise LoweringError(
            f"functions with {len(outputs)} results cannot be lowered to LLVM "
            "(0 or 1 result only; return further results through out-parameters)",
            op,
        )
    output = convert_type(outputs[0]) if outputs else llvm.LLVMVoidType()
    return llvm.LLVMFunctionType([convert_type(i) for i in t.inputs.data], output)


def element_type(t: Attribute) -> Attribute:
    """The scalar type of a scalar or vector type."""
    return t.element_type if isinstance(t, VectorType) else t


def is_float(t: Attribute) -> bool:
    return isinstance(element_type(t), AnyFloat)


def bitwidth(t: Attribute) -> int:
    t = element_type(t)
    if isinstance(t, IndexType):
        return INDEX_BITWIDTH
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, (Float16Type, BFloat16Type)):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    if isinstance(t, AnyFloat):
        return t.bitwidth
    if isinstance(t, ComplexType):
        return 2 * bitwidth(t.element_type)
    raise ValueError(f"no bit width for {t}")


def type_suffix(t: Attribute) -> str:
    """LLVM's overloaded-intrinsic suffix of a (converted) type: `f32`, `v4i32`."""
    if isinstance(t, VectorType):
        (n,) = t.get_shape()
        return f"v{n}{type_suffix(t.element_type)}"
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    raise ValueError(f"no intrinsic suffix for {t}")


def memref_strides(t: MemRefType) -> tuple[int, ...]:
    """The static strides (in elements) of a memref type."""
    strides = t.get_strides()
    if strides is None or any(s is None for s in strides):
        raise ValueError(f"memref type {t} has no static strides")
    return tuple(int(s) for s in strides)  # type: ignore[arg-type]


def memref_offset(t: MemRefType) -> int:
    offset = t.get_offset()
    if offset is None:
        raise ValueError(f"memref type {t} has no static offset")
    return offset


def is_contiguous(t: MemRefType) -> bool:
    """Whether the elements of the view are the dense row-major block at its start."""
    if isinstance(t.layout, NoneAttr):
        return True
    if not isinstance(t.layout, StridedLayoutAttr):
        return False
    shape = t.get_shape()
    expected = MemRefType.strides_for_shape(shape)
    strides = t.layout.get_strides()
    return all(
        size == 1 or s == e for size, s, e in zip(shape, strides, expected, strict=True)
    )


def check_static_memref(t: Attribute, op: Operation, *, require_offset: bool = False) -> MemRefType:
    """A memref type with static shape and strides. The offset may be dynamic (a
    view at a dynamic position): pointers already point at the view's first
    element, so only ops that read the offset value need it static."""
    if not isinstance(t, MemRefType):
        raise LoweringError(f"expected a ranked memref, got {t}", op)
    if any(d < 0 for d in t.get_shape()):
        raise LoweringError(f"memrefs with dynamic shapes are not supported: {t}", op)
    try:
        memref_strides(t)
        if require_offset:
            memref_offset(t)
    except ValueError:
        what = "strides and offset" if require_offset else "strides"
        raise LoweringError(
            f"memref layout must be the identity or strided with static {what}: {t}", op
        ) from None
    return t


# ---------------------------------------------------------------------------
# Materialization
# ---------------------------------------------------------------------------


def unrealized_cast(value: SSAValue, to: Attribute) -> UnrealizedConversionCastOp:
    """`UnrealizedConversionCastOp.get([value], [to])`, made with `create` (the builder's
    checks were 0.1 ms a cast, thousands of casts a module)."""
    return UnrealizedConversionCastOp.create(operands=[value], result_types=[to])


def cast_value(value: SSAValue, to: Attribute, rewriter: PatternRewriter, point: InsertPoint | None = None) -> SSAValue:
    """`value` as type `to`, through an unrealized cast unless it already is.

    The cast is placed right after the definition of `value` (at the start of its
    block for a block argument) so one cast serves every use; an existing such
    cast is reused. `point` is only a fallback for values without a block."""
    if value.type == to:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == to
    ):
        return owner.inputs[0]
    if isinstance(owner, Block):
        def_block: Block | None = owner
        where = InsertPoint.at_start(owner)
    else:
        def_block = owner.parent_block()
        where = InsertPoint.after(owner) if def_block is not None else point
    for use in value.uses:
        user = use.operation
        if (
            isinstance(user, UnrealizedConversionCastOp)
            and len(user.inputs) == 1
            and len(user.outputs) == 1
            and user.outputs[0].type == to
            and user.parent_block() is def_block
        ):
            return user.outputs[0]
    assert where is not None
    cast_op = unrealized_cast(value, to)
    rewriter.insert(cast_op, where)
    return cast_op.results[0]


def llvm_operand(value: SSAValue, rewriter: PatternRewriter, op: Operation) -> SSAValue:
    """`value` (an operand of `op`) as its converted type, cast before `op`."""
    check_bf16_operand(value, op)
    return cast_value(value, convert_type(value.type), rewriter, InsertPoint.before(op))


BF16_BIT_OPS = frozenset(
    {"arith.constant", "arith.select", "arith.bitcast", "arith.extf", "arith.truncf"}
)
"""The arith ops the conversion lowers on bf16 (they move or convert bits);
other arith and math ops compute and need `arith-emulate-unsupported-floats`."""


def is_bf16(t: Attribute) -> bool:
    """Whether `t` is bf16 or a vector of bf16."""
    return isinstance(element_type(t), BFloat16Type)


def bf16_arithmetic_error(op: Operation) -> LoweringError:
    return LoweringError(
        f"'{op.name}' computes on bf16, which the LLVM lowering represents as i16 bits "
        "only: run arith-emulate-unsupported-floats first (it computes bf16 ops in f32)",
        op,
    )


def is_narrow_float(t: Attribute) -> bool:
    """Whether `t` (or its vector element) is an f8/f6/f4 float type."""
    return isinstance(element_type(t), ReducedPrecisionFloatType)


NARROW_FLOAT_BIT_OPS = frozenset({"arith.constant", "arith.select", "arith.bitcast"})
"""The arith ops the conversion lowers on f8/f6/f4 (they move bits)."""


def narrow_float_bits(value: float, t: Attribute) -> int:
    """The bit pattern of `value` rounded to the f8/f6/f4 type `t` (ml_dtypes'
    conversion: nearest even, each format's overflow and NaN rules)."""
    from xla_dialect.literals import numpy_dtype

    dtype = numpy_dtype(t)
    if dtype is None:
        raise LoweringError(f"no storage for a constant of type {t}")
    return int(np.array([value], dtype=np.float64).astype(dtype).view(np.uint8)[0])


def check_bf16_operand(value: SSAValue, op: Operation) -> None:
    """Refuse to hand a bf16 value (as its i16 bits) to an arith/math op that
    would compute on it: only `BF16_BIT_OPS` may see the bits."""
    if (
        is_narrow_float(value.type)
        and op.name.split(".", 1)[0] in ("arith", "math")
        and op.name not in NARROW_FLOAT_BIT_OPS
    ):
        raise LoweringError(
            f"'{op.name}' computes on {value.type}, which the LLVM lowering represents as "
            "i8 bits only: run arith-emulate-unsupported-floats first",
            op,
        )
    if (
        is_bf16(value.type)
        and op.name.split(".", 1)[0] in ("arith", "math")
        and op.name not in BF16_BIT_OPS
    ):
        raise bf16_arithmetic_error(op)


def bf16_bits(value: float) -> int:
    """The bit pattern of `value` rounded to bf16 (nearest even)."""
    return int.from_bytes(BFloat16Type().pack((value,)), "little")


def llvm_operands(values: Iterable[SSAValue], rewriter: PatternRewriter, op: Operation) -> list[SSAValue]:
    return [llvm_operand(v, rewriter, op) for v in values]


def replace_with_llvm(
    op: Operation,
    new_ops: Sequence[Operation],
    new_results: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    """Replace `op` by `new_ops`; its results by `new_results`, cast back to the
    original types where they differ."""
    ops = list(new_ops)
    results: list[SSAValue] = []
    for old, new in zip(op.results, new_results, strict=True):
        if old.type != new.type:
            cast_op = unrealized_cast(new, old.type)
            ops.append(cast_op)
            results.append(cast_op.results[0])
        else:
            results.append(new)
    rewriter.replace(op, ops, results)


def convert_block_arguments(block: Block, rewriter: PatternRewriter | None = None) -> bool:
    """Give the arguments of `block` their converted types; the old-typed values
    are recreated by casts at the block's start. Returns whether anything changed.

    The block's arguments are replaced in one pass, as xDSL's
    `replace_value_with_new_type` would replace them one by one (each call of which
    rebuilds the block's argument tuple: quadratic in an entry's 3,372 arguments)."""
    pairs = retype_block_args(block, [convert_type(arg.type) for arg in block.args])
    if not pairs:
        return False
    if rewriter is not None:
        rewriter.has_done_action = True
        if (parent := block.parent_op()) is not None:
            rewriter.handle_operation_modification(parent)
    for arg, new_arg in pairs:
        old_type = arg.type
        arg.replace_all_uses_with(new_arg)
        if not new_arg.uses:
            continue
        uses = list(new_arg.uses)
        cast_op = unrealized_cast(new_arg, old_type)
        if rewriter is not None:
            rewriter.insert(cast_op, InsertPoint.at_start(block))
        else:
            Rewriter.insert_op(cast_op, InsertPoint.at_start(block))
        for use in uses:
            use.operation.operands[use.index] = cast_op.results[0]
    return True


def enclosing_module(op: Operation) -> ModuleOp:
    top = op
    while top.parent_op() is not None:
        top = top.parent_op()  # type: ignore[assignment]
    if not isinstance(top, ModuleOp):
        raise LoweringError("the op must be inside a builtin.module", op)
    return top


def symbol_name(op: Operation) -> str | None:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


_SYMBOLS: weakref.WeakKeyDictionary[ModuleOp, dict[str, Operation]] = weakref.WeakKeyDictionary()
"""Per module, its top-level ops by symbol name (the first of each name): an index,
checked at each use and rebuilt when it does not hold (a conversion pass replaces
functions as it goes). Searching the module's ops for each allocation and call was
quadratic: 3,000 allocations in a module of 5,000 functions."""


def module_symbol(module: ModuleOp, name: str) -> Operation | None:
    """The first top-level op of `module` whose symbol is `name`, or None."""
    index = _SYMBOLS.get(module)
    found = index.get(name) if index is not None else None
    if found is not None and found.parent is module.body.block and symbol_name(found) == name:
        return found
    index = {}
    for existing in module.ops:
        sym = symbol_name(existing)
        if sym is not None:
            index.setdefault(sym, existing)
    _SYMBOLS[module] = index
    return index.get(name)


def ensure_function(
    op: Operation, name: str, inputs: Sequence[Attribute], output: Attribute, rewriter: PatternRewriter
) -> None:
    """Declare the external function `name` in `op`'s module unless some symbol
    of that name is already there."""
    module = enclosing_module(op)
    existing = module_symbol(module, name)
    if existing is not None:
        if not isinstance(existing, (llvm.FuncOp, func.FuncOp)):
            raise LoweringError(f"symbol '{name}' is needed for a runtime function", op)
        return
    decl = llvm.FuncOp(name, llvm.LLVMFunctionType(list(inputs), output), linkage=llvm.LinkageAttr("external"))
    rewriter.insert(decl, InsertPoint.at_start(module.body.block))


# ---------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------


def int_constant(value: int, t: Attribute = i64) -> llvm.ConstantOp:
    t = convert_type(t)
    assert isinstance(t, IntegerType)
    return llvm.ConstantOp(integer_attr(value, t), t)


@functools.lru_cache(maxsize=4096)
def integer_attr(value: int, t: IntegerType) -> IntegerAttr:
    """`IntegerAttr(value, t)` (normalized to `t`'s width), made once per value and type:
    attributes are immutable values, so ops may share one. Building and verifying an
    `IntegerAttr` was half the cost of the two constants of each allocation, and a few
    values (sizes, alignments, flags, 0, 1) recur."""
    return IntegerAttr(normalize_int(value, t.width.data), t)


def call_op(callee: str | SymbolRefAttr, *args: SSAValue, return_type: Attribute | None = None) -> llvm.CallOp:
    """`llvm.CallOp(callee, *args, return_type=return_type)`: the op xDSL's builder
    makes, made with `create` from the properties its builder made for the first call of
    the same callee, argument count and return type (building and verifying them was a
    sixth of `convert-to-llvm` on a large entry's thousands of calls)."""
    key = (callee, len(args), return_type)
    form = _CALL_FORMS.get(key)
    if form is None:
        op = llvm.CallOp(callee, *args, return_type=return_type)
        if len(_CALL_FORMS) >= 4096:
            _CALL_FORMS.clear()
        _CALL_FORMS[key] = (dict(op.properties), dict(op.attributes), [r.type for r in op.results])
        return op
    properties, attributes, result_types = form
    return llvm.CallOp.create(operands=args, result_types=result_types, properties=properties, attributes=attributes)


_CALL_FORMS: dict[
    tuple[str | SymbolRefAttr, int, Attribute | None], tuple[dict[str, Attribute], dict[str, Attribute], list[Attribute]]
] = {}


@functools.lru_cache(maxsize=256)
def symbol_ref(name: str) -> SymbolRefAttr:
    """`SymbolRefAttr(name)`, one value per name: for calls of the few runtime
    functions every allocation and free calls."""
    return SymbolRefAttr(name)


def float_constant(value: float, t: Attribute) -> llvm.ConstantOp:
    """A float constant of type `t`; a bf16 one is its i16 bit pattern."""
    if isinstance(t, BFloat16Type):
        return int_constant(bf16_bits(value), BF16_STORAGE_TYPE)
    if is_narrow_float(t):
        return int_constant(narrow_float_bits(value, t), NARROW_FLOAT_STORAGE_TYPE)
    return llvm.ConstantOp(FloatAttr(value, t), t)  # type: ignore[arg-type]


def normalize_int(value: int, width: int) -> int:
    """`value` as the signed integer of `width` bits with the same bit pattern
    (i1 as 0/1, which LLVM prints as false/true)."""
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    if value >= 1 << (width - 1):
        value -= 1 << width
    return value


# ---------------------------------------------------------------------------
# Ops the xDSL llvm dialect lacks
# ---------------------------------------------------------------------------


@irdl_op_definition
class FPToSIOp(llvm.GenericCastOp):
    """`llvm.fptosi`: float to signed integer (poison when out of range)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(llvm.GenericCastOp):
    """`llvm.fptoui`: float to unsigned integer (poison when out of range)."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(llvm.GenericCastOp):
    """`llvm.uitofp`: unsigned integer to float."""

    name = "llvm.uitofp"


def _print_destination(printer: Printer, block: Block, operands: Sequence[SSAValue]) -> None:
    printer.print_block_name(block)
    if operands:
        with printer.in_parens():
            printer.print_list(operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([o.type for o in operands], printer.print_attribute)


def _parse_destination(parser: Parser) -> tuple[Block, list[SSAValue]]:
    block = parser.parse_successor()
    operands: list[SSAValue] = []
    if parser.parse_optional_punctuation("("):
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]
    return block, operands


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`llvm.switch`: a multi-way branch on an integer; `cf.switch`'s structure and
    syntax under the llvm dialect."""

    name = "llvm.switch"

    case_values = opt_prop_def(DenseIntElementsAttr)
    flag = operand_def(SignlessIntegerConstraint)
    default_operands = var_operand_def()
    case_operands = var_operand_def()
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))
    default_block = successor_def()
    case_blocks = var_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(IsTerminator(), Pure())

    # MLIR's syntax: `llvm.switch %flag : i64, ^default(%a : t) [ 1: ^bb1, 7: ^bb2(%b : t) ]`,
    # one case a line (the default destination comes first, outside the brackets).
    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.flag)
        printer.print_string(" : ")
        printer.print_attribute(self.flag.type)
        printer.print_string(", ")
        _print_destination(printer, self.default_block, self.default_operands)
        printer.print_string(" [")
        values = self.case_values.get_values() if self.case_values is not None else ()
        with printer.indented():
            for index, (value, block, operands) in enumerate(zip(values, self.case_blocks, self.case_operand, strict=True)):
                printer.print_string("\n")
                printer.print_string(f"{value}: ")
                _print_destination(printer, block, operands)
                if index + 1 < len(values):
                    printer.print_string(",")
        printer.print_string("\n]")
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        unresolved_flag = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        flag = parser.resolve_operand(unresolved_flag, parser.parse_type())
        parser.parse_punctuation(",")
        default_block, default_operands = _parse_destination(parser)

        def case() -> tuple[int, Block, list[SSAValue]]:
            value = parser.parse_integer()
            parser.parse_punctuation(":")
            return (value, *_parse_destination(parser))

        cases = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, case)
        values = None
        if cases:
            values = DenseIntElementsAttr.from_list(VectorType(flag.type, (len(cases),)), [c[0] for c in cases])  # pyright: ignore[reportArgumentType]
        op = cls(flag, default_block, default_operands, values, [c[1] for c in cases], [c[2] for c in cases])
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def __init__(
        self,
        flag: SSAValue | Operation,
        default_block: Block,
        default_operands: Sequence[SSAValue | Operation],
        case_values: DenseIntElementsAttr | None,
        case_blocks: Sequence[Block],
        case_operands: Sequence[Sequence[SSAValue | Operation]],
    ):
        properties: dict[str, Attribute] = {
            "case_operand_segments": DenseArrayBase.from_list(
                i32, [len(o) for o in case_operands]
            )
        }
        if case_values is not None:
            properties["case_values"] = case_values
        super().__init__(
            operands=[flag, default_operands, [o for os in case_operands for o in os]],
            properties=properties,
            successors=[default_block, case_blocks],
        )

    @property
    def case_operand(self) -> tuple[tuple[SSAValue, ...], ...]:
        cases: list[tuple[SSAValue, ...]] = []
        start = 0
        for size in self.case_operand_segments.get_values():
            cases.append(tuple(self.case_operands[start : start + size]))
            start += size
        return tuple(cases)

    def verify_(self) -> None:
        n_cases = len(self.case_blocks)
        values = self.case_values
        if values is None:
            if n_cases:
                raise VerifyException("'case_values' must be given when there are cases")
            return
        if values.get_element_type() != self.flag.type:
            raise VerifyException(
                f"case values' type {values.get_element_type()} must be the flag's type {self.flag.type}"
            )
        if len(values) != n_cases:
            raise VerifyException(f"{len(values)} case values for {n_cases} case blocks")
        if len(self.case_operand_segments) != n_cases:
            raise VerifyException("one operand segment per case is needed")


LLVM_EXTENSION_OPS: tuple[type[Operation], ...] = (FPToSIOp, FPToUIOp, UIToFPOp, SwitchOp)


def extended_llvm_dialect() -> Dialect:
    """xDSL's llvm dialect with the ops defined here, for drivers that read llvm IR."""
    from xdsl.dialects.llvm import LLVM

    return Dialect("llvm", [*LLVM.operations, *LLVM_EXTENSION_OPS], list(LLVM.attributes))


def register_llvm_extensions(ctx: Context) -> None:
    """Make `ctx` able to parse the llvm ops defined here (idempotent)."""
    for op in LLVM_EXTENSION_OPS:
        if ctx.get_optional_op(op.name) is None:
            ctx.load_op(op)


# ---------------------------------------------------------------------------
# Running patterns
# ---------------------------------------------------------------------------


class OneRoundWalker(PatternRewriteWalker):
    """xDSL's greedy walker (`apply_recursively=True`: every op the rewrites insert,
    modify or hand new operands to goes back on the worklist) without its confirming
    rounds: after a round that changed anything, xDSL's walker puts every op of the
    module on the worklist again and runs another round, which for the conversions
    here finds nothing left to do (anything a round left unconverted is reported by
    `_check_fully_lowered`), at the cost of a second visit of every op (a tenth of
    `convert-to-llvm` on the JAX exports). Uses the walker's worklist methods (xDSL
    is pinned)."""

    def rewrite_region(self, region: Region) -> bool:
        listener = self._get_rewriter_listener()  # pyright: ignore[reportPrivateUsage]
        self._populate_worklist(region)  # pyright: ignore[reportPrivateUsage]
        return self._process_worklist(listener)  # pyright: ignore[reportPrivateUsage]

    # The ops a conversion makes (llvm ops, casts) match no pattern: visiting one only
    # asked whether it was dead, and it never is when made (its results replace a
    # converted op's). They are not put on the worklist, which held three times as many
    # ops as the module had to convert; the casts a conversion leaves dead are removed
    # by `reconcile_unrealized_casts`. Ops that are removed still put their operands'
    # defining ops on the worklist, which erases those left dead.

    def _converts(self, op: Operation) -> bool:
        applier = self.pattern
        return not isinstance(applier, TypeDispatchingApplier) or bool(applier.patterns_for(type(op)))

    def _handle_operation_insertion(self, op: Operation) -> None:
        if self._converts(op):
            super()._handle_operation_insertion(op)  # pyright: ignore[reportPrivateUsage]

    def _handle_operation_modification(self, op: Operation) -> None:
        if self._converts(op):
            super()._handle_operation_modification(op)  # pyright: ignore[reportPrivateUsage]

    def _handle_operation_replacement(self, op: Operation, new_results: Sequence[SSAValue | None]) -> None:
        for result in op.results:
            for use in result.uses:
                if self._converts(use.operation):
                    self._worklist.push(use.operation)  # pyright: ignore[reportPrivateUsage]


def reconcile_unrealized_casts(module: ModuleOp) -> None:
    """xDSL's `reconcile_unrealized_casts` (its pattern: remove each chain of casts
    that converts back to where it began), applied to the casts only: xDSL's pass puts
    every op of the module on a greedy walker's worklist, twice (a tenth of
    `convert-to-llvm`). Each cast is tried in walk order, as xDSL's walker tries
    them, and the whole is repeated while a sweep removes anything."""
    pattern = ReconcileUnrealizedCastsPattern(warn_on_failure=False)
    while True:
        casts = [op for op in module.walk() if isinstance(op, UnrealizedConversionCastOp)]
        changed = False
        for cast in casts:
            if cast.parent is None:
                continue
            rewriter = PatternRewriter(cast)
            pattern.match_and_rewrite(cast, rewriter)
            changed |= rewriter.has_done_action
        if not changed:
            return


def apply_patterns(module: ModuleOp, patterns: Sequence[RewritePattern], *, reconcile: bool = True) -> None:
    OneRoundWalker(TypeDispatchingApplier(list(patterns)), apply_recursively=True).rewrite_module(module)
    if reconcile:
        reconcile_unrealized_casts(module)


class ConversionPass(ModulePass):
    """A module pass applying `patterns()` greedily, then `finalize`, then
    reconciling the unrealized casts."""

    def patterns(self) -> Sequence[RewritePattern]:  # pragma: no cover - abstract
        raise NotImplementedError

    def patterns_for(self, module: ModuleOp) -> Sequence[RewritePattern]:
        """The patterns to apply to `module` (`patterns()`; a pass may leave out those
        nothing in the module needs)."""
        return self.patterns()

    def finalize(self, module: ModuleOp) -> None:
        """Runs after the patterns, before the casts are reconciled."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        register_llvm_extensions(ctx)
        apply_patterns(op, self.patterns_for(op), reconcile=False)
        self.finalize(op)
        reconcile_unrealized_casts(op)


def convert_all_block_arguments(module: ModuleOp) -> None:
    """Convert the arguments of every non-entry block in `module` (the blocks of
    unstructured control flow; entry blocks belong to their op's conversion)."""
    for op in module.walk():
        for region in op.regions:
            for block in list(region.blocks)[1:]:
                convert_block_arguments(block)


__all__ = [
    "BF16_BIT_OPS",
    "BF16_STORAGE_TYPE",
    "LLVM_EXTENSION_OPS",
    "NARROW_FLOAT_BIT_OPS",
    "NARROW_FLOAT_STORAGE_TYPE",
    "PTR",
    "ConversionPass",
    "FPToSIOp",
    "FPToUIOp",
    "LoweringError",
    "SwitchOp",
    "UIToFPOp",
    "apply_patterns",
    "bf16_arithmetic_error",
    "bf16_bits",
    "bitwidth",
    "call_op",
    "cast_value",
    "check_bf16_operand",
    "check_static_memref",
    "convert_all_block_arguments",
    "convert_block_arguments",
    "convert_function_type",
    "convert_type",
    "element_type",
    "ensure_function",
    "float_constant",
    "int_constant",
    "integer_attr",
    "is_bf16",
    "is_contiguous",
    "is_float",
    "is_narrow_float",
    "llvm_operand",
    "llvm_operands",
    "memref_offset",
    "memref_strides",
    "module_symbol",
    "narrow_float_bits",
    "normalize_int",
    "replace_with_llvm",
    "symbol_ref",
    "type_suffix",
    "unrealized_cast",
]
