"""Traits of `xla` ops."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait

from xla_dialect.canonicalization import patterns_for


@dataclass(frozen=True)
class XlaCanonicalization(HasCanonicalizationPatternsTrait):
    """Gives each `xla` op the canonicalization patterns registered for its name in
    `xla_dialect.canonicalization` (by `passes/canonicalization.py`, when `passes`
    is imported: the dialect imports nothing above it)."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return patterns_for(op.name)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()
