"""`install_fast_walk()`: xDSL 0.74's `walk` of ops, regions and blocks, without its
generator per nesting level.

xDSL's `Operation.walk` yields from `Region.walk`, which yields from `Block.walk`, which
yields from each op's `walk`: every op of a loop nest `d` levels deep passes through
`3 d` suspended generators before reaching the caller. Passes walk the whole module
again and again (to collect the ops a pattern applies to, to find dead ops, to
fingerprint the module), and at the codegen stage (vectorized loop nests six or more
levels deep) those walks cost about a tenth of a 10,000-op compile (cProfile of the
transformer: 9.2 of 86 s under the profiler).

The walk installed here visits the same ops in the same order with one generator and
an explicit stack of the same iterators xDSL's nested generators hold (the op's
`regions`, each region's `blocks`, each block's `ops`, all read lazily at the same
moments), so a caller that changes the IR while it walks sees exactly what it saw
before: an op's regions are read after the caller has had the op, a block's ops are
followed through `next_op` one at a time. Only the default walk (forward, each op
before its regions) is replaced; `reverse=True` and `region_first=True` go to xDSL's
own. `tests/unit/test_fast_walk.py` compares both on nested IR, also while the walker
erases and inserts ops.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from xdsl.ir import Block, Operation, Region

XDSL_OPERATION_WALK = Operation.walk
XDSL_REGION_WALK = Region.walk
XDSL_BLOCK_WALK = Block.walk
"""xDSL's own walks (what the tests compare against)."""

_REGIONS, _BLOCKS, _OPS = 0, 1, 2
"""What an iterator on the stack yields: an op's regions, a region's blocks, a block's ops."""


def _walk(root: Any, root_kind: int) -> Iterator[Operation]:
    """The ops of a forward, op-first walk of `root` (an op, region or block, as
    `root_kind` says: `_REGIONS`, `_BLOCKS`, `_OPS` for what xDSL's walk of it starts by
    iterating), as xDSL's nested generators yield them; nothing is read before the
    first `next`, as in xDSL's generators.

    A block's ops and a region's blocks are followed as xDSL's iterators follow them
    (`_BlockOpsIterator`, `_RegionBlocksIterator`: the next one is read when the
    current one is taken, before the caller sees it), without their Python-level
    `__next__`; an op's regions through the iterator of its tuple."""
    kinds: list[int]
    states: list[Any]  # per level: the next op, the next block, or an iterator of regions
    if root_kind == _REGIONS:
        yield root
        regions = root.regions
        if not regions:
            return
        kinds, states = [_REGIONS], [iter(regions)]
    elif root_kind == _BLOCKS:
        kinds, states = [_BLOCKS], [root.first_block]
    else:
        kinds, states = [_OPS], [root.first_op]
    while kinds:
        kind = kinds[-1]
        if kind == _OPS:
            op = states[-1]
            if op is None:
                kinds.pop()
                states.pop()
                continue
            states[-1] = op.next_op
            yield op
            regions = op.regions
            if regions:
                kinds.append(_REGIONS)
                states.append(iter(regions))
        elif kind == _BLOCKS:
            block = states[-1]
            if block is None:
                kinds.pop()
                states.pop()
                continue
            states[-1] = block.next_block
            kinds.append(_OPS)
            states.append(block.first_op)
        else:
            region = next(states[-1], None)
            if region is None:
                kinds.pop()
                states.pop()
                continue
            kinds.append(_BLOCKS)
            states.append(region.first_block)


def _operation_walk(self: Operation, *, reverse: bool = False, region_first: bool = False) -> Iterator[Operation]:
    if reverse or region_first:
        return XDSL_OPERATION_WALK(self, reverse=reverse, region_first=region_first)
    return _walk(self, _REGIONS)


def _region_walk(self: Region, *, reverse: bool = False, region_first: bool = False) -> Iterator[Operation]:
    if reverse or region_first:
        return XDSL_REGION_WALK(self, reverse=reverse, region_first=region_first)
    return _walk(self, _BLOCKS)


def _block_walk(self: Block, *, reverse: bool = False, region_first: bool = False) -> Iterable[Operation]:
    if reverse or region_first:
        return XDSL_BLOCK_WALK(self, reverse=reverse, region_first=region_first)
    return _walk(self, _OPS)


def install_fast_walk() -> None:
    """Replace xDSL's default (forward, op-first) `walk` of ops, regions and blocks."""
    if getattr(Operation.walk, "_xla_fast", False):
        return
    _operation_walk._xla_fast = True  # type: ignore[attr-defined]
    Operation.walk = _operation_walk  # type: ignore[method-assign]
    Region.walk = _region_walk  # type: ignore[method-assign]
    Block.walk = _block_walk  # type: ignore[method-assign]


__all__ = ["XDSL_BLOCK_WALK", "XDSL_OPERATION_WALK", "XDSL_REGION_WALK", "install_fast_walk"]
