"""Translation of the `llvm` dialect to llvmlite IR: xDSL's `xdsl.backend.llvm`
plus what it lacks.

`convert_module` drives the translation itself (globals, declarations, bodies)
and dispatches each op first to the handlers registered here, then to xDSL's
`convert_op`. Handlers registered here:

* the ops of `lowering.to_llvm.common` xDSL lacks: `llvm.fptosi`, `llvm.fptoui`,
  `llvm.uitofp`, `llvm.switch`;
* `llvm.fcmp` (xDSL's mistranslates the `_false`/`_true`/`ord`/`uno` predicates),
  and the vector `llvm.fcmp`/`llvm.select` and `llvm.extractelement` of
  `lowering.to_llvm.vector_compare`;
* `llvm.call_intrinsic` (xDSL's rejects fast-math flags);
* `llvm.br` (xDSL's, plus the `!llvm.loop` metadata of a `lowering.loop_annotation`:
  interleave count, masked tail, no unrolling, no unrolling after vectorization);
* `llvm.mlir.global` (dense initializers are emitted as raw bytes, so big
  constants translate quickly; a global without a value that is not external
  is zero-initialized; `alignment` is honoured).

More handlers can be added with `register_op_translation`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir
from llvmlite.ir.instructions import PhiInstr
from llvmlite.ir.values import Block as LLVMBlock
from xdsl.backend.llvm.convert import _declare_func  # pyright: ignore[reportPrivateUsage]
from xdsl.backend.llvm.convert_op import convert_op as xdsl_convert_op
from xdsl.backend.llvm.convert_type import convert_type as xdsl_convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from lowering.loop_annotation import (
    folds_tail,
    interleave_count,
    unroll_disabled,
    vectorized_unroll_disabled,
)
from lowering.to_llvm.common import FPToSIOp, FPToUIOp, SwitchOp, UIToFPOp
from lowering.to_llvm.vector_compare import ExtractElementOp
from lowering.to_llvm.vector_compare import FCmpOp as VectorFCmpOp
from lowering.to_llvm.vector_compare import SelectOp as VectorSelectOp
from runtime.parallel_codegen import CodegenPart
from xla_dialect.diagnostics import LoweringError

ValueMap = dict[SSAValue, ir.Value]
BlockMap = dict[Block, LLVMBlock]
Handler = Callable[[Any, ir.IRBuilder, ValueMap, BlockMap], None]

_HANDLERS: dict[type[Operation], Handler] = {}


def register_op_translation(op_type: type[Operation]) -> Callable[[Handler], Handler]:
    """Decorator registering `handler(op, builder, val_map, block_map)` for `op_type`."""

    def wrap(handler: Handler) -> Handler:
        _HANDLERS[op_type] = handler
        return handler

    return wrap


def convert_type(t: Attribute) -> ir.Type:
    return xdsl_convert_type(t)


# ---------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------


def _cast(kind: str) -> Handler:
    def handler(op: Any, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
        val_map[op.result] = getattr(builder, kind)(val_map[op.arg], convert_type(op.result.type))

    return handler


register_op_translation(FPToSIOp)(_cast("fptosi"))
register_op_translation(FPToUIOp)(_cast("fptoui"))
register_op_translation(UIToFPOp)(_cast("uitofp"))


def _add_incoming(block: Block, args: Any, val_map: ValueMap, block_map: BlockMap, pred: LLVMBlock) -> None:
    for arg, value in zip(block.args, args, strict=True):
        phi = val_map[arg]
        assert isinstance(phi, PhiInstr)
        phi.add_incoming(val_map[value], pred)


@register_op_translation(SwitchOp)
def _switch(op: SwitchOp, builder: ir.IRBuilder, val_map: ValueMap, block_map: BlockMap) -> None:
    parent = op.parent_block()
    assert parent is not None
    pred = block_map[parent]
    flag = val_map[op.flag]
    _add_incoming(op.default_block, op.default_operands, val_map, block_map, pred)
    instr = builder.switch(flag, block_map[op.default_block])
    values = op.case_values.get_values() if op.case_values is not None else ()
    sent: dict[Block, list[SSAValue]] = {op.default_block: list(op.default_operands)}
    for value, block, operands in zip(values, op.case_blocks, op.case_operand, strict=True):
        target = block_map[block]
        earlier = sent.setdefault(block, list(operands))
        if earlier != list(operands):
            # One block reached from here with other arguments: a phi has one value per
            # predecessor, so this edge goes through a block of its own.
            target = builder.function.append_basic_block(name=f"{pred.name}.case{int(value)}")
            ir.IRBuilder(target).branch(block_map[block])
            _add_incoming(block, operands, val_map, block_map, target)
        else:
            _add_incoming(block, operands, val_map, block_map, pred)
        instr.add_case(ir.Constant(flag.type, int(value)), target)


@register_op_translation(llvm.StoreOp)
def _store(op: llvm.StoreOp, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
    """A store through a pointer typed for another element (a GEP's `float*` holding a
    `<16 x float>`) casts the pointer first: llvmlite's IR still has typed pointers."""
    value, ptr = val_map[op.value], val_map[op.ptr]
    if getattr(ptr.type, "pointee", value.type) != value.type:
        ptr = builder.bitcast(ptr, value.type.as_pointer())
    store = builder.store(value, ptr)
    if op.alignment:
        store.align = op.alignment.value.data
    if op.nontemporal is not None:  # `!nontemporal !{i32 1}`: a streaming store (movnt)
        store.set_metadata("nontemporal", builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))


@register_op_translation(VectorFCmpOp)
@register_op_translation(llvm.FCmpOp)
def _fcmp(op: llvm.FCmpOp, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
    pred = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value.lstrip("_")
    flags = [f.value for f in op.fastmathFlags.data]
    instr = ir.instructions.FCMPInstr(
        builder.block, pred, val_map[op.lhs], val_map[op.rhs], flags=flags
    )
    builder._insert(instr)  # pyright: ignore[reportPrivateUsage]
    val_map[op.res] = instr


@register_op_translation(VectorSelectOp)
def _select(op: VectorSelectOp, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
    val_map[op.res] = builder.select(val_map[op.cond], val_map[op.lhs], val_map[op.rhs])


@register_op_translation(ExtractElementOp)
def _extract_element(op: ExtractElementOp, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
    val_map[op.res] = builder.extract_element(val_map[op.vector], val_map[op.position])


class _BFloat(ir.Type):
    """LLVM's `bfloat`, which llvmlite's IR builder lacks (bf16 is `i16` elsewhere here)."""

    def _to_string(self) -> str:
        return "bfloat"


INTRINSIC_PARAMETERS: dict[str, list[ir.Type]] = {
    # vdpbf16ps: the calls pass <32 x i16> (bf16's storage), bitcast to <32 x bfloat>.
    "llvm.x86.avx512bf16.dpbf16ps.512": [
        ir.VectorType(ir.FloatType(), 16),
        ir.VectorType(_BFloat(), 32),
        ir.VectorType(_BFloat(), 32),
    ],
}
"""Intrinsics declared with parameter types other than their operands' (the
arguments are bitcast to them)."""


@register_op_translation(llvm.CallIntrinsicOp)
def _call_intrinsic(op: llvm.CallIntrinsicOp, builder: ir.IRBuilder, val_map: ValueMap, _: BlockMap) -> None:
    if op.op_bundle_operands:
        raise NotImplementedError("operand bundles are not supported")
    ret = convert_type(op.ress.type) if op.ress is not None else ir.VoidType()
    name = op.intrin.data
    module: ir.Module = builder.module
    fn = module.globals.get(name)
    if fn is None:
        params = INTRINSIC_PARAMETERS.get(name) or [convert_type(a.type) for a in op.args]
        fn = ir.Function(module, ir.FunctionType(ret, params), name=name)
    args = []
    for value, param in zip((val_map[a] for a in op.args), fn.function_type.args):
        # A global's address has a typed pointer (`[16 x i8]*`); calls take the declared type.
        args.append(builder.bitcast(value, param) if value.type != param else value)
    flags = [f.value for f in op.fastmathFlags.data]
    result = builder.call(fn, args, fastmath=flags)
    if op.ress is not None:
        val_map[op.ress] = result


# ---------------------------------------------------------------------------
# Globals
# ---------------------------------------------------------------------------


def _dense_bytes(value: DenseIntOrFPElementsAttr, count: int) -> bytes:
    data = value.data.data
    if len(data) * count == 0:
        return b""
    size = len(data) // len(value)
    if len(value) == 1 and count > 1:  # splat
        data = data * count
    return bytes(data[: size * count])


def _scalar_count(t: ir.Type) -> tuple[ir.Type, int]:
    count = 1
    while isinstance(t, ir.ArrayType):
        count *= t.count
        t = t.element
    return t, count


def _initializer(gtype: ir.Type, value: Attribute) -> ir.Constant:
    if isinstance(value, StringAttr):
        raw = value.data.encode("utf-8")
        return ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))
    if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(gtype, ir.ArrayType):
        scalar, count = _scalar_count(gtype)
        # (complex elements are `{fT, fT}` structs: their dense data is the same bytes)
        if isinstance(scalar, (ir.IntType, ir.HalfType, ir.FloatType, ir.DoubleType, ir.LiteralStructType)):
            if isinstance(scalar, ir.IntType) and scalar.width == 1:
                values = [bool(v) for v in value.get_values()]
                if len(values) == 1:
                    values *= count
                return ir.Constant(ir.ArrayType(scalar, count), values)
            raw = _dense_bytes(value, count)
            return ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))
    if isinstance(value, (IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr)):
        handler = {
            IntegerAttr: lambda v: v.value.data,
            FloatAttr: lambda v: v.value.data,
            DenseIntOrFPElementsAttr: lambda v: v.get_values(),
        }[type(value)]
        return ir.Constant(gtype, handler(value))
    raise NotImplementedError(f"unsupported global initializer {value}")


def _convert_global(op: llvm.GlobalOp, module: ir.Module) -> None:
    gtype = convert_type(op.global_type)
    init = _initializer(gtype, op.value) if op.value is not None else None
    # Raw-byte initializers change the global's type; users only take its address.
    gvar = ir.GlobalVariable(
        module,
        init.type if init is not None else gtype,
        name=op.sym_name.data,
        addrspace=op.addr_space.value.data,
    )
    linkage = op.linkage.linkage.data
    gvar.linkage = "" if linkage == "external" and init is not None else linkage
    if op.constant is not None:
        gvar.global_constant = True
    if init is not None:
        gvar.initializer = init
    elif linkage != "external":
        gvar.initializer = ir.Constant(gtype, None)
    if op.alignment is not None:
        gvar.align = op.alignment.value.data
    if op.body.blocks:
        raise NotImplementedError("globals with initializer regions are not supported")


@register_op_translation(llvm.BrOp)
def _br(op: llvm.BrOp, builder: ir.IRBuilder, val_map: ValueMap, block_map: BlockMap) -> None:
    """xDSL's branch, plus `!llvm.loop` metadata from a loop annotation (`lowering.loop_annotation`)."""
    xdsl_convert_op(op, builder, val_map, block_map)
    count = interleave_count(op)
    no_unroll = unroll_disabled(op)
    vec_rolled = vectorized_unroll_disabled(op)
    if count is not None or no_unroll or vec_rolled:
        module: ir.Module = builder.module
        hints = []
        if count is not None:
            hints.append(
                module.add_metadata([ir.MetaDataString(module, "llvm.loop.interleave.count"), ir.Constant(ir.IntType(32), count)])
            )
        if folds_tail(op):
            hints.append(
                module.add_metadata([ir.MetaDataString(module, "llvm.loop.vectorize.predicate.enable"), ir.Constant(ir.IntType(1), 1)])
            )
        if no_unroll:
            hints.append(module.add_metadata([ir.MetaDataString(module, "llvm.loop.unroll.disable")]))
        if vec_rolled:
            disable = module.add_metadata([ir.MetaDataString(module, "llvm.loop.unroll.disable")])
            hints.append(module.add_metadata([ir.MetaDataString(module, "llvm.loop.vectorize.followup_all"), disable]))
        # A loop ID refers to itself (LLVM ignores it otherwise); it is one node per loop,
        # outside `add_metadata`'s cache (which would hash the cycle).
        loop_id = ir.values.MDValue(module, [], name=str(len(module.metadata)))
        loop_id.operands = (loop_id, *hints)
        builder.block.instructions[-1].set_metadata("llvm.loop", loop_id)


# ---------------------------------------------------------------------------
# Functions and modules
# ---------------------------------------------------------------------------


def convert_op(op: Operation, builder: ir.IRBuilder, val_map: ValueMap, block_map: BlockMap) -> None:
    handler = _HANDLERS.get(type(op))
    if handler is not None:
        handler(op, builder, val_map, block_map)
    else:
        xdsl_convert_op(op, builder, val_map, block_map)


def _convert_func(op: llvm.FuncOp, module: ir.Module) -> None:
    func = module.get_global(op.sym_name.data)
    block_map: BlockMap = {}
    val_map: ValueMap = {}
    blocks = list(op.body.blocks)
    for i, block in enumerate(blocks):
        block_map[block] = func.append_basic_block(name=block.name_hint or f"bb{i}")
    for arg, llvm_arg in zip(blocks[0].args, func.args, strict=True):
        val_map[arg] = llvm_arg
    for block in blocks[1:]:
        if block.args:
            phi_builder = ir.IRBuilder(block_map[block])
            for arg in block.args:
                val_map[arg] = phi_builder.phi(convert_type(arg.type))
    # Translate in dominance order so operands are always translated first.
    for block in _dominance_order(blocks):
        builder = ir.IRBuilder(block_map[block])
        instructions = block_map[block].instructions
        if instructions:
            builder.position_after(instructions[-1])
        for inner in block.ops:
            convert_op(inner, builder, val_map, block_map)
    for llvm_block in func.blocks:
        for instr in llvm_block.instructions:
            # xDSL keeps fast-math and overflow flags in frozensets, whose order follows
            # Python's hash seed: sorted, the IR text is the same in every process.
            flags = getattr(instr, "flags", None)
            if isinstance(flags, list) and len(flags) > 1:
                flags.sort()


PASSTHROUGH_ATTRIBUTES = frozenset({"optsize", "minsize", "cold", "hot", "noinline", "alwaysinline"})
"""The function attributes a `passthrough` may name (the ones llvmlite can print); and
`["alignstack", "<bytes>"]`, as MLIR writes an attribute with a value."""


class _FunctionAttributes(ir.FunctionAttributes):
    """llvmlite's function attributes, printed also when `alignstack` is their only one
    (llvmlite prints none when the set of names is empty)."""

    def __bool__(self) -> bool:
        return bool(len(self)) or bool(self.alignstack) or self.personality is not None


def _unsupported_passthrough(f: llvm.FuncOp, entry: Attribute) -> LoweringError:
    return LoweringError(
        f"cannot be translated to LLVM IR: passthrough entry {entry} is not one of "
        f"{', '.join(sorted(PASSTHROUGH_ATTRIBUTES))} or [\"alignstack\", \"<power of two>\"]",
        f,
    )


def _apply_passthrough(f: llvm.FuncOp, fn: ir.Function) -> None:
    """Give `fn` the LLVM function attributes of `f`'s `passthrough` (a property when a
    pass set it, an attribute when read from text)."""
    attr = f.properties.get("passthrough") or f.attributes.get("passthrough")
    if not isinstance(attr, ArrayAttr):
        return
    for entry in attr.data:
        if isinstance(entry, StringAttr) and entry.data in PASSTHROUGH_ATTRIBUTES:
            fn.attributes.add(entry.data)
            continue
        key_value = entry.data if isinstance(entry, ArrayAttr) else ()
        if len(key_value) != 2 or not all(isinstance(x, StringAttr) for x in key_value):
            raise _unsupported_passthrough(f, entry)
        key, value = (x.data for x in key_value)  # pyright: ignore[reportAttributeAccessIssue]
        if key != "alignstack" or not value.isdigit() or int(value) & (int(value) - 1) or int(value) == 0:
            raise _unsupported_passthrough(f, entry)
        if not isinstance(fn.attributes, _FunctionAttributes):
            fn.attributes = _FunctionAttributes(sorted(fn.attributes))
        fn.attributes.alignstack = int(value)


def _dominance_order(blocks: list[Block]) -> list[Block]:
    """The blocks in reverse post-order from the entry (unreachable ones last):
    each block comes after the blocks dominating it."""
    seen: set[Block] = set()
    post: list[Block] = []
    stack: list[tuple[Block, int]] = [(blocks[0], 0)]
    seen.add(blocks[0])
    while stack:
        block, i = stack.pop()
        term = block.last_op
        succs = list(term.successors) if term is not None else []
        if i < len(succs):
            stack.append((block, i + 1))
            succ = succs[i]
            if succ not in seen:
                seen.add(succ)
                stack.append((succ, 0))
        else:
            post.append(block)
    order = post[::-1]
    order.extend(b for b in blocks if b not in seen)
    return order


def convert_module(
    module: ModuleOp, *, target_triple: str | None = None, data_layout: str = "", part: CodegenPart | None = None
) -> ir.Module:
    """Translate a module of `llvm.func`/`llvm.mlir.global` ops to llvmlite IR; with
    `part`, only that part of it (`runtime.parallel_codegen`): its functions, its
    globals (constants as internal copies), declarations of the functions it calls."""
    llvm_module = ir.Module(name=module.sym_name.data if getattr(module, "sym_name", None) else "module")
    triple = module.attributes.get("llvm.target_triple")
    if isinstance(triple, StringAttr):
        llvm_module.triple = triple.data
    elif target_triple is not None:
        llvm_module.triple = target_triple
    else:
        from llvmlite import binding

        llvm_module.triple = binding.get_default_triple()
    if data_layout:
        llvm_module.data_layout = data_layout

    globals_: list[llvm.GlobalOp] = []
    funcs: list[llvm.FuncOp] = []
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp):
            globals_.append(op)
        elif isinstance(op, llvm.FuncOp):
            funcs.append(op)
        else:
            raise NotImplementedError(
                f"cannot translate '{op.name}' to LLVM IR: the module must contain only "
                "llvm.func and llvm.mlir.global ops (did a lowering pass not run?)"
            )
    if part is not None:
        globals_ = [g for g in globals_ if g.sym_name.data in part.globals]
        funcs = [f for f in funcs if f.sym_name.data in part.functions or f.sym_name.data in part.referenced]
    for g in globals_:
        _convert_global(g, llvm_module)
        if part is not None and g.constant is not None:
            llvm_module.get_global(g.sym_name.data).linkage = "internal"
    for f in funcs:
        _declare_func(f, llvm_module)
        fn = llvm_module.get_global(f.sym_name.data)
        linkage = f.linkage.linkage.data
        defined_here = bool(f.body.blocks) and (part is None or f.sym_name.data in part.functions)
        if defined_here and linkage not in ("external", "") and (part is None or f.sym_name.data not in part.exported):
            fn.linkage = linkage
        # (a property when a pass set it, an attribute when read from text)
        if "no_inline" in f.properties or "no_inline" in f.attributes:
            fn.attributes.add("noinline")
        if "optimize_none" in f.properties or "optimize_none" in f.attributes:
            fn.attributes.add("optnone")  # (LLVM requires noinline with it)
        _apply_passthrough(f, fn)
    for f in funcs:
        if f.body.blocks and (part is None or f.sym_name.data in part.functions):
            _convert_func(f, llvm_module)
    return llvm_module


__all__ = ["convert_module", "convert_op", "convert_type", "register_op_translation"]
