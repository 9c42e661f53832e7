"""`outline-loop-nests`: each outermost loop nest of a function becomes a function of its own.

XLA's CPU backend emits one LLVM function per fusion; LLVM's loop passes
(IndVarSimplify, LoopRotate, LICM, the vectorizer) cost more than linear time in
the size of the function they work on, so one function holding every loop of a
large program made its optimization quadratic. After this pass each kernel is a
function and the function that held it calls it:

    scf.for %i = %c0 to %c8 step %c1 {          func.call @f__kernel0(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
      %x = memref.load %a[%i] : memref<8xf32>   ...
      memref.store %x, %b[%i] : memref<8xf32>   func.func private @f__kernel0(%a: memref<8xf32> {llvm.noalias},
    }                                                                         %b: memref<8xf32> {llvm.noalias}) {
                                                  %c0 = arith.constant 0 : index   // constants are re-created
                                                  scf.for %i = %c0 to %c8 step %c1 { ... }
                                                  func.return
                                                }

An outermost nest is an `scf.for` or `scf.parallel` with no result and no loop
around it in its function (it may sit in an `scf.while`/`scf.if` body). The new
function (private, internal linkage, `noinline` so that LLVM optimizes it on its
own, named `<function>__kernel<N>`) takes the
buffers and scalars the nest uses from outside; constants (`arith.constant`,
`memref.get_global`, ...) and views of buffers (`memref.subview`, `cast`,
`reinterpret_cast`, `collapse_shape`, `expand_shape`) are re-created inside it, so
its buffer parameters are whole buffers. They get `llvm.noalias` when each of them
is a distinct object: an allocation, or a `noalias` parameter of the enclosing
function; if any buffer parameter has another origin (e.g. a buffer a `while` loop
carries), which might be one of the others, none is marked.

A nest is left in place when it uses a value that cannot be passed (a buffer of
dynamic shape or non-identity layout, a value of another type).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.memref_views import VIEW_OPS
from lowering.merge_identical_functions import KeyWalk

_LOOPS = (scf.ForOp, scf.ParallelOp)
RECREATED_CONSTANTS = (arith.ConstantOp, llvm.ConstantOp, llvm.AddressOfOp, llvm.ZeroOp, llvm.UndefOp, memref.GetGlobalOp)
RECREATED_VIEWS = VIEW_OPS
"""Ops a kernel re-creates inside rather than take as arguments (constants without
operands, views of buffers it takes)."""


def outermost_loop_nests(fn: func.FuncOp) -> list[Operation]:
    """The `scf.for`/`scf.parallel` ops of `fn` with no loop around them, in order."""
    found: list[Operation] = []
    stack: list[Operation] = [fn]
    while stack:
        op = stack.pop()
        for region in reversed(op.regions):
            for block in reversed(list(region.blocks)):
                for inner in reversed(list(block.ops)):
                    if isinstance(inner, _LOOPS):
                        found.append(inner)
                    else:
                        stack.append(inner)
    found.reverse()
    return found


def _passable(t: Attribute) -> bool:
    if isinstance(t, MemRefType):
        return all(d >= 0 for d in t.get_shape()) and isinstance(t.layout, NoneAttr)
    return isinstance(t, (IndexType, IntegerType, AnyFloat))


def _distinct_object(value: SSAValue, fn: func.FuncOp) -> bool:
    """Whether `value` is a buffer no other buffer of `fn` may overlap."""
    owner = value.owner
    if isinstance(owner, (memref.AllocOp, memref.AllocaOp)):
        return True
    if isinstance(value, BlockArgument) and owner is fn.body.blocks.first and fn.arg_attrs is not None:
        return "llvm.noalias" in fn.arg_attrs.data[value.index].data
    return False


@dataclass
class Captures:
    arguments: list[SSAValue]
    """Values passed to the new function, in the order of its parameters."""
    recreated: list[Operation]
    """Constants and views re-created at the start of the new function, operands first."""
    ops: list[Operation]
    """The ops of the nest (itself first), in walk order."""
    tops: list[Operation]
    """The outermost ops moved: the nest, or a group of ops of one block, in order."""


def captures_of(nest: Operation | list[Operation]) -> Captures | None:
    """What the nest (or the ops of a group, in order) uses from outside, or None if
    something cannot be passed."""
    tops = nest if isinstance(nest, list) else [nest]
    arguments: list[SSAValue] = []
    recreated: list[Operation] = []
    seen: set[SSAValue] = set()
    cloned: set[Operation] = set()

    def capture(value: SSAValue) -> bool:
        if value in seen:
            return True
        seen.add(value)
        owner = value.owner
        if isinstance(owner, RECREATED_CONSTANTS) and not owner.operands:
            if owner not in cloned:
                cloned.add(owner)
                recreated.append(owner)
            return True
        if isinstance(owner, RECREATED_VIEWS):
            if not all(capture(v) for v in owner.operands):
                return False
            if owner not in cloned:
                cloned.add(owner)
                recreated.append(owner)
            return True
        if not _passable(value.type):
            return False
        arguments.append(value)
        return True

    ops = [op for top in tops for op in top.walk()]
    inside = set(ops)
    for op in ops:
        for value in op.operands:
            owner = value.owner
            if (owner.parent_op() if isinstance(owner, Block) else owner) in inside:
                continue  # defined in the nest
            if not capture(value):
                return None
    return Captures(arguments, recreated, ops, tops)


@dataclass
class KernelOutliner:
    module: ModuleOp
    names: set[str]
    merge_identical: bool = True
    next_suffix: dict[str, int] = field(default_factory=dict[str, int])
    kernels: dict[tuple[Hashable, ...], str] = field(default_factory=dict[tuple[Hashable, ...], str])
    """The kernel made for each key (`_kernel_key`)."""

    def fresh_name(self, base: str) -> str:
        """`base` + the smallest free number; the numbers only grow, so the search
        goes on from the last one (not from 0: that was quadratic in the kernels)."""
        k = self.next_suffix.get(base, 0)
        while f"{base}{k}" in self.names:
            k += 1
        self.next_suffix[base] = k + 1
        name = f"{base}{k}"
        self.names.add(name)
        return name

    def outline(
        self, fn: func.FuncOp, captures: Captures, anchor: Operation, suffix: str = "__kernel"
    ) -> Operation:
        """Move the nest (`captures.tops`) into a new function placed after `anchor`
        (a call replaces it), or, when a kernel made before would be identical to that
        function, call that kernel and erase the nest. Returns the last kernel made."""
        arguments = captures.arguments
        tops = captures.tops
        buffers = [v for v in arguments if isinstance(v.type, MemRefType)]
        noalias = all(_distinct_object(v, fn) for v in buffers)
        name = self.fresh_name(f"{fn.sym_name.data}{suffix}")
        # (one look-up: hashing a key walks all of it)
        kept = self.kernels.setdefault(_kernel_key(captures, noalias), name) if self.merge_identical else name
        if kept != name:
            Rewriter.insert_op(func.CallOp(kept, list(arguments), []), InsertPoint.before(tops[0]))
            for top in reversed(tops):
                Rewriter.erase_op(top, safe_erase=False)
            _erase_unused(captures.recreated)
            return anchor

        block = Block(arg_types=[v.type for v in arguments])
        mapping: dict[SSAValue, SSAValue] = {}
        for value, arg in zip(arguments, block.args):
            arg.name_hint = value.name_hint
            mapping[value] = arg
        for op in captures.recreated:
            clone = op.clone(value_mapper=mapping)  # (which maps its results too)
            block.add_op(clone)
            for old, new in zip(op.results, clone.results):
                new.name_hint = old.name_hint

        call = func.CallOp(name, list(arguments), [])
        Rewriter.insert_op(call, InsertPoint.before(tops[0]))
        for top in tops:
            top.detach()
            block.add_op(top)
        block.add_op(func.ReturnOp())
        for op in captures.ops:
            if any(v in mapping for v in op.operands):
                op.operands = [mapping.get(v, v) for v in op.operands]

        arg_attrs = ArrayAttr(
            [
                DictionaryAttr({"llvm.noalias": UnitAttr()} if noalias and isinstance(v.type, MemRefType) else {})
                for v in arguments
            ]
        )
        kernel = func.FuncOp(
            name,
            FunctionType.from_lists([v.type for v in arguments], []),
            Region(block),
            visibility="private",
            arg_attrs=arg_attrs,
        )
        kernel.attributes["llvm.linkage"] = StringAttr("internal")
        kernel.attributes["llvm.no_inline"] = UnitAttr()
        self.module.body.block.insert_op_after(kernel, anchor)
        _erase_unused(captures.recreated)
        return kernel


def _erase_unused(recreated: list[Operation]) -> None:
    """Erase the originals of re-created constants and views the nest alone used."""
    for op in reversed(recreated):
        if all(not r.uses for r in op.results):
            Rewriter.erase_op(op)


class _KeyOnly(KeyWalk):
    """The key walk without noting calls and symbol references (merge's business)."""

    def visit(self, op: Operation) -> None:
        pass


def _kernel_key(captures: Captures, noalias: bool) -> tuple[Hashable, ...]:
    """A key equal for two nests exactly when the kernels `KernelOutliner.outline` would make
    of them are identical up to names (`merge-identical-functions`' key of the
    function): the parameters' types and `noalias` (which give the function's type
    and attributes), then its body as it would be: the parameters, the re-created
    constants and views, the nest, the return. The captured values stand for the
    parameters, and the originals of the re-created ops for their copies."""
    parts: list[Hashable] = [tuple(v.type for v in captures.arguments), noalias]
    values = {v: i for i, v in enumerate(captures.arguments)}
    blocks: dict[Block | None, int] = {None: 0}  # (the function's block)
    parts.append((0, parts[0], tuple(range(len(values)))))
    _KeyOnly([], set()).extend_key(parts, [*captures.recreated, *captures.tops], values, blocks)
    parts.append("func.return")
    return tuple(parts)


def outline_loop_nests(module: ModuleOp, merge_identical: bool = True) -> None:
    """Outline every outermost loop nest of every function of `module`; with
    `merge_identical`, a nest whose kernel would be identical to one made before
    calls that one."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks]
    outliner = KernelOutliner(
        module, {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}, merge_identical
    )
    for fn in functions:
        anchor: Operation = fn
        for nest in outermost_loop_nests(fn):
            if nest.results:
                continue
            captures = captures_of(nest)
            if captures is None:
                continue
            anchor = outliner.outline(fn, captures, anchor)
    _inline_straight_groups(module)


GROUP = "xla.kernel_group"
"""The unit attribute `outline-linalg-kernels` marks its functions with."""


def _straight_line(fn: func.FuncOp) -> bool:
    """Whether `fn` is one block of ops without regions ending in a `return` of nothing."""
    if len(fn.body.blocks) != 1:
        return False
    last = fn.body.block.last_op
    if not isinstance(last, func.ReturnOp) or last.operands:
        return False
    return all(not op.regions for op in fn.body.block.ops)


def _inline_straight_groups(module: ModuleOp) -> None:
    """Inline the functions of `outline-linalg-kernels` left without a loop (their
    nests now kernels of their own: what remains computes the kernels' arguments,
    such as a run-time alignment, allocates scratch, calls them) into their callers,
    and erase them: each caller then calls the kernels itself, as it did before the
    run was outlined, and no call is added at run time."""
    groups = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, func.FuncOp) and GROUP in op.attributes and _straight_line(op)
    }
    if not groups:
        return
    calls = [
        op
        for op in module.walk()
        if isinstance(op, func.CallOp)
        and op.callee.root_reference.data in groups
        and not op.callee.nested_references.data
    ]
    for call in calls:
        block = groups[call.callee.root_reference.data].body.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, call.operands))
        for op in block.ops:
            if isinstance(op, func.ReturnOp):
                break
            Rewriter.insert_op(op.clone(value_mapper=mapping), InsertPoint.before(call))
        Rewriter.erase_op(call)
    for fn in groups.values():
        module.body.block.erase_op(fn)


@dataclass(frozen=True)
class OutlineLoopNestsPass(ModulePass):
    """Each outermost `scf.for`/`scf.parallel` nest → a private function and a call."""

    name = "outline-loop-nests"

    merge_identical: bool = True
    """A nest whose kernel would be identical to one made before (the kernels of
    repeated layers) calls that kernel instead of getting its own."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_loop_nests(op, self.merge_identical)


__all__ = [
    "GROUP",
    "RECREATED_CONSTANTS",
    "RECREATED_VIEWS",
    "Captures",
    "KernelOutliner",
    "OutlineLoopNestsPass",
    "captures_of",
    "outermost_loop_nests",
    "outline_loop_nests",
]
