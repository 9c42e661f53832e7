"""Host-side runtime ops → calls into the runtime (`runtime/host_io.py`):
`custom_call`, `infeed`, `outfeed`, `send`, `recv`; tokens (`after_all`,
`create_token`); and the compile-time rule for `set_dimension_size`.

What the IR becomes
===================

Each runtime op becomes one `func.call @__xla_rt_<kind>_<n>(inputs) -> outputs`
on tensors, `@__xla_rt_<kind>_<n>` being a `func.func private` declaration
added to the module. Token operands are not passed and no token comes back:
bufferize turns the declaration and the call into `(in..., out...) -> ()` on
contiguous row-major buffers. The site is described as data
(`lowering/host_abi.py`: `host_abi.new_site`), and the JIT resolves the symbol
to the ctypes callback the runtime binds to that description; the callback does
the op's work on NumPy views of the buffers (pops the infeed, pushes the
outfeed, calls the custom-call target...). One site per op: what it does
(queue, shapes, target name, location for errors) is fixed at compile time.

Tokens
======

A token carries no data, so it has no run-time representation. Inside a
function body a token value converts to an `i1` that nothing reads: `after_all`,
`create_token` and the token results of the runtime ops are `arith.constant
true`, which LLVM deletes. At function boundaries and through control flow
(`func` arguments/results, `while`/`if`/`case`/`call` carried values, tuples,
custom-call operands/results) `xla-flatten-tuples` drops tokens like empty
tuples, re-creating one with `xla.create_token` where a token enters a block, so
the compiled code never passes them. Ordering: the calls stay in program order
(no pass here moves or removes a `func.call`, and LLVM cannot reorder calls to
external functions), and SSA order of a token chain is a program order, so the
order the tokens state is kept; the spec's only freedom (unordered side effects
may run in any order) is fixed to program order.

An `Executable` takes `None` (or `host_io.TOKEN`) for a token parameter and
returns `host_io.TOKEN` for a token result.

Errors
======

`custom_call` to a target not registered when compiling, a C target with
api_version 4 (typed FFI), layouts other than row-major (the default), and
`set_dimension_size` are `LoweringError`s at compile time, naming the op. An op
that fails while running (empty queue, mismatched pushed item, a raising target)
cannot raise through compiled code: the runtime records the error, later runtime
calls do nothing, and `guard_loops` makes every `scf.while` whose body reaches a
runtime call also test `__xla_rt_ok()` in its condition, so the run ends (no
hang on a loop driven by infeed data) and the `Executable` raises the error.

Dynamic shapes
==============

`get_dimension_size` of a static shape is a constant (`shape.py`).
`set_dimension_size` makes a dimension dynamic (bounded by the operand's size,
which downstream reductions must then respect); compiled shapes are static, so
it is a compile-time error saying so. Bounded dynamic shapes would need every
lowering to carry runtime sizes; pad explicitly and mask with `xla.iota` /
`xla.compare` / `xla.select` instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from lowering import host_abi
from lowering.collectives.abi import send_recv_pairs
from lowering.xla_to_linalg.converter import Converter, convert_type, lowers
from xla_dialect.attributes import OutputOperandAliasAttr
from xla_dialect.diagnostics import LoweringError
from xla_dialect.literals import numpy_dtype
from xla_dialect.ops.io import (
    DEVICE_TO_DEVICE,
    AfterAllOp,
    CreateTokenOp,
    CustomCallOp,
    InfeedOp,
    OutfeedOp,
    RecvOp,
    SendOp,
)
from xla_dialect.ops.shape import SetDimensionSizeOp
from xla_dialect.syntax import bool_of
from xla_dialect.types import TokenType, element_type_of, format_type, shape_of

# ---------------------------------------------------------------------------
# Call sites
# ---------------------------------------------------------------------------


def where(op: Operation) -> str:
    """`xla.infeed at file:line:col`, for run-time messages."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{op.name} at {loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return op.name


def _leaf(t: Attribute, op: Operation) -> host_abi.Leaf:
    if not isinstance(t, TensorType):
        raise LoweringError(f"'{op.name}' with a value of type {format_type(t)} cannot be compiled", op)
    dtype = numpy_dtype(element_type_of(t))
    if dtype is None:
        raise LoweringError(f"'{op.name}' cannot pass element type {element_type_of(t)} to the host", op)
    shape = tuple(shape_of(t))
    if any(d < 0 for d in shape):
        raise LoweringError(f"'{op.name}' with dynamic shape {format_type(t)}: shapes must be static", op)
    return host_abi.Leaf(shape, dtype, format_type(t))


def _data(values: Sequence[SSAValue]) -> list[SSAValue]:
    return [v for v in values if not isinstance(v.type, TokenType)]


def enclosing_module(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    if parent is None:
        raise LoweringError(f"'{op.name}' must be inside a module to be compiled", op)
    return parent


def _declare(module: ModuleOp, symbol: str, inputs: Sequence[Attribute], outputs: Sequence[Attribute]) -> None:
    if any(isinstance(o, func.FuncOp) and o.sym_name.data == symbol for o in module.ops):
        return
    module.body.block.add_op(func.FuncOp.external(symbol, list(inputs), list(outputs)))


def call_site(
    cx: Converter, op: Operation, builder: Builder, kind: str, action: host_abi.Action
) -> tuple[list[SSAValue], list[SSAValue]]:
    """Declare and call the site of `op`; return (data results, call results)."""
    inputs, outputs = _data(op.operands), _data(op.results)
    site = host_abi.new_site(
        kind,
        where(op),
        [_leaf(v.type, op) for v in inputs],
        [_leaf(v.type, op) for v in outputs],
        action,
    )
    in_types = [convert_type(v.type, op) for v in inputs]
    out_types = [convert_type(v.type, op) for v in outputs]
    _declare(enclosing_module(op), site.symbol, in_types, out_types)
    call = builder.insert(func.CallOp(site.symbol, cx.get_all(inputs), out_types))
    return outputs, list(call.results)


def call_results(op: Operation, builder: Builder, data: list[SSAValue], values: list[SSAValue]) -> list[SSAValue]:
    """The converted results of `op`: call results for its data, `true` for tokens."""
    by_value = dict(zip(data, values))
    out: list[SSAValue] = []
    for r in op.results:
        out.append(by_value[r] if r in by_value else _token(builder))
    return out


def _token(builder: Builder) -> SSAValue:
    return builder.insert(arith.ConstantOp(IntegerAttr(1, i1))).result


def _check_row_major(op: Operation, name: str, layouts: ArrayAttr[Attribute] | None, types: Sequence[Attribute]) -> None:
    """Only the default layout (minor_to_major = [rank-1, ..., 0]) is compiled."""
    if layouts is None:
        return
    for index, (entry, t) in enumerate(zip(layouts.data, types)):
        if isinstance(entry, ArrayAttr):
            dims = [a.value.data for a in entry.data if isinstance(a, IntegerAttr)]  # pyright: ignore
        elif isinstance(entry, DenseIntOrFPElementsAttr):
            dims = [int(v) for v in entry.get_values()]  # pyright: ignore
        else:
            dims = []
        if isinstance(t, TensorType) and dims != list(range(t.get_num_dims() - 1, -1, -1)):
            raise LoweringError(
                f"{name} entry #{index} {dims} is not the row-major layout: only row-major "
                "(minor_to_major = [rank-1, ..., 0]) buffers are passed to the host",
                op,
            )


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


@lowers(AfterAllOp, CreateTokenOp)
def lower_token(cx: Converter, op: AfterAllOp | CreateTokenOp, builder: Builder) -> Sequence[SSAValue]:
    return [_token(builder)]


# ---------------------------------------------------------------------------
# Infeed, outfeed, send, recv
# ---------------------------------------------------------------------------


@lowers(InfeedOp)
def lower_infeed(cx: Converter, op: InfeedOp, builder: Builder) -> Sequence[SSAValue]:
    if op.layout is not None:
        _check_row_major(op, "layout", op.layout, list(op.outputs.types)[:-1])
    action = host_abi.ReadQueue(host_abi.QueueRef("infeed"), "push it with runtime.host_io.infeed.push(...) first")
    return call_results(op, builder, *call_site(cx, op, builder, "infeed", action))


@lowers(OutfeedOp)
def lower_outfeed(cx: Converter, op: OutfeedOp, builder: Builder) -> Sequence[SSAValue]:
    action = host_abi.WriteQueue(host_abi.QueueRef("outfeed"))
    return call_results(op, builder, *call_site(cx, op, builder, "outfeed", action))


def _is_host(op: SendOp | RecvOp) -> bool:
    return bool_of(op.properties.get("is_host_transfer"))


@lowers(SendOp)
def lower_send(cx: Converter, op: SendOp, builder: Builder) -> Sequence[SSAValue]:
    handle = op.channel_handle.int_value("handle")
    host = _is_host(op)
    queue = host_abi.QueueRef("send" if host else "channel", handle, () if host else send_recv_pairs(op))
    return call_results(op, builder, *call_site(cx, op, builder, "send", host_abi.WriteQueue(queue)))


@lowers(RecvOp)
def lower_recv(cx: Converter, op: RecvOp, builder: Builder) -> Sequence[SSAValue]:
    handle = op.channel_handle.int_value("handle")
    if _is_host(op):
        queue = host_abi.QueueRef("recv", handle)
        hint = f"push it with runtime.host_io.recv_queue({handle}).push(...) first"
    else:
        assert op.channel_handle.int_value("type") == DEVICE_TO_DEVICE
        queue = host_abi.QueueRef("channel", handle, send_recv_pairs(op))
        hint = f"no xla.send on channel {handle} ran before it"
    return call_results(op, builder, *call_site(cx, op, builder, "recv", host_abi.ReadQueue(queue, hint)))


# ---------------------------------------------------------------------------
# Custom call
# ---------------------------------------------------------------------------


def _aliases(op: CustomCallOp) -> tuple[tuple[int, int], ...]:
    """(output leaf, operand) pairs of `output_operand_aliases`, in data indices."""
    if op.output_operand_aliases is None:
        return ()
    operand_leaf = {v: i for i, v in enumerate(_data(op.inputs))}
    result_leaf = {v: i for i, v in enumerate(_data(op.outputs))}
    pairs: list[tuple[int, int]] = []
    for alias in op.output_operand_aliases.data:
        assert isinstance(alias, OutputOperandAliasAttr)
        output_path = alias.ints("output_tuple_indices")
        operand_path = alias.ints("operand_tuple_indices")
        result = op.outputs[output_path[0] if len(op.outputs) > 1 else 0]
        operand = op.inputs[alias.int_value("operand_index")]
        if (len(op.outputs) > 1 and len(output_path) > 1) or (len(op.outputs) == 1 and output_path) or operand_path:
            raise LoweringError("output_operand_aliases into tuples are not compiled (flatten the tuples)", op)
        if result in result_leaf and operand in operand_leaf:
            pairs.append((result_leaf[result], operand_leaf[operand]))
    return tuple(pairs)


@lowers(CustomCallOp)
def lower_custom_call(cx: Converter, op: CustomCallOp, builder: Builder) -> Sequence[SSAValue]:
    name = op.target
    target = host_abi.custom_call_target(name)
    if target is None:
        raise LoweringError(
            f"custom_call target '{name}' is not registered: register it with "
            f"runtime.host_io.register_custom_call('{name}', fn) before compiling",
            op,
        )
    version = 1 if op.api_version is None else op.version
    if target.python is None and not host_abi.c_api_supported(version):
        raise LoweringError(
            f"custom_call target '{name}' is a C function, which api_version {version} "
            "(typed FFI) cannot call: use api_version 1-3 or register a Python callable",
            op,
        )
    if op.operand_layouts is not None:
        _check_row_major(op, "operand_layouts", op.operand_layouts, list(op.inputs.types))
    if op.result_layouts is not None:
        _check_row_major(op, "result_layouts", op.result_layouts, list(op.outputs.types))
    config = op.backend_config
    opaque = config.data.encode() if isinstance(config, StringAttr) else b""
    n_data = len(_data(op.outputs))
    table = n_data != 1 or "xla.tuple_result" in op.attributes
    spec = host_abi.CustomCallSpec(name, version, opaque, table, _aliases(op))
    return call_results(op, builder, *call_site(cx, op, builder, "custom_call", host_abi.CallTarget(spec)))


# ---------------------------------------------------------------------------
# set_dimension_size
# ---------------------------------------------------------------------------


@lowers(SetDimensionSizeOp)
def lower_set_dimension_size(cx: Converter, op: SetDimensionSizeOp, builder: Builder) -> Sequence[SSAValue]:
    dimension = op.dimension.value.data
    bound = shape_of(op.operand.type)[dimension]
    raise LoweringError(
        f"xla.set_dimension_size makes dimension {dimension} dynamic (bounded by {bound}); "
        "bounded dynamic shapes are not compiled: every shape must be static "
        "(pad and mask with iota/compare/select instead)",
        op,
    )


# ---------------------------------------------------------------------------
# Loops that reach the runtime stop once a runtime op failed
# ---------------------------------------------------------------------------


def _is_site(callee: str) -> bool:
    return callee.startswith(host_abi.SYMBOL_PREFIX) and callee != host_abi.OK_SYMBOL


def guard_loops(module: ModuleOp) -> None:
    """Make each `scf.while` whose regions call the runtime (directly or through
    functions that do) also require `__xla_rt_ok()` to continue."""
    bodies = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks}
    calls = {
        name: {c.callee.root_reference.data for c in f.walk() if isinstance(c, func.CallOp)}
        for name, f in bodies.items()
    }
    reaching = {name for name, callees in calls.items() if any(_is_site(c) for c in callees)}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in reaching and callees & reaching:
                reaching.add(name)
                changed = True
    if not reaching:
        return  # no function reaches the runtime
    loops = [
        w
        for f in bodies.values()
        for w in f.walk()
        if isinstance(w, scf.WhileOp)
        and any(
            isinstance(c, func.CallOp)
            and (_is_site(c.callee.root_reference.data) or c.callee.root_reference.data in reaching)
            for region in w.regions
            for c in region.walk()
        )
    ]
    if not loops:
        return
    _declare(module, host_abi.OK_SYMBOL, [], [IntegerType(1)])
    for w in loops:
        condition = w.before_region.block.last_op
        assert isinstance(condition, scf.ConditionOp)
        b = Builder(InsertPoint.before(condition))
        ok = b.insert(func.CallOp(host_abi.OK_SYMBOL, [], [i1])).res[0]
        both = b.insert(arith.AndIOp(condition.condition, ok)).result
        condition.operands[0] = both
        for new in (ok.owner, both.owner):
            assert isinstance(new, Operation)
            new.location = condition.location


__all__ = [
    "guard_loops",
    "lower_custom_call",
    "lower_infeed",
    "lower_outfeed",
    "lower_recv",
    "lower_send",
    "lower_set_dimension_size",
    "lower_token",
    "where",
]
