"""Ops of the `batch_norm` family (to be filled in)."""

from xdsl.ir import Operation

OPS: tuple[type[Operation], ...] = ()
