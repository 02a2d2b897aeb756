"""Where to sample while the GLM is not identified: the transition zone.

With ``t`` oriented so that success grows with it, the **zone** runs from the highest
all-failure point below every success (``a``) to the lowest all-success point above
every failure (``b``). Inside it the search places its next points:

* perfect separation (no failure above a success): bisect the gap between the last
  failure and the first success;
* quasi-separation (one mixed point ``m``, pure points on both sides): one point in
  each gap ``[a, m]`` and ``[m, b]``, at :data:`QUASI_STEP` of the gap from ``m``;
* overlap but a slope that is not significant: points at 1/3 and 2/3 of the zone.

When the grid cannot split the zone further, the two ends are *certified*: trials are
added until each end alone excludes the crossing by an exact one-sided binomial test
(``(1-q)^n <= (1-level)/2`` for all failures, ``q^n <= ...`` for all successes), which
makes ``[a, b]`` an honest model-free CI (:func:`~theorycheck.threshold.isotonic.bracket_interval`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theorycheck.threshold.glm import overlaps
from theorycheck.threshold.isotonic import trials_to_certify
from theorycheck.threshold.points import PooledPoints

#: Fraction of the gap between a lone mixed point and its pure neighbour at which the
#: next point goes. 0.5 bisects. 0.35 saved ~5 % of trials on planted curves but lowered
#: the CI coverage at wide transitions (0.907 against 0.937 over 300 runs), so we bisect.
QUASI_STEP = 0.5


@dataclass(frozen=True)
class Zone:
    """Ends ``a``, ``b`` of the transition zone in ``t`` and the next candidate ``t``'s."""

    a: float
    b: float
    candidates: tuple[float, ...]

    @property
    def width(self) -> float:
        return self.b - self.a


def transition_zone(pts: PooledPoints) -> Zone:
    """The zone and its candidates (module docstring); needs a success and a failure."""
    t, k, n = pts.t, pts.k, pts.n
    fail_t = float(t[k < n].max())  # highest point with a failure
    succ_t = float(t[k > 0].min())  # lowest point with a success
    pure_fail = t[(k == 0) & (t < succ_t)]
    pure_succ = t[(k == n) & (t > fail_t)]
    a = float(pure_fail.max()) if pure_fail.size else succ_t
    b = float(pure_succ.min()) if pure_succ.size else fail_t
    if overlaps(pts):
        cands: tuple[float, ...] = (a + (b - a) / 3.0, a + 2.0 * (b - a) / 3.0)
    elif fail_t < succ_t:
        cands = ((fail_t + succ_t) / 2.0,)
    else:
        cands = (fail_t - QUASI_STEP * (fail_t - a), succ_t + QUASI_STEP * (b - succ_t))
    return Zone(a, b, cands)


def certify_requests(pts: PooledPoints, zone: Zone, q: float, level: float,
                     budget: int) -> list[tuple[float, int]]:
    """``[(resource, extra trials)]`` that certify the pure ends of ``zone`` (at most
    ``budget`` trials in all); ``[]`` when they are certified or cannot be."""
    wanted = []
    for side, t_end in (("low", zone.a), ("high", zone.b)):
        idx = np.flatnonzero(np.isclose(pts.t, t_end, rtol=0, atol=1e-12))
        if idx.size == 0:
            continue
        i = int(idx[0])
        pure = pts.k[i] == 0 if side == "low" else pts.k[i] == pts.n[i]
        need = trials_to_certify(q, level, side)
        if pure and pts.n[i] < need:
            wanted.append((float(pts.resources[i]), int(need - pts.n[i])))
    out = []
    for r, c in wanted:
        c = min(c, budget)
        if c > 0:
            out.append((r, c))
            budget -= c
    return out
