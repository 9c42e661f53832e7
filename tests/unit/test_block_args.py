"""`insert_block_args` / `erase_block_args` / `retype_block_args` leave a block as the
same sequence of xDSL's `Block.insert_arg` / `Block.erase_arg` /
`Rewriter.replace_value_with_new_type` calls does (types, order, indices, name hints,
the erased arguments gone), and the cached hint constraints answer `isa` as xDSL does."""

from __future__ import annotations

import pytest
import xdsl.irdl
from xdsl.dialects.builtin import ArrayAttr, IntAttr, MemRefType, StringAttr, f32, f64, i1, i32, i64
from xdsl.ir import Attribute, Block
from xdsl.rewriter import Rewriter
from xdsl.utils.hints import isa

import xla_dialect  # noqa: F401 (installs the cached hint constraints)
from xla_dialect.block_args import erase_block_args, insert_block_args, retype_block_args

TYPES: list[Attribute] = [i32, f32, i64, f64, i1]


def _state(block: Block) -> list[tuple[str, int]]:
    return [(str(a.type), a.index) for a in block.args]


@pytest.mark.parametrize(
    "inserts",
    [
        [(0, f64)],
        [(5, f64)],
        [(2, f64), (2, i1), (0, i64), (5, i32)],
        [(0, f64), (1, i1), (2, i64), (3, i32), (4, f32), (5, f64)],
        [],
    ],
)
def test_insert_is_a_sequence_of_insert_arg(inserts: list[tuple[int, Attribute]]) -> None:
    ours = Block(arg_types=TYPES)
    theirs = Block(arg_types=TYPES)
    originals = list(theirs.args)
    expected = []
    for index, t in inserts:  # `index` counts the original arguments
        position = originals[index].index if index < len(originals) else len(theirs.args)
        expected.append(theirs.insert_arg(t, position))
    new = insert_block_args(ours, inserts)
    assert _state(ours) == _state(theirs)
    assert [ours.args.index(a) for a in new] == [theirs.args.index(a) for a in expected]
    assert all(a.block is ours for a in ours.args)


def test_insert_rejects_an_index_out_of_range() -> None:
    with pytest.raises(ValueError, match="index must be in range"):
        insert_block_args(Block(arg_types=TYPES), [(6, f32)])


@pytest.mark.parametrize("erased", [[0], [4], [1, 3], [3, 1, 0], [0, 1, 2, 3, 4], []])
def test_erase_is_a_sequence_of_erase_arg(erased: list[int]) -> None:
    ours = Block(arg_types=TYPES)
    theirs = Block(arg_types=TYPES)
    for i in erased:
        theirs.erase_arg(theirs.args[_live(theirs, i)])
    erase_block_args([ours.args[i] for i in erased])
    assert _state(ours) == _state(theirs)
    assert len(ours.args) == len(TYPES) - len(erased)


def _live(block: Block, original_index: int) -> int:
    """Where the argument first at `original_index` is now (names stand for identity)."""
    return next(k for k, a in enumerate(block.args) if a.name_hint == f"a{original_index}")


@pytest.fixture(autouse=True)
def _named_args(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Block.__init__

    def init(self: Block, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        for k, a in enumerate(self.args):
            a.name_hint = f"a{k}"

    monkeypatch.setattr(Block, "__init__", init)


def test_erase_of_several_blocks_and_twice() -> None:
    first, second = Block(arg_types=TYPES), Block(arg_types=TYPES)
    erase_block_args([second.args[1], first.args[0], second.args[4]])
    assert _state(first) == [(str(t), k) for k, t in enumerate(TYPES[1:])]
    assert _state(second) == [(str(t), k) for k, t in enumerate([TYPES[0], TYPES[2], TYPES[3]])]
    gone = first.args[0]
    erase_block_args([gone])
    with pytest.raises(ValueError, match="wrong block"):
        erase_block_args([gone])  # erased already


def test_cached_hint_constraints_answer_as_xdsl() -> None:
    convert = xdsl.irdl.irdl_to_attr_constraint
    assert getattr(convert, "_xla_cached", False)
    assert convert(ArrayAttr[IntAttr]) is convert(ArrayAttr[IntAttr])
    assert isa(ArrayAttr([IntAttr(2), IntAttr(3)]), ArrayAttr[IntAttr])
    assert not isa(ArrayAttr([IntAttr(2), StringAttr("x")]), ArrayAttr[IntAttr])
    assert not isa(IntAttr(2), ArrayAttr[IntAttr])
    assert MemRefType(f32, [2, 3]).get_shape() == (2, 3)


@pytest.mark.parametrize("changed", [[], [0], [4], [1, 3], [0, 1, 2, 3, 4]])
def test_retype_is_a_sequence_of_replace_value_with_new_type(changed: list[int]) -> None:
    new_types = [MemRefType(f32, [2]) if i in changed else t for i, t in enumerate(TYPES)]
    ours, theirs = Block(arg_types=TYPES), Block(arg_types=TYPES)
    for block in (ours, theirs):
        for i, arg in enumerate(block.args):
            arg.name_hint = f"a{i}"
    pairs = retype_block_args(ours, new_types)
    for i in changed:
        Rewriter.replace_value_with_new_type(theirs.args[i], new_types[i])
    assert _state(ours) == _state(theirs)
    assert [a.name_hint for a in ours.args] == [a.name_hint for a in theirs.args]
    assert [(old.index, new.index) for old, new in pairs] == [(i, i) for i in changed]
    assert all(ours.args[new.index] is new and old.type == TYPES[old.index] for old, new in pairs)


def test_retype_needs_a_type_per_argument() -> None:
    with pytest.raises(ValueError, match="2 types for 5 block arguments"):
        retype_block_args(Block(arg_types=TYPES), [i32, f32])
