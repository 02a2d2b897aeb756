"""Early-phase limit of the three steps for the attention-MLP model (docs/theory.md §3 item 2).

The attention-only limit of :mod:`theorycheck.algorithms.limit` with the attended
vectors replaced by their features ``φ(o) = relu(A o) − μ`` (``μ = 0``, or with
``center_features`` the training features' mean at the same attention), in the limit
``η → 0``, ``γη → β``, ``γ' → ∞`` (rows: ``W[y] = w_y = u_y − ū``):

* ``G₁ = (1/N) Σ_n w_{y_n} φ(ō_n)ᵀ`` (``d×m``), ``ō_n = (1/L) Σ_i v_i`` (uniform attention);
* ``J_n ∝ −r_n``, ``r_n = Aᵀ[1{A ō_n > 0} ⊙ G₁ᵀ w_{y_n}]`` (``∂ℓ/∂o`` at ``W_V = ηG₁``),
  ``g = (1/N) Σ_n (1/L) Σ_i [(v_i − ō_n)ᵀ r_n] k_i`` (``W_KQ¹ z_EOS ∝ g``);
* attention ``softmax_i(β·k_iᵀ g/|α|)``, ``α = z_trigᵀ g`` (``β = ∞``: hard argmax), the
  same scale-free ``β`` as the attention-only limit;
* ``G₂ = (1/N) Σ_n w_{y_n} φ(o_n)ᵀ`` with the step-2 attention; prediction
  ``argmax_y u_yᵀ G₂ φ(o(X))``.

The features are not linear in (label, token) counts, so this streams over dense
chunks in three passes (the centring means come with the ``G`` sums: the centred
``G = (1/N) Σ_n w_{y_n} φ_nᵀ − w̄ μᵀ``, ``w̄ = (1/N) Σ_n w_{y_n}``), time
``O(N·L·d + N·m·d)``, memory ``O(chunk·(L·d + m) + d·m)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from theorycheck.algorithms.limit import centered_labels, check_beta, selection_diagnostics
from theorycheck.models.attention import dense_model, softmax_rows
from theorycheck.models.training import (
    DEFAULT_DENSE_CACHE_BYTES,
    DenseTrainingData,
    dense_keys_values,
)
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams

__all__ = ["run_limit_mlp", "LimitMLPFit", "limit_attention"]


def limit_attention(keys: np.ndarray, g: np.ndarray, beta: float) -> np.ndarray:
    """``(n, L)`` weights ``softmax_i(β·k_iᵀ g)``; one-hot argmax for ``β = ∞``.  Pass
    ``g/|α|`` to get the limit's scale-free attention ``softmax_i(β·k_iᵀ g/|α|)``."""
    logits = keys @ g
    if math.isinf(beta):
        sigma = np.zeros_like(logits)
        sigma[np.arange(logits.shape[0]), logits.argmax(axis=1)] = 1.0
        return sigma
    return softmax_rows(beta * logits)


def _value_direction(model, data, W, sigma_of, centre: bool):
    """``(G, μ, selected fraction)``: ``G = (1/N) Σ_n w_{y_n} φ(o_n)ᵀ`` (centred iff
    ``centre``), ``μ = (1/N) Σ_n relu(A o_n)``, ``o_n = Σ_i σ_i v_i``,
    ``σ = sigma_of(keys)``."""
    S = np.zeros(model.value_shape)
    phi_sum = np.zeros(model.value_shape[1])
    w_sum = np.zeros(W.shape[1])
    selected = count = 0
    for keys, values, labels, pos in data:
        sigma = sigma_of(keys)
        o = np.einsum("nl,nld->nd", sigma, values)
        _, phi = model.features(o)
        Wn = W[labels]
        S += Wn.T @ phi
        phi_sum += phi.sum(axis=0)
        w_sum += Wn.sum(axis=0)
        selected += int(np.sum(sigma.argmax(axis=1) == pos))
        count += labels.shape[0]
    mu = phi_sum / count
    G = S / count
    if centre:
        G -= np.outer(w_sum / count, mu)
    return G, mu, selected / count


def _key_query_direction(model, data, W, G1, L: int) -> np.ndarray:
    """``g = (1/(N L)) Σ_n Σ_i [(v_i − ō_n)ᵀ r_n] k_i``, ``r_n = Aᵀ[1{Aō_n>0} ⊙ G₁ᵀ w_{y_n}]``."""
    total = np.zeros(G1.shape[0])
    count = 0
    for keys, values, labels, _ in data:
        o_bar = values.mean(axis=1)
        pre, _ = model.features(o_bar)
        r = ((W[labels] @ G1) * (pre > 0.0)) @ model.A
        s = np.einsum("nld,nd->nl", values, r) - np.sum(o_bar * r, axis=1)[:, None]
        total += np.einsum("nl,nld->d", s, keys)
        count += labels.shape[0]
    return total / (count * L)


@dataclass(frozen=True)
class LimitMLPFit:
    """Result of :func:`run_limit_mlp`: ``G1``, ``G2`` (``d×m``), ``g`` (``d``), ``beta``,
    the subtracted features' mean ``μ`` (``None`` without centring) and diagnostics."""

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    G1: np.ndarray = field(repr=False)
    g: np.ndarray = field(repr=False)
    G2: np.ndarray = field(repr=False)
    beta: float
    feature_mean: np.ndarray | None = field(repr=False)
    diagnostics: Mapping[str, float]
    chunk: int = 4096

    @property
    def trigger_coef(self) -> float:
        return float(self.emb.z_trig @ self.g)

    def scores(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Scores ``u_yᵀ G₂ φ(o)`` ``(n, V)`` and attention weights ``(n, L)``."""
        model = dense_model(self.params, self.emb)
        g_unit = self.g / self.diagnostics["logit_scale"]
        readout = self.emb.U @ self.G2  # rows u_yᵀ G₂
        logits, sigmas = [], []
        for lo in range(0, len(batch), self.chunk):
            part = Batch(batch.tokens[lo:lo + self.chunk], batch.pos[lo:lo + self.chunk],
                         batch.labels[lo:lo + self.chunk])
            keys, values = dense_keys_values(self.params, self.emb, part)
            sigma = limit_attention(keys, g_unit, self.beta)
            _, phi = model.features(np.einsum("nl,nld->nd", sigma, values), self.feature_mean)
            logits.append(phi @ readout.T)
            sigmas.append(sigma)
        if not logits:
            return np.zeros((0, self.params.V)), np.zeros((0, self.params.L))
        return np.concatenate(logits), np.concatenate(sigmas)

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        logits, sigma = self.scores(batch)
        return logits.argmax(axis=1), sigma.argmax(axis=1)

    def to_dict(self) -> dict:
        """JSON-able summary (params, beta, diagnostics; not the matrices)."""
        return {"params": self.params.to_dict(), "beta": self.beta,
                "diagnostics": {k: float(v) for k, v in self.diagnostics.items()}}


def run_limit_mlp(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    beta: float = math.inf,
    chunk: int | None = None,
    dense_cache_bytes: int = DEFAULT_DENSE_CACHE_BYTES,
) -> "LimitMLPFit":
    """Early-phase limit for ``model='mlp'`` (see the module docstring).

    ``beta``: scale-free inverse temperature of the step-2 attention (``inf``, default:
    hard attention); ``chunk``: sequences per dense sub-chunk; ``dense_cache_bytes``:
    keep the dense training arrays between passes up to this size.  Centring comes from
    ``params.center_features``.  Diagnostics: as
    :func:`~theorycheck.algorithms.limit.run_limit` plus ``feature_mean_norm``
    (``|mean_n relu(A o_n)|`` at the step-2 attention, before centring).
    """
    if params.model != "mlp":
        raise ValueError(
            f"run_limit_mlp needs model='mlp' (with width m), got model={params.model!r}; "
            "for the attention-only model use run_limit")
    beta = check_beta(beta)
    model = dense_model(params, emb)
    data = DenseTrainingData(params, emb, train_seed, chunk=chunk, dense_cache_bytes=dense_cache_bytes)
    centre = params.center_features
    W = centered_labels(emb.U)
    uniform = lambda keys: np.full(keys.shape[:2], 1.0 / keys.shape[1])  # noqa: E731
    G1, _, _ = _value_direction(model, data, W, uniform, centre)
    g = _key_query_direction(model, data, W, G1, params.L)
    diagnostics = selection_diagnostics(emb, g, params)
    g_unit = g / diagnostics["logit_scale"]
    G2, mu2, selection = _value_direction(
        model, data, W, lambda keys: limit_attention(keys, g_unit, beta), centre)
    diagnostics.update({"train_selection_accuracy": selection, "beta": beta,
                        "feature_mean_norm": float(np.linalg.norm(mu2))})
    return LimitMLPFit(params=params, emb=emb, G1=G1, g=g, G2=G2, beta=beta,
                       feature_mean=mu2 if centre else None, diagnostics=diagnostics,
                       chunk=data.chunk)
