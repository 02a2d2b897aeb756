"""When the adaptive search may stop on its CI (:mod:`theorycheck.threshold.search`, phase 3).

A search stops once the CI of ``log r*`` that it reads is narrower than its target
``rel_width``, but only when

    trials >= min(MIN_TRIALS_TO_STOP, max_trials)   and   se(b1)/b1 <= MAX_SLOPE_REL_SE

for the fitted link ``P = F(b0 + b1 t)``. Both guard against the same selection: a CI's
width goes as ``1/b1``, so a CI that turns narrow early mostly rests on a slope that came
out steep by chance, and stopping on it keeps exactly those searches, whose CIs then
under-cover. The measurements behind both numbers are in docs/thresholds.md, "Stopping"
(``bench/stopping_rules.py`` reruns them).
"""

from __future__ import annotations

import math

from theorycheck.threshold.glm import ProbitFit

__all__ = ["MIN_TRIALS_TO_STOP", "MAX_SLOPE_REL_SE", "STOP_ON_AVERAGE", "slope_rel_se", "may_stop"]

#: The CI may stop a search only once it has this many trials (or its whole budget, if
#: smaller). A CI that turns narrow after a few points is mostly a slope that came out
#: steep by chance, and stopping on it selects those: on the coupon collector (exact
#: medians known; 200 seeded quick checks of 4 cells), the 31 of 799 cells that stopped
#: before 96 trials held the median in 29% of them (rms z = 5.0), the rest in 97%; with
#: this rule 96.4% of 800 held it, for 1.9% more trials (docs/thresholds.md, "Stopping").
MIN_TRIALS_TO_STOP = 96

#: ... and only once the fitted link's slope is known to ``se(b1)/b1`` at most this. A CI's
#: width goes as ``1/b1``, so a slope that came out steep by chance makes it narrow too
#: early. Without this rule the searches that stopped between 96 and 150 trials covered
#: 0.63 (coupon cells, 800 searches; 0.80 over 200 quick checks) and the narrowest
#: transitions (width 0.05) 0.908; with it 0.94-0.98 in every band of stopping counts and
#: 0.942, for 3.4% more trials on the coupon cells and 25-30% on the calibration shapes,
#: most of it on the narrow cells, the cheapest (docs/thresholds.md, "Stopping";
#: ``bench/stopping_rules.py``).
MAX_SLOPE_REL_SE = 0.15

#: The stopping rule reads the link average's CI (``True``) or the best link's Fieller
#: CI alone (``False``); docs/thresholds.md measures both.
STOP_ON_AVERAGE = False


def slope_rel_se(fit: ProbitFit) -> float:
    """``se(b1)/b1`` of a link fit ``P = F(b0 + b1 t)`` (``inf`` for a slope that is not positive)."""
    return math.sqrt(fit.cov[1, 1]) / fit.b1 if fit.b1 > 0 else math.inf


def may_stop(ci_width: float, rel_width: float, trials: int, max_trials: int, fit: ProbitFit) -> bool:
    """Whether a search with ``trials`` of its ``max_trials`` may stop on a CI of ``log r*``
    of width ``ci_width`` (target ``rel_width``) read from the link fit ``fit``."""
    return (ci_width <= rel_width and trials >= min(MIN_TRIALS_TO_STOP, max_trials)
            and slope_rel_se(fit) <= MAX_SLOPE_REL_SE)
