"""Early-phase limit of the three-step algorithm, attention-only fast path (docs/theory.md §3.2).

In the limit ``η → 0``, ``γη → β``, ``γ' → ∞`` of the three steps, with ``w_y = u_y − ū``
and ``ō_n = (1/L) Σ_i v_i^n`` (uniform attention at initialisation):

* ``G₁ = (1/N) Σ_n w_{y_n} ō_nᵀ``                                   (direction of ``W_V¹``)
* ``g  = (1/N) Σ_n (1/L) Σ_i [(v_i − ō_n)ᵀ r_n] k_i``, ``r_n = G₁ᵀ w_{y_n}``
                                                               (``W_KQ¹ z_EOS ∝ g``)
* attention logits ``β·k_iᵀ g / |α|`` with the trigger coefficient ``α = z_trigᵀ g``;
  ``β = ∞`` (default) is hard attention ``i* = argmax_i k_iᵀ g``;
* ``G₂ = (1/N) Σ_n w_{y_n} o_nᵀ`` with the step-2 attention     (direction of ``W_V²``)
* prediction ``argmax_y u_yᵀ G₂ o(X)`` with ``o`` from the same attention rule.

**Temperature.**  The logits of docs/theory.md §3.2 are ``γη·|z_EOS|²·k_iᵀ g``; their natural size is
``α ≈ ζ²/(L²V)`` (docs/theory.md §7.3).  We divide by ``|α|`` so that ``β`` is scale-free: it is the
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

Time ``O(N·L + V²·d)``, memory ``O(threads·B·V + chunk)`` plus the token cache: the
three passes see the same data through :class:`~theorycheck.algorithms.label_blocks.SortedTokens`
(sorted by label, kept compactly when they fit in ``cache_bytes``), walked in blocks of
``B`` labels; every table above exists for one block at a time (``B·V <= 2**21``
entries), each block is one thread's work, and per-block results are added in block
order, so results are bit-for-bit the same for any number of threads.  With hard
attention ``D`` has one entry per sequence and ``D E`` is a sparse product (``N·d``).
The passes are in :mod:`theorycheck.algorithms.count_passes` (NumPy, the default).  On
another array backend (``backend="torch"``: a GPU when there is one) the whole path,
counting and products, and the prediction run there
(:mod:`theorycheck.algorithms.device_counts`, :mod:`theorycheck.backend`), from the same data.
Numbers: ``bench/bench_limit.py``, ``bench/bench_gpu.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from theorycheck.algorithms.attention_readout import predict_labels
from theorycheck.backend import check_backend, get_backend
from theorycheck.algorithms.count_passes import first_gradient, key_query_direction, second_value
from theorycheck.algorithms.device_counts import DeviceTokens, device_passes, predict_on
from theorycheck.algorithms.label_blocks import SortedTokens
from theorycheck.models.training import DENSE_OPTIONS
from theorycheck.registry import Algorithm
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams
from theorycheck.tasks.training_passes import PASS_OPTIONS

__all__ = [
    "LimitFit",
    "run_limit",
    "limit_on_prefix",
    "centered_labels",
    "check_beta",
    "predict_labels",
    "selection_diagnostics",
]

def centered_labels(U: np.ndarray) -> np.ndarray:
    """``W[y] = w_y = u_y − ū`` (docs/theory.md §3 item 2)."""
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


@dataclass(frozen=True)
class LimitFit:
    """Result of :func:`run_limit`: ``G1``, ``g``, ``G2`` (docs/theory.md orientation, ``d×d``
    and ``d``), the attention rule, the diagnostics and the array backend that
    :meth:`predict` runs on."""

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    G1: np.ndarray = field(repr=False)
    g: np.ndarray = field(repr=False)
    G2: np.ndarray = field(repr=False)
    beta: float
    diagnostics: Mapping[str, float]
    backend: str = "numpy"

    @property
    def trigger_coef(self) -> float:
        return float(self.emb.z_trig @ self.g)

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Labels ``argmax_y u_yᵀ G₂ o(X)`` and the attended positions."""
        emb = self.emb
        a = emb.E @ self.g
        alpha = self.trigger_coef
        rule = (a, alpha, self.beta, _logit_scale(alpha))
        if self.backend != "numpy":  # M = U G₂ (a V·d² product) there too
            return predict_on(get_backend(self.backend), emb, self.G2, self.params.marker_in_value,
                              batch.tokens, batch.pos, *rule)
        M = emb.U @ self.G2  # rows u_yᵀ G₂
        marker = M @ emb.z_trig if self.params.marker_in_value else None
        return predict_labels(emb.E, M, batch.tokens, batch.pos, *rule, marker)


def _logit_scale(alpha: float) -> float:
    return abs(alpha) if alpha != 0.0 else 1.0


def selection_diagnostics(emb: Embeddings, g: np.ndarray, params: RetrievalParams) -> dict[str, float]:
    """``trigger_coef`` ``α = z_trigᵀ g``; ``trigger_coef_scaled`` ``α·L²·V/ζ²`` (≈ 1 by
    docs/theory.md §7.3); ``selection_margin`` ``(α − (max_x a_x − min_x a_x))/|α|`` with token
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
    cache_bytes: int | None = None,
    threads: int = 1,
    backend: str = "numpy",
) -> LimitFit:
    """Early-phase limit of the three steps (docs/theory.md §3 item 2), attention-only, in
    ``O(N·L + V²·d)`` time.  ``beta``: scale-free inverse temperature of the step-2
    attention (``inf``: hard attention, see the module docstring); ``chunk_tokens``:
    tokens per sub-batch (default ``2**18``); ``cache_bytes``: keep the compact training
    tokens between passes up to this size (default ``max(512 MiB, 4·V²)`` bytes, where a
    cache peaks no higher than streaming's tables: :func:`~theorycheck.algorithms.label_blocks.default_cache_bytes`);
    ``threads``: worker threads
    over label blocks (results do not depend on it, bit for bit; with more than one, set
    ``OPENBLAS_NUM_THREADS=1`` before NumPy loads, as the CLI and ``bench/blas_threads.py`` do, or
    OpenBLAS starts its own threads in each: docs/theory.md §7.12, "One BLAS thread"); ``backend``: array
    library of the whole count path and the prediction (:mod:`theorycheck.backend`;
    on a backend other than NumPy ``threads`` draws the data and the two cache options
    do not apply).

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
    if get_backend(backend).xp is None:
        data = SortedTokens(params, emb, train_seed, chunk_tokens=chunk_tokens,
                            cache_bytes=cache_bytes, threads=threads)
    else:  # the whole path on the backend; the token-cache options are the host path's
        data = DeviceTokens(params, emb, train_seed, backend, threads=threads)
    return limit_on_prefix(data, params.N, beta=beta)


def limit_on_prefix(data: SortedTokens | DeviceTokens, N: int, *, beta: float = math.inf) -> LimitFit:
    """The limit trained on the first ``N`` sequences of ``data`` (``N <= data.n_max``):
    the same fit as :func:`run_limit` with ``params.N = N`` and the same seed, because the
    training data are nested (docs/theory.md §1, :mod:`theorycheck.tasks.retrieval`).
    One :class:`SortedTokens` (NumPy) or :class:`DeviceTokens` (another array backend,
    which the fit's :meth:`LimitFit.predict` then uses too) drawn at ``n_max`` serves
    every ``N`` on a grid."""
    params, emb = data.params.replace(N=N), data.emb
    beta = check_beta(beta)
    miv = params.marker_in_value
    W = centered_labels(emb.U)
    if isinstance(data, DeviceTokens):
        G1, g, G2, train_selection, diagnostics = device_passes(
            data, N, W, miv, beta, lambda g: selection_diagnostics(emb, g, params))
        backend = data.bk.name
    else:
        G1 = first_gradient(data, N, W, emb, miv)
        g = key_query_direction(data, N, W, G1, emb, miv)
        diagnostics = selection_diagnostics(emb, g, params)
        a = emb.E @ g
        alpha = diagnostics["trigger_coef"]
        G2, train_selection = second_value(data, N, W, emb, a, alpha, beta, diagnostics["logit_scale"], miv)
        backend = "numpy"
    diagnostics["train_selection_accuracy"] = train_selection
    diagnostics["beta"] = beta
    return LimitFit(params=params, emb=emb, G1=G1, g=g, G2=G2, beta=beta, diagnostics=diagnostics,
                    backend=backend)


# Registry declaration (theorycheck.registry): the attention-only fast path, or the MLP limit
# (its token-table passes, not dense either: theorycheck.algorithms.limit_mlp).
ALGORITHM = Algorithm(
    name="limit",
    runners={"attention": "theorycheck.algorithms.limit:run_limit",
             "mlp": "theorycheck.algorithms.limit_mlp:run_limit_mlp"},
    work={"mlp": "theorycheck.algorithms.limit_mlp:trial_work"},
    option_rules={"beta": check_beta, "backend": check_backend, **PASS_OPTIONS, "chunk": DENSE_OPTIONS["chunk"]},
    description="early-phase limit of the three-step algorithm (docs/theory.md §3 item 2)",
)
