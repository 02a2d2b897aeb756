"""Early-phase limit of the three-step algorithm, attention-only fast path (THEORY §3.2).

In the limit ``η → 0``, ``γη → β``, ``γ' → ∞`` of the three steps, with ``w_y = u_y − ū``
and ``ō_n = (1/L) Σ_i v_i^n`` (uniform attention at initialisation):

* ``G₁ = (1/N) Σ_n w_{y_n} ō_nᵀ``                                   (direction of ``W_V¹``)
* ``g  = (1/N) Σ_n (1/L) Σ_i [(v_i − ō_n)ᵀ r_n] k_i``, ``r_n = G₁ᵀ w_{y_n}``
                                                               (``W_KQ¹ z_EOS ∝ g``)
* attention logits ``β·k_iᵀ g / |α|`` with the trigger coefficient ``α = z_trigᵀ g``;
  ``β = ∞`` (default) is hard attention ``i* = argmax_i k_iᵀ g``;
* ``G₂ = (1/N) Σ_n w_{y_n} o_nᵀ`` with the step-2 attention     (direction of ``W_V²``)
* prediction ``argmax_y u_yᵀ G₂ o(X)`` with ``o`` from the same attention rule.

**Temperature.**  THEORY's logits are ``γη·|z_EOS|²·k_iᵀ g``; their natural size is
``α ≈ ζ²/(L²V)`` (paper §3.3).  We divide by ``|α|`` so that ``β`` is scale-free: it is the
logit advantage that the trigger alone gives the informative position.  The finite-step
algorithm with step sizes ``(η, γ)`` matches ``β = γη·|z_EOS|²·|α|``
(``diagnostics['logit_scale'] = |α|``).  If ``α = 0`` exactly the scale is 1.

**Fast path.**  Every quantity is a sum over (label, token) pairs plus per-sequence
scalars, so nothing of size ``N×L×d`` is ever formed (rows: ``E[x] = e_x``, ``W[y] = w_y``):

* pass 1: ``C[y, x]`` = number of (sequence, slot) pairs with label ``y`` and token ``x``,
  ``c[y]`` = number of sequences with label ``y``;
  ``G₁ = (Wᵀ(C E) + [miv]·(Wᵀ c) z_trigᵀ) / (N L)``;
* pass 2: with ``R = W G₁`` (rows ``r_y``), ``Q[y, x] = r_yᵀ e_x``, ``q_y = z_trigᵀ r_y``,
  ``s_{n,i} = Q[y_n, x_i] − m'_n + [miv]·1{i=ℓ_n}·q_{y_n}`` with
  ``m'_n = mean_j Q[y_n, x_j] + [miv]·q_{y_n}/L``, and
  ``g = (Σ_x b_x e_x + (Σ_n s_{n,ℓ_n}) z_trig) / (N L)``, ``b_x = Σ_{x_i = x} s_{n,i}``;
* pass 3: token scores ``a_x = e_xᵀ g``, logits ``a_{x_i} + 1{i=ℓ} α``; ``D[y, x]`` = attention
  mass on token ``x`` in sequences of label ``y``, ``c'[y]`` = mass on the informative
  position; ``G₂ = Wᵀ(D E)/N + [miv]·(Wᵀ c') z_trigᵀ / N``.

Time ``O(N·L + V²·d)``, memory ``O(V² + chunk)`` plus the token cache.  The three passes
see the same data through :class:`~theorycheck.algorithms.chunked.TrainingPasses`: the
tokens are kept compactly (int16 when ``V <= 32767``) and sorted by label if they fit in
``cache_bytes``, otherwise every pass draws them again from their seeds
(:func:`~theorycheck.tasks.retrieval.iter_chunks` is replayable).  On label-sorted data
long runs of one label are handled run by run: ``C[y]`` is a bincount of the run's tokens
and ``Q[y, x_i]`` a gather from the row ``Q[y]``.  Numbers: ``bench/bench_limit.py``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from theorycheck.algorithms.attention_readout import attend, predict_labels
from theorycheck.algorithms.chunked import DEFAULT_CACHE_BYTES, TrainingPasses
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams

__all__ = [
    "LimitFit",
    "run_limit",
    "centered_labels",
    "check_beta",
    "predict_labels",
    "selection_diagnostics",
]

def centered_labels(U: np.ndarray) -> np.ndarray:
    """``W[y] = w_y = u_y − ū`` (THEORY §3 item 2)."""
    return U - U.mean(axis=0)


def check_beta(beta) -> float:
    """``beta`` must be a positive number or ``inf`` (hard attention)."""
    try:
        value = float(beta)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(beta, bool) or not value > 0:
        raise ValueError(f"beta must be a positive number or inf (hard attention), got {beta!r}")
    return value


def _rows(n: int) -> np.ndarray:
    return np.arange(n)


_RUN_TOKENS = 4096
"""Label runs of at least this many tokens (on average) are processed run by run."""


def _label_runs(b: Batch) -> list[tuple[int, int, int]] | None:
    """``[(label, lo, hi), ...]`` for the runs of equal labels of a label-sorted chunk, or
    ``None`` when the runs are too short to pay for a Python loop over them."""
    cuts = np.flatnonzero(b.labels[1:] != b.labels[:-1]) + 1
    if b.tokens.size < _RUN_TOKENS * (len(cuts) + 1):
        return None
    starts = [0, *cuts.tolist()]
    ends = [*cuts.tolist(), len(b)]
    return list(zip(b.labels[starts].tolist(), starts, ends))


def _pair_index(passes: TrainingPasses, b: Batch, V: int) -> np.ndarray:
    """``y_n·V + x_i`` for the chunk, ``(n, L)`` intp, in a reused buffer."""
    flat = passes.scratch("pairs", b.tokens.shape, np.intp)
    np.add(b.tokens, (b.labels * V)[:, None], out=flat)
    return flat


def _first_gradient(passes: TrainingPasses, W: np.ndarray, emb: Embeddings, miv: bool) -> np.ndarray:
    """Pass 1: ``G₁`` from the (label, token) counts ``C`` and label counts ``c``."""
    p = passes.params
    V, N, L = p.V, p.N, p.L
    local = threading.local()  # one integer table per thread: exact, order-free sums
    tables: list[np.ndarray] = []

    def count(b: Batch):
        table = getattr(local, "table", None)
        if table is None:
            table = local.table = np.zeros(V * V, dtype=np.int64)
            tables.append(table)
        runs = _label_runs(b)
        if runs is None:
            np.add.at(table, _pair_index(passes, b, V).ravel(), 1)
        else:  # one label per run: count its tokens into its row of the table
            for y, lo, hi in runs:
                table[y * V : (y + 1) * V] += np.bincount(b.tokens[lo:hi].ravel(), minlength=V)
        return np.bincount(b.labels, minlength=V)

    label_counts = np.zeros(V, dtype=np.int64)
    for labels in passes.map(count):
        label_counts += labels
    counts = np.sum(tables, axis=0)
    CE = counts.reshape(V, V).astype(np.float64) @ emb.E  # (V, d): Σ_x C[y,x] e_x
    G1 = W.T @ CE
    if miv:
        G1 += np.outer(W.T @ label_counts.astype(np.float64), emb.z_trig)
    return G1 / (N * L)


def _key_query_direction(passes, W, G1, emb, miv: bool) -> np.ndarray:
    """Pass 2: ``g`` from the score table ``Q[y, x] = e_xᵀ G₁ᵀ w_y`` and per-sequence means."""
    p = passes.params
    V, N, L = p.V, p.N, p.L
    R = W @ G1  # rows r_y = G₁ᵀ w_y
    Q = (R @ emb.E.T).ravel()  # Q[y, x] = r_yᵀ e_x, flat index y*V + x
    q = R @ emb.z_trig  # q_y = z_trigᵀ r_y

    def accumulate(b: Batch):
        n = len(b)
        S = passes.scratch("scores", b.tokens.shape, np.float64)  # S[n, i] = Q[y_n, x_i]
        runs = _label_runs(b)
        if runs is None:
            np.take(Q, _pair_index(passes, b, V), out=S, mode="clip")
        else:
            for y, lo, hi in runs:
                np.take(Q[y * V : (y + 1) * V], b.tokens[lo:hi], out=S[lo:hi], mode="clip")
        shift = S.mean(axis=1)
        if miv:
            shift += q[b.labels] / L
        np.subtract(S, shift[:, None], out=S)
        sums = np.bincount(b.tokens.ravel(), weights=S.ravel(), minlength=V)
        informative = S[_rows(n), b.pos]
        if miv:
            marker = q[b.labels]
            sums += np.bincount(b.tokens[_rows(n), b.pos], weights=marker, minlength=V)
            informative = informative + marker
        return sums, float(informative.sum())

    token_sums = np.zeros(V)
    trigger_sum = 0.0
    for sums, trig in passes.map(accumulate):
        token_sums += sums
        trigger_sum += trig
    return (token_sums @ emb.E + trigger_sum * emb.z_trig) / (N * L)


def _second_value(passes, W, emb, a, alpha, beta, scale, miv: bool):
    """Pass 3: ``G₂`` from the (label, attended token) masses; also the training
    selection accuracy.  Soft attention adds its masses in chunk order (reproducible)."""
    p = passes.params
    V, N = p.V, p.N
    hard = math.isinf(beta)

    def accumulate(b: Batch):
        n = len(b)
        out = passes.scratch("scores", b.tokens.shape, np.float64) if hard else None
        attended, sigma = attend(b.tokens, b.pos, a, alpha, beta, scale, out=out)
        hit = attended == b.pos
        if hard:
            pairs = b.labels * V + b.tokens[_rows(n), attended]
            informative = np.bincount(b.labels, weights=hit, minlength=V) if miv else None
            return pairs, None, informative, int(hit.sum())
        pairs = (b.tokens + (b.labels * V)[:, None]).ravel()
        informative = np.bincount(b.labels, weights=sigma[_rows(n), b.pos], minlength=V) if miv else None
        return pairs, sigma.ravel(), informative, int(hit.sum())

    mass = np.zeros(V * V)
    hard_pairs: list[np.ndarray] = []
    informative_mass = np.zeros(V)
    selected = 0
    for pairs, weights, informative, hits in passes.map(accumulate):
        if hard:
            hard_pairs.append(pairs)
        else:
            np.add.at(mass, pairs, weights)
        if miv:
            informative_mass += informative
        selected += hits
    if hard_pairs:
        mass += np.bincount(np.concatenate(hard_pairs), minlength=V * V)
    G2 = W.T @ (mass.reshape(V, V) @ emb.E)
    if miv:
        G2 += np.outer(W.T @ informative_mass, emb.z_trig)
    return G2 / N, selected / N


@dataclass(frozen=True)
class LimitFit:
    """Result of :func:`run_limit`: ``G1``, ``g``, ``G2`` (THEORY orientation, ``d×d``
    and ``d``), the attention rule and the diagnostics."""

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    G1: np.ndarray = field(repr=False)
    g: np.ndarray = field(repr=False)
    G2: np.ndarray = field(repr=False)
    beta: float
    diagnostics: Mapping[str, float]

    @property
    def trigger_coef(self) -> float:
        return float(self.emb.z_trig @ self.g)

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Labels ``argmax_y u_yᵀ G₂ o(X)`` and the attended positions."""
        emb = self.emb
        M = emb.U @ self.G2  # rows u_yᵀ G₂
        readout = emb.E @ M.T  # T[x, y] = u_yᵀ G₂ e_x
        marker = M @ emb.z_trig if self.params.marker_in_value else None
        a = emb.E @ self.g
        alpha = self.trigger_coef
        return predict_labels(readout, batch.tokens, batch.pos, a, alpha, self.beta,
                              _logit_scale(alpha), marker)


def _logit_scale(alpha: float) -> float:
    return abs(alpha) if alpha != 0.0 else 1.0


def selection_diagnostics(emb: Embeddings, g: np.ndarray, params: RetrievalParams) -> dict[str, float]:
    """``trigger_coef`` ``α = z_trigᵀ g``; ``trigger_coef_scaled`` ``α·L²·V/ζ²`` (≈ 1 by
    paper §3.3); ``selection_margin`` ``(α − (max_x a_x − min_x a_x))/|α|`` with token
    scores ``a_x = e_xᵀ g`` (> 0 guarantees that hard attention picks the informative
    position in every sequence); ``token_score_spread`` ``std(a)/|α|``."""
    a = emb.E @ g
    alpha = float(emb.z_trig @ g)
    scale = _logit_scale(alpha)
    return {
        "trigger_coef": alpha,
        "trigger_coef_scaled": alpha * params.L**2 * params.V / params.zeta**2,
        "selection_margin": (alpha - float(a.max() - a.min())) / scale,
        "token_score_spread": float(a.std()) / scale,
        "logit_scale": scale,
    }


def run_limit(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    beta: float = math.inf,
    chunk_tokens: int | None = None,
    cache_bytes: int = DEFAULT_CACHE_BYTES,
    threads: int = 1,
) -> LimitFit:
    """Early-phase limit of the three steps (THEORY §3 item 2), attention-only, in
    ``O(N·L + V²·d)`` time.  ``beta``: scale-free inverse temperature of the step-2
    attention (``inf``: hard attention, see the module docstring); ``chunk_tokens``:
    tokens per chunk (default ``2**18``); ``cache_bytes``: keep the compact training
    tokens between passes up to this size (default 512 MiB); ``threads``: worker threads
    over chunks (results do not depend on it).

    Diagnostics: ``trigger_coef``, ``trigger_coef_scaled``, ``selection_margin``,
    ``token_score_spread``, ``logit_scale`` (see :func:`selection_diagnostics`),
    ``train_selection_accuracy`` (fraction of training sequences whose informative
    position has the largest step-2 attention weight) and ``beta``."""
    if params.model != "attention":
        raise ValueError(
            f"run_limit is the attention-only fast path, got model={params.model!r}; "
            "the MLP limit is run_limit_mlp (theorycheck.algorithms.limit_mlp)"
        )
    beta = check_beta(beta)
    miv = params.marker_in_value
    passes = TrainingPasses(params, emb, train_seed, chunk_tokens=chunk_tokens,
                            cache_bytes=cache_bytes, threads=threads)
    W = centered_labels(emb.U)
    G1 = _first_gradient(passes, W, emb, miv)
    g = _key_query_direction(passes, W, G1, emb, miv)
    diagnostics = selection_diagnostics(emb, g, params)
    a = emb.E @ g
    alpha = diagnostics["trigger_coef"]
    G2, train_selection = _second_value(passes, W, emb, a, alpha, beta, diagnostics["logit_scale"], miv)
    diagnostics["train_selection_accuracy"] = train_selection
    diagnostics["beta"] = beta
    return LimitFit(params=params, emb=emb, G1=G1, g=g, G2=G2, beta=beta, diagnostics=diagnostics)


# Registry declaration (theorycheck.registry): the attention-only fast path, or the MLP limit.
from theorycheck.registry import Algorithm  # noqa: E402

ALGORITHM = Algorithm(
    name="limit",
    runners={"attention": "theorycheck.algorithms.limit:run_limit",
             "mlp": "theorycheck.algorithms.limit_mlp:run_limit_mlp"},
    dense=("mlp",),
    description="early-phase limit of the three-step algorithm (docs/theory.md §3 item 2)",
)
