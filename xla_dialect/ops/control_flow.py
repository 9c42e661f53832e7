"""Ops of the `control_flow` family (to be filled in)."""

from xdsl.ir import Operation

OPS: tuple[type[Operation], ...] = ()
