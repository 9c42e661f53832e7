"""How much code an element-wise op becomes, and how much one fused loop may hold.

Two passes on sibling floors share these numbers: `linalg-fuse-elementwise` stops
fusing at `MAX_BODY_WEIGHT`, and `xla-outline-repeats` groups an element-wise chain
into repeats of that weight, so that each repeat is one fused loop. Kept here, below
both, so that the two cannot drift apart.
"""

from __future__ import annotations

MATH_OP_WEIGHT = 40
"""What a transcendental op (a `math` op of a body) weighs against an `arith` op's 1:
about the ops its expansion by `math-polynomial-approximation` holds (tanh 52, exp 32,
log 58, sin 152 on f32 vectors)."""

MAX_BODY_WEIGHT = 2048
"""The heaviest fused body: LLVM's O3 and code generation grow faster than linearly in
the size of one loop body (an unbounded chain of 5,000 element-wise ops with 1,000
tanh took 101 s of O3 in one loop, 0.24 s for a tenth of it). A body this heavy does
hundreds of operations per element, so the extra pass over memory at a cut costs a
few percent at most."""

__all__ = ["MATH_OP_WEIGHT", "MAX_BODY_WEIGHT"]
