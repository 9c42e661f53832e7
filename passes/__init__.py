"""Transformations of the `xla` dialect (xla → xla): canonicalization and folding,
`xla-decompose-chlo`, `xla-decompose-batch-norm`, `xla-expose-checks`,
`xla-inline-run-parallel`. The passes are registered by name in
`xla_tools/registry.py`.
"""

from passes import canonicalization  # registers the xla canonicalization patterns

__all__ = ["canonicalization"]
