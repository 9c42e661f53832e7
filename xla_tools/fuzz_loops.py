"""Does a timed-out program really not end? A proof for simple `while` loops.

A `while` runs as long as its condition holds: XLA gives it no iteration limit, nor
does this project (a limit on run time is the caller's choice: a thread or a process
with a deadline). The fuzzer calls its programs with zeroed arguments and gives each a
deadline; a mutant that counts down from 0 towards 10 runs 2^63 times as written, and
that timeout is no bug. `long_running_while` tells the two apart by a proof, not by a
guess: the entry's arguments become zero constants, `canonicalize` folds what it can,
and a `while` at the top level of the entry qualifies when

* its condition is built from constants, `compare`s, `and`/`or`/`not`, and the loop's
  own integer scalars;
* each scalar the condition reads is kept, or moved by a constant step (`add`/
  `subtract` of a constant), by the body, and starts as a constant;
* the condition holds at the start, and no compare's truth can change (a counter
  crossing the other side, or either side wrapping around its type) within
  `ITERATIONS` iterations.

Anything else (floats, tensors, a step computed in the body, a loop in a branch) is
not proved, and the fuzzer reports the timeout as a finding. The proof does not show
that the ops before the loop end; a hang there, in a program whose loop also runs for
ever, would be masked.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

ITERATIONS = 1 << 40
"""How many iterations count as not ending: more than 18 minutes at one per nanosecond."""

_NEVER = math.inf


@dataclass
class _Affine:
    """A scalar of the loop at iteration k: `start + k * step`, wrapped to `lo..hi`."""

    start: int
    step: int
    lo: int
    hi: int

    def wraps_at(self) -> float:
        """The first iteration at which the unwrapped value leaves the type's range."""
        if self.step > 0:
            return (self.hi - self.start) // self.step + 1
        if self.step < 0:
            return (self.start - self.lo) // -self.step + 1
        return _NEVER


Scalars = Callable[[SSAValue], "_Affine | int | None"]
"""What a scalar of the condition is: a loop counter, a constant, or not known (None)."""


def long_running_while(text: str, entry: str = "main") -> str | None:
    """Why the program's function `entry`, called with zeroed arguments, does not end (a
    `while` whose condition provably holds for `ITERATIONS` iterations or for ever), or None."""
    from xla_dialect.context import XlaProgramError, parse_module
    from xla_tools.pipelines import run_passes

    try:
        module = parse_module(text)
        function = _entry_function(module, entry)
        if function is None:
            return None
        _zero_arguments(function.body.blocks[0])
        run_passes(module, ["canonicalize"])
    except (XlaProgramError, ValueError, TypeError):  # no proof: the caller reports the timeout
        return None
    for op in function.body.blocks[0].ops:
        if op.name == "xla.while":
            iterations = _iterations_at_least(op)
            if iterations >= ITERATIONS:
                count = "for ever" if iterations == _NEVER else f"at least {int(iterations)} times"
                return f"'xla.while' at {_where(op)} runs {count} with zeroed arguments"
    return None


def _entry_function(module: ModuleOp, name: str) -> Operation | None:
    from xdsl.dialects import func

    return next(
        (op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name and op.body.blocks),
        None,
    )


def _zero_arguments(block: Block) -> None:
    """Each argument of the entry becomes a zero constant, as the fuzzer calls it."""
    import numpy as np

    from xla_dialect.literals import from_numpy, numpy_dtype
    from xla_dialect.ops.constants import ConstantOp

    first = block.first_op
    for arg in block.args:
        t = arg.type
        if not isinstance(t, TensorType):
            continue
        dtype = numpy_dtype(t.get_element_type())
        if dtype is None or any(d < 0 for d in t.get_shape()):
            continue
        constant = ConstantOp(from_numpy(np.zeros(t.get_shape(), dtype), t))
        block.insert_op_before(constant, first) if first is not None else block.add_op(constant)
        arg.replace_all_uses_with(constant.output)


def _where(op: Operation) -> str:
    loc = op.location
    line = getattr(getattr(loc, "line", None), "data", None)
    return f"line {line}" if line is not None else "the entry"


def _integer_range(value: SSAValue) -> tuple[int, int] | None:
    t = value.type
    if not isinstance(t, TensorType) or t.get_shape() != ():
        return None
    element = t.get_element_type()
    if not isinstance(element, IntegerType) or element.width.data < 2:
        return None
    width = element.width.data
    if element.signedness.data == Signedness.UNSIGNED:
        return 0, (1 << width) - 1
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def _constant(value: SSAValue) -> int | bool | None:
    """The scalar an `xla.constant` holds (integers and i1), else None."""
    op = value.owner
    if not isinstance(op, Operation) or op.name != "xla.constant":
        return None
    from xla_dialect.literals import to_numpy

    try:
        array = to_numpy(op.properties["value"])  # type: ignore[arg-type]
    except ValueError:
        return None
    if array.size == 0 or array.dtype.kind not in "biu" or (array != array.flat[0]).any():
        return None
    return bool(array.flat[0]) if array.dtype.kind == "b" else int(array.flat[0])


def _iterations_at_least(loop: Operation) -> float:
    """A lower bound on the iterations of `loop` (0 when nothing is proved)."""
    cond, body = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    cond_return, body_return = cond.last_op, body.last_op
    if cond_return is None or body_return is None or len(cond_return.operands) != 1:
        return 0
    scalars: dict[int, _Affine] = {}

    def scalar(value: SSAValue) -> _Affine | int | None:
        known = _constant(value)
        if isinstance(known, int) and not isinstance(known, bool):
            return known
        if not (isinstance(value, BlockArgument) and value.block is cond):
            return None
        index = value.index
        if index not in scalars:
            affine = _affine(loop, body, body_return, index)
            if affine is None:
                return None
            scalars[index] = affine
        return scalars[index]

    changes: list[float] = []
    holds = _evaluate(cond_return.operands[0], scalar, changes)
    if holds is not True:
        return 0
    return min(changes, default=_NEVER)


def _evaluate(value: SSAValue, scalar: Scalars, changes: list[float]) -> bool | None:
    """The condition's truth at the first iteration, and in `changes` each iteration
    at which a compare in it may change its truth (None: not provable)."""
    known = _constant(value)
    if isinstance(known, bool):
        return known
    op = value.owner
    if not isinstance(op, Operation) or len(op.results) != 1:
        return None
    if op.name in ("xla.and", "xla.or"):
        left, right = (_evaluate(v, scalar, changes) for v in op.operands)
        if left is None or right is None:
            return None
        return (left and right) if op.name == "xla.and" else (left or right)
    if op.name == "xla.not":
        inner = _evaluate(op.operands[0], scalar, changes)
        return None if inner is None else not inner
    if op.name == "xla.compare":
        return _compare(op, scalar, changes)
    return None


_ORDER = {"EQ": operator.eq, "NE": operator.ne, "LT": operator.lt, "LE": operator.le, "GT": operator.gt, "GE": operator.ge}


def _compare(op: Operation, scalar: Scalars, changes: list[float]) -> bool | None:
    """An integer compare: its truth at the first iteration; in `changes`, where a side
    wraps and where the two sides cross."""
    direction = getattr(op.properties.get("comparison_direction"), "data", None)
    order = _ORDER.get(str(getattr(direction, "value", direction)))
    bounds = _integer_range(op.operands[0])
    if order is None or bounds is None:
        return None
    compare_type = getattr(op.properties.get("compare_type"), "data", None)
    natural = "UNSIGNED" if bounds[0] == 0 else "SIGNED"
    if compare_type is not None and str(getattr(compare_type, "value", compare_type)) not in ("NOTYPE", natural):
        return None
    sides = [scalar(v) for v in op.operands]
    if sides[0] is None or sides[1] is None:
        return None
    (a, da), (b, db) = (_linear(s) for s in sides)
    changes.extend(s.wraps_at() for s in sides if isinstance(s, _Affine))
    crossing, slope = b - a, da - db  # the sides are equal at k = crossing / slope
    if slope < 0:
        crossing, slope = -crossing, -slope
    exact = order in (operator.eq, operator.ne)  # their truth changes only where the sides are equal
    if slope and crossing >= 0 and not (exact and crossing % slope):
        changes.append(max(1, -(-crossing // slope)))
    return order(a, b)


def _linear(side: _Affine | int) -> tuple[int, int]:
    return (side.start, side.step) if isinstance(side, _Affine) else (side, 0)


def _affine(loop: Operation, body: Block, body_return: Operation, index: int) -> _Affine | None:
    """Scalar `index` of the loop as start + k * step, when it starts as a constant and
    the body keeps it or moves it by a constant."""
    bounds = _integer_range(loop.operands[index])
    start = _constant(loop.operands[index])
    if bounds is None or not isinstance(start, int) or isinstance(start, bool):
        return None
    own = body.args[index]
    new = body_return.operands[index]
    if new is own:
        return _Affine(start, 0, *bounds)
    op = new.owner
    if not isinstance(op, Operation) or op.name not in ("xla.add", "xla.subtract"):
        return None
    left, right = op.operands
    if left is own and isinstance(step := _constant(right), int):
        return _Affine(start, step if op.name == "xla.add" else -step, *bounds)
    if op.name == "xla.add" and right is own and isinstance(step := _constant(left), int):
        return _Affine(start, step, *bounds)
    return None
