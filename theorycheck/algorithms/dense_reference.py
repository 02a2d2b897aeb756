"""The formulas of docs/theory.md §3 item 2 computed directly on dense ``(N, L, d)`` keys/values.

A reference for the fast path :mod:`theorycheck.algorithms.limit` (tests, benchmarks):
no counting tricks, just the definitions (rows: ``W[y] = w_y``)

* ``ō_n = (1/L) Σ_i v_i``, ``G₁ = (1/N) Σ_n w_{y_n} ō_nᵀ``;
* ``r_n = G₁ᵀ w_{y_n}``, ``g = (1/N) Σ_n (1/L) Σ_i [(v_i − ō_n)ᵀ r_n] k_i``;
* attention ``σ = softmax_i(β·k_iᵀ g/|α|)`` (``α = z_trigᵀ g``; hard argmax for ``β = ∞``),
  ``o_n = Σ_i σ_i v_i``, ``G₂ = (1/N) Σ_n w_{y_n} o_nᵀ``;
* prediction ``argmax_y u_yᵀ G₂ o(X)``; one-step readout ``argmax_y u_yᵀ G₁ e_a``.

Memory ``O(N·L·d)``: small sizes only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from theorycheck.algorithms.limit import centered_labels, check_beta, selection_diagnostics
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams, iter_chunks, keys_values

__all__ = ["DenseLimit", "dense_limit", "run_dense_limit", "training_batch", "dense_one_step_scores"]


def training_batch(params: RetrievalParams, emb: Embeddings, train_seed: np.random.SeedSequence) -> Batch:
    """All ``N`` training sequences of ``train_seed`` as one batch (same data as the
    streamed chunks of :func:`iter_chunks`)."""
    parts = list(iter_chunks(params, emb, train_seed, params.N, params.N))
    return Batch(
        tokens=np.concatenate([b.tokens for b in parts]),
        pos=np.concatenate([b.pos for b in parts]),
        labels=np.concatenate([b.labels for b in parts]),
    )


def _attention(keys: np.ndarray, g: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """``(n, L)`` attention weights from logits ``k_iᵀ g``; one-hot argmax for ``β = ∞``."""
    logits = keys @ g
    n, L = logits.shape
    if math.isinf(beta):
        sigma = np.zeros((n, L))
        sigma[np.arange(n), logits.argmax(axis=1)] = 1.0
        return sigma
    scale = abs(alpha) if alpha != 0.0 else 1.0
    z = beta * logits / scale
    z -= z.max(axis=1, keepdims=True)
    sigma = np.exp(z)
    return sigma / sigma.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class DenseLimit:
    """``G1``, ``g``, ``G2`` computed densely, with the same ``predict`` contract."""

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    G1: np.ndarray = field(repr=False)
    g: np.ndarray = field(repr=False)
    G2: np.ndarray = field(repr=False)
    beta: float
    diagnostics: dict

    def scores(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """``(n, V)`` label logits ``u_yᵀ G₂ o(X)`` and ``(n, L)`` attention logits ``k_iᵀ g``
        (what ``predict`` takes the argmax of; tests use them to skip exact ties)."""
        keys, values = keys_values(self.params, self.emb, batch)
        alpha = float(self.emb.z_trig @ self.g)
        sigma = _attention(keys, self.g, alpha, self.beta)
        o = np.einsum("ni,nid->nd", sigma, values)
        return o @ (self.emb.U @ self.G2).T, keys @ self.g

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        logits, attention = self.scores(batch)
        return logits.argmax(axis=1), attention.argmax(axis=1)


def dense_limit(params: RetrievalParams, emb: Embeddings, train: Batch, beta: float = math.inf) -> DenseLimit:
    """The early-phase limit on the dense training batch ``train``."""
    beta = check_beta(beta)
    N = len(train)
    keys, values = keys_values(params, emb, train)
    Wn = centered_labels(emb.U)[train.labels]  # (N, d): w_{y_n}
    o_bar = values.mean(axis=1)
    G1 = Wn.T @ o_bar / N
    r = Wn @ G1  # rows r_n = G₁ᵀ w_{y_n}
    s = np.einsum("nid,nd->ni", values - o_bar[:, None, :], r)
    g = np.einsum("ni,nid->d", s, keys) / (N * params.L)
    alpha = float(emb.z_trig @ g)
    sigma = _attention(keys, g, alpha, beta)
    o = np.einsum("ni,nid->nd", sigma, values)
    G2 = Wn.T @ o / N
    diagnostics = selection_diagnostics(emb, g, params)
    return DenseLimit(params=params, emb=emb, G1=G1, g=g, G2=G2, beta=beta, diagnostics=diagnostics)


def run_dense_limit(params, emb, train_seed, *, beta: float = math.inf) -> DenseLimit:
    """Same signature as :func:`theorycheck.algorithms.limit.run_limit`, dense."""
    return dense_limit(params, emb, training_batch(params, emb, train_seed), beta)


def dense_one_step_scores(G1: np.ndarray, emb: Embeddings, batch: Batch) -> np.ndarray:
    """``(n, V)`` one-step scores ``u_yᵀ G₁ e_a`` of the informative token ``a`` of each row."""
    a = batch.tokens[np.arange(len(batch)), batch.pos]
    return emb.E[a] @ (emb.U @ G1).T
