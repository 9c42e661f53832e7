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

from passes.lapack.decompose import LAPACK_TARGET, DecomposeLapackPass

__all__ = ["LAPACK_TARGET", "DecomposeLapackPass"]
