"""Likelihood-weighted average of the per-link threshold fits (model averaging).

Several links ``F_k`` (probit, logit, cloglog, loglog; docs/thresholds.md) each give an
estimate ``t_k`` of the threshold ``t* = log r*`` and a Fieller interval ``[l_k, h_k]``.
All links have two parameters, so their Akaike weights equal their likelihood weights
(Burnham & Anderson 2002, *Model Selection and Multimodel Inference*, §4.2; Buckland,
Burnham & Augustin 1997, Biometrics 53:603):

    w_k = exp(loglik_k) / sum_j exp(loglik_j).

Each link's sampling distribution of ``t*`` is taken as the two-piece normal whose median
is ``t_k`` and whose ``a/2`` and ``1 - a/2`` quantiles are its Fieller limits (``a = 1 -
level``): ``G_k(x) = Phi((x - t_k)/s_k)`` with ``s_k = (t_k - l_k)/z`` below ``t_k`` and
``(h_k - t_k)/z`` above, ``z = Phi^-1(1 - a/2)``. The averaged CI is the pair of ``a/2``
tail quantiles of the mixture ``sum_k w_k G_k`` -- the model-averaged tail-area interval
(MATA; Turek & Fletcher 2012, Comput. Stat. Data Anal. 56:2809), with Fieller's
asymmetric interval in place of each Wald interval, so that one dominant link gives
exactly its own Fieller CI. The estimate is the mixture median (``G(x) = 1/2``) or the
weighted mean ``sum_k w_k t_k`` (docs/thresholds.md measures both).

A link whose Fieller set is unbounded carries mass that may lie anywhere: with total
weight ``u`` of such links the limits are the bounded mixture's ``(a/2 - u)/(1 - u)``
quantiles (the worst case), and no interval exists when ``u >= a/2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr, ndtri


@dataclass(frozen=True)
class LinkAverage:
    """Weights (summing to 1, in the order given), mixture median, weighted mean of the
    bounded links' estimates, and CI."""

    weights: np.ndarray
    median: float
    mean: float
    ci: tuple[float, float]


def link_weights(logliks: np.ndarray) -> np.ndarray:
    """``w_k = exp(loglik_k - max) / sum_j exp(loglik_j - max)`` (module doc).

    >>> link_weights(np.array([0.0, -np.log(3.0)])).round(3).tolist()
    [0.75, 0.25]
    """
    ll = np.asarray(logliks, dtype=float)
    if ll.ndim != 1 or ll.size == 0 or not np.all(np.isfinite(ll)):
        raise ValueError(f"logliks must be a non-empty 1-d array of finite numbers, got {logliks!r}")
    w = np.exp(ll - ll.max())
    return w / w.sum()


def _mixture_cdf(x: float, w: np.ndarray, t: np.ndarray, s_lo: np.ndarray, s_hi: np.ndarray) -> float:
    """``sum_k w_k G_k(x)`` with the two-piece normals ``G_k`` of the module doc."""
    scale = np.where(x < t, s_lo, s_hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where(scale > 0, (x - t) / scale, np.where(x < t, -np.inf, np.inf))
    return float(np.sum(w * ndtr(u)))


def _mixture_quantile(p: float, w: np.ndarray, t: np.ndarray, s_lo: np.ndarray, s_hi: np.ndarray) -> float:
    """``x`` with ``sum_k w_k G_k(x) = p``; it lies between the smallest and the largest
    of the components' own ``p`` quantiles."""
    zp = float(ndtri(p))
    own = t + np.where(zp < 0, s_lo, s_hi) * zp
    a, b = float(own.min()), float(own.max())
    if b - a <= 1e-12 * max(1.0, abs(a)):
        return a
    return float(brentq(lambda x: _mixture_cdf(x, w, t, s_lo, s_hi) - p, a, b, xtol=1e-12))


def average_links(
    estimates: np.ndarray, intervals: list[tuple[float, float] | None], logliks: np.ndarray, level: float
) -> LinkAverage | None:
    """Model-averaged estimate and CI of ``t*`` from per-link ``estimates``, Fieller
    ``intervals`` (``None``: unbounded) and ``logliks`` (module doc); ``None`` when the
    links with an unbounded interval weigh ``(1 - level)/2`` or more."""
    t = np.asarray(estimates, dtype=float)
    if t.ndim != 1 or len(intervals) != t.size or np.size(logliks) != t.size:
        raise ValueError(
            f"estimates, intervals and logliks must have one entry per link, got {t.size}, "
            f"{len(intervals)} and {np.size(logliks)}; pass them in the same order"
        )
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}")
    w = link_weights(np.asarray(logliks, dtype=float))
    bounded = np.array([iv is not None for iv in intervals])
    tail = (1.0 - level) / 2.0
    unbounded = float(w[~bounded].sum())
    if unbounded >= tail:
        return None
    lo = np.array([iv[0] for iv in intervals if iv is not None])
    hi = np.array([iv[1] for iv in intervals if iv is not None])
    tb, wb = t[bounded], w[bounded] / (1.0 - unbounded)
    z = float(ndtri(1.0 - tail))
    s_lo, s_hi = np.maximum(tb - lo, 0.0) / z, np.maximum(hi - tb, 0.0) / z
    p = (tail - unbounded) / (1.0 - unbounded)
    ci = (_mixture_quantile(p, wb, tb, s_lo, s_hi), _mixture_quantile(1.0 - p, wb, tb, s_lo, s_hi))
    median = _mixture_quantile(0.5, wb, tb, s_lo, s_hi)
    return LinkAverage(weights=w, median=median, mean=float(np.sum(wb * tb)), ci=ci)
