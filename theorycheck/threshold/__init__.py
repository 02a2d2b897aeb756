"""Empirical thresholds: adaptive search, binomial probit fit, model-free cross-checks.

docs/theory.md §4: the threshold of a cell is the resource at which the success probability
crosses ``q``. :class:`ThresholdSearch` chooses where to run trials (ask/tell, for the
sweep engine); :func:`find_threshold` drives it serially; :func:`fit_threshold` turns
any set of ``(resource, successes, trials)`` points into a :class:`Threshold`.
"""

from theorycheck.threshold.glm import fit_threshold
from theorycheck.threshold.result import Threshold
from theorycheck.threshold.search import ThresholdSearch
from theorycheck.threshold.serial import find_threshold

__all__ = ["Threshold", "ThresholdSearch", "find_threshold", "fit_threshold"]
