"""Traits of `xla` ops."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait


@dataclass(frozen=True)
class XlaCanonicalization(HasCanonicalizationPatternsTrait):
    """Gives each `xla` op the canonicalization patterns registered for its name in
    `passes.canonicalization`, imported on first use (no import cycle, fast start)."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        from passes.canonicalization import patterns_for

        return patterns_for(op.name)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()
