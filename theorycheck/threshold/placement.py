"""Where the adaptive search puts its next points once its GLM fits (:mod:`theorycheck.threshold.search`, phase 3).

With the fitted link's probit-equivalent slope ``b1`` at the crossing ``t*_q``, the next
``count`` points are spread evenly over

    t_c +- spread/b1,    t_c = t*_q - REFINE_PULL * z_q / b1,

i.e. at ``u = u_c +- spread`` on the fitted probit scale with ``u_c = (1 - REFINE_PULL) z_q``
(``z_q = Phi^-1(q)``), clipped to the range already explored, and never wider than half of
it. The Fisher information about ``t*_q`` per trial, ``b1^2 phi(u)^2 / (Phi(u)(1-Phi(u)))``, is
largest at the crossing; the slope's is largest near the median, where a pair of points is
far apart in ``u`` and each trial is least predictable. The search may stop only once the
slope is known (:mod:`theorycheck.threshold.stopping`). At ``q = 1/2`` both meet. At
``q = 0.9`` a pair around the crossing (``spread = 0.8``) sits where success is 0.7-0.98 and
learns the slope slowly; pulled half-way to the median it would sit at 0.44 and 0.93.

**The pull is 0: measured, not adopted** (docs/thresholds.md, "Searches at other quantiles").
Half-way (0.5) spends 15-20% fewer trials at ``q = 0.9`` and 0.1, and keeps or raises the
coverage where the shape's tail beyond the crossing is short; where it is long (gumbel at
``q = 0.9``, weibull at 0.1) the crossing is then read off the link's extrapolation and the
coverage falls with the pull: 0.965, 0.940, 0.910 at pulls 0, 0.25, 0.5 (gumbel, q = 0.9).
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

__all__ = ["REFINE_PULL", "refine_points"]

#: How far the refine pair's centre moves from the crossing towards the median, as a
#: fraction of ``z_q`` (0: centred on the crossing). Kept at 0 for the coverage on long
#: tails (module docstring); ``python bench/refine_placement.py --pulls 0,0.25,0.5`` prints
#: what another value costs and buys.
REFINE_PULL = 0.0


def refine_points(t: np.ndarray, est: float, slope: float, *, q: float, spread: float, count: int) -> list[float]:
    """The next ``count`` points in ``t`` (module docstring): ``t`` the points explored,
    ``est`` the fitted crossing ``t*_q``, ``slope`` the probit-equivalent slope there (> 0)."""
    span = float(t.max() - t.min())
    half = min(spread / slope, max(span / 2.0, 1e-9))
    centre = est - REFINE_PULL * NormalDist().inv_cdf(q) / slope
    centre = min(max(centre, float(t.min())), float(t.max()))
    offsets = [0.0] if count == 1 else list(np.linspace(-half, half, count))
    return [centre + o for o in offsets]
