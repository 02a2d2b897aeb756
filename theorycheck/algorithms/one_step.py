"""One-step readout (docs/theory.md §3 item 3): what the first gradient alone can recall.

``W_V¹ = η G₁`` with ``G₁ = (1/N) Σ_n w_{y_n} ō_nᵀ`` (uniform attention at initialisation,
``w_y = u_y − ū``).  The readout predicts, for the informative token ``a = x_ℓ`` of a
test sequence, ``argmax_y u_yᵀ G₁ e_a``: no context and no attention, as if the
informative token had been found by an oracle.  docs/theory.md §5 measured
``N_crit ≈ 6.2·V·ln V + 34·L·V·(V + d)·ln V/d²`` at ``τ = 0.99`` for it.

Selection accuracy is not defined (there is no attention): ``predict`` reports the
attended position ``-1`` and :func:`theorycheck.simulate.simulate` reports selection
accuracy ``NaN``; success is decided on recall accuracy only.

``G₁`` comes from the (label, token) counts of the fast path (one pass, ``O(N·L + V²·d)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from theorycheck.algorithms.label_blocks import SortedTokens
from theorycheck.algorithms.count_passes import first_gradient
from theorycheck.algorithms.limit import centered_labels
from theorycheck.registry import Algorithm
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams
from theorycheck.tasks.training_passes import PASS_OPTIONS

__all__ = ["OneStepFit", "run_one_step", "one_step_on_prefix", "NO_ATTENTION"]

NO_ATTENTION = -1
"""Attended position reported by algorithms without attention."""


@dataclass(frozen=True)
class OneStepFit:
    """``G1`` (``d×d``, docs/theory.md orientation) and the readout."""

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    G1: np.ndarray = field(repr=False)
    diagnostics: Mapping[str, float]

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """``argmax_y u_yᵀ G₁ e_a`` for the informative token ``a`` of each row; attended
        positions are ``-1`` (no attention)."""
        n = len(batch)
        a = batch.tokens[np.arange(n), batch.pos]
        M = self.emb.U @ self.G1  # rows u_yᵀ G₁
        E = self.emb.E
        step = max(1, (1 << 22) // E.shape[0])  # blocks of the (V, V) table [x, y] = u_yᵀ G₁ e_x
        best = np.concatenate([(E[x : x + step] @ M.T).argmax(axis=1) for x in range(0, len(E), step)])
        labels = best[a]
        return labels, np.full(n, NO_ATTENTION, dtype=np.int64)


def run_one_step(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    chunk_tokens: int | None = None,
    threads: int = 1,
) -> OneStepFit:
    """``G₁`` from the first gradient, read out token by token (attention-only model)."""
    if params.model != "attention":
        raise ValueError(
            f"the one-step readout is defined for model='attention', got model={params.model!r}"
        )
    # one pass; sorted by label in memory when the compact tokens fit (else streamed,
    # with the count table of every label block alive at once: O(V²) memory)
    data = SortedTokens(params, emb, train_seed, chunk_tokens=chunk_tokens, threads=threads)
    return one_step_on_prefix(data, params.N)


def one_step_on_prefix(data: SortedTokens, N: int) -> OneStepFit:
    """The readout trained on the first ``N`` sequences of ``data`` (nested data: the
    same fit as :func:`run_one_step` with ``params.N = N``)."""
    params, emb = data.params.replace(N=N), data.emb
    G1 = first_gradient(data, N, centered_labels(emb.U), emb, params.marker_in_value)
    return OneStepFit(params=params, emb=emb, G1=G1, diagnostics={})


ALGORITHM = Algorithm(
    name="one-step",
    runners={"attention": "theorycheck.algorithms.one_step:run_one_step"},
    option_rules={k: PASS_OPTIONS[k] for k in ("chunk_tokens", "threads")},
    description="one-step readout of the first gradient (docs/theory.md §3 item 3)",
)
