"""Canonicalization patterns of the `xla` dialect, run by `-p canonicalize` and by
the `xla-simplify` pipeline.

Each `xla` op carries the `XlaCanonicalization` trait, which reads the dialect's
table of patterns (`xla_dialect/canonicalization.py`); importing this package
registers the patterns of each family module into it (`passes/__init__.py` does).
One module per op family, as xDSL's `canonicalization_patterns/`; what they share
(reading constants, replacing, merging discardable attributes) is in `common.py`.
An op's patterns are tried in the order they were registered: the modules are
imported in `FAMILIES` order (folding before identities, zero extents last).
"""

import importlib

from passes.canonicalization.common import ALL_PATTERNS, MAX_FOLDED_ELEMENTS, constant_value

FAMILIES = (
    "elementwise",
    "sub_byte",
    "identities",
    "selection",
    "conversions",
    "shape",
    "slicing",
    "reduction",
    "contraction",
    "control_flow",
    "zero_extent",
)
"""The family modules, in registration order."""

for _family in FAMILIES:
    importlib.import_module(f"passes.canonicalization.{_family}")

__all__ = ["ALL_PATTERNS", "FAMILIES", "MAX_FOLDED_ELEMENTS", "constant_value"]
