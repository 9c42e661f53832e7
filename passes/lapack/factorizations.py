"""Cholesky (potrf), triangular solve (trsm), LU (getrf) and QR (geqrf, orgqr) as
StableHLO, with LAPACK's conventions for every output.

`potrf` and `trsm` take any batch dimensions and reuse `xla.cholesky` and
`xla.triangular_solve`; the others are written for one matrix (the pass loops
over batches) as LAPACK's unblocked algorithms, one column per `while` step:

* getrf (`getf2`): pick the row of largest |re| + |im| in the column (the first
  such), swap it up, scale the column below by the pivot's reciprocal, subtract
  the rank-one update from the trailing block. `ipiv` is 1-based; `info` is the
  first column whose pivot is exactly zero (1-based), the factorization goes on.
* geqrf (`geqr2`, `larfg`): the reflector `H = I - tau v v^H` with `v[j] = 1`,
  `beta = -sign(re alpha) |(alpha, x)|`, `tau = (beta - alpha) / beta`; R on and
  above the diagonal, `v` below it; `H^H` is applied to the trailing columns.
* orgqr/ungqr (`org2r`): the first columns of `H_0 H_1 ... H_{k-1}`, applied
  to the identity from the last reflector back.
"""

from __future__ import annotations

from passes.lapack.hlo_text import Hlo, V, is_complex, real_of, tensor_type

LOWER, UPPER = ord("L"), ord("U")


def potrf(h: Hlo, a: V, uplo: int) -> list[V]:
    """(factor, info): `xla.cholesky`'s factor in the `uplo` triangle, the input's
    other triangle left as it was. info = the order of the first leading minor that
    is not positive definite, else 0: `xla.cholesky` only says that a matrix failed
    (its factor is NaN), so for those the pivots are found again by elimination."""
    batch = a.shape[:-2]
    lower = uplo == LOWER
    factor = h.emit(f"stablehlo.cholesky {a.name}, lower = {'true' if lower else 'false'} : {a.type}", a.shape, a.elem)
    rows, cols = h.iota(a.shape, len(batch)), h.iota(a.shape, len(batch) + 1)
    keep = h.compare("GE" if lower else "LE", rows, cols)
    out = h.select(keep, factor, a)
    corner = h.dynamic_slice(factor, [h.i32(0)] * len(a.shape), [*batch, 1, 1])
    failed = h.reshape(h.compare("NE", corner, corner), batch)  # NaN: not positive definite
    info = _cholesky_info(h, h.select(keep, a, h.conj(h.transpose(a, [*range(len(batch)), len(batch) + 1, len(batch)]))), failed)
    return [out, info]


def _cholesky_info(h: Hlo, herm: V, failed: V) -> V:
    """LAPACK's potrf info for the matrices `failed` marks: Gaussian elimination
    without pivoting on the Hermitian matrix, whose pivots are the squares of
    Cholesky's; the first that is not > 0 (or NaN) gives the order. The loop runs
    only while some failed matrix has no answer yet (never when none failed)."""
    *batch, n, _ = herm.shape
    nb = len(batch)
    real = real_of(herm.elem)
    rows, cols = h.iota(herm.shape, nb), h.iota(herm.shape, nb + 1)
    zeros = [h.i32(0)] * nb
    all_batch = list(range(nb))

    def pending(b: Hlo, info: V) -> V:
        open_ = b.and_(failed, b.compare("EQ", info, b.const(0, "i32", batch)))
        return b.reduce("or", open_, all_batch, False) if nb else open_

    def cond(b: Hlo, args: list[V]) -> V:
        j, _, info = args
        return b.and_(b.compare("LT", j, b.i32(n)), pending(b, info))

    def body(b: Hlo, args: list[V]) -> list[V]:
        j, x, info = args
        pivot = b.dynamic_slice(x, [*zeros, j, j], [*batch, 1, 1])
        bad = b.not_(b.compare("GT", b.reshape(b.real(pivot), batch), b.const(0, real)))
        info = b.select(b.and_(b.and_(bad, failed), b.compare("EQ", info, b.const(0, "i32", batch))), b.add(j, b.i32(1)), info)
        column = b.dynamic_slice(x, [*zeros, b.i32(0), j], [*batch, n, 1])
        row = b.dynamic_slice(x, [*zeros, j, b.i32(0)], [*batch, 1, n])
        dims = list(range(nb + 2))
        scaled = b.div(b.broadcast(column, herm.shape, dims), b.broadcast(pivot, herm.shape, dims))
        update = b.mul(scaled, b.broadcast(row, herm.shape, dims))
        trailing = b.and_(b.compare("GT", rows, j), b.compare("GT", cols, j))
        x = b.sub(x, b.select(trailing, update, b.const(0, herm.elem, herm.shape)))
        return [b.add(j, b.i32(1)), x, info]

    return h.while_([h.i32(0), herm, h.const(0, "i32", batch)], cond, body)[2]


TRANSPOSES = {ord("N"): "NO_TRANSPOSE", ord("T"): "TRANSPOSE", ord("C"): "ADJOINT"}


def trsm(h: Hlo, a: V, b: V, side: int, uplo: int, trans: int, diag: int) -> list[V]:
    """op(a) x = b (side L) or x op(a) = b (side R), a triangular."""
    transpose = TRANSPOSES[trans]
    if transpose == "ADJOINT" and not is_complex(a.elem):
        transpose = "TRANSPOSE"
    flag = lambda c: "true" if c else "false"
    text = (
        f'"stablehlo.triangular_solve"({a.name}, {b.name}) <{{left_side = {flag(side == LOWER)}, lower = {flag(uplo == LOWER)}, '
        f"unit_diagonal = {flag(diag == UPPER)}, transpose_a = #stablehlo<transpose {transpose}>}}> : ({a.type}, {b.type}) -> {b.type}"
    )
    return [h.emit(text, b.shape, b.elem)]


def _column(h: Hlo, a: V, j: V) -> V:
    """Column j of a matrix, as an [m, 1] value."""
    return h.dynamic_slice(a, [h.i32(0), j], [a.shape[0], 1])


def getrf(h: Hlo, a: V) -> list[V]:
    """(lu, ipiv, info) of one m x n matrix."""
    m, n = a.shape
    k = min(m, n)
    real = real_of(a.elem)
    rows = h.iota([m, n], 0)
    cols = h.iota([m, n], 1)
    row_index = h.iota([m, 1], 0)

    def step(b: Hlo, j: V, carried: list[V]) -> list[V]:
        x, ipiv, info = carried
        magnitude = b.abs1(_column(b, x, j))
        candidates = b.select(b.compare("GE", row_index, j), magnitude, b.const(-1, real))
        largest = b.reduce("maximum", candidates, [0, 1], -2)
        first = b.reduce("minimum", b.select(b.compare("EQ", candidates, largest), row_index, b.const(m, "i32")), [0, 1], m)
        p = b.select(b.compare("EQ", first, b.i32(m)), j, first)  # NaN column: no swap
        ipiv = b.dynamic_update_slice(ipiv, b.reshape(b.add(p, b.i32(1)), [1]), [j])
        zero = b.i32(0)
        row_j = b.dynamic_slice(x, [j, zero], [1, n])
        row_p = b.dynamic_slice(x, [p, zero], [1, n])
        x = b.dynamic_update_slice(b.dynamic_update_slice(x, row_p, [j, zero]), row_j, [p, zero])
        pivot = b.reshape(b.dynamic_slice(x, [j, j], [1, 1]), [])
        singular = b.compare("EQ", pivot, b.const(0, a.elem))
        info = b.select(b.and_(singular, b.compare("EQ", info, zero)), b.add(j, b.i32(1)), info)
        column = _column(b, x, j)
        below = b.compare("GT", row_index, j)
        scaled = b.select(b.and_(below, b.not_(singular)), b.mul(column, b.div(b.const(1, a.elem), pivot)), column)
        x = b.dynamic_update_slice(x, scaled, [zero, j])
        multipliers = b.select(below, scaled, b.const(0, a.elem, [m, 1]))
        update = b.mul(b.broadcast(multipliers, [m, n], [0, 1]), b.broadcast(b.dynamic_slice(x, [j, zero], [1, n]), [m, n], [0, 1]))
        trailing = b.and_(b.compare("GT", rows, j), b.compare("GT", cols, j))
        x = b.sub(x, b.select(trailing, update, b.const(0, a.elem, [m, n])))
        return [x, ipiv, info]

    lu, ipiv, info = h.fori(k, [a, h.const(0, "i32", [k]), h.i32(0)], step)
    return [lu, ipiv, info]


def _reflector(h: Hlo, column: V, j: V) -> tuple[V, V, V]:
    """LAPACK's `larfg` on column[j:] of an [m, 1] column: (v with v[j] = 1 and
    zeros above, tau, the new column: beta at j, v below)."""
    m = column.shape[0]
    elem, real = column.elem, real_of(column.elem)
    row_index = h.iota([m, 1], 0)
    below = h.compare("GT", row_index, j)
    at = h.compare("EQ", row_index, j)
    zero = h.const(0, elem, [m, 1])
    x = h.select(below, column, zero)
    alpha = h.reshape(h.dynamic_slice(column, [j, h.i32(0)], [1, 1]), [])
    xnorm2 = h.sum(h.abs2(x), [0, 1])
    alpha_re, alpha_im = h.real(alpha), h.imag(alpha)
    norm = h.sqrt(h.add(h.add(h.mul(alpha_re, alpha_re), h.mul(alpha_im, alpha_im)), xnorm2))
    beta = h.select(h.compare("GE", alpha_re, h.const(0, real)), h.neg(norm), norm)
    identity = h.and_(h.compare("EQ", xnorm2, h.const(0, real)), h.compare("EQ", alpha_im, h.const(0, real)))
    tau_re = h.div(h.sub(beta, alpha_re), beta)
    tau = h.complex(tau_re, h.div(h.neg(alpha_im), beta)) if is_complex(elem) else tau_re
    tau = h.select(identity, h.const(0, elem), tau)
    scale = h.div(h.const(1, elem), h.sub(alpha, h.as_elem(beta, elem)))
    v_below = h.mul(x, scale)
    one = h.const(1, elem, [m, 1])
    v = h.select(identity, h.select(at, one, zero), h.select(at, one, v_below))
    new_alpha = h.select(identity, alpha, h.as_elem(beta, elem))
    new_column = h.select(at, h.broadcast(new_alpha, [m, 1]), h.select(below, h.select(identity, column, v_below), column))
    return v, tau, new_column



def _apply_reflector(h: Hlo, v: V, tau: V, x: V, columns_after: V | None) -> V:
    """(I - tau v v^H) x, on the columns after `columns_after` only when given."""
    m, n = x.shape
    w = h.dot(h.conj(v), x, 0, 0)  # [1, n]: v^H x
    update = h.mul(h.mul(h.broadcast(v, [m, n], [0, 1]), h.broadcast(w, [m, n], [0, 1])), tau)
    if columns_after is not None:
        update = h.select(h.compare("GT", h.iota([m, n], 1), columns_after), update, h.const(0, x.elem, [m, n]))
    return h.sub(x, update)


def geqrf(h: Hlo, a: V) -> list[V]:
    """(reflectors and R, tau) of one m x n matrix."""
    m, n = a.shape
    k = min(m, n)

    def step(b: Hlo, j: V, carried: list[V]) -> list[V]:
        x, taus = carried
        v, tau, column = _reflector(b, _column(b, x, j), j)
        x = _apply_reflector(b, v, b.conj(tau), x, j)
        x = b.dynamic_update_slice(x, column, [b.i32(0), j])
        taus = b.dynamic_update_slice(taus, b.reshape(tau, [1]), [j])
        return [x, taus]

    return h.fori(k, [a, h.const(0, a.elem, [k])], step)


def orgqr(h: Hlo, a: V, tau: V) -> list[V]:
    """Q's first n columns (n = a's columns) from geqrf's reflectors and tau."""
    m, n = a.shape
    k = tau.shape[0]
    eye = h.convert(h.compare("EQ", h.iota([m, n], 0), h.iota([m, n], 1)), a.elem)
    row_index = h.iota([m, 1], 0)

    def step(b: Hlo, i: V, carried: list[V]) -> list[V]:
        (q,) = carried
        j = b.sub(b.i32(k - 1), i)
        column = _column(b, a, j)
        v = b.select(b.compare("GT", row_index, j), column, b.convert(b.compare("EQ", row_index, j), a.elem))
        t = b.reshape(b.dynamic_slice(tau, [j], [1]), [])
        return [_apply_reflector(b, v, t, q, None)]

    return h.fori(k, [eye], step)


__all__ = ["LOWER", "UPPER", "geqrf", "getrf", "orgqr", "potrf", "tensor_type", "trsm"]
