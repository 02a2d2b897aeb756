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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from theorycheck.models.attention import softmax_rows
from theorycheck.tasks.retrieval import Embeddings, RetrievalParams

__all__ = ["DENSE_ROUTE_RATIO", "uses_dense_route", "TokenTables", "limit_attention",
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


def limit_attention(logits: np.ndarray, beta: float) -> np.ndarray:
    """``(n, L)`` weights ``softmax_i(β·logits)``; one-hot argmax for ``β = ∞``.  Pass the
    scale-free logits ``k_iᵀ g/|α|`` to get the limit's attention."""
    if math.isinf(beta):
        sigma = np.zeros_like(logits)
        sigma[np.arange(logits.shape[0]), logits.argmax(axis=1)] = 1.0
        return sigma
    return softmax_rows(beta * logits)


@dataclass(frozen=True)
class TokenTables:
    """The per-token quantities (module docstring): ``P[x] = A e_x`` (``V×m``),
    ``p_z = A z_trig``, whether the trigger is in the value path, and the route of the
    ``L``-position sums: through the table ``P`` (``L·m`` numbers a sequence) or, when
    ``dense``, through the embeddings ``E`` and one product with ``A`` (``L·d + m·d``)."""

    E: np.ndarray
    A: np.ndarray
    z: np.ndarray
    P: np.ndarray
    pz: np.ndarray
    miv: bool
    dense: bool

    @classmethod
    def of(cls, params: RetrievalParams, emb: Embeddings, dense: bool | None = None) -> "TokenTables":
        if dense is None:
            dense = uses_dense_route(params.L, params.d)
        return cls(E=emb.E, A=emb.A, z=emb.z_trig, P=emb.E @ emb.A.T, pz=emb.A @ emb.z_trig,
                   miv=params.marker_in_value, dense=dense)

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
        (which writes and reads an ``(n, m)`` temporary per position)."""
        from scipy.sparse import csr_matrix  # on first use: the registry imports this module for its name

        n, L = tokens.shape
        data = np.ones(n * L) if weights is None else weights.reshape(-1)
        S = csr_matrix((data, tokens.reshape(-1), np.arange(0, n * L + 1, L)), shape=(n, self.base[0].shape[0]))
        return np.asarray(S @ self.base[0])

    def uniform_pre(self, tokens: np.ndarray) -> np.ndarray:
        """``(n, m)`` pre-activations ``A ō_n`` at uniform attention."""
        total = self.position_sums(tokens)
        if self.miv:
            total += self.base[1]
        total /= tokens.shape[1]
        return self.pre(total)

    def attended_pre(self, tokens: np.ndarray, pos: np.ndarray, sigma: np.ndarray, hard: bool) -> np.ndarray:
        """``(n, m)`` pre-activations ``A o_n``, ``o_n = Σ_i σ_i v_i`` (``hard``: ``σ`` is
        one-hot, so one row of ``P`` per sequence)."""
        rows = np.arange(tokens.shape[0])
        if hard:
            at = sigma.argmax(axis=1)
            pre = self.P[tokens[rows, at]]
            if self.miv:
                pre[at == pos] += self.pz
            return pre
        total = self.position_sums(tokens, sigma)
        if self.miv:
            total += sigma[rows, pos][:, None] * self.base[1]
        return self.pre(total)


def key_scores(emb: Embeddings, g_unit: np.ndarray) -> tuple[np.ndarray, float]:
    """The attention's per-token scores ``(E g_unit, z_trigᵀ g_unit)``, computed once a pass
    for :func:`attention_logits`."""
    return emb.E @ g_unit, float(emb.z_trig @ g_unit)


def attention_logits(scores: tuple[np.ndarray, float], tokens: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``(n, L)`` attention logits ``k_iᵀ g_unit = (E g_unit)[x_i] + 1{i=ℓ} z_trigᵀ g_unit``
    from :func:`key_scores`."""
    token_scores, trigger_score = scores
    logits = token_scores[tokens]
    logits[np.arange(tokens.shape[0]), pos] += trigger_score
    return logits


def add_label_sums(Y: np.ndarray, labels: np.ndarray, phi: np.ndarray) -> None:
    """``Y[y] += Σ_{n: y_n = y} φ_n`` (rows of equal label added first; the training
    passes give label-sorted chunks, so a sub-chunk holds a few long runs)."""
    if np.any(labels[1:] < labels[:-1]):
        order = np.argsort(labels, kind="stable")
        labels, phi = labels[order], phi[order]
    starts = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]])
    if len(starts) > 64:
        Y[labels[starts]] += np.add.reduceat(phi, starts, axis=0)
        return
    for lo, hi in zip(starts, np.r_[starts[1:], len(labels)]):  # ~10x faster than reduceat here
        Y[labels[lo]] += phi[lo:hi].sum(axis=0)
