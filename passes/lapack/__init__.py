"""`xla-decompose-lapack`: JAX's LAPACK custom calls as `xla` programs.

`jnp.linalg` on the CPU exports as `stablehlo.custom_call @lapack_<t><name>_ffi`
(`t` = s, d, c, z for f32, f64, complex64, complex128), with the options LAPACK
takes as characters in `mhlo.backend_config` (`uplo = 76 : ui8` is 'L') and
leading batch dimensions. This pass replaces each call by a `func.call` of a
private function written in StableHLO (`hlo_text.py`) that computes what LAPACK
defines, outputs and `info` included:

| target | kernel |
|---|---|
| potrf | `xla.cholesky` (batched), info from the factor's diagonal |
| trsm | `xla.triangular_solve` (batched) |
| getrf | LU with partial pivoting (`factorizations.py`) |
| geqrf, orgqr/ungqr | Householder QR (`factorizations.py`) |
| syevd/heevd | cyclic Jacobi eigenvalue iteration (`jacobi.py`) |
| gesdd/gesvd | one-sided Jacobi SVD (`jacobi.py`) |

The per-matrix kernels run under a `while` loop over the flattened batch. The
functions are made once per target, options and types, and named after them
(`@lapack_sgetrf_ffi_4x4xf32`). Other targets are left alone: the lowering
reports a custom call it cannot run, naming it, at its place.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from passes.lapack.targets import LAPACK_TARGET
from xla_dialect.ops.io import CustomCallOp


@dataclass(frozen=True)
class DecomposeLapackPass(ModulePass):
    """Replace LAPACK custom calls by calls of StableHLO functions computing them."""

    name = "xla-decompose-lapack"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        calls = [o for o in op.walk() if isinstance(o, CustomCallOp) and LAPACK_TARGET.match(o.target)]
        if not calls:
            return  # the kernels' builders stay unloaded
        from passes.lapack.decompose import decompose_calls

        decompose_calls(op, calls)

__all__ = ["LAPACK_TARGET", "DecomposeLapackPass"]
