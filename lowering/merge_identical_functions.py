"""`merge-identical-functions`: private functions that are the same up to their names
and the names of their values become one.

`outline-loop-nests` makes a function of every kernel; a program built of repeated
layers (an MLP's dense layers, a transformer's blocks) then holds many copies of
the same kernel, which every later pass and LLVM would lower, optimize and compile
again. As LLVM's `mergefunc`, this pass keeps the first of each set of identical
functions and points the calls of the others at it:

    func.call @f__kernel0(%a, %t)                 func.call @f__kernel0(%a, %t)
    func.call @f__kernel1(%t, %b)      ->         func.call @f__kernel0(%t, %b)
    func.func private @f__kernel0(...) {...}      func.func private @f__kernel0(...) {...}
    func.func private @f__kernel1(...) {...}      // (erased: the same body)

Two functions are identical when their types, attributes other than the name
(argument attributes such as `llvm.noalias`, linkage) and bodies are: the same ops
with the same attributes and properties (floats compared by their bits), result
and block-argument types, regions and blocks, and the same use of values and
successors (values and blocks numbered in the order they are met). The key is
computed in one walk of each function, and the functions are grouped by it in a
dictionary: the pass is linear in the size of the module.

Only private functions whose every use is a `func.call` are merged (a public
function keeps its symbol; a function whose address is taken keeps its identity).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.passes import ModulePass

from xla_dialect.symbols import note_symbols

_NAME = "sym_name"


def _attribute_key(attrs: dict[str, Attribute], skip: str = "") -> tuple[tuple[str, Attribute], ...]:
    if not attrs:
        return ()
    return tuple(sorted((k, v) for k, v in attrs.items() if k != skip))


@dataclass
class KeyWalk:
    """What one walk of a function finds: its key, its calls, and the symbols it names
    otherwise than as a call's callee (those functions keep their identity)."""

    calls: list[func.CallOp]
    referenced: set[str]

    def visit(self, op: Operation) -> None:
        if isinstance(op, func.CallOp):
            self.calls.append(op)
            for attr in op.attributes.values():
                note_symbols(attr, self.referenced)
            return
        for attrs in (op.properties, op.attributes):
            for attr in attrs.values():
                if not isinstance(attr, (IntegerAttr, FloatAttr, TypeAttribute)):
                    note_symbols(attr, self.referenced)

    def function_key(self, fn: func.FuncOp) -> tuple[Hashable, ...]:
        """A key equal for two functions exactly when they are identical up to names."""
        values: dict[SSAValue, int] = {}
        blocks: dict[Block | None, int] = {}
        parts: list[Hashable] = [_attribute_key(fn.properties, _NAME), _attribute_key(fn.attributes, _NAME)]
        for block in fn.body.blocks:
            blocks.setdefault(block, len(blocks))
        self.extend_key(parts, list(fn.body.blocks), values, blocks)
        return tuple(parts)

    def extend_key(
        self,
        parts: list[Hashable],
        items: list[Operation | Block],
        values: dict[SSAValue, int],
        blocks: dict[Block | None, int],
    ) -> None:
        """Append to `parts` the key of `items` (blocks and ops, in order, each with
        what it holds), numbering values and blocks on from `values` and `blocks`."""

        # (the numbering `values.setdefault(v, len(values))` inlined: this loop is most of
        # the time of `outline-loop-nests`, which keys every loop nest of the module)
        number = values.setdefault
        block_number = blocks.setdefault
        stack: list[Operation | Block] = list(reversed(items))
        while stack:
            item = stack.pop()
            if isinstance(item, Block):
                args = item.args
                parts.append(
                    (
                        block_number(item, len(blocks)),
                        tuple([a.type for a in args]),
                        tuple([number(a, len(values)) for a in args]),
                    )
                )
                stack.extend(reversed(list(item.ops)))
                continue
            op = item
            self.visit(op)
            inner = [block for region in op.regions for block in region.blocks]
            results = op.results
            parts.append(
                (
                    op.name,
                    tuple([number(v, len(values)) for v in op.operands]),
                    tuple([r.type for r in results]),
                    tuple([number(r, len(values)) for r in results]),
                    _attribute_key(op.properties),
                    _attribute_key(op.attributes),
                    tuple([block_number(s, len(blocks)) for s in op.successors]) if op.successors else (),
                    tuple([len(r.blocks) for r in op.regions]) if op.regions else (),
                    tuple([block_number(b, len(blocks)) for b in inner]) if inner else (),
                )
            )
            if inner:
                stack.extend(reversed(inner))

    def walk(self, op: Operation) -> None:
        stack = [op]
        while stack:
            op = stack.pop()
            self.visit(op)
            for region in op.regions:
                for block in region.blocks:
                    stack.extend(block.ops)


def _mergeable(fn: func.FuncOp) -> bool:
    return fn.sym_visibility is not None and fn.sym_visibility.data == "private" and bool(fn.body.blocks)


def merge_identical_functions(module: ModuleOp) -> int:
    """Merge the identical private functions of `module`; the number erased."""
    walk = KeyWalk([], set())
    keys: list[tuple[func.FuncOp, tuple[Hashable, ...]]] = []
    for op in module.ops:
        if isinstance(op, func.FuncOp) and _mergeable(op):
            keys.append((op, walk.function_key(op)))
        else:
            walk.walk(op)
    first: dict[tuple[Hashable, ...], str] = {}
    replacement: dict[str, str] = {}
    for fn, key in keys:
        name = fn.sym_name.data
        if name in walk.referenced:
            continue
        kept = first.setdefault(key, name)
        if kept != name:
            replacement[name] = kept
    for call in walk.calls:
        kept = replacement.get(call.callee.root_reference.data)
        if kept is not None and not call.callee.nested_references.data:
            call.callee = SymbolRefAttr(kept)
    for fn, _ in keys:
        if fn.sym_name.data in replacement:
            module.body.block.detach_op(fn)  # (isolated from above: nothing outside uses its values)
    return len(replacement)


@dataclass(frozen=True)
class MergeIdenticalFunctionsPass(ModulePass):
    """Identical private functions (kernels of repeated layers) → one, calls redirected."""

    name = "merge-identical-functions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        merge_identical_functions(op)


__all__ = ["KeyWalk", "MergeIdenticalFunctionsPass", "merge_identical_functions"]
