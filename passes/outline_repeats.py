"""`xla-outline-repeats`: a run of identical layers becomes calls of one function.

A program written with a Python loop over layers (an MLP's dense layers, a
transformer's blocks) reaches the compiler unrolled: the same ops, in the same
order, on different weights, once per layer. Every later pass, and LLVM, would
then do the same work once per layer. This pass finds the longest run of
consecutive repeats in a function's body, moves one copy into a private
function, and replaces each repeat by a `func.call` of it, as LLVM's IR outliner
does for similar code and IREE's deduplication of identical dispatches does for
kernels. The calls run in the same order as the ops they replace, so effects
keep their order.

Two spans of ops are repeats when their ops match one for one: the same op with
the same attributes, properties and result types, and each operand of the same
provenance. A value defined inside the span must come from the same position
in it; a value from outside (a function argument, an earlier op) becomes an
argument of the new function; a constant from outside (`ConstantLike`) with the
same value in every repeat is cloned into the function, so that folding and
fusion still see it. A value that several operands share in every repeat is
passed once. Values that a repeat defines and anything after it uses become the
function's results. Ops with regions match when their regions match the same
way; values that a region uses from outside its op count as operands.

Finding the repeats: every op gets a key (its name, attributes, types and the
provenance of its operands, an inner value by its distance back in the block).
A span repeats with period P where the keys equal those P ops later, so for each
candidate period (the most common distances between equal keys) one numpy
comparison finds the longest periodic run. The run that saves the most ops is
outlined, and the search repeats on the new body, so a program with two stacks
of layers gets two functions. The pass is linear in the number of ops for each
candidate period, and a run must save `min_ops` ops to be outlined (small
programs are left as they are).

Where a run is cut matters: a call boundary separates what fusion would have put
in one loop. The cut goes where the fewest values pass from an element-wise op to
another (`place_run`). A repeat without a contraction or convolution (a chain of
element-wise ops) groups periods up to the weight at which `linalg-fuse-elementwise`
cuts a fused loop anyway, so each repeat stays one loop. What is still given up is
fusion across a layer boundary: an element-wise producer at the end of one layer and
a reduction at the start of the next stay in separate kernels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from xla_dialect.fusion_weights import MATH_OP_WEIGHT, MAX_BODY_WEIGHT
from xla_dialect.ops.contraction import DotGeneralOp, DotOp
from xla_dialect.ops.convolution import ConvolutionOp
from xla_dialect.ops.elementwise import ELEMENTWISE_OPS
from xla_dialect.ops.shape import BroadcastInDimOp, BroadcastOp, ReshapeOp, TransposeOp

_CANDIDATE_PERIODS = 8
"""How many of the most common distances between equal keys (and of the keys' usual
distances) are tried as periods."""

_MAX_ROUNDS = 4
"""How many runs one function may have outlined (each round searches anew)."""


def _attr_key(attr: object) -> Hashable:
    try:
        hash(attr)
    except TypeError:  # an attribute holding a list: compare by its text
        return str(attr)
    return attr


def _dict_key(attrs: dict[str, object]) -> tuple[Hashable, ...]:
    return tuple(sorted((name, _attr_key(value)) for name, value in attrs.items()))


def _is_constant(op: Operation | None) -> bool:
    return op is not None and not op.operands and not op.regions and op.has_trait(ConstantLike)


@dataclass(frozen=True)
class _Use:
    """One operand of an op at the top of the block, or of an op nested in it that
    uses a value from outside: `owner.operands[index]`."""

    owner: Operation
    index: int

    @property
    def value(self) -> SSAValue:
        return self.owner.operands[self.index]


class _Keys:
    """The keys of a block's ops and, per op, its uses of values from outside it."""

    def __init__(self, ops: Sequence[Operation]):
        self.ops = ops
        self.position = {op: i for i, op in enumerate(ops)}
        self.uses: list[list[_Use]] = [self._outer_uses(op) for op in ops]
        self.keys: list[Hashable] = [self._key(i, op) for i, op in enumerate(ops)]

    @staticmethod
    def _outer_uses(op: Operation) -> list[_Use]:
        uses = [_Use(op, i) for i in range(len(op.operands))]
        if op.regions:
            inside: set[Operation] = set(op.walk())
            for inner in op.walk():
                if inner is op:
                    continue
                for i, value in enumerate(inner.operands):
                    owner = value.owner
                    defining = owner if isinstance(owner, Operation) else owner.parent_op()
                    if defining not in inside:
                        uses.append(_Use(inner, i))
        return uses

    def provenance(self, at: int, value: SSAValue) -> Hashable:
        """How the op at `at` gets `value`: from an op `d` places back, a constant, or
        from outside (an argument, or anything not in this block)."""
        if isinstance(value, OpResult):
            where = self.position.get(value.op)
            if _is_constant(value.op):
                return ("constant", _dict_key(value.op.properties), _dict_key(value.op.attributes), value.type)
            if where is not None:
                return ("back", at - where, value.index)
        return ("outside", value.type)

    def _key(self, at: int, op: Operation) -> Hashable:
        return (
            op.name,
            _dict_key(op.properties),
            _dict_key(op.attributes),
            tuple(r.type for r in op.results),
            tuple(self.provenance(at, use.value) for use in self.uses[at]),
            _region_key(op) if op.regions else None,
        )


def _region_key(op: Operation) -> Hashable:
    """The structure of `op`'s regions: each nested op's name, attributes and types,
    and where its operands come from (a block argument, an op earlier in the regions,
    or outside, counted among the op's operands)."""
    numbering: dict[SSAValue, int] = {}
    parts: list[Hashable] = []
    for region in op.regions:
        parts.append("region")
        for block in region.blocks:
            parts.append(("block", tuple(a.type for a in block.args)))
            for arg in block.args:
                numbering[arg] = len(numbering)
            for inner in block.walk():
                parts.append(
                    (
                        inner.name,
                        _dict_key(inner.properties),
                        _dict_key(inner.attributes),
                        tuple(r.type for r in inner.results),
                        tuple(numbering.get(v, -1) for v in inner.operands),
                        len(inner.regions),
                    )
                )
                for result in inner.results:
                    numbering[result] = len(numbering)
                for inner_region in inner.regions:
                    for inner_block in inner_region.blocks:
                        for arg in inner_block.args:
                            numbering[arg] = len(numbering)
    return tuple(parts)


@dataclass(frozen=True)
class Run:
    """`count` consecutive repeats of `period` ops, the first at `start`, in a periodic
    stretch of `length` ops from `start` (up to `period - 1` more than the repeats:
    the run may start at any of those first ops)."""

    start: int
    period: int
    count: int
    length: int

    @property
    def saved(self) -> int:
        return (self.count - 1) * self.period


def find_run(keys: Sequence[Hashable], min_period: int = 2) -> Run | None:
    """The run of consecutive repeats that saves the most ops (the first of equals)."""
    n = len(keys)
    if n < 2 * min_period:
        return None
    ids: dict[Hashable, int] = {}
    codes = np.fromiter((ids.setdefault(k, len(ids)) for k in keys), dtype=np.int64, count=n)
    # Candidate periods: the most common distances between consecutive equal keys, and
    # the most common of each key's own usual distance (an op that occurs once per
    # period but whose neighbours occur several times shows the period only there).
    last: dict[int, int] = {}
    distances: Counter[int] = Counter()
    per_key: dict[int, Counter[int]] = {}
    for i, code in enumerate(codes.tolist()):
        previous = last.get(code)
        if previous is not None and i - previous >= min_period:
            distances[i - previous] += 1
            per_key.setdefault(code, Counter())[i - previous] += 1
        last[code] = i
    usual: Counter[int] = Counter(c.most_common(1)[0][0] for c in per_key.values())
    base = [d for d, _ in distances.most_common(_CANDIDATE_PERIODS)] + [
        d for d, _ in usual.most_common(_CANDIDATE_PERIODS)
    ]
    # and small multiples of the commonest (a chain whose ops repeat every 10 but whose
    # operands repeat every 30)
    candidates = dict.fromkeys(base + [k * d for d in base[:4] for k in range(2, 7)])
    best: Run | None = None
    for period in candidates:
        if 2 * period > n or period < min_period:
            continue
        same = np.concatenate(([False], codes[:-period] == codes[period:], [False]))
        edges = np.flatnonzero(np.diff(same.astype(np.int8)))
        starts, ends = edges[0::2], edges[1::2]
        if not len(starts):
            continue
        lengths = ends - starts
        longest = int(np.argmax(lengths))
        stretch = int(lengths[longest]) + period
        run = Run(int(starts[longest]), period, stretch // period, stretch)
        if run.count >= 2 and (best is None or run.saved > best.saved):
            best = run
    return best


_CONTRACTIONS: tuple[type[Operation], ...] = (DotOp, DotGeneralOp, ConvolutionOp)
"""A repeat holding one is a layer: its work outweighs the call."""

ELEMENTWISE_REPEAT_WEIGHT = MAX_BODY_WEIGHT
"""A repeat without a contraction groups as many periods as weigh at most this much
(`_expansion_weight`; one period if it weighs more): `linalg-fuse-elementwise` cuts a
fused body at this weight anyway, so each repeat of a chain is one fused loop, and the
calls add few cuts to what fusion makes. The weights are that pass's own (a
transcendental op weighs `MATH_OP_WEIGHT`), both in `xla_dialect/fusion_weights.py`."""


def _expansion_weight(op: Operation) -> int:
    cls = type(op)
    transcendental = getattr(cls, "RESULT_RULE", None) == "same" and (
        getattr(cls, "OPERAND_TYPES", None) == "float_or_complex" or op.name == "xla.power"
    )
    return MATH_OP_WEIGHT if transcendental else 1

_FUSIBLE: frozenset[type[Operation]] = frozenset(
    (*ELEMENTWISE_OPS, BroadcastInDimOp, BroadcastOp, ReshapeOp, TransposeOp)
)
"""Ops that fusion puts in one loop with their element-wise neighbours (by exact type:
`isinstance` over so many classes was most of the pass's time)."""

_BROKEN_FUSION = 100
"""What a cut costs for each value it passes from one fusible op to another (the
fusion into one loop is lost), against 1 for any other value it passes."""


def place_run(keys: _Keys, run: Run, repeat_weight: int = ELEMENTWISE_REPEAT_WEIGHT) -> Run | None:
    """Where in its periodic stretch a run is best cut into repeats: the phase whose
    cuts break the fewest fusions of element-wise producers with element-wise
    consumers, then pass the fewest values, then keep the most repeats. A period
    without a contraction or convolution is grouped with the next ones while a repeat
    weighs at most `repeat_weight` (an element-wise chain is cut about where fusion
    would cut it); None when fewer than two such repeats fit."""
    ops = keys.ops
    group = 1
    if not any(isinstance(ops[run.start + i], _CONTRACTIONS) for i in range(run.period)):
        weight = sum(_expansion_weight(ops[run.start + i]) for i in range(run.period))
        group = max(1, repeat_weight // weight)
        if run.length // (group * run.period) < 2:
            return None
    # change[b]: what a cut before the stretch's op b costs, as a difference array:
    # a value from op d to op u (d < u) crosses the cuts d+1..u (from before the
    # stretch: from its first cut on)
    change = [0] * (run.length + 1)
    for u in range(run.length):
        user = ops[run.start + u]
        for use in keys.uses[run.start + u]:
            value = use.value
            where = keys.position.get(value.op) if isinstance(value, OpResult) else None
            if where is None or where < run.start - run.period:
                continue
            d = max(where - run.start, -1)
            if d >= u:
                continue
            weight = _BROKEN_FUSION if type(value.op) in _FUSIBLE and type(user) in _FUSIBLE else 1
            change[d + 1] += weight
            change[u + 1] -= weight
    best: tuple[int, int, int] | None = None
    cost = 0
    for b in range(run.period):
        cost += change[b]
        count = (run.length - b) // (group * run.period)
        if count >= 2 and (best is None or (cost, -count) < best[:2]):
            best = (cost, -count, b)
    if best is None:
        return None
    _, count, b = best
    return Run(run.start + b, group * run.period, -count, run.length - b)


class _Outliner:
    """Outlines one run of repeats of a block into a new private function."""

    def __init__(self, fn: func.FuncOp, keys: _Keys, run: Run, name: str):
        self.fn, self.keys, self.run, self.name = fn, keys, run, name
        span = range(run.period)
        self.instances = [keys.ops[run.start + k * run.period : run.start + (k + 1) * run.period] for k in range(run.count)]
        inside = [{op: i for i, op in enumerate(ops)} for ops in self.instances]
        # the uses each instance takes from outside it: (position, use number)
        self.slots: list[tuple[int, int]] = []
        self.constants: dict[tuple[int, int], Operation] = {}
        first = self.instances[0]
        for i in span:
            for j, use in enumerate(keys.uses[run.start + i]):
                value = use.value
                if isinstance(value, OpResult) and value.op in inside[0]:
                    continue
                if _is_constant(value.op if isinstance(value, OpResult) else None):
                    self.constants[(i, j)] = value.op  # pyright: ignore[reportAttributeAccessIssue]
                    continue
                self.slots.append((i, j))
        # slots that hold the same value in every instance share one argument
        groups: dict[tuple[SSAValue, ...], int] = {}
        self.slot_group: list[int] = []
        for i, j in self.slots:
            values = tuple(keys.uses[run.start + k * run.period + i][j].value for k in range(run.count))
            self.slot_group.append(groups.setdefault(values, len(groups)))
        self.group_count = len(groups)
        # results that anything outside an instance uses, in any instance
        self.results: list[tuple[int, int]] = []
        for i in span:
            for r in range(len(first[i].results)):
                if any(self._used_outside(ops[i].results[r], inside[k]) for k, ops in enumerate(self.instances)):
                    self.results.append((i, r))

    def _top_level(self, op: Operation) -> Operation:
        """The op of the function's block that holds `op`."""
        body = self.fn.body.blocks[0]
        while op.parent_block() is not body:
            parent = op.parent_op()
            assert parent is not None
            op = parent
        return op

    def _used_outside(self, value: SSAValue, inside: dict[Operation, int]) -> bool:
        return any(self._top_level(use.operation) not in inside for use in value.uses)

    def _slot_value(self, k: int, slot: int) -> SSAValue:
        i, j = self.slots[slot]
        return self.keys.uses[self.run.start + k * self.run.period + i][j].value

    def build_function(self) -> func.FuncOp:
        first = self.instances[0]
        args: list[SSAValue | None] = [None] * self.group_count
        for slot, group in enumerate(self.slot_group):
            if args[group] is None:
                args[group] = self._slot_value(0, slot)
        arg_types = [v.type for v in args if v is not None]
        block = Block(arg_types=arg_types)
        mapping: dict[SSAValue, SSAValue] = {}
        for value, arg in zip(args, block.args, strict=True):
            assert value is not None
            mapping[value] = arg
        for constant in dict.fromkeys(self.constants.values()):
            clone = constant.clone()
            block.add_op(clone)
            mapping[constant.results[0]] = clone.results[0]
        for op in first:
            block.add_op(op.clone(value_mapper=mapping))
        returned = [mapping[first[i].results[r]] for i, r in self.results]
        block.add_op(func.ReturnOp(*returned))
        function_type = FunctionType.from_lists(arg_types, [v.type for v in returned])
        return func.FuncOp(self.name, function_type, Region(block), visibility="private")

    def replace_instances(self) -> None:
        for k, ops in enumerate(self.instances):
            operands: list[SSAValue | None] = [None] * self.group_count
            for slot, group in enumerate(self.slot_group):
                if operands[group] is None:
                    operands[group] = self._slot_value(k, slot)
            call = func.CallOp(self.name, [v for v in operands if v is not None], [ops[i].results[r].type for i, r in self.results])
            call.location = ops[0].location
            Rewriter.insert_op(call, InsertPoint.before(ops[0]))
            members = set(ops)
            for (i, r), new in zip(self.results, call.res, strict=True):
                old = ops[i].results[r]
                for use in list(old.uses):
                    if self._top_level(use.operation) not in members:
                        use.operation.operands[use.index] = new
            for op in reversed(ops):
                op.detach()
                op.erase()


def _unique_name(table: set[str], base: str) -> str:
    n = 0
    while f"{base}{n}" in table:
        n += 1
    name = f"{base}{n}"
    table.add(name)
    return name


def outline_repeats(module: ModuleOp, min_ops: int = 64, min_period: int = 2) -> list[func.FuncOp]:
    """Outline the runs of repeats of each function of `module` that save at least
    `min_ops` ops; the new functions, in order."""
    names = {n.data for op in module.ops if isinstance(n := getattr(op, "sym_name", None), StringAttr)}
    created: list[func.FuncOp] = []
    for fn in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        if not fn.body.blocks or len(fn.body.blocks) != 1:
            continue
        for _ in range(_MAX_ROUNDS):
            block = fn.body.blocks[0]
            ops = [op for op in block.ops if op is not block.last_op]
            keys = _Keys(ops)
            run = find_run(keys.keys, min_period)
            if run is not None:
                run = place_run(keys, run)
            if run is None or run.saved < min_ops:
                break
            outliner = _Outliner(fn, keys, run, _unique_name(names, f"{fn.sym_name.data}.repeat"))
            new = outliner.build_function()
            Rewriter.insert_op(new, InsertPoint.after(fn))
            outliner.replace_instances()
            created.append(new)
    return created


@dataclass(frozen=True)
class OutlineRepeatsPass(ModulePass):
    """Outline runs of identical layers into one private function each."""

    name = "xla-outline-repeats"

    min_ops: int = 64
    """A run is outlined when it saves at least this many ops."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_repeats(op, self.min_ops)


__all__ = ["ELEMENTWISE_REPEAT_WEIGHT", "OutlineRepeatsPass", "Run", "find_run", "outline_repeats", "place_run"]
