"""Ops of the `gather_scatter` family (to be filled in)."""

from xdsl.ir import Operation

OPS: tuple[type[Operation], ...] = ()
