"""The per-token tables of the attention-MLP limit (:mod:`theorycheck.algorithms.limit_mlp`).

Every vector the MLP's features see in the early-phase limit is a combination of token
embeddings, so the ``d``-dimensional work is done once per token: with ``P[x] = A e_x``
(``V×m``), ``p_z = A z_trig`` and ``t = 1`` when the trigger enters the value path,

* ``A ō_n = (1/L) (Σ_i P[x_i] + t·p_z)`` (uniform attention) and
  ``A o_n = Σ_i σ_i P[x_i] + t·σ_ℓ p_z`` (step-2 attention; one row of ``P`` when hard);
* the attention logits are ``k_iᵀ g = (E g)[x_i] + 1{i=ℓ} z_trigᵀ g``;
* sums ``Σ_n w_{y_n} φ_nᵀ`` are taken per label first (:func:`add_label_sums`).

For long sequences (``L > DENSE_ROUTE_RATIO·d``) the ``L``-position sums are cheaper in
``d`` dimensions: ``Σ_i e_{x_i}``, then one product with ``A`` (:class:`TokenTables`'
``dense`` route); the same formulas, rounded differently.

The tables live on an array backend (:mod:`theorycheck.backend`: NumPy by default, or
PyTorch, CuPy, the strict array-API namespace) and every operation here is the array API's,
with two exceptions that keep NumPy's own fast forms: the position sums (a SciPy sparse
product on NumPy, a gather and a sum elsewhere) and the per-label sums (runs of equal labels
on NumPy, :meth:`~theorycheck.backend.Backend.add_rows` elsewhere).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from theorycheck.backend import Backend, get_backend, namespace
from theorycheck.models.attention import softmax_rows
from theorycheck.tasks.retrieval import Embeddings, RetrievalParams

__all__ = ["DENSE_ROUTE_RATIO", "uses_dense_route", "TokenTables", "at_positions", "limit_attention",
           "key_scores", "attention_logits", "add_label_sums"]

DENSE_ROUTE_RATIO = 0.125
"""Sum the ``L`` positions through ``E`` and one product with ``A`` when ``L > ratio·d``.
Measured at m = 2048, N = 2e4 (one thread, CPU s, table against dense route): d = 256:
1.3/2.2 at L = 8, 2.8/2.5 at L = 32, 4.6/2.9 at L = 64; d = 512: 3.3/6.6 at L = 32,
5.2/6.3 at L = 64, 8.8/8.0 at L = 128.  So the break-even ``L/d`` is ~0.11 at d = 256 and
~0.2 at d = 512; 0.125 errs by at most ~10% on these."""


def uses_dense_route(L: int, d: int) -> bool:
    """Whether the position sums go through ``E`` and ``A`` (``L > DENSE_ROUTE_RATIO·d``)."""
    return L > DENSE_ROUTE_RATIO * d


def at_positions(index, L: int):
    """``(n, L)`` boolean mask, true at position ``index[n]`` of row ``n`` (the informative
    position, or the attended one), on ``index``'s backend."""
    xp = namespace(index)
    return xp.arange(L, dtype=xp.int64, device=index.device)[None, :] == index[:, None]


def _at(xp, a, index):
    """``a[n, index[n]]`` for every row ``n`` of the 2-d ``a``."""
    return xp.take_along_axis(a, index[:, None], axis=1)[:, 0]


def limit_attention(logits, beta: float):
    """``(n, L)`` weights ``softmax_i(β·logits)``; one-hot argmax for ``β = ∞``.  Pass the
    scale-free logits ``k_iᵀ g/|α|`` to get the limit's attention."""
    if math.isinf(beta):
        xp = namespace(logits)
        return xp.astype(at_positions(xp.argmax(logits, axis=1), logits.shape[1]), logits.dtype)
    return softmax_rows(beta * logits)


@dataclass(frozen=True)
class TokenTables:
    """The per-token quantities (module docstring): ``P[x] = A e_x`` (``V×m``),
    ``p_z = A z_trig``, whether the trigger is in the value path, the route of the
    ``L``-position sums: through the table ``P`` (``L·m`` numbers a sequence) or, when
    ``dense``, through the embeddings ``E`` and one product with ``A`` (``L·d + m·d``), and
    the array backend ``bk`` the arrays live on (``xp`` its namespace)."""

    E: object
    A: object
    z: object
    P: object
    pz: object
    miv: bool
    dense: bool
    bk: Backend

    @classmethod
    def of(cls, params: RetrievalParams, emb: Embeddings, dense: bool | None = None,
           backend: str | Backend = "numpy") -> "TokenTables":
        if dense is None:
            dense = uses_dense_route(params.L, params.d)
        bk = get_backend(backend)
        E, A, z = bk.keep(emb.E), bk.keep(emb.A), bk.keep(emb.z_trig)
        return cls(E=E, A=A, z=z, P=E @ A.T, pz=A @ z, miv=params.marker_in_value, dense=dense, bk=bk)

    @property
    def xp(self):
        """The array namespace of the tables (``numpy`` itself on NumPy)."""
        return namespace(self.P)

    @property
    def base(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows the position sums gather, and the trigger's row: ``(E, z)`` or ``(P, p_z)``."""
        return (self.E, self.z) if self.dense else (self.P, self.pz)

    def pre(self, summed: np.ndarray) -> np.ndarray:
        """Pre-activations from sums of :attr:`base` rows (times ``A`` on the dense route)."""
        return summed @ self.A.T if self.dense else summed

    def position_sums(self, tokens: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """``(n, ·)`` sums ``Σ_i w_{n,i} B[x_{n,i}]`` of :attr:`base` rows (``w = 1`` when
        ``weights`` is None) as one sparse product ``S B``, ``S`` the ``(n, V)`` matrix with the
        positions' weights at their tokens. The product adds each sequence's rows in position
        order, the numbers of a loop ``B[x_0] + B[x_1] + ...`` over the positions; at
        ``(V, m, L) = (1024, 2048, 8)`` it is 2.4x faster than that loop of ``L`` gathers
        (which writes and reads an ``(n, m)`` temporary per position).  On another backend:
        the ``(n, L, ·)`` rows gathered, weighted and summed over the positions."""
        n, L = tokens.shape
        B = self.base[0]
        if self.bk.xp is not None:
            xp = self.bk.xp
            rows = xp.reshape(xp.take(B, xp.reshape(tokens, (-1,)), axis=0), (n, L, B.shape[1]))
            return xp.sum(rows if weights is None else rows * weights[:, :, None], axis=1)
        from scipy.sparse import csr_matrix  # on first use: the registry imports this module for its name

        data = np.ones(n * L) if weights is None else weights.reshape(-1)
        S = csr_matrix((data, tokens.reshape(-1), np.arange(0, n * L + 1, L)), shape=(n, B.shape[0]))
        return np.asarray(S @ B)

    def uniform_pre(self, tokens: np.ndarray) -> np.ndarray:
        """``(n, m)`` pre-activations ``A ō_n`` at uniform attention."""
        total = self.position_sums(tokens)
        if self.miv:
            total += self.base[1]
        total /= tokens.shape[1]
        return self.pre(total)

    def attended_pre(self, tokens, pos, sigma, hard: bool):
        """``(n, m)`` pre-activations ``A o_n``, ``o_n = Σ_i σ_i v_i`` (``hard``: ``σ`` is
        one-hot, so one row of ``P`` per sequence)."""
        xp = self.xp
        if hard:
            at = xp.argmax(sigma, axis=1)
            pre = xp.take(self.P, _at(xp, tokens, at), axis=0)
            if self.miv:  # + p_z where the trigger is attended (+ 0 elsewhere: the same numbers)
                pre += xp.where((at == pos)[:, None], self.pz, 0.0)
            return pre
        total = self.position_sums(tokens, sigma)
        if self.miv:
            total += _at(xp, sigma, pos)[:, None] * self.base[1]
        return self.pre(total)


def key_scores(tables: TokenTables, g_unit: np.ndarray) -> tuple[object, float]:
    """The attention's per-token scores ``(E g_unit, z_trigᵀ g_unit)`` on the tables'
    backend (``g_unit`` a NumPy vector), computed once a pass for :func:`attention_logits`."""
    g = tables.bk.put(g_unit)
    return tables.E @ g, float(tables.bk.numpy(tables.z @ g))


def attention_logits(scores: tuple[object, float], tokens, pos):
    """``(n, L)`` attention logits ``k_iᵀ g_unit = (E g_unit)[x_i] + 1{i=ℓ} z_trigᵀ g_unit``
    from :func:`key_scores`."""
    token_scores, trigger_score = scores
    xp = namespace(token_scores)
    logits = xp.reshape(xp.take(token_scores, xp.reshape(tokens, (-1,))), tokens.shape)
    return logits + xp.astype(at_positions(pos, tokens.shape[1]), logits.dtype) * trigger_score


def add_label_sums(tables: TokenTables, Y, labels, phi):
    """``Y[y] += Σ_{n: y_n = y} φ_n``, returned.  On NumPy rows of equal label are added
    first (the training passes give label-sorted chunks, so a sub-chunk holds a few long
    runs); elsewhere :meth:`~theorycheck.backend.Backend.add_rows`."""
    if tables.bk.xp is not None:
        return tables.bk.add_rows(Y, labels, phi)
    if np.any(labels[1:] < labels[:-1]):
        order = np.argsort(labels, kind="stable")
        labels, phi = labels[order], phi[order]
    starts = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]])
    if len(starts) > 64:
        Y[labels[starts]] += np.add.reduceat(phi, starts, axis=0)
        return Y
    for lo, hi in zip(starts, np.r_[starts[1:], len(labels)]):  # ~10x faster than reduceat here
        Y[labels[lo]] += phi[lo:hi].sum(axis=0)
    return Y
