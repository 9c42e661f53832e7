"""Structural rules xDSL's verifier leaves out and later stages rely on.

MLIR checks these for every op before any pass runs; xDSL 0.74 does not, so a
program breaking them reached the lowering and failed there with a KeyError:

* dominance: every operand is defined before its use (in its block, or in a block
  that dominates the user's), and a value is used only inside the region that
  defines it or regions nested in it ("operand #0 does not dominate this use");
* symbols: a symbol table holds each name once; the second definition is the
  error, at its own line (xDSL reported it on the module, at `<unknown>:0:0`);
* a `func.func` without a body is a declaration, and declarations are private
  (MLIR's rule); each block of a body ends in a terminator: `func.func @main(...) {}`
  is not a silent empty function (it reached LLVM as invalid IR);
* the upstream ops' own invariants the lowering assumes: `linalg.index` names a
  loop of its `linalg.generic`, whose body ends in `linalg.yield`; `scf.execute_region`
  yields its result types; `memref.subview`,
  `tensor.insert_slice`
  and `tensor.extract_slice` have one offset, size and stride per dimension.

`StructureChecker(op)` gives the errors of one op; `verify_all` calls it for each.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.traits import IsTerminator, SymbolTable


class StructureChecker:
    """Checks ops one at a time, caching block orders and dominator sets."""

    def __init__(self) -> None:
        self._positions: dict[int, dict[int, int]] = {}
        self._dominators: dict[int, dict[int, set[int]]] = {}

    def errors(self, op: Operation) -> list[tuple[Operation, str]]:
        """(culprit, message) for each rule `op` breaks."""
        found: list[tuple[Operation, str]] = []
        for index, operand in enumerate(op.operands):
            if isinstance(operand, ForwardDeclaredValue):
                found.append((op, f"operand #{index} is a value defined nowhere in its scope"))
            elif not self._dominates(operand, op):
                found.append((op, f"operand #{index} does not dominate this use"))
        if op.has_trait(SymbolTable) or isinstance(op, ModuleOp):
            found.extend(_duplicate_symbols(op))
        check = _OP_RULES.get(op.name)
        if check is not None:
            message = check(op)
            if message:
                found.append((op, message))
        return found

    def _position(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        positions = self._positions.get(id(block))
        if positions is None:
            positions = {id(o): i for i, o in enumerate(block.ops)}
            self._positions[id(block)] = positions
        return positions[id(op)]

    def _dominates(self, value: SSAValue, user: Operation) -> bool:
        if isinstance(value, BlockArgument):
            def_block: Block | None = value.block
            def_op = None
        else:
            def_op = value.owner
            assert isinstance(def_op, Operation)
            def_block = def_op.parent_block()
        if def_block is None or def_block.parent is None:
            return True  # detached IR: nothing to say
        region = def_block.parent
        anchor: Operation | None = user
        while anchor is not None and (anchor.parent_block() is None or anchor.parent_block().parent is not region):  # pyright: ignore
            anchor = anchor.parent_op()
        if anchor is None:
            return False  # used outside the region that defines it
        if isinstance(region.parent, ModuleOp):
            return True  # a graph region
        use_block = anchor.parent_block()
        assert use_block is not None
        if use_block is def_block:
            return def_op is None or (def_op is not anchor and self._position(def_op) < self._position(anchor))
        dominators = self._region_dominators(region).get(id(use_block))
        return dominators is None or id(def_block) in dominators  # unreachable blocks: anything

    def _region_dominators(self, region: Region) -> dict[int, set[int]]:
        cached = self._dominators.get(id(region))
        if cached is not None:
            return cached
        blocks = list(region.blocks)
        successors: dict[int, list[Block]] = {}
        for block in blocks:
            last = block.last_op
            successors[id(block)] = list(last.successors) if last is not None else []
        reachable: list[Block] = []
        seen: set[int] = set()
        stack = [blocks[0]] if blocks else []
        while stack:
            block = stack.pop()
            if id(block) in seen:
                continue
            seen.add(id(block))
            reachable.append(block)
            stack.extend(successors[id(block)])
        predecessors: dict[int, list[int]] = {id(b): [] for b in reachable}
        for block in reachable:
            for succ in successors[id(block)]:
                predecessors[id(succ)].append(id(block))
        every = {id(b) for b in reachable}
        dominators = {id(b): set(every) for b in reachable}
        if reachable:
            dominators[id(reachable[0])] = {id(reachable[0])}
        changed = True
        while changed:
            changed = False
            for block in reachable[1:]:
                preds = predecessors[id(block)]
                new = set.intersection(*(dominators[p] for p in preds)) if preds else set()
                new = new | {id(block)}
                if new != dominators[id(block)]:
                    dominators[id(block)] = new
                    changed = True
        self._dominators[id(region)] = dominators
        return dominators


def _duplicate_symbols(table: Operation) -> list[tuple[Operation, str]]:
    found: list[tuple[Operation, str]] = []
    for region in table.regions:
        names: set[str] = set()
        for block in region.blocks:
            for op in block.ops:
                name = op.attributes.get("sym_name") or op.properties.get("sym_name")
                if not isinstance(name, StringAttr):
                    continue
                if name.data in names:
                    found.append((op, f"redefinition of symbol @{name.data}"))
                names.add(name.data)
    return found


def _func_body(op: Operation) -> str | None:
    parent = op.parent_op()
    if parent is not None and not (isinstance(parent, ModuleOp) or parent.has_trait(SymbolTable)):
        return "a function must be defined in a module (its symbol table), not inside an op"
    for block in op.regions[0].blocks if op.regions else ():
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator):
            return "every block of a function body must end in a terminator (func.return)"
    if op.regions and not op.regions[0].blocks:
        visibility = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
        if not isinstance(visibility, StringAttr) or visibility.data != "private":
            return "a function without a body is a declaration and must be private"
    return None


def _slice_lists(op: Operation) -> str | None:
    if len(op.operands) < (2 if op.name == "tensor.insert_slice" else 1):
        return None
    sliced = op.operands[1 if op.name == "tensor.insert_slice" else 0].type  # the dest, the source
    shape = getattr(sliced, "get_shape", None)
    if shape is None:
        return None
    rank = len(shape())
    for key in ("static_offsets", "static_sizes", "static_strides"):
        values = op.properties.get(key)
        count = len(values.get_values()) if values is not None else 0  # pyright: ignore
        if count != rank:
            return f"expected {rank} {key.removeprefix('static_')} (one per dimension), got {count}"
    return None


def _linalg_index(op: Operation) -> str | None:
    parent = op.parent_op()
    loops = parent.properties.get("iterator_types") if parent is not None else None
    dim = op.properties.get("dim")
    if loops is None or dim is None:
        return None
    count = len(loops.data)  # pyright: ignore[reportAttributeAccessIssue]
    value = dim.value.data  # pyright: ignore[reportAttributeAccessIssue]
    if not 0 <= value < count:
        return f"dimension {value} is out of range for the {count} loop(s) of the enclosing {parent.name}"  # pyright: ignore
    return None


def _linalg_body(op: Operation) -> str | None:
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None or not last.has_trait(IsTerminator):
                return "the body must end in linalg.yield"
    return None


def _execute_region(op: Operation) -> str | None:
    results = [r.type for r in op.results]
    for block in op.regions[0].blocks if op.regions else ():
        last = block.last_op
        if last is not None and last.name == "scf.yield" and [v.type for v in last.operands] != results:
            return "yields values whose types differ from the op's result types"
    return None


_OP_RULES = {
    "scf.execute_region": _execute_region,
    "linalg.generic": _linalg_body,
    "memref.subview": _slice_lists,
    "linalg.index": _linalg_index,
    "func.func": _func_body,
    "tensor.insert_slice": _slice_lists,
    "tensor.extract_slice": _slice_lists,
}


__all__ = ["StructureChecker"]
