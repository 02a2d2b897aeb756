"""Model-free cross-checks: isotonic q-crossing, monotonicity test, binomial bracket.

None of these assumes a probit shape; they only assume that the success probability
is monotone in the resource (docs/theory.md §4).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import isotonic_regression
from scipy.stats import beta, hypergeom

from theorycheck.threshold.points import PooledPoints


def isotonic_crossing(pts: PooledPoints, q: float) -> float | None:
    """``t`` where the isotonic (non-decreasing) fit of the success rates crosses ``q``.

    The fit is ``scipy.optimize.isotonic_regression(k/n, weights=n)``; the crossing is
    linear interpolation in ``t`` between the last fitted rate below ``q`` and the next
    one; a plateau exactly at ``q`` gives its midpoint. ``None`` if the fit stays on one
    side of ``q``.
    """
    p_hat = pts.k / pts.n
    fit = isotonic_regression(p_hat, weights=pts.n.astype(float), increasing=True).x
    t = pts.t
    at_q = np.isclose(fit, q, rtol=0, atol=1e-12)
    if at_q.any():
        idx = np.flatnonzero(at_q)
        return float((t[idx[0]] + t[idx[-1]]) / 2.0)
    below = np.flatnonzero(fit < q)
    above = np.flatnonzero(fit > q)
    if below.size == 0 or above.size == 0:
        return None
    i, j = below[-1], above[0]
    return float(t[i] + (q - fit[i]) * (t[j] - t[i]) / (fit[j] - fit[i]))


def monotonicity_violation(pts: PooledPoints, alpha: float = 0.01) -> str | None:
    """A message when success significantly *decreases* somewhere along the resource.

    Every pair ``i < j`` (in the direction of success) with ``k_i/n_i > k_j/n_j`` gets a
    one-sided Fisher exact test; the smallest p-value, Bonferroni-corrected over all
    pairs, is compared with ``alpha`` (1 %: a warning should mean something).

    The p-values of all pairs come from one call of the hypergeometric tail that
    ``scipy.stats.fisher_exact(table, alternative="greater")`` evaluates for the table
    ``[[k_i, n_i - k_i], [k_j, n_j - k_j]]``: ``hypergeom.cdf(n_i - k_i, n_i + n_j, n_i,
    (n_i - k_i) + (n_j - k_j))`` (its margins are never 0 here, where it would return 1:
    ``k_i > 0`` and ``k_j < n_j``). A search's cell has tens of points, so hundreds of
    pairs, and one ``fisher_exact`` call each took a quarter of the time of the published
    fits' tests; ``tests/test_threshold_isotonic.py`` checks the two give the same p-values.
    """
    m = len(pts.t)
    n_pairs = m * (m - 1) // 2
    if n_pairs == 0:
        return None
    k, n = np.asarray(pts.k, dtype=np.int64), np.asarray(pts.n, dtype=np.int64)
    rate = pts.k / pts.n
    i, j = np.triu_indices(m, 1)  # the pairs in the order of a loop over i, then j > i
    down = rate[i] > rate[j]
    if not down.any():
        return None
    i, j = i[down], j[down]
    fail_i, fail_j = n[i] - k[i], n[j] - k[j]
    p_values = np.minimum(hypergeom.cdf(fail_i, n[i] + n[j], n[i], fail_i + fail_j), 1.0)
    best = int(np.argmin(p_values))  # the first pair with the smallest p-value
    p, i, j = float(p_values[best]), int(i[best]), int(j[best])
    if p * n_pairs >= alpha:
        return None
    return (
        f"success is not monotone: {pts.k[i]}/{pts.n[i]} at {pts.resources[i]:g} but "
        f"{pts.k[j]}/{pts.n[j]} at {pts.resources[j]:g} (Fisher p={p:.2g}, "
        f"Bonferroni over {n_pairs} pairs); the threshold may not be well defined"
    )


def bracket_interval(pts: PooledPoints, q: float, level: float) -> tuple[float, float]:
    """Model-free CI of the crossing in ``t``, from per-point exact binomial tests.

    Lower end: the largest ``t`` whose one-sided Clopper-Pearson upper bound (level
    ``1-(1-level)/2``) on P(success) is below ``q`` (the crossing lies above it); upper
    end: the smallest ``t`` whose lower bound is above ``q``. A side with no such point
    is unbounded (``-inf`` / ``inf``). Valid when success is monotone in ``t``.
    """
    a = (1.0 - level) / 2.0
    k, n = pts.k.astype(float), pts.n.astype(float)
    upper = np.where(k >= n, 1.0, beta.ppf(1.0 - a, k + 1.0, np.maximum(n - k, 1e-300)))
    lower = np.where(k <= 0, 0.0, beta.ppf(a, np.maximum(k, 1e-300), n - k + 1.0))
    lo_idx = np.flatnonzero(upper < q)
    hi_idx = np.flatnonzero(lower > q)
    lo = float(pts.t[lo_idx].max()) if lo_idx.size else -math.inf
    hi = float(pts.t[hi_idx].min()) if hi_idx.size else math.inf
    if lo > hi:  # contradictory (non-monotone) evidence: report the hull
        lo, hi = hi, lo
    return lo, hi


def trials_to_certify(q: float, level: float, side: str) -> int:
    """Trials, all failures (``side="low"``) or all successes (``"high"``), needed for a
    point to exclude the crossing at one-sided level ``(1-level)/2``:
    ``(1-q)^n <= a`` resp. ``q^n <= a``."""
    a = (1.0 - level) / 2.0
    p = (1.0 - q) if side == "low" else q
    return int(math.ceil(math.log(a) / math.log(p)))
