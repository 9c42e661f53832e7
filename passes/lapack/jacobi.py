"""Symmetric/Hermitian eigendecomposition (syevd/heevd) and SVD (gesdd/gesvd) by
Jacobi rotations, for one matrix.

Both are the cyclic Jacobi method: sweeps over every pair (p, q), p < q, each
rotation zeroing the (p, q) entry of a Hermitian matrix B, until the off-diagonal
part is below eps * ||B||_F (at most `MAX_SWEEPS`; `info` = 1 if that did not
suffice). For complex B the pair is first made real by the phase e = b_pq / |b_pq|,
so the rotation is J = diag(1, conj(e)) R with R the real rotation of Numerical
Recipes (theta = (b_qq - b_pp) / (2 |b_pq|), t = sign(theta) / (|theta| +
sqrt(theta^2 + 1)), c = 1 / sqrt(t^2 + 1), s = t c).

* syevd: B = A (its `uplo` triangle), A := J^H A J and V := V J; eigenvalues
  ascending with their vectors, as LAPACK returns them.
* gesdd: one-sided (Hestenes) Jacobi on the columns of G = A (A^H when m < n),
  B = G^H G formed per pair: G := G J, V := V J, until every pair of columns is
  orthogonal to eps relative to their norms; singular values = the column
  norms, descending; U = G / s. Where U must have more columns than there are
  nonzero singular values (mode 'A', or rank deficiency), Householder QR of U
  (`factorizations.geqrf/orgqr`) completes it to an orthonormal basis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from passes.lapack import factorizations as fz
from passes.lapack.hlo_text import Hlo, V, epsilon, is_complex, real_of

MAX_SWEEPS = 40


def _pairs(h: Hlo, n: int) -> V:
    """The cyclic-by-rows order of the pairs (p, q), p < q, as a [P, 2] constant."""
    pairs = [f"[{p}, {q}]" for p in range(n) for q in range(p + 1, n)]
    text = f"stablehlo.constant dense<[{', '.join(pairs)}]> : tensor<{len(pairs)}x2xi32>"
    return h.emit(text, [len(pairs), 2], "i32")


def _rotation(h: Hlo, bpp: V, bqq: V, bpq: V) -> tuple[V, V, V, V]:
    """(J_pp, J_pq, J_qp, J_qq) of the rotation zeroing b_pq (module docstring)."""
    elem = bpq.elem
    real = real_of(elem)
    g = h.unary("abs", bpq, real)  # not sqrt(|b|^2), which underflows for tiny b_pq
    zero = h.compare("EQ", g, h.const(0, real))
    safe_g = h.select(zero, h.const(1, real), g)
    theta = h.div(h.sub(bqq, bpp), h.mul(h.const(2, real), safe_g))
    root = h.sqrt(h.add(h.mul(theta, theta), h.const(1, real)))
    magnitude = h.div(h.const(1, real), h.add(h.unary("abs", theta), root))
    t = h.select(h.compare("LT", theta, h.const(0, real)), h.neg(magnitude), magnitude)
    t = h.select(zero, h.const(0, real), t)
    c = h.div(h.const(1, real), h.sqrt(h.add(h.mul(t, t), h.const(1, real))))
    s = h.mul(t, c)
    if is_complex(elem):
        phase = h.select(zero, h.const(1, elem), h.div(bpq, h.as_elem(safe_g, elem)))
    else:  # exactly +-1
        phase = h.select(h.compare("LT", bpq, h.const(0, elem)), h.const(-1, elem), h.const(1, elem))
    conj_phase = h.conj(phase)
    return (
        h.as_elem(c, elem),
        h.as_elem(s, elem),
        h.mul(h.as_elem(h.neg(s), elem), conj_phase),
        h.mul(h.as_elem(c, elem), conj_phase),
    )


def _rotate_columns(h: Hlo, x: V, p: V, q: V, j: Sequence[V]) -> V:
    """x J on columns p and q."""
    zero = h.i32(0)
    rows = x.shape[0]
    xp = h.dynamic_slice(x, [zero, p], [rows, 1])
    xq = h.dynamic_slice(x, [zero, q], [rows, 1])
    jpp, jpq, jqp, jqq = j
    new_p = h.add(h.mul(xp, jpp), h.mul(xq, jqp))
    new_q = h.add(h.mul(xp, jpq), h.mul(xq, jqq))
    return h.dynamic_update_slice(h.dynamic_update_slice(x, new_p, [zero, p]), new_q, [zero, q])


def _rotate_rows(h: Hlo, x: V, p: V, q: V, j: Sequence[V]) -> V:
    """J^H x on rows p and q."""
    zero = h.i32(0)
    cols = x.shape[1]
    xp = h.dynamic_slice(x, [p, zero], [1, cols])
    xq = h.dynamic_slice(x, [q, zero], [1, cols])
    jpp, jpq, jqp, jqq = (h.conj(v) for v in j)
    new_p = h.add(h.mul(xp, jpp), h.mul(xq, jqp))
    new_q = h.add(h.mul(xp, jpq), h.mul(xq, jqq))
    return h.dynamic_update_slice(h.dynamic_update_slice(x, new_p, [p, zero]), new_q, [q, zero])


def _entry(h: Hlo, x: V, i: V, j: V) -> V:
    return h.reshape(h.dynamic_slice(x, [i, j], [1, 1]), [])


def _identity(h: Hlo, n: int, elem: str) -> V:
    return h.convert(h.compare("EQ", h.iota([n, n], 0), h.iota([n, n], 1)), elem)


def _sweeps(h: Hlo, n: int, carried: list[V], off: Callable[[Hlo, list[V]], V], rotate: Callable[[Hlo, V, V, list[V]], list[V]]) -> tuple[list[V], V]:
    """Sweep while `off(carried)` is true (not converged) and sweeps remain; returns
    the carried values and the i32 info (1: did not converge)."""
    pairs = _pairs(h, n)
    count = n * (n - 1) // 2

    def cond(b: Hlo, args: list[V]) -> V:
        return b.and_(b.compare("LT", args[0], b.i32(MAX_SWEEPS)), off(b, args[1:]))

    def sweep(b: Hlo, args: list[V]) -> list[V]:
        def step(bb: Hlo, k: V, values: list[V]) -> list[V]:
            pair = bb.dynamic_slice(pairs, [k, bb.i32(0)], [1, 2])
            p = bb.reshape(bb.dynamic_slice(pair, [bb.i32(0), bb.i32(0)], [1, 1]), [])
            q = bb.reshape(bb.dynamic_slice(pair, [bb.i32(0), bb.i32(1)], [1, 1]), [])
            return rotate(bb, p, q, values)

        return [b.add(args[0], b.i32(1)), *b.fori(count, args[1:], step)]

    results = h.while_([h.i32(0), *carried], cond, sweep)
    info = h.convert(off(h, results[1:]), "i32")
    return results[1:], info


def _off_norm_exceeds(h: Hlo, b: V, scale: V) -> V:
    """||offdiag(b)||_F > eps * scale."""
    n = b.shape[0]
    real = real_of(b.elem)
    off = h.select(h.compare("EQ", h.iota([n, n], 0), h.iota([n, n], 1)), h.const(0, real, [n, n]), h.abs2(b))
    off2 = h.sum(off, [0, 1])
    tol = h.mul(scale, h.const(epsilon(b.elem), real))
    return h.compare("GT", off2, h.mul(tol, tol))


def _columns_not_orthogonal(h: Hlo, gram: V) -> V:
    """Some pair of columns has |g_p^H g_q| > n eps ||g_p|| ||g_q||: the one-sided
    method's test, relative per pair, so that the columns of small norm (small
    singular values) come out orthogonal too."""
    n = gram.shape[0]
    real = real_of(gram.elem)
    norms2 = h.sum(h.select(h.compare("EQ", h.iota([n, n], 0), h.iota([n, n], 1)), h.real(gram), h.const(0, real, [n, n])), [0])
    scale = h.mul(h.broadcast(norms2, [n, n], [0]), h.broadcast(norms2, [n, n], [1]))
    off = h.select(h.compare("EQ", h.iota([n, n], 0), h.iota([n, n], 1)), h.const(0, real, [n, n]), h.abs2(gram))
    eps = n * epsilon(gram.elem)
    exceeds = h.compare("GT", off, h.mul(scale, h.const(eps * eps, real)))
    return h.reduce("or", exceeds, [0, 1], False)


def _permutation(h: Hlo, order: V, elem: str) -> V:
    """P with P[i, j] = 1 where order[j] == i: x P takes x's columns in `order`."""
    n = order.shape[0]
    return h.convert(h.compare("EQ", h.iota([n, n], 0), h.broadcast(order, [n, n], [1])), elem)


def syevd(h: Hlo, a: V, uplo: int) -> list[V]:
    """(eigenvectors, eigenvalues ascending, info) of the Hermitian matrix whose
    `uplo` triangle `a` holds."""
    n = a.shape[0]
    real = real_of(a.elem)
    rows, cols = h.iota([n, n], 0), h.iota([n, n], 1)
    keep = h.compare("GE" if uplo == fz.LOWER else "LE", rows, cols)
    herm = h.select(keep, a, h.conj(h.transpose(a, [1, 0])))
    on_diagonal = h.compare("EQ", rows, cols)
    herm = h.select(on_diagonal, h.as_elem(h.real(herm), a.elem), herm)
    if n == 1:
        return [h.const(1, a.elem, [1, 1]), h.reshape(h.real(herm), [1]), h.i32(0)]
    scale = h.sqrt(h.sum(h.abs2(herm), [0, 1]))

    def rotate(b: Hlo, p: V, q: V, values: list[V]) -> list[V]:
        x, vectors = values
        j = _rotation(b, b.real(_entry(b, x, p, p)), b.real(_entry(b, x, q, q)), _entry(b, x, p, q))
        x = _rotate_rows(b, _rotate_columns(b, x, p, q, j), p, q, j)
        zero = b.const(0, a.elem, [1, 1])
        x = b.dynamic_update_slice(b.dynamic_update_slice(x, zero, [p, q]), zero, [q, p])
        if is_complex(a.elem):  # keep the diagonal real
            for i in (p, q):
                x = b.dynamic_update_slice(x, b.reshape(b.as_elem(b.real(_entry(b, x, i, i)), a.elem), [1, 1]), [i, i])
        return [x, _rotate_columns(b, vectors, p, q, j)]

    (x, vectors), info = _sweeps(h, n, [herm, _identity(h, n, a.elem)], lambda b, v: _off_norm_exceeds(b, v[0], scale), rotate)
    values = h.sum(h.select(on_diagonal, h.real(x), h.const(0, real, [n, n])), [0])
    values, order = h.sort([values, h.iota([n], 0)])
    return [h.dot(vectors, _permutation(h, order, a.elem), 1, 0), values, info]


def gesdd(h: Hlo, a: V, mode: int, result_shapes: Sequence[Sequence[int]]) -> list[V]:
    """(a, s descending, u, vt, info) of one m x n matrix; u and vt have the shapes
    the call declares (mode 'A': square, 'S': reduced, 'N': computed all the same)."""
    m, n = a.shape
    wide = m < n
    g = h.conj(h.transpose(a, [1, 0])) if wide else a
    rows, k = g.shape
    real = real_of(a.elem)
    if k == 1:
        norm = h.sqrt(h.sum(h.abs2(g), [0, 1]))
        left, right, s, info = g, h.const(1, a.elem, [1, 1]), h.reshape(norm, [1]), h.i32(0)
        left = h.div(left, h.as_elem(h.select(h.compare("EQ", norm, h.const(0, real)), h.const(1, real), norm), a.elem))
    else:

        def gram(b: Hlo, x: V) -> V:
            return b.dot(b.conj(x), x, 0, 0)

        def rotate(b: Hlo, p: V, q: V, values: list[V]) -> list[V]:
            x, vectors = values
            zero = b.i32(0)
            xp = b.dynamic_slice(x, [zero, p], [rows, 1])
            xq = b.dynamic_slice(x, [zero, q], [rows, 1])
            alpha = b.sum(b.abs2(xp), [0, 1])
            beta = b.sum(b.abs2(xq), [0, 1])
            gamma = b.sum(b.mul(b.conj(xp), xq), [0, 1])
            j = _rotation(b, alpha, beta, gamma)
            return [_rotate_columns(b, x, p, q, j), _rotate_columns(b, vectors, p, q, j)]

        (x, vectors), info = _sweeps(
            h, k, [g, _identity(h, k, a.elem)], lambda b, v: _columns_not_orthogonal(b, gram(b, v[0])), rotate
        )
        norms = h.sqrt(h.sum(h.abs2(x), [0]))
        s, order = h.sort([norms, h.iota([k], 0)], descending=True)
        perm = _permutation(h, order, a.elem)
        x, right = h.dot(x, perm, 1, 0), h.dot(vectors, perm, 1, 0)
        positive = h.compare("GT", s, h.const(0, real))
        safe = h.select(positive, s, h.const(1, real, [k]))
        left = h.div(x, h.broadcast(h.as_elem(safe, a.elem), [rows, k], [1]))
    # left: rows x k (orthonormal where s > 0), right: k x k unitary, G = left S right^H.
    u_cols = result_shapes[2][1] if not wide else result_shapes[3][0]
    left = _complete(h, left, s, u_cols)
    if wide:  # A = G^H = right S left^H
        u, vt = right, h.conj(h.transpose(left, [1, 0]))
    else:
        u, vt = left, h.conj(h.transpose(right, [1, 0]))
    u = _fit(h, u, result_shapes[2])
    vt = _fit(h, vt, result_shapes[3])
    return [a, s, u, vt, info]


def _complete(h: Hlo, left: V, s: V, columns: int) -> V:
    """`left` (rows x k, orthonormal where s > 0, zero elsewhere) widened to
    `columns` orthonormal columns: Householder QR of it gives a basis whose first
    columns span left's; left's own columns are kept where s > 0."""
    rows, k = left.shape
    columns = min(max(columns, k), rows)
    positive = h.compare("GT", s, h.const(0, real_of(left.elem)))
    reflectors, tau = fz.geqrf(h, left)
    (basis,) = fz.orgqr(h, _pad_columns(h, reflectors, columns) if columns > k else reflectors, tau)
    first = h.select(h.broadcast(positive, [rows, k], [1]), left, h.dynamic_slice(basis, [h.i32(0), h.i32(0)], [rows, k]))
    return first if columns == k else h.dynamic_update_slice(basis, first, [h.i32(0), h.i32(0)])


def _pad_columns(h: Hlo, x: V, columns: int) -> V:
    wide = h.const(0, x.elem, [x.shape[0], columns])
    return h.dynamic_update_slice(wide, x, [h.i32(0), h.i32(0)])


def _fit(h: Hlo, x: V, shape: Sequence[int]) -> V:
    """x cut or zero-padded to `shape` (mode 'N' declares outputs it does not fill)."""
    if tuple(shape) == x.shape:
        return x
    rows, cols = min(shape[0], x.shape[0]), min(shape[1], x.shape[1])
    part = h.dynamic_slice(x, [h.i32(0), h.i32(0)], [rows, cols])
    return h.dynamic_update_slice(h.const(0, x.elem, list(shape)), part, [h.i32(0), h.i32(0)])


__all__ = ["MAX_SWEEPS", "gesdd", "syevd"]
