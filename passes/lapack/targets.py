"""The custom-call targets `xla-decompose-lapack` replaces (a module of its own: the
pass finds them without loading the kernels' builders)."""

from __future__ import annotations

import re

LAPACK_TARGET = re.compile(r"^lapack_(?P<t>[sdcz])(?P<name>potrf|getrf|trsm|geqrf|orgqr|ungqr|syevd|heevd|gesdd|gesvd)(?:_ffi)?$")
"""`lapack_<t><name>[_ffi]`: `t` is s, d, c, z (f32, f64, complex64, complex128)."""

__all__ = ["LAPACK_TARGET"]
