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

The features are not linear in the counts, but every attended vector is a combination of
token embeddings: the passes work from per-token tables (:mod:`theorycheck.algorithms.mlp_tables`)
in time ``O(N·L·m + V·m·d)`` instead of the dense ``O(N·L·d + N·m·d)``, memory
``O(V·m + chunk·m)``.  With ``q_n = 1{A ō_n > 0} ⊙ G₁ᵀ w_{y_n}``, the key-query scalars are
``(v_i − ō_n)ᵀ r_n = (P[x_i] + t·1{i=ℓ} p_z − A ō_n)ᵀ q_n``, so
``g = (1/(N L)) (Eᵀ c + s_ℓ z_trig)`` where ``c_x`` sums them over the positions holding
token ``x`` and ``s_ℓ`` over the informative positions.  The three passes walk the
label-sorted training tokens of :class:`~theorycheck.tasks.training_passes.TrainingPasses`
(the same data as every other algorithm); the centring means come with the ``G`` sums: the
centred ``G = (1/N) Σ_n w_{y_n} φ_nᵀ − w̄ μᵀ``, ``w̄ = (1/N) Σ_n w_{y_n}``.

``backend="torch"`` (or ``cupy``, ``array_api_strict``; :mod:`theorycheck.backend`) runs the
passes and the prediction there: the data are drawn on the host from the trial's seed and
each sub-chunk is moved in, so the statistics agree with NumPy's to float64 rounding (sums
in another order), as on the attention-only count path.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theorycheck.algorithms.limit import centered_labels, check_beta, selection_diagnostics
from theorycheck.algorithms.mlp_tables import (
    TokenTables,
    add_label_sums,
    at_positions,
    attention_logits,
    key_scores,
    limit_attention,
    uses_dense_route,
)
from theorycheck.backend import check_backend, get_backend, namespace
from theorycheck.models.training import DENSE_OPTIONS
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams
from theorycheck.tasks.training_passes import DEFAULT_CACHE_BYTES, TrainingPasses

__all__ = ["run_limit_mlp", "LimitMLPFit", "default_rows", "trial_work"]


def trial_work(p: Mapping[str, Any]) -> float:
    """Work of one trial in the retrieval task's cost units, one token visit of the fast
    path (~16 ns; :func:`theorycheck.tasks.retrieval_task.retrieval_cost`, which adds
    ``V²·d/80``).  The passes gather ``L·m`` table numbers a sequence (~2 ns each:
    ``L·m/8``), or on the dense route ``L·d`` embedding numbers plus an ``m·d`` product
    (``/80``, BLAS speed); the ``V×m`` tables and the test scores cost ``V²·m + 4·V·m·d``
    products at ~0.08 ns (``/200``); drawing the tokens ``N·L``.  Against 10
    single-thread trials measured 2026-11-24 (V 1024..2048, L 4..128, m 2048..8192,
    N 1e3..3e5; 0.75-22 s) it predicts 0.66x..1.37x the time."""
    N, L, V, d, m = p["N"], p["L"], p["V"], p["d"], p["m"]
    per_sequence = L * d / 8 + m * d / 80 if uses_dense_route(L, d) else L * m / 8
    return float(N * L + N * per_sequence + (V**2 * m + 4 * V * m * d) / 200)


def default_rows(m: int, backend: str = "numpy") -> int:
    """Sequences per sub-chunk: about ``2**18`` floats (2 MiB) per ``(rows, m)`` array on
    NumPy, ``2**22`` (32 MiB) on another backend (fewer, larger kernels on a device).  On
    NumPy the passes are bound by memory traffic; at (V, d, L, m) = (1024, 256, 8, 2048)
    sub-chunks of 2 MiB measured 1.7x faster than 8 MiB ones and 1.3x faster than 0.5 MiB ones."""
    return max(1, (1 << (18 if backend == "numpy" else 22)) // m)


def _sub_chunks(passes: TrainingPasses, rows: int, bk):
    """``(tokens, pos, labels)`` of at most ``rows`` sequences, one pass in data order, on
    the backend ``bk`` (int64; on NumPy the host arrays themselves)."""
    for batch in passes.map(lambda b: b):
        for lo in range(0, len(batch), rows):
            yield tuple(bk.put_int(a[lo:lo + rows]) for a in (batch.tokens, batch.pos, batch.labels))


def _value_direction(passes, rows, tables, W, centre: bool, attention=None):
    """``(G, μ, selected fraction)``: ``G = (1/N) Σ_n w_{y_n} φ(o_n)ᵀ`` (centred iff
    ``centre``), ``μ = (1/N) Σ_n relu(A o_n)``.  ``attention``: ``(key_scores, beta)`` of
    the step-2 attention (:func:`~theorycheck.algorithms.mlp_tables.key_scores`), ``None``
    for uniform attention (step 1; its selected fraction is then 0)."""
    xp, bk = tables.xp, tables.bk
    m = tables.P.shape[1]
    Y = bk.put(np.zeros((W.shape[0], m)))  # per-label feature sums
    phi_sum = bk.put(np.zeros(m))
    w_sum = bk.put(np.zeros(W.shape[1]))
    selected = count = 0
    for tokens, pos, labels in _sub_chunks(passes, rows, bk):
        if attention is None:
            pre = tables.uniform_pre(tokens)
        else:
            scores, beta = attention
            sigma = limit_attention(attention_logits(scores, tokens, pos), beta)
            pre = tables.attended_pre(tokens, pos, sigma, math.isinf(beta))
            selected += int(xp.sum(xp.astype(xp.argmax(sigma, axis=1) == pos, xp.int64)))
        phi = _relu(xp, pre)
        Y = add_label_sums(tables, Y, labels, phi)
        phi_sum += xp.sum(phi, axis=0)
        w_sum += xp.sum(xp.take(W, labels, axis=0), axis=0)
        count += labels.shape[0]
    mu = phi_sum / count
    G = W.T @ Y / count
    if centre:
        G -= (w_sum / count)[:, None] * mu[None, :]
    return G, mu, selected / count


def _relu(xp, pre):
    """``max(pre, 0)``, in place on NumPy."""
    return np.maximum(pre, 0.0, out=pre) if xp is np else xp.where(pre > 0.0, pre, 0.0)


def _key_query_direction(passes, rows, tables, W, G1, L: int) -> np.ndarray:
    """``g = (1/(N L)) Σ_n Σ_i [(v_i − ō_n)ᵀ r_n] k_i`` through the token tables (module
    docstring).  Each sub-chunk gathers its ``(n, L, m)`` table rows once: they give both
    ``A ō_n`` and the scalars ``P[x_i]ᵀ q_n``."""
    xp, bk = tables.xp, tables.bk
    H = W @ G1  # rows G₁ᵀ w_y
    c = bk.put(np.zeros(tables.P.shape[0]))
    s_trigger = 0.0
    count = 0
    B, bz = tables.base
    for tokens, pos, labels in _sub_chunks(passes, rows if tables.dense else max(1, 2 * rows // L), bk):
        n = tokens.shape[0]
        flat = xp.reshape(tokens, (-1,))
        gathered = xp.reshape(xp.take(B, flat, axis=0), (n, L, B.shape[1]))  # (n, L, m), or (n, L, d) dense
        summed = xp.sum(gathered, axis=1)
        if tables.miv:
            summed += bz
        q = xp.where(tables.pre(summed) > 0.0, xp.take(H, labels, axis=0), 0.0)
        w = q @ tables.A if tables.dense else q  # r_n = Aᵀ q_n on the dense route
        s = xp.matmul(gathered, w[:, :, None])[:, :, 0]  # P[x_i]ᵀ q_n = e_{x_i}ᵀ r_n
        trigger = w @ bz if tables.miv else 0.0
        s -= ((xp.sum(s, axis=1) + trigger) / L)[:, None]  # (A ō_n)ᵀ q_n
        if tables.miv:  # + the trigger's scalar at the informative position (+ 0 elsewhere)
            s += xp.where(at_positions(pos, L), trigger[:, None], 0.0)
        c += bk.bincount(flat, xp.reshape(s, (-1,)), minlength=c.shape[0])
        s_trigger += float(xp.sum(xp.take_along_axis(s, pos[:, None], axis=1)))
        count += labels.shape[0]
    return bk.numpy(tables.E.T @ c + s_trigger * tables.z) / (count * L)


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
    tables: TokenTables | None = field(default=None, repr=False, compare=False)  # the training's, reused
    backend: str = "numpy"

    @property
    def trigger_coef(self) -> float:
        return float(self.emb.z_trig @ self.g)

    def _on_backend(self, batch: Batch):
        """Scores ``u_yᵀ G₂ φ(o)`` ``(n, V)`` and attention weights ``(n, L)`` on the backend."""
        tables = self.tables if self.tables is not None else TokenTables.of(self.params, self.emb, backend=self.backend)
        xp, bk = tables.xp, tables.bk
        scores = key_scores(tables, self.g / self.diagnostics["logit_scale"])
        readout = bk.keep(self.emb.U) @ bk.keep(self.G2)  # rows u_yᵀ G₂
        mean = None if self.feature_mean is None else bk.keep(self.feature_mean)
        logits, sigmas = [], []
        for lo in range(0, len(batch), self.chunk):
            tokens, pos = (bk.put_int(a[lo:lo + self.chunk]) for a in (batch.tokens, batch.pos))
            sigma = limit_attention(attention_logits(scores, tokens, pos), self.beta)
            phi = _relu(xp, tables.attended_pre(tokens, pos, sigma, math.isinf(self.beta)))
            if mean is not None:
                phi -= mean
            logits.append(phi @ readout.T)
            sigmas.append(sigma)
        if not logits:
            return bk.put(np.zeros((0, self.params.V))), bk.put(np.zeros((0, self.params.L)))
        return xp.concat(logits), xp.concat(sigmas)

    def scores(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Scores ``u_yᵀ G₂ φ(o)`` ``(n, V)`` and attention weights ``(n, L)`` (NumPy arrays)."""
        bk = get_backend(self.backend)
        return tuple(bk.numpy(a) for a in self._on_backend(batch))

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        logits, sigma = self._on_backend(batch)
        xp, bk = namespace(logits), get_backend(self.backend)
        return bk.numpy(xp.argmax(logits, axis=1)), bk.numpy(xp.argmax(sigma, axis=1))

    def to_dict(self) -> dict:
        """JSON-able summary (params, beta, diagnostics; not the matrices)."""
        return {"params": self.params.to_dict(), "beta": self.beta, "backend": self.backend,
                "diagnostics": {k: float(v) for k, v in self.diagnostics.items()}}


def run_limit_mlp(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    beta: float = math.inf,
    chunk: int | None = None,
    cache_bytes: int = DEFAULT_CACHE_BYTES,
    backend: str = "numpy",
) -> "LimitMLPFit":
    """Early-phase limit for ``model='mlp'`` (see the module docstring).

    ``beta``: scale-free inverse temperature of the step-2 attention (``inf``, default:
    hard attention); ``chunk``: sequences per sub-chunk (default :func:`default_rows`);
    ``cache_bytes``: keep the compact training tokens between the three passes up to
    this size; ``backend``: array library of the passes and the prediction (module
    docstring).  Centring comes from ``params.center_features``.  Diagnostics: as
    :func:`~theorycheck.algorithms.limit.run_limit` plus ``feature_mean_norm``
    (``|mean_n relu(A o_n)|`` at the step-2 attention, before centring).
    """
    if params.model != "mlp":
        raise ValueError(
            f"run_limit_mlp needs model='mlp' (with width m), got model={params.model!r}; "
            "for the attention-only model use run_limit")
    beta = check_beta(beta)
    backend = check_backend(backend)
    rows = DENSE_OPTIONS["chunk"](chunk) or default_rows(params.m, backend)
    passes = TrainingPasses(params, emb, train_seed, cache_bytes=cache_bytes)
    tables = TokenTables.of(params, emb, backend=backend)
    bk, centre = tables.bk, params.center_features
    W = bk.put(centered_labels(emb.U))
    G1, _, _ = _value_direction(passes, rows, tables, W, centre)
    g = _key_query_direction(passes, rows, tables, W, G1, params.L)
    diagnostics = selection_diagnostics(emb, g, params)
    g_unit = g / diagnostics["logit_scale"]
    G2, mu2, selection = _value_direction(passes, rows, tables, W, centre, (key_scores(tables, g_unit), beta))
    G1, G2, mu2 = bk.numpy(G1), bk.numpy(G2), bk.numpy(mu2)
    diagnostics.update({"train_selection_accuracy": selection, "beta": beta,
                        "feature_mean_norm": float(np.linalg.norm(mu2))})
    return LimitMLPFit(params=params, emb=emb, G1=G1, g=g, G2=G2, beta=beta,
                       feature_mean=mu2 if centre else None, diagnostics=diagnostics,
                       chunk=rows, tables=tables, backend=backend)
