"""`xla_dialect.fast_walk`: the walks installed visit the ops xDSL's own walks visit, in
the same order, also when the caller erases, moves or inserts ops while it walks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import pytest
from xdsl.dialects import arith, scf, test
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region

import xla_dialect  # noqa: F401  (installs the fast walk)
from xla_dialect.fast_walk import XDSL_BLOCK_WALK, XDSL_OPERATION_WALK, XDSL_REGION_WALK


@contextmanager
def xdsl_walks() -> Iterator[None]:
    """xDSL's own walks throughout (theirs call each other: a region's walk, each op's)."""
    fast = Operation.walk, Region.walk, Block.walk
    Operation.walk, Region.walk, Block.walk = XDSL_OPERATION_WALK, XDSL_REGION_WALK, XDSL_BLOCK_WALK  # type: ignore[method-assign]
    try:
        yield
    finally:
        Operation.walk, Region.walk, Block.walk = fast  # type: ignore[method-assign]


def test_the_fast_walks_are_installed() -> None:
    assert Operation.walk is not XDSL_OPERATION_WALK
    assert Region.walk is not XDSL_REGION_WALK
    assert Block.walk is not XDSL_BLOCK_WALK


def _nest(depth: int, width: int, tag: list[int]) -> list[Operation]:
    """`width` ops per level, each holding (when depth > 0) two regions, the first of two
    blocks, each block a nest of `depth - 1`."""
    ops: list[Operation] = []
    for _ in range(width):
        tag[0] += 1
        if depth == 0:
            ops.append(test.TestOp(attributes={"n": arith.IntegerAttr(tag[0], IndexType())}))
            continue
        regions = [
            Region([Block(_nest(depth - 1, width, tag)), Block(_nest(depth - 1, 1, tag))]),
            Region(Block(_nest(depth - 1, width, tag))),
        ]
        ops.append(test.TestOp(regions=regions, attributes={"n": arith.IntegerAttr(tag[0], IndexType())}))
    ops.append(test.TestOp(regions=[Region()]))  # an empty region
    return ops


def _module() -> ModuleOp:
    return ModuleOp(_nest(3, 3, [0]))


def _tags(ops: Iterable[Operation]) -> list[object]:
    return [op.attributes.get("n") for op in ops]


def test_same_order_as_xdsl() -> None:
    module = _module()
    inner = next(op for op in module.walk() if op.regions and op.regions[0].blocks)
    roots: list[Operation | Region | Block] = [module, module.body, module.body.block, inner, inner.regions[0]]
    fast = [list(root.walk()) for root in roots]
    with xdsl_walks():
        theirs = [list(root.walk()) for root in roots]
    assert fast == theirs  # the same op objects, in the same order
    assert len(fast[0]) > 100


@pytest.mark.parametrize("options", [{"reverse": True}, {"region_first": True}, {"reverse": True, "region_first": True}])
def test_other_orders_are_xdsls(options: dict[str, bool]) -> None:
    module = _module()
    fast = [list(module.walk(**options)), list(module.body.walk(**options)), list(module.body.block.walk(**options))]
    with xdsl_walks():
        theirs = [list(module.walk(**options)), list(module.body.walk(**options)), list(module.body.block.walk(**options))]
    assert fast == theirs


def _erase_every_third(op: Operation, seen: list[Operation]) -> None:
    if len(seen) % 3 == 0 and op.parent is not None and not isinstance(op, ModuleOp):
        op.detach()  # its regions are then not visited (xDSL reads them after the caller had the op)


def _erase_next(op: Operation, seen: list[Operation]) -> None:
    if len(seen) % 4 == 0 and op.next_op is not None:
        op.next_op.detach()


def _insert_after(op: Operation, seen: list[Operation]) -> None:
    if len(seen) % 5 == 0 and op.parent is not None and not isinstance(op, ModuleOp):
        op.parent.insert_op_after(test.TestOp(), op)


def _empty_regions(op: Operation, seen: list[Operation]) -> None:
    if len(seen) % 2 == 0:
        for region in op.regions:
            for block in list(region.blocks):
                for inner in list(block.ops):
                    inner.detach()


def _move_to_end(op: Operation, seen: list[Operation]) -> None:
    if len(seen) % 7 == 0 and op.parent is not None and not isinstance(op, ModuleOp):
        block = op.parent
        op.detach()
        block.add_op(op)


@pytest.mark.parametrize("mutate", [_erase_every_third, _erase_next, _insert_after, _empty_regions, _move_to_end])
def test_same_ops_while_the_caller_changes_the_ir(mutate: Callable[[Operation, list[Operation]], None]) -> None:
    def visit(walk: Callable[[ModuleOp], Iterable[Operation]]) -> tuple[list[object], str]:
        module = _module()
        seen: list[Operation] = []
        for op in walk(module):
            seen.append(op)
            if len(seen) > 10_000:
                break
            mutate(op, seen)
        return _tags(seen), str(module)

    fast = visit(lambda m: m.walk())
    with xdsl_walks():
        theirs = visit(lambda m: m.walk())
    assert fast == theirs


def test_nothing_is_read_before_the_first_next() -> None:
    """As xDSL's generators: a walk made, then the IR changed, then walked, sees the change."""
    module = _module()
    fast = module.body.block.walk()
    with xdsl_walks():
        xdsl = module.body.block.walk()
        first = module.body.block.first_op
        assert first is not None
        first.detach()
        theirs = list(xdsl)
    assert list(fast) == theirs


def test_loop_nest() -> None:
    lb = arith.ConstantOp.from_int_and_width(0, IndexType())
    body = Block([scf.YieldOp()], arg_types=[IndexType()])
    loop = scf.ForOp(lb.result, lb.result, lb.result, [], Region(body))
    module = ModuleOp([lb, loop])
    fast = list(module.walk())
    with xdsl_walks():
        assert fast == list(module.walk())
