"""`TypeDispatchingApplier`: xDSL's greedy applier, trying on each op only the patterns
that can match its type.

`GreedyRewritePatternApplier` calls every pattern on every op; a pattern written with
`@op_type_rewrite_pattern` returns at once unless the op has its annotated type, but
with some forty conversion patterns those calls were most of `convert-to-llvm`'s time.
Here the patterns that can match an op type are found once per type (from the type
`op_type_rewrite_pattern` checks, or the tuple `op_types` a table-driven pattern
declares; a pattern with neither may match anything) and tried
in their original order: the same rewrites, in the same order, as the greedy applier
(dead-code removal and folding included).

`apply_once(root, patterns)`: each pattern once on each op of its type that `root` holds
when the call begins, in walk order, without xDSL's walker (`PatternRewriteWalker` with
`apply_recursively=False` pushes every op of the module on a worklist and calls every
pattern on it; with `apply_recursively=True` it walks the whole module again after any
change). For passes whose rewrites never make new ops that a pattern would match, or
that a single walker pass would not visit, the result is the same.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    RewritePattern,
)


def matched_types(pattern: RewritePattern) -> tuple[type, ...] | None:
    """The op types `pattern` can rewrite, or None when it may rewrite any op: those
    `@op_type_rewrite_pattern` checks, else the pattern's `op_types` (a tuple of op
    classes, for a pattern that handles several types through a table)."""
    declared = getattr(pattern, "op_types", None)
    if isinstance(declared, tuple) and declared and all(isinstance(t, type) and issubclass(t, Operation) for t in declared):
        return declared
    method = type(pattern).match_and_rewrite
    try:
        expected = inspect.getclosurevars(method).nonlocals.get("expected_type")
    except (TypeError, ValueError):
        return None
    if isinstance(expected, type) and issubclass(expected, Operation):
        return (expected,)
    args = getattr(expected, "__args__", None)
    if args and all(isinstance(a, type) and issubclass(a, Operation) for a in args):
        return tuple(args)
    return None


@dataclass(eq=False)
class TypeDispatchingApplier(GreedyRewritePatternApplier):
    _types: list[tuple[type, ...] | None] = field(default_factory=list, init=False, repr=False)
    _by_type: dict[type, list[RewritePattern]] = field(default_factory=dict, init=False, repr=False)
    _all: list[RewritePattern] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self._all = list(self.rewrite_patterns)
        self._types = [matched_types(p) for p in self._all]

    def patterns_for(self, op_type: type) -> list[RewritePattern]:
        """The patterns that may rewrite an op of `op_type`, in order (also while a
        rewrite runs, when `rewrite_patterns` holds the current op's only)."""
        found = self._by_type.get(op_type)
        if found is None:
            found = [p for p, types in zip(self._all, self._types) if types is None or issubclass(op_type, types)]
            self._by_type[op_type] = found
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        all_patterns = self.rewrite_patterns
        self.rewrite_patterns = self.patterns_for(type(op))
        try:
            super().match_and_rewrite(op, rewriter)
        finally:
            self.rewrite_patterns = all_patterns


def dispatching_applier(patterns: Sequence[RewritePattern]) -> TypeDispatchingApplier:
    return TypeDispatchingApplier(list(patterns))


def apply_once(root: Operation, patterns: Sequence[RewritePattern]) -> bool:
    """Apply each of `patterns` (each must declare its op types with
    `@op_type_rewrite_pattern`) once to every op of those types nested in `root`, in
    walk order; an op erased by an earlier rewrite is skipped. An exception in a
    pattern becomes a located error, as xDSL's walker makes it. Returns whether
    anything changed."""
    applier = TypeDispatchingApplier(list(patterns))
    if any(types is None for types in applier._types):
        raise ValueError("apply_once needs patterns that declare their op types")
    wanted = tuple(t for types in applier._types if types is not None for t in types)
    candidates = [op for op in root.walk() if isinstance(op, wanted)]
    erased: set[int] = set()

    def note_removal(op: Operation) -> None:  # (the ops nested in it go with it)
        if op.regions:
            erased.update(id(inner) for inner in op.walk())
        else:
            erased.add(id(op))

    listener = PatternRewriterListener(operation_removal_handler=[note_removal])
    changed = False
    for op in candidates:
        if erased and id(op) in erased:
            continue
        rewriter = PatternRewriter(op)
        rewriter.extend_from_listener(listener)
        for pattern in applier.patterns_for(type(op)):
            try:
                pattern.match_and_rewrite(op, rewriter)
            except Exception as err:  # noqa: BLE001 - reported on the op, as xDSL's walker does
                op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
            if rewriter.has_done_action:
                changed = True
                break
    return changed


__all__ = ["TypeDispatchingApplier", "apply_once", "dispatching_applier", "matched_types"]
