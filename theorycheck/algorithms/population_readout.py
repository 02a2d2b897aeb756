"""Hard attention's read-out at infinite ``N``: the three-step limit with its step-2 values at their expectation.

The limit (:mod:`theorycheck.algorithms.limit`, docs/theory.md §3 item 2) stores

    G₂ = W̃ᵀ(D E)/N + [miv]·(W̃ᵀ c′) z_trigᵀ/N,

``D[y, x]`` the step-2 attention mass on token ``x`` in the training sequences of label ``y``, ``W̃``
the centred label embeddings and ``c′_y`` the count of label ``y``. As ``N → ∞`` ``D/N`` tends to its
expectation: a sequence of label ``y`` carries the fact's token ``x_y`` at the informative position and
``L − 1`` uniform distractors, so with hard attention (docs/theory.md §7.12, "The wall at infinite N")

    G₂ ∝ W̃ᵀ Σ_y (c_y e_{x_y} + (1 − c_y) ē + [miv]·c_y z_trig),   ē = (1/V) Σ_x e_x,

where ``c_y = F_a(a_{x_y} + α)^{L−1}`` is the chance that the fact's score plus the trigger's ``α``
beats the ``L − 1`` distractors' (``F_a`` the empirical distribution of the token scores ``a_x = e_xᵀ g``,
ties lose) and a miss lands on a uniform token. Step 1 (``g``, ``α``) is the limit's own fit at the
cell's finite ``N``; nothing else of the training is kept. The seed's own test set is scored
(:func:`theorycheck.simulate.trial_draws`: the same draws as a trial of the ``limit`` algorithm).

This is the read-out whose wall in ``d`` the catalogue's ``vural2026.readout_wall`` states, and the
``readout-wall`` task's trial (:mod:`theorycheck.tasks.readout_wall`); ``bench/population_wall.py``
adds finite ``β`` and the ablations on the same primitives.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from theorycheck.algorithms.limit import LimitFit, centered_labels, run_limit
from theorycheck.simulate import trial_draws
from theorycheck.tasks.retrieval import Batch, RetrievalParams

__all__ = ["trial_fit", "hard_stored", "expected_values", "hard_readout", "population_accuracy"]


def trial_fit(params: RetrievalParams, beta: float, seed, threads: int = 1) -> tuple[LimitFit, Batch, np.ndarray]:
    """One trial of the limit at ``beta`` with ``seed``: ``(fit, test, a)``, the fit, its test set and the
    token scores ``a_x = e_xᵀ g`` (``threads`` does not change the fit, bit for bit)."""
    emb, train_seed, test = trial_draws(params, seed)
    fit = run_limit(params, emb, train_seed, beta=beta, threads=threads)
    return fit, test, emb.E @ fit.g


def hard_stored(fit: LimitFit, a: np.ndarray, L: int) -> tuple[np.ndarray, np.ndarray]:
    """``(c, share)``: ``c_y = F_a(a_{x_y} + α)^{L−1}`` by label (ties lose), the weight with which hard
    attention stores label ``y``'s fact, and ``share_x = 1/V``, each token's share of a miss."""
    V = len(a)
    below = np.searchsorted(np.sort(a), a + fit.diagnostics["trigger_coef"], side="left") / V
    c = (below ** (L - 1))[np.argsort(fit.emb.perm)]  # np.argsort(perm)[y] is the token whose label is y
    return c, np.full(V, 1.0 / V)


def expected_values(fit: LimitFit, c: np.ndarray, share: np.ndarray, mean: bool = True) -> np.ndarray:
    """``G₂`` at infinite ``N``, ``W̃ᵀ(c_y e_{x_y} + (1 − c_y) ē + [miv]·c_y z_trig)`` with ``ē = shareᵀE``
    (rows by label; ``d×d``, the orientation of :class:`~theorycheck.algorithms.limit.LimitFit`; ``mean=False``
    drops the misses' part): the module docstring's formula for the weights ``c`` and shares ``share``."""
    emb = fit.emb
    rows = c[:, None] * emb.E[np.argsort(emb.perm)]
    if mean:
        rows += (1.0 - c)[:, None] * (share @ emb.E)[None, :]
    if fit.params.marker_in_value:
        rows += c[:, None] * emb.z_trig[None, :]
    return centered_labels(emb.U).T @ rows


def hard_readout(params: RetrievalParams, seed, threads: int = 1) -> tuple[LimitFit, Batch]:
    """One seed's hard-attention limit with ``G₂`` at infinite ``N`` (``g``, ``α`` from its fit at
    ``params.N``): ``(limit, test)``; the weights ``c_y`` by label in ``limit.diagnostics["stored"]``."""
    fit, test, a = trial_fit(params, math.inf, seed, threads)
    c, share = hard_stored(fit, a, params.L)
    return dataclasses.replace(fit, G2=expected_values(fit, c, share),
                               diagnostics={**fit.diagnostics, "stored": c}), test


def population_accuracy(params: RetrievalParams, seed, threads: int = 1) -> float:
    """One seed's test accuracy of :func:`hard_readout`: the fraction of its test sequences recalled."""
    limit, test = hard_readout(params, seed, threads)
    predicted, _ = limit.predict(test)
    return float(np.mean(predicted == test.labels))
