"""Canonicalization patterns of the `xla` dialect, run by `-p canonicalize` and by
the `xla-simplify` pipeline.

Each `xla` op carries the `XlaCanonicalization` trait, which reads the dialect's
table of patterns (`xla_dialect/canonicalization.py`); importing this package
registers the patterns of each family module into it (`passes/__init__.py` does).
One module per op family, as xDSL's `canonicalization_patterns/`; what they share
(reading constants, replacing, merging discardable attributes) is in `common.py`.
"""

from passes.canonicalization import (  # noqa: F401 (each module registers its patterns)
    contraction,
    control_flow,
    conversions,
    elementwise,
    reduction,
    shape,
    slicing,
    zero_extent,
)
from passes.canonicalization.common import ALL_PATTERNS, MAX_FOLDED_ELEMENTS, constant_value

__all__ = ["ALL_PATTERNS", "MAX_FOLDED_ELEMENTS", "constant_value"]
