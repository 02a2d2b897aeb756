"""The monotonicity test's vectorised p-values are ``scipy.stats.fisher_exact``'s, pair for pair."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import fisher_exact

from theorycheck.threshold.isotonic import monotonicity_violation
from theorycheck.threshold.points import pool_points


def _by_fisher_exact(pts, alpha=0.01):
    """The test as first written: one ``fisher_exact`` call per decreasing pair, the first smallest kept."""
    m = len(pts.t)
    best = None
    for i in range(m):
        for j in range(i + 1, m):
            if pts.k[i] / pts.n[i] <= pts.k[j] / pts.n[j]:
                continue
            table = [[pts.k[i], pts.n[i] - pts.k[i]], [pts.k[j], pts.n[j] - pts.k[j]]]
            p = float(fisher_exact(table, alternative="greater").pvalue)
            if best is None or p < best[0]:
                best = (p, i, j)
    if best is None or best[0] * (m * (m - 1) // 2) >= alpha:
        return None
    p, i, j = best
    return (f"success is not monotone: {pts.k[i]}/{pts.n[i]} at {pts.resources[i]:g} but "
            f"{pts.k[j]}/{pts.n[j]} at {pts.resources[j]:g} (Fisher p={p:.2g}, "
            f"Bonferroni over {m * (m - 1) // 2} pairs); the threshold may not be well defined")


@pytest.mark.parametrize("seed", range(40))
def test_the_same_verdict_and_message_as_one_fisher_exact_call_per_pair(seed):
    # Random designs, a third of them with a planted dip so that both outcomes occur; the message carries the
    # p-value to two digits and the pair, so equal messages mean the same first smallest pair.
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 30))
    r = np.sort(rng.uniform(1, 100, m))
    n = rng.integers(1, 40, m)
    p = np.clip((r - 50) / 40 + 0.5, 0.02, 0.98)
    if seed % 3 == 0:
        p[m // 2:] = p[m // 2:] * 0.2
    k = rng.binomial(n, p)
    pts = pool_points(zip(r, k, n))
    assert monotonicity_violation(pts) == _by_fisher_exact(pts)


def test_a_dip_is_reported_and_a_monotone_curve_is_not():
    dip = pool_points([(1, 0, 20), (2, 20, 20), (3, 0, 20), (4, 20, 20)])
    assert monotonicity_violation(dip).startswith("success is not monotone: 20/20 at 2 but 0/20 at 3")
    assert monotonicity_violation(pool_points([(1, 0, 20), (2, 5, 20), (3, 15, 20), (4, 20, 20)])) is None
    assert monotonicity_violation(pool_points([(1, 3, 5)])) is None
