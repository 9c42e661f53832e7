"""Canonicalization patterns of the `xla` dialect, run by `-p canonicalize`.

Each `xla` op carries the `XlaCanonicalization` trait, which reads the dialect's
table of patterns (`xla_dialect/canonicalization.py`); importing this module
registers the patterns below into it (`passes/__init__.py` does). Three kinds:
- folding of element-wise ops on constants, with NumPy, where NumPy computes exactly
  what the spec says (wrapping integer arithmetic, IEEE float arithmetic,
  NaN-propagating maximum/minimum); ops whose edge cases NumPy does not share
  (integer division, shifts, conversions of NaN) are not folded;
- algebraic identities (`x + 0`, `x * 1`, `select(p, a, a)`, ...);
- shape ops that do nothing (`transpose` by the identity, `reshape` to the same
  type, a `slice` of everything, ...) or that compose (`transpose` of `transpose`,
  `reshape` of `reshape`), and `get_tuple_element` of a `tuple`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xla_dialect.canonicalization import register_patterns
from xla_dialect.literals import numpy_dtype, splat_element, to_numpy
from xla_dialect.syntax import ints_of
from xla_dialect.types import element_type_of, is_tensor, shape_of

MAX_FOLDED_ELEMENTS = 1 << 16
"""Larger results are left to run time: folding them would bloat the IR."""


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The array an `xla.constant` (or `arith.constant`) defines, if NumPy can hold it."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name not in ("xla.constant", "arith.constant"):
        return None
    attr = owner.properties.get("value")
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    try:
        return to_numpy(attr)
    except ValueError:
        return None


def _replace_with_constant(rewriter: PatternRewriter, op: Operation, array: np.ndarray) -> None:
    from xla_dialect.literals import from_numpy
    from xla_dialect.ops.constants import ConstantOp

    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    rewriter.replace_op(op, ConstantOp(from_numpy(array, result_type)))


def _is_splat(array: np.ndarray | None, value: float) -> bool:
    if array is None or array.size == 0:
        return False
    splat = splat_element(array)  # a splat literal is checked by its one element
    return bool(np.all((splat if splat is not None else array) == value))


# ---------------------------------------------------------------------------
# Folding with NumPy
# ---------------------------------------------------------------------------

UNARY_FOLDERS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "xla.negate": np.negative,
    "xla.abs": np.abs,
    "xla.not": lambda a: np.logical_not(a) if a.dtype == np.bool_ else np.invert(a),
    "xla.floor": np.floor,
    "xla.ceil": np.ceil,
    "xla.round_nearest_even": np.rint,
}

BINARY_FOLDERS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "xla.add": lambda a, b: np.logical_or(a, b) if a.dtype == np.bool_ else a + b,
    "xla.subtract": np.subtract,
    "xla.multiply": lambda a, b: np.logical_and(a, b) if a.dtype == np.bool_ else a * b,
    "xla.and": lambda a, b: np.logical_and(a, b) if a.dtype == np.bool_ else a & b,
    "xla.or": lambda a, b: np.logical_or(a, b) if a.dtype == np.bool_ else a | b,
    "xla.xor": lambda a, b: np.logical_xor(a, b) if a.dtype == np.bool_ else a ^ b,
    "xla.maximum": np.maximum,
    "xla.minimum": np.minimum,
}

COMPARISONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def _foldable(op: Operation) -> bool:
    result = op.results[0].type
    return (
        is_tensor(result)
        and numpy_dtype(element_type_of(result)) is not None
        and int(np.prod(shape_of(result))) <= MAX_FOLDED_ELEMENTS
        and "broadcast_dimensions" not in op.properties
    )


class FoldUnary(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        fold = UNARY_FOLDERS.get(op.name)
        if fold is None or not _foldable(op):
            return
        value = constant_value(op.operands[0])
        if value is None or value.dtype.kind == "c" or value.dtype != numpy_dtype(
            element_type_of(op.results[0].type)
        ):
            return
        with np.errstate(all="ignore"):
            _replace_with_constant(rewriter, op, fold(value))


class FoldBinary(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        fold = BINARY_FOLDERS.get(op.name)
        if op.name == "xla.compare":
            compare_type = op.properties.get("compare_type")
            if compare_type is not None and getattr(compare_type, "data", None) == "TOTALORDER":
                return
            direction = op.properties["comparison_direction"]
            fold = COMPARISONS[str(direction.data.value)]
        if fold is None or not _foldable(op):
            return
        lhs, rhs = constant_value(op.operands[0]), constant_value(op.operands[1])
        if lhs is None or rhs is None or lhs.dtype.kind == "c":
            return
        with np.errstate(all="ignore"):
            result = np.asarray(fold(lhs, rhs)).astype(lhs.dtype if op.name != "xla.compare" else np.bool_)
        _replace_with_constant(rewriter, op, np.broadcast_to(result, shape_of(op.results[0].type)))


# ---------------------------------------------------------------------------
# Algebraic identities
# ---------------------------------------------------------------------------


def _same_type(op: Operation, value: SSAValue) -> bool:
    return value.type == op.results[0].type


class IdentityOperand(RewritePattern):
    """`x + 0`, `x - 0`, `x * 1`, `x & true`, `x | 0` (integers and PRED; for floats
    only `x * 1` and `x - 0`, since `-0.0 + 0.0` is `+0.0`)."""

    IDENTITIES: ClassVar[dict[str, tuple[float, bool]]] = {
        # op name: (identity value on the right, valid for floats)
        "xla.add": (0, False),
        "xla.subtract": (0, True),
        "xla.multiply": (1, True),
        "xla.or": (0, False),
        "xla.xor": (0, False),
    }

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name == "xla.and":
            rhs = constant_value(op.operands[1])
            if rhs is not None and _same_type(op, op.operands[0]):
                ones = rhs.dtype == np.bool_ and bool(np.all(rhs)) or (
                    rhs.dtype.kind in "iu" and bool(np.all(rhs == np.invert(np.zeros_like(rhs))))
                )
                if ones:
                    rewriter.replace_op(op, [], [op.operands[0]])
            return
        identity = self.IDENTITIES.get(op.name)
        if identity is None or not _same_type(op, op.operands[0]):
            return
        value, floats_too = identity
        rhs = constant_value(op.operands[1])
        if rhs is None or (rhs.dtype.kind in "fc" and not floats_too):
            return
        if _is_splat(rhs, value):
            rewriter.replace_op(op, [], [op.operands[0]])


class SelectSame(RewritePattern):
    """`select(p, a, a)` is `a`; `select` by a constant predicate splat is a branch."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        pred, on_true, on_false = op.operands
        if on_true is on_false:
            rewriter.replace_op(op, [], [on_true])
            return
        p = constant_value(pred)
        if p is not None and p.size > 0 and (bool(np.all(p)) or not bool(np.any(p))):
            rewriter.replace_op(op, [], [on_true if bool(np.all(p)) else on_false])


# ---------------------------------------------------------------------------
# Shape ops
# ---------------------------------------------------------------------------


class NoOpShape(RewritePattern):
    """Shape ops that return their operand unchanged."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.operands or not _same_type(op, op.operands[0]):
            return
        props = op.properties
        name = op.name
        rank = len(shape_of(op.operands[0].type)) if is_tensor(op.operands[0].type) else 0
        trivial = {
            "xla.transpose": lambda: ints_of(props.get("permutation")) == tuple(range(rank)),
            "xla.reshape": lambda: "dimensions" not in props
            or ints_of(props.get("dimensions")) == tuple(range(rank)),
            "xla.broadcast_in_dim": lambda: ints_of(props.get("broadcast_dimensions"))
            == tuple(range(rank)),
            "xla.broadcast": lambda: True,
            "xla.convert": lambda: True,
            "xla.bitcast_convert": lambda: True,
            "xla.reverse": lambda: all(
                shape_of(op.operands[0].type)[d] == 1 for d in ints_of(props.get("dimensions"))
            ),
            "xla.slice": lambda: True,
            "xla.pad": lambda: all(
                v == 0
                for key in ("edge_padding_low", "edge_padding_high", "interior_padding")
                for v in ints_of(props.get(key))
            ),
            "xla.concatenate": lambda: len(op.operands) == 1,
            "xla.optimization_barrier": lambda: False,
        }.get(name)
        if trivial is not None and trivial():
            rewriter.replace_op(op, [], [op.operands[0]])


class ComposeTranspose(RewritePattern):
    """`transpose(transpose(x, p), q)` is `transpose(x, p∘q)`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        inner = op.operands[0].owner
        if not isinstance(inner, Operation) or inner.name != "xla.transpose":
            return
        from xla_dialect.ops.shape import TransposeOp

        p = ints_of(inner.properties["permutation"])
        q = ints_of(op.properties["permutation"])
        rewriter.replace_op(op, TransposeOp(inner.operands[0], [p[i] for i in q]))


class ComposeReshape(RewritePattern):
    """`reshape(reshape(x))` is one `reshape` (plain reshapes only)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        inner = op.operands[0].owner
        if (
            not isinstance(inner, Operation)
            or inner.name != "xla.reshape"
            or "dimensions" in op.properties
            or "dimensions" in inner.properties
        ):
            return
        from xla_dialect.ops.shape import ReshapeOp

        rewriter.replace_op(op, ReshapeOp(inner.operands[0], shape_of(op.results[0].type)))


class SplatThroughShape(RewritePattern):
    """A shape op applied to a splat constant is a splat constant of the result type."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        value = constant_value(op.operands[0])
        result = op.results[0].type
        if value is None or value.size == 0 or not is_tensor(result):
            return
        splat = splat_element(value)  # bit for bit: NaN splats count, [-0.0, 0.0] does not
        if splat is None or element_type_of(result) != element_type_of(op.operands[0].type):
            return
        _replace_with_constant(rewriter, op, np.broadcast_to(splat, shape_of(result)))


class TupleElement(RewritePattern):
    """`get_tuple_element(tuple(a, b), 1)` is `b`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        producer = op.operands[0].owner
        if isinstance(producer, Operation) and producer.name == "xla.tuple":
            index = op.properties["index"]
            rewriter.replace_op(op, [], [producer.operands[index.value.data]])


_SHAPE_OPS = (
    "xla.transpose",
    "xla.reshape",
    "xla.broadcast_in_dim",
    "xla.broadcast",
    "xla.convert",
    "xla.bitcast_convert",
    "xla.reverse",
    "xla.slice",
    "xla.pad",
    "xla.concatenate",
)


def _register() -> None:
    add = register_patterns
    add(list(UNARY_FOLDERS), FoldUnary())
    add([*BINARY_FOLDERS, "xla.compare"], FoldBinary())
    add([*IdentityOperand.IDENTITIES, "xla.and"], IdentityOperand())
    add(["xla.select"], SelectSame())
    add(_SHAPE_OPS, NoOpShape())
    add(["xla.transpose"], ComposeTranspose())
    add(["xla.reshape"], ComposeReshape())
    add(["xla.transpose", "xla.reshape", "xla.broadcast_in_dim", "xla.broadcast"], SplatThroughShape())
    add(["xla.get_tuple_element"], TupleElement())


_register()
