"""Ops of the `contraction` family (to be filled in)."""

from xdsl.ir import Operation

OPS: tuple[type[Operation], ...] = ()
