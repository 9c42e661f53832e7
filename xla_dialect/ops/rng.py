"""Ops of the `rng` family (to be filled in)."""

from xdsl.ir import Operation

OPS: tuple[type[Operation], ...] = ()
