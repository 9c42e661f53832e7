"""Adding, erasing and retyping many block arguments in linear time.

xDSL's `Block.insert_arg` and `Block.erase_arg` renumber every argument after the
one inserted or erased and rebuild the block's argument tuple: one call costs the
block's arity, so changing each argument of a function with many (the weights of a
deep network, one per layer) is quadratic. These do a whole batch of changes to a
block with one pass over its arguments, leaving the block as the same sequence of
`insert_arg` / `erase_arg` calls would (`tests/unit/test_block_args.py` compares
them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import UNKNOWN_LOC
from xdsl.ir import Attribute, Block, BlockArgument


def _set_args(block: Block, args: Sequence[BlockArgument]) -> None:
    for index, arg in enumerate(args):
        arg.index = index
    block._args = tuple(args)  # pyright: ignore[reportPrivateUsage]


def insert_block_args(block: Block, inserts: Sequence[tuple[int, Attribute]]) -> list[BlockArgument]:
    """Insert an argument of type `t` before the block's current argument `index`
    (at the end when `index` is the arity) for each `(index, t)`; arguments inserted
    at the same index keep their order. Returns the new arguments, in the order of
    `inserts`."""
    old = block.args
    new_args: list[BlockArgument] = []
    at: dict[int, list[BlockArgument]] = {}
    for index, t in inserts:
        if index < 0 or index > len(old):
            raise ValueError(f"Cannot insert block argument at index {index}, index must be in range [0, {len(old)}].")
        arg = BlockArgument(t, block, 0, UNKNOWN_LOC)
        new_args.append(arg)
        at.setdefault(index, []).append(arg)
    if not at:
        return new_args
    merged: list[BlockArgument] = []
    for index, arg in enumerate(old):
        merged.extend(at.get(index, ()))
        merged.append(arg)
    merged.extend(at.get(len(old), ()))
    _set_args(block, merged)
    return new_args


def erase_block_args(args: Iterable[BlockArgument], *, safe_erase: bool = True) -> None:
    """Erase each of `args` (of any blocks) from its block, as `Block.erase_arg`
    does, each block's arguments renumbered once."""
    by_block: dict[Block, list[BlockArgument]] = {}
    for arg in args:
        by_block.setdefault(arg.block, []).append(arg)
    for block, gone in by_block.items():
        ids = {id(arg) for arg in gone}
        for arg in gone:
            if arg.index >= len(block.args) or block.args[arg.index] is not arg:
                raise ValueError("Attempting to delete an argument of the wrong block")
        _set_args(block, [arg for arg in block.args if id(arg) not in ids])
        for arg in gone:
            arg.erase(safe_erase=safe_erase)


def retype_block_args(block: Block, new_types: Sequence[Attribute]) -> list[tuple[BlockArgument, BlockArgument]]:
    """Give the block's arguments `new_types` (one per argument): each argument whose
    type changes is replaced by a new one at its index (with its name hint), in one
    pass, where xDSL's `replace_value_with_new_type` rebuilds the argument tuple once
    per argument. Returns the (old, new) pairs; the old arguments keep their uses, for
    the caller to move."""
    old = block.args
    if len(new_types) != len(old):
        raise ValueError(f"{len(new_types)} types for {len(old)} block arguments")
    pairs: list[tuple[BlockArgument, BlockArgument]] = []
    args = list(old)
    for index, (arg, t) in enumerate(zip(old, new_types)):
        if t != arg.type:
            new = BlockArgument(t, block, index)
            new.name_hint = arg.name_hint
            args[index] = new
            pairs.append((arg, new))
    if pairs:
        _set_args(block, args)
    return pairs


__all__ = ["erase_block_args", "insert_block_args", "retype_block_args"]
