"""Threshold as a quantile of per-seed critical values, with an order-statistic CI.

docs/theory.md §4 defines the threshold of a cell as the resource at which the success
probability over seeds crosses ``q``.  When each seed's success is monotone in the
resource (nested data, :mod:`theorycheck.threshold.per_seed`), seed ``s`` has a
critical value ``c_s`` (success iff ``r >= c_s``), so ``P(success | r) = P(c <= r)``
and the threshold is the ``q``-quantile of the distribution of ``c``.

Estimate: the order statistic ``c_(k)``, ``k = ceil(n q)`` (inverse empirical CDF).
CI: the distribution-free interval ``[c_(l), c_(u)]`` of the ``q``-quantile (e.g.
Conover, *Practical Nonparametric Statistics*, 3rd ed., §3.2): with
``B ~ Binomial(n, q)`` the number of seeds below the true quantile ``ξ_q``,
``P(c_(l) <= ξ_q <= c_(u)) >= P(l <= B <= u − 1)`` (equality for continuous ``c``);
``l`` is the largest index with ``P(B <= l − 1) <= α/2`` and ``u`` the smallest with
``P(B <= u − 1) >= 1 − α/2`` (``α = 1 − level``), so the coverage is at least
``level``.  ``l < 1`` gives ``lo = 0`` (unbounded below), ``u > n`` ``hi = inf``.

Censoring: a seed that never succeeds on the grid has ``c = inf`` (right-censored); one
that succeeds at the grid's first point has ``c <= start`` (left-censored: where it is
the lower CI bound, ``lo = 0``).  Order statistics need no model for either, so the
censored seeds are simply counted (no censored likelihood is needed while fewer than
``n(1 − q)`` seeds are censored; otherwise the estimate is ``None``, censored above).
Critical values on a grid are rounded up to the grid: the estimand is the quantile of
the grid-rounded critical values (off by at most one grid step).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import binom

from theorycheck.threshold.glm import check_q_level
from theorycheck.threshold.result import Threshold

__all__ = ["order_statistic_ci", "quantile_threshold"]


def order_statistic_ci(n: int, q: float, level: float) -> tuple[int, int, float]:
    """1-based ranks ``(l, u)`` of the equal-tailed distribution-free CI of the
    ``q``-quantile from ``n`` samples (``l = 0`` or ``u = n + 1`` mean unbounded on that
    side) and its exact coverage ``P(l <= B <= u − 1)`` for continuous samples."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n (number of critical values) must be an integer >= 1, got {n!r}")
    q, level = check_q_level(q, level)
    alpha = 1.0 - level
    cdf = binom.cdf(np.arange(-1, n + 1), n, q)  # cdf[j + 1] = P(B <= j)
    ok_low = np.flatnonzero(cdf[: n + 1] <= alpha / 2 + 1e-12)  # l with P(B <= l - 1) <= α/2
    lower = int(ok_low.max()) if ok_low.size else 0
    ok_high = np.flatnonzero(cdf[1:] >= 1.0 - alpha / 2 - 1e-12)  # u - 1 with P(B <= u - 1) >= 1 - α/2
    upper = int(ok_high.min()) + 1 if ok_high.size else n + 1
    coverage = float((cdf[upper] if upper <= n else 1.0) - cdf[lower])  # P(B <= u-1) - P(B <= l-1)
    return lower, upper, coverage


def quantile_threshold(critical: Sequence[float], q: float = 0.5, level: float = 0.95, *,
                       start: float | None = None, resource: str = "N",
                       non_monotone: int = 0) -> Threshold:
    """The ``q``-quantile of per-seed critical values with its order-statistic CI (see
    the module docstring).  ``critical``: one value per seed, ``inf`` for a seed that
    never succeeds; ``start``: the grid's first point (values ``<= start`` are
    left-censored); ``non_monotone``: number of seeds whose success flipped back (a
    warning, since the quantile then only bounds the threshold)."""
    q, level = check_q_level(q, level)
    values = np.asarray(critical, dtype=float)
    if values.ndim != 1 or values.size == 0 or np.isnan(values).any() or (values <= 0).any():
        raise ValueError(
            f"critical must be a non-empty 1-d sequence of positive numbers (inf for a seed "
            f"that never succeeds), got {critical!r}"
        )
    n = values.size
    ordered = np.sort(values)
    k = max(1, math.ceil(n * q - 1e-12))
    lower, upper, coverage = order_statistic_ci(n, q, level)
    left = ordered <= start if start is not None else np.zeros(n, dtype=bool)
    lo = 0.0 if lower < 1 or left[lower - 1] else float(ordered[lower - 1])
    hi = math.inf if upper > n else float(ordered[upper - 1])
    estimate = float(ordered[k - 1])
    censored = None
    warnings = []
    if not math.isfinite(estimate):
        estimate, censored = None, "above"
        warnings.append(f"more than {1 - q:.0%} of the {n} seeds never succeed on the grid")
    elif left[k - 1]:
        censored = "below"
        warnings.append(f"at least {q:.0%} of the {n} seeds succeed at the grid's first point")
    if non_monotone:
        warnings.append(f"{non_monotone} of {n} seeds succeed and then fail again at a larger {resource}")
    notes = (
        f"quantile of {n} per-seed critical values: estimate c_({k}), CI [c_({lower}), c_({upper})]"
        f" (exact coverage {coverage:.3f} for continuous values); "
        f"{int(np.isinf(values).sum())} never succeed, {int(left.sum())} succeed at the first point",
    )
    return Threshold(estimate=estimate, ci=(lo, hi), q=q, points=(), level=level,
                     method="quantile", monotone=non_monotone == 0, censored=censored,
                     warnings=tuple(warnings), notes=notes, resource=resource)
